/// A short text a user or a command gave pick to draw (`--separator`, `--info-command`'s
/// output), which may carry SGR colours as fzf allows there: its glyphs, each safe to draw,
/// with the colours in force. Other escape sequences are dropped, control characters drawn
/// as symbols, tabs as blanks to the next tab stop.
public struct StyledText: Equatable, Sendable {
    public private(set) var glyphs: [Glyph]

    public init(ansi text: String, tabStop: Int = TerminalText.tabStop) {
        let (visible, runs) = AnsiText.strip(Array(text.utf8))
        glyphs = visible.withUnsafeBufferPointer {
            TerminalText.glyphs($0, range: 0..<visible.count, styles: runs, tabStop: tabStop)
        }
    }

    private init(glyphs: [Glyph]) { self.glyphs = glyphs }

    /// Columns it takes.
    public var width: Int { glyphs.reduce(0) { $0 + $1.width } }

    /// The text without its colours.
    public var plain: String { glyphs.map(\.text).joined() }

    /// The first glyphs that fit `columns`.
    public func prefix(columns: Int) -> StyledText {
        var used = 0
        return StyledText(glyphs: Array(glyphs.prefix { g in
            used += g.width
            return used <= columns
        }))
    }

    /// Repeated to exactly `columns` columns or the last glyph that fits them, as fzf
    /// repeats its separator (cut mid-text if need be); empty when it takes no column.
    public func repeated(columns: Int) -> StyledText {
        guard width > 0, columns > 0 else { return StyledText(glyphs: []) }
        var out: [Glyph] = []
        var used = 0
        while true {
            for g in glyphs {
                if used + g.width > columns { return StyledText(glyphs: out) }
                out.append(g)
                used += g.width
            }
        }
    }

    /// Runs of glyphs that share a style: (text, SGR parameters, "" for the default).
    public var runs: [(text: String, style: String)] {
        var out: [(text: String, style: String)] = []
        for g in glyphs {
            if let last = out.last, last.style == g.style { out[out.count - 1].text += g.text } else {
                out.append((g.text, g.style))
            }
        }
        return out
    }
}
