import CPickScan
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Loading input into the line store: bytes arrive in blocks, and the bulk scan finds the
// lines in them (with their first two tabs, and whether they are ASCII), adding a record
// for each.

extension LineStore {
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
                if count > 0 && !addCompactly(base, found, count) {
                    for k in 0..<count {
                        let line = found[k]
                        lineFirstTab = line.tab1
                        lineSecondTab = line.tab2
                        addLine(UnsafePointer(base + lineStart), line.end &- lineStart)
                        lineStart = line.end &+ 1
                    }
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

    /// The ASCII lines the bulk scan found (from `lineStart`), as compact records written a
    /// page at a time, when they continue the adopted bytes (a mapped file's lines): the
    /// per-line checks of `append` and the loader's state are left out. False, having added
    /// nothing, when the lines do not continue them.
    @inline(__always)
    private func addCompactly(_ base: UnsafeMutablePointer<UInt8>, _ found: UnsafeMutablePointer<pick_line_end>,
                              _ count: Int) -> Bool {
        guard let next = compactNext, let origin = compactBase, next == UnsafePointer(base + lineStart) else {
            return false
        }
        let shift = UnsafePointer(base) - origin
        guard shift + found[count &- 1].end < Int(UInt32.max) else { return false }
        var start = lineStart
        compact.append(count: count) { k in
            let line = found[k]
            let lineBase = UnsafePointer(base + start)
            let length = line.end &- start
            start = line.end &+ 1
            precondition(length < Int(UInt32.max), "a line longer than 4 GiB")
            let extra = line.tab1 < 0 ? 0 : fieldsExtra(lineBase, length, titleEnd: line.tab1, secondTab: line.tab2)
            return CompactRecord(end: UInt32(truncatingIfNeeded: shift &+ line.end), extra: extra)
        }
        lineStart = start
        compactNext = UnsafePointer(base + start)
        return true
    }

    /// The id of the section of a line whose title ends at `titleEnd` (0: none), as
    /// LineFields.parse would split it; the matcher splits the rest when it needs it.
    @inline(__always)
    private func sectionID(_ start: UnsafePointer<UInt8>, _ length: Int, titleEnd: Int, secondTab: Int) -> UInt32 {
        let n = (secondTab >= 0 ? secondTab : length) &- titleEnd &- 1
        guard n > 0 else { return 0 }
        let p = start + titleEnd + 1
        // A short section read as one word when eight bytes of the line are there to read.
        if n <= 8 && titleEnd &+ 9 <= length {
            let word = UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
            return sections.id(word: n == 8 ? word : word & ((1 &<< UInt64(n &* 8)) &- 1), p, n)
        }
        return sections.id(of: p, n)
    }

    /// The record extra of an ASCII line with fields: packed (its title's length and section
    /// in the record) when they fit, else the index of an extra holding them.
    @inline(__always)
    private func fieldsExtra(_ start: UnsafePointer<UInt8>, _ length: Int, titleEnd: Int, secondTab: Int) -> UInt32 {
        let section = sectionID(start, length, titleEnd: titleEnd, secondTab: secondTab)
        if titleEnd < Int(LineRecord.titleLimit) && section < LineRecord.sectionLimit {
            return LineRecord.packedBit | section << LineRecord.sectionShift | UInt32(titleEnd)
        }
        extras.append(LineExtra(folded: nil, foldedLength: UInt32(length), titleLength: UInt32(titleEnd), section: section))
        extras.publish()
        return UInt32(extras.appendedCount)
    }

    /// A line with fields or non-ASCII bytes: its title's end, its section, and its folded
    /// form when matching cannot use its bytes as they are.
    private func addLine(_ start: UnsafePointer<UInt8>, _ length: Int, ascii: Bool, titleEnd: Int, secondTab: Int) {
        if ascii {
            let extra = titleEnd < 0 ? 0 : fieldsExtra(start, length, titleEnd: titleEnd, secondTab: secondTab)
            append(LineRecord(start: start, length: UInt32(length), extra: extra))
            return
        }
        var extra = LineExtra(folded: nil, foldedLength: UInt32(length),
                              titleLength: UInt32(length), section: 0)
        if titleEnd >= 0 {
            extra.titleLength = UInt32(titleEnd)
            extra.section = sectionID(start, length, titleEnd: titleEnd, secondTab: secondTab)
        }
        // Most non-ASCII text (CJK, emoji, lower-case accents already plain) folds to itself
        // but for ASCII case, which matching folds on the fly: no copy needed.
        let matchesRaw = UTF8Codec.foldsToItself(start, count: length)
        if matchesRaw && extra.titleLength < LineRecord.titleLimit && extra.section < LineRecord.sectionLimit {
            let packed = LineRecord.packedBit | extra.section << LineRecord.sectionShift | LineRecord.nonASCIIBit
                | extra.titleLength
            append(LineRecord(start: start, length: UInt32(length), extra: packed))
            return
        }
        if !matchesRaw {
            let out = foldArena.reserve(length * 3)
            let n = UTF8Codec.transform(start, from: 0, to: length, into: out, caseFold: true, stripDiacritics: true)
            foldArena.commit(n)
            extra.folded = UnsafePointer(out)
            extra.foldedLength = UInt32(n)
        }
        extras.append(extra)
        extras.publish()
        append(LineRecord(start: start, length: UInt32(length), extra: UInt32(extras.appendedCount)))
    }
}
