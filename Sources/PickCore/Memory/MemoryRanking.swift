// How `--remember NAME` reorders a ranking. (The store, SQLite, is the executable's:
// Sources/Pick/Memory/MemoryStore.swift. This file is handed a plain table of weights:
// RememberedPicks.swift.)
//
// What is remembered. Each pick records the line and the query typed for it. A record
// weighs 1 when made and halves every `Tunables.Memory.halfLife` (30 days), so a habit
// fades and one wrong pick does not lock in; the weights of a line's records add up. Two
// weights come out of that, for a typed query T:
// - the line's weight: all its records, whatever was typed;
// - its weight for T: the records whose query starts with T (Firefox's adaptive history:
//   the text typed, and the line picked for it). Typing `ma` reaches what was picked after
//   `ma`, `mai` or `main`; a record under `mw` says nothing about the query `main.c`.
// A weight w counts as a strength s = w / (w + 1) (`halfStrengthWeight`): one fresh pick
// is 0.5, three are 0.75, thirty 0.97; it never reaches 1.
//
// Match quality first. Memory never adds or removes a line: it only moves a remembered
// line up, past lines whose matches are comparably good. A line's score (Scorer.swift)
// rises by 16 to 30 for each character typed, a file-name match is worth 8 more, a
// consecutive character 4, a gap costs 3 and 1 a character. So a remembered line with
// score S is ranked as if it scored
//
//     S + lineBand × s(line weight) + queryBand(T) × s(weight for T)
//
// and it goes above every line that scores no more than that (equals included: memory
// breaks ties before length and input order do). The two bands say what "comparably
// good" means:
// - `lineBand` (4): general memory overtakes ties and lines at most 3 points better, a
//   gap a few characters longer. Never a better kind of match: after thirty picks of
//   `src/app/mainwindow.cpp` under `mw`, the query `main.c` scores it 157 (+ 3.9) and
//   `src/main.c` 167, and `src/main.c` stays first.
// - `queryBand(T)` (8 a typed character, at most 3 characters' worth): memory of the
//   same typed text overtakes more, as much as a word start or a file-name match per
//   character for a short query, where the scorer has little to tell lines apart (`ma`
//   scores every file name starting with "ma" alike) and where a person most often
//   means their usual line. After thirty picks under `mw`, the query `mw` ranks
//   `src/app/mainwindow.cpp` (53 + 3.9 + 15.5) above `src/mw.c` (67); after one pick
//   (53 + 2 + 8), not yet.
// Capping the query band keeps a long query's finer distinctions (an exact word against
// scattered letters) out of memory's reach.
//
// A search lifts only the `liftedLinesPerSearch` (128) matching lines that memory lifts
// most for its query; lighter ones rank as if not remembered (a screen shows a few dozen,
// and placing each costs a score and a binary search).
//
// Orders that memory leaves alone: `--no-sort` (input order was asked for). With an empty
// query every line matches alike: remembered lines come first, most weighted first, then
// the rest in input order (reversed with `--tac`).
//
// A first screen (`SearchEngine.search(_:firstRows:)`) holds the best rows only. A
// remembered line whose place is past its last row is left out of it (its place is not
// known yet), so the first screen is still the start of the whole ranking.

/// Reorders a search's ranking with what a name remembers (the rules at the top of this
/// file). Thread-safe: searches run on the worker thread; a forget comes from the picker.
final class MemoryRanking: @unchecked Sendable {
    private let lock = Lock()
    private var picks: RememberedPicks
    /// The lines as read (never the `--with-nth`/`--nth` text the engine searches): what
    /// a pick records, and so what is looked up. Same indexes as the searched store.
    private let lines: LineStore
    /// The store lines found to be remembered lines, and their index in `picks`,
    /// for the store's lines below `resolvedUpTo`: each line is looked up once.
    private var resolved: [(line: Int32, entry: Int)] = []
    private var resolvedUpTo = 0
    /// Whether some remembered line has this length: others are not looked up.
    private var hasLength: [Bool]
    /// A Bloom filter of the remembered lines' hashes, small enough to stay in cache: most
    /// input lines are not remembered, and are told so without a look into the table.
    private var bloom: [UInt64]

