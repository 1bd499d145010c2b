#if canImport(Glibc)
import Glibc
#endif
import PickCore

// `--bind` at run time: the one dispatch for a bound key or event (`fire`), the actions,
// and the events noticed once a turn.
//
// A chain runs in order, in the event loop. Two kinds of action make it wait and go on
// in a later turn: one that changes the query (libedit must take the new text first, so
// the next action sees it: `pendingAction`), and a transform, whose command runs in the
// background (the picker stays usable; see ActionCommands.swift). Nothing here starts a
// process unless the action is a command: a `change:` binding costs a dictionary lookup
// and the actions it names, per keystroke.

/// What the bindings add to the picker's state.
struct BindingState {
    /// Actions waiting to run, and what set each off.
    var queue: [(action: BoundAction, trigger: BindTrigger)] = []
    /// Triggers turned off by `unbind`.
    var unbound: Set<BindTrigger> = []
    /// Which of its layouts each change-preview-window spec showed last.
    var windowCycle: [String: Int] = [:]
    /// Which of its field ranges each change-nth/change-with-nth spec took last, and the
    /// field options pick started with (what an empty choice goes back to).
    var fieldCycle: [String: Int] = [:]
    var fieldsAsStarted: (nth: FieldRanges?, withNth: FieldRanges?)? = nil
    /// When the events fire (PickCore decides).
    var events = EventWatch()
    /// Whether the list is sorted, once toggle-sort turned it from what the options say.
    var sorts: Bool? = nil
    /// A binding toggles the sort: the info line says which way it is.
    var togglesSort = false
    /// A running reload, its store, and whether the list waits for the whole of it
    /// (reload-sync) before it shows.
    var reload: (run: CommandRun, store: LineStore, fields: FieldView?, styles: AnsiStyles?, sync: Bool)? = nil
    /// The reload whose store the picker shows, while it may still stream.
    var streaming: CommandRun? = nil
    /// The line highlighted when a reload came, looked for in the new list.
    var reloadTrack: [UInt8]? = nil
    /// Where that line was in the list, for the query then: the highlight's place when the
    /// reload lacks the line and the query is the same.
    var reloadPosition = (row: 0, query: "")
    var trackSeen = (generation: -1, searched: -1)
    /// The row to highlight once the list's lines come (clamped to the list): for
    /// first/last/pos right after a reload, counted over the list before the reload (as
    /// fzf keeps its cursor's index), and that list's length; the row exclude leaves.
    var reloadRow: Int? = nil
    /// A reload ran earlier in the chain now running: a move acts on its lines to come.
    var reloadInChain = false
    var rowsBeforeReload = 0
    /// A transform running: the chain waits for its output.
    var transform: (run: CommandRun, action: BoundAction, trigger: BindTrigger)? = nil
    /// `{fzf:action}`: the last action that ran no command, as fzf names it.
    var lastAction = "start"
}

extension Picker {
    /// Runs what `trigger` is bound to, if anything: the one dispatch for keys and events.
    /// A chain still waiting is dropped for a key's or for the same event's. An unbound trigger does nothing at
    /// all, pick's own use of a key included, as in fzf (true: the key was taken).
    @discardableResult
    func fire(_ trigger: BindTrigger) -> Bool {
        if bound.unbound.contains(trigger) { return true }
        guard let chain = options.bindings[trigger] else { return false }
        bound.reloadInChain = false
        if let waiting = bound.transform {
            // Another event (focus and result fire in one turn) runs after the waiting
            // chain, as fzf runs them in turn; a key, or the same event again, replaces it.
            if case .event = trigger, trigger != waiting.trigger {
                bound.queue += chain.map { ($0, trigger) }
                return true
            }
            waiting.run.cancel()
            bound.transform = nil
            bound.queue = []
        }
        bound.queue += chain.map { ($0, trigger) }
        runBoundActions()
        return true
    }

    /// Runs queued actions until one must wait for libedit or a command, or pick ends.
    func runBoundActions() {
        while !bound.queue.isEmpty, pendingAction == nil, outcome == nil, bound.transform == nil, passThrough.isEmpty {
            let (action, trigger) = bound.queue.removeFirst()
            keyPressed = true
            run(action, trigger)
        }
    }

