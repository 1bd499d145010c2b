// The option table's rows for the parts' borders and labels (fzf's `--list-border`,
// `--input-border`, `--header-border`, `--header-lines-border`, `--footer-border`, their
// labels, `--footer`, `--header-first`; see View/PartLayout.swift).

extension OptionTable {
    private static let help = OptionHelp.init

    static let parts: [OptionRow] = border("--list-border", \.parts.list,
                                           help: help(.interface, "--list-border[=STYLE]", "a border around the list; the input, header,\n"
                                                      + "header lines and footer have theirs, each with a label (man pick)"))
        + border("--input-border", \.parts.input) + border("--header-border", \.parts.header)
        + border("--footer-border", \.parts.footer) + [
            OptionRow("--header-lines-border", .optional, nextWord: OptionRow.notAnOption) {
                $0.parts.headerLines = PartBorder(style: try style($1, default: $0.defaultBorder),
                                                  label: $0.parts.headerLines?.label ?? "")
            },
            .flag("--no-header-lines-border") { $0.parts.headerLines = nil },
            .flag("--header-first", help: help(.interface, "--header-first", "the header on the far side of the prompt")) {
                $0.parts.headerFirst = true
            },
            .flag("--no-header-first") { $0.parts.headerFirst = false },
            OptionRow("--footer", .required, help: help(.interface, "--footer=TEXT", "lines of text beyond the list")) {
                $0.footer = $1.string.isEmpty ? nil : $1.string
            },
            .flag("--no-footer") { $0.footer = nil },
            OptionRow("--preview-border", .optional, nextWord: OptionRow.notAnOption,
                      help: help(.preview, "--preview-border[=STYLE]", "the pane's border; --preview-label=TEXT and\n"
                                 + "--preview-label-pos=N[:bottom] put a label on it")) {
                let style = try style($1, default: $0.defaultBorder)
                guard style != .inline else { throw inlineRefused($1) }
                $0.previewWindow.border = style
            },
            .flag("--no-preview-border") { $0.previewWindow.border = .none },
            OptionRow("--preview-label", .required) { $0.previewLabel.label = $1.string },
            .flag("--no-preview-label") { $0.previewLabel.label = "" },
            OptionRow("--preview-label-pos", .required) {
                guard let position = LabelPosition.parse($1.string) else {
                    throw $1.refused("expected a column such as 3 or -3, or center, optionally with :bottom")
                }
                $0.previewLabel.labelPosition = position
            },
            OptionRow("--style", .required,
                      help: help(.interface, "--style=PRESET", "fzf's presets: default, minimal, full[:BORDER] (every part\n"
                                 + "in a border, the counts on the prompt's row)")) {
                try stylePreset($1, into: &$0)
            },
        ]

    /// fzf's `--style` presets: each sets the parts' and the preview's borders, the info
    /// line, the rule, the scrollbar, the gutter (minimal's blank) and `--highlight-line`
    /// (full's); options after it change what it set.
    private static func stylePreset(_ value: OptionValue, into options: inout Options) throws {
        let words = value.string.lowercased().split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        // Every preset takes the gutter's colour back to bg+'s, as fzf's.
        defer { options.color = (options.color ?? ColorSpec()).merged(with: ColorSpec(steps: [.unset(.gutter)])) }
        switch words.first.map(String.init) ?? "" {
        case "default" where words.count == 1:
            options.defaultBorder = .rounded
            (options.parts.list.style, options.parts.input.style, options.parts.header.style) = (.none, .none, .none)
            options.parts.footer.style = .line
            options.previewWindow.border = .rounded
            options.previewWindow.info = true
            options.info = .default
            options.separator = nil
            options.scrollbar = nil
            options.highlightLine = false
        case "minimal" where words.count == 1:
            options.defaultBorder = .rounded
            (options.parts.list.style, options.parts.input.style, options.parts.header.style) = (.none, .none, .none)
            options.parts.footer.style = .line
            options.previewWindow.border = .line
            options.previewWindow.info = false
            options.info = .default
            options.separator = ""
            options.scrollbar = ""
            options.gutter = " "
            options.highlightLine = false
        case "full":
            var style = BorderStyle.rounded
            if words.count == 2 && !words[1].isEmpty {
                guard let given = BorderStyle(rawValue: String(words[1])) else {
                    throw value.refused("expected a border style after full:, such as full:sharp")
                }
                style = given
            }
            options.defaultBorder = style
            if style != .line { options.parts.list.style = style }
            (options.parts.input.style, options.parts.header.style, options.parts.footer.style) = (style, style, style)
            options.previewWindow.border = style
            if style == .line { options.surround.border = .line }
            options.previewWindow.info = true
            options.info = .inlineRight(prefix: "")
            options.separator = nil
            options.scrollbar = nil
            options.highlightLine = true
        default:
            throw value.refused("expected default, minimal or full[:BORDER]")
        }
    }

    /// `--NAME[=STYLE]`, `--no-NAME`, and the label's `--PART-label`, `--no-PART-label`,
    /// `--PART-label-pos` for the part `NAME` borders.
    private static func border(_ name: String, _ part: WritableKeyPath<Options, PartBorder> & Sendable,
                               help: OptionHelp? = nil) -> [OptionRow] {
        let label = String(name.dropLast("-border".count)) + "-label"
        return [
            OptionRow(name, .optional, nextWord: OptionRow.notAnOption, help: help) {
                let style = try style($1, default: $0.defaultBorder)
                if style == .inline && (name == "--list-border" || name == "--input-border") { throw inlineRefused($1) }
                // As fzf: the list's border cannot be a line (after `--style full:line`,
                // `--list-border` alone is rounded).
                if style == .line && name == "--list-border" {
                    guard $1.text == nil else { throw $1.refused("the list's border cannot be a line") }
                    $0[keyPath: part].style = .rounded
                    return
                }
                $0[keyPath: part].style = style
            },
            .flag("--no-" + name.dropFirst(2)) { $0[keyPath: part].style = .none },
            OptionRow(label, .required) { $0[keyPath: part].label = $1.string },
            .flag("--no-" + label.dropFirst(2)) { $0[keyPath: part].label = "" },
            OptionRow(label + "-pos", .required) {
                guard let position = LabelPosition.parse($1.string) else {
                    throw $1.refused("expected a column such as 3 or -3, or center, optionally with :bottom")
                }
                $0[keyPath: part].labelPosition = position
            },
        ]
    }

    /// fzf's refusal of `inline` where it cannot be drawn.
    static func inlineRefused(_ value: OptionValue) -> OptionError {
        value.refused("inline border is only supported for --header-border, --header-lines-border, and --footer-border")
    }

    /// A border's style: `default` (rounded, or `--style full:STYLE`'s) when none is given, as fzf.
    static func style(_ value: OptionValue, default: BorderStyle = .rounded) throws -> BorderStyle {
        guard let style = value.text.map({ BorderStyle(rawValue: $0) }) ?? `default` else {
            throw value.refused("expected " + BorderStyle.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return style
    }
}