    init(_ picks: RememberedPicks, lines: LineStore) {
        self.picks = picks
        self.lines = lines
        let lengths = (0..<picks.count).map { picks.text($0).count }
        hasLength = [Bool](repeating: false, count: (lengths.max() ?? 0) + 1)
        for n in lengths { hasLength[n] = true }
        var bits = 1 << 12
        while bits < picks.count * 16 { bits <<= 1 }
        bloom = [UInt64](repeating: 0, count: bits >> 6)
        for k in 0..<picks.count {
            let h = picks.text(k).withUnsafeBytes { RememberedPicks.hash($0) }
            let (a, b) = Self.bloomBits(h, mask: bits - 1)
            bloom[a >> 6] |= 1 << UInt64(a & 63)
            bloom[b >> 6] |= 1 << UInt64(b & 63)
        }
    }

    var isEmpty: Bool { lock.locked { picks.isEmpty } }

    /// What is remembered now (forgets included): for a ranking over other lines.
    var remembered: RememberedPicks { lock.locked { picks } }

    /// Forgets `line`: it ranks as if never picked.
    func forget(_ line: [UInt8]) {
        lock.locked {
            guard let k = picks.index(of: line) else { return }
            picks.forget(line)
            resolved = resolved.compactMap { r in
                r.entry == k ? nil : (r.line, r.entry > k ? r.entry - 1 : r.entry)
            }
        }
    }

    /// `ranked` (the lines matching `query` typed as `text`, in rank order: all of them
    /// when `complete`, else the first ones) reordered with memory. The candidates are the
    /// store's lines in `first..<total`.
    func rerank(_ ranked: [Int32], query: Query, text: String, store: LineStore, first: Int, total: Int,
                complete: Bool, sorts: Bool) -> [Int32] {
        guard sorts else { return ranked }
        return lock.locked {
            resolve(lines, upTo: total)
            let candidates = resolved.filter { Int($0.line) >= first && Int($0.line) < total }
            guard !candidates.isEmpty else { return ranked }
            var bits = LineSet(lines: total)
            for c in candidates { bits.insert(c.line) }
            if query.isEmpty {
                // Remembered lines most weighted first, in rank order among equals (stable).
                let entry = Dictionary(candidates.map { ($0.line, $0.entry) }, uniquingKeysWith: { a, _ in a })
                let present = ranked.filter { bits.contains($0) }
                return present.enumerated().sorted { a, b in
                    let wa = picks.weight(entry[a.element]!), wb = picks.weight(entry[b.element]!)
                    return wa != wb ? wa > wb : a.offset < b.offset
                }.map(\.element) + ranked.filter { !bits.contains($0) }
            }
            // A complete ranking holds every match: the remembered ones are those in it. A
            // first screen holds only the best: every remembered line may match.
            var pool = candidates
            if complete {
                var inRanking = LineSet(lines: total)
                for line in ranked where bits.contains(line) { inRanking.insert(line) }
                pool = candidates.filter { inRanking.contains($0.line) }
            }
            return lift(pool, in: ranked, query: query, text: text, store: store, complete: complete)
        }
    }

