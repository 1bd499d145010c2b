@testable import PickCore
import XCTest

/// Columns as a terminal counts them, from Unicode's tables (tools/gen-width-table.py).
final class TerminalWidthTests: XCTestCase {
    func testBidirectionalMarksSeparatorsAndTheByteOrderMarkTakeNoColumn() {
        for scalar: UInt32 in [0x200F, 0x200E, 0x061C, 0x2028, 0x2029, 0xFEFF, 0x200B, 0x200D, 0x2060] {
            XCTAssertEqual(TerminalText.width(of: scalar), 0, String(scalar, radix: 16))
        }
    }

    func testCombiningMarksTakeNoneWideCharactersTwoTheRestOne() {
        XCTAssertEqual(TerminalText.width("e\u{301}"), 1)
        XCTAssertEqual(TerminalText.width("\u{0E49}\u{1AB0}\u{1DC0}"), 0, "Thai, extended and supplement marks")
        XCTAssertEqual(TerminalText.width("日本"), 4)
        XCTAssertEqual(TerminalText.width("\u{1F600}\u{1F680}"), 4, "emoji")
        XCTAssertEqual(TerminalText.width("ＡＢ"), 4, "fullwidth forms")
        XCTAssertEqual(TerminalText.width("\u{3099}"), 0, "a combining kana mark, though East Asian wide")
        XCTAssertEqual(TerminalText.width("\u{00AD}"), 1, "the soft hyphen, which terminals draw")
        XCTAssertEqual(TerminalText.width("é→α"), 3)
    }

    func testATruncatedTextEndsInItsEllipsisWithinTheColumns() {
        XCTAssertEqual(TerminalText.truncate("abcdef", to: 4), "abc…")
        XCTAssertEqual(TerminalText.truncate("abcdef", to: 4, ellipsis: "··"), "ab··")
        XCTAssertEqual(TerminalText.truncate("abcdef", to: 1, ellipsis: "··"), "·", "the ellipsis cut when it is wider")
        XCTAssertEqual(TerminalText.truncate("abc", to: 3, ellipsis: "··"), "abc")
    }
}
