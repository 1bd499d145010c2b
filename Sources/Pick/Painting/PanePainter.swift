import PickCore

/// The preview pane's box on the screen (1-based), its border included.
struct PaneRect: Equatable {
    var top: Int
    var left: Int
    var height: Int
    var width: Int
    var position: PreviewPosition
    /// The `--preview-window` options in force there (the alternative's, on a small screen).
    var window: PreviewWindow
    /// `--preview-label` and where it goes (`--preview-label-pos`).
    var label = ""
    var labelPosition = LabelPosition()

    /// The scrollbar's glyph ("" none): in the column before the right border, or without
    /// one in the pane's last column, which the text then leaves to it (fzf's).
    var scrollbar = ""

    /// Blank columns between the pane and the rows beside it (fzf's one), so that a cut
    /// title never runs into a borderless pane's text.
    var gap = 0

    /// Columns a pane on the left takes before the rows, its gap included.
    var leftOfRows: Int { position == .left ? width + gap : 0 }

    /// The text area inside the border.
    var text: (top: Int, left: Int, height: Int, width: Int) {
        let b = window.borderInsets
        let barColumn = !scrollbar.isEmpty && b.right == 0 ? 1 : 0
        return (top + b.top, left + b.left, max(0, height - b.top - b.bottom), max(0, width - b.left - b.right - barColumn))
    }

    func contains(row: Int, column: Int) -> Bool {
        row >= top && row < top + height && column >= left && column < left + width
    }
}

/// A preview pane at `next`: its rows (0 while hidden) and its options as placed.
struct NextPane: Equatable {
    var size: Int
    var window: PreviewWindow
}

extension Geometry {
    /// The rows beside a preview pane placed as `window` says: the pane takes its share of
    /// the rows' area (above, below, left or right of the prompt, info line and list).
    /// `listSides`: the list's own border (`--list-border`), which stands between the rows
    /// and the pane as fzf's does, with no blank column. A pane at `next` is left to the
    /// parts (`withParts`), which place it beside the input. `hasCommand`: `--preview`
    /// gave one (fzf's separator rule for `next`).
    func besidePreview(_ window: PreviewWindow, listSides: Sides = Sides(), hasCommand: Bool = true) -> Geometry {
        let placement = PreviewPlacement.place(window, rows: height, columns: width)
        var g = self
        g.nextHidesSeparator = window.nextHidesSeparator(layout: layout, hasCommand: hasCommand)
        if placement.window.position == .next {
            g.nextPane = NextPane(size: placement.size, window: placement.window.placed(in: layout))
            return g
        }
        guard placement.isShown else { return g }
        let size = placement.size
        var pane = PaneRect(top: top, left: left, height: height, width: width, position: placement.window.position,
                            window: placement.window)
        // A pane above or below with no right border, inside a border that has one, takes
        // the border's padding column (fzf's), unless the list's border stands there.
        let stickRight = (surrounding.map { $0.box.sides.right && $0.box.padding.right > 0 } ?? false)
            && !placement.window.borderSides.right && !listSides.right ? 1 : 0
        switch placement.window.position {
        case .up:
            pane.height = size
            pane.width += stickRight
            g.top += size
            g.height -= size
        case .down, .next:
            pane.top = top + height - size
            pane.height = size
            pane.width += stickRight
            g.height -= size
        case .left:
            pane.width = size
            pane.gap = g.width - size > 1 && !listSides.left ? 1 : 0
            g.left += size + pane.gap
            g.width -= size + pane.gap
        case .right:
            // A pane with no right border inside a border that has one takes the border's
            // padding column, its scrollbar then beside the border (fzf's).
            let stick = (surrounding.map { $0.box.sides.right && $0.box.padding.right > 0 } ?? false)
                && !placement.window.borderSides.right ? 1 : 0
            pane.left = left + width + stick - size
            pane.width = size
            pane.gap = g.width + stick - size > 1 && !listSides.right ? 1 : 0
            g.width += stick - size - pane.gap
        }
        g.promptRows = min(g.promptRows, max(1, g.height))
        g.pane = pane
        return g
    }
}

