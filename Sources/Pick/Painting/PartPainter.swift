import PickCore

/// A rectangle on the terminal: its first row and column (1-based), rows and columns.
struct ScreenRect: Equatable {
    var top: Int, left: Int, height: Int, width: Int
}

/// The parts' boxes (`PartLayout`) placed on the terminal: the area's first row and column.
struct ScreenParts: Equatable {
    var layout: PartLayout
    var top: Int
    var left: Int
    /// Each part's text: `--footer`'s lines.
    var footer: [String] = []

    func screen(_ r: PartRect) -> ScreenRect {
        ScreenRect(top: top + r.top, left: left + r.left, height: r.height, width: r.width)
    }

    func content(_ part: PickerPart) -> ScreenRect? { layout.box(part).map { screen($0.content) } }
}

extension Geometry {
    /// The parts laid out in these rows (`spec`, with `rows` of text in each part); the
    /// same rows when fzf's plain layout needs no boxes.
    func withParts(_ spec: PartsSpec, headerText: Int, headerLines: Int, footer: [String], gutter: Int,
                   input: Bool = true) -> Geometry {
        guard !spec.isPlain || !footer.isEmpty || (layout == .reverseList && headerLines > 0) || nextPane != nil
        else { return self }
        let rows = PartLayout.Rows(input: input ? promptRows + infoRows : 0, header: headerText,
                                   headerLines: headerLines, footer: footer.count, preview: nextPane?.size)
        let placed = PartLayout(spec, layout: layout, rows: rows, height: height, width: width, gutter: gutter)
        guard let list = placed.box(.list), list.content.height > 0 || placed.separate else { return self }
        // With a pane at `next`, fzf's rule: an input border toward the list, else the pane's.
        var separated = placed.separatedFromList
        if let byPane = nextHidesSeparator {
            let sides = placed.box(.input)?.sides ?? Sides()
            separated = (layout.promptOnTop ? sides.bottom : sides.top) || byPane
        }
        if separated, separatorIsDefault, separator != nil {
            var without = self
            without.separator = nil
            without.separatorIsDefault = false
            return without.withParts(spec, headerText: headerText, headerLines: headerLines, footer: footer,
                                     gutter: gutter, input: input)
        }
        var g = self
        let parts = ScreenParts(layout: placed, top: top, left: left, footer: footer)
        let content = parts.screen(list.content)
        g.top = content.top
        g.height = content.height
        g.left = content.left
        g.width = max(1, content.width)
        if !placed.separate { g.promptRows = min(promptRows, max(1, g.height)) }
        g.parts = parts
        g.parts?.layout.separatedFromList = separated
        if let next = nextPane, let box = placed.box(.preview), box.box.height > 0 {
            let rect = parts.screen(box.box)
            g.pane = PaneRect(top: rect.top, left: rect.left, height: rect.height, width: rect.width,
                              position: next.window.position, window: next.window)
        }
        return g
    }

    /// Where `--footer`'s line `k` goes: its screen row and the first column of its text
    /// (after the box's indent); nil when it has no row. The lines sit at the box's top
    /// with the prompt on top, at its bottom otherwise.
    func footerPlace(_ k: Int) -> (row: Int, left: Int)? {
        guard let parts, let box = parts.layout.box(.footer) else { return nil }
        let content = parts.screen(box.content)
        let shown = min(parts.footer.count, content.height)
        guard k >= 0, k < shown else { return nil }
        let row = layout == .top ? content.top + k : content.top + content.height - shown + k
        return (row, content.left + box.indent)
    }

    /// The boxes' columns left of the prompt that libedit draws with it: blanks, and the
    /// left sides of the border and of the prompt's box.
    func partPrefix(_ prefix: String) -> String {
        guard let parts else { return prefix }
        let box = parts.layout.separate ? parts.layout.box(.input) : parts.layout.box(.list)
        guard let box else { return prefix }
        let rect = parts.screen(box.box)
        var columns = Array(prefix)
        while columns.count < inputLeft - 1 { columns.append(" ") }
        if box.sides.left, rect.left - 1 < columns.count { columns[rect.left - 1] = Character(box.style.glyphs.left) }
        return String(columns.prefix(inputLeft - 1))
    }
}

