import CPickScan
/// The character bits of `LineStore.characterSet(of:)`: bit k for the ASCII letter 'a' + k
/// in either case, then the digits, white space and control bytes (0x20 and below: a first
/// key's bounds ask whether a line has any, `pick_record_one64`), '.', '_', '-' and '/'.
/// Other ASCII bytes have none; a non-ASCII byte has every bit.
public enum CharacterSets {
    /// The bit of white space and control bytes.
    static let white: UInt32 = 1 << 27

    static let table: UnsafePointer<UInt32> = {
        let table = UnsafeMutablePointer<UInt32>.allocate(capacity: 256)
        for byte in 0..<256 { table[byte] = bits(UInt8(byte)) }
        return UnsafePointer(table)
    }()

    private static func bits(_ byte: UInt8) -> UInt32 {
        switch byte {
        case 0x80...: return UInt32.max
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return 1 << UInt32(byte - UInt8(ascii: "a"))
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return 1 << UInt32(byte - UInt8(ascii: "A"))
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return 1 << 26
        case 0...0x20: return white
        case UInt8(ascii: "."): return 1 << 28
        case UInt8(ascii: "_"): return 1 << 29
        case UInt8(ascii: "-"): return 1 << 30
        case UInt8(ascii: "/"): return 1 << 31
        default: return 0
        }
    }

    /// The bits every line that `query` matches has: the characters of each group that is a
    /// single positive term (any line it matches holds them, in one field or another). Bytes
    /// of non-ASCII characters stand for no bit.
    static func required(by query: Query) -> UInt32 {
        var required: UInt32 = 0
        for group in query.groups where group.count == 1 && !group[0].inverse {
            for byte in group[0].text where byte < 0x80 { required |= table[Int(byte)] }
        }
        return required
    }
}

/// The lines that hold every character a query requires, 64 at a time: the per-line check
/// of `LineMatcher.lookAhead`, made four lines a step (`pick_holding64`) before a line is
/// even looked up. A value of pointers, for the scan's hot loop.
struct CharacterFilter {
    private let pages: UnsafePointer<UnsafeMutablePointer<UInt32>?>
    private let required: UInt32
    /// Lines below this have their characters noted; the others pass.
    private let noted: Int

    /// The filter for `required` over `store`'s noted lines; nil when it would pass every line.
    init?(store: LineStore, required: UInt32) {
        noted = store.characterSetCount
        guard required != 0, noted >= 64 else { return nil }
        pages = store.characterSets.pages
        self.required = required
    }

    /// Bit k set when line `start + k` may hold the characters (`start` a multiple of 64).
    @inline(__always)
    func holding(_ start: Int) -> UInt64 {
        let shift = PagedArray<UInt32>.elementsPerPageShift
        if start &+ 64 <= noted {
            let page = pages[start >> shift].unsafelyUnwrapped
            return pick_holding64(page + (start & ((1 << shift) &- 1)), required)
        }
        var bits: UInt64 = ~0
        var k = start
        while k < noted {
            let set = pages[k >> shift].unsafelyUnwrapped[k & ((1 << shift) &- 1)]
            if set & required != required { bits &= ~(1 << UInt64(k &- start)) }
            k &+= 1
        }
        return bits
    }
}

extension LineStore {
    /// Lines whose characters are noted (see `noteCharacters`).
    public var characterSetCount: Int { characterSets.count }

    /// The characters of line `index` (below `characterSetCount`).
    @inline(__always)
    func characterSet(of index: Int) -> UInt32 { characterSets[index] }

    /// Notes the characters of up to `limit` more lines; false when lines read so far are
    /// left without. One thread at a time (the one that searches, between searches).
    public func noteCharacters(limit: Int) -> Bool {
        let start = characterSets.appendedCount
        let end = min(count, start &+ limit)
        let bits = CharacterSets.table
        for i in start..<end {
            let r = record(i)
            let p = r.start
            let n = Int(r.length)
            // Four accumulators: the loads, not the ors, set the pace.
            var a: UInt32 = 0, b: UInt32 = 0, c: UInt32 = 0, d: UInt32 = 0
            var k = 0
            while k &+ 4 <= n {
                a |= bits[Int(p[k])]
                b |= bits[Int(p[k &+ 1])]
                c |= bits[Int(p[k &+ 2])]
                d |= bits[Int(p[k &+ 3])]
                k &+= 4
            }
            while k < n {
                a |= bits[Int(p[k])]
                k &+= 1
            }
            characterSets.append(a | b | c | d)
        }
        characterSets.publish()
        return end == count
    }
}
