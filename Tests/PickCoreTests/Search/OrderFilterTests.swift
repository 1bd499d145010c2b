import CPickScan
import XCTest
@testable import PickCore

/// A search passes over the lines that lack a term's characters in order 64 at a time
/// (`OrderFilter`, `pick_in_order64`), before it looks any line up. What the person sees
/// must not change: the filter keeps exactly the lines a plain subsequence loop keeps, and
/// an engine's answers (whole rankings, counts, first screens from bounds) hold exactly the
/// lines the matcher accepts one by one, in stores of adopted memory (as a file on stdin)
/// and of lines read from a pipe, palettes among them.
final class OrderFilterTests: XCTestCase {
    /// Paths with rare letters, upper case now and then, a few non-ASCII lines, lines
    /// shorter and longer than sixteen bytes (the C loop's step), and empty lines.
    private func lines(_ count: Int, palette: Bool = false) -> [String] {
        var state: UInt64 = 0xF00D
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let parts = ["usr", "lib", "python3", "share", "zsh", "quux", "swift", "core", "kde", "www", "b", ""]
        let names = ["zzz.txt", "swiftcore.h", "lib.py", "main.c", "Quick", "caf\u{E9}", "S", "\u{C9}cole"]
        return (0..<count).map { i in
            var line = ""
            for _ in 0..<next(5) { line += "/" + parts[next(parts.count)] }
            line += "/" + names[next(names.count)]
            if i % 7 == 0 { line = line.uppercased() }
            if i % 97 == 0 { line = "" }
            // Some past 128 bytes: the order filter's branch-free body takes only shorter ones.
            if i % 13 == 5 { line = String(repeating: "/share/www", count: 10 + next(8)) + line }
            if palette { line += "\t" + parts[next(parts.count)] + "\t" + parts[next(parts.count)] + " http" }
            return line
        }
    }

    private let queries = ["z", "zz", "zzz", "s", "sw", "swiftcore", "SwiftCore", "q", "qux", "kde", "www", "u",
                           "usrlibpython", "caf", "café", "ecole", "Éc", "lib py", "core !zzz", "http client", "/"]

    func testTheFilterKeepsExactlyTheLinesHoldingTheTermInOrder() {
        let text = lines(3000)
        for store in [makeAdoptedStore(text), makeStore(text, plain: true)] {
            for q in ["z", "swiftcore", "usrlib", "Qu", "sss", "caf\u{E9}"] {
                let query = Query(q)
                let matcher = LineMatcher(store: store, query: query)
                let filter = matcher.orderFilter!
                let term = PreparedTerm(query.groups[0][0])
                for start in stride(from: 0, to: store.count, by: 64) {
                    let count = min(64, store.count - start)
                    let all: UInt64 = count == 64 ? ~0 : (1 << UInt64(count)) - 1
                    // Every line, and every other line (a narrowed word).
                    for word in [all, all & 0x5555_5555_5555_5555] {
                        var want: UInt64 = 0
                        for k in 0..<count where word & (1 << UInt64(k)) != 0 {
                            let r = store.record(start + k)
                            let text = ScoredText(bytes: r.start, count: Int(r.length), foldsASCII: !term.caseSensitive,
                                                  rewardsName: false)
                            if r.extra != 0 && !r.isPacked || Scorer.isSubsequence(text, term) { want |= 1 << UInt64(k) }
                        }
                        XCTAssertEqual(filter.holding(start, word), want, "\(q), lines from \(start)")
                    }
                }
            }
        }
    }

