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
        case .char, .alt, .escape, .paste, .cursorReport, .unknown:
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
