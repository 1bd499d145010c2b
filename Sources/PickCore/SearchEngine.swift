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
    /// Matching line indexes in display order (ranked, then grouped by section): all of
    /// them, or the first ones when the result is not complete.
    public var lines: [Int32]
    /// The section groups of `lines`, in display order.
    public var groups: [SectionGroup]
    /// How many lines of the store were searched.
    public var searched: Int
    /// How many lines match.
    public var matchCount: Int

    /// Whether `lines` holds every match (see `SearchEngine.search(_:firstRows:cancellation:)`).
    public var isComplete: Bool { lines.count == matchCount }
}

/// A flag a newer keystroke sets to stop a search that has become stale.
public final class Cancellation: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func cancel() { flag.store(true, ordering: .relaxed) }
    public var isCancelled: Bool { flag.load(ordering: .relaxed) }
}

/// A pthread mutex, for the little state shared with worker threads. (Synchronization's
/// `Mutex` would do as well, but ThreadSanitizer does not see its futex as a lock and
/// reports races that are not there, hiding real ones.)
public final class Lock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    public init() { pthread_mutex_init(mutex, nil) }
    deinit { pthread_mutex_destroy(mutex); mutex.deallocate() }
    public func locked<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}

/// A value behind a `Lock`, for what worker threads hand back.
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = Lock()

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        try lock.locked { try body(&value) }
    }
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
        search(text, firstRows: nil, waitsForInput: false, cancellation: cancellation)
    }

    /// Searches every line now in the store for a screen that shows `firstRows` lines: the
    /// result may hold only its first lines, at least `firstRows` (all matches when fewer),
    /// each where the complete result has it, and the count of all (`LineBounds` tells
    /// when). `search(_:cancellation:)` for the same text then gives the rest.
    public func search(_ text: String, firstRows: Int, cancellation: Cancellation? = nil) -> SearchResult? {
        search(text, firstRows: firstRows, waitsForInput: false, cancellation: cancellation)
    }

    /// Inputs with fewer lines keep no `LineBounds` (`Tunables.Search.boundsFromLines`).
    /// Tests and the fuzzer lower it.
    public var boundsFromLines = Tunables.Search.boundsFromLines

    /// Searches every line the store will hold: matches the lines already read while
    /// another thread reads the rest, and returns once that thread has called `finish()`.
    public func searchAllInput(_ text: String) -> SearchResult {
        search(text, firstRows: nil, waitsForInput: true, cancellation: nil)!
    }

    private func search(_ text: String, firstRows: Int?, waitsForInput: Bool,
                        cancellation: Cancellation?) -> SearchResult? {
        let query = parse(text)
        var total = store.count
        if waitsForInput && query.isEmpty {
            while !store.isFinished { usleep(1000) }
            total = store.count
        }
        let first = min(skippedLines, total)
        let options = (matching, ranking, skippedLines)
        if !waitsForInput, let cached = memory.recall(text: text, count: total, options: options),
           cached.result.isComplete || cached.result.lines.count >= firstRows ?? .max {
            return cached.result
        }
        var ranked: [Int32]
        var matches: LineBits? = nil
        var matchCount: Int? = nil
        if query.isEmpty {
            let reverses = ranking.reversesInput
            ranked = [Int32](unsafeUninitializedCapacity: total - first) { all, n in
                for k in 0..<all.count { all[k] = Int32(truncatingIfNeeded: reverses ? total &- 1 &- k : first &+ k) }
                n = all.count
            }
        } else if waitsForInput {
            ranked = rank(query, first: skippedLines, end: nil, candidates: nil, cancellation: nil)!.ranked
            total = store.count
        } else {
            // A query that narrows an earlier one looks only at what that one matched (and
            // at lines that arrived since).
            let previous = memory.narrowest(for: query, count: total, options: options)
            let bounds = takeBounds(for: query, previous: previous, total: total)
            let top = bounds.pass?.extends == true && firstRows != nil ? max(firstRows!, 1) : nil
            let found = rank(query, first: first, end: total, candidates: previous.map { ($0.lines, $0.upTo) },
                             cancellation: cancellation, bounds: bounds.pass, top: top)
            giveBack(bounds, searched: found == nil ? nil : (text, query, total))
            guard let found else { return nil }
            ranked = found.ranked
            matches = found.matches
            matchCount = found.matches?.count
        }
        let sections = store.sectionCount
        let (lines, groups) = SectionGrouping.group(ranked, sectionCount: sections, sections: store,
                                                    prefetches: !query.isEmpty)
        let result = SearchResult(query: text, lines: lines, groups: groups, searched: total - min(skippedLines, total),
                                  matchCount: matchCount ?? lines.count)
        if let matches {
            memory.remember(SearchMemory.Entry(text: text, query: query, count: total, options: options,
                                               result: result, matches: matches))
        }
        return result
    }

    private let memory = SearchMemory()

    /// The engine's `LineBounds`, taken for a search of `query` (nil: none, or another search
    /// holds them), with how this search uses them: going on from the values of the query it
    /// narrows, or recording them afresh (`LineBounds`).
    private func takeBounds(for query: Query, previous: (lines: LineBits, upTo: Int, text: String)?,
                            total: Int) -> (kept: LineBounds?, pass: BoundsPass?) {
        let held = memory.bounds.withLock { bounds -> LineBounds? in
            defer { bounds = nil }
            return bounds
        }
        // (Bounds serve a ranking by score, of lines not grouped by section.)
        guard total >= boundsFromLines, ranking.sorts, store.sectionCount == 0,
              let term = LineBounds.term(of: query) else { return (nil, nil) }
        if let held, let previous, held.text == previous.text, held.count == previous.upTo,
           held.capacity >= total, let added = held.added(by: term) {
            let pass = BoundsPass(held, term: term, kept: term.text.count - added, heldBelow: previous.upTo)
            return (held, pass)
        }
        let bounds = held.flatMap { $0.capacity >= total ? $0 : nil } ?? LineBounds(capacity: total)
        return (bounds, BoundsPass(bounds, term: term, kept: 0, heldBelow: 0))
    }

    /// Puts bounds taken with `takeBounds` back, as of the search of `searched` (nil: it was
    /// cancelled). Values half updated for a new term hold for neither, and are dropped.
    private func giveBack(_ bounds: (kept: LineBounds?, pass: BoundsPass?),
                          searched: (text: String, query: Query, total: Int)?) {
        guard let kept = bounds.kept, let pass = bounds.pass else { return }
        if let searched {
            kept.text = searched.text
            kept.term = LineBounds.term(of: searched.query)
            kept.count = searched.total
        } else if pass.extends || pass.heldBelow == 0 {
            return
        }
        memory.bounds.withLock { $0 = kept }
    }

    /// Ranks the lines from `first` on: up to `end`, or (nil) every line until the store's
    /// input is finished, matching the lines already read while the rest arrives.
    ///
    /// Workers (one per core) claim chunks of up to 32K lines in order; each sorts its
    /// chunk's hits, and the sorted chunks are merged at the end.
    private func rank(_ query: Query, first: Int, end: Int?, candidates: (lines: LineBits, upTo: Int)?,
                      cancellation: Cancellation?, bounds: BoundsPass? = nil,
                      top: Int? = nil) -> (ranked: [Int32], matches: LineBits?)? {
        if let compact = CompactKeyMaker(ranking) {
            return rank(query, first: first, end: end, candidates: candidates, cancellation: cancellation, keys: compact,
                        pass: bounds, top: top)
        }
        return rank(query, first: first, end: end, candidates: candidates, cancellation: cancellation,
                    keys: RankKeyMaker(ranking), pass: bounds, top: top)
    }

    /// With `pass`, lines are recorded in its bounds as they are scored. With `top` as well,
    /// the lines that hold bounds are bounded, not scored, and the ranking holds the best
    /// `top` alone: then the lines with the highest bounds are scored, and lower ones
    /// until the best `top` found rank above every bound left (`LineBounds`).
    private func rank<K: HitKeys>(_ query: Query, first: Int, end: Int?, candidates: (lines: LineBits, upTo: Int)?,
                                  cancellation: Cancellation?, keys: K, pass: BoundsPass?,
                                  top: Int?) -> (ranked: [Int32], matches: LineBits?)? {
        let sorts = ranking.sorts
        let store = self.store
        // The lines to look at: those an earlier search matched (below `upTo`) and every line
        // after them, or every line from `first`; the lines matched are noted as bits.
        let upTo = candidates?.upTo ?? first
        let previous = candidates?.lines
        let matches = end.map { LineBits(lines: $0) }
        let matchWords = matches?.words
        // Chunks are ranges of lines, whole words of bits (so no two share a word), sized
        // to hold about 32K lines to look at; fewer are cut in 16 (2K at least), so that the
        // last chunk claimed leaves the other cores idle only briefly. (In 32, merging
        // their runs cost more than the balance won: paths 100K peaked 0.5 MB higher.)
        let base = first & ~63
        let chunkLines = Tunables.Search.chunkLines
        // With an end, chunk c is lines bounds[c]..<bounds[c + 1], cut at whole words where
        // the lines to look at reach the chunk's share.
        var bounds: [Int] = []
        if let end {
            let lines = CandidateCursor(previous: previous, upTo: upTo, from: first, to: end)
            let share = min(chunkLines, max(Tunables.Search.leastChunkLines,
                                            (lines.remaining + Tunables.Search.chunksPerSearch - 1) / Tunables.Search.chunksPerSearch))
            bounds.append(first)
            var held = 0
            var start = base
            while start < end {
                held += lines.bits(at: start).nonzeroBitCount
                start += 64
                if held >= share && start < end {
                    bounds.append(start)
                    held = 0
                }
            }
            bounds.append(end)
        }
        // Top: each worker's best hits, a count of bounds at each score, and the lines scored.
        let heaps = UnsafeMutablePointer<TopHits<K.Hit>>.allocate(capacity: Parallel.cores)
        let levels = top == nil ? 0 : 1 << 12
        let histograms = UnsafeMutablePointer<Int>.allocate(capacity: max(levels * Parallel.cores, 1))
        histograms.initialize(repeating: 0, count: max(levels * Parallel.cores, 1))
        let exact = top != nil ? end.map { LineBits(lines: $0) } : nil
        let exactWords = exact?.words
        if let top { for w in 0..<Parallel.cores { (heaps + w).initialize(to: TopHits(capacity: top)) } }
        defer {
            if top != nil { heaps.deinitialize(count: Parallel.cores) }
            heaps.deallocate()
            histograms.deallocate()
        }
        let nextChunk = Atomic<Int>(0)
        let finished = Locked<[(chunk: Int, hits: [K.Hit], matched: Int)]>([])
        let expected: Int? = end == nil ? nil : max(1, bounds.count - 1)
        let workers = min(Parallel.cores, expected ?? Parallel.cores)
        let work: (Int) -> Void = { worker in
            // While input is still arriving, the reading thread is the one everything waits
            // for: one worker fewer than the cores leaves it a core of its own, and the last
            // worker joins when input ends.
            if end == nil && workers > 1 && worker == workers - 1 {
                while !store.isFinished { usleep(500) }
            }
            let matcher = LineMatcher(store: store, query: query)
            let scratch = sorts && top == nil ? UnsafeMutableBufferPointer<K.Hit>.allocate(capacity: chunkLines) : nil
            let histogram = histograms + levels * worker
            var recorder = BoundsRecorder()
            let ring = UnsafeMutablePointer<LineMatcher.Upcoming>.allocate(capacity: 16)
            let ringLines = UnsafeMutablePointer<Int>.allocate(capacity: 16)
            defer {
                scratch?.deallocate()
                ring.deallocate()
                ringLines.deallocate()
            }
            while cancellation?.isCancelled != true {
                let chunk = nextChunk.add(1, ordering: .relaxed).oldValue
                var lo = max(first, base + chunk * chunkLines)
                var available: Int
                if end != nil {
                    if chunk + 1 >= bounds.count { break }
                    lo = bounds[chunk]
                    available = bounds[chunk + 1]
                } else {
                    // Wait for this chunk's lines (or the end of input).
                    while true {
                        let done = store.isFinished
                        available = store.count
                        if done || available >= lo + chunkLines { break }
                        usleep(200)
                    }
                }
                if lo >= available && end == nil { break }
                let hi = end == nil ? min(base + (chunk + 1) * chunkLines, available) : available
                var lines = CandidateCursor(previous: previous, upTo: upTo, from: lo, to: hi)
                // Room for every line looked at: growing by doubling would copy.
                var hits: [K.Hit] = []
                if top == nil { hits.reserveCapacity(lines.remaining) }
                var matched = 0
                // Lines are looked up eight ahead of their turn (records, characters, and a
                // prefetch of their bytes), into a ring the matcher reads them from; the
                // next line not ruled out is known when one is scored.
                var head = 0, tail = 0
                while true {
                    while tail &- head < 10, let i = lines.next() {
                        ringLines[tail & 15] = i
                        ring[tail & 15] = matcher.lookAhead(i)
                        tail &+= 1
                    }
                    if head == tail { break }
                    let current = ring[head & 15]
                    if !current.ruledOut {
                        let i = ringLines[head & 15]
                        var next: LineRecord? = nil
                        var q = head &+ 1
                        while q < tail {
                            if !ring[q & 15].ruledOut {
                                next = ring[q & 15].record
                                break
                            }
                            q &+= 1
                        }
                        let record = current.record
                        // A line the earlier term matched: checked for the added characters
                        // from where its match ended; with `top`, bounded and not scored.
                        var matchEnd: Int? = nil
                        var scores = true
                        if let pass, pass.holds(i, record) {
                            if pass.extends {
                                matchEnd = pass.extendedEnd(i, record)
                                if matchEnd == nil {
                                    scores = false
                                } else if top != nil {
                                    let bound = pass.bound(i, record)
                                    pass.keep(i, end: matchEnd!, bound: bound)
                                    histogram[Int(min(bound.score, Int32(levels - 1)))] &+= 1
                                    matched &+= 1
                                    if let matchWords { matchWords[i >> 6] |= 1 << UInt64(i & 63) }
                                    scores = false
                                }
                            } else {
                                matchEnd = pass.end(i)
                            }
                        }
                        if scores, let m = matcher.match(i, current, next: next) {
                            let hit = keys.hit(index: i, match: m, titleLength: store.titleLength(of: i, record: record))
                            if top != nil {
                                heaps[worker].offer(hit)
                                exactWords![i >> 6] |= 1 << UInt64(i & 63)
                            } else {
                                hits.append(hit)
                            }
                            matched &+= 1
                            if let matchWords { matchWords[i >> 6] |= 1 << UInt64(i & 63) }
                            pass?.record(i, record, score: m.score, base: m.base, end: matchEnd, recorder: &recorder)
                        }
                    }
                    head &+= 1
                }
                if sorts && top == nil { HitSorter.sort(&hits, keys: keys, scratch: scratch) }
                finished.withLock { $0.append((chunk, hits, matched)) }
            }
        }
        Parallel.run(workers, work)
        if cancellation?.isCancelled == true { return nil }

        var sortedParts = finished.withLock { $0 }
        sortedParts.sort { $0.chunk < $1.chunk }
        guard !sortedParts.isEmpty else { return ([], matches) }
        matches?.count = sortedParts.reduce(0) { $0 + $1.matched }
        if let top, let pass, let matchWords, let exactWords {
            // The bounded lines, highest bounds first, down to the level where the best `top`
            // scored rank above every bound left.
            for w in 1..<Parallel.cores {
                for level in 0..<levels { histograms[level] += histograms[levels * w + level] }
            }
            var level = levels - 1
            var above = 0
            while level > 0 && above + histograms[level] < top {
                above += histograms[level]
                level -= 1
            }
            // First the lines bounded at `level` or above; then those below it whose bound
            // still ranks above the worst of the best `top` found (each worker's own, and
            // all workers' after the first round).
            let words = matchWords, exactOnes = exactWords
            let wordCount = (end! + 63) >> 6
            var threshold: K.Hit? = nil
            var best: [K.Hit] = []
            for round in 0..<2 {
                let first = round == 0
                Parallel.run(workers) { worker in
                    let matcher = LineMatcher(store: store, query: query, matching: true)
                    var recorder = BoundsRecorder()
                    var w = wordCount * worker / workers
                    let last = wordCount * (worker + 1) / workers
                    let least = threshold.map { Int(keys.score(of: $0)) } ?? 0
                    while w < last {
                        var bits = words[w] & ~exactOnes[w]
                        while bits != 0 {
                            let i = w << 6 | bits.trailingZeroBitCount
                            bits &= bits - 1
                            // (Lines scored in the first round are among `exactOnes`.)
                            let bound = pass.score(i)
                            if first ? min(bound, levels - 1) < level : bound < least { continue }
                            let line = matcher.lookAhead(i)
                            if !first {
                                var worst = heaps[worker].worst
                                if let all = threshold, worst == nil || all < worst! { worst = all }
                                if let worst {
                                    let length = store.titleLength(of: i, record: line.record)
                                    let most = LineMatch(score: Int32(bound), begin: 0, end: length)
                                    if keys.hit(index: i, match: most, titleLength: length) > worst { continue }
                                }
                            }
                            exactOnes[w] |= 1 << UInt64(i & 63)
                            // (The line as its own next: the scorer keeps all of it, for the
                            // next line scored to go on from what they share.)
                            guard let m = matcher.match(i, line, next: line.record) else { continue }
                            heaps[worker].offer(keys.hit(index: i, match: m,
                                                         titleLength: store.titleLength(of: i, record: line.record)))
                            pass.record(i, line.record, score: m.score, base: m.base, end: pass.end(i),
                                        recorder: &recorder)
                        }
                        w += 1
                    }
                }
                if cancellation?.isCancelled == true { return nil }
                // Every worker's best, ranked: the best `top` of all are among them.
                best = (0..<Parallel.cores).flatMap { heaps[$0].hits }.sorted()
                if best.count >= top { threshold = best[top - 1] }
            }
            return (best.prefix(top).map { Int32(truncatingIfNeeded: keys.index(of: $0)) }, matches)
        }
        let parts = UnsafeMutableBufferPointer<[K.Hit]>.allocate(capacity: sortedParts.count)
        _ = parts.initialize(from: sortedParts.map(\.hits))
        sortedParts = []
        defer { parts.deinitialize().deallocate() }
        var total = 0
        for part in parts { total += part.count }
        if !sorts {
            var out: [Int32] = []
            out.reserveCapacity(total)
            for part in parts {
                for hit in part { out.append(Int32(keys.index(of: hit))) }
            }
            if ranking.reversesInput { out.reverse() }
            return (out, matches)
        }
        // k-way merge of the sorted chunks straight into the output: no intermediate copies.
        // Many hits are merged in two halves at once, split where each run passes a pivot
        // (hits are distinct: each holds its line): the half below it, and the rest.
        let halves = total >= Tunables.Search.halvedMergeFromHits && Parallel.cores > 1 ? 2 : 1
        let splits = UnsafeMutableBufferPointer<Int>.allocate(capacity: parts.count)
        defer { splits.deallocate() }
        var firstHalf = 0
        if halves == 2 {
            let longest = parts.indices.max { parts[$0].count < parts[$1].count }!
            let pivot = parts[longest][parts[longest].count / 2]
            for r in parts.indices {
                splits[r] = parts[r].withUnsafeBufferPointer { lowerBound(pivot, in: $0) }
                firstHalf += splits[r]
            }
        }
        let merged = [Int32](unsafeUninitializedCapacity: total) { buffer, written in
            let out = buffer.baseAddress!
            Parallel.run(halves) { half in
                let tree = MergeTree(parts: parts) { r in
                    halves == 1 ? 0..<parts[r].count : half == 0 ? 0..<splits[r] : splits[r]..<parts[r].count
                }
                var k = half == 0 ? 0 : firstHalf
                while let hit = tree.pop() {
                    out[k] = Int32(truncatingIfNeeded: keys.index(of: hit))
                    k &+= 1
                }
            }
            written = total
        }
        return (merged, matches)
    }
}

