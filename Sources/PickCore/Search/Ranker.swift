import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Ranking a store's lines for one query, on every core, in three steps:
//
// 1. Plan (`ChunkPlan`): the lines to look at are cut into chunks, which workers (one per
//    core) claim in order.
// 2. Scan (`Ranker.scan`): a worker matches each line of its chunk, keys each match as a
//    hit (`HitKeys`), and sorts its chunk's hits.
// 3. Merge (`Ranker.merge`): the sorted chunks are merged into one ranking.
//
// A first screen on an input that keeps bounds (`LineBounds`, with `top`) takes another
// way from step 2 on: a worker keeps only its best `top` hits, and a line the earlier term
// matched is bounded rather than scored, a word of 64 lines at a time (`BoundsWords`; the
// first key of a term has no earlier values: a term of one character notes its bounds
// afresh, a longer one scores every line, recording them). Step 3 is then
// `Ranker.rankFirstRows`: the lines with the highest bounds are scored, and lower ones,
// until the best `top` found rank above every bound left.

/// What a ranking gives: the lines in rank order (every match, or with `top` the best
/// `top`) and, for a ranking with an end, every line that matched, as bits.
struct RankedLines {
    var ranked: [Int32]
    var matches: LineBits?
}

/// One ranking of the lines of `scope` for `query` (the steps above), the hits keyed by `K`.
struct Ranker<K: HitKeys> {
    let store: LineStore
    let query: Query
    let keys: K
    /// Whether hits are ranked by their keys (false: input order, reversed with `reversesInput`).
    let sorts: Bool
    let reversesInput: Bool
    let scope: RankScope
    /// The bounds this search reads and records (`LineBounds`), if it uses them.
    let pass: BoundsPass?
    /// With `pass` and an end: rank the best `top` alone.
    let top: Int?
    let cancellation: Cancellation?

    /// The ranking; nil when cancelled.
    func run() -> RankedLines? {
        let plan = ChunkPlan(scope)
        let matches = scope.end.map { LineBits(lines: $0) }
        let workers = min(Parallel.cores, plan.count ?? Parallel.cores)
        var tally: FirstRowsTally<K.Hit>? = nil
        if let top, pass != nil, let end = scope.end { tally = FirstRowsTally(top: top, lines: end) }
        guard let chunks = scan(plan, workers: workers, matches: matches, tally: tally) else { return nil }
        guard !chunks.isEmpty else { return RankedLines(ranked: [], matches: matches) }
        matches?.count = chunks.reduce(0) { $0 + $1.matched }
        if let top, let pass, let matches, let tally {
            guard let best = rankFirstRows(top, pass: pass, matches: matches, tally: tally, workers: workers)
            else { return nil }
            return RankedLines(ranked: best, matches: matches)
        }
        return RankedLines(ranked: merge(chunks), matches: matches)
    }

    // MARK: Step 2, scan

    /// Every worker claims chunks of `plan` in order and scans them; the chunks' hits come
    /// back in chunk order (nil when cancelled). Matched lines are noted in `matches`.
    private func scan(_ plan: ChunkPlan, workers: Int, matches: LineBits?,
                      tally: FirstRowsTally<K.Hit>?) -> [ChunkHits<K.Hit>]? {
        let nextChunk = Atomic<Int>(0)
        let finished = Locked<[ChunkHits<K.Hit>]>([])
        let streams = scope.end == nil
        Parallel.run(workers) { worker in
            // While input is still arriving, the reading thread is the one everything waits
            // for: one worker fewer than the cores leaves it a core of its own, and the last
            // worker joins when input ends.
            if streams && workers > 1 && worker == workers - 1 {
                while !store.isFinished { usleep(500) }
            }
            var tools = ChunkTools<K.Hit>(store: store, query: query, sortsChunks: sorts && tally == nil,
                                          placesBegin: keys.readsMatchBegin)
            while cancellation?.isCancelled != true {
                let chunk = nextChunk.add(1, ordering: .relaxed).oldValue
                guard let lines = plan.lines(ofChunk: chunk, in: store) else { break }
                var found = scanChunk(lines, worker: worker, matches: matches?.words, tally: tally, tools: &tools)
                found.chunk = chunk
                finished.withLock { $0.append(found) }
            }
        }
        if cancellation?.isCancelled == true { return nil }
        return finished.withLock { $0 }.sorted { $0.chunk < $1.chunk }
    }

