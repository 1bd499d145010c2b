// What a bound action does, decided here: a function of the session's state, the action
// (its argument already a typed value, `ActionArgument`), what set it off and the picker's
// screen (`ActionContext`), giving the effects the executable carries out in order. It may
// change the session's own state for `--bind` (`bound`: where a cycling action stands, the
// sort). The executable decides nothing about actions; it feeds `.event`s back to the
// session (`PickSession.handle`) and does the rest: edit the query line, run a command and
// read its output, scroll the preview pane, end, draw. pick's own keys are bindings of the
// same actions (DefaultKeys.swift).
//
// How to add an action (fzf's `foo-bar`):
// 1. a case in `BindActionKind` (Bindings.swift) with fzf's name as its raw value and a
//    `summary` line for the F1 help; if it takes an argument, list it in `takesArgument`
//    and, when the argument is more than text, give it an `ActionArgument` case parsed in
//    `ActionArgument.parse` (a bad one is refused when the binding is read);
// 2. a branch in `PickSession.decide` below returning its effects — new effects only
//    when none of `ActionEffect`'s can say it (and then one branch in the executable's
//    `Picker.carryOut`, Sources/Pick/Picker/Actions.swift); what the screen must tell
//    (a size, whether a pane shows) goes in `ActionContext`;
// 3. a unit test in Tests/PickCoreTests/Session/ActionPolicyTests.swift, and the man
//    page's line for it.
// A command's output comes back through `transformed` (a transform's, in the foreground or
// the background: bg-transform…) or as new input (a reload's).

/// What the picker's screen says when an action fires.
public struct ActionContext {
    /// Rows a page moves (the list's height less one).
    public var pageRows: Int
    /// The list reads down from the prompt (pick's default, fzf's reverse): up moves toward
    /// the start of the list.
    public var listReadsDown: Bool
    /// A reload earlier in the chain now running has not shown its lines yet: first, last
    /// and pos act on them once they come.
    public var awaitsReloadedLines = false
    /// How many lines the list held before that reload (fzf keeps its cursor's index).
    public var rowsBeforeReload = 0
    /// The query line's cursor is at its end.
    public var cursorAtEnd = true
    /// The query the dim suggestion (the ghost text) completes to, if one shows.
    public var completion: String? = nil
    /// How many scopes the list has (All and each section; 0 when no line has one).
    public var scopes = 0
    /// The preview pane, with `--preview`: whether it shows, and the rows its text takes.
    public var preview: (shown: Bool, rows: Int)? = nil
    /// The list's window as the next frame draws it (ListWindow.swift): pages and scrolls
    /// count its rows. Nil: a window of `pageRows + 1` rows, an item a row.
    public var window: ListWindow? = nil

    public init(pageRows: Int, listReadsDown: Bool, awaitsReloadedLines: Bool = false, rowsBeforeReload: Int = 0,
                cursorAtEnd: Bool = true, completion: String? = nil, scopes: Int = 0,
                preview: (shown: Bool, rows: Int)? = nil, window: ListWindow? = nil) {
        self.window = window
        self.pageRows = pageRows
        self.listReadsDown = listReadsDown
        self.awaitsReloadedLines = awaitsReloadedLines
        self.rowsBeforeReload = rowsBeforeReload
        self.cursorAtEnd = cursorAtEnd
        self.completion = completion
        self.scopes = scopes
        self.preview = preview
    }
}

/// A key of the query line's editor that an action presses.
public enum EditorKey: Equatable, Sendable {
    case home, end, left, right, wordBefore, wordAfter, delete, backspace
    case killToEnd, killToStart, killWordBefore, killWordAfter, yank
    /// unix-word-rubout: back to white space (readline's and fzf's ctrl-w).
    case killBlankWordBefore
    /// fzf's subwords: camelCase humps and runs of letters and digits (QueryEdit).
    case subwordBefore, subwordAfter, killSubwordBefore, killSubwordAfter
}

/// How pick ends.
public enum Ending: Equatable, Sendable {
    /// Print the chosen lines (exit 0).
    case accept
    /// Print the chosen lines, if any line is chosen; otherwise go on.
    case acceptIfChosen
    /// Print the query and end.
    case printQuery
    /// Print the chosen lines if any line is chosen, else the query (accept-or-print-query).
    case acceptOrPrintQuery
    /// Cancel (exit 130).
    case cancel
}

