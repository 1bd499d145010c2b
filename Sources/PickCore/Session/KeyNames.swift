// The one table of key names. The decoder's keys are named here; `--expect` and `--bind`
// accept exactly these names (`--bind` takes fzf's events too, before it asks here:
// Bindings.swift); a line's SHORTCUT field is read into one of them. The keys pick itself
// uses, which a shortcut cannot take, are DefaultKeys' (the one table of pick's keys); the
// query editor's are marked here.
//
// The names are fzf's (its man page, AVAILABLE KEYS), kept to keys a terminal sends and
// `KeyDecoder` decodes, so that every name accepted fires; a name for something else (the
// mouse, an event, a modifier on a key that takes none) is refused with the reason.
// Three kinds of name:
// - the fixed names in `table`: pick's spelling first, then fzf's synonyms (`enter`,
//   `return`, `ctrl-m`); letter case is ignored (`Enter`, `CTRL-X`);
// - one printable character (`x`, `?`, `é`), or `alt-` and one (`alt-x`): here case
//   matters, as the terminal sends a different character (`alt-X` is alt-shift-x);
// - `ctrl-`, `alt-` and `shift-`, in any order, before a navigation key (`alt-up`,
//   `ctrl-shift-page-down`, `shift-del`): xterm sends these as `ESC [ 1 ; m A` and
//   `ESC [ 5 ; m ~`. pick's spelling orders them ctrl, alt, shift, as fzf does.

/// A key named on the command line: the key, and the name as the person wrote it, which
/// is what `--expect` prints back (`return` for `--expect return`, as fzf does).
public struct NamedKey: Equatable, Sendable {
    public var key: Key
    public var written: String

    public init(key: Key, written: String) {
        self.key = key
        self.written = written
    }
}

/// Key names: from a name to its key, from a key to pick's name for it, and which keys
/// pick's own bindings use.
public enum KeyNames {
    /// One key and its names: pick's spelling first, then synonyms.
    struct Entry {
        var names: [String]
        var key: Key
        /// A navigation key that `ctrl-`, `alt-` and `shift-` can go before.
        var takesModifiers = false
        /// The query editor's key (libedit's emacs keys as pick leaves them): it moves in or
        /// edits the query, so a line's shortcut cannot take it either.
        var edits = false

        init(_ names: [String], _ key: Key, modifiers: Bool = false, edits: Bool = false) {
            self.names = names
            self.key = key
            takesModifiers = modifiers
            self.edits = edits
        }
    }

