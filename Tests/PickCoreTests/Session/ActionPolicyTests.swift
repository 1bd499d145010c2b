@testable import PickCore
import XCTest

/// What `--bind`'s actions (and pick's own keys) do, decided in PickCore and replayed on a
/// session with a real store and engine: no terminal.
final class ActionPolicyTests: XCTestCase {
    /// pick's default layout: the list reads down from the prompt, ten rows a page.
    let screen = ActionContext(pageRows: 10, listReadsDown: true)
    let key = BindTrigger.key(.char(24))

    func driver(_ count: Int = 30, multi: Bool = false, multiLimit: Int = 0) -> Driver {
        var d = Driver(lines: (1...count).map { "line\($0)" }, loading: false,
                       settings: .init(multi: multi, multiLimit: multiLimit))
        d.type("", at: 0)
        return d
    }

    /// Decides `spec` (one --bind chain) and carries out its effects as the picker does;
    /// returns the effects the session does not take itself.
    @discardableResult
    func press(_ d: inout Driver, _ spec: String, context: ActionContext? = nil) -> [ActionEffect] {
        var others: [ActionEffect] = []
        var bindings = Bindings()
        try! bindings.parse("ctrl-x:" + spec)
        for action in bindings[key]! {
            for effect in d.session.decide(action, trigger: key, context: context ?? screen) {
                switch effect {
                case .event(let event): d.send(event)
                case .rankWholeList:
                    while let job = d.session.wholeResultJob() { d.send(.answered(d.answer(job))) }
                default: others.append(effect)
                }
            }
        }
        return others
    }

    func highlighted(_ d: Driver) -> String? { d.text(d.session.highlighted) }

    func testToggleHscrollTurnsHorizontalScrollingOffAndOnAgain() {
        var d = driver()
        d.session.look.hscrollOff = 3
        press(&d, "toggle-hscroll")
        XCTAssertEqual(d.session.look, ListLook(hscroll: false, hscrollOff: 3), "off, the rest kept")
        press(&d, "toggle-hscroll")
        XCTAssertEqual(d.session.look, ListLook(hscroll: true, hscrollOff: 3))
    }

    func testToggleWrapAndToggleWrapWordTurnWrappingAsFzfs() {
        var d = driver()
        press(&d, "toggle-wrap")
        XCTAssertEqual(d.session.look, ListLook(wrap: true), "by characters")
        press(&d, "toggle-wrap-word")
        XCTAssertEqual(d.session.look, ListLook(wrap: true, wrapWord: true), "by words, still wrapping")
        press(&d, "toggle-wrap")
        XCTAssertEqual(d.session.look, ListLook(), "off, and word wrapping with it")
        press(&d, "toggle-wrap-word+toggle-wrap-word")
        XCTAssertEqual(d.session.look, ListLook(), "word wrapping on and off again takes wrapping with it")
    }

    func testToggleMultiLineTurnsItemsOverRowsOnAndOff() {
        var d = driver()
        d.session.look.multiLine = true
        press(&d, "toggle-multi-line")
        XCTAssertFalse(d.session.look.multiLine)
        press(&d, "toggle-multi-line")
        XCTAssertTrue(d.session.look.multiLine)
    }

    func testTogglePreviewWrapActsOnThePaneOnlyWithOne() {
        var d = driver()
        XCTAssertTrue(press(&d, "toggle-preview-wrap").isEmpty, "no preview: nothing")
        let pane = ActionContext(pageRows: 10, listReadsDown: true, preview: (shown: true, rows: 10))
        guard case .preview(.toggleWrap(word: false)) = press(&d, "toggle-preview-wrap", context: pane).first,
              case .preview(.toggleWrap(word: true)) = press(&d, "toggle-preview-wrap-word", context: pane).first else {
            return XCTFail("the pane's wrapping is not toggled")
        }
        var window = PreviewWindow()
        window.toggleWrap(word: true)
        XCTAssertTrue(window.wrap && window.wrapWord)
        window.toggleWrap(word: false)
        XCTAssertFalse(window.wrap || window.wrapWord, "fzf's: wrapping off takes word wrapping with it")
        XCTAssertTrue(PreviewWindow.setsWrap("up,nowrap") && !PreviewWindow.setsWrap("border-bold"),
                      "change-preview-window keeps a toggle unless it says how to wrap")
    }