/// The first position in sorted `run` whose hit is not below `pivot`.
private func lowerBound<Hit: Comparable>(_ pivot: Hit, in run: UnsafeBufferPointer<Hit>) -> Int {
    var lo = 0, hi = run.count
    while lo < hi {
        let mid = (lo + hi) / 2
        if run[mid] < pivot { lo = mid + 1 } else { hi = mid }
    }
    return lo
}

/// Merges sorted runs in one pass with a tournament of losers: each internal node keeps the
/// run that lost the match played there, so taking the smallest head and replacing it
/// replays one path from a leaf to the root (log2 of the runs' count comparisons, against
/// twice that for a binary heap, and no moving of entries). The runs stay the caller's; the
/// tree frees its own memory when it goes.
struct MergeTree<Hit: Comparable & BitwiseCopyable>: ~Copyable {
    private let parts: UnsafeMutableBufferPointer<[Hit]>
    /// Leaves, a power of two; runs past `parts.count` are empty.
    private let leaves: Int
    /// Each run's head (valid while the run is live), the index of the element after it,
    /// and where the run's part to merge ends.
    private let heads: UnsafeMutablePointer<Hit>
    private let next: UnsafeMutablePointer<Int>
    private let ends: UnsafeMutablePointer<Int>
    /// Whether a run still has a head.
    private let live: UnsafeMutablePointer<Bool>
    /// tree[0]: the winner (the run with the smallest head); tree[1..<leaves]: the loser of
    /// each match, node n's children being 2n and 2n+1 (leaves at leaves + run).
    private let tree: UnsafeMutablePointer<Int>

