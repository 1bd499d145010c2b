#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// Where on the terminal the picker draws: the whole screen (the alternate screen), or with
/// `--height` a region below the cursor that leaves the shell's text above alone.
struct ScreenRegion {
    let height: Height
    let layout: Layout
    var geometry: Geometry
    /// With `--height`: the column the cursor stood on when pick started (1-based), and
    /// whether pick started on the next row because that column was not the first; leaving
    /// puts the cursor back there. nil when the terminal did not say.
    private var startColumn: Int? = nil
    private var startedBelow = false
    /// With `--height=~N`: the rows the input needs, when fewer than N (nil: N).
    var fitRows: Int? = nil
    /// Between `enter` and `leave`: pick may draw. Once it has left (to end, to run a
    /// command, for ctrl-z) nothing is drawn: a frame then would stay on the shell's screen.
    private(set) var isShown = false

    /// `--min-height`: the fewest rows a percentage or `-N` height takes.
    var minHeight: Int

    init(height: Height, minHeight: Int = 0, layout: Layout, mouse: Bool) {
        self.height = height
        self.minHeight = minHeight
        self.layout = layout
        self.mouse = mouse
        geometry = Geometry(top: 1, height: 24, width: 80, layout: layout)
    }

    /// Reports mouse buttons and the wheel (`--no-mouse`: not).
    let mouse: Bool

    /// Terminal modes pick turns on while it runs: bracketed paste (a pasted newline must
    /// not pick), and mouse reports in SGR form (clicks anywhere on a wide terminal).
    var modesOn: String { "\u{1B}[?2004h" + (mouse ? "\u{1B}[?1000h\u{1B}[?1006h" : "") }
    /// What turns every mode off again, on every way out (a crash too): the mouse's
    /// whether or not it was on, so a terminal is never left reporting clicks.
    /// SGR 0 first: the query's style libedit left on must not colour the shell's output.
    static let modesOff = "\u{1B}[0m\u{1B}[?1006l\u{1B}[?1000l\u{1B}[?2004l\u{1B}[?25h"

    /// What a crash leaves on the terminal.
    static func crashRestore(for height: Height) -> String {
        if case .full = height { return modesOff + "\u{1B}[?1049l" }
        return modesOff + "\r\n"
    }

    /// Takes the screen, or makes room for the region below the cursor. Keys typed before
    /// the terminal answers where its cursor is go to `decoder`. `clearing` (not with
    /// `--no-clear`, fzf's way of running pick again and again in place): what is below the
    /// cursor is cleared first, as fzf clears it, so no old text (nor a wrapped line's mark)
    /// is left in the region.
    mutating func enter(_ terminal: Terminal, decoder: inout KeyDecoder, clearing: Bool = true) {
        let size = terminal.size()
        switch height {
        case .full:
            terminal.write("\u{1B}[?1049h" + modesOn + "\u{1B}[H\u{1B}[2J")
            geometry = Geometry(top: 1, height: size.rows, width: size.cols, layout: layout)
        case .rows, .percent, .allBut:
            let rows = regionHeight(rows: size.rows)
            var row = size.rows
            var typeahead: [UInt8] = []
            let position = terminal.cursorPosition(typeahead: &typeahead)
            decoder.buffer.append(contentsOf: typeahead)
            startColumn = position?.col
            startedBelow = false
            if let position {
                row = position.row
                if position.col > 1 {
                    terminal.write("\r\n")
                    row = min(row + 1, size.rows)
                    startedBelow = true
                }
            } else {
                // No answer in time: start on a fresh line, and scroll so the region ends
                // on the last row, where it can be placed without knowing the cursor's row.
                decoder.awaitingCursorReport = true
                terminal.write("\r\n" + String(repeating: "\n", count: max(0, size.rows - rows)))
            }
            if clearing { terminal.write("\u{1B}[J") }
            terminal.write(modesOn)
            terminal.write(String(repeating: "\n", count: rows - 1))
            if rows > 1 { terminal.write("\u{1B}[\(rows - 1)A") }
            geometry = Geometry(top: min(row, size.rows - rows + 1), height: rows, width: size.cols, layout: layout)
        }
        terminal.write("\u{1B}[\(geometry.promptRow);1H")
        isShown = true
    }

    /// Gives the screen back, or clears the region and puts the cursor where it was.
    /// `clearing` false (`--no-clear`, on the way out): the last frame stays on the screen,
    /// the alternate one kept, or the region's rows left as drawn (fzf's).
    mutating func leave(_ terminal: Terminal, clearing: Bool = true) {
        isShown = false
        switch height {
        case .full:
            terminal.write(Self.modesOff + (clearing ? "\u{1B}[?1049l" : ""))
        default:
            terminal.write(Self.modesOff + "\u{1B}[\(geometry.top);1H" + (clearing ? "\u{1B}[J" : ""))
            // Back where the cursor was: the end of a shell's command line stays put, so a
            // widget's redraw of its prompt lands on the same row.
            if let column = startColumn {
                let row = startedBelow ? max(1, geometry.top - 1) : geometry.top
                terminal.write("\u{1B}[\(row);\(column)H")
            }
        }
    }