    func testMovingUpAndDownFollowsTheLayout() {
        var d = driver()
        press(&d, "down+down")
        XCTAssertEqual(highlighted(d), "line3")
        press(&d, "up")
        XCTAssertEqual(highlighted(d), "line2")
        press(&d, "down", context: ActionContext(pageRows: 10, listReadsDown: false))
        XCTAssertEqual(highlighted(d), "line1", "with the prompt at the bottom, down goes toward the start")
    }

    func testFirstLastAndPos() {
        var d = driver()
        press(&d, "last")
        XCTAssertEqual(highlighted(d), "line30")
        press(&d, "first")
        XCTAssertEqual(highlighted(d), "line1")
        press(&d, "pos(5)")
        XCTAssertEqual(highlighted(d), "line5")
        press(&d, "pos(-2)")
        XCTAssertEqual(highlighted(d), "line29", "-1 is the last line, -2 the one before")
    }

    func testPosRightAfterAReloadWaitsForItsLines() {
        var d = driver()
        let effects = press(&d, "pos(-1)", context: ActionContext(pageRows: 10, listReadsDown: true,
                                                                   awaitsReloadedLines: true, rowsBeforeReload: 30))
        guard case .highlightOnceReloaded(let row) = effects.first else { return XCTFail("\(effects)") }
        XCTAssertEqual(row, 29, "counted over the list before the reload, as fzf keeps its index")
        XCTAssertEqual(highlighted(d), "line1", "nothing moved in the old list")
    }

    func testPagingMovesAPageOrHalfOneAndStopsAtTheEnds() {
        var d = driver()
        press(&d, "page-down")
        XCTAssertEqual(highlighted(d), "line11")
        press(&d, "half-page-down")
        XCTAssertEqual(highlighted(d), "line16")
        press(&d, "page-down+page-down+page-down")
        XCTAssertEqual(highlighted(d), "line30", "paging stops at the last line")
        press(&d, "half-page-up")
        XCTAssertEqual(highlighted(d), "line25")
        press(&d, "page-up+page-up+page-up")
        XCTAssertEqual(highlighted(d), "line1")
    }

    func testMarkingNeedsMultiAndSelectDeselectAreIdempotent() {
        var single = driver()
        press(&single, "toggle+select")
        XCTAssertEqual(single.session.marks, [], "without --multi nothing is marked")

        var d = driver(multi: true)
        press(&d, "select+select")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line1"])
        press(&d, "toggle-out+toggle-out")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line2"], "line1 unmarked, line2 marked, moving down")
        XCTAssertEqual(highlighted(d), "line3")
        press(&d, "deselect+up+deselect")
        XCTAssertEqual(d.session.marks, [])
        press(&d, "toggle-in")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line2"])
        XCTAssertEqual(highlighted(d), "line1", "toggle-in moves toward the prompt")
    }

    func testSelectAllToggleAllAndDeselectAll() {
        var d = driver(multi: true)
        d.type("'line1", at: 100)
        d.workerAnswers()
        press(&d, "select-all")
        XCTAssertEqual(d.session.marks.count, 11, "line1 and line10…line19")
        press(&d, "deselect-all")
        XCTAssertEqual(d.session.marks, [])
        press(&d, "toggle+toggle-all")
        XCTAssertEqual(d.session.marks.count, 10, "toggle-all inverts the marks of the matches")
        XCTAssertFalse(d.session.marks.map { d.text($0)! }.contains("line1"))

        var limited = driver(multi: true, multiLimit: 3)
        press(&limited, "select-all")
        XCTAssertEqual(limited.session.marks.count, 3, "--multi=3 marks at most three")
    }

