import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a query's terms compare with lines.
public struct MatchingOptions: Sendable, Equatable {
    /// Plain terms are fuzzy (false: `--exact`).
    public var fuzzy = true
    public var caseMode: CaseMode = .smart
    /// Ignore diacritics (false: `--literal`).
    public var normalize = true

    public init(fuzzy: Bool = true, caseMode: CaseMode = .smart, normalize: Bool = true) {
        self.fuzzy = fuzzy
        self.caseMode = caseMode
        self.normalize = normalize
    }
}

/// The lines that match a query, in display order.
public struct SearchResult: Sendable {
    /// The query text searched for.
    public var query: String
    /// Matching line indexes in display order (ranked, then grouped by section).
    public var lines: [Int32]
    /// The section groups of `lines`, in display order.
    public var groups: [SectionGroup]
    /// How many lines of the store were searched.
    public var searched: Int
}

/// A flag a newer keystroke sets to stop a search that has become stale.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func cancel() { flag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// Searches a store on every core, in chunks, and ranks and groups the results.
public final class SearchEngine: @unchecked Sendable {
    /// Cores to search on.
    static let processorCount = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))

    public let store: LineStore
    public var matching: MatchingOptions
    public var ranking: RankingOptions
    /// Lines at the start of the store that are headers, never candidates (`--header-lines`).
    public var skippedLines: Int

    public init(store: LineStore, matching: MatchingOptions = MatchingOptions(),
                ranking: RankingOptions = RankingOptions(), skippedLines: Int = 0) {
        self.store = store
        self.matching = matching
        self.ranking = ranking
        self.skippedLines = skippedLines
    }

    /// Parses `text` with this engine's matching options.
    public func parse(_ text: String) -> Query {
        Query(text, fuzzy: matching.fuzzy, caseMode: matching.caseMode, normalize: matching.normalize)
    }

    /// Searches every line now in the store; nil when cancelled first.
    public func search(_ text: String, cancellation: Cancellation? = nil) -> SearchResult? {
        search(text, waitsForInput: false, cancellation: cancellation)
    }

    /// Searches every line the store will hold: matches the lines already read while
    /// another thread reads the rest, and returns once that thread has called `finish()`.
    public func searchAllInput(_ text: String) -> SearchResult {
        search(text, waitsForInput: true, cancellation: nil)!
    }

    private func search(_ text: String, waitsForInput: Bool, cancellation: Cancellation?) -> SearchResult? {
        let query = parse(text)
        let ranked: [Int32]
        var total = store.count
        if query.isEmpty || !waitsForInput {
            if waitsForInput {
                while !store.isFinished { usleep(1000) }
                total = store.count
            }
            let first = min(skippedLines, total)
            if query.isEmpty {
                var all = (first..<total).map { Int32($0) }
                if ranking.reversesInput { all.reverse() }
                ranked = all
            } else {
                guard let found = rank(query, first: first, end: total, cancellation: cancellation) else { return nil }
                ranked = found
            }
        } else {
            ranked = rank(query, first: skippedLines, end: nil, cancellation: nil)!
            total = store.count
        }
        let first = min(skippedLines, total)
        let sections = store.sectionCount
        let (lines, groups) = SectionGrouping.group(ranked, sectionCount: sections) { store.section(of: $0) }
        return SearchResult(query: text, lines: lines, groups: groups, searched: total - first)
    }

    /// Ranks the lines from `first` on: up to `end`, or (nil) every line until the store's
    /// input is finished, matching the lines already read while the rest arrives.
    ///
    /// Workers (one per core) claim chunks of 32K lines in order; each sorts its chunk's
    /// hits, and the sorted chunks are merged at the end.
    private func rank(_ query: Query, first: Int, end: Int?, cancellation: Cancellation?) -> [Int32]? {
        let keys = RankKeyMaker(ranking)
        let sorts = ranking.sorts
        let chunkSize = 1 << 15
        let store = self.store
        let nextChunk = Atomic<Int>(0)
        let finished = Mutex<[(chunk: Int, hits: [RankedHit])]>([])
        let expected = end.map { max(1, ($0 - first + chunkSize - 1) / chunkSize) }
        let workers = min(Self.processorCount, expected ?? Self.processorCount)
        let work: (Int) -> Void = { _ in
            let matcher = LineMatcher(store: store, query: query)
            while cancellation?.isCancelled != true {
                let chunk = nextChunk.add(1, ordering: .relaxed).oldValue
                let lo = first + chunk * chunkSize
                var available: Int
                if let end {
                    available = end
                } else {
                    // Wait for this chunk's lines (or the end of input).
                    while true {
                        let done = store.isFinished
                        available = store.count
                        if done || available >= lo + chunkSize { break }
                        usleep(200)
                    }
                }
                if lo >= available { break }
                let hi = min(lo + chunkSize, available)
                var hits: [RankedHit] = []
                var i = lo
                while i < hi {
                    if let m = matcher.match(i) {
                        hits.append(keys.hit(index: i, match: m, titleLength: store.titleLength(of: i)))
                    }
                    i += 1
                }
                if sorts { hits.sort() }
                finished.withLock { $0.append((chunk, hits)) }
            }
        }
        if workers <= 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: workers, execute: work) }
        if cancellation?.isCancelled == true { return nil }

        var sortedParts = finished.withLock { $0 }
        sortedParts.sort { $0.chunk < $1.chunk }
        guard !sortedParts.isEmpty else { return [] }
        let parts = UnsafeMutableBufferPointer<[RankedHit]>.allocate(capacity: sortedParts.count)
        _ = parts.initialize(from: sortedParts.map(\.hits))
        sortedParts = []
        defer { parts.deinitialize().deallocate() }
        var total = 0
        for part in parts { total += part.count }
        var out: [Int32] = []
        out.reserveCapacity(total)
        if !sorts {
            for part in parts {
                for hit in part { out.append(Int32(keys.index(of: hit))) }
            }
            if ranking.reversesInput { out.reverse() }
            return out
        }
        // k-way merge of the sorted chunks straight into the output: no intermediate copies.
        var heap = MergeHeap(parts: parts)
        while let hit = heap.pop() { out.append(Int32(keys.index(of: hit))) }
        return out
    }
}

/// A min-heap over the heads of sorted runs, for merging them in one pass.
struct MergeHeap {
    private let parts: UnsafeMutableBufferPointer<[RankedHit]>
    private var heads: [(hit: RankedHit, part: Int, next: Int)] = []

    init(parts: UnsafeMutableBufferPointer<[RankedHit]>) {
        self.parts = parts
        for (p, part) in parts.enumerated() where !part.isEmpty {
            heads.append((part[0], p, 1))
        }
        for i in stride(from: heads.count / 2 - 1, through: 0, by: -1) { siftDown(i) }
    }

    mutating func pop() -> RankedHit? {
        guard let top = heads.first else { return nil }
        let part = top.part
        if top.next < parts[part].count {
            heads[0] = (parts[part][top.next], part, top.next + 1)
        } else {
            heads[0] = heads[heads.count - 1]
            heads.removeLast()
        }
        if !heads.isEmpty { siftDown(0) }
        return top.hit
    }

    private mutating func siftDown(_ start: Int) {
        var i = start
        while true {
            let l = 2 * i + 1, r = l + 1
            var smallest = i
            if l < heads.count && heads[l].hit < heads[smallest].hit { smallest = l }
            if r < heads.count && heads[r].hit < heads[smallest].hit { smallest = r }
            if smallest == i { return }
            heads.swapAt(i, smallest)
            i = smallest
        }
    }
}
