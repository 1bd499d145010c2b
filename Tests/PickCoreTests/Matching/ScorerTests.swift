@testable import PickCore
import XCTest

/// Scoring shortcuts must agree with the full dynamic-programming scorer.
final class ScorerTests: XCTestCase {
    private func score(_ text: String, _ query: String, rewardsName: Bool, viaDynamic: Bool) -> TermScore? {
        let term = PreparedTerm(Query(query).groups[0][0])
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { p -> TermScore? in
            let t = ScoredText(bytes: p.baseAddress!, count: p.count, foldsASCII: true, rewardsName: rewardsName)
            let scratch = ScoringScratch()
            if !viaDynamic { return Scorer.fuzzy(t, term, scratch: scratch) }
            guard Scorer.isSubsequence(t, term) else { return nil }
            // The window the fuzzy scorer would load: first occurrence to last occurrence.
            let needle = term.needle(0)
            let first = Scorer.find(t, needle, from: 0)!
            var end = first + needle.count
            while let at = Scorer.find(t, needle, from: end) { end = at + needle.count }
            let w = Scorer.load(t, from: first, to: end, into: scratch)
            return Scorer.dynamicScore(term, count: w, offset: first, text: t, scratch: scratch)
        }
    }

    func testOneCharacterQueriesScoreAsTheDynamicScorerWould() {
        var generator = SeededGenerator(seed: 1)
        let alphabet = Array("ab/_-. Ac9")
        for _ in 0..<3000 {
            let length = Int.random(in: 1...24, using: &generator)
            let text = String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
            for q in ["a", "c", "/", "9"] {
                for name in [true, false] {
                    let fast = score(text, q, rewardsName: name, viaDynamic: false)
                    let full = score(text, q, rewardsName: name, viaDynamic: true)
                    XCTAssertEqual(fast?.score, full?.score, "\(q) in \(text)")
                    XCTAssertEqual(fast?.begin, full?.begin, "\(q) in \(text)")
                    XCTAssertEqual(fast?.end, full?.end, "\(q) in \(text)")
                }
            }
        }
    }

    /// The scorer's recurrence over the whole table: every row, every column, no band.
    private func fullTable(_ text: String, _ query: String) -> (score: Int32, end: Int)? {
        let term = PreparedTerm(Query(query).groups[0][0])
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { p -> (score: Int32, end: Int)? in
            let t = ScoredText(bytes: p.baseAddress!, count: p.count, foldsASCII: !term.caseSensitive, rewardsName: true)
            guard Scorer.isSubsequence(t, term) else { return nil }
            let scratch = ScoringScratch()
            let w = Scorer.load(t, from: 0, to: p.count, into: scratch)
            let units = Array(UnsafeBufferPointer(start: scratch.units, count: w))
            let bonuses = Array(UnsafeBufferPointer(start: scratch.bonuses, count: w))
            let m = term.scalars.count, invalid: Int32 = -(1 << 29)
            var prevH = [Int32](repeating: invalid, count: w), prevC = [Int32](repeating: 0, count: w)
            var h = prevH, c = prevC
            for i in 0..<m {
                let q = term.scalars[i]
                var left = invalid, inGap = false
                for j in 0..<w {
                    let gap = left + (inGap ? ScoreWeights.gapExtension : ScoreWeights.gapStart)
                    guard units[j] == q else {
                        left = max(gap, invalid); c[j] = 0; inGap = true; h[j] = left
                        continue
                    }
                    var b = bonuses[j], diagonal = invalid, run: Int32 = 1
                    if i == 0 {
                        diagonal = ScoreWeights.match + b * ScoreWeights.firstCharMultiplier
                        if m == 1 && j >= scratch.nameStart { diagonal += ScoreWeights.lastComponent }
                    } else if j > 0 && prevH[j - 1] > invalid / 2 {
                        run = prevC[j - 1] + 1
                        if run > 1 {
                            let runBonus = bonuses[j - Int(run) + 1]
                            if b >= ScoreWeights.boundary && b > runBonus { run = 1 } else {
                                b = max(b, max(ScoreWeights.consecutive, runBonus))
                            }
                        }
                        diagonal = prevH[j - 1] + ScoreWeights.match + b
                        if i == m - 1 && j >= scratch.nameStart { diagonal += ScoreWeights.lastComponent }
                    }
                    if diagonal > invalid / 2 && diagonal >= gap {
                        left = diagonal; c[j] = run; inGap = false
                    } else {
                        left = max(gap, invalid); c[j] = 0; inGap = true
                    }
                    h[j] = left
                }
                (prevH, prevC) = (h, c)
            }
            var best = invalid, bestEnd = 0
            for j in 0..<w where c[j] > 0 && h[j] > best { (best, bestEnd) = (h[j], j) }
            // Back from a scalar index to a byte offset.
            var offset = 0
            for _ in 0...bestEnd { offset += UTF8Codec.decode(p.baseAddress!, offset, p.count).1 }
            return (max(best, 1), offset)
        }
    }

