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

/// `--freeze-left` and `--freeze-right` as fzf 0.74.5 draws them (fzf's suite, test_freeze_*;
/// the rows checked against fzf at 42 columns).
final class FrozenFitTests: XCTestCase {
    private func fitted(_ line: String, left: Int = 0, right: Int = 0, match: String? = nil,
                        columns: Int = 40, d: String? = nil) throws -> String {
        let bytes = Array(line.utf8)
        let delimiter = try FieldDelimiter(d)
        var input = FrameInput(width: columns, listHeight: 1, result: nil, query: Query(""), queryText: "", total: 1)
        input.look = ListLook(freezeLeft: left, freezeRight: right)
        input.delimiter = delimiter
        input.gutterWidth = 0
        input.ellipsis = "XX"
        let highlights = match.flatMap { m in line.range(of: m).map { r in
            Array(line.utf8.distance(from: line.startIndex, to: r.lowerBound)..<line.utf8.distance(from: line.startIndex, to: r.upperBound))
        } } ?? []
        return bytes.withUnsafeBufferPointer { buffer in
            let parts = FrozenGlyphs(buffer, title: 0..<buffer.count, highlights: highlights, styles: [],
                                     input: input, width: columns)
            return FrameBuilder.fitFrozen(parts, highlighted: Set(highlights), columns: columns,
                                          ellipsis: "XX", look: input.look).spans.map(\.text).joined()
        }
    }

    private let long = (1...200).map(String.init).joined(separator: " ") + " "

    func testTheFrozenFieldsStayAndTheMiddleIsCut() throws {
        XCTAssertEqual(try fitted(long, left: 3, right: 3), "1 2 3 4 5 6 7 8 9 10 11 12XX198 199 200 ")
        XCTAssertEqual(try fitted(long, left: 3, right: 3, match: "100"), "1 2 3XX 98 99 100 101 102 XX198 199 200 ",
                       "the middle scrolls to the match between the frozen parts")
    }

    func testAFrozenEndTooLongForTheRowIsCutAtItsStart() throws {
        XCTAssertEqual(try fitted(long, right: 1000), "XX" + String(long.suffix(38)))
        XCTAssertEqual(try fitted(long, left: 3, right: 1000), "1 2 3XX" + String(long.suffix(33)))
    }

    func testAShortLineIsDrawnWhole() throws {
        XCTAssertEqual(try fitted("1 2 3 4 5", left: 1, right: 1), "1 2 3 4 5")
    }
}

final class InfoLineFailureTests: XCTestCase {
    func testAFailedInputCommandIsSaidOnlyWhileNothingWasRead() {
        var info = InfoLine(matches: 0, total: 0, isBusy: false, marked: nil, scopes: [], scope: 0)
        XCTAssertNil(info.failure)
        info.failedCommand = "false"
        XCTAssertEqual(info.failure, "[Command failed: false]", "fzf's words")
        XCTAssertEqual(info.fzfText, "[Command failed: false]", "what --info-command is given")
        info.total = 1
        XCTAssertNil(info.failure, "lines were read: the counts")
    }
}
