import PickCore

/// SGR parameters for each part of the screen ("" draws plainly).
struct Theme {
    /// The text of rows that are not selected (`fg`); the selected row draws over it.
    var normal = ""
    var highlight = "38;5;108"
    /// The selected line, its matches, the pointer, the spinner, the prompt and the query
    /// are bold unless `--no-bold` (`make` adds it, as fzf's boldify).
    var highlightSelected = "38;5;151"
    var selected = "38;5;254;48;5;236"
    var pointer = "38;5;161"
    var marker = "38;5;168"
    var section = "38;5;110;1"
    var chip = "38;5;250;48;5;238"
    var info = "38;5;144"
    var spinner = "38;5;161"
    var ghost = "2"
    var header = "38;5;109"
    var message = "38;5;180"
    var symbol = "2"
    var scope = "1;4"
    /// The border's lines and its label (fzf's dark colours).
    var border = "38;5;59"
    var label = "38;5;145"
    /// Each part's border and label (`list-border`, `input-label`…); missing: `border`'s
    /// and `label`'s, as fzf's.
    var partBorders: [PickerPart: String] = [:]
    var partLabels: [PickerPart: String] = [:]
    /// The preview's border and label (`preview-border`, `preview-label`); nil: `border`'s
    /// and `label`'s.
    var previewBorder: String? = nil
    var previewLabel: String? = nil
    /// What ends a label cut to its border's width (`--ellipsis`, as fzf's labels).
    var labelEllipsis = "··"
    /// The preview's scrollbar (`preview-scrollbar`), and `scrollbar` (the list's, not drawn
    /// yet); nil: as fzf, `scrollbar`'s when the preview's border has no colour of its own,
    /// else the preview border's.
    var previewScrollbar: String? = nil
    var scrollbar: String? = nil
    var previewScrollbarColour: String {
        previewScrollbar ?? (previewBorder == nil ? scrollbar : nil) ?? previewBorder ?? border
    }
    /// The footer's text; nil: the header's (`make` sets it to the scheme's, as fzf's
    /// footer does not take `header`'s colour).
    var footer: String? = nil
    /// The rule after the counts; nil: the border's colour, as fzf's.
    var separator: String? = nil
    /// The background under everything pick draws (`bg`); "" is the terminal's.
    var background = ""
    /// Marked rows (`selected-fg`, `selected-bg`) and their matches (`selected-hl`).
    var marked = ""
    var markedHighlight = ""
    /// The prompt and the query, drawn by libedit.
    var prompt = "38;5;110"
    var query = ""
    /// The query while the search is off (`disabled`); nil: the query's.
    var disabled: String? = nil
    /// The pointer's column on the rows it does not point at (a background), and the
    /// colour of a `--gutter` glyph there (fzf's: bg+'s colour).
    var gutter = ""
    var gutterGlyph = "38;5;236"
    /// Raw mode's lines the query does not match (`nomatch`).
    var unmatched = "2"
    /// The preview's text and background (`preview-fg`, `preview-bg`).
    var previewNormal = ""
    var previewBackground = ""
    /// Whether colours and attributes are used at all.
    var isPlain = false
    /// The backgrounds of the parts' own boxes (`list-bg`, `header-bg`, `footer-bg`,
    /// `input-bg`); the header lines' box takes the header's.
    var partBackgrounds: [PickerPart: String] = [:]

    /// The theme inside `part`'s own box: its background under everything drawn there.
    func inPart(_ part: PickerPart) -> Theme {
        var theme = self
        if let background = partBackgrounds[part == .headerLines ? .header : part] { theme.background = background }
        return theme
    }

    /// fzf's rule: the input without a border of its own is on the list's background
    /// (`input-bg` then has no say); the headers are on theirs, or `bg`, wherever they are.
    mutating func takeListBackground(inputBorder: Bool) {
        if !inputBorder { partBackgrounds[.input] = partBackgrounds[.list] }
    }

    /// Ends a styled run: back to no attributes on the theme's background.
    var reset: String {
        isPlain ? "" : "\u{1B}[0" + (background.isEmpty ? "" : ";" + background) + "m"
    }

    /// `sgr` around `text`, back to the background after it.
    func styled(_ sgr: String, _ text: String) -> String {
        sgr.isEmpty || isPlain || text.isEmpty ? text : "\u{1B}[\(sgr)m\(text)" + reset
    }

