// Where a line too long for its row breaks when it wraps, as fzf breaks it. The first row
// takes `columns`; each row after it starts with the wrap sign and takes `signWidth`
// fewer. By characters, a row ends before the first character that would not fit (a
// character wider than the row takes a row of its own). By words, a row ends after the
// last blank before that character where it has one (fzf's list, `--wrap=word`: the blank
// ends the row), or at the last blank up to it, dropped (fzf's preview, `wrap-word`).

/// Wrapping glyphs into rows.
public enum LineWrap {
    /// How a word-wrapped row ends at its blank.
    public enum Words: Sendable {
        /// By characters only.
        case off
        /// After the blank: it ends the row (the list's).
        case keepBlank
        /// At the blank, which neither row shows (the preview's).
        case dropBlank
    }

    /// The glyph ranges of the rows `glyphs` takes, at most `maxRows` of them, and whether
    /// more would follow. An empty line takes one empty row.
    public static func rows(_ glyphs: [Glyph], columns: Int, signWidth: Int, words: Words = .off,
                            maxRows: Int = .max) -> (rows: [Range<Int>], overflow: Bool) {
        var rows: [Range<Int>] = []
        var start = 0
        // A space or a tab (drawn as spaces).
        func isBlank(_ i: Int) -> Bool {
            !glyphs[i].isSymbol && !glyphs[i].text.isEmpty && glyphs[i].text.utf8.allSatisfy { $0 == 0x20 }
        }
        repeat {
            if rows.count >= maxRows { return (rows, true) }
            let room = rows.isEmpty ? columns : columns - signWidth
            var used = 0, end = start
            while end < glyphs.count && used + glyphs[end].width <= room {
                used += glyphs[end].width
                end += 1
            }
            guard end < glyphs.count else {
                rows.append(start..<glyphs.count)
                break
            }
            var next = end
            switch words {
            case .off: break
            case .keepBlank:
                if let blank = (start..<end).last(where: isBlank) { end = blank + 1; next = end }
            case .dropBlank:
                if let blank = (start...end).last(where: isBlank) { end = blank; next = blank + 1 }
            }
            if next == start { end = start + 1; next = end }  // a character wider than the row
            rows.append(start..<end)
            start = next
        } while start < glyphs.count
        return (rows, false)
    }
}