    /// Random lines of 0 to 150 bytes over a few letters, and random terms of one to three
    /// words: every place a character can fall against the sixteen-byte steps and the last,
    /// overlapping one, and against the sixty-four-byte steps (AVX2, AVX-512) and the last,
    /// short one. Every body of the C check this CPU runs is asked.
    func testRandomLinesAndTermsAgreeWithThePlainLoop() {
        var state: UInt64 = 0xBEEF
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let letters = Array("abcAB/x")
        let text = (0..<4096).map { _ in String((0..<next(151)).map { _ in letters[next(letters.count)] }) }
        let store = makeAdoptedStore(text)
        for _ in 0..<60 {
            let q = (0..<(1 + next(3))).map { _ in String((0..<(1 + next(6))).map { _ in letters[next(5)] }) }
                .joined(separator: " ")
            let query = Query(q)
            let filter = LineMatcher(store: store, query: query).orderFilter!
            let terms = query.groups.map { $0[0] }
            // The terms as the C check reads them: bytes, fold bits, where each starts.
            var bytes: [UInt8] = [], folds: [UInt8] = [], starts: [Int] = []
            for term in terms {
                starts.append(bytes.count)
                let prepared = PreparedTerm(term)
                for b in prepared.bytes {
                    bytes.append(b)
                    folds.append(foldBits(for: b, folds: !prepared.caseSensitive))
                }
            }
            starts.append(bytes.count)
            for start in stride(from: 0, to: store.count, by: 64) {
                var want: UInt64 = 0
                for k in 0..<64 {
                    let r = store.record(start + k)
                    let holds = terms.allSatisfy { term in
                        let prepared = PreparedTerm(term)
                        return Scorer.isSubsequence(ScoredText(bytes: r.start, count: Int(r.length),
                                                               foldsASCII: !prepared.caseSensitive, rewardsName: false),
                                                    prepared)
                    }
                    if holds { want |= 1 << UInt64(k) }
                }
                let each = store.withCompactWord(start) { records, first in
                    pick_in_order64_each(store.compactBase!, records, first, ~0, bytes, folds, starts, terms.count)
                }
                XCTAssertEqual(each, want, "\(q) sixteen bytes a step, lines from \(start)")
                atEveryVectorLevel { level in
                    XCTAssertEqual(filter.holding(start, ~0), want, "\(q), lines from \(start), level \(level)")
                    let free = store.withCompactWord(start) { records, first in
                        pick_in_order64_all_branch_free(store.compactBase!, records, first, ~0, bytes, folds, starts,
                                                        terms.count)
                    }
                    XCTAssertEqual(free, want, "\(q) without a branch per character, lines from \(start), level \(level)")
                }
            }
        }
    }

    func testSearchesFindExactlyTheLinesTheMatcherAccepts() {
        for palette in [false, true] {
            let text = lines(6000, palette: palette)
            for store in [makeAdoptedStore(text, palette: palette), makeStore(text, plain: !palette)] {
                let engine = SearchEngine(store: store)
                engine.boundsFromLines = 0
                for q in queries {
                    let matcher = LineMatcher(store: store, query: engine.parse(q))
                    let want = (0..<store.count).filter { matcher.match($0, matcher.lookAhead($0), next: nil) != nil }
                    let whole = engine.search(q)!
                    XCTAssertEqual(whole.matchCount, want.count, "count of \(q), palette \(palette)")
                    XCTAssertEqual(Set(whole.lines.map(Int.init)), Set(want), "lines of \(q), palette \(palette)")
                    let first = engine.search(q, firstRows: 20)!
                    XCTAssertEqual(first.matchCount, want.count, "first screen's count of \(q)")
                    XCTAssertEqual(first.lines, Array(whole.lines.prefix(first.lines.count)), "first screen of \(q)")
                }
            }
        }
    }

    func testARareTermLooksUpOnlyTheLinesThatHoldIt() {
        let store = makeAdoptedStore(lines(5000))
        let matcher = LineMatcher(store: store, query: Query("swiftcore"))
        var cursor = CandidateCursor(previous: nil, upTo: 0, from: 0, to: store.count, order: matcher.orderFilter)
        var looked = 0
        while cursor.next() != nil { looked += 1 }
        let term = PreparedTerm(Query("swiftcore").groups[0][0])
        let holding = (0..<store.count).filter {
            let r = store.record($0)
            // (A line with folded text of its own is left to the matcher.)
            return r.extra != 0 && !r.isPacked || Scorer.isSubsequence(ScoredText(bytes: r.start, count: Int(r.length), foldsASCII: true,
                                                   rewardsName: false), term)
        }
        XCTAssertEqual(looked, holding.count)
        XCTAssertLessThan(looked, store.count / 2, "most lines lack swiftcore")
    }
}
