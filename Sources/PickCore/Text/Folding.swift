// Folding: what "ignore case and diacritics" means for a scalar.
//
// Lower-casing uses the simple (one-to-one) mapping; stripping diacritics maps a letter
// to its base letter (é → e, й → и, ά → α, ø → o). fzf strips diacritics from Latin
// letters only; pick strips them in every script. Combining marks that stand on their
// own (a decomposed é is `e` + U+0301) are kept, as fzf keeps them, so the sets of
// matched lines agree with fzf's for Latin text. Latin letters with a stroke, hook or
// bar (ø ł đ ƀ), turned and open variants, ß, ı, and fullwidth forms fold as in fzf;
// small capitals (ᴀ) fold to the lower-case letter (fzf folds them to upper case,
// which a case-insensitive query can never match). tools/gen-fold-table.py has the rules.

/// Case and diacritic folding of single Unicode scalars, from a generated table.
public enum Folding {
    /// The table, built once. A loop over many scalars takes it once (`UTF8Codec.transform`):
    /// each read of a global costs a call to check it was built.
    static let table = FoldLookup()

    public static func fold(_ scalar: UInt32, caseFold: Bool, stripDiacritics: Bool) -> UInt32 {
        table.fold(scalar, caseFold: caseFold, stripDiacritics: stripDiacritics)
    }

    public static func hasDiacritics<S: Sequence>(_ text: S) -> Bool where S.Element == Unicode.Scalar {
        for scalar in text {
            let lowered = fold(scalar.value, caseFold: true, stripDiacritics: false)
            if fold(lowered, caseFold: false, stripDiacritics: true) != lowered { return true }
        }
        return false
    }

    /// Whether `scalar` is white space as fzf (Go's `unicode.IsSpace`) sees it: ASCII
    /// `\t \n \v \f \r` and space, U+0085, U+00A0, and Unicode's other spaces (U+3000 …).
    /// Prefix, suffix and equal terms skip such space at the ends of a line.
    @inline(__always)
    public static func isSpace(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x20, 0x09...0x0D, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F,
             0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// Whether `scalar` is part of a word (a letter or a number) for `'word'` boundary terms:
    /// ASCII letters and digits, and every Unicode letter and number.
    @inline(__always)
    public static func isWord(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 {
            return (scalar | 0x20) &- 0x61 < 26 || scalar &- 0x30 < 10
        }
        var low = 0
        var high = wordRangeCount
        while low < high {
            let mid = (low + high) >> 1
            if wordRanges[mid &* 2 &+ 1] < scalar { low = mid + 1 } else { high = mid }
        }
        return low < wordRangeCount && wordRanges[low &* 2] <= scalar
    }

    private static let wordRanges: [UInt32] = wordScalarRanges
    private static let wordRangeCount = wordScalarRanges.count / 2

    /// Whether `text` has a letter that lower-casing changes (smart case).
    public static func hasUpperCase<S: Sequence>(_ text: S) -> Bool where S.Element == Unicode.Scalar {
        for scalar in text where fold(scalar.value, caseFold: true, stripDiacritics: false) != scalar.value {
            return true
        }
        return false
    }
}

/// ASCII lower-casing for the byte-level hot path (arithmetic: a global table would cost
/// a lazy-initialisation check on every access).
@inline(__always)
func lowerASCII(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
}

/// UTF-8 helpers that never fail: invalid bytes decode as U+FFFD, one byte at a time.
enum UTF8Codec {
    /// Decodes the scalar at `i` of `bytes`, returning it and its length in bytes.
    @inline(__always)
    static func decode(_ bytes: UnsafePointer<UInt8>, _ i: Int, _ end: Int) -> (UInt32, Int) {
        let b0 = UInt32(bytes[i])
        if b0 < 0x80 { return (b0, 1) }
        func cont(_ k: Int) -> UInt32? {
            guard i + k < end else { return nil }
            let b = UInt32(bytes[i + k])
            return b & 0xC0 == 0x80 ? b & 0x3F : nil
        }
        if b0 >= 0xC2 && b0 <= 0xDF, let c1 = cont(1) {
            return ((b0 & 0x1F) << 6 | c1, 2)
        }
        if b0 >= 0xE0 && b0 <= 0xEF, let c1 = cont(1), let c2 = cont(2) {
            let v = (b0 & 0x0F) << 12 | c1 << 6 | c2
            if v >= 0x800 && !(v >= 0xD800 && v <= 0xDFFF) { return (v, 3) }
        }
        if b0 >= 0xF0 && b0 <= 0xF4, let c1 = cont(1), let c2 = cont(2), let c3 = cont(3) {
            let v = (b0 & 0x07) << 18 | c1 << 12 | c2 << 6 | c3
            if v >= 0x10000 && v <= 0x10FFFF { return (v, 4) }
        }
        return (0xFFFD, 1)
    }

    /// Appends the UTF-8 encoding of `scalar` at `out[n...]`, returning the new length.
    @inline(__always)
    static func encode(_ scalar: UInt32, into out: UnsafeMutablePointer<UInt8>, at n: Int) -> Int {
        switch scalar {
        case 0..<0x80:
            out[n] = UInt8(scalar)
            return n + 1
        case 0x80..<0x800:
            out[n] = UInt8(0xC0 | scalar >> 6)
            out[n + 1] = UInt8(0x80 | scalar & 0x3F)
            return n + 2
        case 0x800..<0x10000:
            out[n] = UInt8(0xE0 | scalar >> 12)
            out[n + 1] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            out[n + 2] = UInt8(0x80 | scalar & 0x3F)
            return n + 3
        default:
            out[n] = UInt8(0xF0 | scalar >> 18)
            out[n + 1] = UInt8(0x80 | (scalar >> 12) & 0x3F)
            out[n + 2] = UInt8(0x80 | (scalar >> 6) & 0x3F)
            out[n + 3] = UInt8(0x80 | scalar & 0x3F)
            return n + 4
        }
    }