extension Painter {
    /// The preview pane: its border, its text rows (the scroll position at the first one's
    /// right end), each blanked to the pane's
    /// width (never cleared to the end of the line: the list may be to the right).
    static func pane(_ frame: PreviewFrame, in rect: PaneRect, theme: Theme) -> String {
        func sgr(_ p: String) -> String { p.isEmpty || theme.isPlain ? "" : "\u{1B}[\(p)m" }
        // The preview's own background (`preview-bg`), else the theme's.
        let background = theme.previewBackground.isEmpty ? theme.background : theme.previewBackground
        let reset = theme.isPlain ? "" : "\u{1B}[0" + (background.isEmpty ? "" : ";" + background) + "m"
        let border = sgr(theme.previewBorder ?? theme.border)
        let g = frame.glyphs
        let s = frame.sides
        let text = rect.text
        var out = reset
        func move(_ row: Int, _ column: Int) { out += "\u{1B}[\(row);\(column)H" }
        // The label on the top line, or the bottom one when asked or when there is no top.
        let labelOnBottom = s.bottom && (rect.labelPosition.bottom || !s.top)
        func horizontal(_ row: Int, _ left: String, _ fill: String, _ right: String, label: Bool) {
            move(row, rect.left)
            let inner = max(0, rect.width - (s.left ? 1 : 0) - (s.right ? 1 : 0))
            let glyphs = Array((s.left ? left : "") + String(repeating: fill, count: inner) + (s.right ? right : ""))
            guard label, !rect.label.isEmpty else { out += border + String(glyphs) + reset; return }
            let shown = TerminalText.truncate(TerminalText.sanitize(rect.label), to: rect.width, ellipsis: theme.labelEllipsis)
            let width = TerminalText.width(shown)
            let start = rect.labelPosition.start(labelWidth: width, lineWidth: rect.width)
            out += border + String(glyphs.prefix(start)) + reset + sgr(theme.previewLabel ?? theme.label) + shown + reset
                + border + String(glyphs.dropFirst(start + width)) + reset
        }
        if s.top { horizontal(rect.top, g.topLeft, g.top, g.topRight, label: !labelOnBottom) }
        if s.bottom { horizontal(rect.top + rect.height - 1, g.bottomLeft, g.bottom, g.bottomRight, label: labelOnBottom) }
        for i in 0..<text.height {
            let row = text.top + i
            move(row, rect.left)
            if s.left { out += border + g.left + reset + " " }
            var used = 0
            if i < frame.rows.count {
                for span in frame.rows[i] {
                    // As fzf: the preview's text in `preview-fg`, else `fg`.
                    let normal = theme.previewNormal.isEmpty ? theme.normal : theme.previewNormal
                    var styles: [String] = normal.isEmpty ? [] : [normal]
                    if !span.style.isEmpty { styles.append(span.style) }
                    if span.isSymbol && !theme.symbol.isEmpty { styles.append(theme.symbol) }
                    out += reset + sgr(styles.joined(separator: ";")) + span.text
                    used += TerminalText.width(span.text)
                }
                out += reset
            }
            var room = text.width - used
            if i == 0 && !frame.info.isEmpty && room > TerminalText.width(frame.info) {
                room -= TerminalText.width(frame.info)
                out += String(repeating: " ", count: room) + sgr(theme.info) + frame.info + reset
                room = 0
            }
            out += String(repeating: " ", count: max(0, room))
            if !rect.scrollbar.isEmpty {
                let onThumb = frame.scrollbar?.contains(i) ?? false
                out += onThumb ? sgr(theme.previewScrollbarColour) + rect.scrollbar + reset : " "
            } else if s.right {
                out += " "
            }
            if s.right { out += border + g.right + reset }
        }
        if rect.gap > 0 {
            let column = rect.position == .left ? rect.left + rect.width : rect.left - rect.gap
            for row in rect.top..<(rect.top + rect.height) {
                move(row, column)
                out += String(repeating: " ", count: rect.gap)
            }
        }
        return out + theme.reset
    }
}
