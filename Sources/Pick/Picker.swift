#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import PickCore
import Synchronization

// The interactive picker: state, keys and the event loop. The loop lives in libedit's
// read function (`readCharacter`): before every key it takes in what the workers report
// (input read, searches done, signals), redraws when something changed (at most every
// 16 ms), and waits on the tty and the self-pipe together.

/// How the picker ended.
enum Outcome {
    /// Return (or an `--expect` key, named) on the selected line, or the marked lines.
    case accept(key: String?)
    /// A line's own shortcut picked it.
    case pickLine(Int32)
    /// Escape, ctrl-c, ctrl-g or a signal: exit with this status.
    case cancel(Int32)
    /// Input could not be read.
    case failure(String)
}

/// What `pick-action` does inside libedit when it runs next.
enum PendingAction {
    case finish
    case replaceQuery(String)
    /// Inserts text at the cursor (a paste).
    case insert(String)
}

final class Picker {
    /// The running picker, for libedit's C callbacks (which cannot capture context).
    nonisolated(unsafe) static var current: Picker!

    let options: Options
    let store: LineStore
    let terminal: Terminal
    let engine: SearchEngine
    let worker: SearchWorker
    let theme: Theme
    var editor: LineEditor!
    let input: InputLoad

    // Search state.
    var generation = 0
    var queryText: String? = nil
    var parsedQuery = Query("")
    var result: SearchResult? = nil
    var resultGeneration = -1
    var scoped: SearchResult? = nil
    var suggestions: [[UInt8]] = []
    var suggestionGeneration = -1
    var searching = false
    var searchStarted = 0
    var lastSearchedCount = -1
    /// Whether a frame with every input line searched has been drawn.
    var drewLoaded = false
    /// When the picker started: the list waits for the input until one frame's time after.
    var startedAt = 0
    /// A search asked for while the list waited for the input.
    var searchDeferred = false

    // View state.
    var selection = 0
    var moved = false
    var scroll = 0
    var marked: [Int32] = []
    var markedSet = Set<Int32>()
    var scope = 0
    var pendingScope: String?
    var showingHelp = false
    var helpScroll = 0
    var geometry: Geometry
    var dirty = true
    var lastDraw = 0
    /// The generations whose result and suggestions the last frame drawn showed.
    var drawnAnswer = (result: -1, suggestions: -1)
    /// Whether a frame has been drawn since all input was in (`Memory.inputShown`).
    var shownWholeInput = false
    var lastFrame: [UInt8] = []
    var spinnerPhase = 0
    var cursorAtEnd = true
    var promptWidth: Int
    /// With `--height`: the column the cursor stood on when pick started (1-based), and
    /// whether pick started on the next row because that column was not the first; exit
    /// puts the cursor back there. nil when the terminal did not say.
    var startColumn: Int? = nil
    var startedBelow = false

    // Keys.
    var decoder = KeyDecoder()
    /// When bytes last came from the terminal.
    var lastKeyBytes = 0
    var passThrough: [wchar_t] = []
    var modeAdjusted = false
    /// The terminal mode while the picker runs (libedit's raw mode, adjusted).
    var editorMode: termios? = nil
    /// After a suspend, the shell may still set the terminal's modes as `fg` resumes the
    /// job: until then pick checks its raw mode on every turn and puts it back.
    var resumedMode: termios? = nil
    var resumedUntil = 0
    /// A SIGTSTP that came before the editor set its mode: pick stops once it has.
    var suspendPending = false
    var pendingAction: PendingAction? = nil
    var outcome: Outcome? = nil
    var shortcuts: [String: Int32] = [:]
    var shortcutOrder: [(String, Int32)] = []
    var shortcutsScanned = 0
    var completion: (list: [String], index: Int)? = nil
    var isVi = false

    // History.
    var history: [String] = []
    var historyIndex: Int? = nil
    var historyStash = ""

