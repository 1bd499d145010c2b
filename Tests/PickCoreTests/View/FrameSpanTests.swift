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

    private let numbers = (1...40).map(String.init).joined(separator: " ")

    func testWrapGoesOnOverTheRowsBelowAfterTheSign() {
        // As fzf --wrap at 30 columns (28 for the text, 26 after the sign).
        let rows = screen([numbers], look: ListLook(wrap: true), width: 30, upward: false)
        XCTAssertEqual(rows, ["> 1 2 3 4 5 6 7 8 9 10 11 12 1", "> ↳ 3 14 15 16 17 18 19 20 21 ",
                              "> ↳ 22 23 24 25 26 27 28 29 30", "> ↳  31 32 33 34 35 36 37 38 3", "> ↳ 9 40"])
    }

    func testWordWrapBreaksAfterTheLastBlankThatFits() {
        let rows = screen([numbers], look: ListLook(wrap: true, wrapWord: true), width: 30, upward: false)
        XCTAssertEqual(rows.prefix(3), ["> 1 2 3 4 5 6 7 8 9 10 11 12 ", "> ↳ 13 14 15 16 17 18 19 20 ",
                                        "> ↳ 21 22 23 24 25 26 27 28 "], "the blank ends the row, as fzf's list")
    }

    func testAWrappedMatchIsHighlightedOnItsOwnRow() {
        let store = makeStore([numbers], plain: true)
        let engine = SearchEngine(store: store, matching: MatchingOptions(), ranking: RankingOptions(), skippedLines: 0)
        var input = FrameInput(width: 30, listHeight: 10, result: engine.search("'35")!, query: Query("'35"),
                               queryText: "'35", total: 1)
        input.look = ListLook(wrap: true)
        let frame = FrameBuilder.build(input, store: store)
        let highlighted = frame.rows.enumerated().compactMap { k, row -> String? in
            guard case .line(let line) = row else { return nil }
            let text = line.spans.filter(\.isHighlighted).map(\.text).joined()
            return text.isEmpty ? nil : "\(k):\(text)"
        }
        XCTAssertEqual(highlighted, ["3:35"], "the fourth row holds 35")
    }

    func testTheListScrollsByRowsToShowAWrappedHighlightWhole() {
        // As fzf --wrap --layout=reverse --scroll-off=0 at 30 columns after three Downs: ten
        // lines of five rows each in twelve rows; the fourth highlighted shows whole, the
        // one before it above, the next one's first rows below (fzf's offset in items).
        let items = Array(repeating: numbers, count: 10)
        let rows = screen(items, look: ListLook(wrap: true), width: 30, moves: [0, 1, 2, 3], upward: false)
        XCTAssertEqual(rows.map { $0.hasPrefix(">") }, Array(repeating: false, count: 5) + Array(repeating: true, count: 5)
                       + [false, false], "\(rows)")
        XCTAssertEqual(rows[4], "  ↳ 9 40")
        XCTAssertEqual(rows[11], "  ↳ 3 14 15 16 17 18 19 20 21 ")
    }

    func testGapRowsFollowEachItemTheLastWithTheRule() {
        let rows = screen(["1", "2", "3"], look: ListLook(gap: 2), height: 7, upward: false)
        XCTAssertEqual(rows, [">>1", "", "  ┈┈", "  2", "", "  ┈┈", "  3"].map { $0 == ">>1" ? "> 1" : $0 })
        let bottom = screen(["1", "2", "3"], look: ListLook(gap: 1), height: 4)
        XCTAssertEqual(bottom, ["  ┈┈", "  2", "  ┈┈", "> 1"], "in the bottom layout the gap is above its item")
    }

    func testNoMultiLineDrawsTheNewlinesOnOneRow() {
        let rows = screen(["a\nb\n", "c"], look: ListLook(), upward: false)
        XCTAssertEqual(rows, ["> a␊b␊", "  c"])
    }

    func testMarkerPartsFollowFzfsClasses() {
        XCTAssertEqual(FrameBuilder.part(0, of: 1, overflow: false, cutAtTop: false), .single)
        XCTAssertEqual(FrameBuilder.part(0, of: 1, overflow: true, cutAtTop: false), .first)
        XCTAssertEqual(FrameBuilder.part(0, of: 1, overflow: true, cutAtTop: true), .last)
        XCTAssertEqual(FrameBuilder.part(0, of: 3, overflow: true, cutAtTop: true), .middle)
        XCTAssertEqual(FrameBuilder.part(2, of: 3, overflow: true, cutAtTop: false), .middle)
        XCTAssertEqual(FrameBuilder.part(2, of: 3, overflow: false, cutAtTop: false), .last)
    }

    private func glyphs(_ text: String) -> [Glyph] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { TerminalText.glyphs($0, range: 0..<$0.count) }
    }

    private func wrapped(_ text: String, _ columns: Int, words: LineWrap.Words = .off) -> [String] {
        let all = glyphs(text)
        return LineWrap.rows(all, columns: columns, signWidth: 2, words: words).rows.map { all[$0].map(\.text).joined() }
    }

    func testLineWrapByCharactersWordsAndThePreviewsWords() {
        XCTAssertEqual(wrapped("abcdefghij", 4), ["abcd", "ef", "gh", "ij"], "rows after the first are the sign narrower")
        XCTAssertEqual(wrapped("ab cd ef gh", 6, words: .keepBlank), ["ab cd ", "ef ", "gh"])
        XCTAssertEqual(wrapped("1234567890 hello", 10, words: .dropBlank), ["1234567890", "hello"],
                       "fzf's preview: the blank at the break is dropped")
        XCTAssertEqual(wrapped("abcdefgh", 5, words: .keepBlank), ["abcde", "fgh"], "no blank: by characters")
        XCTAssertEqual(wrapped("漢字", 1), ["漢", "字"], "a character wider than the row takes one of its own")
        XCTAssertEqual(wrapped("", 5), [""], "an empty line takes a row")
    }
}