    /// Places the region again after the terminal changed size. `cursorRowsBelowTop` is how
    /// many rows below the region's top the cursor stands, on the prompt, for a terminal
    /// that many columns wide (a query may wrap; a border may come first).
    mutating func resize(_ terminal: Terminal, decoder: inout KeyDecoder, cursorRowsBelowTop: (Int) -> Int) {
        let size = terminal.size()
        switch height {
        case .full:
            geometry = Geometry(top: 1, height: size.rows, width: size.cols, layout: layout)
        default:
            // The terminal may have moved the text as it resized (tmux drops the rows below
            // the cursor and pushes rows from the top into its history): ask where the
            // cursor, on the prompt, is now. The region's top stays there, just below the
            // shell's text. When the region no longer fits below it, the screen scrolls up,
            // so the shell's lines go into the scrollback (and come back as the terminal
            // grows again) instead of being drawn over.
            let rows = regionHeight(rows: size.rows)
            var top = geometry.top
            var typeahead: [UInt8] = []
            let position = terminal.cursorPosition(inRawMode: true, typeahead: &typeahead)
            decoder.buffer.append(contentsOf: typeahead)
            if let position {
                top = position.row - cursorRowsBelowTop(size.cols)
            } else {
                decoder.awaitingCursorReport = true
            }
            top = max(1, top)
            let overflow = top + rows - 1 - size.rows
            if overflow > 0 {
                terminal.write("\u{1B}[\(size.rows);1H" + String(repeating: "\n", count: overflow))
                top -= overflow
            }
            geometry = Geometry(top: top, height: rows, width: size.cols, layout: layout)
        }
        clear(terminal)
    }

    /// Blanks what pick draws on (the region, or the whole alternate screen) and puts the
    /// cursor on the prompt's first row, for libedit to draw the prompt and query again.
    func clear(_ terminal: Terminal) {
        switch height {
        case .full: terminal.write("\u{1B}[H\u{1B}[2J")
        default: terminal.write("\u{1B}[\(geometry.top);1H\u{1B}[J")
        }
        terminal.write("\u{1B}[\(geometry.promptRow);1H")
    }

    /// The region's rows on a terminal `rows` high: the height asked for, or fewer when
    /// `fitRows` (`--height=~N`) says the input needs fewer.
    func regionHeight(rows: Int) -> Int {
        let most: Int
        switch height {
        case .full: most = rows
        case .rows(let n): most = min(rows, max(3, min(n, rows)))
        case .percent(let p): most = min(rows, max(3, minHeight, rows * p / 100))
        case .allBut(let n): most = min(rows, max(3, minHeight, rows - n))
        }
        return fitRows.map { min(most, max(1, $0)) } ?? most
    }

    /// `--height=~N`: takes the rows the input needs (`content`: its candidate lines, header
    /// rows and sections), once it has ended or outgrown the most the region may take;
    /// all of them when it still streams in after `Tunables.Picker.adaptiveHeightWaitMillis`.
    /// Keys typed meanwhile wait in the terminal. `preview`: the pane's window when it
    /// shows, which takes its rows on top of those (`withPreview`).
    mutating func fit(_ terminal: Terminal, info: InfoStyle, separator: StyledText?, separatorIsDefault: Bool = false,
                      surround: Surround, preview: PreviewWindow? = nil,
                      listRows: (Geometry, Int) -> Int = { $0.listHeight(headers: $1) },
                      content: () -> (candidates: Int, headers: Int, sections: Int, loading: Bool)) {
        fitRows = nil
        let most = regionHeight(rows: terminal.size().rows)
        let deadline = monotonicMillis() + Tunables.Picker.adaptiveHeightWaitMillis
        while true {
            var g = geometry
            g.top = 1
            g.height = most
            g.width = terminal.size().cols
            g.info = info
            g.separator = separator
            g.separatorIsDefault = separatorIsDefault
            let inner = g.inside(surround, inline: true)
            let (candidates, headers, sections, loading) = content()
            // Every row but the list's (the parts' boxes included), and the list's lines.
            var needed = most - listRows(inner, headers) + candidates + sections
            if let preview {
                let surrounding = most - inner.height
                needed = surrounding + Self.withPreview(preview, content: needed - surrounding, rows: inner.height,
                                                        columns: inner.width)
            }
            if needed >= most { return }
            if !loading { fitRows = needed; return }
            if monotonicMillis() >= deadline { return }
            usleep(2000)
        }
    }

    /// The rows `content` rows of the picker take with the preview pane beside them, as
    /// fzf's adaptive height counts them: a pane above or below takes its share on top
    /// (its percentage of the whole, or its rows and border), a pane at a side needs its
    /// border and a row. `rows` and `columns` (the most the region may take) choose the
    /// spec in force.
    static func withPreview(_ window: PreviewWindow, content: Int, rows: Int, columns: Int) -> Int {
        let placement = PreviewPlacement.place(window, rows: rows, columns: columns)
        guard placement.isShown else { return content }
        let spec = placement.window
        let border = spec.borderInsets.top + spec.borderInsets.bottom
        guard spec.position.isVertical else { return max(content, 1 + border) }
        switch spec.size {
        case .percent(let p): return max(content + 1 + border, content * 100 / max(1, 100 - p))
        case .cells(let n): return content + n + border
        }
    }
}
