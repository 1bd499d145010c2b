// pick's own keys, as fzf's default keymap: every one is an entry here, bound to actions
// (`BindActionKind`, decided in ActionPolicy.swift), and `--bind` overrides or unbinds any
// of them (a key bound there, or unbound with `unbind`, never reaches these). This table is
// the one place the key set is written: the keys a line's shortcut cannot take
// (`KeyNames.isReserved`), the F1 help and the man page's KEYS (a test compares them) read
// it. The query editor's keys (libedit's: ctrl-a, alt-b, Backspace…) are not here; keys
// neither here nor bound go to it.

/// pick's default key bindings.
public enum DefaultKeys {
    /// When an entry binds its keys.
    public enum Condition: Sendable {
        case always
        /// With `--multi` only.
        case multi
        /// Without `--multi` only.
        case single
        /// With `--preview` only (otherwise the key goes to the query editor).
        case preview
        /// With `--history` only.
        case history
    }

    /// Keys and the chain they run, when the condition holds.
    public struct Entry: Sendable {
        public var keys: [Key]
        public var chain: [BoundAction]
        public var when: Condition

        init(_ keys: [Key], _ chain: [BindActionKind], when: Condition = .always) {
            self.keys = keys
            self.chain = chain.map { BoundAction($0) }
            self.when = when
        }

        /// Whether the entry binds its keys in a picker with these options.
        public func holds(multi: Bool, preview: Bool, history: Bool = false) -> Bool {
            switch when {
            case .always: return true
            case .multi: return multi
            case .single: return !multi
            case .preview: return preview
            case .history: return history
            }
        }
    }

    /// Every default binding, in the order the F1 help lists them.
    public static let table: [Entry] = [
        Entry([.char(13)], [.accept]),
        // In vi mode Escape is vi's (the executable gives it to libedit first).
        Entry([.escape, .char(3), .char(7)], [.abort]),
        Entry([.up, .char(11)], [.up]),
        Entry([.down, .char(10)], [.down]),
        // As fzf's: ctrl-p and ctrl-n move to a match (past raw mode's dimmed lines).
        // With --history, ctrl-p and ctrl-n walk it, as fzf remaps them.
        Entry([.char(16)], [.prevHistory], when: .history),
        Entry([.char(14)], [.nextHistory], when: .history),
        Entry([.char(16), .modified(.up, .alt)], [.upMatch]),
        Entry([.char(14), .modified(.down, .alt)], [.downMatch]),
        Entry([.pageUp], [.pageUp]),
        Entry([.pageDown], [.pageDown]),
        Entry([.modified(.up, .shift)], [.previewUp]),
        Entry([.modified(.down, .shift)], [.previewDown]),
        Entry([.modified(.pageUp, .shift)], [.previewPageUp]),
        Entry([.modified(.pageDown, .shift)], [.previewPageDown]),
        Entry([.char(9)], [.complete], when: .single),
        Entry([.char(9)], [.toggleDown], when: .multi),
        Entry([.shiftTab], [.toggleUp], when: .multi),
        Entry([.right], [.takeGhost]),
        Entry([.char(19)], [.nextScope]),
        // ctrl-r: as bash's ctrl-r pressed again finds an older command: in the history
        // widget, newest first, it is the next line.
        Entry([.char(18)], [.nextLine]),
        Entry([.char(12)], [.clearScreen]),
        // As in Firefox's address bar.
        Entry([.modified(.delete, .shift)], [.forget]),
        Entry([.alt(0x70)], [.prevHistory]),
        Entry([.alt(0x6E)], [.nextHistory]),
        Entry([.function(1), .alt(0x3F)], [.help]),
        Entry([.char(26)], [.suspend]),
        Entry([.char(31)], [.togglePreview], when: .preview),
        // The mouse, as fzf binds it: a click first highlights the line under it (the
        // executable does that before the chain, as fzf's); left-click does nothing more.
        Entry([.mouseEvent(.doubleClick)], [.accept]),
        Entry([.mouseEvent(.rightClick), .mouseEvent(.shiftLeftClick), .mouseEvent(.shiftRightClick)], [.toggle]),
        Entry([.mouseEvent(.scrollUp)], [.up]),
        Entry([.mouseEvent(.scrollDown)], [.down]),
        Entry([.mouseEvent(.shiftScrollUp)], [.toggle, .up]),
        Entry([.mouseEvent(.shiftScrollDown)], [.toggle, .down]),
        Entry([.mouseEvent(.previewScrollUp)], [.previewUp]),
        Entry([.mouseEvent(.previewScrollDown)], [.previewDown]),
    ]

    /// What fzf's default keymap names the query editor's keys (for `$FZF_ACTION`; libedit
    /// runs them): nil for a key that edits nothing fzf names.
    public static func editingAction(of key: Key) -> String? {
        switch key {
        case .char(let c) where c >= 0x20 && c != 0x7F: return "char"
        case .char(1), .home: return "beginning-of-line"
        case .char(5), .end: return "end-of-line"
        case .char(2), .left: return "backward-char"
        case .char(6), .right: return "forward-char"
        case .char(8), .char(0x7F): return "backward-delete-char"
        case .char(4): return "delete-char/eof"
        case .delete: return "delete-char"
        case .char(0x15): return "unix-line-discard"
        case .char(0x17): return "unix-word-rubout"
        case .char(0x19): return "yank"
        case .alt(0x62): return "backward-word"
        case .alt(0x66): return "forward-word"
        case .alt(0x64): return "kill-word"
        case .alt(8), .alt(0x7F): return "backward-kill-word"
        default: return nil
        }
    }

    private static let byKey: [Key: [Entry]] = {
        var map: [Key: [Entry]] = [:]
        for entry in table { for key in entry.keys { map[key, default: []].append(entry) } }
        return map
    }()

    /// The chain pick binds `key` to by default in a picker with these options, if any.
    public static func chain(for key: Key, multi: Bool, preview: Bool, history: Bool = false) -> [BoundAction]? {
        byKey[key]?.first { $0.holds(multi: multi, preview: preview, history: history) }?.chain
    }

    /// Whether some entry binds `key` (with any options): pick's own key.
    public static func binds(_ key: Key) -> Bool { byKey[key] != nil }

    /// The entries in force in a picker with these options, in the table's order.
    public static func entries(multi: Bool, preview: Bool, history: Bool = false) -> [Entry] {
        table.filter { $0.holds(multi: multi, preview: preview, history: history) }
    }
}