/// A part with a label of its own.
public enum LabelledPart: Equatable, Sendable {
    case list, input, header, footer, preview
}

/// What the preview pane is to do.
public enum PreviewEffect: Equatable, Sendable {
    /// Show it if hidden, hide it if shown.
    case toggle
    /// Scroll its text by this many lines (or pages).
    case scroll(by: Int, pages: Bool)
    /// Run its command again, its output from the top.
    case refresh
    /// Preview with this command from now on.
    case setCommand(CommandTemplate)
    /// Lay it out as this `--preview-window` layout says, over the option as given.
    case setWindow(String)
    /// Show it, previewing with this command once (preview(…)) until the highlight moves.
    case once(CommandTemplate)
    /// Wrap its long lines or cut them, as toggle-wrap does the list's (`word`: after a
    /// blank, toggle-preview-wrap-word).
    case toggleWrap(word: Bool)
}

/// How a command an action names runs.
public enum CommandUse: Equatable, Sendable {
    /// execute: on the terminal, pick back as it was when it ends.
    case onTerminal
    /// execute-silent: without the terminal, the chain waiting for it.
    case silent
    /// become: in pick's place.
    case become
    /// reload, reload-sync: its output the new input (sync: shown once read whole).
    case reload(sync: Bool)
    /// transform and transform-*: the chain waiting for its output; bg-transform…: beside
    /// the chain. Its output is handed to `transformed`.
    case transform
}

/// What the executable does for an action, in order.
public enum ActionEffect {
    /// Hand this to the session (`PickSession.handle`) and run what it returns.
    case event(SessionEvent)
    /// Rank the whole list first (marking every match needs them all): run
    /// `wholeResultJob()` until it is nil.
    case rankWholeList
    /// Once the reload's lines come, highlight this row (clamped to the list).
    case highlightOnceReloaded(row: Int)
    /// Replace the query line's text.
    case replaceQuery(String)
    /// Type this at the cursor.
    case insert(String)
    /// Press this key of the query editor.
    case edit(EditorKey)
    /// End pick.
    case end(Ending)
    /// exclude (the highlighted line) or exclude-multi (the marked ones, or the highlighted).
    case exclude(marked: Bool)
    case setPrompt(String)
    /// nil: no header.
    case setHeader(String?)
    case setBorderLabel(String)
    /// A part's label (change-list-label, change-input-label…).
    case setLabel(LabelledPart, String)
    /// nil: no footer.
    case setFooter(String?)
    /// Show the header and header lines, hide them, or (nil) the other of the two.
    case showHeader(Bool?)
    /// Turn the query's filtering on or off (the session's `filters`), then search again.
    case setFilters(Bool)
    /// Show the prompt's row and the info line, or hide them (`PickSession.inputHidden`).
    case showInput(Bool)
    /// Turn these triggers off (unbind) or on again (rebind).
    case unbind([BindTrigger])
    case rebind([BindTrigger])
    /// Fire this event's bindings (backward-eof).
    case fire(BindEvent)
    /// Label the rows on screen; the next key goes to its label's row (jump), and picks it
    /// (jump-accept).
    case jump(accepts: Bool)
    /// Search for this text, the query line left as it is (nil: the query again).
    case search(String?)
    /// The text shown in place of an empty query (`--ghost`).
    case setGhost(String)
    /// The pointer (at most 2 columns).
    case setPointer(String)
    /// How many first lines are the header (`--header-lines`).
    case setHeaderLines(Int)
    /// Run the chains bound to these triggers first (trigger(…)): `BoundState.runChains`.
    case runChains([BindTrigger])
    /// Hold the rest of the chain until the search ends (`BoundState.waitsForSearch`).
    case waitForSearch
    /// Set the query to the highlighted line as shown.
    case replaceQueryWithLine
    /// Ring the terminal's bell.
    case bell
    /// Stop every background transform, their output dropped.
    case cancelBackground
    /// Add this text to what is printed on accept (print(…)).
    case print(String)
    /// Run these actions before the rest of the chain (a transform's output).
    case queueFirst([BoundAction])
    /// Tab: the next of the query's completions (the executable runs the jobs it needs).
    case complete
    /// Show the F1 help over the list.
    case showHelp
    /// Replace the query with the older or newer query of `--history`.
    case walkHistory(older: Bool)
    /// Paint pick's rows again where they are.
    case redrawScreen
    /// `--remember`: forget this line (as read), then search again.
    case forget(Int32)
    /// Give the terminal back and stop the job (fg resumes).
    case suspend
    /// Sort the list by score or not (toggle-sort), then search again.
    case setSort(Bool)
    /// Search these fields of the lines as read from now on (nil: the whole line), the
    /// highlight staying on its line.
    case setNth(FieldRanges?)
    /// Show these fields (or what this template makes of them) from now on (nil: the whole
    /// line), the highlight staying on its line.
    case setWithNth(FieldTemplate?)
    case preview(PreviewEffect)
    /// Run the action's command (its `ActionArgument.command`) so.
    case command(CommandUse, BoundAction)
}

