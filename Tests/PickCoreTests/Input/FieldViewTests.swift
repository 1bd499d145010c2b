@testable import PickCore
import XCTest

/// --nth, --with-nth and --accept-nth over a store: what is searched, shown and printed.
final class FieldViewTests: XCTestCase {
    private func view(_ lines: [String], d: String? = nil, nth: String? = nil, withNth: String? = nil,
                      acceptNth: String? = nil, palette: Bool = false, chunk: Int = 1000) throws -> FieldView {
        let store = LineStore(separator: 0x0A, parsesFields: palette)
        let view = FieldView(store: store, delimiter: try FieldDelimiter(d),
                             nth: try nth.map { try FieldRanges(parsing: $0) },
                             withNth: try withNth.map { try Options.fieldTemplate($0, "--with-nth") },
                             acceptNth: try acceptNth.map { FieldTemplate(try FieldRanges(parsing: $0)) }, palette: palette)
        // Input arrives in pieces; each piece's lines are derived as it lands.
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        var at = 0
        while at < bytes.count {
            store.append(bytes[at..<min(bytes.count, at + chunk)])
            view.catchUp()
            at += chunk
        }
        store.finish()
        view.catchUp(finishing: true)
        return view
    }

    private func text(_ bytes: some Sequence<UInt8>) -> String { String(decoding: Array(bytes), as: UTF8.self) }

    private func found(_ query: String, _ v: FieldView) -> Set<String> {
        let result = SearchEngine(store: v.searched).search(query)!
        return Set(result.lines.map { text(v.original.bytes(of: Int($0))) })
    }

    func testEachLineGetsItsDerivedLineAtTheSameIndexHoweverInputArrives() throws {
        let lines = (0..<500).map { "k\($0):v\($0 * 7):" + ($0 % 3 == 0 ? "" : "tail") }
        let v = try view(lines, d: ":", nth: "2", chunk: 37)
        XCTAssertTrue(v.searched.isFinished)
        XCTAssertEqual(v.searched.count, lines.count)
        for i in [0, 1, 2, 250, 499] {
            XCTAssertEqual(text(v.searched.bytes(of: i)), "v\(i * 7)", "line \(i)")
        }
    }

    func testEmptyLinesStayLinesSoIndexesDoNotShift() throws {
        let v = try view(["a b", "", "c d", ""], nth: "2")
        XCTAssertEqual(v.searched.count, 4)
        XCTAssertEqual(found("d", v), ["c d"])
    }

    func testWithoutNthOrWithNthTheEngineSearchesTheStoreItself() throws {
        let v = try view(["a:b"], d: ":", acceptNth: "2")
        XCTAssertFalse(v.derives)
        XCTAssertTrue(v.searched === v.original)
        XCTAssertEqual(text(v.printed(0)), "b")
    }

    func testNthSearchesOnlyTheNamedFields() throws {
        let v = try view(["apple:pear", "pear:apple"], d: ":", nth: "2")
        XCTAssertEqual(found("apple", v), ["pear:apple"])
        XCTAssertEqual(found("pear", v), ["apple:pear"])
    }

    func testWithNthIsShownAndSearchedAndNthCountsInIt() throws {
        let v = try view(["id1 red apple", "id2 green pear"], withNth: "2..", )
        XCTAssertEqual(text(v.searched.bytes(of: 0)), "red apple")
        XCTAssertEqual(found("id", v), [])
        let both = try view(["id1 red apple", "id2 green pear"], nth: "2", withNth: "2..")
        XCTAssertEqual(text(both.searched.bytes(of: 1)), "pear")
        let shown = both.shown(1)
        XCTAssertEqual(text(shown.bytes), "green pear")
        XCTAssertEqual(shown.searchedToShown.prefix(4), [6, 7, 8, 9], "“pear” is at 6..<10 of what is shown")
    }

    func testShownFieldsLoseOnlyTrailingWhiteSpace() throws {
        XCTAssertEqual(text(try view(["a b c "], withNth: "2..").shown(0).bytes), "b c")
        XCTAssertEqual(text(try view([" a: b :"], d: ":", withNth: "2..").shown(0).bytes), " b :")
    }

    func testAWithNthTemplateIsWhatIsShownSearchedAndHighlighted() throws {
        // fzf's suite (test_with_nth_template): each placeholder's fields lose their last
        // delimiter (for blanks, the trailing blank), and --nth counts in the text made.
        let lines = ["hello world ", "byebye"]
        let v = try view(lines, nth: "2..", withNth: "{2} {1}. {1}.")
        XCTAssertEqual(text(v.shown(0).bytes), "world hello. hello.")
        XCTAssertEqual(text(v.searched.bytes(of: 0)), "hello. hello.")
        XCTAssertEqual(found("^he he.he.", v), ["hello world "])
        XCTAssertEqual(found("world", v), [], "the first field of the text made is not searched")
        XCTAssertEqual(Array(v.shown(0).searchedToShown.prefix(3)), [6, 7, 8], "“hello.” lies at 6 of what is shown")
        XCTAssertEqual(text(v.printed(0)), "hello world ", "the line as read is printed")
    }

