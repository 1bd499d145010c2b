import XCTest
@testable import PickCore

/// A first screen bounds the lines an earlier term matched a word of 64 lines at a time, in
/// C (`BoundsWords`, `pick_extend_bound64`). It must leave exactly what the per-line Swift
/// path leaves (`BoundsPass.extendedEnd`, `bound`, `keep`): the same lines dropped, bounded
/// and left to the matcher, the same ends, bases and bounds kept, the same histogram.
final class BoundsWordsTests: XCTestCase {
    private var state: UInt64 = 0x5EED
    private func next(_ n: Int) -> Int {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Int((state >> 33) % UInt64(n))
    }

    /// Lines of 0 to 90 bytes over a few letters, slashes and spaces: names inside and past
    /// the last 32 bytes (where `pick_name_places_of` looks first), lines without '/'.
    private func randomLines(_ count: Int) -> [String] {
        let letters = Array("abcAB/ /x")
        return (0..<count).map { _ in String((0..<next(91)).map { _ in letters[next(letters.count)] }) }
    }

    /// Bounds as an earlier search of `old` would leave them: for most lines the end of the
    /// leftmost match of `old` (or unknown), now and then a line that does not hold `old` at
    /// all (the bounds of a line the earlier search did not match are never read: the
    /// check must still not fail on them), random white bits, bases and scores.
    private func fill(_ bounds: LineBounds, store: LineStore, old: [UInt8], caseSensitive: Bool) {
        for i in 0..<store.count {
            let r = store.record(i)
            var at = 0, k = 0
            while k < old.count && at < Int(r.length) {
                let byte = r.start[at] | (caseSensitive ? 0 : foldBits(for: old[k], folds: true))
                if byte == old[k] { k += 1 }
                at += 1
            }
            var end = k == old.count ? UInt16(at) : UInt16(next(max(1, Int(r.length) + 1)))
            if next(10) == 0 { end = LineBounds.unknown }
            bounds.ends[i] = end | (next(2) == 0 ? LineBounds.whiteBit : 0)
            let base = Int16(next(300)) - 20
            bounds.bases[i] = base
            bounds.scores[i] = base + Int16(next(60))
        }
    }

    private func copy(_ from: LineBounds, to: LineBounds, count: Int) {
        to.ends.update(from: from.ends, count: count)
        to.bases.update(from: from.bases, count: count)
        to.scores.update(from: from.scores, count: count)
    }

    func testAWordBoundedInCAgreesWithTheSwiftPath() {
        let store = makeAdoptedStore(randomLines(4096))
        let levels = 1 << 12
        let scalar = LineBounds(capacity: store.count), vector = LineBounds(capacity: store.count)
        let histogramA = UnsafeMutablePointer<Int>.allocate(capacity: levels)
        let histogramB = UnsafeMutablePointer<Int>.allocate(capacity: levels)
        let matches = UnsafeMutablePointer<UInt64>.allocate(capacity: store.count / 64)
        defer { histogramA.deallocate(); histogramB.deallocate(); matches.deallocate() }
        let alphabet = Array("abcxAB/ ".utf8)
        var seen = (bounded: 0, dropped: 0, left: 0)
        for round in 0..<80 {
            let old = (0..<(1 + next(4))).map { _ in alphabet[next(round % 4 == 0 ? alphabet.count : 5)] }
            let added = (0..<(1 + next(3))).map { _ in alphabet[next(alphabet.count)] }
            let text = String(decoding: old + added, as: UTF8.self)
            // (White space at either end is no part of the term.)
            guard let term = LineBounds.term(of: Query(text)), term.text.count == old.count + added.count else { continue }
            fill(scalar, store: store, old: Array(term.text.prefix(old.count)), caseSensitive: term.caseSensitive)
            copy(scalar, to: vector, count: store.count)
            // Some rounds hold values only for the lines below a point inside a word.
            let heldBelow = round % 3 == 0 ? store.count - 64 * next(8) - next(64) : store.count
            let scalarPass = BoundsPass(scalar, term: term, kept: old.count, heldBelow: heldBelow)
            let vectorPass = BoundsPass(vector, term: term, kept: old.count, heldBelow: heldBelow)
            histogramA.initialize(repeating: 0, count: levels)
            histogramB.initialize(repeating: 0, count: levels)
            matches.initialize(repeating: 0, count: store.count / 64)
            var words = BoundsWords(vectorPass, store: store, histogram: histogramB, levels: levels, matches: matches,
                                    lines: store.count)!
            var bounded = 0
            for start in stride(from: 0, to: store.count, by: 64) {
                // Every line, and a narrowed word.
                let word: UInt64 = round % 2 == 0 ? ~0 : UInt64(truncatingIfNeeded: state) | 1
                var left: UInt64 = 0, matched: UInt64 = 0
                for k in 0..<64 where word & (1 << UInt64(k)) != 0 {
                    let i = start + k, record = store.record(i)
                    guard scalarPass.holds(i, record) else {
                        left |= 1 << UInt64(k)
                        seen.left += 1
                        continue
                    }
                    guard let end = scalarPass.extendedEnd(i, record) else {
                        seen.dropped += 1
                        continue
                    }
                    let bound = scalarPass.bound(i, record)
                    scalarPass.keep(i, end: end, bound: bound)
                    histogramA[Int(min(bound.score, Int32(levels - 1)))] += 1
                    matched |= 1 << UInt64(k)
                    bounded += 1
                    seen.bounded += 1
                }
                XCTAssertEqual(words.leaving(start, word), left, "\(text): lines left from \(start)")
                XCTAssertEqual(matches[start >> 6], matched, "\(text): lines bounded from \(start)")
            }
            XCTAssertEqual(words.bounded, bounded, text)
            for i in 0..<store.count where scalar.ends[i] != vector.ends[i] || scalar.bases[i] != vector.bases[i]
                || scalar.scores[i] != vector.scores[i] {
                XCTFail("\(text): line \(i) kept \(vector.ends[i]) \(vector.bases[i]) \(vector.scores[i]), "
                        + "the Swift path \(scalar.ends[i]) \(scalar.bases[i]) \(scalar.scores[i])")
                break
            }
            XCTAssertTrue((0..<levels).allSatisfy { histogramA[$0] == histogramB[$0] }, "\(text): histogram")
        }
        // (Each way out was taken, many times.)
        XCTAssertGreaterThan(min(seen.bounded, seen.dropped, seen.left), 1000)
    }

