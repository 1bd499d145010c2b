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
