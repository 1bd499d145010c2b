import CPickScan

// What the scorer works on and with: the text being scored, the window of it the dynamic
// programming reads (loaded as scalars, or ASCII bytes read where they lie), the outcome,
// and each thread's reusable buffers.

/// Reusable buffers for scoring one line at a time; one per thread, never shared.
final class ScoringScratch {
    var units: UnsafeMutablePointer<UInt32>
    var bonuses: UnsafeMutablePointer<Int32>
    var capacity = 0
    var rowH: UnsafeMutablePointer<Int32>
    var rowC: UnsafeMutablePointer<Int32>
    var prevH: UnsafeMutablePointer<Int32>
    var prevC: UnsafeMutablePointer<Int32>
    /// Columns of the match points of the previous and the current row (sparse rows).
    var prevPos: UnsafeMutablePointer<Int32>
    var rowPos: UnsafeMutablePointer<Int32>
    var transformed: UnsafeMutablePointer<UInt8>
    var transformedCapacity = 0
    /// Scalar index in the loaded window where the file name starts (Int.max: none).
    var nameStart = Int.max
    /// Bytes the loaded window spans (equal to its scalars when all are one byte).
    var loadedBytes = 0
    init() {
        capacity = 256
        (units, bonuses, rowH, rowC, prevH, prevC) = Self.rows(capacity)
        (prevPos, rowPos) = (.allocate(capacity: capacity), .allocate(capacity: capacity))
        transformedCapacity = 1024
        transformed = .allocate(capacity: transformedCapacity)
    }

    private static func rows(_ n: Int) -> (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<Int32>,
                                           UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>,
                                           UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>) {
        (.allocate(capacity: n), .allocate(capacity: n), .allocate(capacity: n),
         .allocate(capacity: n), .allocate(capacity: n), .allocate(capacity: n))
    }

    private func freeRows() {
        units.deallocate(); bonuses.deallocate()
        rowH.deallocate(); rowC.deallocate(); prevH.deallocate(); prevC.deallocate()
        prevPos.deallocate(); rowPos.deallocate()
    }

    deinit {
        freeRows()
        band.deallocate()
        transformed.deallocate()
    }

    /// Makes the rows hold at least `n` characters.
    func reserve(_ n: Int) {
        guard n > capacity else { return }
        freeRows()
        capacity = max(n, capacity * 2)
        (units, bonuses, rowH, rowC, prevH, prevC) = Self.rows(capacity)
        (prevPos, rowPos) = (.allocate(capacity: capacity), .allocate(capacity: capacity))
    }

    private var band: UnsafeMutablePointer<Int> = .allocate(capacity: 64)
    private var bandCapacity = 64

    /// Room for one index per query character (the dynamic programming's band).
    func reserveBand(_ m: Int) -> UnsafeMutablePointer<Int> {
        if m > bandCapacity {
            band.deallocate()
            bandCapacity = max(m, bandCapacity * 2)
            band = .allocate(capacity: bandCapacity)
        }
        return band
    }

    func reserveTransformed(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if n > transformedCapacity {
            transformed.deallocate()
            transformedCapacity = max(n, transformedCapacity * 2)
            transformed = .allocate(capacity: transformedCapacity)
        }
        return transformed
    }
}

/// A span of text being scored: bytes (raw ASCII, or valid UTF-8) and how to compare them.
struct ScoredText {
    var bytes: UnsafePointer<UInt8>
    var count: Int
    /// Lower-case ASCII letters of the text on the fly (case-insensitive term on raw ASCII).
    var foldsASCII: Bool
    /// Whether a term ending in the last path component earns `lastComponent` (the title,
    /// for the query's last term).
    var rewardsName: Bool
    /// Whether every byte is known to be ASCII: the dynamic programming then reads the
    /// bytes where they are instead of loading the window.
    var ascii = false
    /// Whether the text most likely holds the query (most lines looked at so far did):
    /// ASCII text is then checked from the end, which gives the band too (`Scorer.fuzzy`).
    var likelyMatch = false

    init(bytes: UnsafePointer<UInt8>, count: Int, foldsASCII: Bool, rewardsName: Bool, ascii: Bool = false) {
        self.bytes = bytes
        self.count = count
        self.foldsASCII = foldsASCII
        self.rewardsName = rewardsName
        self.ascii = ascii
    }

    /// Byte offset where the file name starts (after the last `/`; 0 without one), or
    /// Int.max when this text earns no file-name bonus.
    @inline(__always)
    var nameStart: Int {
        guard rewardsName else { return Int.max }
        return pick_last_byte(bytes, count, 0x2F, 0) &+ 1
    }
}

/// The outcome of scoring one term against one text.
struct TermScore {
    var score: Int32
    /// Byte offsets of the first matched character and one past the last.
    var begin: Int
    var end: Int
}

/// What the dynamic programming reads of a window: its scalars and their bonuses.
protocol ScoringWindow {
    /// The scalar at index j (folded as the text folds).
    func unit(_ j: Int) -> UInt32
    /// The word-start bonus of the scalar at index j.
    func bonus(_ j: Int) -> Int32
    /// The first index in from..<to whose scalar is q, or `to`.
    func next(_ q: UInt32, from: Int, to: Int) -> Int
    /// The last index in 1..<before whose scalar is q, or 0.
    func previous(_ q: UInt32, before: Int) -> Int
}

/// A window loaded into the scratch as scalars and bonuses (`Scorer.load`).
struct LoadedWindow: ScoringWindow {
    let units: UnsafeMutablePointer<UInt32>
    let bonuses: UnsafeMutablePointer<Int32>

    @inline(__always) func unit(_ j: Int) -> UInt32 { units[j] }
    @inline(__always) func bonus(_ j: Int) -> Int32 { bonuses[j] }
    @inline(__always) func next(_ q: UInt32, from: Int, to: Int) -> Int {
        var j = from
        while j < to && units[j] != q { j &+= 1 }
        return j
    }
    @inline(__always) func previous(_ q: UInt32, before: Int) -> Int {
        var j = before &- 1
        while j > 0 && units[j] != q { j &-= 1 }
        return max(j, 0)
    }
}

/// A window of ASCII bytes read where they are: scalars are bytes, bonuses come from the
/// tables, and the next occurrence is found sixteen bytes at a time.
struct ByteWindow: ScoringWindow {
    /// The window's first byte.
    let bytes: UnsafePointer<UInt8>
    /// The class of the byte before the window (white at the text's start).
    let before: UInt8
    let folds: Bool
    let classes = BonusTables.classes
    let bonuses = BonusTables.bonuses

    @inline(__always) func unit(_ j: Int) -> UInt32 { UInt32(folds ? lowerASCII(bytes[j]) : bytes[j]) }
    @inline(__always) func bonus(_ j: Int) -> Int32 {
        let previous = j == 0 ? before : classes[Int(bytes[j &- 1])]
        return bonuses[Int(previous) << 3 | Int(classes[Int(bytes[j])])]
    }
    @inline(__always) func next(_ q: UInt32, from: Int, to: Int) -> Int {
        guard q < 0x80, from < to else { return to }
        let at = pick_find_byte(bytes, from, to, UInt8(q), foldBits(for: UInt8(q), folds: folds))
        return at < 0 ? to : at
    }
    @inline(__always) func previous(_ q: UInt32, before: Int) -> Int {
        guard q < 0x80, before > 1 else { return 0 }
        return max(pick_last_byte(bytes, before, UInt8(q), foldBits(for: UInt8(q), folds: folds)), 0)
    }
}