    /// A merge of `range(r)` of each run r (all of it by default).
    init(parts: UnsafeMutableBufferPointer<[Hit]>, range: (Int) -> Range<Int> = { _ in 0..<Int.max }) {
        self.parts = parts
        var size = 1
        while size < parts.count { size <<= 1 }
        leaves = size
        heads = .allocate(capacity: size)
        next = .allocate(capacity: size)
        ends = .allocate(capacity: size)
        live = .allocate(capacity: size)
        for run in 0..<size {
            let part = run < parts.count ? range(run).clamped(to: 0..<parts[run].count) : 0..<0
            next[run] = part.lowerBound &+ 1
            ends[run] = part.upperBound
            live[run] = !part.isEmpty
            if live[run] { (heads + run).initialize(to: parts[run][part.lowerBound]) }
        }
        tree = .allocate(capacity: size)
        tree.initialize(repeating: 0, count: size)
        // Play every match bottom-up: winners climb, losers stay.
        let winners = UnsafeMutablePointer<Int>.allocate(capacity: 2 * size)
        defer { winners.deallocate() }
        for run in 0..<size { winners[size + run] = run }
        for node in stride(from: size - 1, through: 1, by: -1) {
            let a = winners[2 * node], b = winners[2 * node + 1]
            if less(b, a) {
                winners[node] = b
                tree[node] = a
            } else {
                winners[node] = a
                tree[node] = b
            }
        }
        tree[0] = size > 1 ? winners[1] : 0
    }

