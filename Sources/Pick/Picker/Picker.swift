#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import PickCore

// The interactive picker: its state, starting and ending, running what the session decides
// (`perform`), and drawing. The loop itself is libedit's read function (EventLoop.swift).

final class Picker {
    /// The running picker, for libedit's C callbacks (which cannot capture context).
    nonisolated(unsafe) static var current: Picker!

    var options: Options
    /// The input (a reload replaces it).
    var store: LineStore
    var styles: AnsiStyles?
    let terminal: Terminal
    let worker: SearchWorker
    let theme: Theme
    var input: InputLoad
    /// `--nth`, `--with-nth`, `--accept-nth`: `store` holds the derived lines (FieldView).
    var fieldView: FieldView? = nil
    /// `-d`, parsed once: the fields of `{1}`, `{2..}` in every command's placeholders.
    let delimiter: FieldDelimiter
    var editor: LineEditor!
    var session: PickSession
    var region: ScreenRegion
    /// The query as last parsed, for highlighting.
    var parsedQuery = Query("")
    var pendingScope: String?

    // Screen.
    /// The F1 help, while it shows.
    var help: HelpOverlay? = nil
    var lastFrame: [UInt8] = []
    /// The frame last painted, and where: what a click lands on.
    var painted: (frame: Frame, geometry: Geometry)? = nil
    /// The last click on a line, for a double-click.
    var lastClick: (line: Int32, at: Int)? = nil
    var spinnerPhase = 0
    /// `--accessible`: the cursor stands on the selected row, away from where libedit left it.
    var cursorOnSelection = false
    var cursorAtEnd = true
    /// The `--prompt` text, safe to draw.
    var prompt: String
    /// hide-header / toggle-header: the header and header lines are not shown.
    var hidesHeader = false
    var gutter: Gutter

    // Keys.
    var decoder = KeyDecoder()
    /// When bytes last came from the terminal (`$FZF_IDLE_TIME` counts from it; from the
    /// start before the first key).
    var lastKeyBytes = monotonicMillis()
    /// `every(N)` bindings: their timers count from the first turn of the event loop.
    lazy var timers = EveryTimers(options.bindings, now: monotonicMillis())
    var passThrough: [wchar_t] = []
    var modeAdjusted = false
    var suspension = Suspension()
    var pendingAction: PendingAction? = nil
    var outcome: Outcome? = nil
    var shortcuts: LineShortcuts
    var tabCycle = TabCycle()
    var isVi = false
    /// A key was handled since the last turn: the screen may show it (the help, a mark).
    var keyPressed = false
    /// Keys handled so far (a reload remembers the key it came with).
    var keysHandled = 0
    var history: QueryHistory
    /// The processes behind `--bind`'s actions (their state is `session.bound`).
    var commands = BoundCommands()
    /// `--info-command`: its run and its last output.
    var infoCommand = InfoCommand()
    /// The preview pane (`--preview`), if any.
    let preview: PreviewController?

