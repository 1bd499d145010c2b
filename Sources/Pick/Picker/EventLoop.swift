#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import PickCore

// The event loop lives in libedit's read function (`readCharacter`): before every key it
// tells the session what happened (the query changed, input arrived, the worker answered)
// and runs the actions it returns (search, draw), then waits on the tty and the self-pipe
// together for as long as the session allows.

extension Picker {
    // MARK: The read function

    /// libedit's read function: the event loop. Returns 1 with a character for libedit.
    func readCharacter(_ out: UnsafeMutablePointer<wchar_t>) -> Int32 {
        if !modeAdjusted {
            // Start-up is done: a large mapped file may now load on this core too.
            MappedInput.helpLoading()
            terminal.separateReturnFromCtrlJ()
            // libedit measured the terminal again as it started reading: its lines end
            // short of a right border only from now on.
            if geometry.inputRight < terminal.size().cols {
                placePrompt()
                editor.refresh()
            }
            modeAdjusted = true
            if suspension.editorStarted(terminal) { suspend() }
        }
        if !passThrough.isEmpty {
            cursorBackToEditor()
            out.pointee = passThrough.removeFirst()
            return 1
        }
        while true {
            if !session.bound.queue.isEmpty { syncQuery(); runBoundActions() }
            // An editing action's key for libedit (the rest of its chain runs after it).
            if !passThrough.isEmpty {
                cursorBackToEditor()
                out.pointee = passThrough.removeFirst()
                return 1
            }
            if pendingAction != nil || outcome != nil {
                if pendingAction == nil { pendingAction = .finish }
                cursorBackToEditor()
                out.pointee = PrivateKey.action
                return 1
            }
            syncQuery()
            takeWakes()
            if outcome != nil { continue }
            if serveRemote() { continue }  // --listen (PickerRemote.swift)
            if keyPressed {
                keyPressed = false
                perform(.redraw)
            }
            catchUpChangedFields()
            perform(.inputRead(lines: store.count, loading: input.isLoading))
            if noticeEvents() || !passThrough.isEmpty { continue }
            previewTurn()

            // Keys already read (unless a key's transform that just started is to act first;
            // an event's, such as focus:transform-header, never holds the keys).
            let holdKeysUntil = commands.transform.flatMap { waiting -> Int? in
                guard case .key = waiting.trigger else { return nil }
                return waiting.run.startedAt + Tunables.Children.transformHoldsKeysMillis
            }
            let holdingKeys = holdKeysUntil.map { monotonicMillis() < $0 } ?? false
            if !holdingKeys, let key = decoder.next(final: false) {
                if let chars = handle(key) {
                    cursorBackToEditor()
                    passThrough = Array(chars.dropFirst())
                    out.pointee = chars[0]
                    return 1
                }
                continue
            }

            let now = monotonicMillis()
            var timeout = Int32([session.wait(at: now), preview?.wait(at: now), timers.wait(at: now)].compactMap { $0 }.min() ?? -1)
            if decoder.isPending {
                timeout = Int32(max(1, decoder.pendingDelay - (now - lastKeyBytes)))
            }
            if holdingKeys, let until = holdKeysUntil {
                timeout = Int32(max(1, min(timeout < 0 ? Int.max : Int(timeout), until - now)))
            }
            if let watch = suspension.watch(terminal, now: now).map(Int32.init) {
                timeout = timeout < 0 ? watch : min(timeout, watch)
            }
            let waited = terminal.waitForKeys(timeout: timeout)
            switch waited {
            case .failed: outcome = .cancel(2); continue
            case .closed: outcome = .cancel(129); continue  // the terminal went away
            case .keys(let bytes):
                decoder.buffer.append(contentsOf: bytes)
                lastKeyBytes = monotonicMillis()
            case .woken, .timedOut:
                // Nothing followed: a lone Escape (or a broken sequence, or a paste whose
                // end marker was lost).
                if !holdingKeys, decoder.isPending && monotonicMillis() - lastKeyBytes >= decoder.pendingDelay,
                   let key = decoder.next(final: true), let chars = handle(key) {
                    cursorBackToEditor()
                    passThrough = Array(chars.dropFirst())
                    out.pointee = chars[0]
                    return 1
                }
            }
            if case .timedOut = waited, session.isBusy, !options.accessible {
                spinnerPhase += 1
                perform(.redraw)
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

    // MARK: What happened

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
        if wakes.input, let message = input.error { outcome = .failure(message) }
        for answer in worker.takeAnswers() { perform(.answered(answer)) }
        if wakes.preview { previewWritten() }
        if wakes.input || wakes.search { applyPendingScope() }
    }

    /// Enters the section `--scope` names, once the input holds it.
    func applyPendingScope() {
        if let name = pendingScope, let index = Scopes.index(named: name, in: store) {
            pendingScope = nil
            perform(.scope(index))
        }
    }

    func syncQuery() {
        let line = editor.line
        cursorAtEnd = line.cursor == line.count
        guard line.text != session.queryText else { return }
        // The first query (empty, or --query's) is where pick starts, not a change: as in
        // fzf, `change` fires on an edit only.
        let starting = session.queryText == nil
        // A reload from an earlier key that has not shown yet: the edit is for its list.
        if let pending = commands.reload, !pending.sync, pending.key != keysHandled { showReload() }
        parsedQuery = worker.engine.parse(session.filters ? line.text : session.frozenText)
        tabCycle.queryChanged(to: line.text)
        perform(.queryEdited(line.text))
        if !starting { fire(.event(.change)) }
    }
}
