import PickCore

// `--accessible`: screen readers (Orca, and others that follow the cursor) read the row the
// terminal cursor is on. libedit keeps the cursor in the query, where it edits; between
// keys pick moves it to the selected row, and puts it back (DECRC: the painter saved
// libedit's place with DECSC as it drew) before libedit sees a key or draws again.

extension Picker {
    /// Moves the cursor to the start of the selected line's title (nothing while the help
    /// shows or nothing is listed: it stays in the query).
    func placeCursorOnSelection(_ frame: Frame, geometry g: Geometry) {
        guard help == nil,
              let i = frame.rows.firstIndex(where: { if case .line(let l) = $0 { l.isSelected } else { false } })
        else { return }
        let row = g.listRow(i, headers: frame.headers.count)
        terminal.write("\u{1B}[\(row);\(g.left + gutter.width)H")
        cursorOnSelection = true
    }

    /// Puts the cursor back where libedit left it, if it was moved to the selection.
    func cursorBackToEditor() {
        guard cursorOnSelection else { return }
        terminal.write("\u{1B}8")
        cursorOnSelection = false
    }
}
