// What surrounds the picker's rows, with fzf's spellings and meanings: a margin outside
// (`--margin`), a border (`--border[=STYLE]`, some or all of its sides) with a label on its
// top or bottom line (`--border-label`, `--border-label-pos`), and padding inside it
// (`--padding`). Sizes are cells or percentages of the region (rows for top and bottom,
// columns for left and right).
//
// As fzf does, a side with a vertical line gets one more column of padding, so text never
// touches the line. `BoxLayout` works out, for a region of a given size, how many rows and
// columns each of these takes; the painter draws them and the rows go inside.

/// A border's look, with fzf's names.
public enum BorderStyle: String, CaseIterable, Sendable {
    case none, rounded, sharp, bold, double, dashed, block, thinblock
    case horizontal, vertical, top, bottom, left, right
    /// A line on top with `--height`, nothing on the full screen.
    case line
    /// fzf's: the header's, header lines' or footer's section inside the list's frame,
    /// drawn here as `line` (fzf's own fallback without a list border).
    case inline

    /// The sides it draws. `inline`: the picker draws below the cursor (`--height`).
    public func sides(inline: Bool) -> Sides {
        switch self {
        case .none: return Sides()
        case .rounded, .sharp, .bold, .double, .dashed, .block, .thinblock:
            return Sides(top: true, right: true, bottom: true, left: true)
        case .horizontal: return Sides(top: true, bottom: true)
        case .vertical: return Sides(right: true, left: true)
        case .top: return Sides(top: true)
        case .bottom: return Sides(bottom: true)
        case .left: return Sides(left: true)
        case .right: return Sides(right: true)
        case .line, .inline: return Sides(top: inline)
        }
    }

    /// The characters it is drawn with (each one column wide): ASCII ones, as fzf's,
    /// without Unicode (`--no-unicode`).
    public var glyphs: BorderGlyphs {
        guard TerminalText.unicodeGlyphs else { return BorderGlyphs("+", "-", "+", "|", "|", "+", "-", "+") }
        switch self {
        case .sharp: return BorderGlyphs("┌", "─", "┐", "│", "│", "└", "─", "┘")
        case .bold: return BorderGlyphs("┏", "━", "┓", "┃", "┃", "┗", "━", "┛")
        case .double: return BorderGlyphs("╔", "═", "╗", "║", "║", "╚", "═", "╝")
        case .dashed: return BorderGlyphs("╭", "╶", "╮", "┆", "┆", "╰", "╶", "╯")
        case .block: return BorderGlyphs("▛", "▀", "▜", "▌", "▐", "▙", "▄", "▟")
        case .thinblock: return BorderGlyphs("🭽", "▔", "🭾", "▏", "▕", "🭼", "▁", "🭿")
        default: return BorderGlyphs("╭", "─", "╮", "│", "│", "╰", "─", "╯")
        }
    }
}

/// Which sides of a box are drawn.
public struct Sides: Equatable, Sendable {
    public var top = false, right = false, bottom = false, left = false

    public init(top: Bool = false, right: Bool = false, bottom: Bool = false, left: Bool = false) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }
}

/// The characters of a border: corners, and the lines between them.
public struct BorderGlyphs: Equatable, Sendable {
    public var topLeft, top, topRight, left, right, bottomLeft, bottom, bottomRight: String

    init(_ topLeft: String, _ top: String, _ topRight: String, _ left: String, _ right: String,
         _ bottomLeft: String, _ bottom: String, _ bottomRight: String) {
        (self.topLeft, self.top, self.topRight) = (topLeft, top, topRight)
        (self.left, self.right) = (left, right)
        (self.bottomLeft, self.bottom, self.bottomRight) = (bottomLeft, bottom, bottomRight)
    }

    /// Where a line across the box meets its sides (an `inline` section's line): ├ and ┤
    /// in the sides' weight.
    public var joins: (left: String, right: String) {
        switch left {
        case "┃": return ("┣", "┫")
        case "║": return ("╠", "╣")
        case "│", "╎": return ("├", "┤")
        case "|": return ("+", "+")
        default: return (left, right)
        }
    }
}

/// A size along one side: cells, or a percentage of the region's rows or columns.
public enum SpacingSize: Equatable, Sendable {
    case cells(Int)
    case percent(Double)

    func resolve(_ total: Int) -> Int {
        switch self {
        case .cells(let n): return n
        case .percent(let p): return Int(Double(total) * p / 100)
        }
    }
}

/// Rows above and below, columns right and left.
public struct Insets: Equatable, Sendable {
    public var top = 0, right = 0, bottom = 0, left = 0

    public init(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    static func + (a: Insets, b: Insets) -> Insets {
        Insets(top: a.top + b.top, right: a.right + b.right, bottom: a.bottom + b.bottom, left: a.left + b.left)
    }
}

/// `--margin` or `--padding`: fzf's one to four comma-separated sizes (all sides; top and
/// bottom, then right and left; top, right and left, bottom; top, right, bottom, left).
public struct Spacing: Equatable, Sendable {
    public var top, right, bottom, left: SpacingSize

    public static let zero = Spacing(top: .cells(0), right: .cells(0), bottom: .cells(0), left: .cells(0))