    func testExcludeIsTheExecutablesEffectOnTheLineOrTheMarks() {
        var d = driver(multi: true)
        guard case .exclude(marked: false)? = press(&d, "exclude").first else { return XCTFail() }
        guard case .exclude(marked: true)? = press(&d, "exclude-multi").first else { return XCTFail() }
    }

    func testAcceptCancelAndTheEofEdits() {
        var d = driver()
        guard case .end(.accept)? = press(&d, "accept").first,
              case .end(.acceptIfChosen)? = press(&d, "accept-non-empty").first,
              case .end(.cancel)? = press(&d, "abort").first,
              case .end(.printQuery)? = press(&d, "print-query").first else { return XCTFail() }
        guard case .end(.cancel)? = press(&d, "cancel").first else { return XCTFail("an empty query cancels") }
        guard case .end(.cancel)? = press(&d, "delete-char/eof").first else { return XCTFail() }
        d.type("line", at: 100)
        guard case .edit(.end)? = press(&d, "cancel").first, case .edit(.killToStart)? = press(&d, "cancel").last else {
            return XCTFail("a query is killed first: ctrl-y puts it back, as fzf's")
        }
        guard case .edit(.delete)? = press(&d, "delete-char/eof").first,
              case .edit(.backspace)? = press(&d, "backward-delete-char/eof").first,
              case .edit(.killBlankWordBefore)? = press(&d, "unix-word-rubout").first,
              case .edit(.killWordBefore)? = press(&d, "backward-kill-word").first
        else { return XCTFail("unix-word-rubout cuts back to white space, backward-kill-word to a word start") }
    }

    func testChangePromptHeaderQueryAndPut() {
        var d = driver()
        guard case .setPrompt("fruit> ")? = press(&d, "change-prompt(fruit> )").first,
              case .setHeader("pick one")? = press(&d, "change-header(pick one)").first,
              case .setHeader(nil)? = press(&d, "change-header()").first,
              case .replaceQuery("ban")? = press(&d, "change-query(ban)").first,
              case .insert("an")? = press(&d, "put(an)").first else { return XCTFail() }
        let put = d.session.decide(BoundAction(.put), trigger: .key(.char(0x61)), context: screen)
        guard case .insert("a")? = put.first else { return XCTFail("put without an argument types its key") }
    }

    func testThePartsLabelsTheFooterAndTheHeadersVisibility() {
        var d = driver()
        guard case .setLabel(.list, " list ")? = press(&d, "change-list-label( list )").first,
              case .setLabel(.input, "in")? = press(&d, "change-input-label(in)").first,
              case .setLabel(.header, "h")? = press(&d, "change-header-label(h)").first,
              case .setLabel(.footer, "")? = press(&d, "change-footer-label()").first,
              case .setFooter("bye")? = press(&d, "change-footer(bye)").first,
              case .setFooter(nil)? = press(&d, "change-footer()").first,
              case .showHeader(nil)? = press(&d, "toggle-header").first,
              case .showHeader(true)? = press(&d, "show-header").first,
              case .showHeader(false)? = press(&d, "hide-header").first,
              case .command(.transform, let transform)? = press(&d, "transform-list-label(echo LIST)").first
        else { return XCTFail() }
        XCTAssertEqual(transform.kind, .transformListLabel)
        let screen = ActionContext(pageRows: 10, listReadsDown: true)
        guard case .setLabel(.list, "LIST")? = d.session.transformed(transform, output: "LIST\nmore", trigger: key,
                                                                     context: screen).first,
              case .setFooter(nil)? = d.session.transformed(BoundAction(.transformFooter, "true"), output: "",
                                                            trigger: key, context: screen).first
        else { return XCTFail("a transform's output sets the label (its first line) or the footer") }
    }

