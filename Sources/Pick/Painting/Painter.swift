import PickCore

/// Where the picker's rows sit on the terminal: rows `top ..< top + height` (1-based) and
/// columns `left ..< left + width`, the prompt on the first row (layout top) or the last
/// (layouts bottom and reverse-list). With `--margin`, `--border` or `--padding` these are
/// the rows inside them, and `surrounding` says what is drawn around.
struct Geometry: Equatable {
    var top: Int
    var height: Int
    var width: Int
    var layout: Layout
    /// Rows the prompt and query take (more than one when the query wraps; none while the
    /// input is hidden, `--no-input`, when the list takes the prompt's and info line's rows).
    var promptRows = 1
    /// The rows' first column.
    var left = 1
    /// Where the info line goes (`--info`): its own row, the prompt's, or nowhere.
    var info = InfoStyle.default
    /// The rule after the counts (`--separator`), nil for none: with `hidden` and
    /// `inline-right` it is drawn on a row of its own, as fzf's.
    var separator: StyledText? = nil
    /// Whether `separator` is fzf's default, which is left out (with its row) where a
    /// part's border already runs between the input and the list.
    var separatorIsDefault = false
    /// The region around the rows and what fills it; nil when the rows are the region.
    var surrounding: Surrounding? = nil
    /// The preview pane beside the rows (inside the surrounding), if it shows.
    var pane: PaneRect? = nil
    /// A pane at `next` (its rows, 0 while hidden, and its options as placed): the parts
    /// place it, beside the input, which then has a box of its own.
    var nextPane: NextPane? = nil
    /// fzf's rule for the default separator with a pane at `next` (nil: no spec there).
    var nextHidesSeparator: Bool? = nil
    /// The list's scrollbar glyph ("" none: `--no-scrollbar`).
    var scrollbar = ""

    /// The parts' own boxes (`--list-border`, `--input-border`, `--header-first`,
    /// `--footer`…); nil in fzf's plain layout. With them, the fields above are the list's
    /// box inside its border, and the input and headers are there too unless they have
    /// boxes of their own (`parts.layout.separate`).
    var parts: ScreenParts? = nil

    var bottom: Int { top + height - 1 }

    /// Where the list's scrollbar goes, as fzf's: the blank column pick keeps between the
    /// rows and a border's side or the preview pane, or else the rows' own last column
    /// (`inside`), which the lines then leave to it.
    var listBar: (column: Int, inside: Bool) {
        if let pane, pane.position == .right, pane.gap > 0 { return (right + 1, false) }
        if parts == nil, pane?.position != .right, let s = surrounding, s.box.sides.right, s.box.padding.right > 0,
           right == s.width - s.box.total.right {
            return (right + 1, false)
        }
        return (right, true)
    }

    /// The columns a list row's text may take: as fzf's, a column short of the rows' end
    /// when the scrollbar or something on the right takes it.
    var listTextWidth: Int {
        guard listBar.inside else { return width }
        let beside = (parts?.layout.box(.list)?.sides.right ?? false) || (surrounding?.box.sides.right ?? false)
            || pane?.position == .right
        return !scrollbar.isEmpty || beside ? max(1, width - 1) : width
    }
    /// The rows' last column.
    var right: Int { left + width - 1 }
    /// The input's own box inside its border, when it has one.
    var inputBox: ScreenRect? { parts?.layout.separate == true ? parts?.content(.input) : nil }
    /// Whether the parts have boxes of their own (the list's box holds the list alone),
    /// the input's too unless it is hidden.
    var partsApart: Bool { parts?.layout.separate == true }
    /// The prompt's and info line's first and last columns.
    var inputLeft: Int { inputBox?.left ?? left }
    var inputRight: Int { inputBox.map { $0.left + $0.width - 1 } ?? right }
    /// The first row of the prompt (while the input is hidden, where libedit's cursor waits:
    /// a row of the list, which the painter draws over).
    var promptRow: Int {
        let rows = max(1, promptRows)
        if let box = inputBox { return layout.promptOnTop ? box.top : box.top + box.height - rows }
        return layout.promptOnTop ? top : bottom - rows + 1
    }
    /// Whether the prompt's row shows (not with `--no-input`, nor after hide-input).
    var showsInput: Bool { promptRows > 0 }
    /// 1 when the info line, or the rule alone, has a row of its own.
    var infoRows: Int { hasInfoRow ? 1 : 0 }

    var hasInfoRow: Bool {
        guard showsInput else { return false }
        switch info {
        case .default, .right: return true
        case .hidden, .inlineRight: return separator != nil
        case .inline: return false
        }
    }

    /// Rows left for the list once the prompt, the info line and `headers` rows are placed.
    func listHeight(headers: Int) -> Int {
        partsApart ? height : max(0, height - promptRows - infoRows - headers)
    }

    /// The info line's row (with a row of its own), next to the prompt.
    var infoRow: Int { layout.promptOnTop ? promptRow + promptRows : promptRow - 1 }

