// `--preview-window`: where the preview pane goes and how it shows its text, in fzf's
// spellings (src/options.go, parsePreviewWindow). A spec is a list of tokens separated by
// `,` or `:`, each changing the options given so far (so a later `--preview-window` adds to
// an earlier one):
//
//     up|down|left|right (top, bottom)|next   N (rows or columns) or N% of the terminal (to 99%)
//     border-STYLE, rounded, sharp, border, noborder, border-line   [no]wrap wrap-word   [no]hidden
//     [no]follow   [no]cycle   [no]info   ~N (N header lines)   default
//     +SCROLL[OFFSETS][/DENOM]   e.g. +42, +{2}, +{2}-5, +{2}+3/2, +{n}
//     <N(ALTERNATIVE)   another spec, used while the pane would be smaller than N
//
// As in fzf, a size in cells is the pane's text, its border comes on top; a percentage is
// of the whole, border included. The scroll expression is kept as written and evaluated for
// each line (`PreviewScroll`).

/// Where the preview pane sits beside the list. `next`: fzf's, rows between the input and
/// the rest (the headers and the list), on the list's side of the input.
public enum PreviewPosition: String, Sendable {
    case up, down, left, right, next

    /// Whether the pane takes rows (above or below) rather than columns.
    public var isVertical: Bool { self == .up || self == .down || self == .next }
}

/// The pane's size: cells of text (its border comes on top), or a percentage of the whole.
public enum PreviewSize: Equatable, Sendable {
    case cells(Int)
    case percent(Int)

    /// `0` or `0%`: a pane that takes no room.
    public var isZero: Bool { self == .cells(0) || self == .percent(0) }
}

/// Everything `--preview-window` says.
public struct PreviewWindow: Equatable, Sendable {
    public var position = PreviewPosition.right
    public var size = PreviewSize.percent(50)
    public var border = BorderStyle.rounded
    /// Long lines go on over the rows below (`wrap`), broken after a blank (`wrap-word`).
    public var wrap = false
    public var wrapWord = false
    public var hidden = false
    /// Keep the end of the output in view as it grows (as `tail -f`).
    public var follow = false
    /// Scrolling past either end wraps to the other.
    public var cycle = false
    /// The scroll position (`12/340`) on the pane's top right.
    public var info = true
    /// `+SCROLL[OFFSETS][/DENOM]` as written (without the `+`), or "" for none.
    public var scroll = ""
    /// The first lines of the output stay at the top while the rest scrolls.
    public var headerLines = 0
    /// Below this size the alternative is used (0: none).
    public var threshold = 0
    /// `<N(ALTERNATIVE)`: at most one (an array only because a struct cannot hold itself).
    private var alternatives: [PreviewWindow] = []

    public init() {}

    /// toggle-preview-wrap and toggle-preview-wrap-word, as fzf's: `word` turns word
    /// wrapping on or off (wrapping with it), otherwise wrapping turns, word wrapping going
    /// off with it.
    public mutating func toggleWrap(word: Bool) {
        ListLook.toggleWrap(&wrap, word: &wrapWord, wordOnly: word)
    }

    /// Whether `layout` (a `--preview-window` spec) says how to wrap: otherwise
    /// change-preview-window keeps what a toggle left, as fzf's.
    public static func setsWrap(_ layout: String) -> Bool {
        layout.split(whereSeparator: { $0 == "," || $0 == ":" }).contains { ["wrap", "wrap-word", "nowrap"].contains($0) }
    }

    public var alternative: PreviewWindow? {
        get { alternatives.first }
        set { alternatives = newValue.map { [$0] } ?? [] }
    }

    /// The sides of the pane's border; fzf's `border-line` is one line on the side that faces
    /// the list.
    public var borderSides: Sides {
        guard border == .line else { return border.sides(inline: true) }
        switch position {
        case .up: return Sides(bottom: true)
        case .down: return Sides(top: true)
        case .left: return Sides(right: true)
        case .right: return Sides(left: true)
        case .next: return Sides(top: true)
        }
    }