    /// The prompt as libedit takes it with EL_PROMPT_ESC: escape sequences between two
    /// `delimiter`s take no columns; the query after it is drawn in the query's style.
    /// The prefix (margin, border, padding) is in the border's colours.
    func libeditPrompt(prefix: String, _ text: String, delimiter: Character, searchOff: Bool = false) -> String {
        let query = searchOff ? disabled ?? self.query : self.query
        if isPlain || (prompt.isEmpty && query.isEmpty && background.isEmpty) { return prefix + text }
        let base = background.isEmpty ? "0" : "0;" + background
        func sgr(_ p: String) -> String { "\(delimiter)\u{1B}[\(p.isEmpty ? base : base + ";" + p)m\(delimiter)" }
        // libedit keeps an escape sequence with the character after it, so the query's
        // style goes before the prompt's last character, not after it.
        guard let last = text.last else { return (prefix.isEmpty ? "" : sgr(border) + prefix) + sgr(query) }
        return (prefix.isEmpty ? "" : sgr(border) + prefix) + sgr(prompt) + text.dropLast() + sgr(query) + String(last)
    }

    static func join(_ a: String, _ b: String) -> String { a.isEmpty ? b : b.isEmpty ? a : a + ";" + b }

    /// The colours of SGR parameters `sgr`, its attributes left out (`38;5;110;1` -> `38;5;110`).
    static func colourParameters(_ sgr: String) -> String {
        var words = sgr.split(separator: ";").map(String.init)[...]
        var out: [String] = []
        while let word = words.popFirst() {
            guard let n = Int(word) else { continue }
            if n == 38 || n == 48 {
                let count = words.first == "2" ? 4 : 2
                out += [word] + words.prefix(count)
                words = words.dropFirst(count)
            } else if (30...37).contains(n) || (40...47).contains(n) || (90...97).contains(n) || (100...107).contains(n)
                        || n == 39 || n == 49 {
                out.append(word)
            }
        }
        return out.joined(separator: ";")
    }

    /// No colours: matches in bold, the rest plain (`--no-color`, NO_COLOR).
    static let noColor = Theme(highlight: "1", highlightSelected: "1", selected: "1", pointer: "", marker: "",
                               section: "1", chip: "", info: "", spinner: "", ghost: "2", header: "",
                               message: "", symbol: "", scope: "1", border: "", label: "", prompt: "", query: "",
                               gutterGlyph: "")
    /// Nothing at all (TERM=dumb, --color=bw).
    static let plain = Theme(highlight: "", highlightSelected: "", selected: "", pointer: "", marker: "",
                             section: "", chip: "", info: "", spinner: "", ghost: "", header: "",
                             message: "", symbol: "", scope: "", border: "", label: "", prompt: "", query: "",
                             gutterGlyph: "", isPlain: true)

    /// The theme for `--color` (parsed in PickCore), `--no-color` and the environment;
    /// `bold`: fzf's bold parts bold (not with `--no-bold`), but those given `regular`;
    /// `black`: a black background (`--black`), over `bg`'s.
    static func make(spec: ColorSpec?, noColor: Bool, bold: Bool = true, black: Bool = false,
                     environment: (String) -> String?) -> Theme {
        if environment("TERM") == "dumb" { return .plain }
        let spec = spec ?? ColorSpec()
        if spec.isPlain { return .plain }
        if noColor || (environment("NO_COLOR").map { !$0.isEmpty } ?? false) {
            if !spec.isForced { return .noColor }
        }
        var theme = colours(spec)
        guard !theme.isPlain else { return theme }
        if black { theme.background = "40" }
        guard bold else { return theme }
        let regular = Set(spec.steps.compactMap { step -> ColorPart? in
            if case .style(let part, let style) = step, style.isRegular { return part }
            return nil
        })
        func bolden(_ sgr: inout String, unless parts: ColorPart...) {
            if !parts.contains(where: regular.contains) { sgr = join(sgr, "1") }
        }
        bolden(&theme.selected, unless: .selectedFg)
        bolden(&theme.highlightSelected, unless: .selectedHl)
        bolden(&theme.pointer, unless: .pointer)
        bolden(&theme.spinner, unless: .spinner)
        bolden(&theme.prompt, unless: .prompt)
        bolden(&theme.query, unless: .query)
        if theme.disabled != nil { bolden(&theme.disabled!, unless: .disabled, .query) }
        return theme
    }