    deinit {
        heads.deallocate()
        next.deallocate()
        ends.deallocate()
        live.deallocate()
        tree.deallocate()
    }

    /// Whether run a's head comes before run b's; a spent run's head comes last.
    @inline(__always)
    private func less(_ a: Int, _ b: Int) -> Bool {
        live[a] && (!live[b] || heads[a] < heads[b])
    }

    /// The smallest head of all runs, taken; nil when every run is spent.
    func pop() -> Hit? {
        let winner = tree[0]
        guard live[winner] else { return nil }
        let hit = heads[winner]
        let k = next[winner]
        if k < ends[winner] {
            heads[winner] = parts[winner][k]
            next[winner] = k &+ 1
        } else {
            live[winner] = false
        }
        // Replay the winner's path with its new head.
        var candidate = winner
        var node = (leaves + winner) >> 1
        while node > 0 {
            let loser = tree[node]
            if less(loser, candidate) {
                tree[node] = candidate
                candidate = loser
            }
            node >>= 1
        }
        tree[0] = candidate
        return hit
    }
}

/// The last few searches, for answering a repeated query at once (after a backspace) and
/// for narrowing: a query that narrows a remembered one searches only what it matched.
final class SearchMemory: @unchecked Sendable {
    struct Entry {
        var text: String
        var query: Query
        var count: Int
        var options: (MatchingOptions, RankingOptions, Int)
        var result: SearchResult
        /// The matched lines.
        var matches: LineBits
    }

