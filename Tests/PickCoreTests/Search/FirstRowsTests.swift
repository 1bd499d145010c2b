import XCTest
import CPickScan
@testable import PickCore

/// A keystroke on a large input ranks its first screen from bounds and leaves most lines
/// unscored (`LineBounds`). What the person sees must be what the whole ranking shows:
/// these compare every first-screen result with a fresh engine's complete search.
final class FirstRowsTests: XCTestCase {
    /// Paths in the shape of a file list (folders, then names that repeat the folders'
    /// letters), with some lines that start with a letter, hold spaces or capitals, are
    /// not ASCII, are long, or have no '/'.
    private func corpus(_ count: Int, seed: UInt64) -> [String] {
        var state = seed
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let parts = ["usr", "lib", "python3", "share", "doc", "bin", "local", "src", "pick", "Swift", "core",
                     "plugins", "site-packages", "node_modules", "x86_64-linux-gnu", "include", "py", "util"]
        let names = ["libpython.so", "usr.txt", "README", "main.swift", "pylib.py", "core.c", "SwiftCore.h",
                     "lib py.txt", "caf\u{E9}.md", "ulp", "s", "index.html", "uslrlbpy", "python"]
        var lines: [String] = []
        for _ in 0..<count {
            var line = next(5) == 0 ? "" : "/"
            for _ in 0..<next(6) { line += parts[next(parts.count)] + "/" }
            line += names[next(names.count)]
            if next(40) == 0 { line = String(repeating: "ab/", count: 30) + line }
            if next(25) == 0 { line = line.uppercased() }
            lines.append(line)
        }
        return lines
    }

