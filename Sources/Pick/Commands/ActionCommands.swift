#if canImport(Glibc)
import Glibc
#endif
import PickCore
import Synchronization

// The actions that run a command (in ChildProcess.shell, its placeholders quoted by
// CommandTemplate, in a process group of its own: ChildProcess):
// - execute: the command gets the terminal (pick leaves its screen, hands over the
//   foreground) and pick comes back to the same state when it ends;
// - execute-silent: no terminal, output dropped; the chain waits for it to end (so
//   `execute-silent(git branch -D {})+reload(git branch)` lists what is left), as in fzf;
//   ctrl-c while it runs ends it and drops the rest of the chain (fzf would hang);
// - become: the terminal restored, pick's commands ended, pick replaced by the command;
// - reload, reload-sync: the command's output becomes the input, in a new store; a
//   reload still running is killed (its whole group) when the next one starts;
// - transform, transform-query, -prompt, -header, …: run in the background, the chain
//   waiting for the output while the picker stays usable (fzf's block the picker). A transform that hangs never
//   freezes the picker; the next key bound to something, or the same event again, drops
//   it (its group is killed, its output never applied), as does the end of pick. Another
//   event's chain (focus and result fire in one turn) waits for it. A deadline was the other
//   choice: it would cut off slow commands that are fine (a `git` on a cold cache) and
//   still freeze the picker until it passed;
// - bg-transform…: the same, the chain going on at once; each output is applied when its
//   command ends, unless bg-cancel came since (fzf's).

/// A command whose output pick reads on a thread of its own, to its end.
final class CommandRun: @unchecked Sendable {
    let child: ChildProcess
    let startedAt = monotonicMillis()
    private let finished = Atomic<Bool>(false)
    /// A reload's command was killed (`cancel`): its status says no failure.
    private let cancelled = Atomic<Bool>(false)
    private let lock = Lock()
    private var collected: [UInt8] = []
    /// For a reload: the store its output goes to, loading.
    private(set) var load: InputLoad? = nil

    /// Starts `child` and reads its output: into `store` (a reload; with `styles`, its
    /// colours, `--ansi`), or collected (at most `Tunables.Children.transformOutputLimit`
    /// bytes) for `output`.
    /// `command`: what a reload ran, said in the info line if it fails (not when cancelled).
    init(_ child: ChildProcess, into store: LineStore? = nil, styles: AnsiStyles? = nil, fields: FieldView? = nil,
         command: String = "") {
        self.child = child
        if let store {
            load = InputLoad.start(reading: child.output, into: store, styles: styles, fields: fields) { [self] in
                // Its output ended: the shell has exited, or is about to (a command that
                // closed it and runs on is ended, not waited for).
                let status = child.exitStatus(within: Tunables.Children.terminateGraceMillis)
                child.terminate()
                let failed = status.map { $0 != 0 } == true && !cancelled.load(ordering: .acquiring)
                return failed ? command : nil
            }
        } else {
            spawnThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 1 << 14)
                while true {
                    let n = read(child.output, &buffer, buffer.count)
                    if n > 0 {
                        lock.locked {
                            if collected.count < Tunables.Children.transformOutputLimit { collected += buffer[0..<n] }
                        }
                    } else if n < 0 && (errno == EAGAIN || errno == EINTR) {
                        waitUntilReady(child.output, for: POLLIN)
                    } else {
                        break
                    }
                }
                child.terminate()
                finished.store(true, ordering: .releasing)
                wakeEventLoop(Wake.input)
            }
        }
    }

    var isFinished: Bool { load.map { !$0.isLoading } ?? finished.load(ordering: .acquiring) }

    /// What the command printed (once finished).
    var output: [UInt8] { lock.locked { collected } }

    /// Kills the command's whole group: its reader sees the end, reaps it, and stops.
    func cancel() {
        guard !isFinished else { return }
        cancelled.store(true, ordering: .releasing)
        child.signalGroup(SIGKILL)
    }
}

extension Picker {

