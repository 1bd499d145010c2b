import CPickScan
@testable import PickCore
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The SSE2 byte scans of CPickScan against plain loops written here: random bytes from a
/// fixed seed, every length from 0 to 80 (around the 16- and 64-byte steps), every start
/// offset from 0 to 31, and every place to start or stop the scan from. Texts are also
/// laid against an unreadable page, so that a scan reading one byte too far crashes.
final class ByteScanTests: XCTestCase {
    private static let lengths = 0...80
    private static let offsets = 0..<32

    /// Bytes the scans look for (letters in both cases, tab, newline, NUL, space, a control
    /// character, bytes with the high bit) among filler, at a density drawn for each text.
    private static let interesting: [UInt8] = [0x61, 0x41, 0x62, 0x09, 0x0A, 0x00, 0x20, 0x1F, 0x80, 0xC3, 0xFF, 0x2F]

    /// XCTAssertEqual without its cost per call: these tests compare millions of answers.
    private func same<T: Equatable>(_ found: T, _ expected: T, _ message: @autoclosure () -> String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        if found != expected { XCTFail("\(found) is not \(expected): \(message())", file: file, line: line) }
    }

    private func randomText(_ n: Int, _ generator: inout SeededGenerator) -> [UInt8] {
        let density = [2, 10, 50][Int.random(in: 0..<3, using: &generator)]
        return (0..<n).map { _ in
            Int.random(in: 0..<100, using: &generator) < density
                ? Self.interesting.randomElement(using: &generator)! : 0x78
        }
    }