    /// Whether `transform` with case folding and diacritics stripped would give `bytes[0..<n]`
    /// back but for ASCII letters in lower case (which matching folds on the fly): valid
    /// UTF-8 whose other scalars all fold to themselves, as most non-ASCII text does (CJK,
    /// emoji, punctuation such as a dash, accents already plain). Reads only: ASCII is passed
    /// over eight bytes at a time, and the rest is looked up scalar by scalar.
    static func foldsToItself(_ bytes: UnsafePointer<UInt8>, count n: Int) -> Bool {
        let highs: UInt64 = 0x8080_8080_8080_8080
        let table = Folding.table
        var i = 0
        while i < n {
            if i &+ 8 <= n && UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: i, as: UInt64.self) & highs == 0 {
                i &+= 8
                continue
            }
            if bytes[i] < 0x80 {
                i &+= 1
                continue
            }
            let (scalar, width) = decode(bytes, i, n)
            // An invalid byte decodes as U+FFFD, which takes three bytes.
            if scalar == 0xFFFD && width == 1 { return false }
            if table.fold(scalar, caseFold: true, stripDiacritics: true) != scalar { return false }
            i &+= width
        }
        return true
    }

    /// Writes `bytes[start..<end]` transformed scalar by scalar into `out`; returns the length.
    /// `out` must hold at least `(end - start) * 3` bytes (one invalid byte becomes 3).
    static func transform(
        _ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int,
        into out: UnsafeMutablePointer<UInt8>, caseFold: Bool, stripDiacritics: Bool
    ) -> Int {
        var i = start
        var n = 0
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let table = Folding.table
        while i < end {
            // Eight ASCII bytes at a time: upper-case letters get 0x20 (a byte below 0x80
            // plus a constant below 0x80 never carries into the next byte).
            if i &+ 8 <= end {
                var word = UnsafeRawPointer(bytes).loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if word & highs == 0 {
                    if caseFold {
                        let upper = ((word &+ (0x80 - 0x41) &* ones) ^ (word &+ (0x80 - 0x5B) &* ones)) & highs
                        word |= upper >> 2
                    }
                    UnsafeMutableRawPointer(out).storeBytes(of: word, toByteOffset: n, as: UInt64.self)
                    n &+= 8
                    i &+= 8
                    continue
                }
            }
            let b = bytes[i]
            if b < 0x80 {
                out[n] = caseFold ? lowerASCII(b) : b
                n += 1
                i += 1
                continue
            }
            let (scalar, width) = decode(bytes, i, end)
            let folded = table.fold(scalar, caseFold: caseFold, stripDiacritics: stripDiacritics)
            n = encode(folded, into: out, at: n)
            i += width
        }
        return n
    }
}

/// The rows of (scalar, lower case, diacritics stripped, both) in memory of their own, with
/// an index: the row of a scalar below U+0800 by one look-up, above it a bit a 256-scalar
/// block saying whether the block has rows at all before a binary search.
struct FoldLookup: @unchecked Sendable {
    private let rows: UnsafeMutablePointer<UInt32>
    private let rowCount: Int
    private let small: UnsafeMutablePointer<Int16>
    private let blocks: UnsafeMutablePointer<UInt64>
    private static let blockWords = (0x110000 >> 8) / 64

    init() {
        rowCount = foldTableRows.count / 4
        rows = .allocate(capacity: foldTableRows.count)
        rows.initialize(from: foldTableRows, count: foldTableRows.count)
        small = .allocate(capacity: 0x800 - 0x80)
        small.initialize(repeating: -1, count: 0x800 - 0x80)
        blocks = .allocate(capacity: Self.blockWords)
        blocks.initialize(repeating: 0, count: Self.blockWords)
        for r in 0..<rowCount {
            let scalar = Int(rows[r * 4])
            if scalar < 0x800 { small[scalar - 0x80] = Int16(r) }
            blocks[scalar >> 14] |= 1 << UInt64((scalar >> 8) & 63)
        }
    }

    @inline(__always)
    private func row(of scalar: UInt32) -> Int? {
        if scalar < 0x80 { return nil }
        if scalar < 0x800 {
            let r = small[Int(scalar) &- 0x80]
            return r < 0 ? nil : Int(r)
        }
        let block = Int(scalar >> 8)
        guard block < Self.blockWords &* 64, blocks[block >> 6] & (1 << UInt64(block & 63)) != 0 else {
            return nil
        }
        var low = 0
        var high = rowCount
        while low < high {
            let mid = (low &+ high) >> 1
            let key = rows[mid &* 4]
            if key == scalar { return mid }
            if key < scalar { low = mid &+ 1 } else { high = mid }
        }
        return nil
    }

    @inline(__always)
    func fold(_ scalar: UInt32, caseFold: Bool, stripDiacritics: Bool) -> UInt32 {
        if scalar < 0x80 {
            if caseFold && scalar >= 0x41 && scalar <= 0x5A { return scalar | 0x20 }
            return scalar
        }
        guard caseFold || stripDiacritics, let r = row(of: scalar) else { return scalar }
        let column = caseFold ? (stripDiacritics ? 3 : 1) : 2
        return rows[r &* 4 &+ column]
    }
}
