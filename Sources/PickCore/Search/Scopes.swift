/// Scopes narrow the list to one section: "All", then each section in the order first seen.
///
/// Scope 0 is All; scope `n` is section id `n` of the store. Sections keep arriving while
/// input streams, so the list of scopes is read from the store each frame.
public enum Scopes {
    /// "All" followed by every section name seen so far (made safe to draw).
    public static func names(in store: LineStore) -> [String] {
        guard store.sectionCount > 0 else { return [] }
        var names = ["All"]
        for id in 1...store.sectionCount {
            names.append(TerminalText.sanitize(String(decoding: store.sectionName(id), as: UTF8.self)))
        }
        return names
    }

    /// How many scopes the store's lines have: All and each section (0 when none has one).
    public static func count(in store: LineStore) -> Int {
        store.sectionCount > 0 ? store.sectionCount + 1 : 0
    }

    /// The scope called `name` (case-insensitive), if the store has that section.
    public static func index(named name: String, in store: LineStore) -> Int? {
        let wanted = name.lowercased()
        if wanted == "all" { return 0 }
        guard store.sectionCount > 0 else { return nil }
        for id in 1...store.sectionCount
        where String(decoding: store.sectionName(id), as: UTF8.self).lowercased() == wanted {
            return id
        }
        return nil
    }

    /// `result` narrowed to the lines of section `scope` (unchanged for scope 0).
    public static func filter(_ result: SearchResult, to scope: Int) -> SearchResult {
        guard scope > 0 else { return result }
        var out = result
        out.lines = []
        out.groups = []
        for group in result.groups where group.section == scope {
            out.lines = Array(result.lines[group.range])
            out.groups = [SectionGroup(section: scope, range: 0..<out.lines.count)]
        }
        out.matchCount = out.lines.count
        return out
    }
}
