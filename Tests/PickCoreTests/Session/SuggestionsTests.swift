@testable import PickCore
import XCTest

/// The suggestion ranker behind Tab, ghost text and `pick --complete`.
final class SuggestionsTests: XCTestCase {
    func testPrefixMatchesComeFirstInInputOrderThenContaining() {
        let lines = ["Autosave", "Save All", "Unsaved", "Saved Search", "Open"]
        XCTAssertEqual(suggest("save", in: lines), ["Save All", "Saved Search", "Autosave", "Unsaved"])
    }

    func testCaseAndDiacriticsAreFolded() {
        let lines = ["Café au lait", "CAFETERIA", "décaf"]
        XCTAssertEqual(suggest("cafe", in: lines), ["Café au lait", "CAFETERIA"])
        XCTAssertEqual(suggest("CAFÉ", in: lines), ["Café au lait", "CAFETERIA"])
        XCTAssertEqual(suggest("deca", in: lines), ["décaf"])
    }

    func testDuplicatesByFoldedFormAreDropped() {
        let lines = ["Save All", "save all", "SAVE ÁLL", "Save as"]
        XCTAssertEqual(suggest("sav", in: lines), ["Save All", "Save as"])
    }

    func testLimitStopsTheList() {
        let lines = (1...10).map { "item \($0)" }
        XCTAssertEqual(suggest("item", in: lines, limit: 3), ["item 1", "item 2", "item 3"])
        XCTAssertEqual(suggest("item", in: lines).count, 6)
    }

    func testLimitKeepsPrefixMatchesBeforeContaining() {
        let lines = ["a-foo", "b-foo", "foo-1", "foo-2"]
        XCTAssertEqual(suggest("foo", in: lines, limit: 2), ["foo-1", "foo-2"])
    }

    func testNothingForEmptyText() {
        XCTAssertEqual(suggest("", in: ["Save", "Open"]), [])
    }

    func testNothingWhenTheTextEqualsAWholeSuggestion() {
        let lines = ["Save", "Save All"]
        XCTAssertEqual(suggest("Save", in: lines), [])
        XCTAssertEqual(suggest("save", in: lines), [])
        XCTAssertEqual(suggest("Sav", in: lines), ["Save", "Save All"])
    }

    func testKeywordsAreSuggestedTheirTitlesToo() {
        let lines = ["New File\tCreate\ttouch,add", "Find\tActions\tsearch grep"]
        XCTAssertEqual(suggest("tou", in: lines), ["touch"])
        XCTAssertEqual(suggest("gr", in: lines), ["grep"])
        XCTAssertEqual(suggest("new", in: lines), ["New File"])
    }

    func testSectionsAndShortcutsAreNotSuggested() {
        let lines = ["Save\tActions\twrite\tctrl-s"]
        XCTAssertEqual(suggest("act", in: lines), [])
        XCTAssertEqual(suggest("ctrl", in: lines), [])
    }

    func testHeaderLinesAreSkipped() {
        let lines = ["Header line", "Help", "Hello"]
        XCTAssertEqual(suggest("he", in: lines, skipping: 1), ["Help", "Hello"])
    }

    func testNoMatchGivesNothing() {
        XCTAssertEqual(suggest("zz", in: ["Save", "Open"]), [])
    }

    func testLookingOnlyAtASearchResultSuggestsTheSameAsLookingAtEverything() {
        // The picker hands the ranker the lines its search matched (in rank order).
        let lines = ["Open Recent", "Save As", "recent files", "Re-centre", "Close", "Recent"]
            + (0..<500).map { "noise \($0)" } + ["more recent stuff", "Recently closed"]
        let store = makeStore(lines)
        let engine = SearchEngine(store: store)
        for text in ["rec", "recent", "o", "Close", "zzz"] {
            let everything = Suggestions.suggest(text, in: store, limit: 6)
            let result = engine.search(text)!.lines
            XCTAssertEqual(Suggestions.suggest(text, in: store, limit: 6, among: result), everything, text)
        }
    }

    func testPartsLookedAtOnSeveralCoresSuggestWhatOnePassDoes() {
        // A large input is split into parts, each keeping its own first suggestions; merged,
        // they must be exactly one pass's: prefixes before containing candidates, input
        // order, duplicates (also across parts) dropped, the limit, and nothing at all when
        // some candidate, in any part, equals the text.
        var generator = SystemRandomNumberGenerator()
        let words = ["rec", "recent", "Recent", "récent", "pre-recent", "record", "wreck", "re", "cent", "x"]
        var lines: [String] = []
        for i in 0..<3000 {
            let a = words.randomElement(using: &generator)!, b = words.randomElement(using: &generator)!
            switch i % 4 {
            case 0: lines.append("\(a) \(i)")
            case 1: lines.append("\(a)\tsection\t\(b), \(a)x")
            case 2: lines.append("\(b)\(a)")
            default: lines.append("noise \(i)")
            }
        }
        // Two prefixes of "ec", late in the input, among many lines that contain it.
        lines[2500] = "special\tsection\tecto"
        lines[2900] = "Ectoplasm\tsection"
        let store = makeStore(lines)
        // The rule itself, spelled out: titles and keyword words, folded, in input order.
        func reference(_ text: String) -> [[UInt8]] {
            let query = Suggestions.fold(Array(text.utf8))
            var prefixed: [[UInt8]] = [], containing: [[UInt8]] = [], seen = Set<[UInt8]>()
            for line in lines {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                var candidates = [fields[0]]
                if fields.count > 2 { candidates += fields[2].split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
                for candidate in candidates where !candidate.isEmpty {
                    let key = Suggestions.fold(Array(candidate.utf8))
                    if key == query { return [] }
                    let isPrefix = key.starts(with: query)
                    let contains = (0...max(0, key.count - query.count)).contains { key.dropFirst($0).starts(with: query) }
                    guard contains, seen.insert(key).inserted else { continue }
                    if isPrefix { prefixed.append(Array(candidate.utf8)) } else { containing.append(Array(candidate.utf8)) }
                }
            }
            let first = Array(prefixed.prefix(6))
            return first + containing.prefix(6 - first.count)
        }
        for text in ["rec", "recent", "re", "cent", "x", "ec", "record", "zz", "noise 2999", "noise 3"] {
            let one = reference(text)
            for parts in [1, 2, 3, 7, 64] {
                XCTAssertEqual(Suggestions.suggest(text, in: store, limit: 6, parts: parts), one, "\(text) in \(parts) parts")
            }
            let engine = SearchEngine(store: store)
            XCTAssertEqual(Suggestions.suggest(text, in: store, limit: 6, among: engine.search(text)!.lines, parts: 5),
                           one, text)
        }
    }

    func testOnlyTheLinesGivenAreLookedAtHoweverMany() {
        // The picker hands the lines its list shows (one scope's); a huge list is no
        // reason to look at the others.
        let lines = (0..<120_000).map { $0 % 2 == 0 ? "shown \($0)" : "hidden \($0)" }
        let store = makeStore(lines)
        let shown = (0..<120_000).filter { $0 % 2 == 0 }.map(Int32.init)
        XCTAssertEqual(Suggestions.suggest("hidden", in: store, limit: 6, among: shown), [])
        XCTAssertEqual(Suggestions.suggest("shown 1", in: store, limit: 2, among: shown).map { String(decoding: $0, as: UTF8.self) },
                       ["shown 10", "shown 12"])
    }
}