    func testThePreviewLabelIsSetAndTransformedInTheForegroundOrTheBackground() {
        var d = driver()
        guard case .setLabel(.preview, "[ a ]")? = press(&d, "change-preview-label([ a ])").first,
              case .command(.transform, let foreground)? = press(&d, "transform-preview-label(echo P)").first
        else { return XCTFail() }
        XCTAssertFalse(foreground.kind.runsInBackground)
        guard case .setLabel(.preview, "P")? = d.session.transformed(foreground, output: "P\nQ", trigger: key,
                                                                     context: screen).first
        else { return XCTFail("the first line printed is the preview's label") }
        let parts: [(String, LabelledPart)] = [("list", .list), ("input", .input), ("header", .header),
                                               ("preview", .preview)]
        for (name, part) in parts {
            guard case .command(.transform, let action)? = press(&d, "bg-transform-\(name)-label(echo X)").first
            else { return XCTFail(name) }
            XCTAssertTrue(action.kind.runsInBackground, "the chain goes on without waiting for \(name)'s")
            guard case .setLabel(part, "X")? = d.session.transformed(action, output: "X\n", trigger: key,
                                                                     context: screen).first
            else { return XCTFail("bg-transform-\(name)-label sets the \(name)'s label") }
        }
    }

    func testChangeNthIsParsedOnceIntoItsChoices() throws {
        var bindings = Bindings()
        try bindings.parse("ctrl-x:change-nth(2|1,3|)")
        let action = bindings[key]![0]
        XCTAssertEqual(action.value, .fields([try FieldRanges(parsing: "2"), try FieldRanges(parsing: "1,3"), nil]))
        var d = driver()
        var chosen: [FieldRanges?] = []
        for _ in 0..<4 {
            guard case .setNth(let ranges)? = press(&d, "change-nth(2|1,3|)").first else { return XCTFail() }
            chosen.append(ranges)
        }
        XCTAssertEqual(chosen, [try FieldRanges(parsing: "2"), try FieldRanges(parsing: "1,3"), nil,
                                try FieldRanges(parsing: "2")], "each press the next, an empty one --nth as given, round")
        guard case .setWithNth(let shown)? = press(&d, "change-with-nth(1|{2} {1})").first,
              case .setWithNth(let template)? = press(&d, "change-with-nth(1|{2} {1})").first else {
            return XCTFail("change-with-nth cycles on its own")
        }
        XCTAssertEqual(shown, FieldTemplate(try FieldRanges(parsing: "1")))
        XCTAssertEqual(template, FieldTemplate(parsing: "{2} {1}"), "templates too, as fzf's")
        // fzf's suite (test_change_nth_unset_default): `change-nth:` searches the whole line,
        // where an empty choice among others is --nth as given.
        d = Driver(lines: ["foo bar"], loading: false, settings: .init(nth: try FieldRanges(parsing: "2")))
        d.type("", at: 0)
        guard case .setNth(nil)? = press(&d, "change-nth()").first,
              case .setNth(let asGiven)? = press(&d, "change-nth(|1)").first else {
            return XCTFail("an empty change-nth unsets --nth")
        }
        XCTAssertEqual(asGiven, try FieldRanges(parsing: "2"))
        var bad = Bindings()
        XCTAssertThrowsError(try bad.parse("ctrl-x:change-nth(x)"), "a bad range is refused when read")
        XCTAssertEqual(BoundAction(.pos, "3").value, .position(3))
        XCTAssertEqual(BoundAction(.reload, "ls {q}").value, .command(CommandTemplate("ls {q}")),
                       "a command's placeholders are parsed when the binding is read")
    }

    func testTogglesOfSearchAndUnbindRebind() {
        var d = driver()
        guard case .setFilters(false)? = press(&d, "toggle-search").first else { return XCTFail() }
        XCTAssertTrue(press(&d, "enable-search").isEmpty, "search is on already")
        d.session.filters = false
        guard case .setFilters(true)? = press(&d, "toggle-search").first else { return XCTFail() }
        guard case .unbind(let off)? = press(&d, "unbind(enter,change)").first else { return XCTFail() }
        XCTAssertEqual(off, [.key(.char(13)), .event(.change)])
        guard case .rebind(let on)? = press(&d, "rebind(enter)").first else { return XCTFail() }
        XCTAssertEqual(on, [.key(.char(13))])
        guard case .setSort(false)? = press(&d, "toggle-sort").first,
              case .setSort(true)? = press(&d, "toggle-sort").first else { return XCTFail("toggle-sort turns the sort") }
        XCTAssertEqual(d.session.bound.sorts, true)
    }

