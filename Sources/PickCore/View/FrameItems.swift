// Items that take more than one row, as fzf draws them: with `--wrap` a line too long for
// its row goes on over the rows below, each starting with the wrap sign (dim); a `--read0`
// item with newlines takes a row for each of its lines (multi-line, fzf's default there);
// `--gap` adds blank rows after each item. An item's rows read top to bottom in every
// layout. The pointer is drawn on each of the highlighted item's rows, a marked item's
// marker on each of its rows (`--marker-multi-line`: first, middle, last). An item that
// does not fit shows its first rows, except at the list's far end in fzf's default layout
// (the list grows upward), where it shows its last rows and the rest is above the screen,
// unless it is the highlighted one. The window is counted in rows (ListWindow.swift).
// pick's shortcut chips (`--palette`) show on items of one row only.

extension FrameBuilder {
    /// Rows store line `line` takes (at most the list's height) and its gap.
    static func rowCount(_ line: Int, input: FrameInput, store: LineStore, width: Int) -> Int {
        let gap = input.look.gap
        guard input.look.wrap || input.look.multiLine else { return 1 + gap }
        let shown = ShownLine(line, store: store, input: input)
        let count = shown.withBytes(store) { bytes in
            textRows(bytes, title: shown.fields.title, styles: [], input: input,
                     columns: max(1, width - input.gutterWidth), atMost: max(1, input.listHeight), fromEnd: false).rows.count
        }
        return count + gap
    }

    /// The rows of one item in reading order, at most `room`: its text's rows (see
    /// `textRows`) with the wrap sign before a row that goes on from a wrapped one, the
    /// matched characters highlighted on whichever row they fall, each row's part for its
    /// marker. `current`: the highlighted item, shown from its first row even when cut.
    static func itemRows(_ line: Int, position: Int, selected: Bool, marked: Bool, current: Bool, input: FrameInput,
                         store: LineStore, width: Int, room: Int) -> [LineRow] {
        let shown = ShownLine(line, store: store, input: input)
        return shown.withBytes(store) { bytes -> [LineRow] in
            let (offsets, isUnmatched) = highlights(line, shown: shown, position: position, input: input, store: store)
            let highlighted = Set(offsets)
            let available = max(1, width - input.gutterWidth)
            let title = shown.fields.title
            var text = textRows(bytes, title: title, styles: shown.styles, input: input, columns: available,
                                atMost: max(1, room), fromEnd: false, highlights: offsets)
            let cutAtTop = text.overflow && input.rowsReadUpward && !current
            if cutAtTop {
                text = textRows(bytes, title: title, styles: shown.styles, input: input, columns: available,
                                atMost: max(1, room), fromEnd: true, highlights: offsets)
            }
            let count = text.rows.count
            let signWidth = TerminalText.width(input.wrapSign)
            // The sign in the row's colours, dimmed (as fzf's); cut in a row narrower than it.
            let sign = Span(text: signWidth <= available ? input.wrapSign : TerminalText.truncate(input.wrapSign, to: available),
                            isHighlighted: false, isSymbol: false, style: "2")
            var out: [LineRow] = []
            for (k, piece) in text.rows.enumerated() {
                var spans: [Span] = []
                var used = 0
                if piece.continues {
                    spans.append(sign)
                    used = min(signWidth, available)
                }
                // A wrapped row fits its room already (the painter cuts a row at the list's edge).
                let fitted = input.look.wrap
                    ? fit(piece.glyphs, highlighted: highlighted, columns: Int.max / 2)
                    : fit(piece.glyphs, highlighted: highlighted, columns: available - used, ellipsis: input.ellipsis,
                          look: input.look)
                spans += fitted.spans
                var row = LineRow(line: Int32(line), position: position, isSelected: selected, isMarked: marked,
                                  spans: spans, titleColumns: used + fitted.columns, chip: nil)
                row.isUnmatched = isUnmatched
                row.part = part(k, of: count, overflow: text.overflow, cutAtTop: cutAtTop)
                out.append(row)
            }
            return out
        }
    }

    /// fzf's marker classes: an item of one row shown whole is `single`; otherwise the
    /// first row shown is `first` unless rows above it are cut, the last `last` unless rows
    /// below it are.
    static func part(_ k: Int, of count: Int, overflow: Bool, cutAtTop: Bool) -> ItemPart {
        if count == 1 { return !overflow ? .single : cutAtTop ? .last : .first }
        if k == 0 { return cutAtTop ? .middle : .first }
        if k == count - 1 { return cutAtTop || !overflow ? .last : .middle }
        return .middle
    }