    init(options: Options, store: LineStore, terminal: Terminal, theme: Theme, input: InputLoad) {
        self.options = options
        self.store = store
        self.terminal = terminal
        self.theme = theme
        self.input = input
        engine = SearchEngine(store: store, matching: options.matching, ranking: options.ranking,
                              skippedLines: options.headerLines)
        worker = SearchWorker(engine: engine, suggestionLimit: 6)
        promptWidth = TerminalText.width(TerminalText.sanitize(options.prompt))
        pendingScope = options.scope
        geometry = Geometry(top: 1, height: 24, width: 80, layout: options.layout)
        if let path = options.history { history = Self.loadHistory(path) }
    }

    /// Makes a crash restore the terminal. The input reader, started just before, may install
    /// its own bus error handler (mapped input, which survives some) before or after this
    /// one: whichever runs first lets the mapping answer a bus error it can, and hands a
    /// real crash on to the other.
    static func restoreOnCrash(_ terminal: Terminal, options: Options) {
        if case .full = options.height {
            terminal.restoreOnCrash(leaving: modesOff + "\u{1B}[?1049l")
        } else {
            terminal.restoreOnCrash(leaving: modesOff + "\r\n")
        }
    }

    // MARK: Running

    /// Shows the UI until the person picks or cancels; the terminal is restored on return.
    func run() -> Outcome {
        Picker.current = self
        startedAt = monotonicMillis()
        terminal.catchSignals()
        enterScreen()
        guard let editor = LineEditor(terminal: terminal, prompt: TerminalText.sanitize(options.prompt),
                                      read: { _, out in Picker.current.readCharacter(out!) },
                                      action: { _, _ in Picker.current.runAction() }) else {
            leaveScreen()
            return .failure("cannot start the line editor on /dev/tty")
        }
        self.editor = editor
        isVi = editor.isVi
        if !options.query.isEmpty { pendingAction = .replaceQuery(options.query) }
        editor.run()
        if outcome == nil { outcome = .cancel(130) }  // libedit gave up (end of file)
        // A cursor report still on its way would land on the shell's command line (and be
        // echoed there): input stays unechoed until it is read and dropped.
        let awaitingReport = decoder.awaitingCursorReport
        if awaitingReport { terminal.silenceInput() }
        leaveScreen()
        if awaitingReport { terminal.swallowCursorReport(within: 100) }
        editor.end()
        terminal.restoreMode()
        terminal.releaseSignals()
        return outcome!
    }

    var isLoading: Bool { input.isLoading }

    // MARK: Screen

    /// Terminal modes pick turns on while it runs (bracketed paste: a pasted newline must
    /// not pick), and the sequence that turns them off again on every way out.
    static let modesOn = "\u{1B}[?2004h"
    static let modesOff = "\u{1B}[?2004l\u{1B}[?25h"