    /// Matches the lines of the scope in `lines` and keys their hits, sorted when the
    /// ranking sorts. With `tally`, a line the earlier term matched is bounded and not
    /// scored, and only the worker's best hits are kept (in the tally, not the chunk's hits).
    @inline(__always)
    private func scanChunk(_ lines: Range<Int>, worker: Int, matches: UnsafeMutablePointer<UInt64>?,
                           tally: FirstRowsTally<K.Hit>?, tools: inout ChunkTools<K.Hit>) -> ChunkHits<K.Hit> {
        // (The tally's memory, not the object: no reference counting in the loop.)
        let heaps = tally?.heaps, histogram = tally?.histogram(of: worker), scored = tally?.scored.words
        // Bounding lines that hold values goes a word at a time, before the look-ahead.
        var words: BoundsWords? = nil
        if let pass, let histogram, let matches, let end = scope.end {
            words = BoundsWords(pass, store: store, histogram: histogram, levels: FirstRowsTally<K.Hit>.levels,
                                matches: matches, lines: end)
        }
        var cursor = CandidateCursor(previous: scope.previous, upTo: scope.upTo, from: lines.lowerBound,
                                     to: lines.upperBound, characters: tools.matcher.characterFilter,
                                     order: tools.matcher.orderFilter, bounds: words)
        // Room for every line looked at: growing by doubling would copy.
        var hits: [K.Hit] = []
        if tally == nil { hits.reserveCapacity(cursor.remaining) }
        var matched = 0
        let matcher = tools.matcher
        while tools.ring.fill(from: &cursor, matcher) {
            let i = tools.ring.index, current = tools.ring.line
            tools.ring.advance()
            if current.ruledOut { continue }
            let record = current.record
            // A line the earlier term matched: checked for the added characters from where
            // its match ended; with a tally, bounded and not scored.
            var matchEnd: Int? = nil
            if let pass, pass.holds(i, record) {
                if pass.extends {
                    matchEnd = pass.extendedEnd(i, record)
                    guard let end = matchEnd else { continue }
                    if let histogram {
                        let bound = pass.bound(i, record)
                        pass.keep(i, end: end, bound: bound)
                        histogram[Int(min(bound.score, Int32(FirstRowsTally<K.Hit>.levels - 1)))] &+= 1
                        matched &+= 1
                        if let matches { LineBits.insert(i, into: matches) }
                        continue
                    }
                } else {
                    matchEnd = pass.end(i, record)
                }
            }
            guard let m = matcher.match(i, current, next: tools.ring.nextRecord) else { continue }
            let hit = keys.hit(index: i, match: m, shape: store.titleShape(of: i, record: record))
            if let heaps, let scored {
                heaps[worker].offer(hit)
                LineBits.insert(i, into: scored)
            } else {
                hits.append(hit)
            }
            matched &+= 1
            if let matches { LineBits.insert(i, into: matches) }
            pass?.record(i, record, score: m.score, base: m.base, end: matchEnd, recorder: &tools.recorder)
        }
        matched &+= cursor.bounded
        if sorts && tally == nil { HitSorter.sort(&hits, keys: keys, scratch: tools.sortScratch) }
        return ChunkHits(chunk: 0, hits: hits, matched: matched)
    }

    // MARK: Step 3, merge

