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

/// The processes behind `--bind`'s actions (their state is the session's: `PickSession.bound`).
struct BoundCommands {
    /// A running reload, its store, and whether the list waits for the whole of it
    /// (reload-sync) before it shows.
    /// A reload (not -sync) shows once its first line is in, it ends, or the query is edited
    /// by a later key (`key`: the picker's count of keys when it started): until then the
    /// old list stays, as fzf keeps it rather than show an empty one.
    var reload: (run: CommandRun, store: LineStore, fields: FieldView?, styles: AnsiStyles?, sync: Bool, key: Int)? = nil
    /// The reload whose store the picker shows, while it may still stream.
    var streaming: CommandRun? = nil
    /// reload-sync with --multi and --id-nth: the keys of the lines marked when it started.
    var markedKeys: [[UInt8]] = []
    /// A transform running: the chain waits for its output.
    var transform: (run: CommandRun, action: BoundAction, trigger: BindTrigger)? = nil
    /// bg-transform…s running, and the generation each started in (bg-cancel starts a new one:
    /// an older one's output is dropped).
    var background: [(run: CommandRun, action: BoundAction, trigger: BindTrigger, generation: Int)] = []
    var backgroundGeneration = 0
    /// For an action with `Tunables.Children.backgroundPerAction` runs going, the newest of
    /// its runs asked for since (its command line, as expanded then): the older are dropped.
    var backgroundWaiting: [String: (command: [UInt8], environment: [(String, String)], action: BoundAction,
                                     trigger: BindTrigger)] = [:]
}

extension Picker {
    /// Runs what `trigger` is bound to, if anything: the one dispatch for keys and events.
    /// A chain still waiting is dropped for a key's or for the same event's. An unbound trigger does nothing at
    /// all, pick's own use of a key included, as in fzf, but a character types itself (true: the key was taken).
    @discardableResult
    func fire(_ trigger: BindTrigger) -> Bool {
        if session.bound.unbound.contains(trigger) { return !trigger.typesText }
        guard let chain = options.bindings[trigger] else { return false }
        session.bound.reloadInChain = false
        if let waiting = commands.transform {
            // Another event (focus and result fire in one turn) runs after the waiting
            // chain, as fzf runs them in turn; a key, or the same event again, replaces it.
            if !trigger.isKey, trigger != waiting.trigger {
                session.bound.enqueue(chain, firedBy: trigger)
                return true
            }
            waiting.run.cancel()
            commands.transform = nil
            session.bound.clearQueue()
        }
        session.bound.enqueue(chain, firedBy: trigger)
        runBoundActions()
        return true
    }

    /// Runs queued actions until one must wait for libedit or a command, or pick ends.
    func runBoundActions() {
        while !session.bound.queue.isEmpty, pendingAction == nil, outcome == nil, commands.transform == nil, passThrough.isEmpty,
              !session.bound.waitsForSearch, let (action, trigger) = session.bound.next() {
            keyPressed = true
            run(action, trigger)
        }
    }

    /// What the screen tells PickCore when an action is decided.
    func actionContext() -> ActionContext {
        ActionContext(pageRows: geometry.listHeight(headers: headerCount) - 1,
                      listReadsDown: options.layout.listReadsDown,
                      awaitsReloadedLines: awaitsReloadedLines, rowsBeforeReload: session.bound.rowsBeforeReload,
                      cursorAtEnd: cursorAtEnd, completion: options.completionGhost ? completions().first : nil,
                      scopes: Scopes.count(in: store),
                      preview: preview.map { (shown: geometry.pane != nil,
                                              rows: $0.rect.map { $0.text.height - $0.window.headerLines } ?? 0) },
                      window: ListWindow(frameInput(geometry), store: store))
    }

