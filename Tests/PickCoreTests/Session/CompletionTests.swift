@testable import PickCore
import XCTest

/// What Tab and the ghost text add to the query: only ever an extension of what was typed.
final class CompletionTests: XCTestCase {
    private func rests(_ query: String, _ suggestions: [String], limit: Int = 6) -> [String] {
        Completion.extensions(of: query, from: suggestions.map { Array($0.utf8) }, limit: limit)
    }

    /// The completions the picker offers for `query` over `lines` (a palette with
    /// `palette`) in `scope`: the ranker over the lines the list shows, then the rests.
    private func offered(_ query: String, in lines: [String], palette: Bool = false, scope: Int = 0) -> [String] {
        let store = makeStore(lines, plain: !palette)
        let shown = Scopes.filter(SearchEngine(store: store).search(query)!, to: scope).lines
        let found = Suggestions.suggest(query, in: store, limit: Tunables.Picker.suggestionsLookedAt, among: shown)
        return Completion.extensions(of: query, from: found, limit: Tunables.Picker.suggestions).map { query + $0 }
    }

    func testATitleThatStartsWithTheQueryCompletesWhole() {
        XCTAssertEqual(rests("dup", ["Duplicate Line"]), ["licate Line"])
        XCTAssertEqual(rests("go to de", ["Go to Definition"]), ["finition"])
    }

    func testOnlyASuggestionThatStartsWithTheQueryCompletesIt() {
        // git branch, fe: the branch, white space at the start aside (as fzf's ^ reads it).
        XCTAssertEqual(rests("fe", ["  feature/login", "* main"]), ["ature/"])
        XCTAssertEqual(rests("ma", ["* main"]), [], "`* ` is not white space")
        // ls -la /usr/bin, pyth: nothing; never the line of permissions, nor a guess at a word.
        XCTAssertEqual(rests("pyth", ["-rwxr-xr-x 1 root root 5904 Jan  1  2024 python3.12"]), [])
        XCTAssertEqual(rests("mai", ["src/main.c:3:\treturn 0;"]), [])
    }

    func testAPathCompletesOneComponentAtATime() {
        let paths = ["Sources/Pick/main.swift", "Sources/PickCore/Query.swift", "README.md"]
        XCTAssertEqual(rests("Sou", paths), ["rces/"], "files under one folder complete alike, once")
        XCTAssertEqual(rests("Sources/", paths), ["Pick/", "PickCore/"])
        XCTAssertEqual(rests("Sources/Pick/", paths), ["main.swift"])
    }

    func testATabEndsTheCompletion() {
        XCTAssertEqual(rests("a1b", ["a1b2c3d\tAda Lovelace\tFix the parser"]), ["2c3d"])
        XCTAssertEqual(rests("a1b2c3d", ["a1b2c3d\tAda Lovelace\tFix the parser"]), [], "nothing before the tab")
    }



    func testCaseAndDiacriticsAreFoldedAndTheRestIsTheLinesOwn() {
        XCTAssertEqual(rests("cafe", ["Café au lait"]), [" au lait"])
        XCTAssertEqual(rests("CAF", ["café"]), ["é"])
        XCTAssertEqual(rests("ecr", ["Écrire"]), ["ire"])
        // A query that carries diacritics matches them as typed, as the search does.
        XCTAssertEqual(rests("é", ["elan vital", "élan"]), ["lan"])
        XCTAssertEqual(rests("ß", ["straße"]), [], "not the s at the start")
    }

    func testRestsThatFoldAlikeAreOfferedOnceUpToTheLimit() {
        XCTAssertEqual(rests("it", ["Item", "ITEM", "items", "itemé", "iteme"]), ["em", "ems", "emé"])
        XCTAssertEqual(rests("x", (1...9).map { "x\($0)" }, limit: 3), ["1", "2", "3"])
    }