    /// The row next to the prompt and the info line, where headers and the list start
    /// (below it with the prompt on top; above it, counting upward, otherwise).
    private var anchor: Int { layout.promptOnTop ? top + promptRows + infoRows : bottom - promptRows - infoRows }

    func headerRow(_ k: Int, of count: Int) -> Int {
        layout.promptOnTop ? anchor + k : anchor - count + 1 + k
    }

    /// The screen row of list row `i` (in flow order: 0 is next to the prompt, or with
    /// reverse-list the list's first row at the top).
    func listRow(_ i: Int, headers: Int) -> Int {
        if partsApart { return layout == .bottom ? bottom - i : top + i }
        switch layout {
        case .top: return anchor + headers + i
        case .bottom: return anchor - headers - i
        case .reverseList: return top + i
        }
    }

    /// Where header row `k` goes (`text` rows of `--header` first, then `lines` header
    /// lines): its screen row, first column and width, as fzf places them: the header
    /// lines read upward from the header text except with the prompt on top, every row
    /// indented as far as the list's text (`gutter`); nil when there is no room.
    func headerPlace(_ k: Int, text: Int, lines: Int, gutter: Int) -> (row: Int, left: Int, width: Int)? {
        let count = text + lines
        func reading(_ k: Int, text: Int, lines: Int) -> Int {
            if layout != .bottom { return k }
            return k < text ? lines + k : lines - 1 - (k - text)
        }
        guard let parts, parts.layout.separate else {
            let row = headerRow(reading(k, text: text, lines: lines), of: count)
            return (row, left + gutter, max(0, width - gutter))
        }
        let own = parts.layout.box(.headerLines) != nil
        let inLines = own && k >= text
        guard let box = parts.layout.box(inLines ? .headerLines : .header) else { return nil }
        let r = inLines ? reading(k - text, text: 0, lines: lines)
            : own ? reading(k, text: text, lines: 0) : reading(k, text: text, lines: lines)
        guard r < box.content.height else { return nil }
        let rect = parts.screen(box.content)
        return (rect.top + r, rect.left + box.indent, max(0, rect.width - box.indent))
    }

    /// The rows inside `surround` when this is the whole region (`inline`: with `--height`).
    func inside(_ surround: Surround, inline: Bool) -> Geometry {
        let box = BoxLayout(surround, rows: height, columns: width, inline: inline)
        guard !box.isNone else { return self }
        var g = self
        let t = box.total
        g.top = top + t.top
        g.height = height - t.top - t.bottom
        g.left = left + t.left
        g.width = width - t.left - t.right
        g.promptRows = min(promptRows, max(1, g.height))
        let label = TerminalText.sanitize(surround.label.split(separator: "\n", omittingEmptySubsequences: false)
            .first.map(String.init) ?? "")
        g.surrounding = Surrounding(top: top, height: height, width: width, box: box, glyphs: surround.border.glyphs,
                                    label: label, labelPosition: surround.labelPosition)
        return g
    }

    /// What libedit draws before the prompt on the prompt's row: the left margin, border
    /// and padding.
    var promptPrefix: String {
        // A pane on the left: libedit writes blanks there, which the painter draws over.
        let pane = String(repeating: " ", count: pane?.leftOfRows ?? 0)
        guard let s = surrounding else { return partPrefix(pane) }
        return partPrefix(String(repeating: " ", count: s.box.margin.left) + (s.box.sides.left ? s.glyphs.left : "")
            + String(repeating: " ", count: s.box.padding.left) + pane)
    }
}

/// The region around the picker's rows: its margin (left blank), border and padding.
struct Surrounding: Equatable {
    /// The region: its first row, its rows, and the terminal's columns.
    var top: Int
    var height: Int
    var width: Int
    var box: BoxLayout
    var glyphs: BorderGlyphs
    /// The border's label, safe to draw (one line).
    var label: String
    var labelPosition: LabelPosition
}

/// The two glyphs before a title: the pointer on the selected line, the marker on a
/// marked one (`--pointer`, `--marker`); each slot is as wide as its glyph.
struct Gutter: Equatable {
    var pointer = ">"
    var marker = "*"
    /// What the pointer's column shows on the other rows (`--gutter`; nil: blank), and in
    /// raw mode (`--gutter-raw`).
    var gutter: String? = nil
    var gutterRaw = "\u{2596}"
    var raw = false

    /// The gutter for a frame in raw mode or not.
    func inRawMode(_ on: Bool) -> Gutter {
        var g = self
        g.raw = on
        return g
    }

