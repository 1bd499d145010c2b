#if canImport(Glibc)
import Glibc
#endif

/// SGR parameters for each part of the screen ("" draws plainly).
struct Theme {
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
    var prompt = ""
    var symbol = "2"
    var scope = "1;4"
    /// Whether colours and attributes are used at all.
    var isPlain = false

    /// No colours: matches in bold, the rest plain (`--no-color`, NO_COLOR).
    static let noColor = Theme(highlight: "1", highlightSelected: "1", selected: "1", pointer: "", marker: "",
                               section: "1", chip: "", info: "", spinner: "", ghost: "2", header: "",
                               message: "", prompt: "", symbol: "", scope: "1")
    /// Nothing at all (TERM=dumb, --color=bw).
    static let plain = Theme(highlight: "", highlightSelected: "", selected: "", pointer: "", marker: "",
                             section: "", chip: "", info: "", spinner: "", ghost: "", header: "",
                             message: "", prompt: "", symbol: "", scope: "", isPlain: true)

    /// The theme for the options and environment.
    static func make(spec: String?, noColor: Bool, environment: (String) -> String?) -> Theme {
        if environment("TERM") == "dumb" { return .plain }
        if spec == "bw" || spec == "never" { return .plain }
        if noColor || (environment("NO_COLOR").map { !$0.isEmpty } ?? false) {
            if spec != "always" { return .noColor }
        }
        var theme = Theme()
        guard let spec else { return theme }
        for item in spec.split(separator: ",") {
            switch item {
            case "16":
                theme = Theme(highlight: "32;1", highlightSelected: "32;1", selected: "1;7", pointer: "31",
                              marker: "35", section: "34;1", chip: "7", info: "33", spinner: "31",
                              ghost: "2", header: "36", message: "33", prompt: "", symbol: "2", scope: "1;4")
                continue
            case "light":
                theme.selected = "48;5;254;1"; theme.highlight = "38;5;28;1"; theme.highlightSelected = "38;5;22;1"
                theme.chip = "38;5;238;48;5;252"; theme.info = "38;5;101"; theme.section = "38;5;25;1"
                continue
            case "dark", "always", "auto": continue
            default: break
            }
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { continue }
            let value = sgr(parts[1], background: parts[0].hasPrefix("bg"))
            switch parts[0] {
            case "hl": theme.highlight = value
            case "hl+": theme.highlightSelected = value
            case "bg+", "fg+": theme.selected = theme.selected.isEmpty ? value : theme.selected + ";" + value
            case "info": theme.info = value
            case "prompt", "query": theme.prompt = value
            case "pointer": theme.pointer = value
            case "marker": theme.marker = value
            case "header": theme.header = value
            case "spinner": theme.spinner = value
            case "ghost": theme.ghost = value
            case "section": theme.section = value
            case "chip": theme.chip = value
            default: continue
            }
        }
        return theme
    }

    /// `--color` value syntax (`108`, `#87af87`, `green`, `bold`, `green:bold`) as SGR parameters.
    static func sgr(_ value: String, background: Bool) -> String {
        let names = ["black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"]
        var out: [String] = []
        for part in value.split(separator: ":").map(String.init) {
            if let n = Int(part) {
                out.append(n < 0 ? (background ? "49" : "39") : "\(background ? 48 : 38);5;\(n)")
            } else if part.hasPrefix("#"), part.count == 7, let rgb = Int(part.dropFirst(), radix: 16) {
                out.append("\(background ? 48 : 38);2;\(rgb >> 16);\((rgb >> 8) & 255);\(rgb & 255)")
            } else if let i = names.firstIndex(of: part) {
                out.append("\((background ? 40 : 30) + i)")
            } else if part.hasPrefix("bright-"), let i = names.firstIndex(of: String(part.dropFirst(7))) {
                out.append("\((background ? 100 : 90) + i)")
            } else {
                switch part {
                case "bold": out.append("1")
                case "dim": out.append("2")
                case "italic": out.append("3")
                case "underline": out.append("4")
                case "reverse": out.append("7")
                case "default": out.append(background ? "49" : "39")
                default: break
                }
            }
        }
        return out.joined(separator: ";")
    }
}
