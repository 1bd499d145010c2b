@testable import PickCore
import XCTest

/// Items over several rows, as fzf 0.74.5 draws them for the same input: `--read0` items
/// with newlines (multi-line), `--wrap`, `--gap`; the rows read top to bottom, the window
/// counted in rows.
final class FrameSpanTests: XCTestCase {
    /// The rows as a screen shows them from the top: the pointer, the marker
    /// (`--marker-multi-line`'s for its place) and the text; a gap row as its rule.
    private func screen(_ items: [String], look: ListLook, width: Int = 20, height: Int = 12, moves: [Int] = [0],
                        marked: Bool = false, upward: Bool = true, scrollOff: Int = 0) -> [String] {
        let store = LineStore(separator: 0, parsesFields: false)
        for item in items { store.append(Array(item.utf8) + [0]) }
        store.finish()
        let engine = SearchEngine(store: store, matching: MatchingOptions(), ranking: RankingOptions(), skippedLines: 0)
        let result = engine.search("")!
        var scroll = 0
        var frame: Frame? = nil
        for selection in moves {
            var input = FrameInput(width: width, listHeight: height, result: result, query: Query(""), queryText: "",
                                   selection: selection, scroll: scroll, marked: marked ? Set(result.lines) : [],
                                   multi: true, total: store.count)
            input.look = look
            input.rowsReadUpward = upward
            input.headersFollowGroups = upward
            input.scrollOff = scrollOff
            frame = FrameBuilder.build(input, store: store)
            scroll = frame!.scroll
        }
        let rows: [String] = frame!.rows.map { row in
            switch row {
            case .section(let name): return name
            case .gap(let rule): return rule ? "  ┈┈" : ""
            case .line(let line):
                let glyphs: [ItemPart: String] = [.single: ">", .first: "╻", .middle: "┃", .last: "╹"]
                let marker = line.isMarked ? glyphs[line.part]! : " "
                return (line.isSelected ? ">" : " ") + marker + line.spans.map(\.text).joined()
            }
        }
        return upward ? rows.reversed() : rows
    }

    private let fzfSuiteItems = ["0", "1\n2", (1...30).map(String.init).joined(separator: "\n") + "\n"]

    func testAMultiLineItemTakesARowForEachOfItsLinesAndTheFarOneIsCutAtItsTop() {
        // fzf's suite (test_fzf_multi_line), at 12 rows: the third item shows its last rows.
        let rows = screen(fzfSuiteItems, look: ListLook(multiLine: true), marked: true)
        XCTAssertEqual(rows, [" ┃23", " ┃24", " ┃25", " ┃26", " ┃27", " ┃28", " ┃29", " ┃30", " ╹", " ╻1", " ╹2", ">>0"])
    }

    func testTheHighlightedItemShowsFromItsFirstRowWithThePointerOnEach() {
        let rows = screen(fzfSuiteItems, look: ListLook(multiLine: true), moves: [0, 1, 2], marked: true)
        XCTAssertEqual(rows, [">╻1", ">┃2", ">┃3", ">┃4", ">┃5", ">┃6", ">┃7", ">┃8", ">┃9", ">┃10", ">┃11", ">┃12␊"],
                       "cut at the list's end, its newline shows")
        let back = screen(fzfSuiteItems, look: ListLook(multiLine: true), moves: [0, 1, 2, 1], marked: true)
        XCTAssertEqual(back.suffix(3), [" ╹", ">╻1", ">╹2"], "the scroll keeps the item moved to at the list's start")
    }
}