    func run(_ action: BoundAction, _ trigger: BindTrigger) {
        let up = options.layout.listReadsDown ? -1 : 1
        let page = max(1, geometry.listHeight(headers: headerCount) - 1)
        let argument = action.argument ?? ""
        switch action.kind {
        case .execute, .executeSilent, .become, .reload, .reloadSync, .transform, .transformQuery, .transformPrompt,
             .transformHeader, .transformBorderLabel, .changePreview, .refreshPreview: break
        default: bound.lastAction = action.kind.rawValue
        }
        switch action.kind {
        case .ignore: break
        case .accept: outcome = .accept(key: nil)
        case .acceptNonEmpty:
            // As fzf: an empty input, read whole, accepts too (with --print-query, the query).
            if let lines = chosenLines(), !lines.isEmpty { outcome = .accept(key: nil) }
            else if !input.isLoading && session.candidates == 0 { outcome = .accept(key: nil) }
        case .abort: outcome = .cancel(130)
        case .cancel:
            if query.isEmpty { outcome = .cancel(130) } else { pendingAction = .replaceQuery("") }
        case .printQuery: outcome = .printQuery
        case .pos where awaitsReloadedLines, .first where awaitsReloadedLines, .last where awaitsReloadedLines:
            let before = bound.rowsBeforeReload
            let position = action.kind == .first ? 1 : action.kind == .last ? -1 : Int(argument) ?? 1
            bound.reloadRow = max(0, position > 0 ? position - 1 : before + position)
            bound.reloadTrack = nil
        case .pos:
            // fzf's positions: 1 the first line, -1 the last.
            let position = Int(argument) ?? 1
            perform(.move(by: position < 0 ? Int(Int32.max) : -Int(Int32.max), wraps: false))
            if position > 1 || position < -1 { perform(.move(by: position < 0 ? position + 1 : position - 1, wraps: false)) }
        case .up: move(up)
        case .down: move(-up)
        case .first: perform(.move(by: -Int(Int32.max), wraps: false))
        case .last: perform(.move(by: Int(Int32.max), wraps: false))
        case .pageUp: move(up * page, wraps: false)
        case .pageDown: move(-up * page, wraps: false)
        case .halfPageUp: move(up * max(1, page / 2), wraps: false)
        case .halfPageDown: move(-up * max(1, page / 2), wraps: false)
        case .toggle: if options.multi { toggleMark() }
        case .beginningOfLine: passThrough = [PrivateKey.home]
        case .endOfLine: passThrough = [PrivateKey.end]
        case .backwardChar: passThrough = [PrivateKey.left]
        case .forwardChar: passThrough = [PrivateKey.right]
        case .backwardWord: passThrough = [PrivateKey.wordBefore]
        case .forwardWord: passThrough = [PrivateKey.wordAfter]
        case .deleteChar: passThrough = [PrivateKey.delete]
        case .backwardDeleteChar: passThrough = [PrivateKey.backspace]
        case .deleteCharEOF, .backwardDeleteCharEOF:
            if query.isEmpty { outcome = .cancel(130); break }
            passThrough = [action.kind == .deleteCharEOF ? PrivateKey.delete : PrivateKey.backspace]
        case .killLine: passThrough = [PrivateKey.killToEnd]
        case .unixLineDiscard: passThrough = [PrivateKey.killToStart]
        case .killWord: passThrough = [PrivateKey.killWordAfter]
        case .backwardKillWord, .unixWordRubout: passThrough = [PrivateKey.killWordBefore]
        case .yank: passThrough = [PrivateKey.yank]
        case .toggleIn, .toggleOut:
            // fzf's: toggle-in moves toward the prompt (up when the list reads down from it),
            // toggle-out away from it.
            if options.multi { toggleMark() }
            move((action.kind == .toggleIn) == options.layout.listReadsDown ? up : -up)
        case .select, .deselect:
            if options.multi, let line = session.highlighted, session.markSet.contains(line) == (action.kind == .deselect) {
                toggleMark()
            }
        case .selectAll, .toggleAll:
            guard options.multi else { break }
            while let job = session.wholeResultJob(), let answer = worker.run(job) { perform(.answered(answer)) }
            perform(.marks(action.kind == .selectAll ? .all : .invert))
        case .deselectAll: perform(.marks(.none))
        case .exclude, .excludeMulti: exclude(marked: action.kind == .excludeMulti)
        case .changeNth, .changeWithNth: changeFields(argument, withNth: action.kind == .changeWithNth)
        case .clearQuery: pendingAction = .replaceQuery("")
        case .changeQuery: pendingAction = .replaceQuery(argument)
        case .put:
            let key: Key? = if case .key(let k) = trigger { k } else { nil }
            if let text = action.argument ?? key.flatMap(KeyNames.printable) { pendingAction = .insert(text) }
        case .changePrompt: changePrompt(argument)
        case .changeHeader: changeHeader(argument)
        case .changeBorderLabel: changeBorderLabel(argument)
        case .toggleSort:
            bound.sorts = !(bound.sorts ?? options.ranking.sorts)
            replaceEngine(over: store)
            perform(.searchAgain)
        case .enableSearch, .disableSearch, .toggleSearch:
            let filters = action.kind == .toggleSearch ? !session.filters : action.kind == .enableSearch
            guard filters != session.filters else { break }
            session.filters = filters
            parsedQuery = worker.engine.parse(filters ? query : "")
            perform(.searchAgain)
        case .unbind, .rebind:
            for target in (try? Bindings.triggers(in: argument)) ?? [] {
                if action.kind == .unbind { bound.unbound.insert(target) } else { bound.unbound.remove(target) }
            }
        case .togglePreview: togglePreview()
        case .showPreview, .hidePreview:
            if preview != nil, (geometry.pane != nil) != (action.kind == .showPreview) { togglePreview() }
        case .refreshPreview: refreshPreview()
        case .previewUp, .previewDown, .previewPageUp, .previewPageDown:
            let pages = action.kind == .previewPageUp || action.kind == .previewPageDown
            preview?.scroll(by: action.kind == .previewUp || action.kind == .previewPageUp ? -1 : 1, pages: pages,
                            at: monotonicMillis())
            perform(.redraw)
        case .previewHalfPageUp, .previewHalfPageDown, .previewTop, .previewBottom:
            let rows = (preview?.rect).map { $0.text.height - $0.window.headerLines } ?? 0
            let step = action.kind == .previewHalfPageUp || action.kind == .previewHalfPageDown
                ? max(1, rows / 2) : Int(Int32.max)
            let upward = action.kind == .previewHalfPageUp || action.kind == .previewTop
            preview?.scroll(by: upward ? -step : step, at: monotonicMillis())
            perform(.redraw)
        case .changePreview:
            preview?.template = CommandTemplate(argument)
            refreshPreview()
        case .changePreviewWindow: changePreviewWindow(argument)
        case .execute, .executeSilent, .become, .reload, .reloadSync, .transform, .transformQuery,
             .transformPrompt, .transformHeader, .transformBorderLabel:
            runCommand(action, trigger)
        }
    }