    /// The pointer's column on a row it does not point at.
    var blank: String {
        // As fzf: the glyph counts one column (an ambiguous `▌` two with --ambidouble).
        let glyph = raw ? gutterRaw : gutter ?? ""
        return glyph + String(repeating: " ", count: max(0, pointerWidth - min(1, TerminalText.width(glyph))))
    }
    /// `--highlight-line`: the selected row's colours to the row's end.
    var highlightsLine = false
    /// `--marker-multi-line`: the marker on a marked item's first, middle and last rows
    /// when it takes more than one.
    var markerMultiLine = ["\u{257B}", "\u{2503}", "\u{2579}"]
    /// `--gap-line`: the rule on a gap's last row (nil: none).
    var gapLine: StyledText? = nil

    var pointerWidth: Int { TerminalText.width(pointer) }
    /// As fzf: the marker's slot is as wide as the wider of `--marker` and the multi-line
    /// markers, the narrower padded.
    var markerWidth: Int { max(TerminalText.width(marker), TerminalText.width(markerMultiLine[0])) }
    var width: Int { pointerWidth + markerWidth }

    /// The marker drawn on a marked item's row, for its place in the item.
    func marker(for part: ItemPart) -> String {
        let glyph: String
        switch part {
        case .single: glyph = marker
        case .first: glyph = markerMultiLine[0]
        case .middle: glyph = markerMultiLine[1]
        case .last: glyph = markerMultiLine[2]
        }
        return glyph + String(repeating: " ", count: max(0, markerWidth - TerminalText.width(glyph)))
    }
}

extension Geometry {
    /// The line `frame` shows on screen row `row`, if any (where a click lands).
    func line(atRow row: Int, of frame: Frame) -> LineRow? {
        guard let i = frame.rows.indices.first(where: { listRow($0, headers: frame.headers.count) == row }),
              case .line(let line) = frame.rows[i] else { return nil }
        return line
    }
}

/// Ghost text: what the best completion adds to the query, drawn dim after it. Ghost text
/// must never pass for typed text: where the theme has no attribute to draw it with
/// (TERM=dumb, --color=bw), and always for a hint in place of an empty query (the recent
/// query `--history` offers), it is drawn in brackets.
struct Ghost: Equatable {
    /// Screen column just after the query (1-based).
    var column: Int
    /// What to draw there ("" draws nothing but still clears old ghost text).
    var text: String
    /// Whether it is a hint rather than a continuation of the query.
    var isHint = false
}

/// Turns a frame into the bytes that draw it. Pure: the same frame gives the same bytes.
///
/// Everything is drawn between DECSC and DECRC (ESC 7 / ESC 8), so the cursor goes back
/// exactly where libedit left it in the query and libedit's idea of the screen stays true.
enum Painter {
    /// The spinner's frames, fzf's (ASCII ones without Unicode).
    static var spinner: [String] { TerminalText.unicodeGlyphs ? unicodeSpinner : asciiSpinner }
    private static let unicodeSpinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
    private static let asciiSpinner = ["-", "\\", "|", "/", "-", "\\", "|", "/"]