extension PickSession {
    /// The index of the next of `count` field choices of the spec `cycle` (round), and the
    /// field options pick started with (what an empty choice goes back to).
    private mutating func nextFieldChoice(_ cycle: String, of count: Int)
        -> (Int, (nth: FieldRanges?, withNth: FieldTemplate?)) {
        let index = bound.fieldCycle[cycle, default: 0] % count
        bound.fieldCycle[cycle] = index + 1
        let started = bound.fieldsAsStarted ?? (settings.nth, settings.withNth)
        bound.fieldsAsStarted = started
        return (index, started)
    }

    /// What `action`, set off by `trigger`, does now (see the top of this file). While the
    /// input is hidden, what would change the query is dropped, as fzf drops it. While a
    /// reload's tracking holds the picker (`trackBlocked`), only what turns tracking off runs,
    /// and abort or cancel end the hold instead of pick (fzf's); `passesHold`: the action
    /// comes from a bg-transform's output, which is applied all the same.
    public mutating func decide(_ action: BoundAction, trigger: BindTrigger, context: ActionContext,
                                passesHold: Bool = false) -> [ActionEffect] {
        if trackBlocked && !passesHold {
            switch action.kind {
            case .toggleTrack, .toggleTrackCurrent, .untrackCurrent: break
            case .abort, .cancel: return [.event(.track(.unblock))]
            default: return []
            }
        }
        let effects = decideShown(action, trigger: trigger, context: context)
        guard inputHidden else { return effects }
        return effects.filter {
            switch $0 {
            case .replaceQuery, .insert, .edit, .walkHistory, .replaceQueryWithLine, .complete, .fire(.backwardEOF):
                return false
            default:
                return true
            }
        }
    }

    /// The window the context gives, or one of `pageRows + 1` rows over the list, a row each.
    private func listWindow(_ context: ActionContext) -> ListWindow {
        context.window ?? ListWindow(count: shown?.lines.count ?? 0, rows: context.pageRows + 1)
    }

