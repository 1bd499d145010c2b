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
        var counts = [Int](repeating: 0, count: sectionCount + 1)
        var order: [Int] = []
        for (i, line) in ranked.enumerated() {
            if i &+ 16 < ranked.count { prefetch(Int(ranked[i &+ 16])) }
            let s = sectionOf(Int(line))
            if counts[s] == 0 { order.append(s) }
            counts[s] += 1
        }
        if order.count == 1 { return (ranked, [SectionGroup(section: order[0], range: 0..<ranked.count)]) }
        var starts = [Int](repeating: 0, count: sectionCount + 1)
        var groups: [SectionGroup] = []
        var offset = 0
        for s in order {
            starts[s] = offset
            groups.append(SectionGroup(section: s, range: offset..<offset + counts[s]))
            offset += counts[s]
        }
        var out = [Int32](repeating: 0, count: ranked.count)
        for (i, line) in ranked.enumerated() {
            if i &+ 16 < ranked.count { prefetch(Int(ranked[i &+ 16])) }
            let s = sectionOf(Int(line))
            out[starts[s]] = line
            starts[s] += 1
        }
        return (out, groups)
    }
}