    static func paint(_ frame: Frame, geometry g: Geometry, theme: Theme, spinnerPhase: Int = 0,
                      overlay: [String]? = nil, ghost: Ghost? = nil, gutter: Gutter = Gutter(),
                      preview: PreviewFrame? = nil) -> [UInt8] {
        // DECSC saves libedit's query style with the cursor; DECRC gives both back.
        var out = "\u{1B}[?25l\u{1B}7" + theme.reset
        let styled = theme.styled
        let width = max(1, g.width)
        // With something drawn right of the rows, a row is blanked before it is written
        // (ECH), not cleared to the end of the line, which would take the border too.
        let boxedRight = (g.surrounding.map { g.right < $0.width } ?? false) || g.pane?.position == .right
            || g.parts != nil
        func blank(_ columns: Int) -> String { boxedRight ? "\u{1B}[\(max(1, columns))X" : "" }
        func move(_ row: Int, _ column: Int? = nil) { out += "\u{1B}[\(row);\(column ?? g.left)H" }
        var drawn = Set<Int>()
        // Rows pick may draw on: inside the region, never the prompt's.
        func isFree(_ row: Int) -> Bool {
            guard row >= g.top, row <= g.bottom else { return false }
            if g.inputBox != nil { return true }
            return g.layout.promptOnTop ? row >= g.top + g.promptRows : row <= g.bottom - g.promptRows
        }
        // No row is ever wider than the terminal: a wider one would wrap onto the next.
        func line(_ text: String, width: Int = width, in part: Theme = theme) -> String {
            (part.background == theme.background ? "" : part.reset) + blank(width)
                + clip(text, to: width, plain: theme.isPlain, reset: part.reset) + (boxedRight ? "" : "\u{1B}[K")
                + (part.background == theme.background ? "" : theme.reset)
        }

        // Info line.
        let inputWidth = max(1, g.inputRight - g.inputLeft + 1)
        if g.hasInfoRow && (isFree(g.infoRow) || g.inputBox != nil) {
            move(g.infoRow, g.inputLeft)
            // fzf's default rule is gone where a border stands for it (`withParts`); one
            // given with `--separator` is drawn beside the border all the same, as fzf's.
            let rule = g.separator
            // On the input's background (`input-bg`, or the list's).
            let input = theme.inPart(.input)
            out += line(infoLine(frame.info, width: inputWidth, theme: input, phase: spinnerPhase, separator: rule,
                                 style: g.info), width: inputWidth, in: input)
            drawn.insert(g.infoRow)
        }

        for (k, spans) in frame.headers.enumerated() {
            guard let place = g.headerPlace(k, text: frame.headerTextRows, lines: frame.headers.count - frame.headerTextRows,
                                            gutter: gutter.width),
                  g.partsApart || isFree(place.row) else { continue }
            move(place.row, place.left - gutter.width)
            let header = theme.inPart(.header)
            out += line(String(repeating: " ", count: gutter.width)
                        + header.styled(theme.header, TerminalText.truncate(spans.map(\.text).joined(), to: max(0, place.width),
                                                                             ellipsis: theme.labelEllipsis)),
                        width: place.width + gutter.width, in: header)
            if !g.partsApart { drawn.insert(place.row) }
        }

        let listHeight = g.listHeight(headers: frame.headers.count)
        // The list's rows on its background (`list-bg`).
        let list = theme.inPart(.list)
        var body: [String] = []
        if let overlay {
            body = overlay.map { list.styled(theme.info, TerminalText.truncate($0, to: width)) }
        } else if !frame.rows.isEmpty {
            body = frame.rows.map { row($0, width: width, textWidth: g.listTextWidth, theme: list, gutter: gutter) }
        } else {
            body = frame.message.map { list.styled(theme.message, TerminalText.truncate("  " + $0, to: width)) }
        }
        // Overlays and messages read top to bottom in both layouts.
        let readsDown = overlay != nil || frame.rows.isEmpty
        for i in 0..<listHeight {
            let index = (readsDown && g.layout == .bottom) ? i - max(0, listHeight - body.count) : i
            let screenRow = readsDown && g.layout == .bottom
                ? g.listRow(listHeight - 1 - i, headers: frame.headers.count)
                : g.listRow(i, headers: frame.headers.count)
            guard isFree(screenRow) else { continue }
            move(screenRow)
            out += line(index >= 0 && index < body.count ? body[index] : "", in: list)
            drawn.insert(screenRow)
        }
        // Anything else in the region (not the prompt) is cleared.
        for r in g.top...max(g.top, g.bottom) where !drawn.contains(r) && isFree(r) {
            move(r)
            out += line("", in: list)
        }
        if let ghost, ghost.column <= g.inputRight {
            out += "\u{1B}[\(g.promptRow);\(ghost.column)H" + (boxedRight ? blank(g.inputRight - ghost.column + 1) : "\u{1B}[K")
            out += promptTail(ghost, frame.info, geometry: g, theme: theme, phase: spinnerPhase)
        }
        if let s = g.surrounding { out += surroundings(s, geometry: g, theme: theme) }
        if let parts = g.parts { out += partBoxes(parts, geometry: g, theme: theme, gutter: gutter.width) }
        if let pane = g.pane, let preview { out += self.pane(preview, in: pane, theme: theme) }
        if overlay == nil { out += listScrollbar(frame, geometry: g, theme: theme, listHeight: listHeight) }
        // The cursor stays hidden with the input (fzf's).
        out += "\u{1B}8" + (g.showsInput ? "\u{1B}[?25h" : "")
        return Array(out.utf8)
    }

