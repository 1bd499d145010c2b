/// A key as decoded from the terminal's bytes (`KeyDecoder`), named by `KeyNames`.
public enum Key: Hashable, Sendable {
    /// A character, control characters included (ctrl-a is 1, Return 13, ctrl-j 10).
    case char(UInt32)
    /// Escape followed by a character: alt-x (and ⌘x where the terminal sends it so);
    /// Escape and a control character is ctrl-alt-x.
    case alt(UInt32)
    case up, down, left, right, home, end, pageUp, pageDown, delete, insert, shiftTab
    case function(Int)
    /// One of the keys above held with shift, alt or ctrl, as xterm sends it
    /// (`ESC [ 1 ; 3 A` is alt-up) or as Escape before its sequence (`ESC ESC [ A`).
    /// Never built with empty modifiers: that is the plain key.
    indirect case modified(Key, KeyModifiers)
    /// Escape alone.
    case escape
    /// Text pasted while bracketed paste is on (between `ESC [ 200 ~` and `ESC [ 201 ~`).
    case paste([UInt8])
    /// The terminal's answer to a cursor-position query that came too late; ignored.
    case cursorReport
    /// A mouse button or wheel, as SGR mouse reporting sends it (`ESC [ < b ; x ; y M`).
    case mouse(MouseEvent)
    /// What a mouse report comes to, by fzf's name (`left-click`, `scroll-up`…): the trigger
    /// `--bind` binds and pick's default entries take (DefaultKeys).
    case mouseEvent(MouseKey)
    /// A sequence pick does not know; ignored.
    case unknown

    /// The key's name in pick's spelling (`enter`, `ctrl-x`, `alt-up`), when it has one.
    public var name: String? { KeyNames.name(of: self) }

    /// Whether pick's own keys use this one, so a line's shortcut cannot take it.
    public var isReserved: Bool { KeyNames.isReserved(self) }

    /// The key with `more` modifiers held too (`.up` with alt is alt-up); nil for keys that
    /// take none (characters, Escape, pastes).
    public func adding(_ more: KeyModifiers) -> Key? {
        switch self {
        case .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .delete, .insert, .shiftTab, .function:
            return more.isEmpty ? self : .modified(self, more)
        case .modified(let base, let held):
            return .modified(base, held.union(more))
        case .char, .alt, .escape, .paste, .cursorReport, .mouse, .mouseEvent, .unknown:
            return nil
        }
    }
}

/// Shift, alt and ctrl, as xterm counts them in a sequence's modifier parameter.
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let ctrl = KeyModifiers(rawValue: 4)
}

/// What the mouse did, and where (1-based screen cells).
public struct MouseEvent: Hashable, Sendable {
    public enum Action: Hashable, Sendable {
        /// A button went down: 0 left, 1 middle, 2 right.
        case press(Int)
        case release
        case wheelUp, wheelDown
        /// The mouse moved with a button held (reported only when asked for).
        case drag
    }

    public var action: Action
    public var column: Int
    public var row: Int
    /// Shift, alt or ctrl held (fzf's `shift-` mouse events take any of them).
    public var modified = false

    public init(action: Action, column: Int, row: Int, modified: Bool = false) {
        self.action = action
        self.column = column
        self.row = row
        self.modified = modified
    }

    /// The event an SGR report describes: button code `code` (with its modifier and
    /// motion bits), at `column`, `row`; `released` for a final `m`.
    static func sgr(code: Int, column: Int, row: Int, released: Bool) -> MouseEvent {
        let action: Action
        if code & 64 != 0 {
            action = code & 1 == 0 ? .wheelUp : .wheelDown
        } else if code & 32 != 0 {
            action = .drag
        } else {
            action = released ? .release : .press(code & 3)
        }
        // Bits 4, 8 and 16: shift, meta and ctrl.
        return MouseEvent(action: action, column: column, row: row, modified: code & 28 != 0)
    }
}

/// fzf's names for what the mouse did, as `--bind` takes them.
public enum MouseKey: String, CaseIterable, Hashable, Sendable {
    case leftClick = "left-click", rightClick = "right-click", doubleClick = "double-click"
    case shiftLeftClick = "shift-left-click", shiftRightClick = "shift-right-click"
    case scrollUp = "scroll-up", scrollDown = "scroll-down"
    case shiftScrollUp = "shift-scroll-up", shiftScrollDown = "shift-scroll-down"
    case previewScrollUp = "preview-scroll-up", previewScrollDown = "preview-scroll-down"

    /// What a report over the list (`overPreview`: over the preview pane) is named, when it
    /// is a click or the wheel (`double`: the second press on the same line in time).
    public static func named(_ event: MouseEvent, overPreview: Bool, double: Bool = false) -> MouseKey? {
        switch event.action {
        case .wheelUp: return overPreview ? .previewScrollUp : event.modified ? .shiftScrollUp : .scrollUp
        case .wheelDown: return overPreview ? .previewScrollDown : event.modified ? .shiftScrollDown : .scrollDown
        case .press(0) where !overPreview:
            return double && !event.modified ? .doubleClick : event.modified ? .shiftLeftClick : .leftClick
        case .press(2) where !overPreview: return event.modified ? .shiftRightClick : .rightClick
        default: return nil
        }
    }
}
