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

/// The key a SHORTCUT field names, in `--expect` spelling (`ctrl-o`, `alt-n`, `f5`), when it
/// is a key a terminal can send. `⌘`, `cmd` and `meta` mean alt, as terminals send them.
public enum ShortcutKey {
    public static func keyName(_ shortcut: String) -> String? {
        var text = shortcut.trimmingSpaces()
        guard !text.isEmpty else { return nil }
        var ctrl = false, alt = false, shift = false
        let prefixes: [(String, Int)] = [("ctrl-", 0), ("ctrl+", 0), ("control-", 0), ("control+", 0), ("c-", 0),
                                         ("^", 0), ("⌃", 0),
                                         ("alt-", 1), ("alt+", 1), ("meta-", 1), ("meta+", 1), ("m-", 1),
                                         ("cmd-", 1), ("cmd+", 1), ("⌘", 1), ("⌥", 1), ("option-", 1),
                                         ("shift-", 2), ("shift+", 2), ("⇧", 2)]
        var changed = true
        while changed && text.count > 1 {
            changed = false
            for (p, kind) in prefixes where text.lowercased().hasPrefix(p) && text.count > p.count {
                text = String(text.dropFirst(p.count))
                switch kind {
                case 0: ctrl = true
                case 1: alt = true
                default: shift = true
                }
                changed = true
                break
            }
        }
        let lower = text.lowercased()
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n), !ctrl, !alt, !shift {
            return "f\(n)"
        }
        guard text.count == 1, let c = text.unicodeScalars.first, c.isASCII, c.value > 0x20, c.value < 0x7F else {
            return nil
        }
        if ctrl && alt { return nil }
        if ctrl {
            let l = Character(c).lowercased()
            guard l.count == 1, ("a"..."z").contains(l) else { return nil }
            return "ctrl-" + l
        }
        if alt {
            // Shortcuts are usually written in capitals (⌘N); the key is the plain letter.
            let key = shift ? String(Character(c)).uppercased() : String(Character(c)).lowercased()
            return "alt-" + key
        }
        return nil
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
