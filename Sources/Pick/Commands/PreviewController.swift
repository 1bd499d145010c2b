#if canImport(Glibc)
import Glibc
#endif
import PickCore

// The preview pane in the picker: the glue between the pane's policy (`PreviewPane`, in
// PickCore), its command (`PreviewRunner`) and the frame (`PreviewFrameBuilder`). The
// picker tells it, once a turn, what is focused; it starts and stops the command, and
// says what the pane shows.

final class PreviewController {
    /// The command (`change-preview` replaces it).
    var template: CommandTemplate
    let options: Options
    /// The picker's input (a reload replaces it).
    var store: LineStore
    var window: PreviewWindow
    var pane = PreviewPane()
    let runner = PreviewRunner()
    /// The pane's box as last drawn (for its size, the scroll keys and the mouse).
    var rect: PaneRect? = nil

    /// `--preview builtin`: pick's own path previewer, this very executable (passed in the
    /// environment, so that no byte of its path is ever read as a placeholder).
    static let builtin = "builtin"
    private var extraEnvironment: [(String, String)] = []

    /// preview(…): the command shown for what is focused now, until the focus moves on.
    var once: (template: CommandTemplate, line: Int32?)? = nil
    /// The command that runs now: preview(…)'s, or the pane's own.
    var running: CommandTemplate { once?.template ?? template }
    /// change-preview() left no command: the pane closes until one comes (fzf's).
    var commandCleared = false

    /// The window as the picker places it: closed while there is no command.
    var shownWindow: PreviewWindow {
        var shown = window
        if commandCleared { shown.hidden = true }
        return shown
    }

    /// Nil without `--preview`, unless a binding runs preview(…) or change-preview(…): the
    /// pane then stays closed until one gives it a command.
    init?(options: Options, store: LineStore, delimiter: FieldDelimiter) {
        let bindsPreview = options.bindings.triggers.contains {
            options.bindings[$0]?.contains { $0.kind == .preview || $0.kind == .changePreview } ?? false
        }
        guard let command = options.preview.flatMap({ $0.isEmpty ? nil : $0 }) ?? (bindsPreview ? "" : nil) else { return nil }
        if command == Self.builtin {
            template = CommandTemplate("exec \"$PICK_SELF\" \(Options.previewBuiltinMode) {}")
            extraEnvironment = [("PICK_SELF", executablePath())]
        } else {
            template = CommandTemplate(command)
        }
        self.options = options
        self.store = store
        self.delimiter = delimiter
        window = options.previewWindow
        // Only preview(…) or change-preview(…) fills it: closed until then, as fzf's.
        commandCleared = command.isEmpty
    }

    /// ctrl-/: shows or hides the pane, in a region of `rows` by `columns`.
    func toggle(rows: Int, columns: Int) {
        window = PreviewPlacement.toggled(window, rows: rows, columns: columns)
    }

    /// What the pane is of, now (nil: nothing focused, or the pane hidden).
    func subject(session: PickSession) -> PreviewSubject? {
        // A pane of size 0 runs its command unseen (`--preview-window 0`).
        guard rect.map({ $0.text.height > 0 }) ?? shownWindow.runsUnseen else { return nil }
        let template = running
        // Not before the first list: a command with no placeholder would run twice, before
        // it and again on its first line (fzf's runs once, on it).
        guard !template.isEmpty, session.listedOnce else { return nil }
        let marked = template.usesMarked ? session.marks : []
        // Nothing focused: as fzf, a command that needs no line still runs.
        if session.highlighted == nil,
           template.hasPlaceholders && !template.usesQuery && marked.isEmpty { return nil }
        return PreviewSubject(line: session.highlighted, query: template.usesQuery ? session.queryText ?? "" : nil,
                              marked: marked)
    }