    /// Every key with a fixed name. Characters and alt-characters that are not here are
    /// named by rule (see the top of this file), ctrl-alt-a … ctrl-alt-z by `table`'s loop.
    static let table: [Entry] = {
        var entries: [Entry] = [
            Entry(["enter", "return", "ctrl-m"], .char(13)),
            Entry(["tab", "ctrl-i"], .char(9)),
            Entry(["shift-tab", "btab"], .shiftTab),
            Entry(["esc", "escape"], .escape),
            Entry(["space"], .char(32)),
            Entry(["backspace", "bspace", "bs"], .char(127), edits: true),
            Entry(["ctrl-h", "ctrl-backspace", "ctrl-bspace", "ctrl-bs"], .char(8), edits: true),
            Entry(["ctrl-space"], .char(0), edits: true),
            Entry(["ctrl-a"], .char(1), edits: true),
            Entry(["ctrl-b"], .char(2), edits: true),
            Entry(["ctrl-c"], .char(3)),
            Entry(["ctrl-d"], .char(4), edits: true),
            Entry(["ctrl-e"], .char(5), edits: true),
            Entry(["ctrl-f"], .char(6), edits: true),
            Entry(["ctrl-g"], .char(7)),
            Entry(["ctrl-j"], .char(10)),
            Entry(["ctrl-k"], .char(11)),
            Entry(["ctrl-l"], .char(12)),
            Entry(["ctrl-n"], .char(14)),
            Entry(["ctrl-o"], .char(15)),
            Entry(["ctrl-p"], .char(16)),
            Entry(["ctrl-q"], .char(17)),
            Entry(["ctrl-r"], .char(18)),
            Entry(["ctrl-s"], .char(19)),
            Entry(["ctrl-t"], .char(20), edits: true),
            Entry(["ctrl-u"], .char(21), edits: true),
            Entry(["ctrl-v"], .char(22)),
            Entry(["ctrl-w"], .char(23), edits: true),
            Entry(["ctrl-x"], .char(24)),
            Entry(["ctrl-y"], .char(25), edits: true),
            Entry(["ctrl-z"], .char(26)),
            Entry(["ctrl-\\"], .char(28)),
            Entry(["ctrl-]"], .char(29)),
            Entry(["ctrl-^", "ctrl-6"], .char(30)),
            Entry(["ctrl-/", "ctrl-_"], .char(31)),
            Entry(["alt-enter", "alt-return", "ctrl-alt-m"], .alt(13)),
            Entry(["alt-space"], .alt(32)),
            Entry(["alt-backspace", "alt-bspace", "alt-bs"], .alt(127), edits: true),
            Entry(["ctrl-alt-h", "ctrl-alt-backspace", "ctrl-alt-bspace", "ctrl-alt-bs"], .alt(8), edits: true),
            Entry(["alt-?"], .alt(0x3F)),
            Entry(["alt-p"], .alt(0x70)),
            Entry(["alt-n"], .alt(0x6E)),
            Entry(["up"], .up, modifiers: true),
            Entry(["down"], .down, modifiers: true),
            Entry(["left"], .left, modifiers: true, edits: true),
            Entry(["right"], .right, modifiers: true),
            Entry(["home"], .home, modifiers: true, edits: true),
            Entry(["end"], .end, modifiers: true, edits: true),
            Entry(["delete", "del"], .delete, modifiers: true, edits: true),
            Entry(["shift-delete", "shift-del"], .modified(.delete, .shift)),
            Entry(["shift-up"], .modified(.up, .shift)),
            Entry(["shift-down"], .modified(.down, .shift)),
            Entry(["shift-page-up", "shift-pgup"], .modified(.pageUp, .shift)),
            Entry(["shift-page-down", "shift-pgdn"], .modified(.pageDown, .shift)),
            Entry(["page-up", "pgup"], .pageUp, modifiers: true),
            Entry(["page-down", "pgdn"], .pageDown, modifiers: true),
            Entry(["insert"], .insert),
            Entry(["f1"], .function(1)),
        ]
        for n in 2...12 { entries.append(Entry(["f\(n)"], .function(n))) }
        for mouse in MouseKey.allCases { entries.append(Entry([mouse.rawValue], .mouseEvent(mouse))) }
        for code in UInt32(1)...26 where !entries.contains(where: { $0.key == .alt(code) }) {
            entries.append(Entry(["ctrl-alt-" + String(UnicodeScalar(UInt8(code + 96)))], .alt(code)))
        }
        return entries
    }()

    /// Modifier words as written before a navigation key, in pick's order.
    static let modifierWords: [(word: String, modifier: KeyModifiers)] = [
        ("ctrl-", .ctrl), ("alt-", .alt), ("shift-", .shift),
    ]

    /// fzf's event names: never keys (`--bind` takes those of `BindEvent` as events).
    static let eventNames: Set<String> = [
        "start", "load", "change", "focus", "result", "result-final", "one", "zero", "resize",
        "backward-eof", "jump", "jump-cancel", "click-header", "click-footer", "multi",
    ]

    /// Names that are not keys pick can read, and why.
    static let notKeys: [(names: Set<String>, reason: String)] = [
        (eventNames, "is an event, not a key"),
    ]

    private static let byName: [String: Key] = {
        var map: [String: Key] = [:]
        for entry in table { for name in entry.names { map[name] = entry.key } }
        return map
    }()

    private static let byKey: [Key: Entry] = {
        var map: [Key: Entry] = [:]
        for entry in table { map[entry.key] = entry }
        return map
    }()

    /// The key `name` spells, or nil when it names no key pick can read.
    public static func key(named name: String) -> Key? {
        if let c = printableCharacter(Substring(name)) { return .char(c) }
        let lower = name.lowercased()
        if lower.hasPrefix("alt-"), let c = printableCharacter(name.dropFirst(4)), c != 0x20 {
            return .alt(c)
        }
        if let key = byName[lower] { return key }
        let (held, base) = modifiersAndBase(lower)
        guard !held.isEmpty, let base, byKey[base]?.takesModifiers == true else { return nil }
        return .modified(base, held)
    }

    /// The modifier words at the start of `lower` (each at most once, in any order) and the
    /// fixed key named by what follows them.
    private static func modifiersAndBase(_ lower: String) -> (KeyModifiers, Key?) {
        var rest = Substring(lower)
        var held: KeyModifiers = []
        while let next = modifierWords.first(where: { rest.hasPrefix($0.word) }), !held.contains(next.modifier) {
            held.insert(next.modifier)
            rest = rest.dropFirst(next.word.count)
        }
        return (held, byName[String(rest)])
    }