    private let entries = Locked<[Entry]>([])
    private static let capacity = Tunables.Search.rememberedSearches

    private static func same(_ a: (MatchingOptions, RankingOptions, Int), _ b: (MatchingOptions, RankingOptions, Int)) -> Bool {
        a.0 == b.0 && a.1 == b.1 && a.2 == b.2
    }

    /// The result of the same text over the same lines, if remembered.
    func recall(text: String, count: Int, options: (MatchingOptions, RankingOptions, Int)) -> Entry? {
        entries.withLock { list in
            list.last { $0.text == text && $0.count == count && Self.same($0.options, options) }
        }
    }

    /// The engine's `LineBounds`, while no search holds them.
    let bounds = Locked<LineBounds?>(nil)

    /// The fewest lines that hold every match of `query`: a remembered query it narrows.
    func narrowest(for query: Query, count: Int,
                   options: (MatchingOptions, RankingOptions, Int)) -> (lines: LineBits, upTo: Int, text: String)? {
        entries.withLock { list in
            list.filter { $0.count <= count && Self.same($0.options, options) && !$0.query.isEmpty
                            && query.narrows($0.query) }
                .min { $0.matches.count < $1.matches.count }
                .map { ($0.matches, $0.count, $0.text) }
        }
    }

    /// Line indexes all entries may hold together (4 bytes each, twice per entry): at most
    /// one per input line (`leastMemoryBudget` at least), and `memoryBudget` at most, so
    /// that a million-line input keeps its last query. The last entry always stays:
    /// narrowing needs it. Proportional, the memory stays below that of the input's own
    /// records, and a small input still keeps its last few queries (bench/NOTES.md).
    ///
    /// Past the budget, an older entry of a large input (`trimsFromLines` lines) first keeps
    /// only its first `trimmedRows` lines (a search for its text answers with those at once,
    /// and ranks the rest again; its matches, as bits, still narrow), then goes.
    private static let budget = Tunables.Search.memoryBudget
    static let keptRows = Tunables.Search.trimmedRows
    static let keptFrom = Tunables.Search.trimsFromLines

