import PickCore

/// The frame of a search over hostile lines, built (PickCore's FrameBuilder) and painted
/// (the executable's Painter, compiled into the fuzzer from Sources/Pick): no text that
/// came from input carries a control character (C0, DEL, C1 in UTF-8 form, ESC); the
/// painted bytes hold no escape sequence but the painter's own (cursor moves, erase line,
/// SGR with numeric parameters, save/restore, cursor visibility, erase characters); rows fit
/// the width and the list height; the selected line is on screen.
///
/// Input: the search target's layout, whose two flag bytes also choose the frame's
/// width, height, selection, scroll, theme, layout, `--ansi`, the info style, the gutter
/// and what surrounds the rows (border style, margin, padding, and a label taken from the
/// input's bytes).
enum FrameTarget {
    static func run(_ input: [UInt8]) {
        let s = SearchTarget.setup(input)
        var dice = Dice(UInt8(truncatingIfNeeded: input.count))
        // With --ansi, the store holds the lines' visible text and their colours are aside.
        let styles: AnsiStyles? = dice.below(2) == 0 ? AnsiStyles() : nil
        var lines = s.linesBytes
        if let styles {
            var filter = AnsiFilter(separator: 0x0A, styles: styles)
            lines = lines.withUnsafeBytes { filter.feed($0) } + filter.finish()
        }
        let store = feedStore(lines, separator: 0x0A, parsesFields: s.parsesFields, dice: &dice)
        let engine = SearchEngine(store: store, matching: s.matching, ranking: s.ranking, skippedLines: s.skipped)
        guard let full = engine.search(s.queryText) else { return }
        let scopes = Scopes.names(in: store)
        let scope = dice.below(scopes.count + 1)
        let result = Scopes.filter(full, to: scope)
        let width = dice.below(3) == 0 ? 1 + dice.below(12) : 1 + dice.below(160)
        let height = 1 + dice.below(dice.below(2) == 0 ? 6 : 40)
        let headerText: [String] = dice.below(3) == 0 && !s.linesBytes.isEmpty
            ? [String(decoding: s.linesBytes.prefix(1 + dice.below(80)), as: UTF8.self)] : []
        let layout: Layout = [.top, .bottom, .reverseList][dice.below(3)]
        var region = Geometry(top: 1 + dice.below(3), height: height, width: width, layout: layout)
        region.info = [InfoStyle.default, .right, .hidden, .inline(prefix: " < "), .inlineRight(prefix: "")][dice.below(5)]
        region.separator = [nil, "─", "-=", "日", "\u{1B}[33ma\tb\u{1B}[2J"][dice.below(5)].map { StyledText(ansi: $0) }
        var surround = Surround()
        if dice.below(2) == 0 {
            surround.border = BorderStyle.allCases[dice.below(BorderStyle.allCases.count)]
            surround.margin = Spacing.parse(["0", "1", "1,2", "10%", "1,2,3,4"][dice.below(5)])!
            surround.padding = Spacing.parse(["0", "1", "2,1", "49%"][dice.below(4)])!
            surround.label = String(decoding: s.linesBytes.prefix(dice.below(40)), as: UTF8.self)
            surround.labelPosition = LabelPosition(column: dice.below(81) - 40, bottom: dice.below(2) == 0)
        }
        var geometry = region.inside(surround, inline: dice.below(2) == 0)
        // A preview pane beside the rows, its output the input's hostile bytes.
        var preview: PreviewFrame? = nil
        if dice.below(2) == 0 {
            let specs = ["right", "left,30%,border-sharp,wrap", "up,3,noborder,~1", "down,50%,border-line,+{2}/2",
                         "right,50%,<200(down,40%,border-top)", "left,1,border-bottom,wrap"]
            let window = try! PreviewWindow().applying(specs[dice.below(specs.count)])
            geometry = geometry.besidePreview(window)
            if let pane = geometry.pane {
                let output = s.linesBytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
                let text = pane.text
                let frame = PreviewFrameBuilder.build(count: output.count, line: { output[$0] },
                                                      first: dice.below(output.count + 2), window: pane.window,
                                                      width: text.width, height: text.height)
                check(frame.rows.count <= max(0, text.height), "\(frame.rows.count) pane rows for \(text.height)")
                for row in frame.rows {
                    for span in row { checkSafe(span.text, "preview output") }
                    check(row.reduce(0) { $0 + TerminalText.width($1.text) } <= max(1, text.width), "a pane row too wide")
                }
                preview = frame
            }
        }
        let gutter = [Gutter(), Gutter(pointer: "", marker: ""), Gutter(pointer: "世", marker: "✓ ")][dice.below(3)]
        let headerCount = headerText.count + min(s.skipped, store.count)
        let multi = dice.below(2) == 0
        var marked = Set<Int32>()
        for line in result.lines where dice.below(4) == 0 { marked.insert(line) }
        var frameInput = FrameInput(
            width: geometry.width, listHeight: geometry.listHeight(headers: headerCount), result: result,
            query: engine.parse(s.queryText), queryText: s.queryText,
            selection: dice.below(result.lines.count + 3) - 1, scroll: dice.below(result.lines.count + 3) - 1,
            marked: marked, multi: multi, styles: styles, total: max(0, store.count - s.skipped),
            isLoading: dice.below(4) == 0, isSearching: dice.below(4) == 0, scopes: scopes,
            scope: scope, headerText: headerText, headerLines: s.skipped)
        frameInput.gutterWidth = gutter.width
        frameInput.ellipsis = ["…", "", "··", "世."][dice.below(4)]
        frameInput.markLimit = dice.below(3)
        frameInput.tracks = dice.below(2) == 0
        let frame = FrameBuilder.build(frameInput, store: store)
        checkFrame(frame, frameInput)

        let themes = [Theme(), Theme.noColor, Theme.plain]
        let theme = themes[dice.below(themes.count)]
        var ghost: Ghost? = nil
        if let best = Suggestions.suggest(s.queryText, in: store, limit: 1).first {
            ghost = Ghost(column: 1 + dice.below(width + 2),
                          text: TerminalText.sanitize(String(decoding: best, as: UTF8.self)))
        }
        let painted = Painter.paint(frame, geometry: geometry, theme: theme, spinnerPhase: dice.below(20),
                                    overlay: nil, ghost: ghost, gutter: gutter, preview: preview)
        checkPainted(painted)
    }

