// `--color`, parsed once. The value is comma-separated items applied in order: base
// schemes (`dark`, `light`, `16`, `bw`), `name:style` pairs that replace one part's style,
// and the switches `always` and `auto`; `never` stands alone, as does `bw` (then nothing at
// all is drawn, ANSI colours of the input included). Repeated `--color` options merge, as
// fzf's do: a theme in the defaults variable and a tweak on the command line both hold. A
// style is colours and attributes joined by colons: `108`, `#87af87`, `green`,
// `bright-red`, `-1` or `default` (the terminal's), `bold`, `dim`, `italic`, `underline`,
// `reverse`, `blink`, `strikethrough`, `regular` (nothing).
// The executable's Theme turns the parsed value into escape sequences; nothing here
// knows the palette.

/// The parsed value of `--color`.
public struct ColorSpec: Equatable, Sendable {
    /// A palette for every part of the screen.
    public enum Scheme: String, Sendable {
        /// The default, in the 256-colour palette.
        case dark
        /// For a light background.
        case light
        /// The 16 basic colours.
        case basic = "16"
        /// No colours, then the parts named after it.
        case bw
    }

    /// One item of the spec, applied in order.
    public enum Step: Equatable, Sendable {
        case scheme(Scheme)
        case style(ColorPart, ColorStyle)
        /// The part's colours as if never given (a `--style` preset's gutter, as fzf's).
        case unset(ColorPart)
    }

    public var steps: [Step] = []
    /// `bw` or `never`: no colours and no attributes at all.
    public var isPlain = false
    /// `always`: colours even when NO_COLOR or `--no-color` say not to.
    public var isForced = false

    public init(steps: [Step] = [], isPlain: Bool = false, isForced: Bool = false) {
        self.steps = steps
        self.isPlain = isPlain
        self.isForced = isForced
    }

    /// This spec followed by a later `--color` option: both apply, the later one last.
    public func merged(with later: ColorSpec) -> ColorSpec {
        if later.isPlain { return ColorSpec(isPlain: true, isForced: isForced || later.isForced) }
        return ColorSpec(steps: (isPlain ? [.scheme(.bw)] : steps) + later.steps,
                         isForced: isForced || later.isForced)
    }

    /// Parses a `--color` value; the error says which item is wrong and why.
    public static func parse(_ text: String) throws -> ColorSpec {
        func refuse(_ item: Substring, _ why: String) -> OptionError {
            OptionError(message: "invalid value for --color: \(OptionError.quote(item)) (\(why))")
        }
        if text == "bw" || text == "never" || text == "no" { return ColorSpec(isPlain: true) }
        var spec = ColorSpec()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            switch item {
            case "dark", "light", "16", "bw": spec.steps.append(.scheme(Scheme(rawValue: String(item))!))
            case "always": spec.isForced = true
            case "auto": break
            case "never", "no": throw refuse(item, "it draws no colours at all, so it stands alone")
            default:
                let parts = item.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                guard parts.count == 2 else {
                    throw refuse(item, "expected a scheme such as dark, or name:color")
                }
                let name = ColorPart.aliases[String(parts[0])] ?? String(parts[0])
                let part = ColorPart(rawValue: name)
                guard part != nil || ColorPart.notYetDrawn.contains(name) else {
                    // The parts are many (man pick: --color lists them): the message stays one short line.
                    throw refuse(item, "expected a scheme such as dark, or name:color with a part fzf names: fg, bg, hl, fg+, bg+, prompt, …")
                }
                guard let style = ColorStyle(String(parts[1])) else {
                    throw refuse(item, "expected a color from -1 to 255, #rrggbb, a color name or an attribute")
                }
                // fzf's other parts are accepted and not drawn yet (issue 31).
                if let part { spec.steps.append(.style(part, style)) }
            }
        }
        return spec
    }
}

/// A part of the screen `--color` can style, by fzf's name where fzf has one.
public enum ColorPart: String, CaseIterable, Sendable {
    /// Text of the rows that are not selected.
    case fg
    /// Matched characters.
    case hl
    /// Matched characters on the selected row.
    case selectedHl = "hl+"
    /// The selected row: added to its style, as are the two below.
    case selectedFg = "fg+"
    case selectedBg = "bg+"
    /// The background of everything pick draws.
    case bg
    /// Marked rows (`--multi`): their text, background and matched characters.
    case markedFg = "selected-fg"
    case markedBg = "selected-bg"
    case markedHl = "selected-hl"
    /// The prompt and the query libedit draws; the query while the search is off
    /// (`--disabled`, disable-search), the query's colours unless set.
    case prompt, query, disabled
    /// The gutter: the pointer's column on rows that are not selected.
    case gutter
    case info, pointer, marker, header, spinner, ghost, section, chip
    /// The border (`--border`) and its label (`--border-label`).
    case border, label
    /// Raw mode's lines the query does not match (dim by default).
    case nomatch
    /// Each part's border and label; the border's and the label's colours unless set.
    case listBorder = "list-border", inputBorder = "input-border", headerBorder = "header-border"
    case footerBorder = "footer-border"
    case listLabel = "list-label", inputLabel = "input-label", headerLabel = "header-label"
    case footerLabel = "footer-label"
    /// The footer's text (`--footer`); the header's colour unless set.
    case footer
    /// The preview's border and label; the border's and the label's colours unless set.
    case previewBorder = "preview-border", previewLabel = "preview-label"
    /// The rule after the counts (`--separator`); the border's colour unless set.
    case separator
    /// The preview's scrollbar; `scrollbar`'s (the list's, not drawn yet) or the preview
    /// border's unless set, as fzf's.
    case scrollbar, previewScrollbar = "preview-scrollbar"
    /// The preview's text and background.
    case previewFg = "preview-fg"
    case previewBg = "preview-bg"
    /// The backgrounds of the header's, the footer's and the input's own boxes: `bg` unless
    /// set (fzf's), and the list's where the part shares the list's box.
    case headerBg = "header-bg", footerBg = "footer-bg", inputBg = "input-bg"
    /// The list's background (its rows and its box, and the input and headers it holds);
    /// `bg` unless set.
    case listBg = "list-bg"

