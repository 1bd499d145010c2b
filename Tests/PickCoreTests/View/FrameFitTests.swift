@testable import PickCore
import XCTest

/// A title cut to a list only a column or two wide (a big preview pane beside it) never
/// takes more columns than it has: the painter would otherwise draw into the pane.
final class FrameFitTests: XCTestCase {
    private func glyphs(_ text: String) -> [Glyph] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { TerminalText.glyphs($0, range: 0..<$0.count) }
    }

    func testAOneColumnTitleWithAMatchAtItsEndTakesOneColumn() {
        let line = glyphs("1009")
        let fitted = FrameBuilder.fit(line, highlighted: [3], columns: 1)
        XCTAssertEqual(fitted.columns, 1)
        XCTAssertEqual(fitted.spans.map(\.text).joined(), "…")
    }

    func testTheMatchStaysInViewWhenThereIsRoomBetweenTheMarks() {
        let fitted = FrameBuilder.fit(glyphs("abcdefghij"), highlighted: [9], columns: 5)
        XCTAssertEqual(fitted.spans.map(\.text).joined(), "…ghij")
        XCTAssertLessThanOrEqual(fitted.columns, 5)
    }

    // fzf's suite (test_hscroll_off): a long line of `=` ending in 0123456789, `-q 0`.
    private let long = String(repeating: "=", count: 100) + "0123456789"
    private func fitted(_ look: ListLook, match: Int? = 100, ellipsis: String = "··") -> String {
        FrameBuilder.fit(glyphs(long), highlighted: match.map { [$0] } ?? [], columns: 30, ellipsis: ellipsis, look: look)
            .spans.map(\.text).joined()
    }

    func testTheMatchAndHscrollOffColumnsAfterItStayInView() {
        XCTAssertEqual(fitted(ListLook(hscrollOff: 0)), "··" + String(repeating: "=", count: 25) + "0··")
        XCTAssertEqual(fitted(ListLook(hscrollOff: 3)), "··" + String(repeating: "=", count: 22) + "0123··")
        XCTAssertEqual(fitted(ListLook()), "··" + String(repeating: "=", count: 18) + "0123456789",
                       "fzf's 10 columns: the line's end, no mark after it")
        XCTAssertEqual(fitted(ListLook(hscrollOff: 3), ellipsis: "XY"), "XY" + String(repeating: "=", count: 22) + "0123XY")
    }

    func testNoHscrollCutsAtTheEndAndKeepRightShowsTheEnd() {
        XCTAssertEqual(fitted(ListLook(hscroll: false)), String(repeating: "=", count: 28) + "··")
        XCTAssertEqual(fitted(ListLook(), match: nil), String(repeating: "=", count: 28) + "··")
        XCTAssertEqual(fitted(ListLook(keepRight: true), match: nil), "··" + String(repeating: "=", count: 18) + "0123456789")
        XCTAssertEqual(fitted(ListLook(hscrollOff: 0, keepRight: true)), "··" + String(repeating: "=", count: 25) + "0··",
                       "with a match shown, the match decides")
    }
}