    func testEveryCompletionStartsWithTheQueryAsTyped() {
        var generator = SystemRandomNumberGenerator()
        let words = ["Go", "to", "Line", "  feature/login", "src/Pick/main.swift", "-rwxr-xr-x", "python3",
                     "Café", "naïve", "a\tb", "x/y/", "日本語", "e\u{301}", "", " ", "\t"]
        for _ in 0..<300 {
            let line = (0..<4).map { _ in words.randomElement(using: &generator)! }.joined(separator: " ")
            let scalars = Array(line.unicodeScalars)
            guard !scalars.isEmpty else { continue }
            let from = Int.random(in: 0..<min(scalars.count, 3), using: &generator)
            let to = Int.random(in: from...min(scalars.count, from + 4), using: &generator)
            let query = String(String.UnicodeScalarView(scalars[from..<to]))
            for rest in rests(query, [line]) {
                XCTAssertFalse(rest.isEmpty)
                XCTAssertFalse(rest.unicodeScalars.contains { $0.value < 0x20 }, "\(line.debugDescription) \(query)")
                let folded = Suggestions.fold(Array((query + rest).utf8))
                let haystack = Suggestions.fold(Array(line.utf8))
                XCTAssertTrue((0...max(0, haystack.count - folded.count)).contains {
                    haystack.dropFirst($0).starts(with: folded)
                }, "\(query) + \(rest) is in \(line.debugDescription)")
            }
        }
    }

    func testTheListDecidesWhatCompletesTheScopeToo() {
        let palette = ["Save\tActions\twrite", "Save All\tActions", "Go to Line\tGo to\tjump",
                       "Go to Symbol\tGo to\tsymbol,outline"]
        XCTAssertEqual(offered("s", in: palette, palette: true), ["save", "save All", "symbol"])
        // In the scope Go to, nothing from Actions.
        XCTAssertEqual(offered("s", in: palette, palette: true, scope: 2), ["symbol"])
        // Only lines the query matches: with smart case `Sy` does not match `sync`.
        XCTAssertEqual(offered("Sy", in: ["sync", "Symbol table"]), ["Symbol table"])
        // Keywords only in a palette; without one, a section or a keyword is text in the line.
        XCTAssertEqual(offered("wr", in: palette, palette: true), ["write"])
        XCTAssertEqual(offered("wr", in: palette), [])
        XCTAssertEqual(offered("sav", in: palette), ["save", "save All"], "up to the tab")
    }
}

final class TabCycleTests: XCTestCase {
    func testTabWalksTheCompletionsAndComesRound() {
        var cycle = TabCycle()
        let offered = ["Sources/", "Sort.swift"]
        XCTAssertEqual(cycle.next(for: "So") { offered }, "Sources/")
        cycle.queryChanged(to: "Sources/")
        XCTAssertEqual(cycle.next(for: "Sources/") { XCTFail("not asked again"); return [] }, "Sort.swift")
        cycle.queryChanged(to: "Sort.swift")
        XCTAssertEqual(cycle.next(for: "Sort.swift") { [] }, "Sources/", "round to the first")
    }

    func testTypingStartsAFreshWalk() {
        var cycle = TabCycle()
        XCTAssertEqual(cycle.next(for: "a") { ["ab", "ac"] }, "ab")
        cycle.queryChanged(to: "abx")
        XCTAssertEqual(cycle.next(for: "abx") { ["abxy"] }, "abxy")
        var empty = TabCycle()
        XCTAssertNil(empty.next(for: "zz") { [] })
    }

    func testUnderSmartCaseTheRestKeepsMatchingItsLine() {
        // `pre` + `viewController.swift` would be case-sensitive and match nothing.
        let lower = Completion.lowercasesRest(of: "pre", caseMode: .smart)
        XCTAssertTrue(lower)
        XCTAssertEqual(Completion.extensions(of: "pre", from: [Array("PreviewController.swift".utf8)], limit: 6,
                                             lowercased: lower), ["viewcontroller.swift"])
        // A word after a space is a term of its own: its capital matches as it is.
        XCTAssertEqual(Completion.extensions(of: "dup", from: [Array("Duplicate Line".utf8)], limit: 6,
                                             lowercased: lower), ["licate Line"])
        XCTAssertFalse(Completion.lowercasesRest(of: "Pre", caseMode: .smart), "a capital typed: case matters already")
        XCTAssertFalse(Completion.lowercasesRest(of: "pre", caseMode: .ignore))
        let completed = "pre" + Completion.extensions(of: "pre", from: [Array("PreviewController.swift".utf8)],
                                                      limit: 1, lowercased: lower)[0]
        let store = LineStore()
        store.append(Array("PreviewController.swift\n".utf8))
        store.finish()
        XCTAssertEqual(SearchEngine(store: store).search(completed)?.lines, [0], "the completed query matches its line")
    }
}