    /// What follows the query on the prompt's row: the ghost text (the room after it, less a
    /// column kept for the cursor at the row's end), and with `--info=inline` or
    /// `inline-right` the info line, as fzf's: `inline` a blank after the cursor's column,
    /// its prefix, the counts, the spinner and the rule; `inline-right` the spinner's slot
    /// (or the prefix) and the counts ending a column short of the row's end.
    static func promptTail(_ ghost: Ghost, _ info: InfoLine, geometry g: Geometry, theme: Theme, phase: Int) -> String {
        let styled = theme.styled
        var room = g.inputRight - ghost.column
        var out = ""
        let spins = info.isBusy && !info.inWords
        // The info line here, if --info puts it here: its text and its width.
        var inline = ""
        var inlineWidth = 0
        var right = false
        var ruleAfter: StyledText? = nil
        switch g.info {
        case .inline(let prefix), .inlineRight(let prefix):
            right = g.info == .inlineRight(prefix: prefix)
            let counts = infoCounts(info, theme: theme, phase: phase, spinner: !right)
            // fzf draws the prefix in the prompt's colours, the spinner's while loading.
            var lead = styled(spins ? theme.spinner : theme.prompt, prefix)
            var leadWidth = TerminalText.width(prefix)
            if right && prefix.isEmpty {
                lead = (spins ? styled(theme.spinner, spinner[phase % spinner.count]) : " ") + " "
                leadWidth = 2
            }
            let scopes = scopeBar(info, room: room - 2 - leadWidth - counts.width - 3, theme: theme)
            inline = right
                ? (scopes.width > 0 ? scopes.text + "   " : "") + lead + counts.text
                : lead + counts.text + (scopes.width > 0 ? "   " + scopes.text : "")
            inlineWidth = leadWidth + counts.width + (scopes.width > 0 ? scopes.width + 3 : 0)
            if !right, scopes.width == 0, !info.inWords { ruleAfter = g.separator }
        default: break
        }
        var ghostText = ghost.text
        if !ghostText.isEmpty && (ghost.isHint || theme.isPlain || theme.ghost.isEmpty) {
            ghostText = "[" + ghostText + "]"
        }
        if right && inlineWidth > 0 {
            // The ghost text gives way to the counts at the right end.
            let ghostRoom = max(0, room - inlineWidth - 1)
            ghostText = TerminalText.width(ghostText) > ghostRoom ? TerminalText.truncate(ghostText, to: ghostRoom) : ghostText
        }
        var blank = 1
        if room > 0, !ghostText.isEmpty {
            let shown = TerminalText.truncate(ghostText, to: room)
            out += styled(theme.ghost, shown)
            room -= TerminalText.width(shown)
            // The cursor stands on the ghost text: the info line follows it at once (fzf's).
            blank = 0
        }
        // A blank keeps the info line off the query; it ends a column short of the row's end.
        guard inlineWidth > 0, room > 1 else { return out }
        if right {
            guard inlineWidth < room else { return out }
            return out + String(repeating: " ", count: room - inlineWidth) + inline
        }
        out += String(repeating: " ", count: blank) + clip(inline, to: room - blank, plain: theme.isPlain, reset: theme.reset)
        let fill = room - blank - inlineWidth - 1
        if let ruleAfter, fill > 0 {
            out += styled(theme.separator ?? theme.border, " ") + rule(ruleAfter, columns: fill, theme: theme)
        }
        return out
    }

    /// The margin, border (with its label) and padding around the rows: every row of the
    /// region but the rows' own. Beside the prompt libedit draws the left side as part of
    /// its prompt; the painter draws the same glyph over it again, in the border's colour.
    static func surroundings(_ s: Surrounding, geometry g: Geometry, theme: Theme) -> String {
        let styled = theme.styled
        var out = ""
        let box = s.box
        let lineWidth = s.width - box.margin.left - box.margin.right
        let leftMargin = String(repeating: " ", count: box.margin.left)
        let leftGlyph = styled(theme.border, box.sides.left ? s.glyphs.left : "")
        let leftSide = leftMargin + leftGlyph + String(repeating: " ", count: box.padding.left)
        let rightSide = String(repeating: " ", count: box.padding.right)
            + styled(theme.border, box.sides.right ? s.glyphs.right : "")
        let clearRight = box.margin.right > 0 ? "\u{1B}[K" : ""
        func borderLine(_ left: String, _ fill: String, _ right: String, label: Bool) -> String {
            let corners = (box.sides.left ? 1 : 0) + (box.sides.right ? 1 : 0)
            let glyphs = Array((box.sides.left ? left : "") + String(repeating: fill, count: max(0, lineWidth - corners))
                + (box.sides.right ? right : ""))  // every border glyph is one column
            guard label && !s.label.isEmpty else { return leftMargin + styled(theme.border, String(glyphs)) + clearRight }
            let text = TerminalText.truncate(s.label, to: lineWidth, ellipsis: theme.labelEllipsis)
            let width = TerminalText.width(text)
            let start = s.labelPosition.start(labelWidth: width, lineWidth: lineWidth)
            return leftMargin + styled(theme.border, String(glyphs.prefix(start))) + styled(theme.label, text)
                + styled(theme.border, String(glyphs.dropFirst(start + width))) + clearRight
        }
        // The label goes on the top line, or the bottom one when asked or when there is no top.
        let labelOnBottom = box.sides.bottom && (s.labelPosition.bottom || !box.sides.top)
        let topRow = s.top + box.margin.top
        let bottomRow = s.top + s.height - 1 - box.margin.bottom
        // Inside the padding: the rows, and the preview pane if any.
        let innerTop = s.top + box.total.top, innerBottom = s.top + s.height - 1 - box.total.bottom
        let innerRight = s.width - box.total.right
        let innerWidth = innerRight - box.total.left
        for r in s.top..<(s.top + s.height) {
            out += "\u{1B}[\(r);1H"
            if r < topRow || r > bottomRow {
                out += "\u{1B}[2K"
            } else if box.sides.top && r == topRow {
                out += borderLine(s.glyphs.topLeft, s.glyphs.top, s.glyphs.topRight, label: !labelOnBottom)
            } else if box.sides.bottom && r == bottomRow {
                out += borderLine(s.glyphs.bottomLeft, s.glyphs.bottom, s.glyphs.bottomRight, label: labelOnBottom)
            } else if r < innerTop || r > innerBottom {
                // Padding above or below the rows.
                out += leftSide + String(repeating: " ", count: max(0, innerWidth)) + rightSide + clearRight
            } else {
                if r == g.promptRow && g.showsInput {
                    // libedit's prompt: only the glyph, recoloured (its continuation rows start
                    // at the first column and have none).
                    if box.sides.left && !leftGlyph.isEmpty && leftGlyph != s.glyphs.left {
                        out += "\u{1B}[\(r);\(box.margin.left + 1)H" + leftGlyph
                    }
                } else if r < g.promptRow || r >= g.promptRow + g.promptRows {
                    out += leftSide
                }
                if innerRight < s.width {
                    out += "\u{1B}[\(r);\(innerRight + 1)H" + rightSide + clearRight
                }
            }
        }
        return out
    }