    /// Runs one action: PickCore decides (`PickSession.decide`), this carries it out.
    /// `passesHold`: a bg-transform's output, applied while a reload's tracking holds.
    func run(_ action: BoundAction, _ trigger: BindTrigger, passesHold: Bool = false) {
        let context = actionContext()
        session.bound.ran(action.kind)
        for effect in session.decide(action, trigger: trigger, context: context, passesHold: passesHold) {
            carryOut(effect, trigger)
        }
    }

    /// Does what an action's effect says; decides nothing.
    func carryOut(_ effect: ActionEffect, _ trigger: BindTrigger) {
        switch effect {
        case .event(let event): perform(event)
        case .rankWholeList:
            while let job = session.wholeResultJob(), let answer = worker.run(job) { perform(.answered(answer)) }
        case .highlightOnceReloaded(let row): session.highlightOnceListed(row: row)
        case .replaceQuery(let text): pendingAction = .replaceQuery(text)
        case .insert(let text): pendingAction = .insert(text)
        case .edit(let key): passThrough.append(PrivateKey.of(key))
        case .end(.accept): outcome = .accept(key: nil)
        case .end(.acceptIfChosen):
            // As fzf: an empty input, read whole, accepts too (with --print-query, the query).
            if let lines = chosenLines(), !lines.isEmpty { outcome = .accept(key: nil) }
            else if !input.isLoading && session.candidates == 0 { outcome = .accept(key: nil) }
        case .end(.printQuery): outcome = .printQuery
        case .end(.acceptOrPrintQuery):
            if let lines = chosenLines(), !lines.isEmpty { outcome = .accept(key: nil) } else { outcome = .printQuery }
        case .end(.cancel): outcome = .cancel(130)
        case .exclude(let marked): exclude(marked: marked)
        case .setPrompt(let text): changePrompt(text)
        case .setHeader(let text): changeHeader(text ?? "")
        case .setBorderLabel(let text): changeBorderLabel(text)
        case .setLabel(let part, let text): changeLabel(part, text)
        case .setFooter(let text): changeFooter(text ?? "")
        case .showHeader(let shown):
            let shows = shown ?? hidesHeader
            if shows == hidesHeader {
                hidesHeader = !shows
                layoutChanged()
            }
        case .showInput(let shown): inputShownOrHidden(shown)
        case .setFilters(let filters):
            // Off, the list stays as it is (the query it was filtered by goes on filtering).
            session.filters = filters
            editor.restylePrompt()
            layoutChanged()
            parsedQuery = worker.engine.parse(session.searchedText)
            if filters || session.searchOverride != nil { perform(.searchAgain) }
        case .unbind(let targets): session.bound.unbound.formUnion(targets)
        case .rebind(let targets): session.bound.unbound.subtract(targets)
        case .fire(let event): fire(.event(event))
        case .jump(let accepts): startJump(accepts: accepts)
        case .search(let text):
            session.searchOverride = text
            parsedQuery = worker.engine.parse(session.searchedText)
            perform(.searchAgain)
        case .setGhost(let text):
            options.ghost = text
            perform(.redraw)
        case .setPointer(let pointer):
            gutter.pointer = pointer
            lastFrame = []
            perform(.redraw)
        case .setHeaderLines(let count): changeHeaderLines(count)
        case .runChains(let targets): session.bound.runChains(of: targets, in: options.bindings, firedBy: trigger)
        case .waitForSearch:
            session.bound.waitsForSearch = true
            perform(.redraw)
        case .replaceQueryWithLine:
            if let line = session.highlighted {
                // The line as the list shows it (its visible text: the store holds no colour codes).
                let shown = fieldView.map { view in
                    let shown = view.shown(Int(line))
                    return Array(shown.bytes[shown.title])
                } ?? Array(store.bytes(of: Int(line))[store.fields(of: Int(line)).title])
                pendingAction = .replaceQuery(String(decoding: shown, as: UTF8.self))
            }
        case .bell: terminal.write("\u{07}")
        case .print(let text): session.bound.printed.append(text)
        case .queueFirst(let chain): session.bound.queue.insert(contentsOf: chain.map { ($0, trigger) }, at: 0)
        case .cancelBackground: cancelBackground()
        case .complete: complete()
        case .showHelp:
            shortcuts.learn(from: store)
            let has = (multi: options.multi, preview: preview != nil, history: options.history != nil)
            help = HelpOverlay(lines: bindingHelp() + keyHelp(multi: has.multi, preview: has.preview, history: has.history)
                               + shortcuts.helpLines(store: store)
                               + keyHelp(multi: has.multi, preview: has.preview, history: has.history, mouse: true)
                               + [""] + bindableHelp())
        case .walkHistory(let older):
            if let text = history.walk(older: older, from: query) { pendingAction = .replaceQuery(text) }
        case .redrawScreen: redrawInPlace()
        case .forget(let line): forget(line)
        case .suspend: suspend(viaKey: true)
        case .setSort:
            replaceEngine(over: store)
            perform(.searchAgain)
        case .setNth(let ranges): changeFields { $0.nth = ranges }
        case .setWithNth(let template): changeFields(withNth: true) { $0.withNth = template }
        case .preview(let effect): carryOut(effect)
        case .command(let use, let action): runCommand(use, action, trigger)
        }
    }