    /// Types `keys` (a character, or "<" for a backspace) into one engine that keeps bounds,
    /// asking for `rows` first rows and then, every `wholeEvery` keys, for the rest, and
    /// checks each answer against a fresh engine's complete search. The lines are read as
    /// from a pipe, or with `adopted` as a file on stdin is (where the bounds of a word of
    /// lines are made in C, `pick_extend_bound64`), the characters of the first `noted` lines
    /// noted (a first key's note reads less of those: `pick_record_one64`).
    private func check(_ lines: [String], keys: [String], rows: Int, wholeEvery: Int,
                       ranking: RankingOptions = RankingOptions(), adopted: Bool = false, noted: Int = 0,
                       file: StaticString = #filePath, line: UInt = #line) {
        let store = adopted ? makeAdoptedStore(lines) : makeStore(lines, plain: true)
        if noted > 0 { _ = store.noteCharacters(limit: noted) }
        let engine = SearchEngine(store: store, ranking: ranking)
        engine.boundsFromLines = 0
        var text = ""
        var partials = 0
        for (k, key) in keys.enumerated() {
            if key == "<" { text = String(text.dropLast()) } else { text += key }
            let reference = SearchEngine(store: store, ranking: ranking)
            reference.boundsFromLines = .max
            let whole = reference.search(text)!
            let first = engine.search(text, firstRows: rows)!
            if !first.isComplete { partials += 1 }
            XCTAssertEqual(first.matchCount, whole.lines.count, "count for \(text)", file: file, line: line)
            XCTAssertGreaterThanOrEqual(first.lines.count, min(rows, whole.lines.count), "rows for \(text)",
                                        file: file, line: line)
            XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first rows for \(text)",
                           file: file, line: line)
            if k % wholeEvery == wholeEvery - 1 {
                XCTAssertEqual(engine.search(text)!.lines, whole.lines, "whole ranking for \(text)", file: file, line: line)
            }
        }
        XCTAssertGreaterThan(partials, 0, "some answers were first rows only", file: file, line: line)
    }

    private func typed(_ text: String) -> [String] { text.map { String($0) } }

    func testFirstRowsAreTheWholeRankingsFirstRowsWhileTyping() {
        let lines = corpus(6000, seed: 1)
        for query in ["usrlibpython", "pylib", "uslrlbpy", "corepy", "s/u", "plugins/s"] {
            check(lines, keys: typed(query), rows: 40, wholeEvery: 2)
            check(lines, keys: typed(query), rows: 5, wholeEvery: 1000)
            check(lines, keys: typed(query), rows: 40, wholeEvery: 2, adopted: true)
            check(lines, keys: typed(query), rows: 5, wholeEvery: 1000, adopted: true)
            check(lines, keys: typed(query), rows: 40, wholeEvery: 2, adopted: true, noted: lines.count)
            check(lines, keys: typed(query), rows: 5, wholeEvery: 1000, adopted: true, noted: 3001)
        }
    }

    func testBackspacesEditsAndCaseChangesGiveTheWholeRankingsFirstRows() {
        let lines = corpus(6000, seed: 2)
        let keys = typed("usrli") + ["<", "<"] + typed("rlibp") + ["<"] + typed("Py") + ["<", "<"] + typed("py")
            + ["<", "<", "<", "<", "<", "<"] + typed("x")
        check(lines, keys: keys, rows: 20, wholeEvery: 3)
        check(lines, keys: keys, rows: 1, wholeEvery: 1000)
        check(lines, keys: keys, rows: 20, wholeEvery: 3, adopted: true)
        check(lines, keys: keys, rows: 1, wholeEvery: 1000, adopted: true)
        check(lines, keys: keys, rows: 20, wholeEvery: 3, adopted: true, noted: lines.count)
        check(lines, keys: keys, rows: 1, wholeEvery: 1000, adopted: true, noted: lines.count)
    }

    func testOtherTiebreaksAndReversedInputGiveTheWholeRankingsFirstRows() {
        let lines = corpus(5000, seed: 3)
        for tiebreaks in [[Tiebreak.begin], [.end], [.index], [.length, .begin]] {
            check(lines, keys: typed("libpy"), rows: 10, wholeEvery: 2, ranking: RankingOptions(tiebreaks: tiebreaks))
        }
        check(lines, keys: typed("libpy"), rows: 10, wholeEvery: 2, ranking: RankingOptions(reversesInput: true))
        check(lines, keys: typed("libpy"), rows: 10, wholeEvery: 2, ranking: RankingOptions(tiebreaks: [.end]),
              adopted: true)
    }

    func testTheFirstKeyOfALargeInputAnswersWithItsFirstRows() {
        // No earlier search to go on from: every line is scored (recording bounds for the
        // next key), but only the best rows are ranked; the whole ranking follows.
        let lines = corpus(6000, seed: 6)
        let store = makeStore(lines, plain: true)
        let engine = SearchEngine(store: store)
        engine.boundsFromLines = 0
        let whole = SearchEngine(store: store).search("l")!
        let first = engine.search("l", firstRows: 10)!
        XCTAssertFalse(first.isComplete)
        XCTAssertEqual(first.matchCount, whole.lines.count)
        XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)))
        XCTAssertEqual(engine.search("l")!.lines, whole.lines)
        let next = engine.search("li", firstRows: 10)!
        XCTAssertEqual(next.lines, Array(SearchEngine(store: store).search("li")!.lines.prefix(next.lines.count)))
    }

    func testACancelledKeystrokeLeavesLaterAnswersRight() {
        let lines = corpus(6000, seed: 4)
        let store = makeStore(lines, plain: true)
        let engine = SearchEngine(store: store)
        engine.boundsFromLines = 0
        var text = ""
        for (k, key) in "usrlibpy".enumerated() {
            text.append(key)
            if k % 2 == 1 {
                let stale = Cancellation()
                stale.cancel()
                XCTAssertNil(engine.search(text, firstRows: 10, cancellation: stale))
                continue
            }
            let whole = SearchEngine(store: store).search(text)!
            let first = engine.search(text, firstRows: 10)!
            XCTAssertEqual(first.matchCount, whole.lines.count)
            XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)))
        }
    }

    func testLinesArrivingBetweenKeystrokesAreCountedAndRankedToo() {
        // Input still streaming while the person types: each keystroke searches more lines
        // than the bounds were made for.
        let lines = corpus(9000, seed: 5)
        let store = LineStore(separator: 0x0A, parsesFields: false)
        let engine = SearchEngine(store: store)
        engine.boundsFromLines = 0
        var fed = 0
        var text = ""
        for key in "usrlibpy" {
            for line in lines[fed..<fed + 1000] { store.append(Array(line.utf8) + [0x0A]) }
            fed += 1000
            text.append(key)
            let whole = SearchEngine(store: makeStore(Array(lines[0..<fed]), plain: true)).search(text)!
            let first = engine.search(text, firstRows: 10)!
            XCTAssertEqual(first.matchCount, whole.lines.count, "count for \(text) over \(fed) lines")
            XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first rows for \(text)")
        }
    }

    /// A first screen whose rest never comes (the picker's at ten million matches), the
    /// bounds made exact while idle: the values are the whole ranking's, and the next keys'
    /// first screens are still the whole ranking's first rows, also when the refinement
    /// was stopped before its end.
    func testRefinedBoundsAreTheWholeRankingsValuesAndLaterAnswersStayRight() {
        let lines = corpus(9000, seed: 7)
        let store = makeStore(lines, plain: true)
        let refined = SearchEngine(store: store), ranked = SearchEngine(store: store)
        refined.boundsFromLines = 0
        ranked.boundsFromLines = 0
        var text = ""
        for (k, key) in "usrlibpy".enumerated() {
            text.append(key)
            let whole = ranked.search(text)!
            let first = refined.search(text, firstRows: 10)!
            XCTAssertEqual(first.matchCount, whole.lines.count, "count for \(text)")
            XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first rows for \(text)")
            if k == 2 {
                // Stopped at once: nothing is made exact, nothing goes wrong.
                let stop = Cancellation()
                stop.cancel()
                refined.refineBounds(cancellation: stop)
                continue
            }
            refined.refineBounds()
            let a = refined.memory.bounds.withLock { $0.held }!, b = ranked.memory.bounds.withLock { $0.held }!
            XCTAssertEqual(a.text, text)
            XCTAssertEqual(a.exactBelow, store.count, "exact for \(text)")
            for line in whole.lines where a.ends[Int(line)] & ~LineBounds.whiteBit != LineBounds.unknown {
                XCTAssertEqual(a.scores[Int(line)], b.scores[Int(line)], "score of line \(line) for \(text)")
                XCTAssertEqual(a.ends[Int(line)], b.ends[Int(line)], "end of line \(line) for \(text)")
            }
        }
    }

    /// On a large input the idle refinement notes each line's rest (`LineBounds.rests`), and
    /// a key that adds a letter checks and bounds lines from it without reading them, their
    /// ends left pending. Whatever follows such a key (another key with no refinement
    /// between, a whole ranking, a refinement, a capital, a digit, a backspace, an emptied
    /// query and the same keys again), every answer is still the whole ranking's.
    func testKeysCheckedFromNotedRestsGiveTheWholeRankingsFirstRows() {
        let lines = corpus(9000, seed: 9)
        for adopted in [true, false] {
            let store = adopted ? makeAdoptedStore(lines) : makeStore(lines, plain: true)
            let engine = SearchEngine(store: store)
            engine.boundsFromLines = 0
            engine.restsFromLines = 0
            // '!': the picker idle (the refinement); '*': the whole ranking; '<': a backspace.
            let script = "u!s!r!li!b!p*y!th*o!n<<<<<<<<<<<<x!" + "<xl!<<" + "li!b<<<libp" + "<<<<li!b!P!y!<<3!<p!y*!t!h!o"
            var text = "", checkedFromRests = 0
            for key in script {
                switch key {
                case "!":
                    engine.refineBounds()
                    let bounds = engine.memory.bounds.withLock { $0.held }
                    // (A capital makes the term case-sensitive: no letter is checked from rests.
                    // Only a file's lines are checked from them, in C.)
                    let notes = adopted && !text.isEmpty && text == text.lowercased()
                    XCTAssertEqual(bounds?.restsBelow, notes ? store.count : 0, "rests noted for \(text)")
                    continue
                case "*":
                    let whole = SearchEngine(store: store).search(text)!
                    XCTAssertEqual(engine.search(text)!.lines, whole.lines, "whole ranking for \(text)")
                    continue
                case "<": text = String(text.dropLast())
                default: text.append(key)
                }
                let whole = SearchEngine(store: store).search(text)!
                let first = engine.search(text, firstRows: 10)!
                XCTAssertEqual(first.matchCount, whole.lines.count, "count for \(text)")
                XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first rows for \(text)")
                if let bounds = engine.memory.bounds.withLock({ $0.held }), let rests = bounds.rests {
                    checkedFromRests += (0..<store.count).filter { rests[$0] & PICK_REST_PENDING != 0 }.count
                }
            }
            // (Lines are only checked from rests where the C step bounds them: a file's lines.)
            if adopted {
                XCTAssertGreaterThan(checkedFromRests, 1000, "keys checked lines from their rests")
            } else {
                XCTAssertEqual(checkedFromRests, 0)
            }
        }
    }

    /// The bounds made and touched while idle before the first key (`prepareBounds`) are the
    /// ones the keys use, and their answers are the whole ranking's.
    func testBoundsPreparedBeforeTheFirstKeyServeIt() {
        let lines = corpus(6000, seed: 10)
        let store = makeAdoptedStore(lines)
        let engine = SearchEngine(store: store)
        engine.boundsFromLines = 0
        var calls = 1
        while !engine.prepareBounds(lines: 1000) { calls += 1 }
        XCTAssertEqual(calls, 6, "a slice of 1,000 lines a call")
        let prepared = engine.memory.bounds.withLock { $0.held }
        XCTAssertNotNil(prepared)
        var text = ""
        for key in "libpy" {
            text.append(key)
            let whole = SearchEngine(store: store).search(text)!
            let first = engine.search(text, firstRows: 10)!
            XCTAssertFalse(first.isComplete)
            XCTAssertEqual(first.matchCount, whole.lines.count, "count for \(text)")
            XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first rows for \(text)")
        }
        XCTAssertTrue(engine.memory.bounds.withLock { $0.held } === prepared, "the prepared bounds were used")
        XCTAssertTrue(engine.prepareBounds(), "nothing more to do")
    }

    /// The two bodies of a key's check from rests (AVX-512 where this CPU runs it, a line at
    /// a time elsewhere) leave the same values, rests, histogram and lines, on every mix of
    /// fresh, pending and cleared rests, names, gaps and white bits.
    func testChecksFromRestsAreTheSameSixteenLinesAStepAndALineAtATime() {
        let lines = 64 * 40, levels = 64
        var state: UInt64 = 11
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        var rests = (0..<lines).map { _ -> UInt32 in
            let kind = next(4)
            let letters = UInt32(next(1 << 26)), gap = UInt32(next(8)) << PICK_REST_GAP_SHIFT
            return kind == 0 ? 0 : kind == 1 ? PICK_REST_PENDING : letters | gap | PICK_REST_FRESH
        }
        let names = (0..<lines).map { _ in UInt16(next(1 << 16)) }
        let ends = (0..<lines).map { _ in UInt16(next(200)) | (next(3) == 0 ? LineBounds.whiteBit : 0) }
        let bases = (0..<lines).map { _ in Int16(next(60) - 5) }, scores = bases.map { $0 + Int16(next(9)) }
        var results: [[String]] = []
        let seed = state
        for each in [false, true] {
            state = seed
            var r = rests, e = ends, b = bases, sc = scores, n = names
            var histogram = [Int](repeating: 0, count: levels)
            let bytes: [UInt8] = [0x61], folds: [UInt8] = [0x20]
            var out: [String] = []
            r.withUnsafeMutableBufferPointer { r in
            e.withUnsafeMutableBufferPointer { e in
            b.withUnsafeMutableBufferPointer { b in
            sc.withUnsafeMutableBufferPointer { sc in
            n.withUnsafeMutableBufferPointer { n in
            histogram.withUnsafeMutableBufferPointer { h in
                for letter in [0, 4, 15, 25] {
                    var step = pick_bounds_step(ends: e.baseAddress, bases: b.baseAddress, scores: sc.baseAddress,
                                                bytes: bytes.withUnsafeBufferPointer { $0.baseAddress },
                                                folds: folds.withUnsafeBufferPointer { $0.baseAddress }, m: 2, kept: 1,
                                                match: ScoreWeights.match, boundaryWhite: ScoreWeights.boundaryWhite,
                                                boundaryDelimiter: ScoreWeights.boundaryDelimiter,
                                                lastComponent: ScoreWeights.lastComponent, histogram: h.baseAddress,
                                                levels: levels, classes: BonusTables.classes,
                                                bonuses: BonusTables.bonuses,
                                                firstCharMultiplier: ScoreWeights.firstCharMultiplier,
                                                rests: r.baseAddress, names: UnsafePointer(n.baseAddress),
                                                letter: 1 << UInt32(letter), nameLetter: pick_name_bit(Int32(letter)))
                    for start in stride(from: 0, to: lines, by: 64) {
                        var found: UInt64 = 0
                        let bits = UInt64(truncatingIfNeeded: next(Int(Int32.max))) << 32
                            | UInt64(truncatingIfNeeded: next(Int(Int32.max)))
                        let taken = each ? pick_extend_rests64_each(bits, start, &step, &found)
                                         : pick_extend_rests64(bits, start, &step, &found)
                        out.append("\(letter) \(start): \(taken) \(found)")
                    }
                    // (Pending lines become fresh again, as a refinement leaves them.)
                    for i in 0..<lines where r[i] == PICK_REST_PENDING { r[i] = PICK_REST_FRESH | UInt32(i % 1000) }
                }
            }}}}}}
            out.append("\(r) \(b) \(sc) \(histogram)")
            results.append(out)
        }
        XCTAssertTrue(results[0] == results[1], "the two bodies differ")
        XCTAssertTrue(results[0].contains { !$0.hasSuffix(" 0") }, "some lines matched")
    }

    /// The idle loop goes on asking to prepare bounds after every job: bounds a key made and
    /// recorded meanwhile (typed before the input's characters were noted) keep their values.
    func testPreparingBoundsLeavesThoseAKeyRecordedAsTheyAre() {
        let lines = corpus(6000, seed: 12)
        let store = makeAdoptedStore(lines)
        let engine = SearchEngine(store: store)
        engine.boundsFromLines = 0
        var text = ""
        for key in "usrlib" {
            text.append(key)
            let whole = SearchEngine(store: store).search(text)!
            let first = engine.search(text, firstRows: 10)!
            XCTAssertEqual(first.matchCount, whole.lines.count, "count for \(text)")
            XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first rows for \(text)")
            XCTAssertTrue(engine.prepareBounds(lines: 1000), "nothing to prepare once a key made the bounds")
        }
    }

    /// A refinement of a term that matches case notes no rests, even where they are made: a
    /// later key of another term must not take them for its own.
    func testACaseSensitiveRefinementLeavesNoFreshRests() {
        let lines = corpus(6000, seed: 13)
        let store = makeAdoptedStore(lines)
        let engine = SearchEngine(store: store)
        engine.boundsFromLines = 0
        engine.restsFromLines = 0
        _ = engine.search("p", firstRows: 10)
        engine.refineBounds()
        _ = engine.search("P", firstRows: 10)
        engine.refineBounds()
        let bounds = engine.memory.bounds.withLock { $0.held }!
        let rests = bounds.rests!
        XCTAssertFalse((0..<store.count).contains { rests[$0] & PICK_REST_FRESH != 0 }, "fresh rests for P")
        for text in ["Pb", "P", "p", "py"] {
            let whole = SearchEngine(store: store).search(text)!
            let first = engine.search(text, firstRows: 10)!
            XCTAssertEqual(first.matchCount, whole.lines.count, "count for \(text)")
            XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first rows for \(text)")
        }
    }

    func testMatchedLinesAreASearchsFirstMatchesInInputOrder() {
        let lines = corpus(6000, seed: 8)
        let store = makeStore(lines, plain: true)
        let engine = SearchEngine(store: store)
        engine.boundsFromLines = 0
        XCTAssertNil(engine.matchedLines("py", limit: 10), "not searched yet")
        let first = engine.search("py", firstRows: 10)!
        XCTAssertFalse(first.isComplete)
        let all = SearchEngine(store: store).search("py")!.lines.sorted()
        XCTAssertEqual(engine.matchedLines("py", limit: 100), Array(all.prefix(100)))
        XCTAssertEqual(engine.matchedLines("py", limit: .max), all)
    }

    /// The bound's premise: no bonus an added character can earn exceeds `extensionGain`'s.
    func testNoBonusExceedsTheGainABoundAllows() {
        for p in 0..<7 {
            for c in 0..<7 {
                XCTAssertLessThanOrEqual(BonusTables.bonuses[p << 3 | c] + ScoreWeights.match, ScoreWeights.extensionGain)
            }
        }
        XCTAssertLessThanOrEqual(ScoreWeights.consecutive + ScoreWeights.match, ScoreWeights.extensionGain)
        // A rest notes the gap before the name in three bits (`pick_note_rest`): gaps up to 6,
        // the longest that can raise a bound by `lastComponent`.
        XCTAssertLessThanOrEqual(ScoreWeights.lastComponent, Int32(PICK_REST_NO_GAP) + 1)
    }
}