    /// Whether a reload ran earlier in this chain: a move waits for its lines
    /// (`reload(…)+last`), as in fzf, where they always come after the chain.
    var awaitsReloadedLines: Bool {
        bound.streaming != nil && bound.reloadInChain
    }

    /// Searches `store` with a new engine: the sort toggle-sort left, the matching options,
    /// and the memory of `--remember` the old engine had.
    func replaceEngine(over store: LineStore) {
        var ranking = options.ranking
        ranking.sorts = bound.sorts ?? options.ranking.sorts
        let engine = SearchEngine(store: store, matching: options.matching, ranking: ranking,
                                  skippedLines: options.headerLines)
        engine.remember(as: worker.engine, lines: linesAsRead)
        if store === worker.engine.store { engine.exclude(worker.engine.excludedLines) }
        worker.replace(engine)
    }

    /// exclude: the highlighted line leaves the list; exclude-multi: the marked lines, or
    /// the highlighted one when none is marked (fzf's). The highlight stays at its row.
    func exclude(marked: Bool) {
        let lines = marked && !session.marks.isEmpty ? session.marks : session.highlighted.map { [$0] } ?? []
        guard !lines.isEmpty else { return }
        worker.engine.exclude(lines)
        if marked && !session.marks.isEmpty {
            perform(.marks(.none))
        } else if let line = lines.first, session.markSet.contains(line) {
            toggleMark()
        }
        // The highlight keeps its row once the list is searched again.
        bound.reloadRow = session.selection
        perform(.searchAgain)
    }

