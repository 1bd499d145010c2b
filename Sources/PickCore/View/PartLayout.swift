// The picker's parts stacked in the area inside the border, as fzf 0.74 stacks them: the
// input (prompt and info line), the header (`--header`), the header lines
// (`--header-lines`), the list and the footer (`--footer`), each in a box of its own that
// may have a border and a label (`--input-border`, `--header-border`,
// `--header-lines-border`, `--list-border`, `--footer-border`, their `-label`/`-label-pos`).
//
// fzf keeps the input and the headers inside the list's box until one of them needs a box
// of its own: an input border, a header border or `--header-first` with headers to show,
// or both kinds of header with `--header-lines-border` or `--header-first`. Then every part
// has its box, and the boxes follow one another in the layout's order:
//
//     layout            top to bottom
//     bottom (default)  footer, list, header lines, header, input
//       --header-first  footer, list, [header lines], input, header (or header lines)
//     top (reverse)     input, header, header lines, list, footer
//       --header-first  header (or header lines), input, [header lines], list, footer
//     reverse-list      footer, header lines, list, header, input
//       --header-first  footer, [header lines], list, input, header
//
// A preview pane at `next` (`--preview-window next`) takes rows of its own between the
// input and the part after it on the list's side; the input then has a box of its own.
//
// Inside a box, a left side takes two columns (the line and a blank), a right side one;
// a box without a left side beside a list box with one is shifted by those two columns so
// that every part's text lines up with the list's.

/// One part of the picker.
public enum PickerPart: Equatable, Sendable {
    case input, header, headerLines, list, footer
    /// The rows of a preview pane at `next` (the pane draws its own border).
    case preview
}

/// A part's border and its label.
public struct PartBorder: Equatable, Sendable {
    public var style = BorderStyle.none
    public var label = ""
    public var labelPosition = LabelPosition()

    public init(style: BorderStyle = .none, label: String = "", labelPosition: LabelPosition = LabelPosition()) {
        self.style = style
        self.label = label
        self.labelPosition = labelPosition
    }

    /// Sides drawn, for a part inside the picker's area: `line` is one line, on the side
    /// fzf chooses for each part in each layout.
    func sides(_ layout: Layout, _ part: PickerPart) -> Sides {
        guard style == .line || style == .inline else { return style.sides(inline: true) }
        let top: Bool
        switch part {
        case .list: return Sides()
        case .input, .header: top = layout != .top
        case .headerLines: top = layout == .bottom
        case .footer: top = layout == .top
        case .preview: return Sides()
        }
        return top ? Sides(top: true) : Sides(bottom: true)
    }
}

/// What the parts ask for: their borders, `--header-first`, and how many rows each shows.
public struct PartsSpec: Equatable, Sendable {
    public var list = PartBorder(), input = PartBorder(), header = PartBorder()
    /// fzf's footer has a line toward the list unless told otherwise.
    public var footer = PartBorder(style: .line)
    /// `--header-lines-border`; nil when not given (the header lines share the header's).
    public var headerLines: PartBorder? = nil
    public var headerFirst = false

    public init() {}

    /// Whether any of it changes fzf's plain layout (one box, nothing around the parts)
    /// when there is no footer.
    public var isPlain: Bool {
        list.style == .none && input.style == .none && header.style == .none && headerLines == nil && !headerFirst
    }
}

extension PartsSpec {
    /// fzf's rule for `inline` (the options refuse it where fzf does): an inline header's
    /// lines may not have another border.
    func checkInline(headerLines: Int) throws {
        if header.style == .inline, headerLines > 0, let lines = self.headerLines, lines.style != .inline, lines.style != .none {
            throw OptionError(message: "--header-border=inline requires --header-lines-border to be inline or unset")
        }
    }
}

/// A rectangle of the area: rows and columns from 0.
public struct PartRect: Equatable, Sendable {
    public var top: Int, left: Int, height: Int, width: Int

    public init(top: Int, left: Int, height: Int, width: Int) {
        (self.top, self.left, self.height, self.width) = (top, left, height, width)
    }

    public var bottom: Int { top + height - 1 }
}

/// A part's box: where it is, its border and label, and the rectangle inside for its text.
public struct PartBox: Equatable, Sendable {
    public var part: PickerPart
    public var box: PartRect
    public var sides: Sides
    public var style: BorderStyle
    public var label: String
    public var labelPosition: LabelPosition
    /// Inside the border (the list's box: the list and what shares it).
    public var content: PartRect
    /// Columns before a header or footer line's text inside `content`: the list's gutter,
    /// plus the list border's two columns when this box has no left side of its own.
    public var indent = 0
    /// An `inline` section: drawn inside the list's border, the line toward the list
    /// joining the list's sides (├─┤), and `style` is the list's.
    public var inline = false
    /// The label is the list's (`--list-label`), on the list's edge this inline section
    /// took, as fzf's.
    public var labelIsList = false
}

