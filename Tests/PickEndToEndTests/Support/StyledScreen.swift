import Foundation

/// The screen as `capture-pane -e` gives it, read back into cells: each character with the
/// colours and boldness tmux drew it in. A test asks what a person sees ("the prompt is
/// mauve and bold") rather than matching escape sequences, whose order tmux chooses.
struct StyledScreen {
    struct Cell: Equatable {
        var character: Character
        /// SGR colour words as tmux writes them: "5;110", "2;203;166;247", "1" (red); nil is the default.
        var foreground: String?
        var background: String?
        var bold: Bool
    }

    var rows: [[Cell]] = []

    init(_ captured: String) {
        var foreground: String?
        var background: String?
        var bold = false
        var row: [Cell] = []
        var scalars = Array(captured.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\n" {
                rows.append(row)
                row = []
            } else if scalar == "\u{1B}", scalars.first == "[" {
                scalars.removeFirst()
                var body = ""
                while let c = scalars.popFirst(), !(c.value >= 0x40 && c.value <= 0x7E) { body.unicodeScalars.append(c) }
                var words = body.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }[...]
                while let word = words.popFirst() {
                    switch word {
                    case 0: foreground = nil; background = nil; bold = false
                    case 1: bold = true
                    case 22: bold = false
                    case 39: foreground = nil
                    case 49: background = nil
                    case 30...37, 90...97: foreground = "\(word)"
                    case 40...47, 100...107: background = "\(word)"
                    case 38, 48:
                        let kind = words.popFirst() ?? 0
                        let count = kind == 2 ? 3 : 1
                        let colour = ([kind] + words.prefix(count)).map(String.init).joined(separator: ";")
                        words = words.dropFirst(count)
                        if word == 38 { foreground = colour } else { background = colour }
                    default: break
                    }
                }
            } else {
                row.append(Cell(character: Character(scalar), foreground: foreground, background: background, bold: bold))
            }
        }
        if !row.isEmpty { rows.append(row) }
    }

    /// The row whose text contains `text`, as plain text and cells.
    func row(containing text: String) -> [Cell]? {
        rows.first { String($0.map(\.character)).contains(text) }
    }

    /// The cells of the first `text` on the screen.
    func cells(of text: String) -> [Cell] {
        for row in rows {
            let chars = row.map(\.character)
            let want = Array(text)
            guard want.count <= chars.count else { continue }
            for start in 0...(chars.count - want.count) where Array(chars[start..<(start + want.count)]) == want {
                return Array(row[start..<(start + want.count)])
            }
        }
        return []
    }
}
