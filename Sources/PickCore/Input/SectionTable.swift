#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The section names of a store's lines, and their ids (1-based, in order of first sight).
/// One thread adds names; any thread may read the names below `count`.
final class SectionTable: @unchecked Sendable {
    /// Each id's name (id - 1): where its bytes are in the store, and how many.
    private let names = PagedArray<(UnsafePointer<UInt8>, Int)>()
    /// Open-addressing table of ids (0: empty), `bucketCount` a power of two. A name of up
    /// to 8 bytes is also kept in its bucket as a word (and its length), so finding it
    /// compares one word instead of bytes elsewhere (years, short categories).
    private var buckets: UnsafeMutablePointer<UInt32>
    private var bucketWords: UnsafeMutablePointer<UInt64>
    private var bucketLengths: UnsafeMutablePointer<UInt8>
    private var bucketCount = 64

    init() {
        buckets = .allocate(capacity: bucketCount)
        bucketWords = .allocate(capacity: bucketCount)
        bucketLengths = .allocate(capacity: bucketCount)
        buckets.initialize(repeating: 0, count: bucketCount)
        bucketWords.initialize(repeating: 0, count: bucketCount)
        bucketLengths.initialize(repeating: 0, count: bucketCount)
    }

    deinit {
        buckets.deallocate()
        bucketWords.deallocate()
        bucketLengths.deallocate()
    }

    /// Names readers may see (safe from any thread).
    var count: Int { names.count }

    /// The name of id `index + 1`: where its bytes are, and how many.
    @inline(__always)
    subscript(index: Int) -> (bytes: UnsafePointer<UInt8>, count: Int) { names[index] }

    /// The id (1-based) of the name p[0..<n], adding it the first time it is seen.
    /// Hot path (once per line with a section): an open-addressing table of ids.
    func id(of p: UnsafePointer<UInt8>, _ n: Int) -> UInt32 {
        if n <= 8 { return id(word: Self.word(p, n), p, n) }
        let mask = bucketCount &- 1
        var slot = Int(truncatingIfNeeded: Self.hash(p, n)) & mask
        while true {
            let id = buckets[slot]
            if id == 0 { return add(p, n, slot: slot) }
            let (q, m) = names[Int(id) &- 1]
            if m == n && Self.sameBytes(q, p, n) { return id }
            slot = (slot &+ 1) & mask
        }
    }

    /// `id(of:_:)` for a name of up to 8 bytes also given as its word (its bytes in order
    /// from the lowest, zero past n): the line loader reads it as one load.
    @inline(__always)
    func id(word: UInt64, _ p: UnsafePointer<UInt8>, _ n: Int) -> UInt32 {
        let mask = bucketCount &- 1
        var slot = Self.slot(word: word, n, mask: mask)
        while true {
            let id = buckets[slot]
            if id == 0 { return add(p, n, slot: slot) }
            if bucketWords[slot] == word && Int(bucketLengths[slot]) == n { return id }
            slot = (slot &+ 1) & mask
        }
    }

    private func add(_ p: UnsafePointer<UInt8>, _ n: Int, slot: Int) -> UInt32 {
        names.append((p, n))
        names.publish()
        let id = UInt32(names.appendedCount)
        buckets[slot] = id
        bucketWords[slot] = n <= 8 ? Self.word(p, n) : 0
        bucketLengths[slot] = n <= 8 ? UInt8(n) : 0xFF
        if names.appendedCount * 2 > bucketCount { rehash() }
        return id
    }

    /// The bytes of a name of up to 8 bytes as one word.
    @inline(__always)
    private static func word(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var word: UInt64 = 0
        for i in 0..<n { word |= UInt64(p[i]) &<< UInt64(i &* 8) }
        return word
    }

    @inline(__always)
    private static func slot(word: UInt64, _ n: Int, mask: Int) -> Int {
        let hash = (word ^ UInt64(n) &<< 61) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: hash >> 32) & mask
    }

    /// A name's first slot, as `id(of:_:)` looks for it.
    @inline(__always)
    private static func slot(_ p: UnsafePointer<UInt8>, _ n: Int, mask: Int) -> Int {
        n <= 8 ? slot(word: word(p, n), n, mask: mask) : Int(truncatingIfNeeded: hash(p, n)) & mask
    }

    @inline(__always)
    private static func hash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for i in 0..<n { hash = (hash ^ UInt64(p[i])) &* 0x100_0000_01b3 }
        // The product's low bits (the slot) see only the bytes' low bits: fold in the high.
        return hash ^ (hash >> 32)
    }

    @inline(__always)
    private static func sameBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        if n > 16 { return memcmp(a, b, n) == 0 }
        for i in 0..<n where a[i] != b[i] { return false }
        return true
    }

    private func rehash() {
        let count = bucketCount * 2
        let buckets = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
        let lengths = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        buckets.initialize(repeating: 0, count: count)
        words.initialize(repeating: 0, count: count)
        lengths.initialize(repeating: 0, count: count)
        let mask = count - 1
        for index in 0..<names.appendedCount {
            let (p, n) = names[index]
            var slot = Self.slot(p, n, mask: mask)
            while buckets[slot] != 0 { slot = (slot + 1) & mask }
            buckets[slot] = UInt32(index + 1)
            words[slot] = n <= 8 ? Self.word(p, n) : 0
            lengths[slot] = n <= 8 ? UInt8(n) : 0xFF
        }
        self.buckets.deallocate()
        bucketWords.deallocate()
        bucketLengths.deallocate()
        self.buckets = buckets
        bucketWords = words
        bucketLengths = lengths
        bucketCount = count
    }
}
