#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// How `--remember NAME` reorders a ranking. (The store, SQLite, is the executable's:
// Sources/Pick/MemoryStore.swift. This file is handed a plain table of weights.)
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
// Orders that memory leaves alone: `--no-sort` (input order was asked for). With an empty
// query every line matches alike: remembered lines come first, most weighted first, then
// the rest in input order (reversed with `--tac`).
//
// A first screen (`SearchEngine.search(_:firstRows:)`) holds the best rows only. A
// remembered line whose place is past its last row is left out of it (its place is not
// known yet), so the first screen is still the start of the whole ranking.

/// What a name remembers, as the ranking reads it: each line picked, with its weight now
/// and its weight under each query it was picked with (weights already decayed).
public struct RememberedPicks: Sendable {
    /// One remembered line.
    public struct Line: Sendable {
        /// The line as pick prints it.
        public var text: [UInt8]
        /// All its records' weights.
        public var weight: Double
        /// Each query it was picked with (folded: `RememberedPicks.fold`), and that
        /// query's weight; "" for picks recorded without a query.
        public var queries: [(query: String, weight: Double)]
    }

    public private(set) var lines: [Line] = []
    private var indexByText: [[UInt8]: Int] = [:]

    public init() {}

    public var isEmpty: Bool { lines.isEmpty }

    /// Adds a record of `line` picked after typing `query`, weighing `weight` now.
    public mutating func add(line: [UInt8], query: String, weight: Double) {
        let folded = Self.fold(query)
        let k: Int
        if let known = indexByText[line] {
            k = known
        } else {
            k = lines.count
            indexByText[line] = k
            lines.append(Line(text: line, weight: 0, queries: []))
        }
        lines[k].weight += weight
        if let q = lines[k].queries.firstIndex(where: { $0.query == folded }) {
            lines[k].queries[q].weight += weight
        } else {
            lines[k].queries.append((folded, weight))
        }
    }

    /// Forgets `line` entirely.
    public mutating func forget(_ line: [UInt8]) {
        guard let k = indexByText.removeValue(forKey: line) else { return }
        lines.remove(at: k)
        for j in k..<lines.count { indexByText[lines[j].text] = j }
    }

    /// The index of `line` in `lines`, if remembered.
    public func index(of line: [UInt8]) -> Int? { indexByText[line] }

    /// The lines most weighted first (ties: first remembered first), each with its
    /// queries most weighted first: what `--list` prints.
    public var byWeight: [Line] {
        lines.enumerated().sorted { a, b in
            a.element.weight != b.element.weight ? a.element.weight > b.element.weight : a.offset < b.offset
        }.map { entry in
            var line = entry.element
            line.queries.sort { $0.weight != $1.weight ? $0.weight > $1.weight : $0.query < $1.query }
            return line
        }
    }

    /// A query as memory compares it: without the spaces around it, lower-cased.
    public static func fold(_ query: String) -> String {
        var scalars = Substring(query).unicodeScalars[...]
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(String.UnicodeScalarView(scalars)).lowercased()
    }

    /// The weight a record made `age` seconds ago has now (halved every half-life).
    public static func decayed(_ weight: Double, age: Double) -> Double {
        weight * exp2(-max(0, age) / Tunables.Memory.halfLife)
    }

    /// How much a weight counts, from 0 towards 1 (see the top of MemoryRanking.swift).
    static func strength(_ weight: Double) -> Double {
        weight <= 0 ? 0 : weight / (weight + Tunables.Memory.halfStrengthWeight)
    }
}

/// Reorders a search's ranking with what a name remembers (the rules at the top of this
/// file). Thread-safe: searches run on the worker thread; a forget comes from the picker.
final class MemoryRanking: @unchecked Sendable {
    private let lock = Lock()
    private var picks: RememberedPicks
    /// The store lines found to be remembered lines, and their index in `picks.lines`,
    /// for the store's lines below `resolvedUpTo`: each line is looked up once.
    private var resolved: [(line: Int32, entry: Int)] = []
    private var resolvedUpTo = 0
    /// Line lengths that some remembered line has: others are not looked up.
    private var lengths = Set<Int>()

