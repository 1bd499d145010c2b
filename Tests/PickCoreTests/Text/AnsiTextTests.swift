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

    func testShiftInAndOutAfterAResetAreTakenOut() {
        // `tput sgr0` under TERM=screen or tmux is ESC [ m and SI: fish's history widget
        // puts it before each command, and the command must come out without it.
        XCTAssertEqual(strip("a\t\u{1B}[m\u{0F}echo 3rd").0, "a\techo 3rd")
        XCTAssertEqual(strip("x\u{0E}y\u{0F}").0, "xy")
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

    func testABoldCodeOnEveryLineLeavesTheLastLineJustBold() {
        // As `pick --ansi` reads 40,000 lines of `ESC[1mlineN`: the style is a terminal's
        // state, not the list of every code sent since the last reset.
        let styles = AnsiStyles()
        var filter = AnsiFilter(separator: 0x0A, styles: styles)
        let input = Array((0..<40_000).map { "\u{1B}[1mline\($0)\n" }.joined().utf8)
        _ = input.withUnsafeBytes { filter.feed($0) }
        XCTAssertEqual(styles.runs(of: 39_999), [StyleRun(offset: 0, sgr: "1")])
        XCTAssertEqual(styles.runs(of: 39_999).first?.sgr, "1")
    }

    func testEachCodeChangesTheFieldItSetsAsATerminalDoes() {
        XCTAssertEqual(AnsiStyle("31;32").sgr, "32", "a second foreground replaces the first")
        XCTAssertEqual(AnsiStyle("1;2;22").sgr, "", "22 ends bold and dim")
        XCTAssertEqual(AnsiStyle("01;38;5;208;48;2;1;2;300").sgr, "1;38;5;208", "an out-of-range colour is ignored")
        XCTAssertEqual(AnsiStyle("48;2;1;2;3;4;24;7").sgr, "7;48;2;1;2;3")
        XCTAssertEqual(AnsiStyle("38:2::10:20:30;4:0").sgr, "38;2;10;20;30", "colon forms; 4:0 is no underline")
        XCTAssertEqual(AnsiStyle("91;104;39").sgr, "104", "bright colours, then the default foreground")
        XCTAssertEqual(AnsiStyle("1;31;0;4").sgr, "4", "0 resets everything before it")
        XCTAssertEqual(AnsiStyle("38;5").sgr, "", "a colour cut short sets nothing")
    }

    func testAStyleIsAFewBytesWhateverItWasSent() {
        var style = AnsiStyle.plain
        for code in 0..<10_000 { style.apply(Array("\(code % 110);38;2;\(code % 256);1;2".utf8)) }
        XCTAssertLessThanOrEqual(MemoryLayout<AnsiStyle>.size, 16)
        XCTAssertLessThanOrEqual(style.sgr.utf8.count, 60)
    }

    private func shown(_ text: String, columns: Int = 100) -> (String, [StyleRun]) {
        let (visible, runs) = AnsiText.terminalLine(Array(text.utf8), columns: columns)
        return (String(decoding: visible, as: UTF8.self), runs)
    }

    func testGrepsEraseToTheLineEndLeavesItsColoursAndNoSymbol() {
        // `grep --color=always`: ESC[K after every colour change.
        let (text, runs) = shown("a \u{1B}[01;31m\u{1B}[Kmatch\u{1B}[m\u{1B}[K b")
        XCTAssertEqual(text, "a match b")
        XCTAssertEqual(runs, [StyleRun(offset: 2, sgr: "1;31"), StyleRun(offset: 7, sgr: "")])
    }

    func testACarriageReturnOrBackspaceWritesOverTheLineAsInATerminal() {
        XCTAssertEqual(shown("10%\r20%\r30%").0, "30%", "a progress line shows its last state")
        XCTAssertEqual(shown("abc\rX").0, "Xbc")
        XCTAssertEqual(shown("ab\u{8}c").0, "ac")
        XCTAssertEqual(shown("héllo\rH").0, "Héllo", "a character is its bytes, not one byte")
        XCTAssertEqual(shown("abcdef\u{1B}[3D\u{1B}[K").0, "abc")
        XCTAssertEqual(shown("abc\u{1B}[1K!").0, "   !", "erased through the cursor, written at it")
        XCTAssertEqual(shown("x\u{1B}[5Gy\u{1B}[2Cz").0, "x   y  z")
        XCTAssertEqual(shown("\u{1B}[999999Ghidden", columns: 10).0, "", "a move past the kept columns")
    }

    func testScreenAndRowEscapesAreDroppedNotDrawn() {
        XCTAssertEqual(shown("\u{1B}[2J\u{1B}[H\u{1B}[3Aafter\u{1B}[?25l\u{1B}]0;title\u{7}").0, "after")
        XCTAssertEqual(shown("bell\u{7}").0, "bell\u{7}", "another control character stays, drawn as a symbol")
    }
}
