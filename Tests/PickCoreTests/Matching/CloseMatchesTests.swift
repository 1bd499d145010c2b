@testable import PickCore
import XCTest

/// The close matches `query` finds among `lines` (real matches left out), as text.
private func close(_ query: String, in lines: [String], matching: MatchingOptions = MatchingOptions(),
                   ranking: RankingOptions = RankingOptions(), limit: Int? = nil) -> [String] {
    let store = makeStore(lines)
    let engine = SearchEngine(store: store, matching: matching, ranking: ranking)
    let real = engine.search(query)!.lines
    return engine.closeMatches(query, excluding: real, limit: limit)!
        .map { String(decoding: store.bytes(of: Int($0)), as: UTF8.self) }
}

private let palette = ["Settings", "Save All", "Go to File", "Open Recent", "Toggle Comment"]

/// Random text of `n` characters from a few letters, separators and capitals.
private func randomText(_ n: Int, _ random: inout SeededGenerator) -> String {
    let alphabet = Array("abcst/._ XY")
    return String((0..<n).map { _ in alphabet.randomElement(using: &random)! })
}

final class CloseMatchesTests: XCTestCase {
    func testTwoSwappedLettersFindTheLine() {
        XCTAssertEqual(search("setitngs", in: palette), [], "no real match")
        XCTAssertEqual(close("setitngs", in: palette), ["Settings"])
    }

    func testAWrongLetterFindsTheLine() {
        XCTAssertEqual(close("sertings", in: palette), ["Settings"])
        XCTAssertEqual(close("tpggle", in: palette), ["Toggle Comment"])
    }

    func testAnExtraLetterFindsTheLine() {
        XCTAssertEqual(close("settinngs", in: palette), ["Settings"])
        XCTAssertEqual(close("xsettings", in: palette), ["Settings"])
    }

    func testAMissingLetterIsARealMatchAlready() {
        XCTAssertEqual(search("setings", in: palette), ["Settings"])
        XCTAssertEqual(close("setings", in: palette), [], "a real match is never a close match too")
    }

    func testTwoTyposInOneTermAreNotClose() {
        XCTAssertEqual(close("sxttxngs", in: palette), [])
    }

    func testAShortTermCarriesNoTypo() {
        // "sxv" less one letter would be two letters: in nearly every line.
        XCTAssertEqual(close("sxv", in: palette), [])
        XCTAssertEqual(close("svae", in: palette), ["Save All"], "four letters may carry one")
    }

    func testAPastedLineCarriesNoTypo() {
        let long = String(repeating: "settings", count: 8) + "x"
        XCTAssertEqual(close(long, in: [String(repeating: "settings", count: 8)]), [])
        XCTAssertEqual(close(String(repeating: "settings", count: 7) + "x", in: [String(repeating: "settings", count: 7)]).count, 1)
    }

    func testExactPrefixSuffixAndNegatedTermsCarryNoTypo() {
        XCTAssertEqual(close("'setitngs", in: palette), [])
        XCTAssertEqual(close("^setitngs", in: palette), [])
        XCTAssertEqual(close("setitngs$", in: palette), [])
        XCTAssertEqual(close("setitngs", in: palette, matching: MatchingOptions(fuzzy: false)), [],
                       "with --exact a plain term is exact")
        // A typo in a negation would hide lines: "!svae" hides nothing more than it says.
        XCTAssertEqual(search("!svae", in: palette).count, 5)
        XCTAssertEqual(close("!svae", in: palette), [])
    }

    func testOneTermOfSeveralCarriesTheTypo() {
        XCTAssertEqual(close("go fiel", in: palette), ["Go to File"])
        XCTAssertEqual(close("og fiel", in: palette), [], "a typo in each of two terms is two typos")
    }

    func testCaseAndDiacriticsFoldAsInRealMatches() {
        XCTAssertEqual(close("SETITNGS", in: palette), [], "smart case: upper case is typed on purpose")
        XCTAssertEqual(close("Setitngs", in: palette), ["Settings"])
        XCTAssertEqual(close("réglgae", in: ["Réglage", "Regalge"]), ["Réglage"])
        XCTAssertEqual(close("reglgae", in: ["Réglage"]), ["Réglage"])
    }

    func testKeywordsAndSectionsCountAsInRealMatches() {
        XCTAssertEqual(close("perferences", in: ["Settings\tApp\tpreferences,options", "Quit"]),
                       ["Settings\tApp\tpreferences,options"])
    }

