// Candidate text as the terminal will show it.
//
// Input is untrusted: a line may hold escape sequences that would move the cursor, change
// the title or recolour the screen. Every control character but the tab (blank space to
// the next tab stop, as fzf draws it) is shown as a visible symbol (U+2400 "control
// pictures": ESC is ␛, NUL ␀, DEL ␡), invalid UTF-8 as U+FFFD, and C1 controls and
// bidirectional overrides as U+FFFD too. Columns are counted as terminals do, from
// Unicode's tables (`WidthTable`): East Asian wide characters and emoji take two,
// combining marks, format characters (U+200F, U+FEFF) and line separators none.

/// One character of candidate text, ready to draw.
public struct Glyph: Equatable, Sendable {
    /// What to write (never a control character).
    public var text: String
    /// Terminal columns it takes: 0, 1 or 2 (a tab, up to the tab stop).
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

    /// Whether a line's control characters (C0, DEL) are drawn as symbols; false: as
    /// nothing, as fzf draws them (pick invoked as `fzf`: fzf-tab's candidates carry NULs
    /// between their fields). Either way none reaches the terminal. Set once, at start.
    nonisolated(unsafe) public static var showsControlCharacters = true

    /// Whether pick's own glyphs may be box-drawing and other non-ASCII characters (false:
    /// `--no-unicode`, ASCII borders and spinner, as fzf's). Set once, at start.
    nonisolated(unsafe) public static var unicodeGlyphs = true

    /// Whether East Asian ambiguous characters take two columns (`--ambidouble`, or
    /// RUNEWIDTH_EASTASIAN=1, as fzf counts them). Set once, at start.
    nonisolated(unsafe) public static var ambiguousIsWide = false

    /// Terminal columns of one scalar.
    public static func width(of s: UInt32) -> Int {
        if s < 0xA1 { return 1 }
        if s < 0x300 { return ambiguousIsWide && inRanges(ambiguous, s) ? 2 : 1 }
        if isZeroWidth(s) { return 0 }
        if isWide(s) { return 2 }
        return ambiguousIsWide && inRanges(ambiguous, s) ? 2 : 1
    }

    /// Terminal columns of a string that is already safe to draw.
    public static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + width(of: $1.value) }
    }

    /// Whether `s` takes no column: a combining mark, a format character (the bidirectional
    /// marks, zero-width space and joiners, U+FEFF), a line or paragraph separator
    /// (tools/gen-width-table.py says which, from Unicode's tables).
    static func isZeroWidth(_ s: UInt32) -> Bool { inRanges(zeroRanges, s) }

    /// Whether `s` takes two columns: East Asian Wide and Fullwidth, emoji among them.
    static func isWide(_ s: UInt32) -> Bool { inRanges(twoColumnRanges, s) }

    private static let zeroRanges: [UInt32] = zeroWidthRanges
    private static let twoColumnRanges: [UInt32] = wideRanges
    private static let ambiguous: [UInt32] = ambiguousRanges

    /// Whether `s` lies in one of `ranges`' sorted (first, last) pairs.
    private static func inRanges(_ ranges: [UInt32], _ s: UInt32) -> Bool {
        var low = 0
        var high = ranges.count / 2
        while low < high {
            let mid = (low + high) >> 1
            if ranges[mid &* 2 &+ 1] < s { low = mid + 1 } else { high = mid }
        }
        return low < ranges.count / 2 && ranges[low &* 2] <= s
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

    /// The glyphs of `bytes[range]`, styled by `styles` (`--ansi`: offsets in `bytes`), a
    /// tab blank to the next multiple of `tabStop` columns (`--tabstop`) counted from
    /// `column`, where the text starts on its row.
    public static func glyphs(_ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>,
                              styles: [StyleRun] = [], tabStop: Int = tabStop, column: Int = 0) -> [Glyph] {
        guard let base = bytes.baseAddress, !range.isEmpty else { return [] }
        var out: [Glyph] = []
        out.reserveCapacity(range.count)
        var style = ""
        var nextRun = 0
        var column = column
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
                // A newline (a --read0 item's, on one row) shows as fzf shows it: `␊`.
                let hidden = !showsControlCharacters && (s < 0x20 || s == 0x7F) && s != 0x0A && !invalid
                out.append(Glyph(text: hidden ? "" : sym, width: hidden ? 0 : 1, offset: i, isSymbol: true, style: style))
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

    /// `text` cut to at most `columns` columns, ending in `ellipsis` when cut (the ellipsis
    /// itself cut when even it does not fit).
    public static func truncate(_ text: String, to columns: Int, ellipsis: String = "…") -> String {
        guard columns > 0 else { return "" }
        if width(text) <= columns { return text }
        let mark = width(ellipsis) <= columns ? ellipsis : truncate(ellipsis, to: columns, ellipsis: "")
        let room = columns - width(mark)
        var out = ""
        var used = 0
        for u in text.unicodeScalars {
            let w = width(of: u.value)
            if used + w > room { break }
            out.unicodeScalars.append(u)
            used += w
        }
        return out + mark
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