    /// The chunks' hits as one ranking: the sorted chunks merged (many hits in two halves
    /// at once), or, for a ranking that does not sort, one after the other.
    private func merge(_ chunks: consuming [ChunkHits<K.Hit>]) -> [Int32] {
        let parts = UnsafeMutableBufferPointer<[K.Hit]>.allocate(capacity: chunks.count)
        _ = parts.initialize(from: chunks.map(\.hits))
        chunks = []
        defer { parts.deinitialize().deallocate() }
        var total = 0
        for part in parts { total += part.count }
        if !sorts {
            var out: [Int32] = []
            out.reserveCapacity(total)
            for part in parts {
                for hit in part { out.append(Int32(keys.index(of: hit))) }
            }
            if reversesInput { out.reverse() }
            return out
        }
        // A k-way merge of the sorted chunks straight into the output: no intermediate copies.
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
        let keys = self.keys
        return [Int32](unsafeUninitializedCapacity: total) { buffer, written in
            let out = buffer.baseAddress!
            Parallel.run(halves) { half in
                let tree = MergeTree(parts: parts) { r in
                    halves == 1 ? 0..<parts[r].count : half == 0 ? 0..<splits[r] : splits[r]..<parts[r].count
                }
                tree.drain(into: out, from: half == 0 ? 0 : firstHalf) { keys.index(of: $0) }
            }
            written = total
        }
    }

    // MARK: Step 3 of a first screen

    /// The best `top` lines, ranked (nil when cancelled). The scan scored the lines that
    /// hold no bounds and bounded the others: first the lines bounded at the level where
    /// the best `top` bounds begin, or above, are scored; then those below it whose bound
    /// still ranks above the worst of the best `top` found (each worker's own, and all
    /// workers' after the first round).
    private func rankFirstRows(_ top: Int, pass: BoundsPass, matches: LineBits, tally: FirstRowsTally<K.Hit>,
                               workers: Int) -> [Int32]? {
        let level = tally.level(holding: top)
        let wordCount = matches.wordCount
        var best: [K.Hit] = []
        var threshold: K.Hit? = nil
        for k in 0..<2 {
            let round = BoundedRound(level: level, threshold: threshold, first: k == 0)
            Parallel.run(workers) { worker in
                let words = wordCount * worker / workers..<wordCount * (worker + 1) / workers
                scoreBoundedLines(in: words, round: round, worker: worker, pass: pass, matches: matches, tally: tally)
            }
            if cancellation?.isCancelled == true { return nil }
            // Every worker's best, ranked: the best `top` of all are among them.
            best = tally.best()
            if best.count >= top { threshold = best[top - 1] }
        }
        return best.prefix(top).map { Int32(truncatingIfNeeded: keys.index(of: $0)) }
    }

    /// Which bounded lines a round of `rankFirstRows` scores: in the first, those bounded at
    /// `level` or above; in the second, those whose bound ranks above `threshold` (the worst
    /// of the best `top` of all workers) and the worker's own worst kept.
    private struct BoundedRound {
        var level: Int
        var threshold: K.Hit?
        var first: Bool
    }