    init(options: Options, store: LineStore, styles: AnsiStyles?, terminal: Terminal, theme: Theme, input: InputLoad,
         fieldView: FieldView? = nil) {
        self.options = options
        self.store = store
        self.fieldView = fieldView
        self.styles = styles
        self.terminal = terminal
        self.theme = theme
        self.input = input
        worker = SearchWorker(engine: SearchEngine(store: store, matching: options.matching, ranking: options.ranking,
                                                   skippedLines: options.headerLines))
        session = PickSession(settings: .init(multi: options.multi, multiLimit: options.multiLimit,
                                              cycle: options.cycle, headerLines: options.headerLines,
                                              track: options.track,
                                              typos: options.typos == false ? nil : options.matching,
                                              forgivesTypos: options.palette || options.demo,
                                              sorts: options.ranking.sorts, nth: options.nth, withNth: options.withNth,
                                              keepsRow: options.keepsRow),
                              raw: options.raw, startedAt: monotonicMillis())
        session.look = options.look
        session.look.multiLine = options.read0 && options.multiLine
        region = ScreenRegion(height: options.height, minHeight: options.minHeight, layout: options.layout, mouse: options.mouse)
        prompt = TerminalText.sanitize(options.prompt)
        gutter = Gutter(pointer: options.pointerShown, marker: options.markerShown, gutter: options.gutterShown,
                        gutterRaw: options.gutterRawShown,
                        highlightsLine: options.highlightLine)
        gutter.markerMultiLine = options.markerMultiLineShown
        gutter.gapLine = options.gapLineShown.isEmpty ? nil : StyledText(ansi: options.gapLineShown)
        pendingScope = options.scope
        shortcuts = LineShortcuts(headerLines: options.headerLines)
        history = QueryHistory(path: options.history, limit: options.historySize)
        session.filters = !options.disabled
        session.inputHidden = options.noInput
        session.bound.togglesSort = options.bindings.triggers.contains { options.bindings[$0]?.contains { $0.kind == .toggleSort } ?? false }
        // Commands get the lines as read, not the --nth/--with-nth text `store` holds.
        delimiter = (try? FieldDelimiter(options.delimiter)) ?? .blanks
        preview = PreviewController(options: options, store: fieldView?.original ?? store, delimiter: delimiter)
        // `--min-height=N+`: N rows of the list, and the rows every other part takes.
        if options.minHeightAuto { region.minHeight = options.minHeight + rowsBesideList(headerLines: options.headerLines) }
    }

    /// Rows the prompt, info line, headers, borders and footer take in a tall region.
    func rowsBesideList(headerLines: Int) -> Int {
        var g = Geometry(top: 1, height: 1000, width: 80, layout: options.layout)
        g.info = options.info
        g.separator = options.separatorRule.map { StyledText(ansi: $0, tabStop: options.tabStop) }
        g.separatorIsDefault = options.separator == nil
        g.scrollbar = options.listScrollbar
        // --no-input, hide-input: the list takes the prompt's and the info line's rows.
        if session.inputHidden { g.promptRows = 0 }
        g = g.inside(options.surround, inline: true)
            .withParts(options.parts, headerText: headerText.count, headerLines: headerLines, footer: footerText,
                       gutter: gutter.width, input: !session.inputHidden)
        return 1000 - g.listHeight(headers: headerText.count + headerLines)
    }

    /// Makes a crash restore the terminal. The input reader, started just before, may install
    /// its own bus error handler (mapped input, which survives some) before or after this
    /// one: whichever runs first lets the mapping answer a bus error it can, and hands a
    /// real crash on to the other.
    static func restoreOnCrash(_ terminal: Terminal, options: Options) {
        terminal.restoreOnCrash(leaving: ScreenRegion.crashRestore(for: options.height))
    }

    // MARK: Running

    /// Shows the UI until the person picks or cancels; the terminal is restored on return.
    func run() -> Outcome {
        Picker.current = self
        terminal.catchSignals()
        enterScreen()
        queryWords = options.filepathWord ? .pathParts : .lettersAndDigits
        guard let editor = LineEditor(terminal: terminal, prefix: geometry.promptPrefix, prompt: prompt,
                                      stylePrompt: { [theme] in
                                          // On the input's background (`input-bg`, or the list's).
                                          theme.inPart(.input).libeditPrompt(prefix: $0, $1, delimiter: LineEditor.promptDelimiter,
                                                              searchOff: Picker.current.map { !$0.session.filters } ?? false)
                                      },
                                      read: { _, out in Picker.current.readCharacter(out!) },
                                      action: { _, _ in Picker.current.runAction() },
                                      down: { _, _ in Picker.current.moveOnScreen(down: true) },
                                      up: { _, _ in Picker.current.moveOnScreen(down: false) }) else {
            region.leave(terminal)
            return .failure("cannot start the line editor on /dev/tty")
        }
        self.editor = editor
        placePrompt()
        isVi = editor.isVi
        if !options.query.isEmpty { pendingAction = .replaceQuery(options.query) }
        editor.run()
        if outcome == nil { outcome = .cancel(130) }  // libedit gave up (end of file)
        // A cursor report still on its way would land on the shell's command line (and be
        // echoed there): input stays unechoed until it is read and dropped.
        let awaitingReport = decoder.awaitingCursorReport
        if awaitingReport { terminal.silenceInput() }
        cursorBackToEditor()
        region.leave(terminal, clearing: options.clear)
        if awaitingReport { terminal.swallowCursorReport(within: Tunables.Picker.lateCursorReportMillis) }
        editor.end()
        preview?.end()
        terminal.restoreMode()
        terminal.releaseSignals()
        return outcome!
    }

