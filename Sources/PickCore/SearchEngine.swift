import Dispatch
import Synchronization

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
        let total = store.count
        let sections = store.sectionCount
        let first = min(skippedLines, total)
        let query = parse(text)
        let ranked: [Int32]
        if query.isEmpty {
            var all = (first..<total).map { Int32($0) }
            if ranking.reversesInput { all.reverse() }
            ranked = all
        } else {
            guard let found = rank(query, lines: first..<total, cancellation: cancellation) else { return nil }
            ranked = found
        }
        let (lines, groups) = SectionGrouping.group(ranked, sectionCount: sections) { store.section(of: $0) }
        return SearchResult(query: text, lines: lines, groups: groups, searched: total - first)
    }

    private func rank(_ query: Query, lines: Range<Int>, cancellation: Cancellation?) -> [Int32]? {
        let keys = RankKeyMaker(ranking)
        let sorts = ranking.sorts
        let chunkSize = 1 << 15
        let chunkCount = max(1, (lines.count + chunkSize - 1) / chunkSize)
        let parts = UnsafeMutableBufferPointer<[RankedHit]>.allocate(capacity: chunkCount)
        parts.initialize(repeating: [])
        defer { parts.deinitialize().deallocate() }
        let store = self.store
        let work: (Int) -> Void = { chunk in
            let matcher = LineMatcher(store: store, query: query)
            let lo = lines.lowerBound + chunk * chunkSize
            let hi = min(lo + chunkSize, lines.upperBound)
            var hits: [RankedHit] = []
            for i in lo..<hi {
                if let m = matcher.match(i) {
                    hits.append(keys.hit(index: i, match: m, titleLength: store.titleLength(of: i)))
                }
            }
            if cancellation?.isCancelled == true { return }
            if sorts { hits.sort() }
            parts[chunk] = hits
        }
        if chunkCount == 1 { work(0) } else { DispatchQueue.concurrentPerform(iterations: chunkCount, execute: work) }
        if cancellation?.isCancelled == true { return nil }

        var merged: [[RankedHit]] = Array(parts)
        if sorts {
            while merged.count > 1 {
                let pairs = merged.count / 2
                let next = UnsafeMutableBufferPointer<[RankedHit]>.allocate(capacity: pairs)
                next.initialize(repeating: [])
                let current = merged
                DispatchQueue.concurrentPerform(iterations: pairs) { p in
                    next[p] = Self.merge(current[2 * p], current[2 * p + 1])
                }
                var round = Array(next)
                next.deinitialize().deallocate()
                if merged.count % 2 == 1 { round.append(merged[merged.count - 1]) }
                merged = round
                if cancellation?.isCancelled == true { return nil }
            }
        }
        var out: [Int32] = []
        out.reserveCapacity(merged.reduce(0) { $0 + $1.count })
        for part in merged {
            for hit in part { out.append(Int32(keys.index(of: hit))) }
        }
        if !sorts && ranking.reversesInput { out.reverse() }
        return out
    }

    private static func merge(_ a: [RankedHit], _ b: [RankedHit]) -> [RankedHit] {
        var out: [RankedHit] = []
        out.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if b[j] < a[i] { out.append(b[j]); j += 1 } else { out.append(a[i]); i += 1 }
        }
        out.append(contentsOf: a[i...])
        out.append(contentsOf: b[j...])
        return out
    }
}