    /// `text` (pick's own SGR sequences and safe characters) cut to `columns` columns.
    static func clip(_ text: String, to columns: Int, plain: Bool, reset: String = "\u{1B}[0m") -> String {
        // Most rows fit: an ASCII row is measured a byte at a time and kept as it is (a
        // frame of 38 highlighted rows took 0.6 ms, a fifth of it copying them a character
        // at a time).
        if fitsAsASCII(text, columns) { return text }
        var out = String.UnicodeScalarView()
        var used = 0
        var inEscape = false
        var cut = false
        for u in text.unicodeScalars {
            if inEscape {
                out.append(u)
                if u.value >= 0x40 && u.value <= 0x7E && u != "[" { inEscape = false }
                continue
            }
            if u == "\u{1B}" { inEscape = true; out.append(u); continue }
            let w = TerminalText.width(of: u.value)
            if cut || used + w > columns { cut = true; continue }
            used += w
            out.append(u)
        }
        return String(out) + (cut && !plain ? reset : "")
    }

    /// Whether `text` is ASCII and its characters outside escape sequences fit `columns`.
    private static func fitsAsASCII(_ text: String, _ columns: Int) -> Bool {
        var used = 0
        var inEscape = false
        for b in text.utf8 {
            if b >= 0x80 { return false }
            if inEscape {
                if b >= 0x40 && b <= 0x7E && b != UInt8(ascii: "[") { inEscape = false }
            } else if b == 0x1B {
                inEscape = true
            } else {
                used += 1
                if used > columns { return false }
            }
        }
        return true
    }

    /// The info line on a row of its own, as fzf draws it. `default`: the spinner (or a
    /// blank) and a blank, the counts, then the rule (`separator`) to a column short of the
    /// row's end. `right`: the rule, the spinner, the counts ending a column short of the
    /// end. `hidden` and `inline-right` with a rule: the rule alone (their counts are
    /// elsewhere or nowhere). pick's scope bar, where lines carry sections, takes the rule's
    /// place; in words (`--accessible`) there is no rule for a screen reader to read out.
    static func infoLine(_ info: InfoLine, width: Int, theme: Theme, phase: Int, separator: StyledText? = nil,
                         style: InfoStyle = .default) -> String {
        let styled = theme.styled
        let rule = info.inWords ? nil : separator
        func ruled(_ columns: Int) -> String {
            guard let rule, columns > 0 else { return "" }
            return self.rule(rule, columns: columns, theme: theme)
        }
        let spins = info.isBusy && !info.inWords
        let spinnerGlyph = styled(theme.spinner, spinner[phase % spinner.count])
        switch style {
        case .hidden, .inline, .inlineRight:
            return ruled(width - 1)
        case .right:
            let counts = infoCounts(info, theme: theme)
            let scopes = scopeBar(info, room: width - 2 - counts.width - 4 - (spins ? 2 : 0), theme: theme)
            let tail = (spins ? spinnerGlyph + " " : "") + counts.text + " "
            let fill = width - counts.width - 2 - (spins ? 2 : 0)
            guard scopes.width == 0 else {
                return "  " + scopes.text + String(repeating: " ", count: max(1, fill - 2 - scopes.width)) + " " + tail
            }
            guard fill >= 0 else { return tail }
            let lead = rule == nil ? String(repeating: " ", count: fill) : ruled(fill)
            return lead + " " + tail
        case .default:
            let counts = infoCounts(info, theme: theme)
            let scopes = scopeBar(info, room: width - 2 - counts.width - 3, theme: theme)
            let line = (spins ? spinnerGlyph : " ") + " " + counts.text
            if scopes.width > 0 { return line + "   " + scopes.text }
            let fill = width - 4 - counts.width
            return fill > 0 && rule != nil ? line + styled(theme.separator ?? theme.border, " ") + ruled(fill) : line
        }
    }

    /// `separator` repeated to `columns` columns, cut mid-string if need be, as fzf's: in
    /// the separator's colour, or the colours its own SGR codes give.
    static func rule(_ separator: StyledText, columns: Int, theme: Theme, base: String? = nil) -> String {
        let base = base ?? theme.separator ?? theme.border
        return separator.repeated(columns: columns).runs.map { run in
            theme.styled(run.style.isEmpty ? base : base.isEmpty ? run.style : base + ";" + run.style, run.text)
        }.joined()
    }