    func remember(_ entry: Entry) {
        entries.withLock { list in
            list.removeAll { $0.text == entry.text }
            list.append(entry)
            while list.count > Self.capacity { list.removeFirst() }
            var held = list.reduce(0) { $0 + $1.matches.held + $1.result.lines.count }
            let budget = min(Self.budget, max(Tunables.Search.leastMemoryBudget, entry.count))
            // (Only on large inputs: on small ones, searching again takes a few milliseconds.)
            var k = entry.count >= Self.keptFrom ? 0 : list.count
            while held > budget && k < list.count - 1 {
                let result = list[k].result
                if result.lines.count > Self.keptRows && result.groups.allSatisfy({ $0.section == 0 }) {
                    held -= result.lines.count - Self.keptRows
                    list[k].result.lines = Array(result.lines.prefix(Self.keptRows))
                    list[k].result.groups = result.groups.isEmpty ? [] : [SectionGroup(section: 0, range: 0..<Self.keptRows)]
                }
                k += 1
            }
            while held > budget && list.count > 1 {
                held -= list[0].matches.held + list[0].result.lines.count
                list.removeFirst()
            }
        }
    }
}

/// Lines of a store as bits (line i: bit i % 64 of word i / 64): the lines a search matched,
/// which a search that narrows it looks at. An eighth of a byte a line, where a list of
/// line numbers took four bytes a match.
final class LineBits: @unchecked Sendable {
    let words: UnsafeMutablePointer<UInt64>
    let wordCount: Int
    /// How many lines are in (set once the search that fills it is done).
    var count = 0

