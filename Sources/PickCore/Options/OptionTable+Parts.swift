// The option table's rows for the parts' borders and labels (fzf's `--list-border`,
// `--input-border`, `--header-border`, `--header-lines-border`, `--footer-border`, their
// labels, `--footer`, `--header-first`; see View/PartLayout.swift).

extension OptionTable {
    private static let help = OptionHelp.init

    static let parts: [OptionRow] = border("--list-border", \.parts.list,
                                           help: help(.interface, "--list-border[=STYLE]", "a border around the list; --list-label=TEXT,\n"
                                                      + "--list-label-pos=N[:bottom] (likewise --input-, --header-,\n"
                                                      + "--footer-: border, label, label-pos)"))
        + border("--input-border", \.parts.input) + border("--header-border", \.parts.header)
        + border("--footer-border", \.parts.footer) + [
            OptionRow("--header-lines-border", .optional, nextWord: OptionRow.notAnOption) {
                $0.parts.headerLines = PartBorder(style: try style($1), label: $0.parts.headerLines?.label ?? "")
            },
            .flag("--no-header-lines-border") { $0.parts.headerLines = nil },
            .flag("--header-first", help: help(.interface, "--header-first", "the header on the far side of the prompt")) {
                $0.parts.headerFirst = true
            },
            .flag("--no-header-first") { $0.parts.headerFirst = false },
            OptionRow("--footer", .required, help: help(.interface, "--footer=TEXT", "lines of text beyond the list")) {
                $0.footer = $1.string
            },
            .flag("--no-footer") { $0.footer = nil },
        ]

    /// `--NAME[=STYLE]`, `--no-NAME`, and the label's `--PART-label`, `--no-PART-label`,
    /// `--PART-label-pos` for the part `NAME` borders.
    private static func border(_ name: String, _ part: WritableKeyPath<Options, PartBorder> & Sendable,
                               help: OptionHelp? = nil) -> [OptionRow] {
        let label = String(name.dropLast("-border".count)) + "-label"
        return [
            OptionRow(name, .optional, nextWord: OptionRow.notAnOption, help: help) { $0[keyPath: part].style = try style($1) },
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

    /// A border's style: rounded when none is given, as fzf.
    static func style(_ value: OptionValue) throws -> BorderStyle {
        guard let style = BorderStyle(rawValue: value.text ?? "rounded") else {
            throw value.refused("expected " + BorderStyle.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return style
    }
}