    func testReloadIsCarriedOutAndItsNewListResetsTheOldOnesState() {
        var d = driver(multi: true)
        press(&d, "down+toggle")
        guard case .command(.reload(sync: false), let reload)? = press(&d, "reload(seq 3)").first, reload.kind == .reload else {
            return XCTFail()
        }
        d.replaceInput(with: ["a", "b", "c"])
        d.type("", at: 200)
        XCTAssertEqual(d.session.marks, [], "marks of the old list are gone")
        XCTAssertEqual(highlighted(d), "a")
    }

    func testPicksDefaultKeysAreActionsOfTheSameTable() {
        func chain(_ key: Key, multi: Bool = false, preview: Bool = false) -> [BindActionKind]? {
            DefaultKeys.chain(for: key, multi: multi, preview: preview)?.map(\.kind)
        }
        XCTAssertEqual(chain(.char(13)), [.accept])
        XCTAssertEqual(chain(.char(16)), [.upMatch], "ctrl-p: up-match, as fzf")
        // fzf's suite (test_history): with --history, ctrl-p and ctrl-n walk it.
        XCTAssertEqual(DefaultKeys.chain(for: .char(16), multi: false, preview: false, history: true)?.map(\.kind), [.prevHistory])
        XCTAssertEqual(DefaultKeys.chain(for: .char(14), multi: false, preview: false, history: true)?.map(\.kind), [.nextHistory])
        XCTAssertEqual(chain(.char(14)), [.downMatch], "without it, down-match")
        XCTAssertEqual(chain(.pageDown), [.pageDown])
        XCTAssertNil(chain(.char(24)), "ctrl-x is free")
        XCTAssertEqual(chain(.char(9)), [.complete], "Tab completes")
        XCTAssertEqual(chain(.char(9), multi: true), [.toggleDown], "with --multi, Tab marks")
        XCTAssertNil(chain(.shiftTab), "shift-Tab does nothing without --multi")
        XCTAssertNil(chain(.char(31)), "ctrl-/ is the editor's without a preview")
        XCTAssertEqual(chain(.char(31), preview: true), [.togglePreview])
        XCTAssertEqual(chain(.function(1)), [.help])
        XCTAssertEqual(chain(.alt(0x3F)), [.help])
        for entry in DefaultKeys.table {
            for key in entry.keys { XCTAssertTrue(KeyNames.isReserved(key), "\(KeyNames.name(of: key)!) is pick's") }
        }
    }

    func testTheMouseEventsDefaultsAreFzfsAndTableEntries() {
        func chain(_ mouse: MouseKey, multi: Bool = true, preview: Bool = true) -> [BindActionKind]? {
            DefaultKeys.chain(for: .mouseEvent(mouse), multi: multi, preview: preview)?.map(\.kind)
        }
        XCTAssertEqual(chain(.doubleClick), [.accept])
        XCTAssertEqual(chain(.rightClick), [.toggle])
        XCTAssertEqual(chain(.shiftLeftClick), [.toggle])
        XCTAssertEqual(chain(.scrollUp), [.up])
        XCTAssertEqual(chain(.shiftScrollDown), [.toggle, .down])
        XCTAssertEqual(chain(.previewScrollUp), [.previewUp])
        XCTAssertNil(chain(.leftClick), "a click only highlights its line, as fzf's")
        var bindings = Bindings()
        XCTAssertNoThrow(try bindings.parse("scroll-up:accept,double-click:toggle"))
        XCTAssertEqual(bindings[.key(.mouseEvent(.scrollUp))]?.map(\.kind), [.accept], "a binding the user gives wins")
    }