    /// pick's name for `key` (`enter` for Return, `alt-up`), or nil when it has none.
    public static func name(of key: Key) -> String? {
        if let entry = byKey[key] { return entry.names[0] }
        switch key {
        case .char(let c):
            return isPrintable(c) ? String(Character(Unicode.Scalar(c)!)) : nil
        case .alt(let c):
            return isPrintable(c) ? "alt-" + String(Character(Unicode.Scalar(c)!)) : nil
        case .modified(let base, let held):
            guard let entry = byKey[base], entry.takesModifiers, !held.isEmpty else { return nil }
            let words = modifierWords.filter { held.contains($0.modifier) }.map(\.word).joined()
            return words + entry.names[0]
        default:
            return nil
        }
    }

    /// Whether pick's own keys (`DefaultKeys`) use `key`: a line's shortcut cannot take it.
    /// `--expect` and `--bind` still can, as they come first.
    public static func isReserved(_ key: Key) -> Bool {
        DefaultKeys.binds(key)
    }

    /// The alt keys the query editor uses (libedit's emacs word commands), either case.
    static let editingAltKeys: Set<UInt32> = Set("bcdfluwBCDFLUDW".unicodeScalars.map(\.value) + [0x1F])

    /// Whether the query editor uses `key`: ctrl-a, ctrl-e, ctrl-w, alt-b, alt-f, Left…
    public static func isEditing(_ key: Key) -> Bool {
        if let entry = byKey[key] { return entry.edits }
        if case .alt(let c) = key { return editingAltKeys.contains(c) }
        return false
    }

    /// Whether a line's shortcut can take `key`: neither pick's own key nor the editor's,
    /// so a person's hands can still edit the query and move as they are used to.
    public static func isFreeForShortcut(_ key: Key) -> Bool {
        !isReserved(key) && !isEditing(key)
    }

    /// Whether pick's own keys use the key `name` spells (any spelling).
    public static func isReserved(_ name: String) -> Bool {
        key(named: name).map(isReserved) ?? false
    }

    /// Why `name` is not a key pick can read, for an error message (`unknown key 'x'`).
    public static func refusal(_ name: String) -> String {
        let lower = name.lowercased()
        for (names, reason) in notKeys where names.contains(lower) {
            return "\(OptionError.quote(name)) \(reason)"
        }
        // A modifier on a named key that takes none (shift-f5, alt-insert): say which do.
        if case let (held, base?) = modifiersAndBase(lower), !held.isEmpty, byKey[base]?.takesModifiers == false {
            let bases = table.filter(\.takesModifiers).map { $0.names[0] }
            return "unknown key \(OptionError.quote(name)) (ctrl-, alt- and shift- go before "
                + bases.dropLast().joined(separator: ", ") + " or \(bases.last!))"
        }
        return "unknown key \(OptionError.quote(name))"
    }

    /// pick's spelling of every key with a fixed name, in the table's order: what the
    /// completion of `--expect` and `--bind` offers (OptionCompletion).
    public static var spellings: [String] { table.map { $0.names[0] } }

    /// Every fixed name and every navigation key with each set of modifiers, in pick's
    /// spelling and all synonyms: the names tests press through a terminal. Characters
    /// named by rule (`x`, `alt-x`) are not listed.
    public static var fixedNames: [String] {
        var names: [String] = []
        for entry in table {
            names += entry.names
            guard entry.takesModifiers else { continue }
            for bits in 1...7 {
                let held = KeyModifiers(rawValue: bits)
                let words = modifierWords.filter { held.contains($0.modifier) }.map(\.word).joined()
                names += entry.names.map { words + $0 }
            }
        }
        return names
    }

    /// The one printable character `text` holds, if that is all it holds.
    private static func printableCharacter(_ text: Substring) -> UInt32? {
        let scalars = text.unicodeScalars
        guard let first = scalars.first, scalars.count == 1, isPrintable(first.value) else { return nil }
        return first.value
    }

    /// Characters that stand for themselves as a key's name: not control characters.
    private static func isPrintable(_ c: UInt32) -> Bool {
        c >= 0x20 && c != 0x7F && !(0x80..<0xA0).contains(c) && Unicode.Scalar(c) != nil
    }
}