    init(lines: Int) {
        wordCount = (lines + 63) >> 6
        words = .allocate(capacity: max(wordCount, 1))
        words.initialize(repeating: 0, count: max(wordCount, 1))
    }

    deinit { words.deallocate() }

    /// Memory held, in four-byte line numbers (the search memory's unit).
    var held: Int { wordCount * 2 }
}

/// The lines a chunk looks at, in order: those of `previous` below `upTo` (all of them
/// without `previous`), then every line from `upTo`, within `from..<to`.
struct CandidateCursor {
    /// The earlier search's bits (not the object: no reference counting in the loop).
    private let previous: UnsafeMutablePointer<UInt64>?
    private let previousWords: Int
    private let upTo: Int
    private let from: Int
    private let to: Int
    /// The word being read, its bits not yet taken, and where the next word starts.
    private var word: UInt64 = 0
    private var wordStart: Int

    init(previous lines: LineBits?, upTo: Int, from: Int, to: Int) {
        previous = lines?.words
        previousWords = lines?.wordCount ?? 0
        self.upTo = upTo
        self.from = from
        self.to = to
        wordStart = from & ~63
        word = bits(at: wordStart)
    }

    /// How many lines there are to look at, from the word being read on.
    var remaining: Int {
        var n = word.nonzeroBitCount
        var start = wordStart + 64
        while start < to {
            n += bits(at: start).nonzeroBitCount
            start += 64
        }
        return n
    }