    /// One row of an item's text: its glyphs, and whether it goes on from a wrapped row.
    struct TextRow {
        var glyphs: [Glyph]
        var continues: Bool
    }

    /// The rows of the text `bytes[title]`: each of its lines (multi-line) cut or, with
    /// `--wrap`, wrapped to `columns` (`LineWrap`, the list's word breaking), at most
    /// `atMost` of them, the first ones or (`fromEnd`) the last; `overflow`: some are left
    /// out. A line cut short by the list's end keeps its newline, drawn `␊` (as fzf).
    /// Huge lines are decoded only as far as can show.
    static func textRows(_ bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>, styles: [StyleRun],
                         input: FrameInput, columns: Int, atMost: Int, fromEnd: Bool,
                         highlights: [Int] = []) -> (rows: [TextRow], overflow: Bool) {
        // The lines: byte ranges without their newline, and where the newline is.
        var lines: [(range: Range<Int>, newline: Int?)] = []
        if input.look.multiLine {
            var start = title.lowerBound
            for i in title where bytes[i] == 0x0A {
                lines.append((start..<i, i))
                start = i + 1
                if !fromEnd && lines.count >= atMost { break }
            }
            if lines.count < atMost || fromEnd { lines.append((start..<title.upperBound, nil)) }
        } else {
            lines = [(title, nil)]
        }
        let moreLines = !fromEnd && input.look.multiLine && lines.count >= atMost
            && (lines.last.map { $0.newline != nil } ?? false)
        let wrapWords: LineWrap.Words = input.look.wrapWord ? .keepBlank : .off
        let signWidth = TerminalText.width(input.wrapSign)
        let perRow = columns * 4 + 16
        var rows: [TextRow] = []
        var overflow = moreLines
        func glyphs(_ range: Range<Int>, rows budget: Int) -> [Glyph] {
            var range = range
            let last = highlights.last { range.contains($0) } ?? range.lowerBound
            // Wrapped from the end (fromEnd), a line is wrapped from its start.
            let cap = !input.look.wrap ? max(last, range.lowerBound) + perRow
                : range.lowerBound + (fromEnd ? Tunables.Session.wrappedLineBytes : budget * perRow)
            if !input.look.wrap && input.look.keepRight && input.look.hscroll && !highlights.contains(where: range.contains) {
                var from = max(range.lowerBound, range.upperBound - perRow)
                while from > range.lowerBound && from < range.upperBound && bytes[from] & 0xC0 == 0x80 { from += 1 }
                range = from..<range.upperBound
            } else if cap < range.upperBound {
                range = range.lowerBound..<cap
            }
            return TerminalText.glyphs(bytes, range: range, styles: styles, tabStop: input.tabStop)
        }
        func pieces(of line: (range: Range<Int>, newline: Int?), budget: Int) -> (rows: [TextRow], overflow: Bool) {
            let all = glyphs(line.range, rows: budget)
            guard input.look.wrap else { return ([TextRow(glyphs: all, continues: false)], false) }
            let wrapped = LineWrap.rows(all, columns: columns, signWidth: signWidth, words: wrapWords,
                                        maxRows: fromEnd ? .max : budget)
            return (wrapped.rows.enumerated().map { TextRow(glyphs: Array(all[$0.element]), continues: $0.offset > 0) },
                    wrapped.overflow)
        }
        if fromEnd {
            for line in lines.reversed() {
                let more = pieces(of: line, budget: atMost)
                rows.insert(contentsOf: more.rows, at: 0)
                if rows.count >= atMost { break }
            }
            overflow = true
            if rows.count > atMost { rows.removeFirst(rows.count - atMost) }
        } else {
            for (i, line) in lines.enumerated() {
                let more = pieces(of: line, budget: atMost - rows.count)
                rows += more.rows
                if more.overflow || (rows.count >= atMost && i < lines.count - 1) { overflow = true }
                if rows.count >= atMost {
                    // Cut by the list's end right after a line: its newline shows.
                    if !more.overflow, let newline = line.newline, overflow || moreLines {
                        rows[rows.count - 1].glyphs.append(Glyph(text: "\u{240A}", width: 1, offset: newline,
                                                                 isSymbol: true, style: ""))
                    }
                    break
                }
            }
        }
        return (rows, overflow)
    }
}
