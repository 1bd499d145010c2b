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
        XCTAssertEqual(fitted.spans.map(\.text).joined(), "…hij")
        XCTAssertLessThanOrEqual(fitted.columns, 5)
    }
}