    init(_ picks: RememberedPicks) {
        self.picks = picks
        lengths = Set(picks.lines.map(\.text.count))
    }

    var isEmpty: Bool { lock.locked { picks.isEmpty } }

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
            resolve(store, upTo: total)
            let candidates = resolved.filter { Int($0.line) >= first && Int($0.line) < total }
            guard !candidates.isEmpty else { return ranked }
            var isRemembered = [UInt64](repeating: 0, count: (total + 63) >> 6)
            for c in candidates { isRemembered[Int(c.line) >> 6] |= 1 << UInt64(c.line & 63) }
            func remembered(_ line: Int32) -> Bool { isRemembered[Int(line) >> 6] & (1 << UInt64(line & 63)) != 0 }
            // The ranking without the remembered lines, and where each of those stood in it.
            var others: [Int32] = []
            others.reserveCapacity(ranked.count)
            var rankOf: [Int32: Int] = [:]
            for (k, line) in ranked.enumerated() {
                if remembered(line) { rankOf[line] = k } else { others.append(line) }
            }
            if query.isEmpty { return rememberedFirst(candidates, rankOf: rankOf, others: others) }
            return merge(candidates, into: others, rankOf: rankOf, query: query, text: text, store: store,
                         complete: complete)
        }
    }

    /// An empty query: the remembered lines, most weighted first, then the others.
    private func rememberedFirst(_ candidates: [(line: Int32, entry: Int)], rankOf: [Int32: Int],
                                 others: [Int32]) -> [Int32] {
        let first = candidates.filter { rankOf[$0.line] != nil }.sorted { a, b in
            let wa = picks.lines[a.entry].weight, wb = picks.lines[b.entry].weight
            return wa != wb ? wa > wb : rankOf[a.line]! < rankOf[b.line]!
        }
        return first.map(\.line) + others
    }

    /// A query: each remembered line that matches goes above the first other line that
    /// scores no more than its score with memory's bonus.
    private func merge(_ candidates: [(line: Int32, entry: Int)], into others: [Int32], rankOf: [Int32: Int],
                       query: Query, text: String, store: LineStore, complete: Bool) -> [Int32] {
        let matcher = LineMatcher(store: store, query: query)
        // As the ranking keys it (Ranking.swift): clamped to 0...0xFFFF.
        func score(_ line: Int32) -> Int32? {
            let i = Int(line)
            return matcher.match(i, matcher.lookAhead(i), next: nil).map { min(max($0.score, 0), 0xFFFF) }
        }
        var scoreOfOther: [Int: Int32] = [:]
        func otherScore(_ k: Int) -> Int32 {
            if let s = scoreOfOther[k] { return s }
            let s = score(others[k]) ?? 0
            scoreOfOther[k] = s
            return s
        }
        let typed = RememberedPicks.fold(text)
        let queryBand = Double(Tunables.Memory.queryBandPerCharacter)
            * Double(min(typed.unicodeScalars.count, Tunables.Memory.queryBandCharacters))
        var placed: [(place: Int, ranked: Double, weight: Double, length: Int, line: Int32)] = []
        for c in candidates {
            // A complete ranking holds every match; a first screen, only the best.
            if complete && rankOf[c.line] == nil { continue }
            guard let s = score(c.line) else { continue }
            let entry = picks.lines[c.entry]
            var forQuery = 0.0
            for q in entry.queries where q.query.hasPrefix(typed) { forQuery += q.weight }
            let ranked = Double(s) + Double(Tunables.Memory.lineBand) * RememberedPicks.strength(entry.weight)
                + queryBand * RememberedPicks.strength(forQuery)
            // The first other line that scores no more (scores fall along the ranking).
            var lo = 0, hi = others.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if Double(otherScore(mid)) <= ranked { hi = mid } else { lo = mid + 1 }
            }
            if !complete && lo == others.count { continue }  // past the first screen
            placed.append((lo, ranked, entry.weight, entry.text.count, c.line))
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
        for i in resolvedUpTo..<total {
            let bytes = store.bytes(of: i)
            guard lengths.contains(bytes.count), let k = picks.index(of: Array(bytes)) else { continue }
            resolved.append((Int32(i), k))
        }
        resolvedUpTo = total
    }
}