    /// Starts and stops the command for what is focused. Returns whether the pane changed.
    @discardableResult
    func turn(session: PickSession, at now: Int, environment: () -> [(String, String)] = { [] }) -> Bool {
        // preview(…)'s command stays for the line it was run on; then the pane's own again.
        if let shown = once, shown.line != session.highlighted { once = nil }
        // No command of its own: what preview(…) showed stays (fzf's).
        if running.isEmpty { return false }
        let subject = self.subject(session: session)
        let template = running
        var changed = false
        for action in pane.focus(subject, at: now) {
            switch action {
            case .stop:
                if subject == nil { runner.clear() } else { runner.stop() }
                changed = true
            case .start(let subject, let generation):
                let window = rect?.window ?? shownWindow
                // The last run's files go as the next starts.
                files.remove()
                var context = context(for: subject)
                if template.usesMatches, let shown = session.shown {
                    let lines = shown.lines.dropLast(shown.closeMatches)
                    context.matched = lines.map { Array(store.bytes(of: Int($0))) }
                    context.matchedIndices = lines.map { Int($0) }
                }
                let command = template.expand(context, writeFile: files.write)
                // As fzf: a pane unseen has no size to tell.
                let size = rect.map { [("PICK_PREVIEW_LINES", String($0.text.height)), ("PICK_PREVIEW_COLUMNS", String($0.text.width)),
                                       ("FZF_PREVIEW_LINES", String($0.text.height)), ("FZF_PREVIEW_COLUMNS", String($0.text.width))] } ?? []
                runner.start(command, environment: size + extraEnvironment + environment(), generation: generation,
                             follows: window.follow, unseen: rect == nil, at: now)
                if let area = rect?.text, !window.scroll.isEmpty, let line = subject.line {
                    let bytes = store.bytes(of: Int(line))
                    let offset = PreviewScroll.offset(window.scroll, field: { n in
                        (try? FieldRanges(parsing: String(n))).map { Fields.select($0, of: Array(bytes), self.delimiter) } ?? []
                    }, index: Int(line), height: area.height - window.headerLines)
                    // As fzf: the offset counts the header lines too.
                    pane.startScroll(at: offset - window.headerLines)
                }
                changed = true
            }
        }
        return changed
    }

    private let delimiter: FieldDelimiter
    /// The temporary files of the running command's `f` placeholders.
    private let files = TemporaryFiles()

    private func context(for subject: PreviewSubject) -> TemplateContext {
        TemplateContext(lines: store, current: subject.line, marked: subject.marked,
                        query: subject.query ?? "", delimiter: delimiter,
                        separator: options.print0 ? 0 : 0x0A, quoting: ChildProcess.quoting)
    }

    /// How long the loop may sleep before the pane has something to do.
    func wait(at now: Int) -> Int? {
        [pane.wait(at: now), runner.waitsForText(at: now)].compactMap { $0 }.min()
    }

    /// The pane's frame, for a pane at `rect`.
    func frame(in rect: PaneRect, at now: Int) -> PreviewFrame {
        let area = rect.text
        let loading = runner.isLoading(at: now)
        return runner.withText(at: now) { text in
            let last = wrappedLast(text, in: rect)
            let first = pane.firstLine(lines: text.count, headerLines: rect.window.headerLines, height: area.height,
                                       follow: rect.window.follow, wrappedLast: last)
            return PreviewFrameBuilder.build(count: text.count, line: text.line, style: text.style, first: first, window: rect.window,
                                             width: area.width, height: area.height, cut: text.isFull,
                                             loading: loading, wrapSign: options.previewWrapSignShown,
                                             showsEnd: last != nil && rect.window.follow && !pane.leftTheEnd)
        }
    }

    /// The view stays at the line it shows now (a new window, or `nofollow`, keeps it there).
    func holdView(at now: Int) {
        guard let rect else { return }
        let area = rect.text
        runner.withText(at: now) { text in
            pane.hold(at: pane.firstLine(lines: text.count, headerLines: rect.window.headerLines, height: area.height,
                                         follow: rect.window.follow, wrappedLast: wrappedLast(text, in: rect)))
        }
    }

