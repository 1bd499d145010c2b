import CPickScan

/// The lines that hold a query's whole-line terms in order, 64 at a time: the greedy check
/// that `LineMatcher` makes of every line before scoring it (a fuzzy term alone in its group
/// must be a subsequence of the line), made in C over a word of lines before any is looked
/// up one by one (`pick_in_order64_all`). Where most lines fail it (a narrow query over every
/// line: `--filter`, a term's first key), the per-line work of the scan is left to the few
/// that pass; where most pass, the scan stops asking (`CandidateCursor`).
///
/// A value of pointers, for the scan's hot loop, with the object that owns their memory.
struct OrderFilter {
    private let store: LineStore
    private let terms: Terms
    /// Every checked term's bytes one after the other, each with the bits that fold it
    /// (`pick_find_byte`); term k is `bytes[starts[k]..<starts[k + 1]]`.
    private let bytes: UnsafePointer<UInt8>
    private let folds: UnsafePointer<UInt8>
    private let starts: UnsafePointer<Int>
    private let termCount: Int

    /// The filter for `terms` (their bytes, folded but where `caseSensitive`) over `store`;
    /// nil without terms.
    init?(store: LineStore, terms checked: [UnsafeBufferPointer<UInt8>], caseSensitive: [Bool]) {
        guard !checked.isEmpty else { return nil }
        self.store = store
        terms = Terms(checked, caseSensitive: caseSensitive)
        bytes = UnsafePointer(terms.bytes)
        folds = UnsafePointer(terms.folds)
        starts = UnsafePointer(terms.starts)
        termCount = checked.count
    }

    /// Whether the branch-free body may be the faster: with one term the branches give up
    /// at its first missing character, and win.
    var choosesBody: Bool { termCount > 1 }

    /// The memory of the terms' bytes, fold bits and starts.
    private final class Terms {
        let bytes: UnsafeMutablePointer<UInt8>
        let folds: UnsafeMutablePointer<UInt8>
        let starts: UnsafeMutablePointer<Int>

        init(_ terms: [UnsafeBufferPointer<UInt8>], caseSensitive: [Bool]) {
            let total = terms.reduce(0) { $0 + $1.count }
            bytes = .allocate(capacity: max(total, 1))
            folds = .allocate(capacity: max(total, 1))
            starts = .allocate(capacity: terms.count + 1)
            var at = 0
            for (k, term) in terms.enumerated() {
                starts[k] = at
                for byte in term {
                    bytes[at] = byte
                    folds[at] = foldBits(for: byte, folds: !caseSensitive[k])
                    at += 1
                }
            }
            starts[terms.count] = at
        }

        deinit {
            bytes.deallocate()
            folds.deallocate()
            starts.deallocate()
        }
    }

    /// `word` (bit k: line `start + k`, `start` a multiple of 64) without the lines that lack a
    /// term's characters in order. Lines with folded text of their own are kept unchecked.
    /// `branchFree`: lines of up to 128 bytes checked without a branch per character
    /// (`pick_in_order64_all_branch_free`); only worth asking with two terms or more
    /// (`choosesBody`).
    @inline(__always)
    func holding(_ start: Int, _ word: UInt64, branchFree: Bool = false) -> UInt64 {
        var word = word
        if start &+ 64 <= store.compact.count, let base = store.compactBase {
            return store.withCompactWord(start) { records, first in
                branchFree ? pick_in_order64_all_branch_free(base, records, first, word, bytes, folds, starts, termCount)
                    : pick_in_order64_all(base, records, first, word, bytes, folds, starts, termCount)
            }
        }
        // Lines read from a pipe (records of their own), or a word that crosses into them.
        var bits = word
        while bits != 0 {
            let i = start &+ bits.trailingZeroBitCount
            bits &= bits &- 1
            let record = store.record(i)
            if record.extra != 0 && !record.isPacked { continue }
            for k in 0..<termCount where pick_holds_in_order(record.start, Int(record.length), bytes + starts[k],
                                                             folds + starts[k], starts[k &+ 1] &- starts[k]) == 0 {
                word &= ~(1 << UInt64(i &- start))
                break
            }
        }
        return word
    }
}
