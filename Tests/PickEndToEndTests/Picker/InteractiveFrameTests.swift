import PickCore
import XCTest

/// The picker's view model, without a terminal: what a frame shows for a given result.
final class InteractiveFrameTests: XCTestCase {
    /// A store of `text`'s lines, read as a palette (`--palette`) unless `palette` is false.
    func store(_ text: String, palette: Bool = true) -> LineStore {
        let s = LineStore(parsesFields: palette)
        s.append(Array(text.utf8))
        s.finish()
        return s
    }

    func frame(_ store: LineStore, query: String = "", width: Int = 40, height: Int = 10, selection: Int = 0,
               scroll: Int = 0, scope: Int = 0, bottom: Bool = false) -> Frame {
        var result = SearchEngine(store: store).search(query)!
        result = Scopes.filter(result, to: scope)
        var input = FrameInput(width: width, listHeight: height, result: result, query: Query(query),
                               queryText: query, selection: selection, scroll: scroll,
                               total: store.count, scopes: Scopes.names(in: store), scope: scope)
        input.headersFollowGroups = bottom
        return FrameBuilder.build(input, store: store)
    }

    func text(_ row: FrameRow) -> String {
        switch row {
        case .section(let name): return "# " + name
        case .line(let line): return (line.isSelected ? "> " : "  ") + line.spans.map(\.text).joined()
                + (line.chip.map { " [\($0)]" } ?? "")
        case .gap: return ""
        }
    }

    let palette = "New File\tCreate\tadd\tctrl-n\nSave\tActions\twrite\tf5\nGo to Line\tGo to\tjump\tf9\nNew Folder\tCreate\n"

    func testSectionHeadersStandAboveTheirGroupsInInputOrder() {
        let f = frame(store(palette))
        XCTAssertEqual(f.rows.map(text), ["# Create", "> New File [ctrl-n]", "  New Folder",
                                          "# Actions", "  Save [f5]", "# Go to", "  Go to Line [f9]"])
        XCTAssertEqual(f.info.matches, 4)
        XCTAssertEqual(f.info.scopes, ["All", "Create", "Actions", "Go to"])
    }

    func testWithThePromptAtTheBottomHeadersFollowTheirGroupsInFlowOrder() {
        let f = frame(store(palette), bottom: true)
        XCTAssertEqual(f.rows.map(text), ["> New File [ctrl-n]", "  New Folder", "# Create",
                                          "  Save [f5]", "# Actions", "  Go to Line [f9]", "# Go to"])
    }

    func testAScopeShowsOneSection() {
        let f = frame(store(palette), scope: 1)
        XCTAssertEqual(f.rows.map(text), ["# Create", "> New File [ctrl-n]", "  New Folder"])
        XCTAssertEqual(Scopes.index(named: "go TO", in: store(palette)), 3)
    }

    func testTheChipIsDroppedWhenTheRowIsTooNarrow() {
        XCTAssertEqual(frame(store("A long title for a command\t\t\tctrl-o\n"), width: 40).rows.map(text),
                       ["> A long title for a command [ctrl-o]"])
        XCTAssertEqual(frame(store("A long title for a command\t\t\tctrl-o\n"), width: 20).rows.map(text),
                       ["> A long title for··"], "fzf's ellipsis")
    }

    func testMatchedCharactersAreHighlightedAndKeptInViewWhenCut() {
        let f = frame(store("src/models/user_account_controller.swift\n"), query: "ctrl", width: 24)
        guard case .line(let line)? = f.rows.first else { return XCTFail("no row") }
        let highlighted = line.spans.filter(\.isHighlighted).map(\.text).joined()
        XCTAssertEqual(highlighted, "ctrl")
        XCTAssertTrue(line.spans.first?.text.hasPrefix("··") == true, "cut on the left to show the match")
        XCTAssertLessThanOrEqual(line.titleColumns, 22)
    }

    func testFuzzyHighlightPrefersWordStarts() {
        let s = store("app/models/foo.rb\n")
        let offsets = MatchPositions.inTitle(of: 0, store: s, query: Query("amf"))
        XCTAssertEqual(offsets, [0, 4, 11], "a(pp) m(odels) f(oo), not the first m and f found")
    }

    func testControlCharactersAreShownAsSymbolsAndWideCharactersTakeTwoColumns() {
        let s = store("a\u{1B}[31mb\u{7}\n日本\n")
        let glyphs = TerminalText.glyphs(s.bytes(of: 0), range: s.fields(of: 0).title)
        XCTAssertEqual(glyphs.map(\.text).joined(), "a␛[31mb␇")
        let wide = TerminalText.glyphs(s.bytes(of: 1), range: s.fields(of: 1).title)
        XCTAssertEqual(wide.map(\.width), [2, 2])
    }

    func testATabIsBlankSpaceToTheNextTabStop() {
        let s = store("ab\tc\t\td\n12345678\tx\n", palette: false)
        let glyphs = TerminalText.glyphs(s.bytes(of: 0), range: s.fields(of: 0).title)
        XCTAssertEqual(glyphs.map(\.text).joined(), "ab      c       " + String(repeating: " ", count: 8) + "d")
        XCTAssertEqual(glyphs.map(\.width), [1, 1, 6, 1, 7, 8, 1])
        XCTAssertFalse(glyphs.contains(where: \.isSymbol))
        let full = TerminalText.glyphs(s.bytes(of: 1), range: s.fields(of: 1).title)
        XCTAssertEqual(full.map(\.width).reduce(0, +), 17, "a tab at a tab stop takes a whole stop")
    }

    func testScrollingKeepsTheSelectionAndItsHeaderInView() {
        let lines = (1...30).map { "item \($0)\t\($0 <= 15 ? "First" : "Second")" }.joined(separator: "\n") + "\n"
        let s = store(lines)
        let down = frame(s, height: 5, selection: 20)
        XCTAssertEqual(down.rows.map(text).last, "> item 21")
        let back = frame(s, height: 5, selection: 15, scroll: down.scroll)
        XCTAssertEqual(back.rows.map(text).first, "# Second", "the first line of a group brings its header")
    }

    func testNoMatchesAndNoInputSayWhatHappened() {
        let none = frame(store("apple\n"), query: "zzz")
        XCTAssertTrue(none.rows.isEmpty)
        XCTAssertEqual(none.message.first, "No matches for \u{201C}zzz\u{201D}.")
        let empty = frame(store(""))
        XCTAssertEqual(empty.message, ["No input: nothing was read to choose from."])
    }
}
