#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// How the line store describes a line: where its bytes are (a record), what a line with
// fields or non-ASCII bytes carries beyond that, and how its fields split.

/// Where one candidate line's bytes are. 16 bytes a line; plain ASCII lines need nothing more.
/// Lines of adopted memory (a mapped file) are stored as `CompactRecord`s and read back as this.
struct LineRecord {
    var start: UnsafePointer<UInt8>
    var length: UInt32
    /// 0 for a line of ASCII bytes with no tab. A line that matches as it is (ASCII, or
    /// text that folds to itself but for ASCII case) whose title is under 512 KiB and whose
    /// section is among the first 2047 packs both here (`packedBit` set, title length in
    /// the low 19 bits, `nonASCIIBit`, section id above), which saves a 24-byte
    /// `LineExtra` a line on palettes. Otherwise 1 + index into `extras`.
    var extra: UInt32

    static let packedBit: UInt32 = 1 << 31
    static let nonASCIIBit: UInt32 = 1 << 19
    static let titleLimit: UInt32 = 1 << 19

    /// Whether the line's title length and section are packed in `extra`.
    @inline(__always) var isPacked: Bool { extra & Self.packedBit != 0 }
    @inline(__always) var packedTitleLength: Int { Int(extra & (Self.titleLimit - 1)) }
    @inline(__always) var packedSection: Int { Self.packedSection(extra) }

    /// Where a packed `extra` keeps the section id, and the first id it cannot hold.
    static let sectionShift: UInt32 = 20
    static let sectionBits: UInt32 = 0x7FF << sectionShift
    static let sectionLimit: UInt32 = 1 << 11

    /// The section id of a packed `extra`.
    @inline(__always) static func packedSection(_ extra: UInt32) -> Int { Int((extra & sectionBits) >> sectionShift) }
}

/// The record of a line in adopted memory (a mapped file): 8 bytes instead of 16. Such lines
/// lie one after the other, each one byte (its separator) after the previous, so a line
/// starts where the previous one ended, plus one, and only its end is kept: an offset from
/// the start of the adopted bytes. `extra` is `LineRecord.extra`.
struct CompactRecord {
    var end: UInt32
    var extra: UInt32
}

/// What a line with fields or non-ASCII bytes carries beyond its record.
struct LineExtra {
    /// Case- and diacritic-folded UTF-8 of the whole line (tabs kept), or nil for ASCII.
    var folded: UnsafePointer<UInt8>?
    var foldedLength: UInt32
    var titleLength: UInt32
    /// 0 when the line has no section; otherwise 1 + index into the section names.
    var section: UInt32
}

/// The fields of a line, as byte ranges of its text (raw or folded).
public struct LineFields: Equatable {
    public var title: Range<Int>
    public var section: Range<Int>?
    public var keywords: Range<Int>?
    public var shortcut: Range<Int>?

    /// Splits `TITLE<TAB>SECTION<TAB>KEYWORDS<TAB>SHORTCUT` (each after the title optional).
    /// Empty fields are nil; anything after a fourth tab is ignored. Allocates nothing.
    @inline(__always)
    static func parse(_ bytes: UnsafePointer<UInt8>, count: Int) -> LineFields {
        let t1 = tab(in: bytes, after: 0, count: count)
        guard t1 < count else { return LineFields(title: 0..<count) }
        return rest(bytes, count: count, titleEnd: t1, sectionEnd: tab(in: bytes, after: t1 + 1, count: count))
    }

    /// The same split when the first two tabs are known (`titleEnd`, `sectionEnd`, each
    /// `count` for none): only the rest of the line is searched for tabs.
    @inline(__always)
    static func rest(_ bytes: UnsafePointer<UInt8>, count: Int, titleEnd t1: Int, sectionEnd t2: Int) -> LineFields {
        @inline(__always) func range(_ lo: Int, _ hi: Int) -> Range<Int>? { lo < hi ? lo..<hi : nil }
        guard t1 < count else { return LineFields(title: 0..<count) }
        let t3 = t2 < count ? tab(in: bytes, after: t2 + 1, count: count) : count
        let t4 = t3 < count ? tab(in: bytes, after: t3 + 1, count: count) : count
        return LineFields(title: 0..<t1, section: range(t1 + 1, t2),
                          keywords: t2 < count ? range(t2 + 1, t3) : nil,
                          shortcut: t3 < count ? range(t3 + 1, t4) : nil)
    }

    /// The offset of the first tab at or after `from`, or `count`.
    @inline(__always)
    private static func tab(in bytes: UnsafePointer<UInt8>, after from: Int, count: Int) -> Int {
        guard from < count, let hit = memchr(bytes + from, 0x09, count - from) else { return count }
        return UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - bytes
    }
}

extension LineFields {
    init(title: Range<Int>) {
        self.init(title: title, section: nil, keywords: nil, shortcut: nil)
    }
}