    /// Does what the preview pane is to do (PickCore decided it has one).
    func carryOut(_ effect: PreviewEffect) {
        guard let preview else { return }
        switch effect {
        case .toggle: togglePreview()
        case .scroll(let rows, let pages):
            preview.scroll(by: rows, pages: pages, at: monotonicMillis())
            perform(.redraw)
        case .refresh: refreshPreview()
        case .setCommand(let template):
            preview.template = template
            // No command: the pane closes (fzf's); a command again opens it.
            if preview.commandCleared != template.isEmpty {
                preview.commandCleared = template.isEmpty
                layoutChanged()
            }
            refreshPreview()
        case .setWindow(let layout): changePreviewWindow(layout)
        case .once(let template): previewOnce(template)
        case .toggleWrap(let word):
            // The same text, folded anew: the command does not run again.
            preview.window.toggleWrap(word: word)
            layoutChanged()
        }
    }

    /// Whether a reload ran earlier in this chain: a move waits for its lines
    /// (`reload(…)+last`), as in fzf, where they always come after the chain.
    var awaitsReloadedLines: Bool {
        commands.streaming != nil && session.bound.reloadInChain
    }

    /// Searches `store` with a new engine: the sort toggle-sort left, the matching options,
    /// and the memory of `--remember` the old engine had.
    func replaceEngine(over store: LineStore) {
        var ranking = options.ranking
        ranking.sorts = session.bound.sorts ?? options.ranking.sorts
        let engine = SearchEngine(store: store, matching: options.matching, ranking: ranking,
                                  skippedLines: options.headerLines, keepsLast: options.tail)
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
        let row = session.selection
        perform(.searchAgain)
        session.highlightOnceListed(row: row)
    }

    /// change-nth, change-with-nth (PickCore chose the fields; `change` sets them): the
    /// lines the engine searches are derived again from the lines as read (FieldView) and
    /// searched again; the highlight stays on its line, as after a reload.
    /// `withNth`: the shown fields changed, so marks the query no longer matches go.
    func changeFields(withNth: Bool = false, _ change: (inout Options) -> Void) {
        change(&options)
        let lines = linesAsRead
        let view: FieldView?
        do { view = try FieldView(options: options, store: lines) } catch { return }
        view?.catchUp(finishing: !input.isLoading)
        let excluded = worker.engine.excludedLines
        session.followHighlight(text: session.highlighted.map { Array(lines.bytes(of: Int($0))) }, in: lines)
        fieldView = view
        store = view?.searched ?? lines
        replaceEngine(over: store)
        worker.engine.exclude(excluded)
        parsedQuery = worker.engine.parse(session.searchedText)
        if withNth { session.dropMarksNotMatchingOnceSearched() }
        perform(.searchAgain)
    }

