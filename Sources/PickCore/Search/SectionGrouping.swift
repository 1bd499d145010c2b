/// A run of result lines that share a section (0: lines with no section).
public struct SectionGroup: Sendable, Equatable {
    public var section: Int
    public var range: Range<Int>

    /// The section of the group of close matches (CloseMatches.swift), under a header of its own.
    public static let closeMatches = -1
}

/// Groups ranked lines by section.
///
/// Groups appear in the order their first line appears in the ranked list; inside a group
/// lines keep their rank. Lines with no section form a group of their own, with no header.
enum SectionGrouping {
    /// Reorders `ranked` (line indexes, best first) into display order, with its groups.
    /// `sectionOf` gives a line's section id (0: none).
    static func group(_ ranked: [Int32], sectionCount: Int, sectionOf: (Int) -> Int) -> ([Int32], [SectionGroup]) {
        withoutActuallyEscaping(sectionOf) { sectionOf in
            group(ranked, sectionCount: sectionCount, sections: ClosureSections(sectionOf: sectionOf), prefetches: false)
        }
    }

    /// The same, reading sections from `sections` (a store: its lookups inline into the
    /// loops). With `prefetches`, each line's record is asked for 16 lines ahead: ranked
    /// lines lie all over the store, lines in input order do not.
    static func group<Sections: SectionSource>(_ ranked: [Int32], sectionCount: Int, sections: Sections,
                                                prefetches: Bool) -> ([Int32], [SectionGroup]) {
        guard !ranked.isEmpty else { return ([], []) }
        guard sectionCount > 0 else { return (ranked, [SectionGroup(section: 0, range: 0..<ranked.count)]) }
        // One pass looks up each line's section (noting it, in a byte when there are few
        // sections) and counts the groups; a second places the lines in noted order.
        if sectionCount < 256 {
            return place(ranked, sectionCount: sectionCount, as: UInt8.self, sections: sections, prefetches: prefetches)
        }
        return place(ranked, sectionCount: sectionCount, as: UInt32.self, sections: sections, prefetches: prefetches)
    }

    private static func place<Noted: FixedWidthInteger, Sections: SectionSource>(
        _ ranked: [Int32], sectionCount: Int, as: Noted.Type, sections source: Sections, prefetches: Bool
    ) -> ([Int32], [SectionGroup]) {
        // A long list is looked at in parts on every core: each part counts its own
        // sections, then places its lines after the earlier parts' lines of each group.
        let parts = ranked.count >= 200_000 ? Parallel.cores : 1
        let width = sectionCount + 1
        let sections = UnsafeMutableBufferPointer<Noted>.allocate(capacity: ranked.count)
        defer { sections.deallocate() }
        // counts[p * width + s]: part p's lines of section s, later where they go.
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: parts * width)
        defer { counts.deallocate() }
        counts.initialize(repeating: 0)
        let orders = UnsafeMutableBufferPointer<[Int]>.allocate(capacity: parts)
        _ = orders.initialize(from: repeatElement([], count: parts))
        defer { orders.deinitialize().deallocate() }
        var groupsFound: [SectionGroup] = []
        let out = [Int32](unsafeUninitializedCapacity: ranked.count) { buffer, initialized in
            let target = buffer
            ranked.withUnsafeBufferPointer { ranked in
                func each(_ p: Int, _ pass: Int) {
                    let lo = ranked.count * p / parts, hi = ranked.count * (p + 1) / parts
                    let mine = counts.baseAddress! + p * width
                    if pass == 0 {
                        for i in lo..<hi {
                            if prefetches && i &+ 16 < hi { source.prefetchSection(of: Int(ranked[i &+ 16])) }
                            let s = source.section(of: Int(ranked[i]))
                            if mine[s] == 0 { orders[p].append(s) }
                            mine[s] &+= 1
                            sections[i] = Noted(truncatingIfNeeded: s)
                        }
                    } else {
                        for i in lo..<hi {
                            let s = Int(sections[i])
                            target[mine[s]] = ranked[i]
                            mine[s] &+= 1
                        }
                    }
                }
                func run(_ pass: Int) {
                    Parallel.run(parts) { each($0, pass) }
                }
                run(0)
                // Groups in order of first appearance; each part's lines of a group go after
                // the earlier parts' (counts become places).
                var offset = 0
                var seen = Set<Int>()
                var groups: [SectionGroup] = []
                for p in 0..<parts {
                    for s in orders[p] where seen.insert(s).inserted {
                        let start = offset
                        for q in 0..<parts {
                            let n = counts[q * width + s]
                            counts[q * width + s] = offset
                            offset &+= n
                        }
                        groups.append(SectionGroup(section: s, range: start..<offset))
                    }
                }
                groupsFound = groups
                if groups.count > 1 { run(1) }
            }
            initialized = groupsFound.count > 1 ? ranked.count : 0
        }
        if groupsFound.count <= 1 { return (ranked, groupsFound) }
        return (out, groupsFound)
    }
}

/// Where grouping reads lines' sections from.
protocol SectionSource {
    /// The line's section id, 0 when it has none.
    func section(of line: Int) -> Int
    /// Starts loading what `section(of:)` will read for the line.
    func prefetchSection(of line: Int)
}

extension LineStore: SectionSource {
    @inline(__always)
    func prefetchSection(of line: Int) { prefetchRecord(of: line) }
}

/// Sections given by a closure (tests).
private struct ClosureSections: SectionSource {
    let sectionOf: (Int) -> Int
    func section(of line: Int) -> Int { sectionOf(line) }
    func prefetchSection(of line: Int) {}
}
