import PickCore

/// Where the UI sits on the terminal: rows `top ..< top + height` (1-based), the prompt on
/// the first row (layout top) or the last (layout bottom).
struct Geometry: Equatable {
    var top: Int
    var height: Int
    var width: Int
    var layout: Layout
    /// Rows the prompt and query take (more than one when the query wraps).
    var promptRows = 1

    var bottom: Int { top + height - 1 }
    /// The first row of the prompt.
    var promptRow: Int { layout == .top ? top : bottom - promptRows + 1 }

    /// Rows left for the list once the prompt, the info line and `headers` rows are placed.
    func listHeight(headers: Int) -> Int { max(0, height - promptRows - 1 - headers) }

    var infoRow: Int { layout == .top ? top + promptRows : promptRow - 1 }

    func headerRow(_ k: Int, of count: Int) -> Int {
        layout == .top ? infoRow + 1 + k : infoRow - count + k
    }

    /// The screen row of list row `i` (in flow order: 0 is next to the prompt).
    func listRow(_ i: Int, headers: Int) -> Int {
        layout == .top ? infoRow + 1 + headers + i : infoRow - headers - 1 - i
    }
}

/// Ghost text: the rest of the best suggestion, drawn dim after the query.
struct Ghost: Equatable {
    /// Screen column just after the query (1-based).
    var column: Int
    /// What to draw there ("" draws nothing but still clears old ghost text).
    var text: String
}

/// Turns a frame into the bytes that draw it. Pure: the same frame gives the same bytes.
///
/// Everything is drawn between DECSC and DECRC (ESC 7 / ESC 8), so the cursor goes back
/// exactly where libedit left it in the query and libedit's idea of the screen stays true.
enum Painter {
    static let spinner = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    static func paint(_ frame: Frame, geometry g: Geometry, theme: Theme, spinnerPhase: Int = 0,
                      overlay: [String]? = nil, ghost: Ghost? = nil) -> [UInt8] {
        var out = "\u{1B}[?25l\u{1B}7"
        func move(_ row: Int) { out += "\u{1B}[\(row);1H" }
        func styled(_ sgr: String, _ text: String) -> String {
            sgr.isEmpty || theme.isPlain ? text : "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
        }
        let width = max(1, g.width)
        var drawn = Set<Int>()
        // Rows pick may draw on: inside the region, never the prompt's.
        func isFree(_ row: Int) -> Bool {
            guard row >= g.top, row <= g.bottom else { return false }
            return g.layout == .top ? row >= g.top + g.promptRows : row < g.promptRow
        }
        // No row is ever wider than the terminal: a wider one would wrap onto the next.
        func line(_ text: String) -> String { clip(text, to: width, plain: theme.isPlain) + "\u{1B}[K" }

        // Info line.
        if isFree(g.infoRow) {
            move(g.infoRow)
            out += line(infoLine(frame.info, width: width, theme: theme, phase: spinnerPhase))
            drawn.insert(g.infoRow)
        }

        for (k, spans) in frame.headers.enumerated() {
            let row = g.headerRow(k, of: frame.headers.count)
            guard isFree(row), row < g.infoRow || g.layout == .top else { continue }
            move(row)
            out += line(styled(theme.header, spans.map(\.text).joined()))
            drawn.insert(row)
        }

        let listHeight = g.listHeight(headers: frame.headers.count)
        var body: [String] = []
        if let overlay {
            body = overlay.map { styled(theme.info, TerminalText.truncate($0, to: width)) }
        } else if !frame.rows.isEmpty {
            body = frame.rows.map { row($0, width: width, theme: theme) }
        } else {
            body = frame.message.map { styled(theme.message, TerminalText.truncate("  " + $0, to: width)) }
        }
        // Overlays and messages read top to bottom in both layouts.
        let readsDown = overlay != nil || frame.rows.isEmpty
        for i in 0..<listHeight {
            let index = (readsDown && g.layout == .bottom) ? i - max(0, listHeight - body.count) : i
            let screenRow = readsDown && g.layout == .bottom
                ? g.listRow(listHeight - 1 - i, headers: frame.headers.count)
                : g.listRow(i, headers: frame.headers.count)
            guard isFree(screenRow) else { continue }
            move(screenRow)
            out += line(index >= 0 && index < body.count ? body[index] : "")
            drawn.insert(screenRow)
        }
        // Anything else in the region (not the prompt) is cleared.
        for r in g.top...max(g.top, g.bottom) where !drawn.contains(r) && isFree(r) {
            move(r)
            out += "\u{1B}[K"
        }
        if let ghost, ghost.column <= width {
            out += "\u{1B}[\(g.promptRow);\(ghost.column)H\u{1B}[K"
            let room = width - ghost.column
            if room > 0, !ghost.text.isEmpty {
                out += styled(theme.ghost, TerminalText.truncate(ghost.text, to: room))
            }
        }
        out += "\u{1B}8\u{1B}[?25h"
        return Array(out.utf8)
    }