    func testCloseMatchesAreRankedAmongThemselvesByScore() {
        let lines = ["my old settings file", "settings", "setqings"]
        XCTAssertEqual(close("setitngs", in: lines), ["settings", "my old settings file", "setqings"])
        XCTAssertEqual(close("setitngs", in: lines, limit: 1), ["settings"])
    }

    func testASwapOfTwoCharactersAFewApartIsOneTypo() {
        XCTAssertEqual(close("ramdon", in: ["random.txt", "readme.md", "rdm"]), ["random.txt"])
        XCTAssertEqual(close("mian", in: ["  dev", "* main"]), ["* main"], "adjacent, as before")
        XCTAssertEqual(close("rnadom", in: ["random.txt"]), ["random.txt"])
        XCTAssertEqual(close("modnar", in: ["random.txt"]), [], "a word backwards is no typo")
    }

    func testLettersStrewnAlongALineAreNoTypo() {
        // A word less one letter is in most long lines when its letters may lie anywhere.
        let files = ["./Sources/PickCore/Input/LineStore+Loading.swift", "./Sources/CPickScan/include/CPickScan.h",
                     "./Tests/PickCoreTests/Session/SuggestionsTests.swift", "./src/single.c"]
        XCTAssertEqual(close("singel", in: files), ["./src/single.c"])
        let processes = ["root  4242  1  0 21:55 pts/0  00:00:00 /usr/bin/tumx new-session",
                         "root    35  2  0 21:55 ?      00:00:00 [kworker/u8:2-ext4-rsv-conversion]",
                         "root    47  2  0 21:55 ?      00:00:00 [kworker/R-xfs_mru_cache]"]
        XCTAssertEqual(close("tmux", in: processes), [processes[0]])
        // Separators between the words do not count against it.
        XCTAssertEqual(close("gotofiel", in: ["Go to File", "Got a fine list"]), ["Go to File"])
    }

    func testWithoutSortingCloseMatchesKeepInputOrder() {
        let lines = ["xx settings", "settings", "zz setting s"]
        let unsorted = RankingOptions(sorts: false)
        XCTAssertEqual(close("setitngs", in: lines, ranking: unsorted), lines)
        XCTAssertEqual(close("setitngs", in: lines, ranking: RankingOptions(sorts: false, reversesInput: true)),
                       lines.reversed())
    }

    func testAScopeKeepsOnlyItsSection() {
        let store = makeStore(["Settings\tApp", "Settings\tEditor"])
        let engine = SearchEngine(store: store)
        XCTAssertEqual(engine.closeMatches("setitngs", excluding: [], scope: 2), [1])
        XCTAssertEqual(engine.closeMatches("setitngs", excluding: [])?.count, 2)
    }

    func testHighlightsShowTheCharactersTheCloseReadingMatched() {
        let store = makeStore(["Settings"])
        let query = Query("setitngs")
        XCTAssertEqual(CloseMatches.positions(inTitleOf: 0, store: store, query: query).count, 7)
    }

    /// The quick checks rule out only lines that no variant matches: on random lines and
    /// terms, close matches with them equal the definition (some variant matches, no real
    /// match).
    func testTheQuickCheckAgreesWithTheVariants() {
        var random = SeededGenerator(seed: 22)
        func text(_ n: Int) -> String { randomText(n, &random) }
        for round in 0..<80 {
            let lines = (0..<200).map { _ in text(Int.random(in: 0...24, using: &random)) }
            let query = round % 3 == 0 ? "\(text(4)) \(text(2))"
                : round % 5 == 0 ? "\(text(5)) \(text(4))" : text(Int.random(in: 4...7, using: &random))
            let store = makeStore(lines, plain: true)
            // (Half the rounds with the lines' characters noted, as the picker notes them.)
            if round % 2 == 1 { _ = store.noteCharacters(limit: 1 << 20) }
            let engine = SearchEngine(store: store)
            let real = engine.search(query)!.lines
            let found = Set(engine.closeMatches(query, excluding: real)!)
            let variants = CloseMatches.skipVariants(of: engine.parse(query))
            let matchers = variants.map { LineMatcher(store: store, query: $0.query) }
            let realSet = Set(real)
            var expected = Set<Int32>()
            for i in 0..<store.count where !realSet.contains(Int32(i)) {
                if variants.indices.contains(where: { v in
                    matchers[v].match(i, matchers[v].lookAhead(i), next: nil) != nil
                        && typedTogether(variants[v].query.groups[variants[v].group][variants[v].term], in: lines[i])
                }) { expected.insert(Int32(i)) }
            }
            XCTAssertEqual(found, expected, "query \(query.debugDescription)")
        }
    }

