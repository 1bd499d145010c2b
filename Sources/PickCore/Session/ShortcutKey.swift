/// The key a SHORTCUT field names, in `KeyNames` spelling (`ctrl-o`, `alt-n`, `f5`), when
/// it is one a terminal can send: ctrl with a letter, alt with a character, ctrl and alt
/// with a letter, or f1 … f12. `⌘`, `cmd` and `meta` mean alt, as terminals send them.
public enum ShortcutKey {
    public static func keyName(_ shortcut: String) -> String? {
        key(shortcut).flatMap(KeyNames.name(of:))
    }

    /// The key that picks a line with this shortcut: one the query editor and pick's own
    /// keys leave free (nil: the shortcut is only a hint, drawn as one).
    public static func firingKey(_ shortcut: String) -> Key? {
        key(shortcut).flatMap { KeyNames.isFreeForShortcut($0) ? $0 : nil }
    }

    /// The key a shortcut names, or nil when it is only a hint (a word, shift with a
    /// function key, ctrl with something other than a letter).
    public static func key(_ shortcut: String) -> Key? {
        var text = shortcut.trimmingSpaces()
        guard !text.isEmpty else { return nil }
        var held: KeyModifiers = []
        let prefixes: [(String, KeyModifiers)] = [
            ("ctrl-", .ctrl), ("ctrl+", .ctrl), ("control-", .ctrl), ("control+", .ctrl), ("c-", .ctrl),
            ("^", .ctrl), ("⌃", .ctrl),
            ("alt-", .alt), ("alt+", .alt), ("meta-", .alt), ("meta+", .alt), ("m-", .alt),
            ("cmd-", .alt), ("cmd+", .alt), ("⌘", .alt), ("⌥", .alt), ("option-", .alt),
            ("shift-", .shift), ("shift+", .shift), ("⇧", .shift),
        ]
        var changed = true
        while changed && text.count > 1 {
            changed = false
            for (p, modifier) in prefixes where text.lowercased().hasPrefix(p) && text.count > p.count {
                text = String(text.dropFirst(p.count))
                held.insert(modifier)
                changed = true
                break
            }
        }
        let lower = text.lowercased()
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n), held.isEmpty {
            return .function(n)
        }
        guard text.count == 1, let c = text.unicodeScalars.first, c.isASCII, c.value > 0x20, c.value < 0x7F else {
            return nil
        }
        if held.contains(.ctrl) {
            // ctrl-x is the letter's control code; with alt, Escape before it.
            guard let l = Character(c).lowercased().unicodeScalars.first, ("a"..."z").contains(l) else { return nil }
            let code = l.value - 0x60
            return held.contains(.alt) ? .alt(code) : .char(code)
        }
        if held.contains(.alt) {
            // Shortcuts are usually written in capitals (⌘N); the key is the plain letter.
            let key = held.contains(.shift) ? String(Character(c)).uppercased() : String(Character(c)).lowercased()
            return .alt(key.unicodeScalars.first!.value)
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

/// The keys that lines name as their shortcuts, learnt from the store when a key that could
/// be one is pressed or the help opens, not as lines arrive: splitting a million lines into
/// fields would take a core away from reading them. The first line that names a key gets it.
public struct LineShortcuts {
    private var byKey: [Key: Int32] = [:]
    /// Each shortcut that fires, as written, with its line, in input order (for the help).
    public private(set) var listed: [(text: String, line: Int32)] = []
    private var scanned = 0
    private let headerLines: Int

    public init(headerLines: Int) {
        self.headerLines = headerLines
    }

    /// Learns the shortcuts of the lines read since the last call.
    public mutating func learn(from store: LineStore) {
        let count = store.count
        guard store.parsesFields else { scanned = count; return }
        while scanned < count {
            let line = scanned
            scanned += 1
            guard line >= headerLines, let range = store.fields(of: line).shortcut else { continue }
            let text = String(decoding: UnsafeBufferPointer(rebasing: store.bytes(of: line)[range]), as: UTF8.self)
            guard let key = ShortcutKey.firingKey(text), byKey[key] == nil else { continue }
            byKey[key] = Int32(line)
            listed.append((text, Int32(line)))
        }
    }

    /// The line `key` picks, if a line named it.
    public func line(for key: Key) -> Int32? { byKey[key] }

    /// The help's list of shortcuts: each key as written, then its line's title.
    public func helpLines(store: LineStore) -> [String] {
        guard !listed.isEmpty else { return [] }
        var lines = ["Shortcuts"]
        for (key, line) in listed {
            let title = store.fields(of: Int(line)).title
            let name = TerminalText.glyphs(store.bytes(of: Int(line)), range: title).map(\.text).joined()
            let key = TerminalText.sanitize(key)
            lines.append("  " + key + String(repeating: " ", count: max(1, 10 - TerminalText.width(key))) + name)
        }
        return lines
    }
}