    /// What every command pick runs is told of the picker (the preview's too): every
    /// variable fzf exports, and the same under PICK_ names for pick's own.
    func sessionEnvironment() -> [(String, String)] {
        // As fzf's FZF_LINES and FZF_COLUMNS: the rows and columns pick takes (--height).
        let size = (rows: region.geometry.height, cols: region.geometry.width)
        let shared: [(String, String)] = [
            ("QUERY", query), ("PROMPT", prompt),
            // As fzf's: the last action that ran no command (an execute's is the one before
            // it) and the last key pressed, whatever runs the command (a preview, an event).
            ("ACTION", session.bound.lastAction), ("KEY", session.bound.lastKey),
            ("POS", String(session.highlighted == nil ? 0 : session.selection + 1)),
            ("LINES", String(size.rows)), ("COLUMNS", String(size.cols)),
            ("SELECT_COUNT", String(session.marks.count)),
            ("MATCH_COUNT", String(session.shown?.matchCount ?? 0)),
            ("TOTAL_COUNT", String(session.candidates)),
        ]
        var fzf: [(String, String)] = [
            ("FZF_POINTER", options.pointerShown), ("FZF_GHOST", ""),
            ("FZF_BORDER_LABEL", options.surround.label), ("FZF_PREVIEW_LABEL", options.previewLabel.label),
            ("FZF_LIST_LABEL", options.parts.list.label), ("FZF_INPUT_LABEL", options.parts.input.label),
            ("FZF_HEADER_LABEL", options.parts.header.label),
            ("FZF_DIRECTION", options.layout == .bottom ? "up" : "down"),
            ("FZF_INPUT_STATE", session.inputHidden ? "hidden" : session.filters ? "enabled" : "disabled"),
            ("FZF_IDLE_TIME", String(idleMillis / 1000)), ("FZF_IDLE_TIME_MS", String(idleMillis)),
            ("FZF_CLICK_HEADER_LINE", String(session.bound.headerClick?.line ?? 0)),
            ("FZF_CLICK_HEADER_COLUMN", String(session.bound.headerClick?.column ?? 0)),
            ("FZF_CLICK_FOOTER_LINE", String(session.bound.footerClick?.line ?? 0)),
            ("FZF_CLICK_FOOTER_COLUMN", String(session.bound.footerClick?.column ?? 0)),
        ]
        if let nth = options.nth { fzf.append(("FZF_NTH", nth.expression)) }
        if let word = session.bound.headerClick?.word, let nth = session.bound.headerClick?.nth {
            fzf += [("FZF_CLICK_HEADER_WORD", word), ("FZF_CLICK_HEADER_NTH", nth)]
        }
        if let word = session.bound.footerClick?.word { fzf.append(("FZF_CLICK_FOOTER_WORD", word)) }
        // As fzf: only in raw mode, whether the highlighted line matches.
        if session.raw { fzf.append(("FZF_RAW", session.matches(at: session.selection) ? "1" : "0")) }
        // As fzf: only while the list wraps, how.
        if session.look.wrap { fzf.append(("FZF_WRAP", session.look.wrapWord ? "word" : "char")) }
        if let withNth = options.withNth { fzf.append(("FZF_WITH_NTH", withNth.expression)) }
        if let line = session.highlighted {
            // As fzf: not when it holds a NUL (no variable can) or is too long for exec.
            let bytes = linesAsRead.bytes(of: Int(line))
            if !bytes.contains(0), bytes.count <= Tunables.Children.currentItemBytes {
                fzf.append(("FZF_CURRENT_ITEM", String(decoding: bytes, as: UTF8.self)))
            }
        }
        if let pane = preview?.rect, !pane.window.hidden {
            let text = pane.text
            fzf += [("FZF_PREVIEW_LINES", String(text.height)), ("FZF_PREVIEW_COLUMNS", String(text.width)),
                    ("FZF_PREVIEW_TOP", String(text.top - 1)), ("FZF_PREVIEW_LEFT", String(text.left - 1))]
        }
        return shared.map { ("FZF_" + $0.0, $0.1) } + fzf + shared.map { ("PICK_" + $0.0, $0.1) }
    }

    /// Milliseconds since the last key (fzf's FZF_IDLE_TIME_MS).
    private var idleMillis: Int { max(0, monotonicMillis() - lastKeyBytes) }