    func testAWithNthTemplateCarriesTheLineIndexAndItsOwnText() throws {
        let v = try view(["a:b:c", "d:e:f"], d: ":", withNth: "{n}) {3}-{1,2}")
        XCTAssertEqual(text(v.shown(0).bytes), "0) c-a:b", "{1,2} keeps the delimiter between its fields")
        XCTAssertEqual(text(v.shown(1).bytes), "1) f-d:e")
        XCTAssertEqual(found("'1)", v), ["d:e:f"], "the template's own text is searched as shown")
    }

    func testAnsiColoursFollowTheFieldsOfATemplate() throws {
        let v = try view(["ab cd"], withNth: "<{2}> {1}")
        let runs = [StyleRun(offset: 0, sgr: "31"), StyleRun(offset: 3, sgr: "32")]
        XCTAssertEqual(v.shownStyles(0, runs), [StyleRun(offset: 0, sgr: ""), StyleRun(offset: 1, sgr: "32"),
                                                StyleRun(offset: 3, sgr: ""), StyleRun(offset: 5, sgr: "31")],
                       "the template's own text plain, each field in its colour")
    }

    func testNthMapsSearchedOffsetsOntoTheWholeLine() throws {
        let v = try view(["a:bc:d:ef"], d: ":", nth: "2,4")
        XCTAssertEqual(text(v.searched.bytes(of: 0)), "bc:ef")
        let shown = v.shown(0)
        XCTAssertEqual(text(shown.bytes), "a:bc:d:ef")
        XCTAssertEqual(Array(shown.searchedToShown.prefix(5)), [2, 3, 4, 7, 8])
    }

    func testOverlappingNthRangesSearchTheirTextOnce() throws {
        // fzf's zsh ctrl-r: --nth 2..,.. over `fc -rl` lines (number, command): the command
        // first, then the rest of the line (`..`: from the first field, not the blanks
        // before it), each byte once.
        let v = try view(["  12  echo 2nd 3", "  13  echo 3d"], nth: "2..,..")
        XCTAssertEqual(text(v.searched.bytes(of: 0)), "echo 2nd 312  ", "not 'echo 2nd 312  echo 2nd 3'")
        XCTAssertEqual(v.shown(0).searchedToShown, Array(6..<16) + Array(2..<6))
        XCTAssertEqual(found("e3d", v), ["  13  echo 3d"], "no match across repeated text (fzf: none)")
        XCTAssertEqual(found("^echo", v), ["  12  echo 2nd 3", "  13  echo 3d"], "^ finds the command at its start")
        let nested = try view(["a:bc:d:ef"], d: ":", nth: "2..3,3,1")
        XCTAssertEqual(text(nested.searched.bytes(of: 0)), "bc:d:a", "a range inside an earlier one adds nothing")
        let left = try view(["a:bc:d:ef"], d: ":", nth: "2..3,1..2")
        XCTAssertEqual(text(left.searched.bytes(of: 0)), "bc:d:a", "one overlapping from the left adds its part")
    }

    func testWithPaletteTheFieldsAreTheTitlesAndTheRestIsKept() throws {
        let lines = ["git: commit all\tGit\tsave,record", "open: file\tFiles\tload"]
        let v = try view(lines, d: ":", nth: "2", acceptNth: "1", palette: true)
        XCTAssertEqual(text(v.searched.bytes(of: 0)), " commit all\tGit\tsave,record")
        XCTAssertEqual(found("git", v), ["git: commit all\tGit\tsave,record"], "the section is still searched")
        XCTAssertEqual(found("record", v), ["git: commit all\tGit\tsave,record"], "and the keywords")
        XCTAssertEqual(found("open", v), [], "but not the title's first field")
        XCTAssertEqual(v.searched.section(of: 1) != 0, true)
        XCTAssertEqual(text(v.printed(0)), "git", "--accept-nth takes the title's fields")
    }

    func testAnsiColoursMoveWithTheShownFields() throws {
        let v = try view(["ab cd ef"], withNth: "2..")
        let runs = [StyleRun(offset: 0, sgr: "31"), StyleRun(offset: 4, sgr: "32"), StyleRun(offset: 6, sgr: "")]
        XCTAssertEqual(v.shownStyles(0, runs), [StyleRun(offset: 0, sgr: "31"), StyleRun(offset: 1, sgr: "32"),
                                                StyleRun(offset: 3, sgr: "")])
    }

    func testTheFrameHighlightsWhereTheMatchIsShown() throws {
        let v = try view(["al:pha:al", "x:alto:y"], d: ":", nth: "2")
        let query = Query("al")
        let result = SearchEngine(store: v.searched).search("al")!
        var input = FrameInput(width: 40, listHeight: 5, result: result, query: query, queryText: "al",
                               total: v.searched.count)
        input.fieldView = v
        let frame = FrameBuilder.build(input, store: v.searched)
        guard case .line(let row) = frame.rows.first else { return XCTFail("no row") }
        XCTAssertEqual(row.spans.map(\.text).joined(), "x:alto:y", "the whole line is shown")
        XCTAssertEqual(row.spans.filter(\.isHighlighted).map(\.text).joined(), "al")
        let before = row.spans.prefix { !$0.isHighlighted }.map(\.text).joined()
        XCTAssertEqual(before, "x:", "the highlight is on the second field")
    }
}