    /// A query: the remembered lines that memory lifts most for it (at most
    /// `liftedLinesPerSearch` of those that match) each go above the first other line that
    /// scores no more than its score with memory's lift. The rest rank as if not remembered.
    private func lift(_ pool: [(line: Int32, entry: Int)], in ranked: [Int32], query: Query, text: String,
                      store: LineStore, complete: Bool) -> [Int32] {
        let matcher = LineMatcher(store: store, query: query)
        // As the ranking keys it (Ranking.swift): clamped to 0...0xFFFF.
        func score(_ line: Int32) -> Int32? {
            let i = Int(line)
            return matcher.match(i, matcher.lookAhead(i), next: nil).map { min(max($0.score, 0), 0xFFFF) }
        }
        let typed = RememberedPicks.fold(text)
        let queryBand = Double(Tunables.Memory.queryBandPerCharacter)
            * Double(min(typed.unicodeScalars.count, Tunables.Memory.queryBandCharacters))
        // Each line's lift, most first (then input order: the same lines are taken for a
        // first screen and for the whole ranking).
        let byLift = pool.map { c -> (line: Int32, lift: Double, weight: Double, length: Int) in
            let weight = picks.weight(c.entry)
            let forQuery = picks.weight(c.entry, forQueriesStartingWith: typed)
            let lift = Double(Tunables.Memory.lineBand) * RememberedPicks.strength(weight)
                + queryBand * RememberedPicks.strength(forQuery)
            return (c.line, lift, weight, picks.text(c.entry).count)
        }.sorted { $0.lift != $1.lift ? $0.lift > $1.lift : $0.line < $1.line }
        var lifted: [(line: Int32, ranked: Double, weight: Double, length: Int)] = []
        var isLifted = LineSet(lines: store.count)
        for c in byLift {
            guard lifted.count < Tunables.Memory.liftedLinesPerSearch else { break }
            guard let s = score(c.line) else { continue }
            lifted.append((c.line, Double(s) + c.lift, c.weight, c.length))
            isLifted.insert(c.line)
        }
        let others = ranked.filter { !isLifted.contains($0) }
        var scoreOfOther: [Int: Int32] = [:]
        func otherScore(_ k: Int) -> Int32 {
            if let s = scoreOfOther[k] { return s }
            let s = score(others[k]) ?? 0
            scoreOfOther[k] = s
            return s
        }
        var placed: [(place: Int, ranked: Double, weight: Double, length: Int, line: Int32)] = []
        for c in lifted {
            // The first other line that scores no more (scores fall along the ranking).
            var lo = 0, hi = others.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Double(otherScore(mid)) <= c.ranked { hi = mid } else { lo = mid + 1 }
            }
            if !complete && lo == others.count { continue }  // past the first screen
            placed.append((lo, c.ranked, c.weight, c.length, c.line))
        }
        // (Ties as the engine's default: the shorter line, then input order. Not the
        // line's rank: a first screen does not know every remembered line's.)
        placed.sort { a, b in
            if a.place != b.place { return a.place < b.place }
            if a.ranked != b.ranked { return a.ranked > b.ranked }
            if a.weight != b.weight { return a.weight > b.weight }
            return a.length != b.length ? a.length < b.length : a.line < b.line
        }
        var out: [Int32] = []
        out.reserveCapacity(others.count + placed.count)
        var next = 0
        for (k, line) in others.enumerated() {
            while next < placed.count && placed[next].place == k {
                out.append(placed[next].line)
                next += 1
            }
            out.append(line)
        }
        while next < placed.count {
            out.append(placed[next].line)
            next += 1
        }
        return out
    }

    /// Looks up the store's lines below `total` not looked up yet.
    private func resolve(_ store: LineStore, upTo total: Int) {
        guard resolvedUpTo < total else { return }
        let mask = bloom.count << 6 - 1
        for i in resolvedUpTo..<total {
            let bytes = UnsafeRawBufferPointer(store.bytes(of: i))
            guard bytes.count < hasLength.count, hasLength[bytes.count] else { continue }
            let h = RememberedPicks.hash(bytes)
            let (a, b) = Self.bloomBits(h, mask: mask)
            guard bloom[a >> 6] & (1 << UInt64(a & 63)) != 0, bloom[b >> 6] & (1 << UInt64(b & 63)) != 0,
                  let k = picks.index(of: bytes, hash: h) else { continue }
            resolved.append((Int32(i), k))
        }
        resolvedUpTo = total
    }

    /// A hash's two bits in the Bloom filter (from its high bits: the table uses the low).
    @inline(__always)
    private static func bloomBits(_ h: UInt64, mask: Int) -> (Int, Int) {
        (Int(truncatingIfNeeded: h >> 40) & mask, Int(truncatingIfNeeded: h >> 20) & mask)
    }
}

/// A set of line indexes below a count, as bits.
private struct LineSet {
    private var words: [UInt64]

    init(lines: Int) { words = [UInt64](repeating: 0, count: (lines + 63) >> 6) }

    mutating func insert(_ line: Int32) { words[Int(line) >> 6] |= 1 << UInt64(line & 63) }

    func contains(_ line: Int32) -> Bool {
        Int(line) >> 6 < words.count && words[Int(line) >> 6] & (1 << UInt64(line & 63)) != 0
    }
}