    private mutating func decideShown(_ action: BoundAction, trigger: BindTrigger, context: ActionContext) -> [ActionEffect] {
        let up = context.listReadsDown ? -1 : 1
        let page = max(1, context.pageRows)
        let query = queryText ?? ""
        switch action.kind {
        case .ignore: return []
        case .accept: return [.end(.accept)]
        case .acceptNonEmpty: return [.end(.acceptIfChosen)]
        case .abort: return [.end(.cancel)]
        // cancel kills the query (ctrl-y puts it back), as fzf's.
        case .cancel: return query.isEmpty ? [.end(.cancel)] : [.edit(.end), .edit(.killToStart)]
        case .printQuery: return [.end(.printQuery)]
        case .acceptOrPrintQuery: return [.end(.acceptOrPrintQuery)]
        case .first, .last, .pos:
            // fzf's positions: 1 the first line, -1 the last.
            let position: Int
            switch action.kind {
            case .first: position = 1
            case .last: position = -1
            default:
                guard case .position(let p) = action.value else { return [] }
                position = p
            }
            if context.awaitsReloadedLines {
                return [.highlightOnceReloaded(row: max(0, position > 0 ? position - 1 : context.rowsBeforeReload + position))]
            }
            var effects: [ActionEffect] = [.event(.move(by: position < 0 ? Int(Int32.max) : -Int(Int32.max), wraps: false))]
            if position > 1 || position < -1 {
                effects.append(.event(.move(by: position < 0 ? position + 1 : position - 1, wraps: false)))
            }
            return effects
        case .up: return [.event(.move(by: up, wraps: true))]
        case .down: return [.event(.move(by: -up, wraps: true))]
        case .upMatch: return [.event(.moveToMatch(by: up, wraps: true))]
        case .downMatch: return [.event(.moveToMatch(by: -up, wraps: true))]
        case .upSelected: return [.event(.moveToMarked(by: up))]
        case .downSelected: return [.event(.moveToMarked(by: -up))]
        case .best: return [.event(.best)]
        // offset-up shows the lines above (vim's ctrl-y): the list's text moves down.
        case .offsetUp, .offsetDown:
            let window = listWindow(context)
            let moved = window.scroll(selection: selection, scroll: scroll,
                                      direction: action.kind == .offsetUp ? up : -up)
            scroll = moved.scroll
            return [.event(moved.selection == selection ? .redraw : .move(by: moved.selection - selection, wraps: false))]
        case .offsetMiddle:
            scroll = listWindow(context).middle(selection: selection, scroll: scroll)
            return [.event(.redraw)]
        case .enableRaw, .disableRaw, .toggleRaw:
            let wanted = action.kind == .toggleRaw ? !raw : action.kind == .enableRaw
            guard wanted != raw else { return [] }
            // Moves typed since the last toggle are made first, on the list they were for
            // (fzf's: there, that list came before them).
            return (movesWait ? [.rankWholeList] : []) + [.event(.raw(wanted))]
        case .hideInput, .showInput, .toggleInput:
            let hidden = action.kind == .toggleInput ? !inputHidden : action.kind == .hideInput
            guard hidden != inputHidden else { return [] }
            inputHidden = hidden
            return [.showInput(!hidden)]
        case .trackCurrent: return [.event(.track(.current))]
        case .untrackCurrent: return [.event(.track(.noCurrent))]
        case .toggleTrack: return [.event(.track(.toggleAll))]
        case .toggleTrackCurrent: return [.event(.track(.toggleCurrent))]
        case .clearMulti: return [.event(.clearMarks)]
        case .changeMulti:
            // No argument: no limit; 0: marking off; an argument that is no count changes
            // nothing (fzf accepts it so).
            if case .count(let limit) = action.value { return [.event(.multi(limit: limit == 0 ? 0 : limit))] }
            return action.argument == nil ? [.event(.multi(limit: nil))] : []
        case .jump, .jumpAccept: return [.jump(accepts: action.kind == .jumpAccept)]
        case .pageUp, .pageDown, .halfPageUp, .halfPageDown:
            // A page less one row, or half the rows (fzf's); over items of many rows, as far
            // as the window allows without passing one unseen (ListWindow.page).
            let half = action.kind == .halfPageUp || action.kind == .halfPageDown
            let direction = action.kind == .pageUp || action.kind == .halfPageUp ? up : -up
            guard let window = context.window, window.spans, let count = shown?.lines.count, selection < count else {
                return [.event(.move(by: direction * max(1, half ? (page + 1) / 2 : page), wraps: false))]
            }
            let moved = window.page(selection: selection, scroll: scroll, direction: direction, half: half)
            scroll = moved.scroll
            return [.event(.move(by: moved.selection - selection, wraps: false))]
        case .toggle: return togglesMark ? [.event(.toggleMark)] : []
        case .toggleDown, .toggleUp:
            // Tab and shift-Tab: never wrapping (marking past the end would mark from the top).
            // A line that cannot be marked (`--multi=MAX` reached) keeps the highlight, as fzf's.
            guard togglesMark else { return [] }
            return [.event(.toggleMark), .event(.move(by: action.kind == .toggleDown ? -up : up, wraps: false))]
        case .toggleIn, .toggleOut:
            // fzf's: toggle-in moves toward the prompt (up when the list reads down from it),
            // toggle-out away from it.
            let toward = (action.kind == .toggleIn) == context.listReadsDown ? up : -up
            guard togglesMark else { return [] }
            return [.event(.toggleMark), .event(.move(by: toward, wraps: true))]
        case .select, .deselect:
            guard settings.multi, let line = highlighted, markSet.contains(line) == (action.kind == .deselect) else {
                return []
            }
            return [.event(.toggleMark)]
        case .selectAll, .toggleAll:
            guard settings.multi else { return [] }
            return [.rankWholeList, .event(.marks(action.kind == .selectAll ? .all : .invert))]
        case .deselectAll: return [.event(.marks(.none))]
        case .exclude, .excludeMulti: return [.exclude(marked: action.kind == .excludeMulti)]
        case .clearQuery: return [.replaceQuery("")]
        case .changeQuery: return [.replaceQuery(action.argument ?? "")]
        case .put:
            let key: Key? = if case .key(let k) = trigger { k } else { nil }
            return (action.argument ?? key.flatMap(KeyNames.printable)).map { [.insert($0)] } ?? []
        case .changePrompt: return [.setPrompt(action.argument ?? "")]
        case .changeHeader: return [.setHeader((action.argument ?? "").isEmpty ? nil : action.argument)]
        case .changeBorderLabel: return [.setBorderLabel(action.argument ?? "")]
        case .changeListLabel: return [.setLabel(.list, action.argument ?? "")]
        case .changeInputLabel: return [.setLabel(.input, action.argument ?? "")]
        case .changeHeaderLabel: return [.setLabel(.header, action.argument ?? "")]
        case .changeFooterLabel: return [.setLabel(.footer, action.argument ?? "")]
        case .changePreviewLabel: return [.setLabel(.preview, action.argument ?? "")]
        case .changeFooter: return [.setFooter((action.argument ?? "").isEmpty ? nil : action.argument)]
        case .toggleHeader: return [.showHeader(nil)]
        case .showHeader, .hideHeader: return [.showHeader(action.kind == .showHeader)]
        case .enableSearch, .disableSearch, .toggleSearch:
            let wanted = action.kind == .toggleSearch ? !filters : action.kind == .enableSearch
            return wanted == filters ? [] : [.setFilters(wanted)]
        case .unbind, .rebind:
            guard case .triggers(let targets) = action.value else { return [] }
            return action.kind == .unbind ? [.unbind(targets)] : [.rebind(targets)]
        case .toggleBind:
            guard case .triggers(let targets) = action.value else { return [] }
            let on = targets.filter { bound.unbound.contains($0) }, off = targets.filter { !bound.unbound.contains($0) }
            return (off.isEmpty ? [] : [.unbind(off)]) + (on.isEmpty ? [] : [.rebind(on)])
        case .trigger:
            guard case .triggers(let targets) = action.value else { return [] }
            return [.runChains(targets)]
        case .search: return [.search(action.argument ?? "")]
        case .changeGhost: return [.setGhost(TerminalText.sanitize(action.argument ?? ""))]
        case .changePointer:
            guard case .text(let pointer) = action.value, TerminalText.width(pointer) <= 2 else { return [] }
            return [.setPointer(pointer)]
        case .changeHeaderLines:
            guard case .count(let count) = action.value else { return [] }
            return count == settings.headerLines ? [] : [.setHeaderLines(count)]
        case .wait: return searchSettled ? [] : [.waitForSearch]
        case .print: return [.print(action.argument ?? "")]
        case .replaceQuery: return highlighted == nil ? [] : [.replaceQueryWithLine]
        case .bell: return [.bell]
        case .close: return context.preview?.shown == true ? [.preview(.toggle)] : [.end(.cancel)]
        case .bgCancel: return [.cancelBackground]
        case .transform, .transformQuery, .transformPrompt, .transformHeader, .transformBorderLabel,
             .transformSearch, .transformGhost, .transformPointer, .transformNth, .transformWithNth,
             .transformHeaderLines, .bgTransform, .bgTransformQuery, .bgTransformPrompt, .bgTransformHeader,
             .bgTransformBorderLabel, .bgTransformSearch, .bgTransformGhost, .bgTransformPointer, .bgTransformNth,
             .bgTransformWithNth, .bgTransformHeaderLines, .bgTransformListLabel, .bgTransformInputLabel,
             .bgTransformHeaderLabel, .bgTransformPreviewLabel, .bgTransformFooter, .bgTransformFooterLabel:
            // The chain waits for a transform's output; a bg-transform's runs beside it.
            return [.command(.transform, action)]
        case .beginningOfLine: return [.edit(.home)]
        case .endOfLine: return [.edit(.end)]
        case .backwardChar: return [.edit(.left)]
        case .forwardChar: return [.edit(.right)]
        case .backwardWord: return [.edit(.wordBefore)]
        case .forwardWord: return [.edit(.wordAfter)]
        case .deleteChar: return [.edit(.delete)]
        case .backwardDeleteChar: return query.isEmpty ? [.fire(.backwardEOF)] : [.edit(.backspace)]
        case .deleteCharEOF: return query.isEmpty ? [.end(.cancel)] : [.edit(.delete)]
        case .backwardDeleteCharEOF: return query.isEmpty ? [.end(.cancel)] : [.edit(.backspace)]
        case .killLine: return [.edit(.killToEnd)]
        case .unixLineDiscard: return query.isEmpty ? [.fire(.backwardEOF)] : [.edit(.killToStart)]
        case .killWord: return [.edit(.killWordAfter)]
        case .backwardKillWord: return query.isEmpty ? [.fire(.backwardEOF)] : [.edit(.killWordBefore)]
        case .unixWordRubout: return query.isEmpty ? [.fire(.backwardEOF)] : [.edit(.killBlankWordBefore)]
        case .backwardSubword: return [.edit(.subwordBefore)]
        case .forwardSubword: return [.edit(.subwordAfter)]
        case .killSubword: return [.edit(.killSubwordAfter)]
        case .backwardKillSubword: return query.isEmpty ? [.fire(.backwardEOF)] : [.edit(.killSubwordBefore)]
        case .yank: return [.edit(.yank)]
        case .complete: return [.complete]
        case .takeGhost:
            if context.cursorAtEnd, let completion = context.completion { return [.replaceQuery(completion)] }
            return [.edit(.right)]
        case .help: return [.showHelp]
        case .prevHistory, .nextHistory: return [.walkHistory(older: action.kind == .prevHistory)]
        case .nextScope: return context.scopes > 1 ? [.event(.scope((scope + 1) % context.scopes))] : []
        case .nextLine: return [.event(.move(by: 1, wraps: true))]
        case .clearScreen: return [.redrawScreen]
        case .forget: return highlighted.map { [.forget($0)] } ?? []
        case .suspend: return [.suspend]
        case .toggleHscroll:
            var look = self.look
            look.hscroll.toggle()
            return [.event(.look(look))]
        case .toggleWrap, .toggleWrapWord:
            var look = self.look
            look.toggleWrap(word: action.kind == .toggleWrapWord)
            return [.event(.look(look))]
        case .toggleMultiLine:
            var look = self.look
            look.multiLine.toggle()
            return [.event(.look(look))]
        case .togglePreviewWrap, .togglePreviewWrapWord:
            return context.preview == nil ? [] : [.preview(.toggleWrap(word: action.kind == .togglePreviewWrapWord))]
        case .toggleSort:
            let sorts = !(bound.sorts ?? settings.sorts)
            bound.sorts = sorts
            return [.setSort(sorts)]
        case .changeNth, .changeWithNth:
            // The next of the choices, round; an empty one is the option as given. An empty
            // change-nth (no choices at all) searches the whole line, as fzf's.
            let argument = action.argument ?? ""
            switch action.value {
            case .fields(let choices):
                guard !choices.isEmpty else { return [] }
                if argument.isEmpty { return [.setNth(nil)] }
                let (index, started) = nextFieldChoice("nth:" + argument, of: choices.count)
                return [.setNth(choices[index] ?? started.nth)]
            case .shownFields(let choices):
                guard !choices.isEmpty else { return [] }
                let (index, started) = nextFieldChoice("with-nth:" + argument, of: choices.count)
                return [.setWithNth(choices[index] ?? started.withNth)]
            default: return []
            }
        case .togglePreview: return context.preview == nil ? [] : [.preview(.toggle)]
        case .showPreview, .hidePreview:
            guard let pane = context.preview, pane.shown != (action.kind == .showPreview) else { return [] }
            return [.preview(.toggle)]
        case .previewUp, .previewDown, .previewPageUp, .previewPageDown:
            guard context.preview != nil else { return [] }
            let upward = action.kind == .previewUp || action.kind == .previewPageUp
            return [.preview(.scroll(by: upward ? -1 : 1,
                                     pages: action.kind == .previewPageUp || action.kind == .previewPageDown))]
        case .previewHalfPageUp, .previewHalfPageDown, .previewTop, .previewBottom:
            guard let pane = context.preview else { return [] }
            let step = action.kind == .previewHalfPageUp || action.kind == .previewHalfPageDown
                ? max(1, pane.rows / 2) : Int(Int32.max)
            let upward = action.kind == .previewHalfPageUp || action.kind == .previewTop
            return [.preview(.scroll(by: upward ? -step : step, pages: false))]
        case .refreshPreview: return context.preview == nil ? [] : [.preview(.refresh)]
        case .preview:
            guard context.preview != nil, case .command(let template) = action.value else { return [] }
            return [.preview(.once(template))]
        case .changePreview:
            guard context.preview != nil, case .command(let template) = action.value else { return [] }
            return [.preview(.setCommand(template))]
        case .changePreviewWindow:
            // The next of the layouts, round, as fzf cycles them.
            guard context.preview != nil, case .layouts(let layouts) = action.value, !layouts.isEmpty else { return [] }
            let cycle = action.argument ?? ""
            let index = bound.windowCycle[cycle, default: 0] % layouts.count
            bound.windowCycle[cycle] = index + 1
            return [.preview(.setWindow(layouts[index]))]
        case .execute, .executeSilent, .executeMulti, .become, .reload, .reloadSync:
            // With no line focused, a command that needs one does not run (fzf's).
            guard case .command(let template) = action.value else { return [] }
            if highlighted == nil, !template.runsWithoutFocus(marked: !marks.isEmpty) { return [] }
            let use: CommandUse = switch action.kind {
            case .execute, .executeMulti: .onTerminal
            case .executeSilent: .silent
            case .become: .become
            default: .reload(sync: action.kind == .reloadSync)
            }
            return [.command(use, action)]
        case .transformListLabel, .transformInputLabel, .transformHeaderLabel, .transformFooterLabel, .transformFooter,
             .transformPreviewLabel:
            // A transform's command runs without a focused line too, its output replacing
            // what it transforms.
            return [.command(.transform, action)]
        }
    }