    /// Whether the part's colours are backgrounds.
    public var isBackground: Bool {
        switch self {
        case .selectedBg, .bg, .markedBg, .gutter, .previewBg, .headerBg, .footerBg, .inputBg, .listBg: return true
        default: return false
        }
    }

    /// fzf's other names for the parts above.
    static let aliases = ["current-fg": "fg+", "current-bg": "bg+", "current-hl": "hl+", "header-fg": "header",
                          "list-fg": "fg", "input-fg": "query",
                          "footer-fg": "footer"]

    /// fzf's names for parts pick does not draw yet (the separator, the scrollbar, the
    /// borders of each part issue 31 adds): accepted, their style checked, not drawn.
    static let notYetDrawn: Set<String> = [
        "input", "alt-bg", "nth", "alt-gutter", "gap-line",
    ]
}

/// Colours and attributes for one part of the screen (`108`, `#87af87`, `red:bold`).
public struct ColorStyle: Equatable, Sendable {
    public enum Word: Equatable, Sendable {
        /// The terminal's own colour (`-1`, `default`).
        case terminalDefault
        /// A colour of the 256-colour palette.
        case palette(Int)
        /// A 24-bit colour (`#rrggbb`).
        case rgb(Int, Int, Int)
        /// One of the eight basic colours (0 black … 7 white), or its bright form.
        case basic(Int, bright: Bool)
        case bold, dim, italic, underline, reverse, blink, strikethrough
        /// Nothing: a part with only `regular` is drawn plainly.
        case regular
    }

    static let basicNames = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]

    public var words: [Word]

    public init(words: [Word]) {
        self.words = words
    }

    /// Parses `red:bold` and the like; nil if any word is not a colour or attribute.
    public init?(_ text: String) {
        var words: [Word] = []
        for part in text.split(separator: ":", omittingEmptySubsequences: false).map(String.init) {
            if let n = Int(part), part.first != "+" {
                guard n >= -1 && n <= 255 else { return nil }
                words.append(n < 0 ? .terminalDefault : .palette(n))
            } else if part.hasPrefix("#") {
                let hex = part.dropFirst()
                guard hex.count == 6, hex.allSatisfy(\.isHexDigit), let rgb = Int(hex, radix: 16) else { return nil }
                words.append(.rgb(rgb >> 16, (rgb >> 8) & 255, rgb & 255))
            } else if let i = Self.basicNames.firstIndex(of: part) {
                words.append(.basic(i, bright: false))
            } else if part.hasPrefix("bright-"), let i = Self.basicNames.firstIndex(of: String(part.dropFirst(7))) {
                words.append(.basic(i, bright: true))
            } else {
                switch part {
                case "default": words.append(.terminalDefault)
                case "bold", "strong": words.append(.bold)
                case "gray", "grey": words.append(.basic(0, bright: true))
                case "underline-double", "underline-curly", "underline-dotted", "underline-dashed":
                    words.append(.underline)
                // fzf's `strip` takes the input's own colours off a part; pick keeps them.
                case "strip": words.append(.regular)
                case "blink": words.append(.blink)
                case "strikethrough": words.append(.strikethrough)
                case "": break  // `hl:` and `red:` as fzf takes them
                case "dim": words.append(.dim)
                case "italic": words.append(.italic)
                case "underline": words.append(.underline)
                case "reverse": words.append(.reverse)
                case "regular": words.append(.regular)
                default: return nil
                }
            }
        }
        self.words = words
    }

    /// Whether the style names an attribute (`regular` too); a style of colours alone keeps
    /// the part's own attributes, as fzf's do (the prompt and the query stay bold).
    public var hasAttributes: Bool {
        words.contains { word in
            switch word {
            case .terminalDefault, .palette, .rgb, .basic: return false
            default: return true
            }
        }
    }

    /// Whether the style names a colour; attributes alone keep the part's (fzf's).
    public var hasColour: Bool {
        words.contains { word in
            switch word {
            case .terminalDefault, .palette, .rgb, .basic: return true
            default: return false
            }
        }
    }

    /// Whether the style says `regular`: the part is not bold, even where fzf makes it so.
    public var isRegular: Bool { words.contains(.regular) }

    /// The style as SGR parameters (`38;5;108;1`); colours are backgrounds with `background`.
    public func sgr(background: Bool) -> String {
        var out: [String] = []
        for word in words {
            switch word {
            case .terminalDefault: out.append(background ? "49" : "39")
            case .palette(let n): out.append("\(background ? 48 : 38);5;\(n)")
            case .rgb(let r, let g, let b): out.append("\(background ? 48 : 38);2;\(r);\(g);\(b)")
            case .basic(let i, let bright): out.append("\((background ? 40 : 30) + (bright ? 60 : 0) + i)")
            case .bold: out.append("1")
            case .dim: out.append("2")
            case .italic: out.append("3")
            case .underline: out.append("4")
            case .reverse: out.append("7")
            case .blink: out.append("5")
            case .strikethrough: out.append("9")
            case .regular: break
            }
        }
        return out.joined(separator: ";")
    }
}