    /// The definition of `CloseMatches.isPlausible`, by brute force: some stretch of the
    /// line holds the term in order with at most one other character that is no separator.
    private func typedTogether(_ term: Term, in line: String) -> Bool {
        let l = Array(line.utf8), t = term.text
        func same(_ a: UInt8, _ b: UInt8) -> Bool { a == b || !term.caseSensitive && a >= 0x41 && a <= 0x5A && a | 0x20 == b }
        let separators: Set<UInt8> = [0x20, 0x2F, 0x5F, 0x2D, 0x2E]
        for s in l.indices {
            for e in s...l.count {
                var k = 0
                for b in l[s..<e] where k < t.count && same(b, t[k]) { k += 1 }
                guard k == t.count else { continue }
                let unmatchedSeparators = l[s..<e].filter(separators.contains).count - t.filter(separators.contains).count
                if (e - s) - t.count - unmatchedSeparators <= 1 { return true }
            }
        }
        return t.isEmpty
    }

    /// Typing on after a typo looks only at what the previous keystroke found: the close
    /// matches come out as a search from scratch finds them, backspaces included.
    func testTypingOnFindsWhatASearchFromScratchFinds() {
        var random = SeededGenerator(seed: 5)
        func text(_ n: Int) -> String { randomText(n, &random) }
        for round in 0..<30 {
            let lines = (0..<300).map { _ in text(Int.random(in: 0...24, using: &random)) }
            let store = makeStore(lines, plain: true)
            if round % 2 == 1 { _ = store.noteCharacters(limit: 1 << 20) }
            let typing = SearchEngine(store: store)
            let word = text(9).replacingOccurrences(of: " ", with: "a")
            var typed: [String] = (4...9).map { String(word.prefix($0)) }
            typed.insert(String(word.prefix(5)), at: 4)  // a backspace
            for query in typed {
                let real = typing.search(query)!.lines
                let fresh = SearchEngine(store: store)
                XCTAssertEqual(typing.closeMatches(query, excluding: real), fresh.closeMatches(query, excluding: real),
                               "\(query.debugDescription) after typing up to it")
            }
        }
    }

    func testTheCharactersThatCanBeLeftOutAreThoseWhoseDeletionFits() {
        var random = SeededGenerator(seed: 7)
        let alphabet: [UInt8] = Array("abcab".utf8)
        let ends = UnsafeMutablePointer<Int>.allocate(capacity: OneSkipCheck.longestTerm + 1)
        defer { ends.deallocate() }
        for _ in 0..<3000 {
            let line = (0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let term = (0..<Int.random(in: 1...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            func isSubsequence(_ t: [UInt8]) -> Bool {
                var k = 0
                for b in line where k < t.count && b == t[k] { k += 1 }
                return k == t.count
            }
            var expected: UInt64 = 0
            if isSubsequence(term) {
                expected = .max
            } else {
                for i in term.indices {
                    var shorter = term
                    shorter.remove(at: i)
                    if isSubsequence(shorter) { expected |= 1 << UInt64(i) }
                }
            }
            let got = line.withUnsafeBufferPointer { p in
                term.withUnsafeBufferPointer { t in
                    OneSkipCheck.skippable(t, in: p.baseAddress ?? UnsafePointer(bitPattern: 1)!, line.count,
                                           folds: false, ends: ends)
                }
            }
            XCTAssertEqual(got, expected, "\(String(decoding: term, as: UTF8.self)) in \(String(decoding: line, as: UTF8.self))")
        }
    }

    func testRepeatedLettersGiveOneVariant() {
        let variants = CloseMatches.skipVariants(of: Query("settings")).filter { !$0.swaps }
        XCTAssertEqual(variants.count, 7, "leaving out either t of tt gives one text")
        XCTAssertEqual(variants.first { $0.query.groups[0][0].text == Array("setings".utf8) }?.skips, 0b1100)
    }
}