    /// change-header-lines: the first `count` lines become the header; the highlight stays
    /// on its line (fzf's).
    func changeHeaderLines(_ count: Int) {
        let lines = linesAsRead
        session.followHighlight(text: session.highlighted.map { Array(lines.bytes(of: Int($0))) }, in: lines)
        options.headerLines = count
        shortcuts = LineShortcuts(headerLines: count)
        replaceEngine(over: store)
        session.changeHeaderLines(count)
        layoutChanged()
        perform(.searchAgain)
    }

    /// Lines read since a change-nth/change-with-nth are derived here, once a turn: the
    /// thread reading the input (or a reload) feeds the view it started with. Calls are
    /// serialised by the view, so one both feed is derived once.
    func catchUpChangedFields() {
        guard session.bound.fieldsAsStarted != nil, let view = fieldView, view.derives,
              !view.searched.isFinished else { return }
        view.catchUp(finishing: !input.isLoading)
    }

    /// preview(…): `command` runs once in the pane (shown first if hidden) for the line
    /// focused; once the focus moves, the pane's own command again (fzf's).
    func previewOnce(_ template: CommandTemplate) {
        guard let preview else { return }
        preview.once = (template, session.highlighted)
        if preview.commandCleared {
            preview.commandCleared = false
            layoutChanged()
        }
        if geometry.pane == nil { togglePreview() }
        preview.pane.restart(fromTheTop: true)
        previewTurn()
    }

    /// refresh-preview: the preview's own command (not preview(…)'s) runs again for the
    /// line it shows, its output from the top (fzf's).
    func refreshPreview() {
        preview?.once = nil
        preview?.pane.restart(fromTheTop: true)
        previewTurn()
    }

    /// change-preview-window (PickCore chose the layout): applied over `--preview-window`
    /// as fzf does (an empty one is `--preview-window` itself). The command runs again only
    /// when the pane's size or scroll offset changes; the view stays where it is, and
    /// `follow` keeps to the end again.
    func changePreviewWindow(_ layout: String) {
        guard let preview, var window = try? options.previewWindow.changed(by: layout) else { return }
        if !PreviewWindow.setsWrap(layout) {
            // A toggle's wrapping stays, as fzf's.
            window.wrap = preview.window.wrap
            window.wrapWord = preview.window.wrapWord
        }
        preview.holdView(at: monotonicMillis())
        if window.scroll != preview.window.scroll || window.headerLines != preview.window.headerLines {
            preview.pane.restart()
        }
        preview.window = window
        preview.pane.followAgain()
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

    /// change-list-label and the others: a part's label (`--list-label`…).
    func changeLabel(_ part: LabelledPart, _ text: String) {
        switch part {
        case .list: options.parts.list.label = text
        case .input: options.parts.input.label = text
        case .header: options.parts.header.label = text
        case .footer: options.parts.footer.label = text
        case .preview: options.previewLabel.label = text
        }
        layoutChanged()
    }

    /// show-input, hide-input: the list gives the prompt's and info line's rows back or takes
    /// them; libedit draws the query again where it shows (session.inputHidden is set).
    func inputShownOrHidden(_ shown: Bool) {
        layoutChanged()
        if shown { terminal.write("\u{1B}[?25h") }
    }

    /// change-footer: the footer's lines (none when empty).
    func changeFooter(_ text: String) {
        options.footer = text.isEmpty ? nil : text
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
        if session.bound.waitsForSearch && session.searchSettled {
            session.bound.waitsForSearch = false
            perform(.redraw)
        }
        var watch = session.bound.events
        let events = watch.events(in: session, loading: input.isLoading)
        session.bound.events = watch
        for event in events { fire(.event(event)) }
        if !timers.isEmpty { for timer in timers.fire(at: monotonicMillis()) { fire(timer) } }
    }
}