    /// Scores the lines of words `words` of `matches` that a round picks and were not
    /// scored yet, offering them to the worker's best and recording their bounds.
    private func scoreBoundedLines(in words: Range<Int>, round: BoundedRound, worker: Int, pass: BoundsPass,
                                   matches: LineBits, tally: FirstRowsTally<K.Hit>) {
        let matcher = LineMatcher(store: store, query: query, matching: true, placesBegin: keys.readsMatchBegin)
        var recorder = BoundsRecorder()
        let matched = matches.words, scored = tally.scored.words, heaps = tally.heaps
        // The first round's lines: bounded at its level or above (the top level holds every
        // higher bound); the second's: bounded at the threshold's score or above.
        let floor = round.first ? round.level : round.threshold.map { Int(keys.score(of: $0)) } ?? 0
        // The bar a line must beat: the worst of the best `top` of all (the second round),
        // or the worker's own worst kept once it keeps `top`, whichever ranks higher. A line
        // bounded below the bar's score cannot beat it, and, ranked by score then length,
        // nor can one bounded at that score without white space and longer than the bar's
        // line: both are passed over a word at a time in C, where a mapped file's records
        // give the lengths (paths 10M, `us`: 10M lines bounded at the threshold; `usrlibp`:
        // 5M bounded between the threshold and the bar the first hits raise).
        let comparesLengths = keys.shorterFirst && store.lengthsFrom == nil && store.compactBase != nil
        // (The worker's worst kept, or the worst of the best of all, whichever ranks higher.)
        func bar() -> K.Hit? {
            let worst = heaps[worker].worst
            guard let all = round.threshold else { return worst }
            return worst.map { min($0, all) } ?? all
        }
        var barLine = -1, barScore = 0, barLength = -1
        for w in words {
            if let worst = bar(), keys.index(of: worst) != barLine {
                barLine = keys.index(of: worst)
                barScore = Int(keys.score(of: worst))
                barLength = comparesLengths ? store.titleShape(of: barLine, record: store.record(barLine)).length : -1
            }
            // (Lines scored in the first round are among `scored`.)
            var bits = pass.bounded(atLeast: max(floor, barScore), word: w, matched[w] & ~scored[w])
            if barLength >= 0 && bits != 0 && (w &+ 1) << 6 <= store.compact.count {
                bits = store.withCompactWord(w << 6) { records, first in
                    pass.worthScoring(bits, word: w, records: records, first: first, least: barScore,
                                      longest: barLength)
                }
            }
            while bits != 0 {
                let i = w << 6 | bits.trailingZeroBitCount
                bits &= bits - 1
                let bound = pass.score(i)
                let line = matcher.lookAhead(i)
                // A line whose best key (its bound, its tiebreak from the record) ranks below
                // the worst this worker keeps, or the worst of the best of all, cannot be among
                // them: at paths 10M `u` bounds 255K lines at its top level, and the shortest win.
                if let worst = bar() {
                    let shape = store.titleShape(of: i, record: line.record)
                    if keys.best(index: i, score: Int32(bound), shape: shape) > worst { continue }
                }
                LineBits.insert(i, into: scored)
                // (The line as its own next: the scorer keeps all of it, for the next line
                // scored to go on from what they share.)
                guard let m = matcher.match(i, line, next: line.record) else { continue }
                heaps[worker].offer(keys.hit(index: i, match: m, shape: store.titleShape(of: i, record: line.record)))
                pass.record(i, line.record, score: m.score, base: m.base, end: pass.end(i, line.record),
                            recorder: &recorder)
            }
        }
    }
}

/// What a worker found in one chunk: its hits (sorted when the ranking sorts) and how many
/// of its lines matched.
struct ChunkHits<Hit> {
    var chunk: Int
    var hits: [Hit]
    var matched: Int
}

/// What a worker scans its chunks with, made once a search: its matcher, its memory of the
/// line it recorded bounds for last, its look-ahead ring, and room to sort a chunk's hits in
/// (a worker reuses it for every chunk, so a keystroke does not make the kernel zero new
/// pages for copies).
struct ChunkTools<Hit: BitwiseCopyable>: ~Copyable {
    let matcher: LineMatcher
    var recorder = BoundsRecorder()
    var ring = LookAheadRing()
    let sortScratch: UnsafeMutableBufferPointer<Hit>?

    init(store: LineStore, query: Query, sortsChunks: Bool, placesBegin: Bool) {
        matcher = LineMatcher(store: store, query: query, placesBegin: placesBegin)
        sortScratch = sortsChunks ? .allocate(capacity: Tunables.Search.chunkLines) : nil
    }

    deinit { sortScratch?.deallocate() }
}