    /// `text` (pick's own SGR sequences and safe characters) cut to `columns` columns.
    static func clip(_ text: String, to columns: Int, plain: Bool) -> String {
        // Most rows fit: an ASCII row is measured a byte at a time and kept as it is (a
        // frame of 38 highlighted rows took 0.6 ms, a fifth of it copying them a character
        // at a time).
        if fitsAsASCII(text, columns) { return text }
        var out = String.UnicodeScalarView()
        var used = 0
        var inEscape = false
        var cut = false
        for u in text.unicodeScalars {
            if inEscape {
                out.append(u)
                if u.value >= 0x40 && u.value <= 0x7E && u != "[" { inEscape = false }
                continue
            }
            if u == "\u{1B}" { inEscape = true; out.append(u); continue }
            let w = TerminalText.width(of: u.value)
            if cut || used + w > columns { cut = true; continue }
            used += w
            out.append(u)
        }
        return String(out) + (cut && !plain ? "\u{1B}[0m" : "")
    }

    /// Whether `text` is ASCII and its characters outside escape sequences fit `columns`.
    private static func fitsAsASCII(_ text: String, _ columns: Int) -> Bool {
        var used = 0
        var inEscape = false
        for b in text.utf8 {
            if b >= 0x80 { return false }
            if inEscape {
                if b >= 0x40 && b <= 0x7E && b != UInt8(ascii: "[") { inEscape = false }
            } else if b == 0x1B {
                inEscape = true
            } else {
                used += 1
                if used > columns { return false }
            }
        }
        return true
    }

    static func infoLine(_ info: InfoLine, width: Int, theme: Theme, phase: Int) -> String {
        func styled(_ sgr: String, _ text: String) -> String {
            sgr.isEmpty || theme.isPlain ? text : "\u{1B}[\(sgr)m\(text)\u{1B}[0m"
        }
        var plain = "  \(info.matches)/\(info.total)"
        var text = styled(theme.info, plain)
        if info.isBusy {
            let s = spinner[phase % spinner.count]
            plain += " " + s
            text += " " + styled(theme.spinner, s)
        }
        if let marked = info.marked, marked > 0 {
            let m = " (\(marked) marked)"
            plain += m
            text += styled(theme.info, m)
        }
        if !info.scopes.isEmpty {
            var used = TerminalText.width(plain) + 3
            text += "   "
            for (i, name) in info.scopes.enumerated() {
                let label = i == info.scope && (theme.isPlain || theme.scope.isEmpty) ? "[\(name)]" : name
                let sep = i == 0 ? "" : " · "
                let w = TerminalText.width(sep + label)
                if used + w > width {
                    break
                }
                used += w
                text += styled(theme.info, sep) + (i == info.scope ? styled(theme.scope, label) : styled(theme.info, label))
            }
        }
        return text
    }

    static func row(_ row: FrameRow, width: Int, theme: Theme) -> String {
        let reset = "\u{1B}[0m"
        func sgr(_ p: String) -> String { p.isEmpty || theme.isPlain ? "" : "\u{1B}[\(p)m" }
        switch row {
        case .section(let name):
            return sgr(theme.section) + name + (theme.isPlain || theme.section.isEmpty ? "" : reset)
        case .line(let line):
            let base = line.isSelected ? theme.selectedRow : theme.normal
            func with(_ extra: String) -> String {
                let joined = [base, extra].filter { !$0.isEmpty }.joined(separator: ";")
                return theme.isPlain ? "" : reset + sgr(joined)
            }
            var out = with("")
            out += line.isSelected ? with(theme.pointer) + ">" : " "
            out += line.isMarked ? with(theme.marker) + "*" : with("") + " "
            for span in line.spans {
                var extra: [String] = []
                if !span.style.isEmpty { extra.append(span.style) }
                if span.isSymbol && !theme.symbol.isEmpty { extra.append(theme.symbol) }
                if span.isHighlighted {
                    let h = line.isSelected ? theme.highlightSelected : theme.highlight
                    if !h.isEmpty { extra.append(h) }
                }
                out += with(extra.joined(separator: ";")) + span.text
            }
            out += with("")
            var used = FrameBuilder.gutter + line.titleColumns
            if let chip = line.chip {
                // A key that picks the line looks like a key; a hint (a key the editor or
                // pick uses, or no key at all) is dim text, or in parentheses without colour.
                let chipText = line.chipFires
                    ? (theme.isPlain || theme.chip.isEmpty ? "[\(chip)]" : " \(chip) ")
                    : (theme.isPlain ? "(\(chip))" : " \(chip) ")
                let chipStyle = line.chipFires ? theme.chip : theme.ghost
                let chipWidth = TerminalText.width(chipText)
                if width - chipWidth > used {
                    out += String(repeating: " ", count: width - chipWidth - used)
                    used = width - chipWidth
                }
                out += with(chipStyle) + chipText + with("")
                used += chipWidth
            }
            if line.isSelected && !theme.selected.isEmpty && used < width {
                out += String(repeating: " ", count: width - used)
            }
            return out + (theme.isPlain ? "" : reset)
        }
    }
}
