@testable import PickCore
import XCTest

/// Text a user or a command gave pick to draw (`--separator`, `--info-command`): colours
/// kept, everything else made safe, and repeated as fzf repeats its separator.
final class StyledTextTests: XCTestCase {
    func testColoursAreKeptAndOtherEscapesDropped() {
        let text = StyledText(ansi: "\u{1B}[33ma\u{1B}[0mb\u{1B}[2J\u{1B}]0;title\u{7}c")
        XCTAssertEqual(text.plain, "abc")
        XCTAssertEqual(text.runs.map(\.text), ["a", "bc"])
        XCTAssertEqual(text.runs.first?.style, "33")
        XCTAssertEqual(text.runs.last?.style, "")
    }

    func testControlCharactersAreSymbolsAndTabsBlankToTheTabStop() {
        XCTAssertEqual(StyledText(ansi: "a\u{7}b").plain, "a\u{2407}b")
        XCTAssertEqual(StyledText(ansi: "a\tb", tabStop: 4).plain, "a   b", "fzf's suite: --tabstop 4 --separator")
        XCTAssertEqual(StyledText(ansi: "a\tb").width, 9)
    }

    func testRepeatedToTheColumnsCutMidText() {
        XCTAssertEqual(StyledText(ansi: "_-").repeated(columns: 5).plain, "_-_-_")
        XCTAssertEqual(StyledText(ansi: "日本").repeated(columns: 5).plain, "日本", "a wide glyph that would pass the end is left out")
        XCTAssertEqual(StyledText(ansi: "").repeated(columns: 5).plain, "")
        XCTAssertEqual(StyledText(ansi: "\u{1B}[1m").repeated(columns: 5).plain, "", "nothing visible: nothing drawn, no endless loop")
        XCTAssertEqual(StyledText(ansi: "ab").prefix(columns: 1).plain, "a")
    }
}