    /// change-nth(A|B|…), change-with-nth(…): the next of the field ranges (an empty one:
    /// the option as given), as fzf cycles them. The lines the engine searches are derived
    /// again from the lines as read (FieldView) and searched again; the highlight stays on
    /// its line, as after a reload.
    func changeFields(_ spec: String, withNth: Bool) {
        let choices = spec.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let key = (withNth ? "with-nth:" : "nth:") + spec
        let index = bound.fieldCycle[key, default: 0] % choices.count
        bound.fieldCycle[key] = index + 1
        let started = bound.fieldsAsStarted ?? (options.nth, options.withNth)
        bound.fieldsAsStarted = started
        let ranges: FieldRanges?
        if choices[index].isEmpty {
            ranges = withNth ? started.withNth : started.nth
        } else {
            guard let parsed = try? FieldRanges(parsing: choices[index]) else { return }
            ranges = parsed
        }
        if withNth { options.withNth = ranges } else { options.nth = ranges }
        let lines = linesAsRead
        let view: FieldView?
        do { view = try FieldView(options: options, store: lines) } catch { return }
        view?.catchUp(finishing: !input.isLoading)
        let excluded = worker.engine.excludedLines
        bound.reloadTrack = session.highlighted.map { Array(lines.bytes(of: Int($0))) }
        bound.reloadPosition = (session.selection, query)
        bound.trackSeen = (-1, -1)
        fieldView = view
        store = view?.searched ?? lines
        replaceEngine(over: store)
        worker.engine.exclude(excluded)
        parsedQuery = worker.engine.parse(session.filters ? query : "")
        perform(.searchAgain)
    }

    /// Lines read since a change-nth/change-with-nth are derived here, once a turn: the
    /// thread reading the input (or a reload) feeds the view it started with. Calls are
    /// serialised by the view, so one both feed is derived once.
    func catchUpChangedFields() {
        guard bound.fieldsAsStarted != nil, let view = fieldView, view.derives,
              !view.searched.isFinished else { return }
        view.catchUp(finishing: !input.isLoading)
    }

    /// refresh-preview: the preview's command runs again for the line it shows, its
    /// output from the top.
    func refreshPreview() {
        preview?.pane.restart(fromTheTop: true)
        previewTurn()
    }

    /// change-preview-window(A|B|…): the next of the layouts, each applied over
    /// `--preview-window` as fzf does (an empty one is `--preview-window` itself).
    func changePreviewWindow(_ spec: String) {
        guard let preview else { return }
        let choices = spec.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        let index = bound.windowCycle[spec, default: 0] % choices.count
        bound.windowCycle[spec] = index + 1
        guard let window = try? options.previewWindow.applying(choices[index]) else { return }
        preview.window = window
        preview.pane.restart()
        layoutChanged()
        previewTurn()
    }

    func changePrompt(_ text: String) {
        prompt = TerminalText.sanitize(text)
        layoutChanged()
    }

    func changeHeader(_ text: String) {
        options.header = text.isEmpty ? nil : text
        layoutChanged()
    }

    /// change-border-label: fzf-git.sh's pickers name what they list there (`--border`).
    func changeBorderLabel(_ text: String) {
        options.surround.label = text
        layoutChanged()
    }

    // MARK: Events

    /// Fires the events that happened since the last turn (start, load, focus, result,
    /// one, zero) and takes in what background commands finished. Cheap when nothing is
    /// bound: a few comparisons. True when pick must end or libedit take an action first.
    @discardableResult
    func noticeEvents() -> Bool {
        notice()
        runBoundActions()
        return pendingAction != nil || outcome != nil
    }

    private func notice() {
        takeFinishedCommands()
        followReloadedLine()
        for event in bound.events.events(in: session, loading: input.isLoading) { fire(.event(event)) }
    }

    /// After a reload, highlights the line that was highlighted before, once the new list
    /// holds it (as `--track` does), until the reload has been read whole; without it (the
    /// branch just deleted), the same place in the list, as fzf keeps it.
    func followReloadedLine() {
        if let row = bound.reloadRow {
            guard session.resultGeneration == session.generation, let shown = session.shown,
                  !shown.lines.isEmpty else { return }
            bound.reloadRow = nil
            perform(.select(min(row, shown.lines.count - 1)))
            return
        }
        guard let wanted = bound.reloadTrack else { return }
        guard session.resultGeneration == session.generation, let shown = session.shown else { return }
        let seen = (session.generation, shown.searched)
        guard seen != bound.trackSeen else { return }
        bound.trackSeen = seen
        let lines = linesAsRead
        if let at = shown.lines.firstIndex(where: { lines.bytes(of: Int($0)).elementsEqual(wanted) }) {
            bound.reloadTrack = nil
            if at != session.selection { perform(.select(at)) }
        } else if !input.isLoading && shown.isComplete {
            bound.reloadTrack = nil
            let position = min(bound.reloadPosition.row, shown.lines.count - 1)
            if session.selection == 0 && position > 0 && query == bound.reloadPosition.query { perform(.select(position)) }
        }
    }
}