/// The lines of a chunk, looked up ahead of their turn (`LineMatcher.lookAhead`: the
/// record, the characters, a prefetch of the bytes) into a ring the scan takes them from.
/// Lines left after narrowing lie apart in memory: without this, each would wait for its
/// bytes in turn. It also tells the matcher which line it will be asked for next.
struct LookAheadRing: ~Copyable {
    /// Slots, a power of two, and how many lines are looked up ahead of the current one.
    private static var slots: Int { 16 }
    private static var ahead: Int { 10 }
    private let lines: UnsafeMutablePointer<LineMatcher.Upcoming>
    private let indexes: UnsafeMutablePointer<Int>
    /// The current line's slot, and the slot the next line looked up goes to (both counting
    /// on past the ring's end).
    private var head = 0
    private var tail = 0

    init() {
        lines = .allocate(capacity: Self.slots)
        indexes = .allocate(capacity: Self.slots)
    }

    deinit {
        lines.deallocate()
        indexes.deallocate()
    }

    /// Looks up lines from `cursor` until `ahead` are waiting; false when none is left.
    @inline(__always)
    mutating func fill(from cursor: inout CandidateCursor, _ matcher: LineMatcher) -> Bool {
        while tail &- head < Self.ahead, let i = cursor.next() {
            indexes[tail & (Self.slots &- 1)] = i
            lines[tail & (Self.slots &- 1)] = matcher.lookAhead(i, heldInOrder: cursor.heldInOrder)
            tail &+= 1
        }
        return head != tail
    }

    /// The current line's index and what its look-up found.
    var index: Int { @inline(__always) get { indexes[head & (Self.slots &- 1)] } }
    var line: LineMatcher.Upcoming { @inline(__always) get { lines[head & (Self.slots &- 1)] } }

    /// Moves on to the next line looked up.
    @inline(__always)
    mutating func advance() { head &+= 1 }

    /// The record of the first line waiting that is not ruled out (once the current line
    /// is taken with `advance`).
    var nextRecord: LineRecord? {
        @inline(__always) get {
            var q = head
            while q != tail {
                let upcoming = lines[q & (Self.slots &- 1)]
                if !upcoming.ruledOut { return upcoming.record }
                q &+= 1
            }
            return nil
        }
    }
}

/// A first screen's tally while its chunks are scanned (`Ranker` with `top`): each worker's
/// best hits, its count of the lines it bounded at each bound, and which lines were scored
/// (the others that matched were only bounded).
final class FirstRowsTally<Hit: Comparable & BitwiseCopyable> {
    /// Bounds are counted up to `levels - 1`; higher ones count there.
    static var levels: Int { 1 << 12 }
    let heaps: UnsafeMutablePointer<TopHits<Hit>>
    let scored: LineBits
    private let histograms: UnsafeMutablePointer<Int>
    private let workers = Parallel.cores

    init(top: Int, lines: Int) {
        heaps = .allocate(capacity: workers)
        for w in 0..<workers { (heaps + w).initialize(to: TopHits(capacity: top)) }
        scored = LineBits(lines: lines)
        histograms = .allocate(capacity: Self.levels * workers)
        histograms.initialize(repeating: 0, count: Self.levels * workers)
    }

    deinit {
        heaps.deinitialize(count: workers)
        heaps.deallocate()
        histograms.deallocate()
    }

    /// Worker `worker`'s count of the lines it bounded, by bound.
    func histogram(of worker: Int) -> UnsafeMutablePointer<Int> { histograms + Self.levels * worker }

    /// The highest level at or above which `top` bounded lines are (0 when fewer are): the
    /// first round of `rankFirstRows` scores them.
    func level(holding top: Int) -> Int {
        let levels = Self.levels
        for w in 1..<workers {
            for level in 0..<levels { histograms[level] += histograms[levels * w + level] }
        }
        var level = levels - 1
        var above = 0
        while level > 0 && above + histograms[level] < top {
            above += histograms[level]
            level -= 1
        }
        return level
    }

    /// Every worker's best hits, ranked.
    func best() -> [Hit] { (0..<workers).flatMap { heaps[$0].hits }.sorted() }
}