    /// The counts, in fzf's order: matches/total (pick: and the close matches), the marks
    /// under --multi, `+S`/`-S` when a key toggles sorting, `+T` with `--track`; with
    /// `spinner`, the spinner after them (fzf's inline styles); in words, ", loading".
    static func infoCounts(_ info: InfoLine, theme: Theme, phase: Int = 0, spinner withSpinner: Bool = false)
        -> (text: String, width: Int) {
        let styled = theme.styled
        if let output = info.commandOutput {
            // --info-command: its output in the info colour, or the colours it gives.
            var text = output.runs.map { run in
                styled(run.style.isEmpty ? theme.info : theme.info.isEmpty ? run.style : theme.info + ";" + run.style, run.text)
            }.joined()
            var width = output.width
            if withSpinner && info.isBusy && !info.inWords {
                text += " " + styled(theme.spinner, spinner[phase % spinner.count])
                width += 2
            }
            return (text, width)
        }
        if let failure = info.failure {
            let plain = TerminalText.sanitize(failure)
            return (styled(theme.info, plain), TerminalText.width(plain))
        }
        // An older query's count is not this one's: it is said as in progress.
        let matches = info.countPending ? "…" : "\(info.matches)"
        var plain = info.inWords ? spokenCounts(info) : "\(matches)/\(info.total)"
        // The rows below are not all real matches: say how many are close ones.
        if info.closeMatches > 0 {
            plain += info.inWords ? ", \(info.closeMatches) close" : " +\(info.closeMatches) close"
        }
        // As fzf: under --multi, how many are marked, always (` (0)`), out of the limit if
        // there is one; in words, once something is.
        if let marked = info.marked, info.markLimit > 0 {
            plain += " (\(marked)/\(info.markLimit))"
        } else if let marked = info.marked, info.inWords {
            plain += marked > 0 ? " (\(marked) marked)" : ""
        } else if let marked = info.marked {
            plain += " (\(marked))"
        }
        if let sorts = info.sorts { plain += sorts ? " +S" : " -S" }
        // As fzf: +T for --track, +t for the one line track-current follows; with a star
        // while a reload's tracking holds the picker.
        if info.tracks { plain += " +T" } else if info.tracksCurrent { plain += " +t" }
        if info.trackBlocked && (info.tracks || info.tracksCurrent) { plain += "*" }
        if info.waits { plain += info.inWords ? ", waiting" : " (..)" }
        if info.isBusy && info.inWords { plain += ", loading" }
        var text = styled(theme.info, plain)
        var width = TerminalText.width(plain)
        if withSpinner && info.isBusy && !info.inWords {
            text += " " + styled(theme.spinner, spinner[phase % spinner.count])
            width += 2
        }
        return (text, width)
    }

    /// The counts as a screen reader should say them: "no matches", "1 match", "42 matches",
    /// then the number of lines.
    static func spokenCounts(_ info: InfoLine) -> String {
        let matches = info.countPending ? "counting matches"
            : info.matches == 0 ? "no matches" : info.matches == 1 ? "1 match" : "\(info.matches) matches"
        return matches + " of \(info.total) line" + (info.total == 1 ? "" : "s")
    }

    /// The scope bar (All and the sections, the current one marked) cut to `room` columns;
    /// empty when lines carry no section.
    static func scopeBar(_ info: InfoLine, room: Int, theme: Theme) -> (text: String, width: Int) {
        let styled = theme.styled
        var text = ""
        var used = 0
        for (i, name) in info.scopes.enumerated() {
            let label = i == info.scope && (theme.isPlain || theme.scope.isEmpty) ? "[\(name)]" : name
            let sep = i == 0 ? "" : " · "
            let w = TerminalText.width(sep + label)
            if used + w > room { break }
            used += w
            text += styled(theme.info, sep) + (i == info.scope ? styled(theme.scope, label) : styled(theme.info, label))
        }
        return (text, used)
    }

    /// The list's scrollbar: its glyph on the rows the frame's thumb spans, in the
    /// `scrollbar` colour (the list border's, the border's unless set); a blank on the
    /// others where the rows' own drawing does not clear the column.
    static func listScrollbar(_ frame: Frame, geometry g: Geometry, theme: Theme, listHeight: Int) -> String {
        guard !g.scrollbar.isEmpty, g.width > 1 || !g.listBar.inside else { return "" }
        let bar = g.listBar
        let thumb = frame.rows.isEmpty ? nil : frame.scrollbar
        guard thumb != nil || !bar.inside else { return "" }
        let colour = theme.scrollbar ?? theme.partBorders[.list] ?? theme.border
        var out = ""
        for i in 0..<listHeight {
            let on = thumb?.contains(i) ?? false
            guard on || !bar.inside else { continue }
            out += "\u{1B}[\(g.listRow(i, headers: frame.headers.count));\(bar.column)H"
                + (on ? theme.styled(colour, g.scrollbar) : " ")
        }
        return out
    }