    /// The lines as read (`store` holds the `--nth`/`--with-nth` text the engine searches).
    var linesAsRead: LineStore { fieldView?.original ?? store }

    /// The command line for `template`: the highlighted line, the marked ones (as read) and
    /// the query, each shell-quoted.
    /// `files` receives the temporary files of `f` placeholders.
    func commandLine(_ template: CommandTemplate, files: TemporaryFiles? = nil) -> [UInt8] {
        let context = TemplateContext(lines: linesAsRead, current: session.highlighted, marked: session.marks,
                                      matched: template.usesMatches ? matchingLines : [],
                                      query: query, delimiter: delimiter, action: session.bound.lastAction,
                                      prompt: prompt, separator: options.print0 ? 0 : 0x0A,
                                      quoting: ChildProcess.quoting)
        return template.expand(context, writeFile: files.map { $0.write })
    }

    /// `{*}`: every line the query matches, in the list's order (close matches left out).
    var matchingLines: [Int32] {
        guard let shown = session.shown else { return [] }
        return Array(shown.lines.dropLast(shown.closeMatches))
    }

    /// Runs the command of `action` as PickCore decided (`use`).
    func runCommand(_ use: CommandUse, _ action: BoundAction, _ trigger: BindTrigger) {
        // A command that pick waits for removes its files when it ends; the others' go when
        // pick exits (become's stay for the command that replaces pick).
        guard case .command(let template) = action.value else { return }
        let files = TemporaryFiles()
        let command = commandLine(template, files: files)
        guard !command.allSatisfy({ $0 == 0x20 }) else {
            // A transform of no command prints nothing, as fzf's: `transform-pointer()` clears it.
            if use == .transform { applyTransformOutput([], of: action, trigger: trigger) }
            return
        }
        let environment = sessionEnvironment()
        switch use {
        case .onTerminal:
            executeOnTerminal(command, environment)
            files.remove()
        case .silent:
            if let child = try? ChildProcess.spawn(command, environment: environment, output: .discard),
               !waitUnlessInterrupted(child) {
                session.bound.clearQueue()
            }
            files.remove()
        case .become: become(command, environment)
        case .reload(let sync): reload(command, environment, sync: sync)
        case .transform:
            if action.kind.runsInBackground {
                startInBackground(command, environment, action, trigger)
                return
            }
            guard let child = try? ChildProcess.spawn(command, environment: environment, output: .outputPipe) else { return }
            commands.transform = (CommandRun(child), action, trigger)
        }
    }

    /// bg-transform…: the command runs while the chain goes on. At most
    /// `Tunables.Children.backgroundPerAction` runs of one action at a time, as fzf: a run asked
    /// for beyond that waits, the newest replacing the one waiting before it.
    func startInBackground(_ command: [UInt8], _ environment: [(String, String)], _ action: BoundAction,
                           _ trigger: BindTrigger) {
        let key = action.written
        let running = commands.background.filter { $0.action.written == key }.count
        guard running < Tunables.Children.backgroundPerAction,
              commands.background.count < Tunables.Children.backgroundRuns else {
            commands.backgroundWaiting[key] = (command, environment, action, trigger)
            return
        }
        guard let child = try? ChildProcess.spawn(command, environment: environment, output: .outputPipe) else { return }
        commands.background.append((CommandRun(child), action, trigger, commands.backgroundGeneration))
    }

    /// bg-cancel: every background transform is ended, what they would print dropped.
    func cancelBackground() {
        commands.backgroundGeneration += 1
        for run in commands.background { run.run.cancel() }
        commands.backgroundWaiting = [:]
    }

    /// Waits for `child` to end, keeping the keys typed meanwhile for later; false when
    /// ctrl-c came first (the command is ended then).
    func waitUnlessInterrupted(_ child: ChildProcess) -> Bool {
        defer { child.terminate() }
        while !child.hasExited {
            var ready = pollfd(fd: terminal.fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, Int32(Tunables.Children.exitPollMillis)) > 0 else { continue }
            var bytes = [UInt8](repeating: 0, count: 256)
            let n = read(terminal.fd, &bytes, bytes.count)
            if n == 0 { return false }  // the terminal went away: the command goes too
            guard n > 0 else { continue }
            let interrupt = bytes[0..<n].firstIndex(of: 3)
            decoder.buffer.append(contentsOf: bytes[0..<(interrupt ?? n)])
            lastKeyBytes = monotonicMillis()
            if interrupt != nil { return false }
        }
        return true
    }