    /// The bits of the 64 lines from `start` (a multiple of 64) that are looked at.
    @inline(__always)
    func bits(at start: Int) -> UInt64 {
        var word: UInt64 = ~0
        if let previous, start < upTo {
            word = start >> 6 < previousWords ? previous[start >> 6] : 0
            if upTo < start + 64 { word |= ~0 << UInt64(upTo - start) }
        }
        if start < from { word &= from >= start + 64 ? 0 : ~0 << UInt64(from - start) }
        if to < start + 64 { word &= to <= start ? 0 : (1 << UInt64(to - start)) - 1 }
        return word
    }

    /// The next line to look at, or nil after the last.
    @inline(__always)
    mutating func next() -> Int? {
        while word == 0 {
            wordStart += 64
            if wordStart >= to { return nil }
            word = bits(at: wordStart)
        }
        let i = wordStart + word.trailingZeroBitCount
        word &= word - 1
        return i
    }
}

/// The best hits seen, up to a capacity: a heap with the worst of them on top. Owns its
/// heap, freed when it goes.
struct TopHits<Hit: Comparable & BitwiseCopyable>: ~Copyable {
    private let heap: UnsafeMutablePointer<Hit>
    private let capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        heap = .allocate(capacity: self.capacity)
    }

    deinit { heap.deallocate() }

    /// The worst hit kept, once `capacity` are: any hit after it ranks below them all.
    var worst: Hit? { count == capacity ? heap[0] : nil }

    /// The hits kept, in no order.
    var hits: [Hit] { Array(UnsafeBufferPointer(start: heap, count: count)) }

    /// Keeps `hit` if it is among the best so far.
    @inline(__always)
    mutating func offer(_ hit: Hit) {
        if count < capacity {
            // Up from the new leaf.
            var k = count
            count &+= 1
            while k > 0 {
                let parent = (k &- 1) >> 1
                if !(heap[parent] < hit) { break }
                heap[k] = heap[parent]
                k = parent
            }
            heap[k] = hit
            return
        }
        guard hit < heap[0] else { return }
        // Replaces the worst, then down.
        var k = 0
        while true {
            var child = 2 &* k &+ 1
            if child >= count { break }
            if child &+ 1 < count && heap[child] < heap[child &+ 1] { child &+= 1 }
            if !(hit < heap[child]) { break }
            heap[k] = heap[child]
            k = child
        }
        heap[k] = hit
    }
}
