import CPickScan
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The candidate lines: one growing byte store, fixed-size records, folded forms made once.
///
/// Input arrives in chunks (`writableSpace`, then `commit`); lines end at `separator`
/// (`\n`, or NUL with `--read0`). A line's bytes are kept exactly as read, minus the
/// separator. One thread appends; searches on other threads see the lines below `count`.
public final class LineStore: @unchecked Sendable {
    /// The byte that ends a line.
    public let separator: UInt8
    /// Whether tabs split lines into fields (`--palette`; otherwise a tab is text).
    public let parsesFields: Bool
    /// The store whose lines' lengths the `length` tiebreak reads instead of these (the
    /// lines as read, for the fields `--nth` derives: as in fzf, `--nth` does not change
    /// which line is shorter). Set before any search.
    public internal(set) var lengthsFrom: LineStore? = nil

    // The lines' records (LineRecords.swift).

    /// Lines `0..<compact.count` are compact records (lines of adopted memory); the lines
    /// after them are in `records`. Once a line goes to `records`, every later one does.
    let compact: PagedArray<CompactRecord>
    let records: PagedArray<LineRecord>
    /// Where the adopted bytes that compact records count from start.
    var compactBase: UnsafePointer<UInt8>? = nil
    /// Where the next line must start to get a compact record; nil once that cannot be.
    var compactNext: UnsafePointer<UInt8>? = nil
    let extras = PagedArray<LineExtra>()
    /// The lines' section names (`LineExtra.section`, or packed in `LineRecord.extra`).
    let sections = SectionTable()

    // The input's bytes and the scan through them (LineStore+Loading.swift).

    /// The blocks the store allocated, and memory lent by the caller (`adopt`), released
    /// when the store goes.
    var blocks: [UnsafeMutablePointer<UInt8>] = []
    var lent: [() -> Void] = []
    /// The block input is read into, and whether it is lent memory, which is never
    /// written or grown.
    var block: UnsafeMutablePointer<UInt8>? = nil
    var blockIsLent = false
    var blockCapacity = 0
    /// Bytes of the block written so far, and where the line being read starts.
    var used = 0
    var lineStart = 0
    /// The folded forms of lines that need one.
    var foldArena = ByteArena()
    /// The lines `pick_scan_lines` found in bulk, a batch at a time.
    static let scanBatch = 256
    let scanned = UnsafeMutablePointer<pick_line_end>.allocate(capacity: LineStore.scanBatch)
    /// What the scan knows of the line being read: whether it is ASCII so far, and the
    /// offset of its first tab (-1 for none yet).
    var lineIsASCII = true
    var lineFirstTab = -1
    /// The offset of the line's second tab (where its section ends), -1 for none yet.
    var lineSecondTab = -1
    var finished = false
    let finishedFlag = Atomic<Bool>(false)

    /// Whether input has ended (`finish()` was called); safe from any thread.
    public var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// `large`: the input is known to be large (half of a big file), so the records start
    /// in large regions.
    public init(separator: UInt8 = 0x0A, parsesFields: Bool = true, large: Bool = false) {
        self.separator = separator
        self.parsesFields = parsesFields
        records = PagedArray(large: large)
        compact = PagedArray(large: large)
    }

    deinit {
        for b in blocks { free(b) }
        for release in lent { release() }
        scanned.deallocate()
    }

    /// Lines visible to searches.
    public var count: Int {
        // `records` first: once it holds a line, `compact` is complete (see `publish`).
        let wide = records.count
        return compact.count &+ wide
    }

    /// Makes every added line visible to searches: compact records before the others.
    func publish() {
        compact.publish()
        records.publish()
    }

    /// Adds a line's record: compact when it continues the adopted bytes line after line.
    @inline(__always)
    func append(_ r: LineRecord) {
        if let next = compactNext {
            let end = r.start + Int(r.length) - compactBase.unsafelyUnwrapped
            if r.start == next && end < Int(UInt32.max) {
                compact.append(CompactRecord(end: UInt32(end), extra: r.extra))
                compactNext = r.start + Int(r.length) + 1
                return
            }
            compactNext = nil
        }
        records.append(r)
    }