    func testTheScorerFindsWhatTheWholeTableFinds() {
        // The scorer looks only at the columns where query characters occur, within a band;
        // scores and ends must be those of the plain recurrence over every cell.
        var generator = SeededGenerator(seed: 2)
        let alphabet = Array("aab/_-. Ac9é日")
        for round in 0..<4000 {
            // A quarter longer, past the 64 and 128 bytes where occurrence bits change words
            // or give way to scans.
            let length = round % 4 == 3 ? Int.random(in: 41...150, using: &generator) : Int.random(in: 1...40, using: &generator)
            // Half the texts ASCII only.
            let letters = round % 2 == 0 ? alphabet : Array(alphabet.prefix(10))
            let text = String((0..<length).map { _ in letters.randomElement(using: &generator)! })
            let queryLength = round % 8 == 7 ? Int.random(in: 6...14, using: &generator) : Int.random(in: 2...5, using: &generator)
            let query = String((0..<queryLength).map { _ in Array("aab/c9é")[Int.random(in: 0..<7, using: &generator)] })
            let term = PreparedTerm(Query(query).groups[0][0])
            let reference = fullTable(text, query)
            // ASCII text is also scored where it lies, without loading the window, and
            // checked from the end when a match is likely (the band found on the way).
            let ways = text.utf8.allSatisfy({ $0 < 0x80 }) ? [(false, false), (true, false), (true, true)] : [(false, false)]
            var begins: [Int?] = []
            for (ascii, likely) in ways {
                let found: TermScore? = Array(text.utf8).withUnsafeBufferPointer { p in
                    var t = ScoredText(bytes: p.baseAddress!, count: p.count, foldsASCII: true, rewardsName: true,
                                       ascii: ascii)
                    t.likelyMatch = likely
                    return Scorer.fuzzy(t, term, scratch: ScoringScratch())
                }
                XCTAssertEqual(found?.score, reference?.score, "\(query) in \(text)")
                XCTAssertEqual(found?.end, reference?.end, "\(query) in \(text)")
                begins.append(found?.begin)
            }
            XCTAssertEqual(Set(begins.map { $0 ?? -1 }).count, 1, "\(query) in \(text): begins \(begins)")
        }
    }