    /// One list row: the gutter, the text cut to `textWidth` columns (the row's `width`
    /// less the scrollbar's column), the chip.
    static func row(_ row: FrameRow, width: Int, textWidth: Int? = nil, theme: Theme, gutter: Gutter = Gutter()) -> String {
        let fullWidth = width
        let reset = theme.reset
        func sgr(_ p: String) -> String { p.isEmpty || theme.isPlain ? "" : "\u{1B}[\(p)m" }
        switch row {
        case .section(let name):
            return sgr(theme.section) + name + (theme.isPlain || theme.section.isEmpty ? "" : reset)
        case .gap(let rule):
            // As fzf: the gutter's blank, then the gap line to a column short of the row's end.
            let lead = (gutter.pointerWidth > 0 ? sgr(gutter.raw || gutter.gutter != nil ? theme.gutterGlyph : theme.gutter)
                        + gutter.blank + (theme.isPlain ? "" : reset) : "") + String(repeating: " ", count: gutter.markerWidth)
            guard rule, let line = gutter.gapLine, width - gutter.width - 1 > 0 else { return lead }
            return lead + self.rule(line, columns: width - gutter.width - 1, theme: theme, base: theme.border) + (theme.isPlain ? "" : reset)
        case .line(let line):
            let width = textWidth ?? fullWidth
            // A marked row (`--multi`) has its own colours, the selected row's win over them.
            let isMarkedStyle = line.isMarked && !line.isSelected && !theme.marked.isEmpty
            // One sequence for each layer: a terminal takes a bounded number of parameters in
            // one (tmux 24), and two 24-bit colours with a third over them pass that.
            let layers = line.isSelected ? [theme.normal, theme.selected]
                : isMarkedStyle ? [theme.normal, theme.marked] : [theme.normal]
            let textLayer = line.isUnmatched ? theme.unmatched : ""
            let base = layers.map(sgr).joined()
            func with(_ extra: String) -> String {
                theme.isPlain ? "" : reset + base + sgr(extra)
            }
            // The pointer, gutter and marker take the row's colours but not its attributes
            // (fzf's: a marker on the selected row is not bold).
            let markBase = layers.map { sgr(Theme.colourParameters($0)) }.joined()
            func mark(_ extra: String) -> String {
                theme.isPlain ? "" : reset + markBase + sgr(extra)
            }
            var out = with("")
            if let label = line.jumpLabel {
                out += with(theme.pointer) + String(label) + String(repeating: " ", count: max(0, gutter.pointerWidth - 1))
            } else if line.isSelected {
                out += mark(theme.pointer) + gutter.pointer
            } else if gutter.pointerWidth > 0 {
                out += mark(gutter.raw || gutter.gutter != nil ? theme.gutterGlyph : theme.gutter) + gutter.blank
            }
            out += line.isMarked ? mark(theme.marker) + gutter.marker(for: line.part)
                                 : with("") + String(repeating: " ", count: gutter.markerWidth)
            for span in line.spans {
                var extra: [String] = []
                if !span.style.isEmpty { extra.append(span.style) }
                if !textLayer.isEmpty { extra.append(textLayer) }
                if span.isSymbol && !theme.symbol.isEmpty { extra.append(theme.symbol) }
                if span.isHighlighted {
                    let h = line.isSelected ? theme.highlightSelected
                        : line.isMarked && !theme.markedHighlight.isEmpty ? theme.markedHighlight : theme.highlight
                    if !h.isEmpty { extra.append(h) }
                }
                out += with(extra.joined(separator: ";")) + span.text
            }
            out += with("")
            var used = gutter.width + line.titleColumns
            if let chip = line.chip {
                // A key that picks the line looks like a key; a hint (a key the editor or
                // pick uses, or no key at all) is dim text, or in parentheses without colour.
                let chipText = line.chipFires
                    ? (theme.isPlain || theme.chip.isEmpty ? "[\(chip)]" : " \(chip) ")
                    : (theme.isPlain ? "(\(chip))" : " \(chip) ")
                let chipStyle = line.chipFires ? theme.chip : theme.ghost
                let chipWidth = TerminalText.width(chipText)
                if width - chipWidth > used {
                    out += String(repeating: " ", count: width - chipWidth - used)
                    used = width - chipWidth
                }
                out += with(chipStyle) + chipText + with("")
                used += chipWidth
            }
            // As fzf: the selected row's colours end with its text unless --highlight-line,
            // then they reach the text's last column (short of the scrollbar's).
            if line.isSelected && !theme.selected.isEmpty && gutter.highlightsLine && used < width {
                out += String(repeating: " ", count: width - used)
            } else if isMarkedStyle && used < width {
                out += String(repeating: " ", count: width - used)
            }
            return out + (theme.isPlain ? "" : reset)
        }
    }
}
