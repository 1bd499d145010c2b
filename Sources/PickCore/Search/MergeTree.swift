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
            if Self.less(b, a, heads: heads, live: live) {
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
    private static func less(_ a: Int, _ b: Int, heads: UnsafeMutablePointer<Hit>, live: UnsafeMutablePointer<Bool>) -> Bool {
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
            if Self.less(loser, candidate, heads: heads, live: live) {
                tree[node] = candidate
                candidate = loser
            }
            node >>= 1
        }
        tree[0] = candidate
        return hit
    }

    /// Writes every hit left, smallest first, through `out`, from `at` on.
    @inline(__always)
    func drain(into out: UnsafeMutablePointer<Int32>, from at: Int, index: (Hit) -> Int) {
        var k = at
        while let hit = pop() {
            out[k] = Int32(truncatingIfNeeded: index(hit))
            k &+= 1
        }
    }
}

/// The first position in sorted `run` whose hit is not below `pivot`.
func lowerBound<Hit: Comparable>(_ pivot: Hit, in run: UnsafeBufferPointer<Hit>) -> Int {
    var lo = 0, hi = run.count
    while lo < hi {
        let mid = (lo + hi) / 2
        if run[mid] < pivot { lo = mid + 1 } else { hi = mid }
    }
    return lo
}