    /// Calls `body` with `text` copied to every start offset of a 64-byte-aligned buffer,
    /// then right after and right before a page that cannot be read.
    private func everyPlacement(of text: [UInt8], _ body: (UnsafePointer<UInt8>) -> Void) {
        let aligned = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 64)
        defer { aligned.deallocate() }
        for offset in Self.offsets {
            let p = (aligned + offset).assumingMemoryBound(to: UInt8.self)
            p.initialize(from: text, count: text.count)
            body(UnsafePointer(p))
        }
        GuardedPages.shared.afterGuard(text, body)
        GuardedPages.shared.beforeGuard(text, body)
    }

    func testFindingAByteFindsTheFirstOneAScalarLoopFinds() {
        var generator = SeededGenerator(seed: 0xB17E)
        for n in Self.lengths {
            for _ in 0..<4 {
                let text = randomText(n, &generator)
                for (needle, fold) in [(UInt8(0x61), UInt8(0x20)), (0x61, 0), (0x09, 0), (0xC3, 0), (0x2F, 0)] {
                    everyPlacement(of: text) { p in
                        for from in 0...n {
                            var expected = -1
                            for i in from..<n where p[i] | fold == needle {
                                expected = i
                                break
                            }
                            same(pick_find_byte(p, from, n, needle, fold), expected,
                                           "find \(needle) fold \(fold) from \(from) in \(text)")
                        }
                    }
                }
            }
        }
    }

    func testFindingTheLastByteFindsTheLastOneAScalarLoopFinds() {
        var generator = SeededGenerator(seed: 0x1A57)
        for n in Self.lengths {
            for _ in 0..<4 {
                let text = randomText(n, &generator)
                for (needle, fold) in [(UInt8(0x61), UInt8(0x20)), (0x41, 0), (0x2F, 0), (0xFF, 0)] {
                    everyPlacement(of: text) { p in
                        for lo in 0...n {
                            var expected = -1
                            for i in (lo..<n).reversed() where p[i] | fold == needle {
                                expected = i
                                break
                            }
                            same(pick_last_byte_after(p, lo, n, needle, fold), expected,
                                           "last \(needle) fold \(fold) from \(lo) in \(text)")
                        }
                        var whole = -1
                        for i in (0..<n).reversed() where p[i] | fold == needle {
                            whole = i
                            break
                        }
                        same(pick_last_byte(p, n, needle, fold), whole, "last \(needle) in \(text)")
                    }
                }
            }
        }
    }

    func testFindingWhiteSpaceFindsTheFirstByteAtOrBelowSpace() {
        var generator = SeededGenerator(seed: 0x3417E)
        for n in Self.lengths {
            for _ in 0..<4 {
                let text = randomText(n, &generator)
                everyPlacement(of: text) { p in
                    for from in 0...n {
                        var expected = -1
                        for i in from..<n where p[i] <= 0x20 {
                            expected = i
                            break
                        }
                        same(pick_find_white(p, from, n), expected, "white from \(from) in \(text)")
                    }
                }
            }
        }
    }

    func testTheNamesPlacesAreWhatBackwardLoopsFind() {
        var generator = SeededGenerator(seed: 0x9A3E)
        func last(_ p: UnsafePointer<UInt8>, _ range: Range<Int>, _ c: UInt8, _ fold: UInt8) -> Int {
            for i in range.reversed() where p[i] | fold == c { return i }
            return -1
        }
        for n in Self.lengths {
            for _ in 0..<4 {
                let text = randomText(n, &generator)
                for (c, cf, d, df) in [(UInt8(0x61), UInt8(0x20), UInt8(0x62), UInt8(0)), (0x78, 0, 0x2F, 0),
                                       (0x2F, 0, 0x78, 0), (0x41, 0, 0x61, 0x20)] {
                    everyPlacement(of: text) { p in
                        let nameStart = last(p, 0..<n, 0x2F, 0) + 1
                        let inName = last(p, nameStart..<n, c, cf) >= 0
                        for wantsBefore in [false, true] {
                            let before = inName && wantsBefore ? last(p, 0..<nameStart, d, df) : -1
                            let found = pick_name_places_of(p, n, c, cf, d, df, wantsBefore ? 1 : 0)
                            same([found.nameStart, found.inName != 0 ? 1 : 0, found.before],
                                 [nameStart, inName ? 1 : 0, before], "places of \(c), \(d) in \(text)")
                        }
                    }
                }
            }
        }
    }

    func testHoldingBitsMarkTheLinesThatHoldEveryRequiredCharacter() {
        var generator = SeededGenerator(seed: 0x4011D)
        let sets = UnsafeMutablePointer<UInt32>.allocate(capacity: 64)
        defer { sets.deallocate() }
        for _ in 0..<2000 {
            // Few bits required and sets that often hold them, or many and sets that rarely do.
            let required = UInt32.random(in: 0...UInt32.max, using: &generator)
                & (Bool.random(using: &generator) ? 0x0000_0105 : UInt32.random(in: 0...UInt32.max, using: &generator))
            for k in 0..<64 {
                sets[k] = Bool.random(using: &generator) ? required | UInt32.random(in: 0...UInt32.max, using: &generator)
                                                         : UInt32.random(in: 0...UInt32.max, using: &generator)
            }
            var expected: UInt64 = 0
            for k in 0..<64 where sets[k] & required == required { expected |= 1 << UInt64(k) }
            same(pick_holding64(sets, required), expected, "required \(required)")
        }
    }

    func testTheLoadersScanStopsAtSeparatorsTabsAndHighBytes() {
        var generator = SeededGenerator(seed: 0x5BEC)
        for n in Self.lengths {
            for _ in 0..<4 {
                let text = randomText(n, &generator)
                for (separator, tab, high) in [(UInt8(0x0A), UInt8(0x09), UInt8(0x80)), (0x0A, 0x0A, 0), (0x00, 0x09, 0x80),
                                                (0x0A, 0x0A, 0x80)] {
                    everyPlacement(of: text) { p in
                        for from in 0...n {
                            var expected = n
                            for i in from..<n where p[i] == separator || p[i] == tab || p[i] & high != 0 {
                                expected = i
                                break
                            }
                            same(pick_find_special(p, from, n, separator, tab, high), expected,
                                           "special from \(from) in \(text)")
                        }
                    }
                }
            }
        }
    }

    func testTheBulkLineScanFindsTheLinesAScalarLoopFinds() {
        var generator = SeededGenerator(seed: 0x11E5)
        let out = UnsafeMutablePointer<pick_line_end>.allocate(capacity: 256)
        defer { out.deallocate() }
        // Longer texts too: the scan goes 64 bytes at a time, and lines cross its blocks.
        for n in Array(Self.lengths) + [127, 128, 129, 200] {
            for _ in 0..<4 {
                var text = randomText(n, &generator)
                // Mostly ASCII lines, so that the scan gets past the first few.
                if Bool.random(using: &generator) { text = text.map { $0 >= 0x80 ? 0x78 : $0 } }
                for (separator, tab) in [(UInt8(0x0A), UInt8(0x09)), (0x0A, 0x0A), (0x00, 0x09)] {
                    for cap in [1, 3, 256] {
                        everyPlacement(of: text) { p in
                            for from in Set([0, 1, 15, 16, 17, 63, 64, 65, n / 2, n]) where from <= n {
                                let expected = scanLines(p, from: from, n: n, separator: separator, tab: tab, cap: cap)
                                var resume = -1
                                var count = pick_scan_lines_each(p, from, n, separator, tab, out, cap, &resume)
                                func check(_ body: String) {
                                    let found = (0..<count).map { Line(end: out[$0].end, tab1: out[$0].tab1, tab2: out[$0].tab2) }
                                    same(found, expected.lines, "lines from \(from), cap \(cap) in \(text), \(body)")
                                    same(resume, expected.resume, "resume from \(from), cap \(cap) in \(text), \(body)")
                                }
                                check("sse2")
                                atEveryVectorLevel { level in
                                    count = pick_scan_lines(p, from, n, separator, tab, out, cap, &resume)
                                    check("level \(level)")
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private struct Line: Equatable {
        var end: Int
        var tab1: Int
        var tab2: Int
    }

    /// What `pick_scan_lines` promises, a line at a time: the ASCII lines ended before `n`,
    /// with their first two tabs, up to `cap`; it stops at a line with a high byte or not
    /// ended, which is where it resumes.
    private func scanLines(_ p: UnsafePointer<UInt8>, from: Int, n: Int, separator: UInt8, tab: UInt8,
                           cap: Int) -> (lines: [Line], resume: Int) {
        var lines: [Line] = []
        var start = from
        while lines.count < cap {
            var end = start
            while end < n && p[end] != separator { end += 1 }
            guard end < n, !(start..<end).contains(where: { p[$0] >= 0x80 }) else { break }
            let tabs = tab == separator ? [] : (start..<end).filter { p[$0] == tab }.map { $0 - start }
            lines.append(Line(end: end, tab1: tabs.count > 0 ? tabs[0] : -1, tab2: tabs.count > 1 ? tabs[1] : -1))
            start = end + 1
        }
        return (lines, start)
    }

    func testSixtyFourByteMasksMarkEveryMatchingByte() {
        var generator = SeededGenerator(seed: 0x64)
        for _ in 0..<200 {
            let text = randomText(64, &generator)
            everyPlacement(of: text) { p in
                for needle in [UInt8(0x0A), 0x09, 0x00, 0x61] {
                    var expected: UInt64 = 0
                    for k in 0..<64 where p[k] == needle { expected |= 1 << UInt64(k) }
                    same(pick_equal64(p, needle), expected, "equal \(needle) in \(text)")
                }
                var highs: UInt64 = 0
                for k in 0..<64 where p[k] >= 0x80 { highs |= 1 << UInt64(k) }
                same(pick_high64(p), highs, "highs in \(text)")
            }
        }
    }

    func testTheCommonPrefixIsWhereTwoTextsFirstDiffer() {
        var generator = SeededGenerator(seed: 0xC0)
        let other = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 64)
        defer { other.deallocate() }
        for n in Self.lengths {
            for _ in 0..<8 {
                let text = randomText(n, &generator)
                var changed = text
                let differsAt = n == 0 || Bool.random(using: &generator) ? n : Int.random(in: 0..<n, using: &generator)
                if differsAt < n { changed[differsAt] ^= UInt8.random(in: 1...255, using: &generator) }
                everyPlacement(of: text) { p in
                    for offset in Self.offsets {
                        let q = (other + offset).assumingMemoryBound(to: UInt8.self)
                        q.initialize(from: changed, count: n)
                        for count in Set([0, n / 2, max(n - 1, 0), n]) {
                            same(pick_common_prefix(p, q, count), min(differsAt, count),
                                           "prefix of \(count) in \(text)")
                        }
                    }
                }
            }
        }
    }

    func testBothChecksumBodiesGiveTheSameSumAndSeeAChangedByte() {
        var generator = SeededGenerator(seed: 0x5E11)
        for n in [0, 1, 7, 63, 64, 65, 127, 128, 200, 1000, 4096 + 3] {
            var text = (0..<n).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let sum = pick_checksum_each(text, n, 7)
            let at = n > 0 ? Int.random(in: 0..<n, using: &generator) : 0
            var changed = text
            if n > 0 { changed[at] ^= 0x10 }
            let changedSum = pick_checksum_each(changed, n, 7)
            if n > 0 { XCTAssertNotEqual(changedSum, sum, "byte \(at) of \(n) changed") }
            atEveryVectorLevel { level in
                same(pick_checksum(text, n, 7), sum, "level \(level) over \(n) bytes")
                same(pick_checksum(changed, n, 7), changedSum, "level \(level) over \(n) changed bytes")
            }
            text = changed
        }
    }

    func testGreedyPlacesAreWhereAScalarLoopPutsEachCharacter() {
        var generator = SeededGenerator(seed: 0x9EED)
        let terms: [[UInt8]] = [[0x61], [0x61, 0x62], [0x61, 0x61, 0x61], [0x62, 0x61, 0x2F], [0x41, 0x62],
                                [0x09, 0x61], [0xC3, 0x61], Array(repeating: 0x61, count: 12)]
        for n in Self.lengths {
            for _ in 0..<3 {
                let text = randomText(n, &generator)
                for term in terms {
                    for folds in [0, 1] {
                        // Expected: each character at the first byte after the one before
                        // that equals it, letters a-z also in upper case when folding.
                        var expected: [Int]? = []
                        var at = 0
                        for c in term {
                            let fold: UInt8 = folds == 1 && c &- 0x61 < 26 ? 0x20 : 0
                            guard let i = (at..<n).first(where: { text[$0] | fold == c }) else { expected = nil; break }
                            expected!.append(i)
                            at = i + 1
                        }
                        everyPlacement(of: text) { p in
                            var places = [Int](repeating: -1, count: term.count)
                            var placed = pick_greedy_places_each(p, n, term, term.count, Int32(folds), &places)
                            same(placed != 0 ? places : nil, expected, "\(term) in \(text), folds \(folds), sse2")
                            atEveryVectorLevel { level in
                                places = [Int](repeating: -1, count: term.count)
                                placed = pick_greedy_places(p, n, term, term.count, Int32(folds), &places)
                                same(placed != 0 ? places : nil, expected, "\(term) in \(text), folds \(folds), level \(level)")
                            }
                        }
                    }
                }
            }
        }
    }

    func testTheChecksumDependsOnTheBytesNotWhereTheyLie() {
        var generator = SeededGenerator(seed: 0xC5)
        for n in Self.lengths {
            let text = randomText(n, &generator)
            var sums = Set<UInt64>()
            everyPlacement(of: text) { p in sums.insert(pick_checksum(p, n, 7)) }
            same(sums.count, 1, "checksums of \(text)")
        }
    }
}

/// Three pages, the first and the last unreadable: a text placed against either of them
/// makes a scan that reads past its start or its end crash.
private final class GuardedPages {
    static let shared = GuardedPages()
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    private let base: UnsafeMutableRawPointer

    private init() {
        base = mmap(nil, 3 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
        mprotect(base, pageSize, PROT_NONE)
        mprotect(base + 2 * pageSize, pageSize, PROT_NONE)
    }

    /// `text` starting right after the first unreadable page.
    func afterGuard(_ text: [UInt8], _ body: (UnsafePointer<UInt8>) -> Void) {
        let p = (base + pageSize).assumingMemoryBound(to: UInt8.self)
        p.initialize(from: text, count: text.count)
        body(UnsafePointer(p))
    }

    /// `text` ending right before the last unreadable page.
    func beforeGuard(_ text: [UInt8], _ body: (UnsafePointer<UInt8>) -> Void) {
        let p = (base + 2 * pageSize - text.count).assumingMemoryBound(to: UInt8.self)
        p.initialize(from: text, count: text.count)
        body(UnsafePointer(p))
    }
}