extension Painter {
    /// Every part's box: its border and label, and inside the header, header lines and
    /// footer boxes, the rows the frame does not draw.
    static func partBoxes(_ parts: ScreenParts, geometry g: Geometry, theme base: Theme, gutter: Int) -> String {
        var out = ""
        for box in parts.layout.boxes {
            let rect = parts.screen(box.box)
            // The header lines' box takes the header's colours, as fzf's; each box its own
            // background (`header-bg`…).
            let owner = box.part == .headerLines ? PickerPart.header : box.part
            let theme = base.inPart(owner)
            let styled = theme.styled
            let inBox = theme.background == base.background ? "" : theme.reset
            defer { if !inBox.isEmpty { out += base.reset } }
            let borderColour = theme.partBorders[owner] ?? theme.border
            let labelColour = theme.partLabels[box.labelIsList ? .list : owner] ?? theme.label
            guard rect.height > 0 else { continue }
            let glyphs = box.style.glyphs
            let s = box.sides
            if box.part == .footer {
                let content = parts.screen(box.content)
                for (k, text) in parts.footer.prefix(content.height).enumerated() {
                    guard let r = g.footerPlace(k)?.row else { continue }
                    let shown = TerminalText.truncate(TerminalText.sanitize(text), to: max(0, content.width - box.indent),
                                                      ellipsis: theme.labelEllipsis)
                    out += "\u{1B}[\(r);\(content.left)H" + inBox + "\u{1B}[\(max(1, content.width))X"
                        + String(repeating: " ", count: box.indent) + styled(theme.footer ?? theme.header, shown)
                }
            }
            guard s != Sides() else { continue }
            func line(_ row: Int, _ l: String, _ fill: String, _ r: String, label: Bool) {
                let corners = (s.left ? 1 : 0) + (s.right ? 1 : 0)
                let glyphRow = Array((s.left ? l : "") + String(repeating: fill, count: max(0, rect.width - corners))
                    + (s.right ? r : ""))
                out += "\u{1B}[\(row);\(rect.left)H" + inBox
                guard label, !box.label.isEmpty else { out += styled(borderColour, String(glyphRow)); return }
                let text = TerminalText.truncate(TerminalText.sanitize(box.label), to: rect.width, ellipsis: theme.labelEllipsis)
                let width = TerminalText.width(text)
                let start = box.labelPosition.start(labelWidth: width, lineWidth: rect.width)
                out += styled(borderColour, String(glyphRow.prefix(start))) + styled(labelColour, text)
                    + styled(borderColour, String(glyphRow.dropFirst(start + width)))
            }
            let labelOnBottom = s.bottom && (box.labelPosition.bottom || !s.top)
            // An inline section's line toward the list crosses the list's box.
            let joinsTop = box.inline && s.top && !(parts.layout.box(.list).map { $0.box.top > rect.top } ?? false)
            let joinsBottom = box.inline && s.bottom && !joinsTop
            let joins = glyphs.joins
            if s.top {
                line(rect.top, joinsTop ? joins.left : glyphs.topLeft, joinsTop ? glyphs.bottom : glyphs.top,
                     joinsTop ? joins.right : glyphs.topRight, label: !labelOnBottom)
            }
            if s.bottom {
                line(rect.top + rect.height - 1, joinsBottom ? joins.left : glyphs.bottomLeft, glyphs.bottom,
                     joinsBottom ? joins.right : glyphs.bottomRight, label: labelOnBottom)
            }
            let first = rect.top + (s.top ? 1 : 0), last = rect.top + rect.height - 1 - (s.bottom ? 1 : 0)
            guard first <= last else { continue }
            for r in first...last {
                // The side and the blank after it (the old frame may have drawn a line there).
                if s.left { out += "\u{1B}[\(r);\(rect.left)H" + inBox + styled(borderColour, glyphs.left) + " " }
                if s.right { out += "\u{1B}[\(r);\(rect.left + rect.width - 1)H" + inBox + styled(borderColour, glyphs.right) }
            }
        }
        return out
    }
}
