import CPickScan
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

/// The candidate lines: one growing byte store, fixed-size records, folded forms made once.
///
/// Input arrives in chunks (`writableSpace`, then `commit`); lines end at `separator`
/// (`\n`, or NUL with `--read0`). A line's bytes are kept exactly as read, minus the
/// separator. One thread appends; searches on other threads see the lines below `count`.
public final class LineStore: @unchecked Sendable {
    /// The byte that ends a line.
    public let separator: UInt8
    /// Whether tabs split lines into fields (false with `--plain`).
    public let parsesFields: Bool

    /// Lines `0..<compact.count` are compact records (lines of adopted memory); the lines
    /// after them are in `records`. Once a line goes to `records`, every later one does.
    let compact: PagedArray<CompactRecord>
    let records: PagedArray<LineRecord>
    /// Where the adopted bytes that compact records count from start.
    private var compactBase: UnsafePointer<UInt8>? = nil
    /// Where the next line must start to get a compact record; nil once that cannot be.
    private var compactNext: UnsafePointer<UInt8>? = nil
    let extras = PagedArray<LineExtra>()
    private let sectionNames = PagedArray<(UnsafePointer<UInt8>, Int)>()
    /// Open-addressing table of section ids (0: empty), `sectionBucketCount` a power of two.
    /// A name of up to 8 bytes is also kept in its bucket as a word (and its length), so
    /// finding it compares one word instead of bytes elsewhere (years, short categories).
    private var sectionBuckets: UnsafeMutablePointer<UInt32> = .allocate(capacity: 64)
    private var sectionBucketWords: UnsafeMutablePointer<UInt64> = .allocate(capacity: 64)
    private var sectionBucketLengths: UnsafeMutablePointer<UInt8> = .allocate(capacity: 64)
    private var sectionBucketCount = 64

    private var blocks: [UnsafeMutablePointer<UInt8>] = []
    /// Memory lent by the caller (`adopt`), released when the store goes.
    private var lent: [() -> Void] = []
    /// Whether the current block is lent memory, which is never written or grown.
    private var blockIsLent = false
    private var block: UnsafeMutablePointer<UInt8>? = nil
    private var blockCapacity = 0
    private var used = 0
    private var lineStart = 0
    private var foldArena = ByteArena()
    /// The lines `pick_scan_lines` found in bulk, a batch at a time.
    private static let scanBatch = 256
    private let scanned = UnsafeMutablePointer<pick_line_end>.allocate(capacity: LineStore.scanBatch)
    /// What the scan knows of the line being read: whether it is ASCII so far, and the
    /// offset of its first tab (-1 for none yet).
    private var lineIsASCII = true
    private var lineFirstTab = -1
    /// The offset of the line's second tab (where its section ends), -1 for none yet.
    private var lineSecondTab = -1
    private var finished = false
    private let finishedFlag = Atomic<Bool>(false)

    /// Whether input has ended (`finish()` was called); safe from any thread.
    public var isFinished: Bool { finishedFlag.load(ordering: .acquiring) }

    /// `large`: the input is known to be large (half of a big file), so the records start
    /// in large regions.
    public init(separator: UInt8 = 0x0A, parsesFields: Bool = true, large: Bool = false) {
        self.separator = separator
        self.parsesFields = parsesFields
        records = PagedArray(large: large)
        compact = PagedArray(large: large)
        sectionBuckets.initialize(repeating: 0, count: sectionBucketCount)
        sectionBucketWords.initialize(repeating: 0, count: sectionBucketCount)
        sectionBucketLengths.initialize(repeating: 0, count: sectionBucketCount)
    }

    deinit {
        for b in blocks { free(b) }
        for release in lent { release() }
        sectionBuckets.deallocate()
        sectionBucketWords.deallocate()
        sectionBucketLengths.deallocate()
        scanned.deallocate()
    }

    /// Lines visible to searches.
    public var count: Int {
        // `records` first: once it holds a line, `compact` is complete (see `publish`).
        let wide = records.count
        return compact.count &+ wide
    }

    /// Makes every added line visible to searches: compact records before the others.
    private func publish() {
        compact.publish()
        records.publish()
    }