    /// The record of line `index`.
    @inline(__always)
    func record(_ index: Int) -> LineRecord {
        let compactCount = compact.count
        guard index < compactCount else { return records[index &- compactCount] }
        guard index > 0 else {
            let r = compact[0]
            return LineRecord(start: compactBase.unsafelyUnwrapped, length: r.end, extra: r.extra)
        }
        let (previous, r) = compact.pair(endingAt: index)
        let start = previous.end &+ 1
        return LineRecord(start: compactBase.unsafelyUnwrapped + Int(start), length: r.end &- start, extra: r.extra)
    }

    // MARK: Reading lines

    /// The boundary check of the public readers: a line number from another store (an old
    /// one, before a reload) is a logic slip that must stop pick with a message naming it,
    /// not read another allocation's bytes. One compare; the hot loops use `record`.
    @inline(__always)
    func checkLine(_ index: Int) {
        if UInt(bitPattern: index) >= UInt(bitPattern: count) { LineStore.lineOutOfRange(index, count: count) }
    }

    @inline(never)
    static func lineOutOfRange(_ index: Int, count: Int) -> Never {
        fatalError("pick: line \(index) read from a list of \(count) lines (a line number from another list)")
    }

    /// Whether every byte of the line is ASCII (known from loading, no scan).
    @inline(__always)
    func isASCII(_ index: Int) -> Bool {
        let extra = self.extra(of: index)
        if extra == 0 { return true }
        if extra & LineRecord.packedBit != 0 { return extra & LineRecord.nonASCIIBit == 0 }
        return extras[Int(extra) - 1].folded == nil
    }

    /// The `extra` of line `index`'s record, without working out where the line is.
    @inline(__always)
    func extra(of index: Int) -> UInt32 {
        let compactCount = compact.count
        return index < compactCount ? compact[index].extra : records[index &- compactCount].extra
    }

    /// The line's bytes exactly as read, without its separator.
    public func bytes(of index: Int) -> UnsafeBufferPointer<UInt8> {
        checkLine(index)
        let r = record(index)
        return UnsafeBufferPointer(start: r.start, count: Int(r.length))
    }

    /// Starts loading what printing lines in this order will read: the record of
    /// `order[k + 16]` and the bytes of `order[k + 8]`. Lines in ranked order lie all over
    /// memory; without this every line printed waits for two cache misses in turn.
    @inline(__always)
    public func prefetch(_ order: UnsafeBufferPointer<Int32>, at k: Int) {
        if k &+ 16 < order.count { prefetchRecord(of: Int(order[k &+ 16])) }
        if k &+ 8 < order.count { pick_prefetch(record(Int(order[k &+ 8])).start) }
    }

    /// Copies the lines `order[range]`, each followed by `terminator`, to `bytes` (holding
    /// `capacity` bytes, grown as needed) from its start; returns how many bytes it wrote.
    /// For printing many lines: here the look-ups and the prefetches inline into one loop.
    public func copyLines(_ order: UnsafeBufferPointer<Int32>, _ range: Range<Int>, terminator: UInt8,
                          into bytes: inout UnsafeMutablePointer<UInt8>, capacity: inout Int) -> Int {
        var count = 0
        for k in range {
            prefetch(order, at: k)
            let r = record(Int(order[k]))
            let n = Int(r.length)
            if count &+ n &+ 1 > capacity {
                capacity = max(capacity &* 2, count &+ n &+ 1)
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
                grown.update(from: bytes, count: count)
                bytes.deallocate()
                bytes = grown
            }
            (bytes + count).update(from: r.start, count: n)
            bytes[count &+ n] = terminator
            count &+= n &+ 1
        }
        return count
    }