    /// Whether a scalar may be written to the terminal as text.
    static func isSafe(_ s: Unicode.Scalar) -> Bool {
        !(s.value < 0x20 || s.value == 0x7F || (0x80...0x9F).contains(s.value))
    }

    static func checkSafe(_ text: String, _ what: String) {
        check(text.unicodeScalars.allSatisfy(isSafe), "\(what) reaches the terminal raw: \(text.debugDescription)")
    }

    static func checkFrame(_ frame: Frame, _ input: FrameInput) {
        let width = max(input.width, 4)
        for header in frame.headers {
            for span in header { checkSafe(span.text, "a header") }
        }
        for line in frame.message { checkSafe(line, "the message") }
        for scope in frame.info.scopes { checkSafe(scope, "a scope name") }
        check(frame.rows.count <= max(input.listHeight, 0), "\(frame.rows.count) rows for a list of \(input.listHeight)")
        var selectedShown = false
        for row in frame.rows {
            switch row {
            case .gap:
                break
            case .section(let name):
                checkSafe(name, "a section header")
                check(TerminalText.width(name) <= width, "a section header wider than the screen")
            case .line(let line):
                var columns = 0
                for span in line.spans {
                    checkSafe(span.text, "a title")
                    check(span.style.utf8.allSatisfy { (0x30...0x3B).contains($0) },
                          "an --ansi style with more than SGR parameters: \(span.style.debugDescription)")
                    columns += TerminalText.width(span.text)
                }
                check(columns == line.titleColumns, "title takes \(columns) columns, the row says \(line.titleColumns)")
                var used = input.gutterWidth + line.titleColumns
                if let chip = line.chip {
                    checkSafe(chip, "a shortcut chip")
                    used += TerminalText.width(chip) + 3
                }
                check(used <= width, "a row of \(used) columns on a screen of \(width)")
                if line.isSelected { selectedShown = true }
            }
        }
        if let lines = input.result?.lines, !lines.isEmpty, input.listHeight > 0 {
            check(selectedShown, "the selected line is not on screen")
        }
    }

    /// The painter's bytes: valid UTF-8, no control character but the painter's own
    /// escape sequences.
    static func checkPainted(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            check(false, "painted bytes are not UTF-8")
            return
        }
        let scalars = Array(text.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s.value == 0x1B {
                check(i + 1 < scalars.count, "a lone ESC at the end")
                let next = scalars[i + 1]
                if next == "7" || next == "8" { i += 2; continue }
                check(next == "[", "ESC \(next.debugDescription) is not the painter's")
                var k = i + 2
                while k < scalars.count, ("0"..."9").contains(scalars[k]) || scalars[k] == ";"
                        || scalars[k] == ":" || scalars[k] == "?" { k += 1 }
                check(k < scalars.count && "lhHKmX".unicodeScalars.contains(scalars[k]),
                      "a control sequence the painter does not write: \(String(String.UnicodeScalarView(scalars[i..<min(k + 1, scalars.count)])).debugDescription)")
                i = k + 1
                continue
            }
            check(isSafe(s), "U+\(String(s.value, radix: 16)) reaches the terminal")
            i += 1
        }
    }
}