    /// Adds a line's record: compact when it continues the adopted bytes line after line.
    @inline(__always)
    private func append(_ r: LineRecord) {
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

    /// Whether everything written so far ends at a line's end (no line half read).
    public var endsAtLineEnd: Bool { used == lineStart }

    /// Space to read more input into: at least 64 KiB. Call `commit` with the bytes written.
    public func writableSpace() -> UnsafeMutableRawBufferPointer {
        if blockCapacity - used < Tunables.Store.leastFreeBytes { startBlock() }
        return UnsafeMutableRawBufferPointer(start: block! + used, count: blockCapacity - used)
    }

    /// Takes `n` bytes just written into `writableSpace()`, adding every complete line.
    ///
    /// Hot path: from a line's start, `pick_scan_lines` finds ASCII lines in bulk, 64 bytes
    /// at a time, with their first two tabs. A line that is not ASCII, or not ended yet, goes
    /// to a pass sixteen bytes at a time (`pick_find_special`) that stops only at a separator,
    /// at a line's first two tabs, and at its first non-ASCII byte: whether the line is ASCII
    /// and where its fields start are known when it ends.
    public func commit(_ n: Int) {
        guard n > 0, let base = block else { return }
        var i = used
        used += n
        let end = used
        let separator = self.separator
        // Tabs matter until a line's second (the section's end) is found; without fields
        // never. Not looking for them is looking for the separator twice. Likewise a line
        // known not to be ASCII stops looking at high bits.
        let tabByte: UInt8 = parsesFields ? 0x09 : separator
        var tab = lineSecondTab < 0 ? tabByte : separator
        var high: UInt8 = lineIsASCII ? 0x80 : 0
        let batch = Self.scanBatch, found = scanned
        while i < end {
            if i == lineStart {
                // At a line's start: ASCII lines in bulk (most input), a batch at a time.
                var resume = i
                let count = pick_scan_lines(base, i, end, separator, tabByte, found, batch, &resume)
                for k in 0..<count {
                    let line = found[k]
                    lineFirstTab = line.tab1
                    lineSecondTab = line.tab2
                    addLine(UnsafePointer(base + lineStart), line.end &- lineStart)
                    lineStart = line.end &+ 1
                }
                i = resume
                if count == batch { continue }
                // A line that is not ASCII, or not ended yet: the scan below, byte by byte.
                if i >= end { break }
            }
            let at = pick_find_special(base, i, end, separator, tab, high)
            if at >= end { break }
            let b = base[at]
            if b == separator {
                addLine(UnsafePointer(base + lineStart), at &- lineStart)
                lineStart = at &+ 1
                tab = tabByte
                high = 0x80
            } else if b == tab {
                if lineFirstTab < 0 {
                    lineFirstTab = at &- lineStart
                } else {
                    lineSecondTab = at &- lineStart
                    tab = separator
                }
            } else {
                lineIsASCII = false
                high = 0
            }
            i = at &+ 1
        }
        publish()
    }

    /// Takes input that is already in memory (a mapped file) without copying it: its lines
    /// point into `bytes`, which must stay valid and unchanged until `release` is called
    /// when the store goes. Lines are added `chunk` bytes at a time, calling `onChunk`
    /// after each, so searches can start before the end. More input may follow as usual.
    /// `beforeChunk` sees each chunk's bytes just before its lines are added.
    public func adopt(_ bytes: UnsafeRawBufferPointer, chunk: Int = 1 << 20,
                      beforeChunk: (UnsafeRawBufferPointer) -> Void = { _ in }, onChunk: () -> Void = {},
                      release: @escaping () -> Void) {
        lent.append(release)
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if used > lineStart {
            // An unfinished line is pending: it continues in the adopted bytes, so copy.
            var at = 0
            while at < bytes.count {
                let piece = UnsafeRawBufferPointer(rebasing: bytes[at..<min(at + chunk, bytes.count)])
                beforeChunk(piece)
                append(piece)
                onChunk()
                at += piece.count
            }
            return
        }
        block = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        if compact.appendedCount == 0 && records.appendedCount == 0 {
            // Its lines will lie one after the other: compact records.
            compactBase = UnsafePointer(block!)
            compactNext = compactBase
        }
        blockIsLent = true
        blockCapacity = bytes.count
        used = 0
        lineStart = 0
        while used < blockCapacity {
            let n = min(chunk, blockCapacity - used)
            beforeChunk(UnsafeRawBufferPointer(start: block! + used, count: n))
            commit(n)
            onChunk()
        }
    }

    /// Appends every line of `other`, a store that read the continuation of this store's
    /// input on another thread (a large mapped file is scanned in two halves at once), and
    /// takes over its unfinished last line, which more input may still continue. This
    /// store must end at a line's end. Lines keep their bytes where they are; section ids
    /// are renumbered into this store's, and `other` is left empty.
    public func appendLines(of other: LineStore) {
        precondition(used == lineStart && !other.finished, "appendLines: a line is unfinished here")
        let sectionIDs = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: other.sectionCount + 1)
        defer { sectionIDs.deallocate() }
        sectionIDs[0] = 0
        for id in 0..<other.sectionCount {
            let (p, n) = other.sectionNames[id]
            sectionIDs[id + 1] = sectionID(p, n)
        }
        foldArena.takeBlocks(of: &other.foldArena)
        // The other's record extra, with its section renumbered into this store's ids.
        func renumbered(_ extra: UInt32, length: @autoclosure () -> UInt32) -> UInt32 {
            if extra & LineRecord.packedBit != 0 {
                let section = sectionIDs[LineRecord.packedSection(extra)]
                if section < LineRecord.sectionLimit {
                    return extra & ~LineRecord.sectionBits | section << LineRecord.sectionShift
                }
                // Past the ids a record can hold: the line's title and section move to an
                // extra, which matches the line as it is (folded stays nil).
                extras.append(LineExtra(folded: nil, foldedLength: length(),
                                        titleLength: extra & (LineRecord.titleLimit - 1), section: section))
                return UInt32(extras.appendedCount)
            }
            guard extra != 0 else { return 0 }
            var e = other.extras[Int(extra) - 1]
            e.section = sectionIDs[Int(e.section)]
            extras.append(e)
            return UInt32(extras.appendedCount)
        }
        // Each page of the other's records is dropped once copied: the two copies never
        // stand side by side in memory.
        func copied(_ j: Int) {
            guard j & 0x3FFF == 0x3FFF else { return }
            if j < otherCompact {
                // (Kept until the next page's first line, which reads this one's last end.)
                if j >= 0x4000 { other.compact.discardPage(holding: j &- 0x4000) }
            } else {
                other.records.discardPage(holding: j &- otherCompact)
            }
            extras.publish()
            publish()
        }
        let otherCount = other.count
        let otherCompact = other.compact.count
        var j = 0
        if let next = compactNext, let otherBase = other.compactBase, next == otherBase, otherCompact > 0,
           Int(other.compact[otherCompact - 1].end) + (otherBase - compactBase!) < Int(UInt32.max) {
            // The other's lines continue this store's adopted bytes: their compact records
            // carry over with their ends moved by where the other's bytes start.
            let shift = UInt32(otherBase - compactBase!)
            // A page of the other's records at a time, so the page it reads can go after.
            while j < otherCompact {
                let n = min(0x4000 &- (j & 0x3FFF), otherCompact &- j)
                let first = j
                compact.append(count: n) { k in
                    let c = other.compact[first &+ k]
                    guard c.extra != 0 else { return CompactRecord(end: c.end &+ shift, extra: 0) }
                    // (The length, from the previous line's end, only in the rare case it is needed.)
                    return CompactRecord(end: c.end &+ shift, extra: renumbered(
                        c.extra, length: c.end &- (first &+ k == 0 ? 0 : other.compact[first &+ k &- 1].end &+ 1)))
                }
                j &+= n
                copied(j &- 1)
            }
            compactNext = compactBase! + Int(other.compact[otherCompact - 1].end &+ shift) + 1
        }
        while j < otherCount {
            var r = other.record(j)
            r.extra = renumbered(r.extra, length: r.length)
            append(r)
            copied(j)
            j &+= 1
        }
        extras.publish()
        publish()
        // The other's last line, if unfinished, is now this store's.
        blocks.append(contentsOf: other.blocks)
        other.blocks = []
        lent.append(contentsOf: other.lent)
        other.lent = []
        block = other.block
        blockIsLent = other.blockIsLent
        blockCapacity = other.blockCapacity
        used = other.used
        lineStart = other.lineStart
        lineIsASCII = other.lineIsASCII
        lineFirstTab = other.lineFirstTab
        lineSecondTab = other.lineSecondTab
        // Its unfinished line continues its own adopted bytes, one after this store's lines.
        if compactNext != nil && other.compactNext != nil && records.appendedCount == 0 {
            compactNext = other.compactNext
        } else {
            compactNext = nil
        }
        other.block = nil
    }

