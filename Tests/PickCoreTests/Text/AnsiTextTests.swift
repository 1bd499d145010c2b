@testable import PickCore
import XCTest

final class AnsiTextTests: XCTestCase {
    private func strip(_ text: String) -> (String, [StyleRun]) {
        let (visible, runs) = AnsiText.strip(Array(text.utf8))
        return (String(decoding: visible, as: UTF8.self), runs)
    }

    func testColoursBecomeStylesAndLeaveTheVisibleText() {
        let (text, runs) = strip("\u{1B}[01;34mopt\u{1B}[0m and \u{1B}[31mred\u{1B}[m")
        XCTAssertEqual(text, "opt and red")
        XCTAssertEqual(runs, [StyleRun(offset: 0, sgr: "01;34"), StyleRun(offset: 3, sgr: ""),
                              StyleRun(offset: 8, sgr: "31"), StyleRun(offset: 11, sgr: "")])
    }

    func testStylesAddUpUntilReset() {
        XCTAssertEqual(strip("\u{1B}[1m\u{1B}[31mx").1, [StyleRun(offset: 0, sgr: "1;31")])
    }

    func testCursorMovesTitlesAndCharsetsAreTakenOut() {
        XCTAssertEqual(strip("a\u{1B}[2Jb\u{1B}[10;1Hc").0, "abc")
        XCTAssertEqual(strip("\u{1B}]0;title\u{7}name").0, "name")
        XCTAssertEqual(strip("\u{1B}]8;;file:///etc\u{1B}\\etc\u{1B}]8;;\u{1B}\\/").0, "etc/", "a hyperlink's text stays")
        XCTAssertEqual(strip("\u{1B}(Bplain\u{1B}=").0, "plain")
        XCTAssertEqual(strip("\u{1B}[?25lx").0, "x")
        XCTAssertEqual(strip("\u{1B}Pq#0\u{1B}\\sixel").0, "sixel", "a DCS string goes whole")
    }

    func testALoneEscapeStaysToBeDrawnAsASymbol() {
        XCTAssertEqual(strip("end\u{1B}").0, "end\u{1B}")
    }

    func testASequenceCutShortByTheLineEndIsDropped() {
        XCTAssertEqual(strip("name\u{1B}[31").0, "name")
    }

    func testAFilterCleansLinesSplitAcrossChunks() {
        let styles = AnsiStyles()
        var filter = AnsiFilter(separator: 0x0A, styles: styles)
        let input = Array("\u{1B}[31mred\u{1B}[0m\nplain\n\u{1B}[1mlast".utf8)
        var out: [UInt8] = []
        // Cut inside the first escape, inside "red", and at a newline.
        let cuts = [0, 2, 9, 14, input.count]
        for (from, to) in zip(cuts, cuts.dropFirst()) {
            out += Array(input[from..<to]).withUnsafeBytes { filter.feed($0) }
        }
        out += filter.finish()
        XCTAssertEqual(String(decoding: out, as: UTF8.self), "red\nplain\nlast")
        XCTAssertEqual(styles.runs(of: 0), [StyleRun(offset: 0, sgr: "31"), StyleRun(offset: 3, sgr: "")])
        XCTAssertEqual(styles.runs(of: 1), [])
        XCTAssertEqual(styles.runs(of: 2), [StyleRun(offset: 0, sgr: "1")])
    }
}
