import PickCore

/// SGR parameters for each part of the screen ("" draws plainly).
struct Theme {
    /// The text of rows that are not selected (`fg`); the selected row draws over it.
    var normal = ""
    var highlight = "38;5;108;1"
    var highlightSelected = "38;5;151;1"
    var selected = "48;5;236;1"
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
    /// Whether colours and attributes are used at all.
    var isPlain = false

    /// The selected row's style over `normal` (its later parameters win).
    var selectedRow: String {
        normal.isEmpty ? selected : selected.isEmpty ? normal : normal + ";" + selected
    }

    /// No colours: matches in bold, the rest plain (`--no-color`, NO_COLOR).
    static let noColor = Theme(highlight: "1", highlightSelected: "1", selected: "1", pointer: "", marker: "",
                               section: "1", chip: "", info: "", spinner: "", ghost: "2", header: "",
                               message: "", symbol: "", scope: "1", border: "", label: "")
    /// Nothing at all (TERM=dumb, --color=bw).
    static let plain = Theme(highlight: "", highlightSelected: "", selected: "", pointer: "", marker: "",
                             section: "", chip: "", info: "", spinner: "", ghost: "", header: "",
                             message: "", symbol: "", scope: "", border: "", label: "", isPlain: true)

    /// The theme for `--color` (parsed in PickCore), `--no-color` and the environment.
    static func make(spec: ColorSpec?, noColor: Bool, environment: (String) -> String?) -> Theme {
        if environment("TERM") == "dumb" { return .plain }
        let spec = spec ?? ColorSpec()
        if spec.isPlain { return .plain }
        if noColor || (environment("NO_COLOR").map { !$0.isEmpty } ?? false) {
            if !spec.isForced { return .noColor }
        }
        var theme = Theme()
        for step in spec.steps {
            switch step {
            case .scheme(.dark):
                continue
            case .scheme(.basic):
                theme = Theme(highlight: "32;1", highlightSelected: "32;1", selected: "1;7", pointer: "31",
                              marker: "35", section: "34;1", chip: "7", info: "33", spinner: "31",
                              ghost: "2", header: "36", message: "33", symbol: "2", scope: "1;4",
                              border: "", label: "")
            case .scheme(.light):
                theme.selected = "48;5;254;1"; theme.highlight = "38;5;28;1"; theme.highlightSelected = "38;5;22;1"
                theme.chip = "38;5;238;48;5;252"; theme.info = "38;5;101"; theme.section = "38;5;25;1"
                theme.border = "38;5;145"; theme.label = "38;5;59"
            case .style(let part, let style):
                let value = style.sgr(background: part.isBackground)
                switch part {
                case .fg: theme.normal = value
                case .hl: theme.highlight = value
                case .selectedHl: theme.highlightSelected = value
                case .selectedFg, .selectedBg: theme.selected = theme.selected.isEmpty ? value : theme.selected + ";" + value
                case .info: theme.info = value
                case .pointer: theme.pointer = value
                case .marker: theme.marker = value
                case .header: theme.header = value
                case .spinner: theme.spinner = value
                case .ghost: theme.ghost = value
                case .section: theme.section = value
                case .chip: theme.chip = value
                case .border: theme.border = value
                case .label: theme.label = value
                }
            }
        }
        return theme
    }
}