    /// Appends `bytes` as input (for tests and built-in lists).
    public func append<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        var rest = bytes[...]
        while !rest.isEmpty {
            let space = writableSpace()
            let n = min(space.count, rest.count)
            UnsafeMutableRawBufferPointer(rebasing: space[0..<n]).copyBytes(from: rest.prefix(n))
            rest = rest.dropFirst(n)
            commit(n)
        }
    }

    /// Ends input: a last line without a separator still counts.
    public func finish() {
        guard !finished else { return }
        finished = true
        if let base = block, used > lineStart {
            addLine(UnsafePointer(base + lineStart), used - lineStart)
            lineStart = used
        }
        publish()
        finishedFlag.store(true, ordering: .releasing)
    }

    private func startBlock() {
        let pending = used - lineStart
        // Small inputs get small blocks; past a few MiB, large blocks on huge pages, which
        // cut the page faults of loading a large input (bench/NOTES.md).
        let size = blocks.count < Tunables.Store.smallBlocks ? Tunables.Store.blockBytes : Tunables.Store.largeBlockBytes
        let capacity = max(size, (pending + Tunables.Store.leastFreeBytes) * 2)
        if let old = block, lineStart == 0, pending > 0, !blockIsLent {
            // The block holds only one unfinished line: grow it in place of copying twice.
            let grown = realloc(old, capacity)!.assumingMemoryBound(to: UInt8.self)
            blocks[blocks.count - 1] = grown
            block = grown
            blockCapacity = capacity
            return
        }
        let fresh = Self.allocateBlock(capacity)
        if let old = block, pending > 0 {
            fresh.update(from: old + lineStart, count: pending)
        }
        blocks.append(fresh)
        blockIsLent = false
        block = fresh
        blockCapacity = capacity
        used = pending
        lineStart = 0
    }

    private static func allocateBlock(_ capacity: Int) -> UnsafeMutablePointer<UInt8> {
        #if os(Linux)
        if capacity >= Tunables.Store.largeBlockBytes {
            var memory: UnsafeMutableRawPointer? = nil
            if posix_memalign(&memory, 1 << 21, capacity) == 0, let memory {
                _ = madvise(memory, capacity, 14 /* MADV_HUGEPAGE */)
                return memory.assumingMemoryBound(to: UInt8.self)
            }
        }
        #endif
        return malloc(capacity)!.assumingMemoryBound(to: UInt8.self)
    }

    /// Whether `folded` is `raw` with ASCII letters in lower case.
    @inline(__always)
    private static func foldsToItself(_ raw: UnsafePointer<UInt8>, _ folded: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        for k in 0..<n where lowerASCII(raw[k]) != folded[k] { return false }
        return true
    }

    /// Adds the line the scan has just ended (`lineIsASCII`, `lineFirstTab` and
    /// `lineSecondTab` describe it). A plain ASCII line (most input) is a record and no more.
    @inline(__always)
    private func addLine(_ start: UnsafePointer<UInt8>, _ length: Int) {
        precondition(length < Int(UInt32.max), "a line longer than 4 GiB")
        let ascii = lineIsASCII
        let titleEnd = lineFirstTab
        let secondTab = lineSecondTab
        lineIsASCII = true
        lineFirstTab = -1
        lineSecondTab = -1
        if ascii && titleEnd < 0 {
            append(LineRecord(start: start, length: UInt32(length), extra: 0))
            return
        }
        addLine(start, length, ascii: ascii, titleEnd: titleEnd, secondTab: secondTab)
    }

    /// A line with fields or non-ASCII bytes: its title's end, its section, and its folded
    /// form when matching cannot use its bytes as they are.
    private func addLine(_ start: UnsafePointer<UInt8>, _ length: Int, ascii: Bool, titleEnd: Int, secondTab: Int) {
        var extra = LineExtra(folded: nil, foldedLength: UInt32(length),
                              titleLength: UInt32(length), section: 0)
        if titleEnd >= 0 {
            // Only the title's end and the section are needed here (as LineFields.parse
            // would split them); the matcher splits the rest when it needs it.
            let sectionEnd = secondTab >= 0 ? secondTab : length
            extra.titleLength = UInt32(titleEnd)
            if sectionEnd > titleEnd + 1 { extra.section = sectionID(start + titleEnd + 1, sectionEnd - titleEnd - 1) }
        }
        var matchesRaw = ascii
        var out: UnsafeMutablePointer<UInt8>? = nil
        var n = 0
        if !ascii {
            out = foldArena.reserve(length * 3)
            n = UTF8Codec.transform(start, from: 0, to: length, into: out!, caseFold: true, stripDiacritics: true)
            // Most non-ASCII text (CJK, emoji, lower-case accents already plain) folds to
            // itself but for ASCII case, which matching folds on the fly: no copy needed.
            matchesRaw = n == length && Self.foldsToItself(start, out!, n)
        }
        if matchesRaw && extra.titleLength < LineRecord.titleLimit && extra.section < LineRecord.sectionLimit {
            let packed = LineRecord.packedBit | extra.section << LineRecord.sectionShift | (ascii ? 0 : LineRecord.nonASCIIBit)
                | extra.titleLength
            append(LineRecord(start: start, length: UInt32(length), extra: packed))
            return
        }
        if !matchesRaw, let out {
            foldArena.commit(n)
            extra.folded = UnsafePointer(out)
            extra.foldedLength = UInt32(n)
        }
        extras.append(extra)
        extras.publish()
        append(LineRecord(start: start, length: UInt32(length), extra: UInt32(extras.appendedCount)))
    }

    /// The id (1-based) of a section name, adding it the first time it is seen.
    /// Hot path (once per line with a section): an open-addressing table of ids.
    private func sectionID(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt32 {
        let mask = sectionBucketCount &- 1
        if n <= 8 {
            let word = Self.word(p, n)
            var slot = Self.slot(word: word, n, mask: mask)
            while true {
                let id = sectionBuckets[slot]
                if id == 0 { return addSection(p, n, slot: slot) }
                if sectionBucketWords[slot] == word && Int(sectionBucketLengths[slot]) == n { return id }
                slot = (slot &+ 1) & mask
            }
        }
        var slot = Int(truncatingIfNeeded: Self.sectionHash(p, n)) & mask
        while true {
            let id = sectionBuckets[slot]
            if id == 0 { return addSection(p, n, slot: slot) }
            let (q, m) = sectionNames[Int(id) &- 1]
            if m == n && Self.sameBytes(q, p, n) { return id }
            slot = (slot &+ 1) & mask
        }
    }

    private func addSection(_ p: UnsafePointer<UInt8>, _ n: Int, slot: Int) -> UInt32 {
        sectionNames.append((p, n))
        sectionNames.publish()
        let id = UInt32(sectionNames.appendedCount)
        sectionBuckets[slot] = id
        sectionBucketWords[slot] = n <= 8 ? Self.word(p, n) : 0
        sectionBucketLengths[slot] = n <= 8 ? UInt8(n) : 0xFF
        if sectionNames.appendedCount * 2 > sectionBucketCount { rehashSections() }
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

    /// A name's first slot, as `sectionID` looks for it.
    @inline(__always)
    private static func slot(_ p: UnsafePointer<UInt8>, _ n: Int, mask: Int) -> Int {
        n <= 8 ? slot(word: word(p, n), n, mask: mask) : Int(truncatingIfNeeded: sectionHash(p, n)) & mask
    }

    @inline(__always)
    private static func sectionHash(_ p: UnsafePointer<UInt8>, _ n: Int) -> UInt64 {
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

    private func rehashSections() {
        let count = sectionBucketCount * 2
        let buckets = UnsafeMutablePointer<UInt32>.allocate(capacity: count)
        let words = UnsafeMutablePointer<UInt64>.allocate(capacity: count)
        let lengths = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
        buckets.initialize(repeating: 0, count: count)
        words.initialize(repeating: 0, count: count)
        lengths.initialize(repeating: 0, count: count)
        let mask = count - 1
        for index in 0..<sectionNames.appendedCount {
            let (p, n) = sectionNames[index]
            var slot = Self.slot(p, n, mask: mask)
            while buckets[slot] != 0 { slot = (slot + 1) & mask }
            buckets[slot] = UInt32(index + 1)
            words[slot] = n <= 8 ? Self.word(p, n) : 0
            lengths[slot] = n <= 8 ? UInt8(n) : 0xFF
        }
        sectionBuckets.deallocate()
        sectionBucketWords.deallocate()
        sectionBucketLengths.deallocate()
        sectionBuckets = buckets
        sectionBucketWords = words
        sectionBucketLengths = lengths
        sectionBucketCount = count
    }

    // MARK: Reading lines

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

    /// Starts loading line `index`'s record.
    @inline(__always)
    func prefetchRecord(of index: Int) {
        let compactCount = compact.count
        pick_prefetch(index < compactCount ? compact.address(of: index) : records.address(of: index &- compactCount))
    }

    /// The line's fields as ranges of `bytes(of:)`; with `--plain` the whole line is the title.
    public func fields(of index: Int) -> LineFields {
        fields(of: record(index))
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
        let sectionEnd = section == 0 ? titleEnd + 1 : titleEnd + 1 + sectionNames[section - 1].1
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

    /// The 1-based section id of the line, 0 when it has none.
    @inline(__always)
    public func section(of index: Int) -> Int {
        let extra = self.extra(of: index)
        if extra == 0 { return 0 }
        if extra & LineRecord.packedBit != 0 { return LineRecord.packedSection(extra) }
        return Int(extras[Int(extra) - 1].section)
    }

    /// Number of distinct sections seen so far.
    public var sectionCount: Int { sectionNames.count }

    // MARK: Characters of lines

    /// Which characters each line holds, for the lines below `characterSetCount`: a search
    /// passes over a line that lacks one of its query's characters without reading it. Bits
    /// as `CharacterSets` says; a line with a non-ASCII byte has them all (its folded form
    /// may hold letters its bytes do not). Noted after input has loaded, between searches.
    private let characterSets = PagedArray<UInt32>()

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

    /// The name of section `id` (1-based), as bytes.
    public func sectionName(_ id: Int) -> UnsafeBufferPointer<UInt8> {
        let (p, n) = sectionNames[id - 1]
        return UnsafeBufferPointer(start: p, count: n)
    }
}

extension LineFields {
    init(title: Range<Int>) {
        self.init(title: title, section: nil, keywords: nil, shortcut: nil)
    }
}

/// Append-only bytes in blocks that never move (the folded forms), freed when it goes.
struct ByteArena: ~Copyable {
    private var blocks: [UnsafeMutablePointer<UInt8>] = []
    private var current: UnsafeMutablePointer<UInt8>? = nil
    private var capacity = 0
    private var used = 0

    /// A place for up to `n` bytes; `commit` how many were written.
    mutating func reserve(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        if current == nil || capacity - used < n {
            capacity = max(1 << 20, n)
            current = .allocate(capacity: capacity)
            blocks.append(current!)
            used = 0
        }
        return current! + used
    }

    mutating func commit(_ n: Int) { used += n }

    deinit {
        for b in blocks { b.deallocate() }
    }

    /// Takes over `other`'s blocks (their bytes stay where they are), leaving it empty.
    mutating func takeBlocks(of other: inout ByteArena) {
        blocks.append(contentsOf: other.blocks)
        other.blocks = []
        other.current = nil
        other.capacity = 0
        other.used = 0
    }
}

/// The character bits of `LineStore.characterSet(of:)`: bit k for the ASCII letter 'a' + k
/// in either case, then the digits 0-4 and 5-9, '.', '_', '-' and '/'. Other ASCII bytes
/// have none; a non-ASCII byte has every bit.
public enum CharacterSets {
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
        case UInt8(ascii: "0")...UInt8(ascii: "4"): return 1 << 26
        case UInt8(ascii: "5")...UInt8(ascii: "9"): return 1 << 27
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