    /// A `next` pane as placed in `layout`: the list is beyond it as it is beyond a pane
    /// `up` (prompt on top) or `down` (prompt at the bottom), which gives its border line.
    public func placed(in layout: Layout) -> PreviewWindow {
        guard position == .next else { return self }
        var window = self
        window.position = layout.promptOnTop ? .up : .down
        return window
    }

    /// The window and its alternative, if any.
    public var chain: [PreviewWindow] { [self] + (alternative.map { [$0] } ?? []) }

    /// fzf's rule for a pane at `next` (in the window or its alternative): the default
    /// separator after the counts is left out only when every spec shows a pane there
    /// whose border faces the input, which then draws the line; nil when no spec is at
    /// `next` (the parts' borders decide). `hasCommand`: `--preview` gave a command (else
    /// only preview(…) may open a pane, at any time).
    public func nextHidesSeparator(layout: Layout, hasCommand: Bool) -> Bool? {
        guard chain.contains(where: { $0.position == .next }) else { return nil }
        guard hasCommand else { return false }
        return chain.allSatisfy { spec in
            let sides = spec.placed(in: layout).borderSides
            return spec.position == .next && !spec.hidden && !spec.size.isZero
                && (layout.promptOnTop ? sides.top : sides.bottom)
        }
    }

    /// Rows and columns the border (and the column of padding beside a vertical line, as
    /// fzf has it) take on each side.
    public var borderInsets: Insets {
        let s = borderSides
        return Insets(top: s.top ? 1 : 0, right: s.right ? 2 : 0, bottom: s.bottom ? 1 : 0, left: s.left ? 2 : 0)
    }

    /// `spec` applied to `self`, as fzf applies a `--preview-window` to the options before it.
    public func applying(_ spec: String) throws(OptionError) -> PreviewWindow {
        var window = self
        var alternativeSpec: String? = nil
        for token in try Self.tokens(spec) {
            if case .alternative(let threshold, let text) = token {
                window.threshold = threshold
                alternativeSpec = text
                continue
            }
            guard case .word(let word) = token else { continue }
            try window.apply(word)
        }
        if let alternativeSpec {
            var base = window
            base.hidden = false
            base.alternative = nil
            base.threshold = 0
            window.alternative = try base.applying(alternativeSpec)
        }
        return window
    }

    /// change-preview-window(`layout`): `layout` applied over `self` (the `--preview-window`
    /// given), as fzf: a layout that says anything shows a pane that started hidden, an
    /// empty one is `self` itself.
    public func changed(by layout: String) throws(OptionError) -> PreviewWindow {
        var base = self
        if !layout.isEmpty { base.hidden = false }
        return try base.applying(layout)
    }

    /// A pane of no size that is not hidden (`--preview-window 0`): nothing shows, but its
    /// command runs for each line focused, as fzf's (for its side effects).
    public var runsUnseen: Bool {
        !hidden && size.isZero && !(alternative.map { !$0.size.isZero } ?? false)
    }

    private enum Token { case word(String), alternative(Int, String) }

    /// fzf's tokens: words between `,` and `:`, and `<N(…)` groups (which hold no `<` or `)`).
    private static func tokens(_ spec: String) throws(OptionError) -> [Token] {
        var tokens: [Token] = []
        var rest = Substring(spec)
        while !rest.isEmpty {
            if rest.first == "," || rest.first == ":" { rest = rest.dropFirst(); continue }
            if rest.first == "<" {
                let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
                let afterDigits = rest.dropFirst(1 + digits.count)
                if let n = Int(digits), n > 0, !digits.hasPrefix("0"), afterDigits.first == "(",
                   let close = afterDigits.firstIndex(of: ")") {
                    let inner = afterDigits[afterDigits.index(after: afterDigits.startIndex)..<close]
                    if !inner.isEmpty && !inner.contains("<") {
                        tokens.append(.alternative(n, String(inner)))
                        rest = afterDigits[afterDigits.index(after: close)...]
                        continue
                    }
                }
            }
            let word = rest.prefix { $0 != "," && $0 != ":" }
            tokens.append(.word(String(word)))
            rest = rest.dropFirst(word.count)
        }
        return tokens
    }