    /// What a transform's output (`text`, its trailing newlines gone) does: the effects of
    /// the action it stands for (`BindActionKind.transformed`) with that output as its
    /// argument. A one-line action takes the first line; `transform`'s output is a chain of
    /// actions (one that does not parse is dropped, as fzf drops it); output that a change
    /// would refuse (a pointer too wide, a count that is no count) does nothing.
    public mutating func transformed(_ action: BoundAction, output text: String, trigger: BindTrigger,
                                     context: ActionContext) -> [ActionEffect] {
        guard let kind = action.kind.transformed else { return [] }
        let firstLine = String(text.prefix { $0 != "\n" && $0 != "\r" })
        switch kind {
        case .transform:
            guard let chain = try? Bindings.chain(text, for: trigger) else { return [] }
            return [.queueFirst(chain)]
        case .changeHeader: return [.setHeader(text.isEmpty ? nil : text)]
        case .changeFooter: return [.setFooter(text.isEmpty ? nil : text)]
        case .changeNth, .changeWithNth:
            // fzf takes the first of `A|B`; an empty or unreadable one is the option as given
            // (for with-nth an unreadable one changes nothing); no output at all unsets --nth.
            let first = String(firstLine.prefix { $0 != "|" })
            let started = bound.fieldsAsStarted ?? (settings.nth, settings.withNth)
            bound.fieldsAsStarted = started
            if kind == .changeWithNth {
                if first.isEmpty { return [.setWithNth(started.withNth)] }
                guard let template = FieldTemplate(parsing: first) else { return [] }
                return [.setWithNth(template)]
            }
            if firstLine.isEmpty { return [.setNth(nil)] }
            if first.isEmpty { return [.setNth(started.nth)] }
            guard let ranges = try? FieldRanges(parsing: first) else { return [.setNth(started.nth)] }
            return [.setNth(ranges)]
        default:
            guard let argument = try? ActionArgument.parse(kind, firstLine) else { return [] }
            return decide(BoundAction(kind, firstLine, value: argument), trigger: trigger, context: context,
                          passesHold: action.kind.runsInBackground)
        }
    }

    /// Whether a toggle would mark or unmark the highlighted line: marking is on, a line is
    /// highlighted, and it is marked or `--multi=MAX` leaves room for it.
    var togglesMark: Bool {
        guard settings.multi, let line = highlighted else { return false }
        return markSet.contains(line) || settings.multiLimit == 0 || marks.count < settings.multiLimit
    }

    /// Whether no search runs nor is due: the input read whole and the query's answer in
    /// (a `wait` goes on at once then).
    public var searchSettled: Bool {
        !isLoading && !isSearching && resultGeneration == generation
    }
}
