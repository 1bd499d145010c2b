// Merging lanes: a large mapped file is scanned in two halves at once, each half (a lane)
// into a store of its own; the store of the first half then takes over the second's lines.

extension LineStore {
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
            let (p, n) = other.sections[id]
            sectionIDs[id + 1] = sections.id(of: p, n)
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
}