    private mutating func apply(_ word: String) throws(OptionError) {
        switch word {
        case "default": self = PreviewWindow()
        case "hidden": hidden = true
        case "nohidden": hidden = false
        case "wrap": wrap = true; wrapWord = false
        case "wrap-word": wrap = true; wrapWord = true
        case "nowrap": wrap = false; wrapWord = false
        case "cycle": cycle = true
        case "nocycle": cycle = false
        case "follow": follow = true
        case "nofollow": follow = false
        case "info": info = true
        case "noinfo": info = false
        case "up", "top": position = .up
        case "down", "bottom": position = .down
        case "left": position = .left
        case "right": position = .right
        case "next": position = .next
        case "rounded", "border": border = .rounded
        case "sharp": border = .sharp
        case "noborder": border = .none
        default:
            if word == "border-inline" {
                // fzf's words: inline is for the header and footer sections only.
                throw OptionError(message: "invalid preview window option: border-inline")
            } else if word.hasPrefix("border-"), let style = Self.borderStyle(String(word.dropFirst(7))) {
                border = style
            } else if word.hasPrefix("~"), let n = Self.wholeNumber(word.dropFirst()) {
                headerLines = n
            } else if word.hasSuffix("%"), let p = Self.wholeNumber(word.dropLast()) {
                guard p <= 99 else {
                    throw OptionError(message: "invalid value for --preview-window: \(OptionError.quote(word)) (a size is at most 99%)")
                }
                size = .percent(p)
            } else if let n = Self.wholeNumber(Substring(word)) {
                size = .cells(min(n, 100_000))
            } else if word.hasPrefix("+"), PreviewScroll.isValid(String(word.dropFirst())) {
                scroll = String(word.dropFirst())
            } else {
                throw OptionError(message: "invalid value for --preview-window: \(OptionError.quote(word)) (expected up, down, left, right, next, a size such as 40%, border-STYLE, wrap, hidden, follow, +SCROLL, ~HEADER or <COLS(ALTERNATIVE))")
            }
        }
    }

    /// fzf's border names after `border-` (`up` and `down` are `top` and `bottom` there).
    private static func borderStyle(_ name: String) -> BorderStyle? {
        switch name {
        case "up": return .top
        case "down": return .bottom
        case "inline": return nil
        default: return BorderStyle(rawValue: name)
        }
    }

    private static func wholeNumber(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            return nil
        }
        return Int(text)
    }
}

/// The pane's place on the screen, relative to the picker's rows.
public struct PreviewPlacement: Equatable, Sendable {
    /// The options in force: the alternative's, when the pane would be under its threshold.
    public var window: PreviewWindow
    /// The pane's rows or columns (its border included); 0 when hidden.
    public var size: Int
    /// The alternative (`<N(…)`) applies.
    public var isAlternative = false

    public var isShown: Bool { size > 0 }

    /// Where the pane goes in a region of `rows` by `columns`: fzf's `calculateSize`, the
    /// list keeping at least 4 columns or 3 rows.
    public static func place(_ window: PreviewWindow, rows: Int, columns: Int) -> PreviewPlacement {
        let vertical = window.position.isVertical
        let base = vertical ? rows : columns
        let border = window.borderInsets
        let least = 1 + (vertical ? border.top + border.bottom : border.left + border.right)
        let most = max(least, base - (vertical ? 3 : 4))
        var size: Int
        switch window.size {
        case .percent(let p): size = base * p / 100
        case .cells(let n): size = n + least - 1
        }
        size = min(max(size, least), most)
        if window.threshold > 0, size < window.threshold, let alternative = window.alternative {
            var placement = place(alternative, rows: rows, columns: columns)
            placement.isAlternative = true
            return placement
        }
        if window.hidden || window.size.isZero || size >= base { return PreviewPlacement(window: window, size: 0) }
        return PreviewPlacement(window: window, size: size)
    }