    func testAfterAReloadTheHighlightFindsItsLineInTheNewListAtOnce() {
        var d = driver()
        press(&d, "pos(5)")
        d.session.followHighlight(text: Array("line5".utf8), in: d.store)
        let lines = LineStore(separator: 0x0A, parsesFields: true)
        d.session.followHighlight(text: Array("line5".utf8), in: lines)
        for line in ["new", "line1", "line5", "line9"] { lines.append(Array(line.utf8) + [0x0A]) }
        lines.finish()
        d.replaceInput(with: lines)
        d.type("", at: 200)
        XCTAssertEqual(highlighted(d), "line5", "the first list of the new input has it on its line")
        d.type("line", at: 300)
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), "line1", "found once; a new query starts from the top")
    }

    func testAfterAReloadWithoutTheLineTheHighlightKeepsItsPlace() {
        var d = driver()
        press(&d, "pos(3)")
        let lines = LineStore(separator: 0x0A, parsesFields: true)
        d.session.followHighlight(text: Array("line3".utf8), in: lines)
        for line in ["a", "b", "c", "d"] { lines.append(Array(line.utf8) + [0x0A]) }
        lines.finish()
        d.replaceInput(with: lines)
        d.type("", at: 200)
        XCTAssertEqual(highlighted(d), "c", "the third row, as fzf keeps its cursor")
    }

    func testARowAskedForRightAfterAReloadIsTakenOnceItsLinesCome() {
        var d = driver()
        let effects = press(&d, "last", context: ActionContext(pageRows: 10, listReadsDown: true,
                                                                awaitsReloadedLines: true, rowsBeforeReload: 30))
        guard case .highlightOnceReloaded(let row)? = effects.first else { return XCTFail() }
        d.replaceInput(with: LineStore(separator: 0x0A, parsesFields: true))  // its lines still to come
        d.session.highlightOnceListed(row: row)
        d.stream(["a", "b", "c"], loading: false, at: 300)  // (listed at once: small, no query)
        XCTAssertEqual(highlighted(d), "c", "row 29 of the old list, kept within the new one")
        XCTAssertEqual(d.accepted(), ["c"], "Return picks it")
    }

    func testARowAskedForAfterTheReloadedListCameIsTakenAtOnce() {
        var d = driver()
        d.replaceInput(with: ["a", "b", "c"])
        d.type("", at: 200)
        XCTAssertEqual(highlighted(d), "a", "the reload's lines were all in before the move")
        d.session.highlightOnceListed(row: 29)
        XCTAssertEqual(highlighted(d), "c")
    }

    func testExcludeLeavesTheHighlightOnItsRow() {
        var d = driver()
        press(&d, "down+down")
        let row = d.session.selection
        d.engine.exclude([2])
        d.send(.searchAgain)  // (an empty query over a small input is listed at once)
        d.session.highlightOnceListed(row: row)
        XCTAssertEqual(highlighted(d), "line4", "the next line takes the excluded one's row")
    }

    // The preview pane.

    func testPreviewActionsAskThePaneOnlyWhenThereIsOne() {
        var d = driver()
        XCTAssertTrue(press(&d, "toggle-preview+preview-down+refresh-preview+change-preview(cat {})").isEmpty,
                      "without --preview, nothing")
        let shown = ActionContext(pageRows: 10, listReadsDown: true, preview: (shown: true, rows: 20))
        var hidden = shown
        hidden.preview = (shown: false, rows: 0)
        XCTAssertEqual(previewEffects(&d, "toggle-preview+hide-preview+show-preview", shown), [.toggle, .toggle])
        XCTAssertEqual(previewEffects(&d, "show-preview+hide-preview", hidden), [.toggle], "show shows a hidden pane")
        XCTAssertEqual(previewEffects(&d, "preview-up+preview-page-down+preview-half-page-down+preview-top", shown),
                       [.scroll(by: -1, pages: false), .scroll(by: 1, pages: true), .scroll(by: 10, pages: false),
                        .scroll(by: -Int(Int32.max), pages: false)])
        XCTAssertEqual(previewEffects(&d, "refresh-preview+change-preview(cat {})", shown),
                       [.refresh, .setCommand(CommandTemplate("cat {}"))])
        XCTAssertEqual(previewEffects(&d, "change-preview-window(up|right|)+change-preview-window(up|right|)", shown),
                       [.setWindow("up"), .setWindow("right")], "each press the next layout")
    }

    func previewEffects(_ d: inout Driver, _ spec: String, _ context: ActionContext) -> [PreviewEffect] {
        press(&d, spec, context: context).compactMap { if case .preview(let e) = $0 { e } else { nil } }
    }

    // Commands.

    func testACommandThatNeedsALineRunsOnlyWithOne() {
        var d = driver()
        guard case .command(.onTerminal, _)? = press(&d, "execute(vim {})").first,
              case .command(.silent, _)? = press(&d, "execute-silent(rm {})").first,
              case .command(.become, _)? = press(&d, "become(less {})").first,
              case .command(.reload(sync: true), _)? = press(&d, "reload-sync(ls)").first else { return XCTFail() }
        d.type("nothing matches this", at: 100)
        d.workerAnswers()
        XCTAssertTrue(press(&d, "execute(vim {})").isEmpty, "no line for {}: it does not run, as in fzf")
        guard case .command(.reload(sync: false), _)? = press(&d, "reload(ls {q})").first,
              case .command(.transform, _)? = press(&d, "transform-query(echo {})").first else {
            return XCTFail("a command with no line placeholder, and a transform, run without a line")
        }
    }

    func testHidingTheInputDropsWhatWouldChangeTheQueryUntilItShowsAgain() {
        var d = driver()
        d.type("line", at: 100)
        guard case .showInput(false)? = press(&d, "hide-input").first else { return XCTFail() }
        XCTAssertTrue(d.session.inputHidden)
        XCTAssertTrue(press(&d, "hide-input").isEmpty, "already hidden")
        for spec in ["change-query(x)", "clear-query", "put(a)", "backward-kill-word", "cancel", "prev-history"] {
            XCTAssertTrue(press(&d, spec).isEmpty, "\(spec) leaves the hidden query as it is (fzf's)")
        }
        guard case .search("x")? = press(&d, "search(x)").first else { return XCTFail("search still searches") }
        guard case .showInput(true)? = press(&d, "toggle-input").first,
              case .replaceQuery("x")? = press(&d, "change-query(x)").first,
              case .showInput(false)? = press(&d, "toggle-input").first,
              case .showInput(true)? = press(&d, "show-input").first else { return XCTFail() }
        XCTAssertTrue(press(&d, "show-input").isEmpty, "already shown")
    }

    func testExecuteMultiRunsOnTheTerminalWithTheMarkedLinesForEveryLinePlaceholder() {
        var d = driver(3, multi: true)
        press(&d, "toggle-down+toggle-down")
        guard case .command(.onTerminal, let action)? = press(&d, "execute-multi(echo {}/{+}/{q})").first,
              case .command(let template)? = action.value else { return XCTFail() }
        let context = TemplateContext(current: Array("line3".utf8), marked: [Array("line1".utf8), Array("line2".utf8)],
                                     query: Array("q".utf8))
        XCTAssertEqual(String(decoding: template.expand(context), as: UTF8.self),
                       "echo 'line1' 'line2'/'line1' 'line2'/'q'", "{} is {+} (fzf's execute-multi)")
    }

    func testWhatATransformPrintsSetsTheQueryPromptHeaderOrRunsActions() {
        var d = driver()
        func output(_ text: String, _ spec: String) -> [ActionEffect] {
            var bindings = Bindings()
            try! bindings.parse("ctrl-x:" + spec)
            return d.session.transformed(bindings[key]![0], output: text, trigger: key,
                                         context: ActionContext(pageRows: 10, listReadsDown: true))
        }
        guard case .replaceQuery("one")? = output("one\ntwo", "transform-query(x)").first,
              case .setPrompt("a> ")? = output("a> ", "transform-prompt(x)").first,
              case .setHeader(nil)? = output("", "transform-header(x)").first,
              case .setBorderLabel("L")? = output("L\nM", "transform-border-label(x)").first else { return XCTFail() }
        guard case .queueFirst(let chain)? = output("down+down", "transform(x)").first else { return XCTFail() }
        XCTAssertEqual(chain.map(\.kind), [.down, .down], "the printed actions run next")
        XCTAssertTrue(output("no-such-action", "transform(x)").isEmpty, "a bad chain is dropped, as fzf does")
    }

    // pick's own keys, as actions of the same table.

    func testTabMarksAndMovesWithMultiAndNeverWraps() {
        var d = driver(3, multi: true)
        press(&d, "toggle-down+toggle-down+toggle-down")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line1", "line2", "line3"])
        XCTAssertEqual(highlighted(d), "line3", "Tab stops at the end (no wrap, even with --cycle)")
        press(&d, "toggle-up")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line1", "line2"])
        XCTAssertEqual(highlighted(d), "line2")
        var single = driver()
        XCTAssertTrue(press(&single, "toggle-down").isEmpty, "without --multi, nothing")
        XCTAssertEqual(highlighted(single), "line1")
        guard case .complete? = press(&single, "complete").first else { return XCTFail("Tab completes") }
    }

    func testRightTakesTheGhostAtTheEndOfTheQueryOnly() {
        var d = driver()
        let ghost = ActionContext(pageRows: 10, listReadsDown: true, cursorAtEnd: true, completion: "line12")
        guard case .replaceQuery("line12")? = press(&d, "take-ghost", context: ghost).first else { return XCTFail() }
        var inside = ghost
        inside.cursorAtEnd = false
        guard case .edit(.right)? = press(&d, "take-ghost", context: inside).first else {
            return XCTFail("inside the query, Right moves the cursor")
        }
        guard case .edit(.right)? = press(&d, "take-ghost").first else { return XCTFail("no ghost: the cursor moves") }
    }

    func testCtrlSCyclesTheScopesAndCtrlRMovesAwayFromThePrompt() {
        var d = driver()
        let three = ActionContext(pageRows: 10, listReadsDown: true, scopes: 3)
        press(&d, "next-scope", context: three)
        XCTAssertEqual(d.session.scope, 1)
        press(&d, "next-scope+next-scope", context: three)
        XCTAssertEqual(d.session.scope, 0, "back to All")
        XCTAssertTrue(press(&d, "next-scope").isEmpty, "no sections, no scopes")
        press(&d, "next-line+next-line")
        XCTAssertEqual(highlighted(d), "line3")
        press(&d, "next-line", context: ActionContext(pageRows: 10, listReadsDown: false))
        XCTAssertEqual(highlighted(d), "line4", "away from the prompt whatever the layout")
    }

    func testTheHelpHistoryScreenForgetAndSuspendAreTheExecutables() {
        var d = driver()
        guard case .showHelp? = press(&d, "help").first,
              case .walkHistory(older: true)? = press(&d, "prev-history").first,
              case .walkHistory(older: true)? = press(&d, "previous-history").first,
              case .walkHistory(older: false)? = press(&d, "next-history").first,
              case .redrawScreen? = press(&d, "clear-screen").first,
              case .suspend? = press(&d, "suspend").first else { return XCTFail() }
        press(&d, "down")
        guard case .forget(let line)? = press(&d, "forget").first else { return XCTFail() }
        XCTAssertEqual(d.text(line), "line2", "forget names the highlighted line")
        d.type("nothing matches this", at: 100)
        d.workerAnswers()
        XCTAssertTrue(press(&d, "forget").isEmpty, "no line, nothing to forget")
    }

    func testEveryOneOfPicksKeysIsAnEntryABindingCanReplace() {
        // The keys pick's own switch used to handle: each is now a default entry.
        for name in ["tab", "shift-tab", "right", "f1", "alt-?", "alt-p", "alt-n", "ctrl-s", "ctrl-r", "ctrl-l",
                     "shift-delete", "ctrl-z", "ctrl-/"] {
            let key = KeyNames.key(named: name)!
            XCTAssertNotNil(DefaultKeys.chain(for: key, multi: true, preview: true), name)
            XCTAssertTrue(KeyNames.isReserved(key), name)
        }
    }
}