    public init(top: SpacingSize, right: SpacingSize, bottom: SpacingSize, left: SpacingSize) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    /// Parses `1`, `1,2`, `1,2,3`, `1,2,3,4`, each part N (cells, up to 1000) or N% (up to
    /// 49%, decimals allowed, as fzf); nil when malformed.
    public static func parse(_ text: String) -> Spacing? {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { size(String($0)) }
        guard !parts.contains(where: { $0 == nil }) else { return nil }
        let s = parts.map { $0! }
        switch s.count {
        case 1: return Spacing(top: s[0], right: s[0], bottom: s[0], left: s[0])
        case 2: return Spacing(top: s[0], right: s[1], bottom: s[0], left: s[1])
        case 3: return Spacing(top: s[0], right: s[1], bottom: s[2], left: s[1])
        case 4: return Spacing(top: s[0], right: s[1], bottom: s[2], left: s[3])
        default: return nil
        }
    }

    private static func size(_ text: String) -> SpacingSize? {
        let percent = text.hasSuffix("%")
        let number = percent ? String(text.dropLast()) : text
        let digits = number.unicodeScalars
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }),
              digits.filter({ $0 == "." }).count <= (percent ? 1 : 0), digits.first != ".", digits.last != "." else {
            return nil
        }
        if percent {
            guard let p = Double(number), p <= 49 else { return nil }
            return .percent(p)
        }
        guard let n = Int(number), n <= 1000 else { return nil }
        return .cells(n)
    }

    /// The sizes in cells for a region of `rows` by `columns`.
    public func resolve(rows: Int, columns: Int) -> Insets {
        Insets(top: top.resolve(rows), right: right.resolve(columns), bottom: bottom.resolve(rows),
               left: left.resolve(columns))
    }

    public var isZero: Bool { self == .zero || resolve(rows: 1000, columns: 1000) == Insets() }
}

/// Where the border's label goes (`--border-label-pos`): a column from the left (positive),
/// from the right (negative) or the centre (0), on the top line or the bottom one.
public struct LabelPosition: Equatable, Sendable {
    public var column = 0
    public var bottom = false

    public init(column: Int = 0, bottom: Bool = false) {
        self.column = column
        self.bottom = bottom
    }

    /// fzf's forms: `N`, `-N`, `center`, each optionally with `:top` or `:bottom`
    /// (`bottom` alone is the centre of the bottom line); nil when malformed.
    public static func parse(_ text: String) -> LabelPosition? {
        var position = LabelPosition()
        let parts = text.lowercased().split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        for part in parts {
            switch part {
            case "center": position.column = 0
            case "top": position.bottom = false
            case "bottom": position.bottom = true
            default:
                let digits = part.hasPrefix("-") ? part.dropFirst() : part
                guard !digits.isEmpty, digits.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }),
                      let n = Int(part), abs(n) <= 10_000 else { return nil }
                position.column = n
            }
        }
        return position
    }

    /// The first column (0-based) of a label `labelWidth` wide on a line `lineWidth` wide.
    public func start(labelWidth: Int, lineWidth: Int) -> Int {
        let room = max(0, lineWidth - labelWidth)
        let start: Int
        if column > 0 { start = column - 1 }
        else if column < 0 { start = lineWidth + column - labelWidth + 1 }
        else { start = room / 2 }
        return min(max(0, start), room)
    }
}

/// What surrounds the picker's rows: margin, border (with its label) and padding.
public struct Surround: Equatable, Sendable {
    public var margin = Spacing.zero
    public var border = BorderStyle.none
    public var label = ""
    public var labelPosition = LabelPosition()
    public var padding = Spacing.zero

    public init() {}

    /// Whether there is anything to draw or leave out at all.
    public var isEmpty: Bool { margin.isZero && padding.isZero && border == .none }
}

/// How a region of a given size divides: the margin, the border's sides, the padding, and
/// what is left for the rows.
public struct BoxLayout: Equatable, Sendable {
    public var margin = Insets()
    public var sides = Sides()
    /// Padding inside the border, the column fzf adds beside a vertical line included.
    public var padding = Insets()

    /// Nothing around the rows.
    public static let none = BoxLayout()

    public init() {}

    /// The layout of `surround` in a region of `rows` by `columns`. When it would leave no
    /// row or no column for the picker, there is nothing around the rows.
    public init(_ surround: Surround, rows: Int, columns: Int, inline: Bool) {
        guard !surround.isEmpty else { return }
        margin = surround.margin.resolve(rows: rows, columns: columns)
        sides = surround.border.sides(inline: inline)
        padding = surround.padding.resolve(rows: rows, columns: columns)
        if sides.left { padding.left += 1 }
        if sides.right { padding.right += 1 }
        let total = self.total
        if rows - total.top - total.bottom < 1 || columns - total.left - total.right < 1 { self = .none }
    }

    /// Rows and columns the border takes on each side.
    public var border: Insets {
        Insets(top: sides.top ? 1 : 0, right: sides.right ? 1 : 0, bottom: sides.bottom ? 1 : 0, left: sides.left ? 1 : 0)
    }

    /// Everything between the region's edges and the rows: margin, border and padding.
    public var total: Insets { margin + border + padding }

    public var isNone: Bool { self == .none }
}
