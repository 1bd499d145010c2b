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
    /// The query's extended syntax (false: `+x`, the whole query one term, as typed).
    public var extended = true
    /// `--scheme`: how `'word'` terms score what stands around the word (`Scheme`).
    public var scheme: Scheme = .default

    public init(fuzzy: Bool = true, caseMode: CaseMode = .smart, normalize: Bool = true, extended: Bool = true,
                scheme: Scheme = .default) {
        self.fuzzy = fuzzy
        self.caseMode = caseMode
        self.normalize = normalize
        self.extended = extended
        self.scheme = scheme
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

    /// How many lines at the end of `lines` are close matches (CloseMatches.swift), not
    /// matches: the picker's list adds them, in a group of their own, when matches are few.
    public var closeMatches = 0

    /// Raw mode (`rawList`): `lines` lists every line, and these are the ones that match;
    /// nil when every line listed matches.
    public var matched: Set<Int32>? = nil
    /// Raw mode: the line the query ranks first (what `best` goes to).
    public var best: Int32? = nil

    /// Whether `lines` holds every match (see `SearchEngine.search(_:firstRows:cancellation:)`).
    public var isComplete: Bool { matched != nil || lines.count - closeMatches == matchCount }
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
    /// `--tail N`: only the last N lines read (after the header lines) are candidates. The
    /// store keeps the others; fzf lets them go.
    public var keepsLast: Int?

    public init(store: LineStore, matching: MatchingOptions = MatchingOptions(),
                ranking: RankingOptions = RankingOptions(), skippedLines: Int = 0, keepsLast: Int? = nil) {
        self.store = store
        self.matching = matching
        self.ranking = ranking
        self.skippedLines = skippedLines
        self.keepsLast = keepsLast
    }

    /// The first candidate line while the store holds `total` lines: after the header
    /// lines, and with `--tail` among the last lines.
    public func firstCandidate(_ total: Int) -> Int {
        let first = min(skippedLines, total)
        guard let keepsLast else { return first }
        return max(first, total - keepsLast)
    }

    /// What a search's memory notes of the lines skipped (SearchMemory.Options): with
    /// `--tail`, where the window starts, so that a search from before it moved is never
    /// narrowed from.
    private func skippedForMemory(_ total: Int) -> Int {
        keepsLast == nil ? skippedLines : firstCandidate(total)
    }

    /// Parses `text` with this engine's matching options.
    public func parse(_ text: String) -> Query {
        Query(text, fuzzy: matching.fuzzy, caseMode: matching.caseMode, normalize: matching.normalize,
              extended: matching.extended, scheme: matching.scheme)
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

    /// Bounds of at least this many lines note their rests while idle (`LineBounds.rests`,
    /// `Tunables.Search.restsFromLines`). Tests lower it.
    public var restsFromLines = Tunables.Search.restsFromLines

    /// Searches every line the store will hold: matches the lines already read while
    /// another thread reads the rest, and returns once that thread has called `finish()`.
    public func searchAllInput(_ text: String) -> SearchResult {
        search(text, firstRows: nil, waitsForInput: true, cancellation: nil)!
    }

    private func search(_ text: String, firstRows: Int?, waitsForInput: Bool,
                        cancellation: Cancellation?) -> SearchResult? {
        let query = parse(text)
        var total = store.count
        // (With --tail, the candidates are known once the input is: the last lines.)
        if waitsForInput && (query.isEmpty || keepsLast != nil) {
            while !store.isFinished { usleep(1000) }
            total = store.count
        }
        let waitsForInput = waitsForInput && keepsLast == nil
        let options = SearchMemory.Options(matching: matching, ranking: ranking, skippedLines: skippedForMemory(total),
                                           memoryGeneration: memoryGeneration.load(ordering: .relaxed))
        // `exclude` (--bind): lines taken out of the list stay out, whatever the query. The
        // memory of searches holds whole results: not used while lines are taken out.
        let excludedLines = excluded.withLock { $0 }
        if !waitsForInput, excludedLines.isEmpty, let cached = memory.recall(text: text, count: total, options: options),
           cached.result.isComplete || cached.result.lines.count >= firstRows ?? .max {
            return cached.result
        }
        let found: RankedLines
        if query.isEmpty {
            // (What the rests hold is let go first: the list of every line takes as much.)
            memory.bounds.withLock { $0.held?.dropRests() }
            found = RankedLines(ranked: inputOrder(upTo: total), matches: nil)
        } else if waitsForInput {
            let scope = RankScope(first: skippedLines, end: nil, previous: nil, upTo: skippedLines)
            found = rank(query, scope, cancellation: nil)!
            total = store.count
        } else {
            guard let narrowed = rank(query, text: text, total: total, options: options, firstRows: firstRows,
                                      cancellation: cancellation) else { return nil }
            found = narrowed
        }
        var ranked = found.ranked
        let before = ranked.count
        if !excludedLines.isEmpty { ranked.removeAll { excludedLines.contains($0) } }
        let removed = before - ranked.count
        // Memory (`--remember`): remembered lines move up among comparably good matches.
        // A list ranked by input order first (`--tiebreak=index`, `--scheme=history`: shell
        // history, newest first) opens in that order; memory acts once something is typed.
        let keepsOrder = query.isEmpty && ranking.tiebreaks.first == .index
        if !keepsOrder, let remembered = memoryRanking.withLock({ $0 }) {
            ranked = remembered.rerank(ranked, query: query, text: text, store: store, first: firstCandidate(total),
                                       total: total, complete: found.matches.map { $0.count == ranked.count } ?? true,
                                       sorts: ranking.sorts)
        }
        let (lines, groups) = SectionGrouping.group(ranked, sectionCount: store.sectionCount, sections: store,
                                                    prefetches: !query.isEmpty)
        let result = SearchResult(query: text, lines: lines, groups: groups, searched: total - firstCandidate(total),
                                  matchCount: (found.matches?.count ?? lines.count + removed) - removed)
        if let matches = found.matches, excludedLines.isEmpty {
            memory.remember(SearchMemory.Entry(text: text, query: query, count: total, options: options,
                                               result: result, matches: matches))
        }
        return result
    }

    /// Raw mode (fzf's --raw): the complete `result` of a query as a list of every
    /// candidate line it searched, in input order (reversed with `--tac`, lines taken out by
    /// `exclude` left out), its matches in `matched` and its first in `best`. The result of
    /// an empty query is that list already.
    public func rawList(_ result: SearchResult) -> SearchResult {
        guard !parse(result.query).isEmpty else { return result }
        let total = keepsLast == nil ? min(store.count, result.searched + skippedLines) : store.count
        var all = inputOrder(upTo: total)
        let excludedLines = excluded.withLock { $0 }
        if !excludedLines.isEmpty { all.removeAll { excludedLines.contains($0) } }
        var raw = SearchResult(query: result.query, lines: all, groups: [SectionGroup(section: 0, range: 0..<all.count)],
                               searched: result.searched, matchCount: result.matchCount)
        raw.matched = Set(result.lines)
        raw.best = result.lines.first
        return raw
    }

    /// Every candidate line below `total`, in input order (reversed with `--tac`): what an
    /// empty query shows.
    private func inputOrder(upTo total: Int) -> [Int32] {
        let first = firstCandidate(total)
        let reverses = ranking.reversesInput
        return [Int32](unsafeUninitializedCapacity: total - first) { all, n in
            for k in 0..<all.count { all[k] = Int32(truncatingIfNeeded: reverses ? total &- 1 &- k : first &+ k) }
            n = all.count
        }
    }

    /// Ranks the candidate lines below `total` for `query`, with what earlier searches left:
    /// a query that narrows an earlier one looks only at what that one matched (and at lines
    /// that arrived since), and a first screen goes on from the bounds that search recorded.
    /// Nil when cancelled.
    private func rank(_ query: Query, text: String, total: Int, options: SearchMemory.Options, firstRows: Int?,
                      cancellation: Cancellation?) -> RankedLines? {
        let previous = memory.narrowest(for: query, count: total, options: options,
                                        preferring: memory.bounds.withLock { $0.held?.text })
        let bounds = takeBounds(for: query, previous: previous, total: total, whole: firstRows == nil)
        // A first screen ranks its best rows alone wherever the input keeps bounds: going on
        // from the bounds of the query it narrows, or scoring every line to record them.
        let top = bounds.pass != nil ? firstRows.map { max($0, 1) } : nil
        let scope = RankScope(first: firstCandidate(total), end: total, previous: previous?.lines,
                              upTo: previous?.upTo ?? firstCandidate(total))
        let found = rank(query, scope, cancellation: cancellation, bounds: bounds.pass, top: top)
        // (A first screen bounds the lines of an earlier term, or a first key's, unscored.)
        let bounded = top != nil && bounds.pass.map { $0.extends || $0.recordsOneCharacter } == true
        giveBack(bounds, searched: found == nil ? nil : (text, query, total, !bounded))
        return found
    }

    /// The first `limit` lines (at most) that the search of `text` over the store as it is
    /// now matched, in input order, from what the engine remembers of it; nil when it
    /// remembers no such search. Reads the search's bits, not its ranking: a first screen
    /// whose rest was never ranked has them too.
    public func matchedLines(_ text: String, limit: Int) -> [Int32]? {
        let count = store.count
        let options = SearchMemory.Options(matching: matching, ranking: ranking, skippedLines: skippedForMemory(count),
                                           memoryGeneration: memoryGeneration.load(ordering: .relaxed))
        guard excludedLines.isEmpty, let entry = memory.recall(text: text, count: count, options: options)
        else { return nil }
        let bits = entry.matches
        var lines: [Int32] = []
        lines.reserveCapacity(min(limit, bits.count))
        var w = 0
        while w < bits.wordCount && lines.count < limit {
            var word = bits.words[w]
            while word != 0 && lines.count < limit {
                lines.append(Int32(truncatingIfNeeded: w << 6 | word.trailingZeroBitCount))
                word &= word &- 1
            }
            w += 1
        }
        return lines
    }

    /// Makes the values the engine's bounds hold exact for every line their search matched
    /// (each line scored, as a whole ranking records them, but nothing kept or sorted),
    /// until `cancellation` says stop; what was made exact stays so. The picker runs it
    /// while idle after a first screen whose whole ranking waits
    /// (`PickSession.defersWholeRanking`): a key that narrows bounds of bounds scores more
    /// lines, each added character raising a bound more than a real score rises
    /// (bench/NOTES.md). A no-op when the values are exact, or no search of theirs is
    /// remembered.
    public func refineBounds(cancellation: Cancellation? = nil) {
        guard let bounds = memory.bounds.withLock({ held -> LineBounds? in
            defer { held.held = nil }
            return held.held
        }) else { return }
        defer { memory.bounds.withLock { if $0.held == nil { $0.held = bounds } } }
        let options = SearchMemory.Options(matching: matching, ranking: ranking,
                                           skippedLines: skippedForMemory(bounds.count),
                                           memoryGeneration: memoryGeneration.load(ordering: .relaxed))
        // (On a large input the next key's rests are noted too, for a term that folds case,
        // where the C step reads them: a mapped file's lines. `LineBounds.rests`.)
        let notesRests = bounds.capacity >= restsFromLines && bounds.term?.caseSensitive == false
            && store.compactBase != nil
        guard let term = bounds.term,
              bounds.exactBelow < bounds.count || notesRests && bounds.restsBelow < bounds.count,
              let entry = memory.recall(text: bounds.text, count: bounds.count, options: options) else { return }
        if notesRests { bounds.makeRests() }
        let pass = BoundsPass(bounds, term: term, kept: term.text.count, heldBelow: bounds.count)
        let words = entry.matches.words, store = self.store, query = entry.query
        let wordCount = min(entry.matches.wordCount, (bounds.count + 63) >> 6)
        let exactBelow = bounds.exactBelow
        let firstWord = min(exactBelow, notesRests ? bounds.restsBelow : .max) >> 6
        let blockWords = Tunables.Search.refinedWords
        let blocks = (wordCount - firstWord + blockWords - 1) / blockWords
        guard blocks > 0 else { return }
        let next = Atomic<Int>(0)
        let done = UnsafeMutablePointer<Bool>.allocate(capacity: blocks)
        done.initialize(repeating: false, count: blocks)
        defer { done.deallocate() }
        Parallel.run(min(Parallel.cores, blocks)) { _ in
            let matcher = LineMatcher(store: store, query: query, matching: true)
            var recorder = BoundsRecorder()
            while cancellation?.isCancelled != true {
                let block = next.add(1, ordering: .relaxed).oldValue
                guard block < blocks else { break }
                let from = firstWord + block * blockWords
                for w in from..<min(wordCount, from + blockWords) {
                    var bits = words[w]
                    while bits != 0 {
                        let i = w << 6 | bits.trailingZeroBitCount
                        bits &= bits &- 1
                        let line = matcher.lookAhead(i)
                        guard pass.holds(i, line.record) else { continue }
                        let end = pass.end(i, line.record)
                        if i >= exactBelow {
                            guard let m = matcher.match(i, line, next: line.record) else { continue }
                            pass.record(i, line.record, score: m.score, base: m.base, end: end, recorder: &recorder)
                        }
                        if notesRests { pass.noteRest(i, line.record, end: end) }
                    }
                }
                done[block] = true
            }
        }
        var k = 0
        while k < blocks && done[k] { k += 1 }
        let reached = k == blocks ? bounds.count : (firstWord + k * blockWords) << 6
        bounds.exactBelow = max(exactBelow, reached)
        if notesRests { bounds.restsBelow = reached }
    }

    /// Ranks the lines of `scope` (see `Ranker`), keyed as the ranking options need.
    private func rank(_ query: Query, _ scope: RankScope, cancellation: Cancellation?, bounds: BoundsPass? = nil,
                      top: Int? = nil) -> RankedLines? {
        let sorts = ranking.sorts && !query.hasOnlyNegations
        if let keys = CompactKeyMaker(ranking) {
            return Ranker(store: store, query: query, keys: keys, sorts: sorts, reversesInput: ranking.reversesInput,
                          scope: scope, pass: bounds, top: top, cancellation: cancellation).run()
        }
        return Ranker(store: store, query: query, keys: RankKeyMaker(ranking), sorts: sorts,
                      reversesInput: ranking.reversesInput, scope: scope, pass: bounds, top: top,
                      cancellation: cancellation).run()
    }

    let memory = SearchMemory()

    /// Lines `exclude`/`exclude-multi` took out of the list (`--bind`).
    let excluded = Locked<Set<Int32>>([])
    public var excludedLines: Set<Int32> { excluded.withLock { $0 } }

    /// Takes `lines` out of every list from now on (fzf's `exclude`).
    public func exclude<S: Sequence>(_ lines: S) where S.Element == Int32 {
        excluded.withLock { $0.formUnion(lines) }
        memoryGeneration.add(1, ordering: .relaxed)
    }
    /// The last close-match search, for one that extends its query (CloseMatches.swift).
    let closeMemory = Locked<CloseMatches.Memory?>(nil)

    // MARK: Memory (`--remember NAME`, MemoryRanking.swift)

    private let memoryRanking = Locked<MemoryRanking?>(nil)
    /// Counts changes to what is remembered: an earlier search's result is not reused.
    private let memoryGeneration = Atomic<Int>(0)

    /// Ranks with what `--remember NAME` recorded (nil or empty: without memory). `lines`:
    /// the lines as read, when the engine searches `--nth`/`--with-nth` text (what a pick
    /// records is the line as read).
    public func remember(_ picks: RememberedPicks?, lines: LineStore? = nil) {
        let lines = lines ?? store
        memoryRanking.withLock { $0 = picks.flatMap { $0.isEmpty ? nil : MemoryRanking($0, lines: lines) } }
        memoryGeneration.add(1, ordering: .relaxed)
    }

    /// Ranks with what `other` remembers now (a new engine for a reload's store, or for
    /// toggle-sort: `--bind`). The lines found remembered are looked up again: a reload's
    /// store holds other lines at the same indexes.
    public func remember(as other: SearchEngine, lines: LineStore? = nil) {
        remember(other.memoryRanking.withLock { $0 }?.remembered, lines: lines)
    }

    /// Ranks `line` as if it had never been picked (the picker's forget key).
    public func forgetRemembered(_ line: [UInt8]) {
        memoryRanking.withLock { $0 }?.forget(line)
        memoryGeneration.add(1, ordering: .relaxed)
    }

    /// Makes the bounds a loaded input's first key will record, and touches their memory, up
    /// to `lines` lines a call; false while there is more to do. The picker calls it while
    /// idle: at paths 10M the first key otherwise took its 60 MB of values from the system a
    /// page at a time, both threads at once, about 150 ms of CPU (bench/NOTES.md). Nothing to
    /// do when the input keeps no bounds, or a search holds them.
    public func prepareBounds(lines: Int = 1 << 18) -> Bool {
        let total = store.count
        guard total >= boundsFromLines, ranking.sorts, store.sectionCount == 0 else { return true }
        return memory.bounds.withLock { bounds in
            if bounds.held == nil {
                if bounds.made { return true }
                bounds = (LineBounds(capacity: total), true)
            }
            // (Bounds a search has recorded hold its values: nothing to touch.)
            guard let held = bounds.held, held.capacity >= total, held.term == nil, held.count == 0
            else { return true }
            return held.touch(lines: lines)
        }
    }

    /// The engine's `LineBounds`, taken for a search of `query` (nil: none, or another search
    /// holds them), with how this search uses them: going on from the values of the query it
    /// narrows, or recording them afresh (`LineBounds`).
    private func takeBounds(for query: Query, previous: SearchMemory.Narrowed?, total: Int,
                            whole: Bool) -> (kept: LineBounds?, pass: BoundsPass?) {
        // (Bounds serve a ranking by score, of lines not grouped by section.)
        guard total >= boundsFromLines, ranking.sorts, store.sectionCount == 0,
              let term = LineBounds.term(of: query) else { return (nil, nil) }
        let (held, goesWithout) = memory.bounds.withLock { bounds -> (LineBounds?, Bool) in
            // Taken by another search (a cancelled one finishing, the idle refinement): this
            // one goes without.
            if bounds.held == nil && bounds.made { return (nil, true) }
            defer { bounds = (nil, true) }
            return (bounds.held, false)
        }
        if goesWithout { return (nil, nil) }
        // (A whole ranking scores every match and records their values; the rests' memory is
        // let go while it sorts them: at paths 10M both at once went past 1.4 times the input.)
        if whole { held?.dropRests() }
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
    /// `searched.exact`: the search scored every line it matched (no line only bounded).
    private func giveBack(_ bounds: (kept: LineBounds?, pass: BoundsPass?),
                          searched: (text: String, query: Query, total: Int, exact: Bool)?) {
        guard let kept = bounds.kept, let pass = bounds.pass else { return }
        if let searched {
            kept.text = searched.text
            kept.term = LineBounds.term(of: searched.query)
            kept.count = searched.total
            kept.exactBelow = searched.exact ? searched.total : 0
            kept.restsBelow = 0
        } else if pass.extends || pass.heldBelow == 0 {
            // (Dropped: the next search makes them afresh.)
            memory.bounds.withLock { $0.made = false }
            return
        } else {
            // (Lines it recorded again cleared their rests.)
            kept.restsBelow = 0
        }
        memory.bounds.withLock { $0.held = kept }
    }
}
