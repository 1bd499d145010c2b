/// Where a click on the header landed, for `click-header`'s commands (fzf's
/// FZF_CLICK_HEADER_LINE, _COLUMN, _WORD and _NTH): the header's line and column (from
/// 1), the word under the column (words are runs of non-blanks) and its field number,
/// counted over the header's lines from the first (the last word of the last line is
/// `N..`, the rest of the line, as fzf says it).
public struct HeaderClick: Equatable, Sendable {
    public var line: Int
    public var column: Int
    public var word: String?
    public var nth: String?

    /// The click at `column` (from 1) of line `line` (from 1) of `lines`, the header as
    /// shown.
    public init(lines: [String], line: Int, column: Int) {
        self.line = line
        self.column = column
        guard line >= 1, line <= lines.count else { return }
        var before = 0
        for text in lines.prefix(line - 1) { before += Self.words(text).count }
        let words = Self.words(lines[line - 1])
        for (index, word) in words.enumerated() where word.columns.contains(column - 1) {
            self.word = word.text
            nth = String(before + index + 1) + (line == lines.count && index == words.count - 1 ? ".." : "")
            break
        }
    }

    /// fzf's numbering of the header's lines for a click (FZF_CLICK_HEADER_LINE): `text`
    /// (`--header`) and `lines` (`--header-lines`, in input order) in the order they read
    /// down the screen: with the prompt on top the text first; otherwise the header lines
    /// first, upward from the text in the default layout (the first header line is the
    /// lowest), in input order with reverse-list.
    public static func order(text: [String], lines: [String], layout: Layout) -> [String] {
        switch layout {
        case .top: return text + lines
        case .bottom: return lines.reversed() + text
        case .reverseList: return lines + text
        }
    }

    /// The line (from 1) of `order` that header row `k` holds: rows `0 ..< text` are
    /// `--header`'s, the rest the header lines in input order.
    public static func line(ofRow k: Int, text: Int, lines: Int, layout: Layout) -> Int {
        if layout == .top { return k + 1 }
        if k < text { return lines + k + 1 }
        return layout == .bottom ? lines - (k - text) : k - text + 1
    }

    /// The runs of non-blank characters of `text` and the columns each takes.
    static func words(_ text: String) -> [(text: String, columns: Range<Int>)] {
        var found: [(String, Range<Int>)] = []
        var column = 0
        var current = ""
        var start = 0
        for character in text {
            let width = TerminalText.width(String(character))
            if character.isWhitespace {
                if !current.isEmpty { found.append((current, start..<column)) }
                current = ""
            } else {
                if current.isEmpty { start = column }
                current.append(character)
            }
            column += width
        }
        if !current.isEmpty { found.append((current, start..<column)) }
        return found
    }
}