/// The parts placed in an area.
public struct PartLayout: Equatable, Sendable {
    /// Every box, top to bottom.
    public var boxes: [PartBox] = []
    /// Whether the input and headers have boxes of their own (else they share the list's).
    public var separate = false
    /// Whether a border line runs between the info line and the list's side of it.
    public var separatedFromList = false

    public init() {}

    public func box(_ part: PickerPart) -> PartBox? { boxes.first { $0.part == part } }

    /// Rows each part's text takes.
    public struct Rows: Equatable, Sendable {
        /// The prompt and the info line's own row (0 with `--no-input`).
        public var input: Int
        public var header: Int
        public var headerLines: Int
        public var footer: Int
        /// A preview pane at `next`: its rows, border included (0 while hidden, or none
        /// there: nil, as the input then needs no box for it).
        public var preview: Int?

        public init(input: Int, header: Int, headerLines: Int, footer: Int, preview: Int? = nil) {
            (self.input, self.header, self.headerLines, self.footer) = (input, header, headerLines, footer)
            self.preview = preview
        }
    }

    /// Places the parts in an area of `height` rows and `width` columns. `gutter`: the
    /// columns before a list line's text (headers and the footer are indented as far).
    public init(_ spec: PartsSpec, layout: Layout, rows: Rows, height: Int, width: Int, gutter: Int) {
        let listLeft = spec.list.sides(layout, .list).left, listRight = spec.list.sides(layout, .list).right
        let headerLinesBorder = spec.headerLines ?? PartBorder(style: rows.header == 0 ? spec.header.style : .none)
        // fzf's rules (terminal.go, determineHeaderLinesShape and hasHeaderWindow).
        var linesBox = false
        if rows.headerLines > 0 {
            if spec.headerLines != nil || layout == .reverseList { linesBox = true }
            else if rows.header == 0 { linesBox = spec.headerFirst && spec.header.style == .none }
            else { linesBox = spec.headerFirst }
        }
        var headerBox: Bool
        if linesBox { headerBox = rows.header > 0 }
        else if spec.header.style != .none || spec.headerFirst { headerBox = rows.header + rows.headerLines > 0 }
        else { headerBox = spec.input.style != .none }
        let inputBox = rows.input > 0 && (spec.input.style != .none || headerBox || linesBox || rows.preview != nil)
        // The header beside the list, between it and a `next` pane.
        if inputBox, !headerBox, !linesBox, rows.header + rows.headerLines > 0 { headerBox = true }
        // With the input hidden (`--no-input`), the headers keep their boxes.
        separate = inputBox || (rows.input == 0 && (headerBox || linesBox))

        // `inline` sections go inside the list's border, next to the list whatever
        // `--header-first` says (as fzf's); without a top or bottom on the list's border
        // they are drawn as `line`.
        let listSides = spec.list.style.sides(inline: true)
        var inlined: [PickerPart] = []
        if listSides.top || listSides.bottom {
            if headerBox && spec.header.style == .inline { inlined.append(.header) }
            if linesBox && headerLinesBorder.style == .inline { inlined.append(.headerLines) }
            if rows.footer > 0 && spec.footer.style == .inline { inlined.append(.footer) }
        }
        // The side of the list each inline section goes on (true: below it), the nearest first.
        func below(_ part: PickerPart) -> Bool {
            switch part {
            case .footer: return layout == .top
            case .headerLines: return layout == .bottom
            default: return layout != .top
            }
        }
        let nearFirst: [PickerPart] = [.headerLines, .header, .footer]
        let belowList = nearFirst.filter { inlined.contains($0) && below($0) }
        let aboveList = nearFirst.filter { inlined.contains($0) && !below($0) }
        var sidesOf: [PickerPart: Sides] = [:]
        if !inlined.isEmpty {
            var list = listSides
            if !belowList.isEmpty { list.bottom = false }
            if !aboveList.isEmpty { list.top = false }
            sidesOf[.list] = list
            for (k, part) in belowList.enumerated() {
                sidesOf[part] = Sides(top: true, right: listSides.right, bottom: k == belowList.count - 1 && listSides.bottom,
                                      left: listSides.left)
            }
            for (k, part) in aboveList.enumerated() {
                sidesOf[part] = Sides(top: k == aboveList.count - 1 && listSides.top, right: listSides.right, bottom: true,
                                      left: listSides.left)
            }
        }
        func sides(_ b: PartBorder, _ part: PickerPart) -> Sides { sidesOf[part] ?? b.sides(layout, part) }
        func lines(_ b: PartBorder, _ part: PickerPart) -> Int {
            let s = sides(b, part)
            return (s.top ? 1 : 0) + (s.bottom ? 1 : 0)
        }
        var available = height
        var heights: [PickerPart: Int] = [:]
        func take(_ part: PickerPart, _ border: PartBorder, _ content: Int) {
            let h = min(max(0, available), lines(border, part) + content)
            heights[part] = h
            available -= h
        }
        if inputBox { take(.input, spec.input, rows.input) }
        if inputBox, let preview = rows.preview, preview > 0 { take(.preview, PartBorder(), preview) }
        let headerText = linesBox ? rows.header : rows.header + rows.headerLines
        if headerBox { take(.header, spec.header, headerText) }
        if linesBox { take(.headerLines, headerLinesBorder, rows.headerLines) }
        if rows.footer > 0 { take(.footer, spec.footer, rows.footer) }
        heights[.list] = max(0, available)

        // The order top to bottom.
        let first = spec.headerFirst
        let both = headerBox && linesBox
        var order: [PickerPart]
        switch layout {
        case .bottom:
            order = first ? [.footer, .list] + (both ? [.headerLines, .input, .header] : [.input, .header, .headerLines])
                          : [.footer, .list, .headerLines, .header, .input]
        case .top:
            order = first ? (both ? [.header, .input, .headerLines] : [.header, .headerLines, .input]) + [.list, .footer]
                          : [.input, .header, .headerLines, .list, .footer]
        case .reverseList:
            order = first ? [.footer] + (both ? [.headerLines, .list, .input, .header] : [.headerLines, .list, .input, .header])
                          : [.footer, .headerLines, .list, .header, .input]
        }
        if heights[.preview] != nil, let at = order.firstIndex(of: .input) {
            order.insert(.preview, at: layout == .top ? at + 1 : at)
        }
        if !inlined.isEmpty {
            order.removeAll { inlined.contains($0) }
            guard let at = order.firstIndex(of: .list) else { preconditionFailure("the list is always placed") }
            order.insert(contentsOf: belowList, at: at + 1)
            order.insert(contentsOf: aboveList.reversed(), at: at)
        }
        var row = 0
        for part in order {
            guard let h = heights[part] else { continue }
            let border: PartBorder
            switch part {
            case .input: border = spec.input
            case .header: border = spec.header
            case .headerLines: border = headerLinesBorder
            case .list: border = spec.list
            case .footer: border = spec.footer
            case .preview: border = PartBorder()
            }
            let s = sides(border, part)
            let box = PartRect(top: row, left: 0, height: h, width: width)
            let shift = !s.left && listLeft && part != .list ? 2 : 0
            let left = (s.left ? 2 : 0) + (part == .input ? shift : 0)
            var content = PartRect(top: row + (s.top ? 1 : 0), left: left,
                                   height: max(0, h - (s.top ? 1 : 0) - (s.bottom ? 1 : 0)),
                                   width: max(0, width - left - (s.right ? 1 : 0)))
            // No header or footer is wider than the list (fzf's): one without a right side
            // of its own beside a list box with one ends where the list's text does.
            if [.header, .headerLines, .footer].contains(part) && !s.right && listRight {
                content.width = max(0, content.width - 1)
            }
            if content.height == 0 { content.top = row }
            let indent = max(0, gutter + (listLeft ? 2 : 0) - (s.left ? 2 : 0))
            let isInline = inlined.contains(part)
            // The list's label goes on its outer edge, wherever a section took it.
            let edge = spec.list.labelPosition.bottom ? belowList.last : aboveList.last
            let listLabel = isInline && part == edge && border.label.isEmpty && !spec.list.label.isEmpty
            boxes.append(PartBox(part: part, box: box, sides: s, style: isInline ? spec.list.style : border.style,
                                 label: listLabel ? spec.list.label : border.label,
                                 labelPosition: listLabel ? spec.list.labelPosition : border.labelPosition, content: content,
                                 indent: part == .list ? gutter : indent, inline: isInline, labelIsList: listLabel))
            row += h
        }
        if boxes.contains(where: \.labelIsList), let i = boxes.firstIndex(where: { $0.part == .list }) { boxes[i].label = "" }
        // fzf's default rule after the counts is left out where a border already draws a
        // line between the input and the part next to it on the list's side.
        if let i = boxes.firstIndex(where: { $0.part == .input }) {
            let input = boxes[i].sides
            let facing = layout == .top ? boxes[(i + 1)...].first { $0.box.height > 0 }
                                        : boxes[..<i].last { $0.box.height > 0 }
            separatedFromList = (layout == .top ? input.bottom : input.top)
                || (facing.map { layout == .top ? $0.sides.top : $0.sides.bottom } ?? false)
        }
    }
}