    /// The colours `spec` gives, attributes as written (bold added by `make`).
    private static func colours(_ spec: ColorSpec) -> Theme {
        var theme = Theme()
        var gutterGiven = false
        // bg+'s colour as a foreground: the gutter glyph's unless `gutter` is given.
        var currentBackground = theme.gutterGlyph
        var schemeHeader = theme.header
        for step in spec.steps {
            switch step {
            case .scheme(.dark):
                continue
            case .unset(let part):
                // Only the gutter is ever unset (a `--style` preset's).
                if part == .gutter {
                    gutterGiven = false
                    theme.gutter = ""
                    theme.gutterGlyph = currentBackground
                }
            case .scheme(.bw):
                theme = .plain
                theme.isPlain = false
            case .scheme(.basic):
                theme = Theme(highlight: "32;1", highlightSelected: "32", selected: "7", pointer: "31",
                              marker: "35", section: "34;1", chip: "7", info: "33", spinner: "31",
                              ghost: "2", header: "36", message: "33", symbol: "2", scope: "1;4",
                              border: "", label: "", prompt: "34", query: "")
            case .scheme(.light):
                theme.selected = "48;5;254"; theme.highlight = "38;5;28;1"; theme.highlightSelected = "38;5;22"
                theme.chip = "38;5;238;48;5;252"; theme.info = "38;5;101"; theme.section = "38;5;25;1"
                theme.border = "38;5;145"; theme.label = "38;5;59"; theme.prompt = "38;5;25"
            case .style(let part, let style):
                let value = style.sgr(background: part.isBackground)
                // As fzf: attributes alone (`prompt:regular`, `pointer:underline`) keep the
                // part's colour.
                func keepingColour(_ old: String) -> String { style.hasColour ? value : join(colourParameters(old), value) }
                switch part {
                case .fg: theme.normal = keepingColour(theme.normal)
                case .hl: theme.highlight = keepingColour(theme.highlight)
                case .selectedHl: theme.highlightSelected = keepingColour(theme.highlightSelected)
                case .selectedFg, .selectedBg:
                    theme.selected = join(theme.selected, value)
                    // As fzf: the gutter's glyph is in bg+'s colour unless `gutter` is given.
                    if part == .selectedBg {
                        currentBackground = style.sgr(background: false)
                        if !gutterGiven { theme.gutterGlyph = currentBackground }
                    }
                case .bg: theme.background = value
                case .markedFg, .markedBg: theme.marked = join(theme.marked, value)
                case .markedHl: theme.markedHighlight = value
                case .prompt: theme.prompt = keepingColour(theme.prompt)
                case .query: theme.query = keepingColour(theme.query)
                case .disabled: theme.disabled = value
                case .gutter:
                    gutterGiven = true
                    theme.gutter = value
                    theme.gutterGlyph = style.sgr(background: false)
                case .previewFg: theme.previewNormal = value
                case .previewBg: theme.previewBackground = value
                case .info: theme.info = keepingColour(theme.info)
                case .pointer: theme.pointer = keepingColour(theme.pointer)
                case .marker: theme.marker = keepingColour(theme.marker)
                case .header: theme.header = keepingColour(theme.header)
                case .spinner: theme.spinner = keepingColour(theme.spinner)
                case .ghost: theme.ghost = keepingColour(theme.ghost)
                case .section: theme.section = keepingColour(theme.section)
                case .chip: theme.chip = keepingColour(theme.chip)
                case .border: theme.border = keepingColour(theme.border)
                case .label: theme.label = keepingColour(theme.label)
                case .listBorder: theme.partBorders[.list] = value
                case .inputBorder: theme.partBorders[.input] = value
                case .headerBorder: theme.partBorders[.header] = value
                case .footerBorder: theme.partBorders[.footer] = value
                case .listLabel: theme.partLabels[.list] = value
                case .inputLabel: theme.partLabels[.input] = value
                case .headerLabel: theme.partLabels[.header] = value
                case .footerLabel: theme.partLabels[.footer] = value
                case .footer: theme.footer = value
                case .previewBorder: theme.previewBorder = value
                case .previewLabel: theme.previewLabel = value
                case .separator: theme.separator = value
                case .scrollbar: theme.scrollbar = value
                case .previewScrollbar: theme.previewScrollbar = value
                case .nomatch: theme.unmatched = value
                case .headerBg: theme.partBackgrounds[.header] = value
                case .footerBg: theme.partBackgrounds[.footer] = value
                case .inputBg: theme.partBackgrounds[.input] = value
                case .listBg: theme.partBackgrounds[.list] = value
                }
            }
            if case .scheme = step { schemeHeader = theme.header }
        }
        if theme.footer == nil { theme.footer = schemeHeader }
        return theme
    }
}