    func enterScreen() {
        let size = terminal.size()
        switch options.height {
        case .full:
            terminal.write("\u{1B}[?1049h" + Self.modesOn + "\u{1B}[H\u{1B}[2J")
            geometry = Geometry(top: 1, height: size.rows, width: size.cols, layout: options.layout)
        case .rows, .percent:
            let height = regionHeight(rows: size.rows)
            var row = size.rows
            // Keys typed before the terminal answers are kept for the editor.
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
                terminal.write("\r\n" + String(repeating: "\n", count: max(0, size.rows - height)))
            }
            terminal.write(Self.modesOn)
            terminal.write(String(repeating: "\n", count: height - 1))
            if height > 1 { terminal.write("\u{1B}[\(height - 1)A") }
            geometry = Geometry(top: min(row, size.rows - height + 1), height: height, width: size.cols,
                                layout: options.layout)
        }
        terminal.write("\u{1B}[\(geometry.promptRow);1H")
        lastFrame = []
        dirty = true
    }

    func regionHeight(rows: Int) -> Int {
        switch options.height {
        case .full: return rows
        case .rows(let n): return min(rows, max(3, min(n, rows)))
        case .percent(let p): return min(rows, max(3, min(rows, rows * p / 100)))
        }
    }

    func leaveScreen() {
        switch options.height {
        case .full:
            terminal.write(Self.modesOff + "\u{1B}[?1049l")
        default:
            terminal.write(Self.modesOff + "\u{1B}[\(geometry.top);1H\u{1B}[J")
            // Back where the cursor was: the end of a shell's command line stays put, so a
            // widget's redraw of its prompt lands on the same row.
            if let column = startColumn {
                let row = startedBelow ? max(1, geometry.top - 1) : geometry.top
                terminal.write("\u{1B}[\(row);\(column)H")
            }
        }
    }

    func resized() {
        let size = terminal.size()
        editor.resized()
        switch options.height {
        case .full:
            geometry = Geometry(top: 1, height: size.rows, width: size.cols, layout: options.layout)
            terminal.write("\u{1B}[H\u{1B}[2J")
        default:
            // The terminal may have moved the text when it resized: ask where the cursor
            // (on the prompt) is now, and clear from the region's new top down.
            let height = regionHeight(rows: size.rows)
            var top = geometry.top
            var typeahead: [UInt8] = []
            let position = terminal.cursorPosition(inRawMode: true, typeahead: &typeahead)
            decoder.buffer.append(contentsOf: typeahead)
            if position == nil { decoder.awaitingCursorReport = true }
            if let position {
                let line = editor.line
                let wrapped = (promptWidth + TerminalText.width(String(line.text.prefix(line.cursor)))) / max(1, size.cols)
                top = options.layout == .top ? position.row - wrapped : position.row - geometry.height + 1
            }
            top = max(1, min(top, size.rows - height + 1))
            terminal.write("\u{1B}[\(top);1H\u{1B}[J")
            geometry = Geometry(top: top, height: height, width: size.cols, layout: options.layout)
        }
        terminal.write("\u{1B}[\(geometry.promptRow);1H")
        editor.refresh()
        lastFrame = []
        dirty = true
        draw()
    }

    /// ctrl-z: leaves the screen, stops, and comes back on SIGCONT. A ctrl-z that arrived
    /// as a key (libedit turned the terminal's own off) stops the whole job, as the
    /// terminal would have, so the shell sees the job stop.
    func suspend(viaKey: Bool = false) {
        // libedit's raw mode as pick last set it: by now the shell may have put its own back.
        guard var raw = editorMode else { suspendPending = true; return }
        continuedFlag = 0
        leaveScreen()
        // The shell may have seen the job stop and taken the terminal already: restoring
        // the modes must not stop pick (SIGTTOU) before it stops itself.
        signal(SIGTTOU, SIG_IGN)
        terminal.restoreMode()
        signal(SIGTTOU, SIG_DFL)
        signal(SIGTSTP, SIG_DFL)
        if continuedFlag == 0 {
            if viaKey { kill(0, SIGTSTP) } else { raise(SIGTSTP) }
        }
        // Continued.
        terminal.catchSignals()
        _ = tcsetattr(terminal.fd, TCSANOW, &raw)
        resumedMode = raw
        resumedUntil = monotonicMillis() + 1000
        enterScreen()
        editor.resized()
        editor.refresh()
        draw()
    }

    // MARK: The read function

    /// libedit's read function: the event loop. Returns 1 with a character for libedit.
    func readCharacter(_ out: UnsafeMutablePointer<wchar_t>) -> Int32 {
        if !modeAdjusted {
            // Start-up is done: a large mapped file may now load on this core too.
            MappedInput.helpLoading()
            terminal.separateReturnFromCtrlJ()
            var mode = termios()
            if tcgetattr(terminal.fd, &mode) == 0 { editorMode = mode }
            modeAdjusted = true
            if suspendPending {
                suspendPending = false
                suspend()
            }
        }
        if !passThrough.isEmpty {
            out.pointee = passThrough.removeFirst()
            return 1
        }
        while true {
            if pendingAction != nil || outcome != nil {
                if pendingAction == nil { pendingAction = .finish }
                out.pointee = PrivateKey.action
                return 1
            }
            syncQuery()
            takeWakes()
            if outcome != nil { continue }
            refreshSearch()
            let now = monotonicMillis()
            let holding = holdsFirstList
            let waitingForSearch = searching && now - searchStarted < 60 && resultGeneration != generation
            // The frame that shows all the input goes out at once, not at the next tick.
            let loadedFrameDue = !drewLoaded && !isLoading && !searching && lastSearchedCount == store.count
            // So does the frame that completes a keystroke's answer: its result, then its
            // suggestions (the ghost text). Only updates while input streams wait a tick.
            let answerDue = resultGeneration == generation
                && (drawnAnswer.result != generation
                    || (suggestionGeneration == generation && drawnAnswer.suggestions != generation))
            if dirty && !holding && !waitingForSearch && (now - lastDraw >= 16 || loadedFrameDue || answerDue) {
                drewLoaded = loadedFrameDue || drewLoaded
                draw()
            }

            // Keys already read.
            if let key = decoder.next(final: false) {
                if let chars = handle(key) {
                    passThrough = Array(chars.dropFirst())
                    out.pointee = chars[0]
                    return 1
                }
                continue
            }

            var timeout: Int32 = -1
            if dirty { timeout = Int32(max(1, 16 - (now - lastDraw))) }
            if waitingForSearch { timeout = Int32(max(1, 60 - (now - searchStarted))) }
            if searching || isLoading { timeout = timeout < 0 ? 100 : min(timeout, 100) }
            if holding { timeout = Int32(max(1, min(Int(timeout < 0 ? 16 : timeout), startedAt + 16 - now))) }
            if decoder.isPending {
                timeout = Int32(max(1, decoder.pendingDelay - (now - lastKeyBytes)))
            }
            if var raw = resumedMode {
                var current = termios()
                if tcgetattr(terminal.fd, &current) == 0,
                   current.c_lflag != raw.c_lflag || current.c_iflag != raw.c_iflag {
                    _ = tcsetattr(terminal.fd, TCSANOW, &raw)
                }
                if now > resumedUntil { resumedMode = nil } else { timeout = timeout < 0 ? 20 : min(timeout, 20) }
            }
            var fds = [pollfd(fd: terminal.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: terminal.wakeRead, events: Int16(POLLIN), revents: 0)]
            let n = poll(&fds, 2, timeout)
            if n < 0 && errno != EINTR { outcome = .cancel(2); continue }
            if n > 0 && fds[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var bytes = [UInt8](repeating: 0, count: 4096)
                let got = read(terminal.fd, &bytes, bytes.count)
                if got > 0 {
                    decoder.buffer.append(contentsOf: bytes[0..<got])
                    lastKeyBytes = monotonicMillis()
                } else if got == 0 || (errno != EINTR && errno != EAGAIN) {
                    outcome = .cancel(129)  // the terminal went away
                }
            } else if decoder.isPending && monotonicMillis() - lastKeyBytes >= decoder.pendingDelay {
                // Nothing followed: a lone Escape (or a broken sequence, or a paste whose
                // end marker was lost).
                if let key = decoder.next(final: true), let chars = handle(key) {
                    passThrough = Array(chars.dropFirst())
                    out.pointee = chars[0]
                    return 1
                }
            }
            if n == 0 && (searching || isLoading) {
                spinnerPhase += 1
                dirty = true
            }
        }
    }

    /// `pick-action`, bound in libedit to `PrivateKey.action`.
    func runAction() -> UInt8 {
        let action = pendingAction
        pendingAction = nil
        switch action {
        case .replaceQuery(let text):
            editor.replaceLine(with: text)
            return UInt8(CC_REFRESH)
        case .insert(let text):
            editor.insert(text)
            return UInt8(CC_REFRESH)
        case .finish, .none:
            if outcome == nil { outcome = .cancel(130) }
            return UInt8(CC_EOF)
        }
    }

    // MARK: Worker reports

    func takeWakes() {
        let wakes = terminal.drainWakes()
        for signo in wakes.signals {
            switch signo {
            case SIGWINCH: resized()
            case SIGTSTP: suspend()
            case SIGCONT: resized()
            case SIGINT: outcome = .cancel(130)
            default: outcome = .cancel(128 + signo)
            }
        }
        if wakes.input || wakes.search {
            if let message = input.error { outcome = .failure(message) }
            applyPendingScope()
            dirty = true
        }
        if let done = worker.take(), done.generation == generation {
            searching = false
            adopt(done.result)
            resultGeneration = done.generation
            dirty = true
        }
        if let done = worker.takeSuggestions(), done.generation == generation {
            suggestions = done.list
            suggestionGeneration = done.generation
            dirty = true
        }
    }

    /// Enters the section `--scope` names, once the input holds it.
    func applyPendingScope() {
        if let name = pendingScope, let index = Scopes.index(named: name, in: store) {
            pendingScope = nil
            setScope(index)
        }
    }

    /// Takes a new result for the current query, keeping the selected line when the person moved.
    func adopt(_ new: SearchResult) {
        worker.setFirstRows(geometry.listHeight(headers: headerCount))
        let previousLine = moved ? scoped.flatMap { selection < $0.lines.count ? $0.lines[selection] : nil } : nil
        result = new
        scoped = Scopes.filter(new, to: scope)
        if let previousLine, resultGeneration == generation, let at = scoped!.lines.firstIndex(of: previousLine) {
            selection = at
        } else if !moved || resultGeneration != generation {
            selection = 0
            moved = false
        }
        selection = min(selection, max(0, scoped!.lines.count - 1))
    }

    func syncQuery() {
        let line = editor.line
        cursorAtEnd = line.cursor == line.count
        guard line.text != queryText else { return }
        queryText = line.text
        parsedQuery = engine.parse(line.text)
        generation += 1
        selection = 0
        moved = false
        scroll = 0
        if let c = completion, c.list.indices.contains(c.index), c.list[c.index] == line.text {
        } else {
            completion = nil
        }
        startSearch()
        dirty = true
    }

    /// Whether the list still waits for the input: for at most a frame's time (16 ms) after
    /// the start, while input is still loading, nothing is searched or drawn but the prompt.
    /// A mapped file of 100K lines loads in about 3 ms, and frames of part of it, drawn
    /// meanwhile, took a core from the loading. A slower input shows its first lines at 16 ms.
    var holdsFirstList: Bool { isLoading && monotonicMillis() - startedAt < 16 }

    func startSearch() {
        if holdsFirstList {
            searchDeferred = true
            return
        }
        searchDeferred = false
        searchStarted = monotonicMillis()
        lastSearchedCount = store.count
        let text = queryText ?? ""
        if text.isEmpty && !isLoading && store.count <= Self.listedAtOnce {
            // No query, all input in: the lines in input order (grouped by section), which
            // take less to list here than to hand to the worker and back, so the frame that
            // shows all the input goes out a round trip sooner.
            worker.cancel()
            searching = false
            if let all = engine.search(text) {
                adopt(all)
                resultGeneration = generation
                // (No text, no suggestions.)
                suggestions = []
                suggestionGeneration = generation
                applyPendingScope()
                dirty = true
            }
            return
        }
        searching = true
        worker.submit(generation: generation, text: text)
    }

    /// Inputs up to this many lines are listed for an empty query on the event loop (a few
    /// milliseconds at most: 3 ms for a palette of 886K lines grouped by section).
    static let listedAtOnce = 1 << 20

    /// Searches again when more input arrived (at most every 100 ms while it streams).
    func refreshSearch() {
        if searchDeferred {
            if !holdsFirstList { startSearch() }
            return
        }
        guard queryText != nil, !searching, store.count != lastSearchedCount else { return }
        if isLoading && monotonicMillis() - searchStarted < 100 { return }
        startSearch()
    }

    /// Learns the shortcuts of the lines read since the last call. Called when a key that
    /// could be one is pressed and when the help opens, not as lines arrive: splitting a
    /// million lines into fields would take a core away from reading them.
    func scanShortcuts() {
        let count = store.count
        guard store.parsesFields else { shortcutsScanned = count; return }
        while shortcutsScanned < count {
            let line = shortcutsScanned
            shortcutsScanned += 1
            guard line >= options.headerLines, let range = store.fields(of: line).shortcut else { continue }
            let text = String(decoding: UnsafeBufferPointer(rebasing: store.bytes(of: line)[range]), as: UTF8.self)
            guard let key = ShortcutKey.keyName(text), shortcuts[key] == nil, !Self.reservedKeys.contains(key) else { continue }
            shortcuts[key] = Int32(line)
            shortcutOrder.append((text, Int32(line)))
        }
    }

    /// Keys a line's shortcut cannot take: they move, accept or cancel.
    static let reservedKeys: Set<String> = ["ctrl-c", "ctrl-g", "ctrl-j", "ctrl-k", "ctrl-m", "ctrl-n", "ctrl-p",
                                            "ctrl-i", "ctrl-s", "ctrl-h", "ctrl-z", "ctrl-[", "f1", "alt-?", "alt-p",
                                            "alt-n"]

    // MARK: Drawing

    var headerCount: Int {
        headerText.count + min(options.headerLines, store.count)
    }

    var headerText: [String] {
        guard let header = options.header else { return [] }
        return header.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    func draw() {
        let query = queryText ?? ""
        let queryWidth = TerminalText.width(query)
        // A query longer than a row wraps: libedit takes more rows. At the bottom that
        // scrolls the screen, so the prompt is re-anchored where it now fits and redrawn.
        let promptRows = min(max(1, geometry.height - 2), (promptWidth + queryWidth) / max(1, geometry.width) + 1)
        if promptRows != geometry.promptRows {
            let oldStart = geometry.promptRow
            geometry.promptRows = promptRows
            if options.layout == .bottom {
                terminal.write("\u{1B}[\(min(oldStart, geometry.promptRow));1H\u{1B}[J\u{1B}[\(geometry.promptRow);1H")
                editor.refresh()
            }
            lastFrame = []
        }
        let total = max(0, store.count - options.headerLines)
        var input = FrameInput(width: geometry.width, listHeight: geometry.listHeight(headers: headerCount),
                               result: scoped, query: parsedQuery, queryText: query, selection: selection,
                               scroll: scroll, marked: markedSet, multi: options.multi, ansi: options.ansi,
                               total: total, isLoading: isLoading, isSearching: searching,
                               scopes: Scopes.names(in: store), scope: scope, headerText: headerText,
                               headerLines: options.headerLines)
        input.headersFollowGroups = options.layout == .bottom
        let frame = FrameBuilder.build(input, store: store)
        scroll = frame.scroll
        var ghost: Ghost? = nil
        if geometry.promptRows == 1 {
            let text = cursorAtEnd ? ghostText(for: query) : ""
            ghost = Ghost(column: promptWidth + queryWidth + 1, text: text)
        }
        let bytes = Painter.paint(frame, geometry: geometry, theme: theme, spinnerPhase: spinnerPhase,
                                  overlay: showingHelp ? Array(helpLines().dropFirst(helpScroll)) : nil, ghost: ghost)
        if bytes != lastFrame {
            terminal.write(bytes)
            lastFrame = bytes
        }
        lastDraw = monotonicMillis()
        if drawnAnswer.result != resultGeneration { worker.resultShown() }
        if !shownWholeInput && !input.isLoading {
            shownWholeInput = true
            Memory.inputShown(lines: store.count)
        }
        drawnAnswer = (resultGeneration, suggestionGeneration)
        dirty = false
    }

    /// The rest of the best suggestion when it starts with the query, ignoring case only:
    /// with diacritics folded too, the query plus the rest would read as neither.
    func ghostText(for query: String) -> String {
        guard let best = currentSuggestions().first else { return "" }
        let fold: (Unicode.Scalar) -> UInt32 = { Folding.fold($0.value, caseFold: true, stripDiacritics: false) }
        let q = query.unicodeScalars.map(fold)
        let s = Array(best.unicodeScalars)
        guard s.count > q.count, zip(q, s.map(fold)).allSatisfy({ $0 == $1 }) else { return "" }
        return TerminalText.sanitize(String(String.UnicodeScalarView(s[q.count...])))
    }

    /// Suggestions for the query as it is now: recent history for an empty query.
    func currentSuggestions() -> [String] {
        let query = queryText ?? ""
        if query.isEmpty {
            var seen = Set<String>()
            return history.reversed().filter { seen.insert($0).inserted }.prefix(6).map { $0 }
        }
        if suggestionGeneration == generation {
            return suggestions.map { String(decoding: $0, as: UTF8.self) }
        }
        return []
    }

    // MARK: Result

    /// The lines to print for an accept: the marked ones, or the selected one (nil: none).
    func chosenLines() -> [Int32]? {
        if case .pickLine(let line) = outcome { return [line] }
        if options.multi && !marked.isEmpty { return marked }
        let query = queryText ?? ""
        // The displayed result may be stale (a search still running): the pick must be the
        // line `pick --filter` would print first, so search now if needed.
        let complete = resultGeneration == generation && result != nil
            && result!.searched == max(0, store.count - options.headerLines)
        if !complete {
            if let fresh = engine.search(query) {
                result = fresh
                scoped = Scopes.filter(fresh, to: scope)
                if !moved { selection = 0 }
            }
        }
        guard let lines = scoped?.lines, selection < lines.count else { return nil }
        return [lines[selection]]
    }

    var query: String { queryText ?? "" }

    /// The whole ranking of the query shown, when the result holds only its first lines
    /// and the person moves past them (the worker's is on its way; this one is at once).
    func completeResult() {
        guard let shown = result, !shown.isComplete, resultGeneration == generation,
              let whole = engine.search(queryText ?? "") else { return }
        adopt(whole)
    }
}