    func testLinesScoredFromWhereTheyPartFromTheLineBeforeScoreAsTheWholeTableDoes() {
        // A sorted file list shares most of each line with the line before, and the
        // shared-prefix scorer resumes its table there. Runs of related lines (a kept prefix,
        // then new text; the same line again; a line cut short) must each score, begin and
        // end as the whole table and the fuzzy scorer say, whichever way the matcher takes.
        var generator = SeededGenerator(seed: 3)
        let alphabet = Array("aAb/_-. c9".utf8)
        let queryLetters = Array("aAb/c9-")
        var resumed = 0
        for round in 0..<1200 {
            let queryLength = round % 4 == 3 ? Int.random(in: 6...12, using: &generator) : Int.random(in: 1...5, using: &generator)
            let query = String((0..<queryLength).map { _ in queryLetters.randomElement(using: &generator)! })
            let term = PreparedTerm(Query(query).groups[0][0])
            XCTAssertTrue(SharedPrefixScorer.scores(term), query)
            var shared = SharedPrefixScorer(term)
            // The lines stay where they are while the run is scored, as a store's lines do.
            var lines: [[UInt8]] = [(0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }]
            for _ in 1..<30 {
                let keep = Int.random(in: 0...min(lines.last!.count, 50), using: &generator)
                let added = Int.random(in: 0...3, using: &generator) == 0 ? 0 : Int.random(in: 1...30, using: &generator)
                lines.append(Array(lines.last!.prefix(keep)) + (0..<added).map { _ in alphabet.randomElement(using: &generator)! })
            }
            let run = UnsafeMutablePointer<UInt8>.allocate(capacity: 30 * 80 + 1)
            defer { run.deallocate() }
            var starts: [UnsafePointer<UInt8>] = []
            var used = 0
            for line in lines {
                (run + used).initialize(from: line, count: line.count)
                starts.append(UnsafePointer(run + used))
                used += line.count
            }
            for (k, line) in lines.enumerated() {
                let text = String(decoding: line, as: UTF8.self)
                let reference = fullTable(text, query)
                // The line after it, as the matcher is told; now and then another line, or
                // none, as when a line between is passed over or a chunk ends.
                var next: (bytes: UnsafePointer<UInt8>, count: Int)? = k + 1 < lines.count ? (starts[k + 1], lines[k + 1].count) : nil
                switch Int.random(in: 0..<8, using: &generator) {
                case 0: next = nil
                case 1:
                    let other = Int.random(in: 0..<lines.count, using: &generator)
                    next = (starts[other], lines[other].count)
                default: break
                }
                let t = ScoredText(bytes: starts[k], count: line.count, foldsASCII: !term.caseSensitive, rewardsName: true,
                                   ascii: true)
                let fuzzy = Scorer.fuzzy(t, term, scratch: ScoringScratch())
                var found = fuzzy
                if let column = shared.resumeColumn(starts[k], count: line.count, nameStart: t.nameStart) {
                    if column > 0 { resumed += 1 }
                    found = shared.score(starts[k], count: line.count, nameStart: t.nameStart, from: column, next: next)
                }
                XCTAssertEqual(found?.score, reference?.score, "\(query) in \(text)")
                XCTAssertEqual(found?.end, reference?.end, "\(query) in \(text)")
                XCTAssertEqual(found?.begin, fuzzy?.begin, "\(query) in \(text)")
            }
        }
        XCTAssertGreaterThan(resumed, 1000, "lines resumed after a shared prefix")
    }

    func testACamelCaseWordScoresTheSameWhetherOrNotTheLineHasNonASCIIText() {
        // "BoxRun" earns its camel-case bonus on "r" with or without the em dash (and the
        // Cyrillic, which folds to itself) elsewhere in the line: lines are scored from
        // their own letters, not from a lower-cased copy.
        let lines = ["BoxRun sdk - fast", "BoxRun sdk — fast", "Boxrun sdk - fast", "BoxRun sdk мир"]
        let found = search("bxr", in: lines)
        XCTAssertEqual(Set(found.prefix(3)), ["BoxRun sdk - fast", "BoxRun sdk — fast", "BoxRun sdk мир"])
        XCTAssertEqual(found.last, "Boxrun sdk - fast")
    }

    func testALineThatFoldsToItselfStillMatchesCaseSensitiveAndAccentedTerms() {
        let lines = ["Привет мир", "Crème brûlée", "日本語 Text"]
        XCTAssertEqual(search("мир", in: lines), ["Привет мир"])
        XCTAssertEqual(search("Text", in: lines), ["日本語 Text"])
        XCTAssertEqual(search("text", in: lines), ["日本語 Text"])
        XCTAssertEqual(search("TEXT", in: lines), [])
        XCTAssertEqual(search("brulee", in: lines), ["Crème brûlée"])
        XCTAssertEqual(search("brûlée", in: lines), ["Crème brûlée"])
        XCTAssertEqual(search("'привет", in: lines), ["Привет мир"])
    }
}

/// The radix sort of hits must order exactly as the comparison sort does.
final class HitSorterTests: XCTestCase {
    func testRadixOrderEqualsComparisonOrderForHitsMadeInInputOrder() {
        var generator = SeededGenerator(seed: 4)
        for size in [65, 1000, 40_000] {
            var hits: [RankedHit] = []
            for index in 0..<size {
                let score = UInt64.random(in: 0..<40, using: &generator) * 997
                let length = UInt64.random(in: 0..<300, using: &generator)
                hits.append(RankedHit(primary: score << 32 | length, secondary: UInt64(index)))
            }
            var radix = hits
            HitSorter.sort(&radix, keys: RankKeyMaker(RankingOptions()))
            XCTAssertEqual(radix, hits.sorted())
        }
    }

