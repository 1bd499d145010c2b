// Candidate text as the terminal will show it.
//
// Input is untrusted: a line may hold escape sequences that would move the cursor, change
// the title or recolour the screen. Every control character but the tab (blank space to
// the next tab stop, as fzf draws it) is shown as a visible symbol (U+2400 "control
// pictures": ESC is ␛, NUL ␀, DEL ␡), invalid UTF-8 as U+FFFD, and C1 controls and
// bidirectional overrides as U+FFFD too. Columns are counted as terminals do:
// East Asian wide characters and emoji take two, combining marks none.

/// One character of candidate text, ready to draw.
public struct Glyph: Equatable, Sendable {
    /// What to write (never a control character).
    public var text: String
    /// Terminal columns it takes: 0, 1 or 2 (a tab, up to `TerminalText.tabStop`).
    public var width: Int
    /// Offset of its first byte in the source text.
    public var offset: Int
    /// Whether it stands for a control character or an invalid byte.
    public var isSymbol: Bool
    /// SGR parameters in force (only with `--ansi`), or "" for the default.
    public var style: String
}

/// Sanitising and measuring text for the terminal.
public enum TerminalText {
    /// A tab in a title is drawn as spaces up to the next multiple of this many columns,
    /// counted from the start of the title, as fzf draws it (its `--tabstop` default).
    public static let tabStop = 8

    /// Terminal columns of one scalar.
    public static func width(of s: UInt32) -> Int {
        if s < 0x300 { return 1 }
        if isZeroWidth(s) { return 0 }
        return isWide(s) ? 2 : 1
    }

    /// Terminal columns of a string that is already safe to draw.
    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1.value) }
    }

    static func isZeroWidth(_ s: UInt32) -> Bool {
        switch s {
        case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F,
             0x0E31, 0x0E34...0x0E3A, 0x0E47...0x0E4E, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF,
             0x200B...0x200D, 0x20D0...0x20FF, 0xFE00...0xFE0F, 0xFE20...0xFE2F, 0xE0100...0xE01EF:
            return true
        default:
            return false
        }
    }

    static func isWide(_ s: UInt32) -> Bool {
        switch s {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x18AFF, 0x1B000...0x1B2FF,
             0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F200...0x1F251, 0x1F300...0x1F64F,
             0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB, 0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF,
             0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The visible stand-in for a scalar that must not reach the terminal, or nil if it is safe.
    public static func symbol(for s: UInt32) -> String? {
        switch s {
        case 0x00...0x1F: return String(Unicode.Scalar(0x2400 + s)!)
        case 0x7F: return "\u{2421}"
        case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0xFFFD: return "\u{FFFD}"
        default: return nil
        }
    }

    /// The glyphs of `bytes[range]`, styled by `styles` (`--ansi`: offsets in `bytes`).
    public static func glyphs(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>,
                              styles: [StyleRun] = []) -> [Glyph] {
        guard let base = bytes.baseAddress, !range.isEmpty else { return [] }
        var out: [Glyph] = []
        out.reserveCapacity(range.count)
        var style = ""
        var nextRun = 0
        var column = 0
        var i = range.lowerBound
        while i < range.upperBound {
            while nextRun < styles.count && styles[nextRun].offset <= i {
                style = styles[nextRun].sgr
                nextRun += 1
            }
            let (s, w) = UTF8Codec.decode(base, i, range.upperBound)
            let invalid = s == 0xFFFD && !(w == 3 && bytes[i] == 0xEF)
            if s == 0x09 {
                // Without --palette a tab is part of the title (grep -rn on indented code):
                // blank space, not a symbol.
                let n = tabStop - column % tabStop
                out.append(Glyph(text: String(repeating: " ", count: n), width: n, offset: i, isSymbol: false,
                                 style: style))
            } else if let sym = symbol(for: invalid ? 0xFFFD : s) {
                out.append(Glyph(text: sym, width: 1, offset: i, isSymbol: true, style: style))
            } else {
                out.append(Glyph(text: String(Unicode.Scalar(s)!), width: width(of: s), offset: i,
                                 isSymbol: false, style: style))
            }
            column += out[out.count - 1].width
            i += w
        }
        return out
    }

    /// A string made safe to draw (control characters as symbols).
    public static func sanitize(_ text: String) -> String {
        var out = ""
        for u in text.unicodeScalars {
            if let sym = symbol(for: u.value), u.value != 0xFFFD { out += sym } else { out.unicodeScalars.append(u) }
        }
        return out
    }

    /// `text` cut to at most `columns` columns, ending in `…` when cut.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if width(text) <= columns { return text }
        var out = ""
        var used = 0
        for u in text.unicodeScalars {
            let w = width(of: u.value)
            if used + w > columns - 1 { break }
            out.unicodeScalars.append(u)
            used += w
        }
        return out + "…"
    }

    /// Pasted bytes as query text: line breaks and tabs become spaces (a pasted newline
    /// never picks), other control characters are dropped, invalid UTF-8 too.
    public static func pastedQuery(_ bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for u in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            defer { previousCR = u == "\r" }
            switch u {
            case "\n" where previousCR: continue
            case "\n", "\r", "\t": out.append(" ")
            default:
                if TerminalText.symbol(for: u.value) == nil { out.append(u) }
            }
        }
        return String(out)
    }
}