/// The input, read on a background thread while the picker runs: whether all of it is in,
/// and the error that ended it, if one did.
final class InputLoad: @unchecked Sendable {
    private let done = Atomic<Bool>(false)
    private let lock = Lock()
    private var failure: String? = nil

    var isLoading: Bool { !done.load(ordering: .acquiring) }
    var error: String? { lock.locked { failure } }

    /// Input read before the picker started (the demo, --select-1): nothing loads.
    static func alreadyRead() -> InputLoad {
        let load = InputLoad()
        load.done.store(true, ordering: .relaxed)
        return load
    }

    /// Starts reading `store`'s input: stdin, or the files below here when stdin is a
    /// terminal. Started first, before the terminal is opened and the picker built, on a
    /// thread of its own (started in 0.07 ms where a dispatch queue's took 0.17).
    static func start(into store: LineStore, fromTerminal: Bool) -> InputLoad {
        let load = InputLoad()
        spawnThread {
            let onChunk = { wakeEventLoop(Wake.input) }
            if fromTerminal {
                FileWalker.walk(".", into: store, onChunk: onChunk)
            } else {
                InputReader.readAll(fd: 0, into: store, mapsFile: true, helpAtOnce: false, onChunk: onChunk,
                                    onError: { message in
                    load.lock.locked { load.failure = message }
                })
            }
            load.done.store(true, ordering: .releasing)
            wakeEventLoop(Wake.input)
        }
        return load
    }
}
