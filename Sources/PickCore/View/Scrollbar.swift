// The scrollbar's thumb, for the list and the preview pane alike, sized and placed as
// fzf's: as long as the share of the rows in view (one row at least), as far along as
// the view is.

/// Where a scrollbar's thumb goes.
public enum Scrollbar {
    /// The thumb for `lines` items seen `height` rows at a time from item `first`, each
    /// taking `perLine` rows on average (wrapped or multi-line items): the rows of the
    /// bar it spans, counted from the first row; nil when everything fits.
    public static func thumb(lines: Int, height: Int, first: Int, perLine: Int = 1) -> Range<Int>? {
        let perLine = max(1, perLine)
        let rows = lines * perLine
        guard lines > 0, rows > height, height > 0 else { return nil }
        let length = max(1, height * height / rows)
        let offset = min(max(0, first), max(0, lines - height / perLine))
        let start = lines == height ? 0 : min(height - length, max(0, (height * perLine - length) * offset / (rows - height)))
        return start..<(start + length)
    }
}
