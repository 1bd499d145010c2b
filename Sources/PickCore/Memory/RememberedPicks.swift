#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// What `--remember NAME` knows, as the ranking reads it (MemoryRanking.swift says how it
// ranks; the store that fills it is Sources/Pick/Memory/MemoryStore.swift).

/// What a name remembers, as the ranking reads it: each line picked, with its weight now
/// and its weight under each query it was picked with (weights already decayed). Kept
/// flat (the lines' bytes in one array, the queries in others, a hash table of indexes
/// over them): reading a memory of 10,000 lines is part of pick's start-up.
public struct RememberedPicks: Sendable {
    /// One remembered line, as `byWeight` lists them.
    public struct Line: Sendable {
        /// The line as pick prints it.
        public var text: [UInt8]
        /// All its records' weights.
        public var weight: Double
        /// Each query it was picked with (folded: `RememberedPicks.fold`), and that
        /// query's weight; "" for picks recorded without a query.
        public var queries: [(query: String, weight: Double)]
    }

    /// Line k is `bytes[starts[k]..<starts[k + 1]]`.
    private var bytes: [UInt8] = []
    private var starts: [Int] = [0]
    private var weights: [Double] = []
    /// Line k's queries: a list through `nextQuery` from `firstQuery[k]` (-1: none).
    private var firstQuery: [Int] = []
    private var queryTexts: [String] = []
    private var queryWeights: [Double] = []
    private var nextQuery: [Int] = []
    /// A hash table of line indexes plus one (0: empty), open addressing, a power of two.
    private var slots: [Int32] = []

    public init() {}

    /// How many lines are remembered.
    public var count: Int { weights.count }
    public var isEmpty: Bool { weights.isEmpty }

    /// Adds a record of `line` picked after typing `query`, weighing `weight` now.
    public mutating func add(line: [UInt8], query: String, weight: Double) {
        line.withUnsafeBytes { add(line: $0, foldedQuery: Self.fold(query), weight: weight) }
    }

    /// `add(line:query:weight:)` for a query already folded (`fold`), as the store keeps them.
    public mutating func add(line: UnsafeRawBufferPointer, foldedQuery folded: String, weight: Double) {
        let k: Int
        if let last = weights.indices.last, holds(last, line) {
            k = last  // (the store gives a line's records in a row)
        } else if let known = index(of: line) {
            k = known
        } else {
            k = weights.count
            bytes.append(contentsOf: line)
            starts.append(bytes.count)
            weights.append(0)
            firstQuery.append(-1)
            insertIntoTable(k)
        }
        weights[k] += weight
        var q = firstQuery[k]
        while q >= 0 && queryTexts[q] != folded { q = nextQuery[q] }
        if q >= 0 {
            queryWeights[q] += weight
        } else {
            queryTexts.append(folded)
            queryWeights.append(weight)
            nextQuery.append(firstQuery[k])
            firstQuery[k] = queryTexts.count - 1
        }
    }

    /// Forgets `line` entirely.
    public mutating func forget(_ line: [UInt8]) {
        guard let gone = index(of: line) else { return }
        var kept = RememberedPicks()
        for k in 0..<count where k != gone {
            for (query, weight) in queries(k) {
                text(k).withUnsafeBytes { kept.add(line: UnsafeRawBufferPointer($0), foldedQuery: query, weight: weight) }
            }
        }
        self = kept
    }

    /// The index of `line` (its place in the order lines were added), if remembered.
    public func index(of line: [UInt8]) -> Int? { line.withUnsafeBytes { index(of: $0) } }

    func index(of line: UnsafeRawBufferPointer) -> Int? { index(of: line, hash: Self.hash(line)) }

    /// `index(of:)` for a line whose `hash` is known.
    func index(of line: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var s = Int(truncatingIfNeeded: hash) & mask
        while slots[s] != 0 {
            let k = Int(slots[s]) - 1
            if holds(k, line) { return k }
            s = (s + 1) & mask
        }
        return nil
    }

    /// Whether line k is `line`.
    private func holds(_ k: Int, _ line: UnsafeRawBufferPointer) -> Bool {
        let start = starts[k], n = starts[k + 1] - start
        guard n == line.count else { return false }
        return n == 0 || bytes.withUnsafeBytes { memcmp($0.baseAddress! + start, line.baseAddress!, n) == 0 }
    }

    /// Line k's bytes.
    func text(_ k: Int) -> ArraySlice<UInt8> { bytes[starts[k]..<starts[k + 1]] }
    /// Line k's weight.
    func weight(_ k: Int) -> Double { weights[k] }
    /// Line k's queries and their weights, the first added first.
    func queries(_ k: Int) -> [(query: String, weight: Double)] {
        var list: [(query: String, weight: Double)] = []
        var q = firstQuery[k]
        while q >= 0 {
            list.append((queryTexts[q], queryWeights[q]))
            q = nextQuery[q]
        }
        return list.reversed()
    }

    /// Line k's weight under the queries that start with `typed` (folded).
    func weight(_ k: Int, forQueriesStartingWith typed: String) -> Double {
        var sum = 0.0
        var q = firstQuery[k]
        while q >= 0 {
            if queryTexts[q].hasPrefix(typed) { sum += queryWeights[q] }
            q = nextQuery[q]
        }
        return sum
    }

    /// The lines most weighted first (ties: first remembered first), each with its
    /// queries most weighted first: what `--list` prints.
    public var byWeight: [Line] {
        (0..<count).sorted { a, b in weights[a] != weights[b] ? weights[a] > weights[b] : a < b }.map { k in
            let queries = self.queries(k).sorted { $0.weight != $1.weight ? $0.weight > $1.weight : $0.query < $1.query }
            return Line(text: Array(text(k)), weight: weights[k], queries: queries)
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

    // MARK: The hash table

    /// Adds line k to the table, doubling it past half full.
    private mutating func insertIntoTable(_ k: Int) {
        if (k + 1) * 2 > slots.count {
            slots = [Int32](repeating: 0, count: max(16, slots.count * 2))
            for j in 0..<k { place(j) }
        }
        place(k)
    }

    private mutating func place(_ k: Int) {
        let mask = slots.count - 1
        var s = bytes.withUnsafeBytes { all in
            Int(truncatingIfNeeded: Self.hash(UnsafeRawBufferPointer(rebasing: all[starts[k]..<starts[k + 1]])))
        } & mask
        while slots[s] != 0 { s = (s + 1) & mask }
        slots[s] = Int32(k + 1)
    }

    /// A line's hash, a word at a time (a Swift dictionary keyed by the lines hashed them a
    /// byte at a time through SipHash, and made reading a large memory slow).
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var k = 0
        while k + 8 <= bytes.count {
            h = (h ^ bytes.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            h ^= h >> 29
            k += 8
        }
        while k < bytes.count {
            h = (h ^ UInt64(bytes[k])) &* 0xC4CE_B9FE_1A85_EC53
            k += 1
        }
        // MurmurHash3's finish: every bit of `h` reaches the low bits the table uses.
        h ^= h >> 33
        h = h &* 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h = h &* 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 33)
    }
}