    /// `window` with the pane shown or hidden (ctrl-/, fzf's toggle-preview) in a region of
    /// `rows` by `columns`: the alternative's own `hidden` where it applies, as fzf has it.
    public static func toggled(_ window: PreviewWindow, rows: Int, columns: Int) -> PreviewWindow {
        var window = window
        if place(window, rows: rows, columns: columns).isAlternative, var alternative = window.alternative {
            alternative.hidden.toggle()
            window.alternative = alternative
        } else {
            window.hidden.toggle()
        }
        return window
    }
}

/// `+SCROLL[OFFSETS][/DENOM]`: the line the pane starts at for a given line of the list.
/// SCROLL is a number, `{N}` (a field of the line that holds a number) or `{n}` (the line's
/// index); OFFSETS are signed numbers added to it; `/DENOM` puts that line DENOM-th of the
/// way down the pane rather than at its top. As fzf, the result counts from 1.
public enum PreviewScroll {
    /// Whether `text` (after the `+`) is such an expression: fzf's
    /// `^(\+{(-?[0-9]+|n)})?([+-][0-9]+)*(-?/[1-9][0-9]*)?$` without its leading `+`.
    public static func isValid(_ text: String) -> Bool {
        var rest = Substring(text)
        if rest.hasPrefix("{") {
            guard let close = rest.firstIndex(of: "}") else { return false }
            let inner = rest[rest.index(after: rest.startIndex)..<close]
            let digits = inner.hasPrefix("-") ? inner.dropFirst() : inner
            guard inner == "n" || (!digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }) else {
                return false
            }
            rest = rest[rest.index(after: close)...]
        } else {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(digits.count)
        }
        while let sign = rest.first, sign == "+" || sign == "-" {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if digits.isEmpty { break }
            rest = rest.dropFirst(1 + digits.count)
        }
        if rest.hasPrefix("-/") { rest = rest.dropFirst() }
        if rest.hasPrefix("/") {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, !digits.hasPrefix("0") else { return false }
            rest = rest.dropFirst(1 + digits.count)
        }
        return rest.isEmpty
    }

    /// The first output line shown (0-based) for `expression` (already valid): `field`
    /// gives field N of the focused line (1-based, negative from the end), `index` its
    /// index; `height` is the pane's rows below its header lines. As fzf: the placeholder's
    /// text keeps only digits and signs, and what is not a number counts as 0.
    public static func offset(_ expression: String, field: (Int) -> [UInt8], index: Int, height: Int) -> Int {
        var text = Substring(expression)
        var base = -1
        if text.hasPrefix("{"), let close = text.firstIndex(of: "}") {
            let inner = text[text.index(after: text.startIndex)..<close]
            let value = inner == "n" ? Array(String(index).utf8) : field(Int(inner) ?? 0)
            let kept = value.filter { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D }
            base += Int(String(decoding: kept, as: UTF8.self)) ?? 0
            text = text[text.index(after: close)...]
        } else {
            let digits = text.prefix { $0.isASCII && $0.isNumber }
            base += Int(digits) ?? 0
            text = text.dropFirst(digits.count)
        }
        while let sign = text.first, sign == "+" || sign == "-" {
            let digits = text.dropFirst().prefix { $0.isASCII && $0.isNumber }
            if digits.isEmpty { break }
            base += (sign == "-" ? -1 : 1) * (Int(digits) ?? 0)
            text = text.dropFirst(1 + digits.count)
        }
        if text.hasPrefix("-/") { text = text.dropFirst() }
        if text.hasPrefix("/"), let denominator = Int(text.dropFirst()), denominator > 0 {
            base -= max(0, height) / denominator
        }
        return max(0, base)
    }
}