    func testOneWordKeysOrderAsTwoWordKeysDo() {
        // Every ranking with at most one tiebreak uses the one-word keys: same order.
        var generator = SeededGenerator(seed: 5)
        for options in [RankingOptions(), RankingOptions(reversesInput: true),
                        RankingOptions(tiebreaks: [.begin]), RankingOptions(reversesInput: true, tiebreaks: [.end]),
                        RankingOptions(tiebreaks: [.index])] {
            let wide = RankKeyMaker(options)
            let compact = CompactKeyMaker(options)!
            var wideHits: [RankedHit] = []
            var compactHits: [UInt64] = []
            let text = UnsafeMutablePointer<UInt8>.allocate(capacity: 400)
            text.initialize(repeating: 0x78, count: 400)
            defer { text.deallocate() }
            for index in 0..<5000 {
                let title = Int.random(in: 1..<400, using: &generator)
                let shape = TitleShape(length: title, leadingWhite: 0, text: text, count: title)
                let begin = Int.random(in: 0..<title, using: &generator)
                let match = LineMatch(score: Int32.random(in: 0..<3000, using: &generator) / 7 * 7,
                                      begin: begin, end: Int.random(in: begin...title, using: &generator))
                wideHits.append(wide.hit(index: index, match: match, shape: shape))
                compactHits.append(compact.hit(index: index, match: match, shape: shape))
            }
            HitSorter.sort(&compactHits, keys: compact)
            XCTAssertEqual(compactHits.map { compact.index(of: $0) }, wideHits.sorted().map { wide.index(of: $0) })
        }
        XCTAssertNil(CompactKeyMaker(RankingOptions(tiebreaks: [.length, .begin])), "two tiebreaks need two words")
    }
}

/// Lines of megabytes are scored greedily instead of by a window the size of the line.
final class HugeLineTests: XCTestCase {
    func testAMultiMegabyteLineMatchesAndRanksAfterATightMatch() {
        let huge = String(repeating: "x", count: 3_000_000) + "y"
        let lines = [huge, "xy"]
        let found = search("xy", in: lines)
        XCTAssertEqual(found.count, 2)
        XCTAssertEqual(found.first, "xy", "the tight match ranks first")
        XCTAssertEqual(found.last?.utf8.count, huge.utf8.count, "the huge line comes back whole")
    }
}

/// A `'word'` term ranks its lines by the boundary around the word, as fzf's schemes do.
final class WordBoundaryScoreTests: XCTestCase {
    private let lines = ["xxyzx", "-xxyz", "xyzx-", "_xyz_", "_xyz-", "-xyz_", "[xyz]", "-xyz-", " xyz ", "/xyz/"]

    private func ranked(_ scheme: Scheme) -> [String] {
        search("'xyz'", in: lines, matching: MatchingOptions(scheme: scheme),
               ranking: RankingOptions(tiebreaks: scheme.tiebreaks))
    }

    func testAfterASpaceFirstThenADelimiterThenPunctuationAndUnderscoresLast() {
        XCTAssertEqual(ranked(.default), [" xyz ", "/xyz/", "[xyz]", "-xyz-", "-xyz_", "_xyz-", "_xyz_"])
    }

    func testThePathSchemePutsAWordAfterASlashFirst() {
        XCTAssertEqual(ranked(.path), ["/xyz/", " xyz ", "[xyz]", "-xyz-", "-xyz_", "_xyz-", "_xyz_"])
    }

    func testTheHistorySchemeRanksEveryBoundaryButUnderscoresAlike() {
        XCTAssertEqual(ranked(.history), ["[xyz]", "-xyz-", " xyz ", "/xyz/", "-xyz_", "_xyz-", "_xyz_"])
    }

    func testTheSchemeReachesTheQueryFromTheOptions() throws {
        XCTAssertEqual(try Options.parse(arguments: ["--scheme=path"]).matching.scheme, .path)
        XCTAssertEqual(try Options.parse(arguments: ["--scheme=history", "--scheme=default"]).matching.scheme, .default)
    }
}
