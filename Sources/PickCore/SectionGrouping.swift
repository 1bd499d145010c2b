/// A run of result lines that share a section (0: lines with no section).
public struct SectionGroup: Sendable, Equatable {
    public var section: Int
    public var range: Range<Int>
}

/// Groups ranked lines by section.
///
/// Groups appear in the order their first line appears in the ranked list; inside a group
/// lines keep their rank. Lines with no section form a group of their own, with no header.
enum SectionGrouping {
    /// Reorders `ranked` (line indexes, best first) into display order, with its groups.
    /// `prefetch`, if given, is told the line whose section will be asked for 16 lines later
    /// (ranked lines lie all over the store).
    static func group(_ ranked: [Int32], sectionCount: Int, sectionOf: (Int) -> Int,
                      prefetch: (Int) -> Void = { _ in }) -> ([Int32], [SectionGroup]) {
        guard !ranked.isEmpty else { return ([], []) }
        guard sectionCount > 0 else { return (ranked, [SectionGroup(section: 0, range: 0..<ranked.count)]) }
        // One pass looks up each line's section (noting it, in a byte when there are few
        // sections) and counts the groups; a second places the lines in noted order.
        if sectionCount < 256 {
            return place(ranked, sectionCount: sectionCount, as: UInt8.self, sectionOf: sectionOf, prefetch: prefetch)
        }
        return place(ranked, sectionCount: sectionCount, as: UInt32.self, sectionOf: sectionOf, prefetch: prefetch)
    }

    private static func place<Noted: FixedWidthInteger>(_ ranked: [Int32], sectionCount: Int, as: Noted.Type,
                                                        sectionOf: (Int) -> Int,
                                                        prefetch: (Int) -> Void) -> ([Int32], [SectionGroup]) {
        let sections = UnsafeMutableBufferPointer<Noted>.allocate(capacity: ranked.count)
        defer { sections.deallocate() }
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: sectionCount + 1)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0)
        var order: [Int] = []
        ranked.withUnsafeBufferPointer { ranked in
            for i in 0..<ranked.count {
                if i &+ 16 < ranked.count { prefetch(Int(ranked[i &+ 16])) }
                let s = sectionOf(Int(ranked[i]))
                if counts[s] == 0 { order.append(s) }
                counts[s] &+= 1
                sections[i] = Noted(truncatingIfNeeded: s)
            }
        }
        if order.count == 1 { return (ranked, [SectionGroup(section: order[0], range: 0..<ranked.count)]) }
        var groups: [SectionGroup] = []
        var offset = 0
        // `counts` becomes each group's next free place.
        for s in order {
            groups.append(SectionGroup(section: s, range: offset..<offset + counts[s]))
            let n = counts[s]
            counts[s] = offset
            offset &+= n
        }
        let out = [Int32](unsafeUninitializedCapacity: ranked.count) { out, initialized in
            ranked.withUnsafeBufferPointer { ranked in
                for i in 0..<ranked.count {
                    let s = Int(sections[i])
                    out[counts[s]] = ranked[i]
                    counts[s] &+= 1
                }
            }
            initialized = ranked.count
        }
        return (out, groups)
    }
}