    /// A first key (a term of one character) notes every line's values without scoring it:
    /// the lines it keeps are those the matcher accepts, each with the end and white-space
    /// bit that recording the matcher's answer would keep, and a score and base at least the
    /// matcher's (so that no line that belongs on a first screen is bounded below it).
    func testAFirstKeyNotedInCHoldsTheMatchersAnswerOrMore() {
        firstKeyNote(notingCharacters: false)
    }

    /// With the lines' characters noted, the note reads a line's head and its last 64 bytes
    /// (and the character set for white space): what it leaves must hold the matcher's
    /// answer still, and be as tight where the first screen's top lies, the names.
    func testAFirstKeyNotedFromALinesHeadAndTailHoldsTheMatchersAnswerOrMore() {
        firstKeyNote(notingCharacters: true)
    }

    private func firstKeyNote(notingCharacters: Bool, file: StaticString = #filePath, line: UInt = #line) {
        var lines = randomLines(4032)
        // Paths and words too: names after the last '/', camel case, digits, white space.
        let words = ["usr/lib/Python3", "a/b/cab", "Xa_b", "x1/a2b", "/A/bA", "ab cd/ba", "B",
                     String(repeating: "ab/", count: 30) + "xbAb", String(repeating: "x", count: 70) + "/b a",
                     "/" + String(repeating: "c", count: 80)]
        lines += (0..<64).map { words[$0 % words.count] }
        let store = makeAdoptedStore(lines)
        if notingCharacters { XCTAssertTrue(store.noteCharacters(limit: store.count)) }
        let levels = 1 << 12
        let noted = LineBounds(capacity: store.count), recorded = LineBounds(capacity: store.count)
        let histogram = UnsafeMutablePointer<Int>.allocate(capacity: levels)
        let matches = UnsafeMutablePointer<UInt64>.allocate(capacity: store.count / 64)
        defer { histogram.deallocate(); matches.deallocate() }
        var equal = 0, kept = 0, loose = 0
        for text in ["a", "b", "x", "A", "B", "/", "1", " ", "c"] {
            let query = Query(text)
            guard let term = LineBounds.term(of: query) else { continue }
            let pass = BoundsPass(noted, term: term, kept: 0, heldBelow: 0)
            XCTAssertTrue(pass.recordsOneCharacter)
            histogram.initialize(repeating: 0, count: levels)
            matches.initialize(repeating: 0, count: store.count / 64)
            var words = BoundsWords(pass, store: store, histogram: histogram, levels: levels, matches: matches,
                                    lines: store.count)!
            let matcher = LineMatcher(store: store, query: query)
            let reference = BoundsPass(recorded, term: term, kept: 0, heldBelow: 0)
            var recorder = BoundsRecorder()
            var counted = [Int](repeating: 0, count: levels)
            for start in stride(from: 0, to: store.count, by: 64) {
                XCTAssertEqual(words.leaving(start, ~0), 0, "\(text): every line noted from \(start)")
                for k in 0..<64 {
                    let i = start + k, record = store.record(i)
                    let found = matcher.match(i, matcher.lookAhead(i), next: nil)
                    XCTAssertEqual(matches[start >> 6] & (1 << UInt64(k)) != 0, found != nil, "\(text): line \(i)")
                    guard let found else { continue }
                    reference.record(i, record, score: found.score, base: found.base, end: nil, recorder: &recorder)
                    XCTAssertEqual(noted.ends[i], recorded.ends[i], "\(text): end of line \(i)")
                    XCTAssertGreaterThanOrEqual(Int32(noted.scores[i]), found.score, "\(text): bound of line \(i)")
                    XCTAssertGreaterThanOrEqual(Int32(noted.bases[i]), min(found.base, found.score - 8),
                                                "\(text): base of line \(i)")
                    counted[min(Int(noted.scores[i]), levels - 1)] += 1
                    kept += 1
                    if Int32(noted.scores[i]) == found.score { equal += 1 }
                    // A score of at least the most a place outside the name scores: the bound is it.
                    let white = recorded.ends[i] & LineBounds.whiteBit != 0
                    let most = ScoreWeights.match + ScoreWeights.firstCharMultiplier
                        * (white ? ScoreWeights.boundaryWhite : ScoreWeights.boundaryDelimiter)
                    if found.score >= most && Int32(noted.scores[i]) != found.score { loose += 1 }
                }
            }
            XCTAssertEqual(words.bounded, counted.reduce(0, +), text)
            XCTAssertEqual((0..<levels).map { histogram[$0] }, counted, "\(text): histogram")
        }
        XCTAssertGreaterThan(kept, 10000, file: file, line: line)
        // (Tight as well: a bound is the score itself for most lines, and for every line whose
        // best place is in its name.)
        XCTAssertGreaterThan(equal, kept * (notingCharacters ? 6 : 9) / 10, "\(equal) of \(kept)", file: file, line: line)
        XCTAssertEqual(loose, 0, "bounds above the score of a best place in the name", file: file, line: line)
    }
}