    /// With `wrap`, the last line to scroll to: the rest of the output fills the pane from
    /// there, counted in rows (nil: counted in lines).
    private func wrappedLast(_ text: PreviewText, in rect: PaneRect) -> Int? {
        guard rect.window.wrap else { return nil }
        return PreviewFrameBuilder.lastFirstLine(count: text.count, line: text.line, style: text.style, window: rect.window,
                                                 width: rect.text.width, height: rect.text.height,
                                                 wrapSign: options.previewWrapSignShown)
    }

    /// Scrolls the pane by `delta` lines, or by pages (`pages`: a pane's height less one).
    func scroll(by delta: Int, pages: Bool = false, at now: Int) {
        guard let rect else { return }
        let area = rect.text
        let step = pages ? delta * max(1, area.height - rect.window.headerLines - 1) : delta
        // While the command still writes, a key pressed before the rest of its text came
        // scrolls as far as asked: the frame shows as much of it as has come. So does one
        // pressed while the pane has no text at all (between a stop and the next start).
        let writing = runner.isStreaming
        runner.withText(at: now) { text in
            let streaming = writing || text.count == 0
            let last = streaming ? nil : wrappedLast(text, in: rect)
            let first = pane.firstLine(lines: text.count, headerLines: rect.window.headerLines, height: area.height,
                                       follow: rect.window.follow, wrappedLast: last)
            let following = rect.window.follow && !pane.leftTheEnd
            if first != pane.scroll, !streaming || following { pane.scroll(by: first - pane.scroll, lines: text.count,
                                                  headerLines: rect.window.headerLines, height: area.height, cycle: false,
                                                  wrappedLast: last) }
            let lines = streaming ? max(text.count, pane.scroll + max(0, step) + area.height + rect.window.headerLines)
                                  : text.count
            pane.scroll(by: step, lines: lines, headerLines: rect.window.headerLines, height: area.height,
                        cycle: rect.window.cycle && !streaming, wrappedLast: last)
            // Following: away from the end of what has come it stops, back at it it resumes.
            if rect.window.follow && text.count > 0 {
                pane.noteEnd(lines: text.count, headerLines: rect.window.headerLines, height: area.height,
                             wrappedLast: last)
            }
        }
    }

    /// Stops the command for good (pick is leaving).
    func end() {
        runner.end()
    }
}

extension Picker {
    /// Once a turn, and before each frame: the pane's command follows the focus (and the
    /// pane's size). `redraws`: a change asks for a frame.
    func previewTurn(redraws: Bool = true) {
        guard let preview else { return }
        let rect = geometry.pane
        if let rect, let old = preview.rect, rect.text.height != old.text.height || rect.text.width != old.text.width {
            preview.pane.restart()
        }
        preview.rect = rect
        let now = monotonicMillis()
        if preview.turn(session: session, at: now, environment: sessionEnvironment) && redraws { perform(.redraw) }
        // A silent command: after a while the last line's text is marked as loading.
        if redraws && preview.runner.takeFirstText(at: now) { perform(.redraw) }
    }

    /// The command wrote: its first text is drawn at once (the focus just moved: it is part
    /// of answering the key), what streams in after at the session's frame rate.
    func previewWritten() {
        if preview?.runner.takeFirstText(at: monotonicMillis()) == true { draw() }
        perform(.redraw)
    }

    /// ctrl-/: shows or hides the pane; the list and the prompt take the room.
    func togglePreview() {
        guard let preview else { return }
        let area = areaBesidePreview
        preview.toggle(rows: area.height, columns: area.width)
        // Shown again, the pane's command starts as the key's answer, before keys read
        // after it move the focus on (a pane of size 0 runs it for each line, fzf's).
        previewTurn(redraws: false)
        placePrompt()
        editor.refresh()
        lastFrame = []
        perform(.listHeight(geometry.listHeight(headers: headerCount)))
        perform(.redraw)
    }
}