    /// execute: pick leaves the screen, the command runs in the foreground of the terminal,
    /// and pick comes back as it was.
    func executeOnTerminal(_ command: [UInt8], _ environment: [(String, String)]) {
        var mode = termios()
        _ = tcgetattr(terminal.fd, &mode)
        region.leave(terminal)
        terminal.restoreMode()
        if let child = try? ChildProcess.spawn(command, environment: environment, stdin: .terminal, output: .terminal) {
            // The command's group takes the foreground, so that it reads the terminal and
            // ctrl-c reaches it; pick (then in the background) must not stop for asking back.
            signal(SIGTTOU, SIG_IGN)
            _ = tcsetpgrp(terminal.fd, child.pid)
            _ = kill(-child.pid, SIGCONT)
            _ = child.wait()
            _ = tcsetpgrp(terminal.fd, getpgrp())
            signal(SIGTTOU, SIG_DFL)
            child.terminate()
        }
        enterScreen()
        // After entering: an inline region asks for the cursor's row in the mode pick found.
        _ = tcsetattr(terminal.fd, TCSANOW, &mode)
        editor.resized()
        placePrompt()
        editor.refresh()
        lastFrame = []
        draw()
    }

    /// become: the terminal as pick found it, every command pick started ended, then the
    /// command in pick's place (its input the terminal, as fzf gives it).
    func become(_ command: [UInt8], _ environment: [(String, String)]) -> Never {
        ListenServer.current?.stop()
        region.leave(terminal)
        terminal.restoreMode()
        terminal.releaseSignals()
        ChildProcess.terminateAll()
        let tty = open("/dev/tty", O_RDWR)
        if tty >= 0 { _ = dup2(tty, 0); close(tty) }
        for (name, value) in environment { setenv(name, value, 1) }
        var line = CommandTemplate.cutAtNul(command)
        line.append(0)
        let words = ChildProcess.shellWords.map { strdup($0) }
        line.withUnsafeMutableBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { text in
                var argv: [UnsafeMutablePointer<CChar>?] = words + [text, nil]
                _ = execvp(ChildProcess.shell, &argv)
            }
        }
        fail("become: cannot run \(ChildProcess.shell): \(String(cString: strerror(errno)))")
    }

    /// reload: the command's output becomes the input. The list shows it as it streams in
    /// (reload-sync: once it is all in, the old list staying until then), the highlight
    /// going back to the line it was on once that line is read again.
    func reload(_ command: [UInt8], _ environment: [(String, String)], sync: Bool) {
        commands.reload?.run.cancel()
        commands.reload = nil
        commands.streaming?.cancel()
        commands.streaming = nil
        let newStore = LineStore(separator: options.read0 ? 0 : 0x0A, parsesFields: options.palette)
        guard let child = try? ChildProcess.spawn(command, environment: environment, output: .outputPipe) else { return }
        let newStyles: AnsiStyles? = options.ansi ? AnsiStyles() : nil
        let newFields = fieldView.map {
            FieldView(store: newStore, delimiter: $0.delimiter, nth: $0.nth, withNth: $0.withNth,
                      acceptNth: $0.acceptNth, palette: $0.palette)
        }
        let run = CommandRun(child, into: newStore, styles: newStyles, fields: newFields,
                             command: String(decoding: command, as: UTF8.self))
        commands.reload = (run, newStore, newFields, newStyles, sync, keysHandled)
        if !sync { session.bound.reloadInChain = true }
        // With --id-nth, the highlight's line is looked for by its fields, the picker held
        // meanwhile (+T*), as fzf's: held before the frame below, which then says so.
        if let identity {
            session.blockTracking()
            if options.multi, sync, !session.marks.isEmpty {
                commands.markedKeys = session.marks.map { identity.key(of: linesAsRead.bytes(of: Int($0))) }
            }
        }
        // The old list stays, the spinner turning, until the new lines come (fzf's).
        perform(.reloadStarted)
    }

    /// Makes the running reload's store the picker's.
    func showReload() {
        guard let (run, newStore, newFields, newStyles, _, _) = commands.reload, let load = run.load else { return }
        commands.reload = nil
        commands.streaming = run
        session.bound.rowsBeforeReload = session.shown?.lines.count ?? 0
        let identity = self.identity
        session.followHighlight(text: session.highlighted.map { line in
            let bytes = linesAsRead.bytes(of: Int(line))
            return identity.map { $0.key(of: bytes) } ?? Array(bytes)
        }, in: newStore, identity: identity)
        let markedKeys = commands.markedKeys
        commands.markedKeys = []
        session.bound.events.inputReplaced()
        fieldView = newFields
        store = newFields?.searched ?? newStore
        styles = newStyles
        input = load
        preview?.store = newStore
        preview?.pane.restart()
        replaceEngine(over: store)
        perform(.inputReplaced)
        perform(.inputRead(lines: store.count, loading: input.isLoading))
        // reload-sync with --multi and --id-nth: the lines whose fields were marked are marked
        // again, in the order they were (fzf's).
        if let identity, !markedKeys.isEmpty { session.markAgain(keys: markedKeys, in: newStore, identity: identity) }
    }

    /// What says which line is which across a reload: `--id-nth`'s fields (nil: the whole line).
    var identity: LineIdentity? {
        options.idNth.map { LineIdentity(fields: $0, delimiter: delimiter) }
    }

    /// Takes in what finished in the background: a reload-sync read whole, a transform's
    /// output (which then lets its chain go on).
    func takeFinishedCommands() {
        takeInfoCommandOutput()
        if let reload = commands.reload,
           reload.run.isFinished || !reload.sync && reload.store.count > 0 { showReload() }
        takeFinishedBackground()
        guard let (run, action, trigger) = commands.transform, run.isFinished else { return }
        commands.transform = nil
        applyTransformOutput(run.output, of: action, trigger: trigger)
        runBoundActions()
    }

    /// The background transforms that ended: the output of each still of this generation
    /// (bg-cancel not run since it started) applied, and the run waiting for its action started.
    func takeFinishedBackground() {
        guard commands.background.contains(where: { $0.run.isFinished }) else { return }
        let finished = commands.background.filter { $0.run.isFinished }
        commands.background.removeAll { $0.run.isFinished }
        for (run, action, trigger, generation) in finished {
            if generation == commands.backgroundGeneration { applyTransformOutput(run.output, of: action, trigger: trigger) }
            if let waiting = commands.backgroundWaiting.removeValue(forKey: action.written) {
                startInBackground(waiting.command, waiting.environment, waiting.action, waiting.trigger)
            }
        }
    }

    /// What a transform printed does (PickSession decides; its trailing newlines dropped).
    func applyTransformOutput(_ output: [UInt8], of action: BoundAction, trigger: BindTrigger) {
        var text = String(decoding: output, as: UTF8.self)
        while text.hasSuffix("\n") || text.hasSuffix("\r") { text.removeLast() }
        for effect in session.transformed(action, output: text, trigger: trigger, context: actionContext()) {
            // A background transform's actions run even while a `wait` holds the chain; a
            // `wait` among them joins it, what follows it waiting too (fzf's).
            if case .queueFirst(let chain) = effect, action.kind.runsInBackground, session.trackBlocked {
                // Applied while a reload's tracking holds the rest (fzf's).
                for action in chain { run(action, trigger, passesHold: true) }
                continue
            }
            if case .queueFirst(let chain) = effect, action.kind.runsInBackground, session.bound.waitsForSearch {
                let stop = chain.firstIndex { $0.kind == .wait } ?? chain.endIndex
                for action in chain[..<stop] { run(action, trigger) }
                session.bound.queue += chain[stop...].dropFirst().map { ($0, trigger) }
                continue
            }
            carryOut(effect, trigger)
        }
    }
}