    /// Tells the session what happened and runs what it decides: the one place its actions run.
    func perform(_ event: SessionEvent) {
        var actions = session.handle(event, at: monotonicMillis())
        while !actions.isEmpty {
            switch actions.removeFirst() {
            case .search(let job):
                worker.submit(job)
            case .searchNow(let job):
                worker.cancel()
                if let answer = worker.run(job) { actions += session.handle(.answered(answer), at: monotonicMillis()) }
                applyPendingScope()
            case .draw:
                // After the screen was given back (choosing the lines to print asks the
                // session once more, and it may want the late results shown): nothing.
                guard region.isShown else { continue }
                // The focus may have moved: its preview starts before the frame is painted.
                previewTurn(redraws: false)
                draw()
                worker.frameDrawn()
                actions += session.handle(.drawn, at: monotonicMillis())
            }
        }
    }

    // MARK: Screen

    /// The picker's rows: the region, inside the margin, border and padding if any.
    var geometry: Geometry {
        let g = areaBesidePreview
        let beside = preview.map {
            g.besidePreview($0.shownWindow, listSides: options.parts.list.style.sides(inline: true),
                            hasCommand: !$0.template.isEmpty)
        } ?? g
        var placed = beside.withParts(options.parts, headerText: headerText.count, headerLines: boxedHeaderLines,
                                      footer: footerText, gutter: gutter.width, input: !session.inputHidden)
        placed.pane?.label = options.previewLabel.label
        placed.pane?.scrollbar = options.previewScrollbar
        placed.pane?.labelPosition = options.previewLabel.labelPosition
        return placed
    }

