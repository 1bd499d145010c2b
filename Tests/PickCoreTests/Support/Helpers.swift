@testable import PickCore
import XCTest
import CPickScan

/// A store holding `lines`, each ended by the separator, input finished.
func makeStore(_ lines: [String], plain: Bool = false) -> LineStore {
    let store = LineStore(separator: 0x0A, parsesFields: !plain)
    for line in lines {
        store.append(Array(line.utf8) + [0x0A])
    }
    store.finish()
    return store
}

/// A store of `lines` adopted as a mapped file is (a file on stdin): compact records, the
/// lines one after the other.
func makeAdoptedStore(_ lines: [String], palette: Bool = false) -> LineStore {
    let bytes = Array(lines.joined(separator: "\n").utf8) + [0x0A]
    let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 64)
    memory.copyBytes(from: bytes)
    let store = LineStore(separator: 0x0A, parsesFields: palette, large: true)
    store.adopt(UnsafeRawBufferPointer(memory), release: { memory.deallocate() })
    store.finish()
    return store
}

/// A store holding `bytes` as read, input finished.
func makeStore(bytes: [UInt8]) -> LineStore {
    let store = LineStore()
    store.append(bytes)
    store.finish()
    return store
}

/// The lines `query` finds among `lines`, in display order, as text.
func search(_ query: String, in lines: [String],
            matching: MatchingOptions = MatchingOptions(),
            ranking: RankingOptions = RankingOptions(),
            plain: Bool = false, skipped: Int = 0) -> [String] {
    let store = makeStore(lines, plain: plain)
    let engine = SearchEngine(store: store, matching: matching, ranking: ranking, skippedLines: skipped)
    guard let result = engine.search(query) else {
        XCTFail("search for \(query) was cancelled")
        return []
    }
    return result.lines.map { String(decoding: store.bytes(of: Int($0)), as: UTF8.self) }
}

/// The set of lines `query` finds, for rules where order does not matter.
func matches(_ query: String, in lines: [String],
             matching: MatchingOptions = MatchingOptions(), plain: Bool = false) -> Set<String> {
    Set(search(query, in: lines, matching: matching, plain: plain))
}

/// Suggestions for `text`, as text.
func suggest(_ text: String, in lines: [String], limit: Int = 6, skipping: Int = 0) -> [String] {
    let store = makeStore(lines)
    return Suggestions.suggest(text, in: store, limit: limit, skipping: skipping)
        .map { String(decoding: $0, as: UTF8.self) }
}

/// Runs `body` once for each body with vectors CPickScan has that this CPU runs (SSE2, and
/// AVX2 and AVX-512 where it has them), widest last, handing it the level in use: each
/// body is then compared with what the test expects, not only the one the CPU picks.
func atEveryVectorLevel(_ body: (Int32) -> Void) {
    defer { _ = pick_limit_vectors(2) }
    var seen = Set<Int32>()
    for level in Int32(0)...2 {
        let used = pick_limit_vectors(level)
        if seen.insert(used).inserted { body(used) }
    }
}