    /// Starts loading line `index`'s record.
    @inline(__always)
    func prefetchRecord(of index: Int) {
        let compactCount = compact.count
        pick_prefetch(index < compactCount ? compact.address(of: index) : records.address(of: index &- compactCount))
    }

    /// The line's fields as ranges of `bytes(of:)`; without `--palette` the whole line is the title.
    public func fields(of index: Int) -> LineFields {
        checkLine(index)
        return fields(of: record(index))
    }

    /// The fields of a line from its record: a packed record already says where the title
    /// and the section end, so only the keywords are searched for their tab.
    @inline(__always)
    func fields(of r: LineRecord) -> LineFields {
        let count = Int(r.length)
        guard parsesFields, r.extra != 0 else { return LineFields(title: 0..<count) }
        guard r.isPacked else { return LineFields.parse(r.start, count: count) }
        let titleEnd = r.packedTitleLength
        let section = r.packedSection
        let sectionEnd = section == 0 ? titleEnd + 1 : titleEnd + 1 + sections[section - 1].count
        return LineFields.rest(r.start, count: count, titleEnd: titleEnd, sectionEnd: min(sectionEnd, count))
    }

    /// Length in bytes of the line's title.
    @inline(__always)
    func titleLength(of index: Int) -> Int { titleLength(of: index, record: record(index)) }

    /// Length in bytes of the title of line `index`, whose record is `r`.
    @inline(__always)
    func titleLength(of index: Int, record r: LineRecord) -> Int {
        if r.extra == 0 { return Int(r.length) }
        if r.isPacked { return r.packedTitleLength }
        return Int(extras[Int(r.extra) - 1].titleLength)
    }

    /// What the tiebreaks read of the title of line `index` (record `r`), as fzf reads an
    /// item: its length in characters without the white space at either end, and the white
    /// space (bytes) that leads it. Two byte reads for most lines; a line with non-ASCII
    /// bytes is counted (an accented letter is one character, as in fzf's `a á A Á`).
    @inline(__always)
    func titleShape(of index: Int, record r: LineRecord) -> TitleShape {
        let n = titleLength(of: index, record: r)
        let bytes = r.start
        var lead = 0
        while lead < n && TitleShape.isWhite(bytes[lead]) { lead &+= 1 }
        var end = n
        while end > lead && TitleShape.isWhite(bytes[end &- 1]) { end &-= 1 }
        var length = end &- lead
        if r.extra != 0 && !(r.isPacked && r.extra & LineRecord.nonASCIIBit == 0) {
            for k in lead..<end where bytes[k] & 0xC0 == 0x80 { length &-= 1 }
        }
        if let lengthsFrom { length = lengthsFrom.titleLengthForTiebreak(index) }
        return TitleShape(length: length, leadingWhite: lead, text: bytes, count: n)
    }

    @inline(never)
    func titleLengthForTiebreak(_ index: Int) -> Int { titleShape(of: index, record: record(index)).length }

    /// The 1-based section id of the line, 0 when it has none.
    @inline(__always)
    public func section(of index: Int) -> Int {
        checkLine(index)
        let extra = self.extra(of: index)
        if extra == 0 { return 0 }
        if extra & LineRecord.packedBit != 0 { return LineRecord.packedSection(extra) }
        return Int(extras[Int(extra) - 1].section)
    }

    /// Number of distinct sections seen so far.
    public var sectionCount: Int { sections.count }

    // MARK: Characters of lines

    /// Which characters each line holds, for the lines below `characterSetCount`: a search
    /// passes over a line that lacks one of its query's characters without reading it. Bits
    /// as `CharacterSets` says; a line with a non-ASCII byte has them all (its folded form
    /// may hold letters its bytes do not). Noted after input has loaded, between searches.
    let characterSets = PagedArray<UInt32>()

    /// The name of section `id` (1-based), as bytes.
    public func sectionName(_ id: Int) -> UnsafeBufferPointer<UInt8> {
        let name = sections[id - 1]
        return UnsafeBufferPointer(start: name.bytes, count: name.count)
    }
}