    var footerText: [String] {
        options.footer.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    /// The rows inside the margin, border and padding, which the preview pane shares.
    var areaBesidePreview: Geometry {
        var g = region.geometry
        g.info = options.info
        g.separator = options.separatorRule.map { StyledText(ansi: $0, tabStop: options.tabStop) }
        g.separatorIsDefault = options.separator == nil
        g.scrollbar = options.listScrollbar
        if session.inputHidden { g.promptRows = 0 }
        return g.inside(options.surround, inline: options.height != .full)
    }

    /// Columns the prompt takes before the query: libedit's prefix (the left margin, border
    /// and padding) and the `--prompt` text.
    var promptWidth: Int { TerminalText.width(geometry.promptPrefix + prompt) }

    // MARK: Drawing

    var headerCount: Int {
        headerText.count + shownHeaderLines
    }

    /// The header lines shown (none while the header is hidden).
    var shownHeaderLines: Int { hidesHeader ? 0 : min(options.headerLines, store.count) }

    /// The header lines the parts' boxes are laid out for: all of them from the start, so
    /// that the boxes (and the prompt's row) stay put while the input streams in.
    var boxedHeaderLines: Int { hidesHeader ? 0 : options.headerLines }

    var headerText: [String] {
        guard let header = options.header, !hidesHeader else { return [] }
        return header.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func draw() {
        guard region.isShown else { return }
        cursorBackToEditor()
        let query = session.queryText ?? ""
        let queryWidth = TerminalText.width(query)
        var geometry = self.geometry
        // A query longer than a row wraps: libedit takes more rows (its rows end where the
        // picker's do). The prompt's rows, old and new, are cleared and libedit draws the
        // query again where it now fits: at the bottom the prompt moves up, on top it
        // takes rows that held the info line or the list.
        let promptRows = min(max(1, geometry.height - 2), (promptWidth + queryWidth) / max(1, geometry.inputRight) + 1)
        if geometry.showsInput && promptRows != geometry.promptRows {
            let old = geometry.promptRow..<(geometry.promptRow + geometry.promptRows)
            region.geometry.promptRows = promptRows
            geometry = self.geometry
            let new = geometry.promptRow..<(geometry.promptRow + promptRows)
            var clear = ""
            for row in min(old.lowerBound, new.lowerBound)..<max(old.upperBound, new.upperBound) {
                clear += "\u{1B}[\(row);1H\u{1B}[2K"
            }
            terminal.write(clear + "\u{1B}[\(geometry.promptRow);1H")
            editor.refresh()
            lastFrame = []
        } else if let last = painted?.geometry, last.parts?.layout != geometry.parts?.layout {
            // The parts' boxes moved (a header or footer came or went): what the old boxes
            // drew outside the new ones is cleared, and libedit draws the prompt again.
            let region = self.region.geometry
            var clear = ""
            for row in region.top..<(region.top + region.height) { clear += "\u{1B}[\(row);1H\u{1B}[2K" }
            terminal.write(clear + "\u{1B}[\(geometry.promptRow);1H")
            editor.refresh()
            lastFrame = []
        }
        var frame = FrameBuilder.build(frameInput(geometry), store: store)
        frame.info.inWords = options.accessible
        frame.info.failedCommand = self.input.failedCommand
        frame.info.commandOutput = infoCommandOutput(for: frame.info)
        if session.bound.togglesSort { frame.info.sorts = session.bound.sorts ?? options.ranking.sorts }
        frame.info.waits = session.bound.waitsForSearch
        session.scroll = frame.scroll
        var ghost: Ghost? = nil
        if geometry.promptRows == 1 {
            // --ghost's text shows as fzf's does; pick's own ghost (what Tab adds) not as `fzf`.
            let optionGhost = query.isEmpty && !options.ghost.isEmpty
            ghost = Ghost(column: promptWidth + queryWidth + 1,
                          text: cursorAtEnd && (options.completionGhost || optionGhost) ? ghostText() : "",
                          isHint: query.isEmpty && options.ghost.isEmpty)
        }
        let pane = geometry.pane.flatMap { rect in preview?.frame(in: rect, at: monotonicMillis()) }
        let bytes = Painter.paint(frame, geometry: geometry, theme: theme, spinnerPhase: spinnerPhase,
                                  overlay: help?.shown, ghost: ghost, gutter: gutter.inRawMode(session.raw),
                                  preview: pane)
        painted = help == nil ? (frame, geometry) : nil
        if bytes != lastFrame {
            terminal.write(bytes)
            lastFrame = bytes
        }
        if options.accessible { placeCursorOnSelection(frame, geometry: geometry) }
    }

    /// What the next frame is built from, for the list laid out in `geometry`.
    func frameInput(_ geometry: Geometry) -> FrameInput {
        var input = FrameInput(session: session, options: options, width: geometry.listTextWidth,
                               listHeight: geometry.listHeight(headers: headerCount), query: parsedQuery,
                               scopes: Scopes.names(in: store), headerText: headerText, styles: styles,
                               gutterWidth: gutter.width)
        input.fieldView = fieldView
        input.delimiter = delimiter
        if session.bound.jumping != nil { input.jumpLabels = Array(options.jumpLabels) }
        if hidesHeader { input.headerLines = 0 }
        return input
    }

    // MARK: Result

    /// The lines to print for an accept: the marked ones, or the highlighted one (nil: none).
    func chosenLines() -> [Int32]? {
        if case .pickLine(let line) = outcome { return [line] }
        perform(.inputRead(lines: store.count, loading: input.isLoading))
        while true {
            switch session.accept() {
            case .lines(let lines): return lines
            case .nothing: return nil
            case .searchFirst(let job):
                guard let answer = worker.run(job) else { return nil }
                perform(.answered(answer))
            }
        }
    }

    var query: String { session.queryText ?? "" }
}
