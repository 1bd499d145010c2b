@testable import PickCore
import XCTest

/// fzf's actions on the query searched, the ghost text, the pointer, the fields and header
/// lines, the transforms in the background, print, trigger, wait and the screen: decided in
/// PickCore, replayed on a session with a real store and engine.
final class ActionPolicyFzfTests: XCTestCase {
    let screen = ActionContext(pageRows: 10, listReadsDown: true)
    let key = BindTrigger.key(.char(24))

    func driver(_ count: Int = 30, multi: Bool = false) -> Driver {
        var d = Driver(lines: (1...count).map { "line\($0)" }, loading: false, settings: .init(multi: multi))
        d.type("", at: 0)
        return d
    }

    /// The effects of one `--bind` chain bound to ctrl-x, the session's own events taken in.
    func press(_ d: inout Driver, _ spec: String, context: ActionContext? = nil) -> [ActionEffect] {
        var others: [ActionEffect] = []
        var bindings = Bindings()
        try! bindings.parse("ctrl-x:" + spec)
        for action in bindings[key]! {
            for effect in d.session.decide(action, trigger: key, context: context ?? screen) {
                if case .event(let event) = effect { d.send(event) } else { others.append(effect) }
            }
        }
        return others
    }

    func action(_ spec: String) -> BoundAction {
        var bindings = Bindings()
        try! bindings.parse("ctrl-x:" + spec)
        return bindings[key]![0]
    }

    func testEveryNewActionIsAcceptedByItsFzfName() throws {
        for spec in ["search(a)", "transform-search(echo a)", "change-ghost(a)", "transform-ghost(echo a)",
                     "change-pointer(>>)", "transform-pointer(echo a)", "transform-nth(echo 1)",
                     "transform-with-nth(echo 1)", "change-header-lines(1)", "transform-header-lines(echo 1)",
                     "bg-transform(echo a)", "bg-transform-query(echo a)", "bg-transform-prompt(echo a)",
                     "bg-transform-header(echo a)", "bg-transform-border-label(echo a)", "bg-transform-search(echo a)",
                     "bg-transform-ghost(echo a)", "bg-transform-pointer(echo a)", "bg-transform-nth(echo a)",
                     "bg-transform-with-nth(echo a)", "bg-transform-header-lines(echo a)", "bg-cancel",
                     "print(a)", "trigger(ctrl-a)", "wait", "preview(cat {})", "toggle-bind(ctrl-a)",
                     "clear-screen", "close", "bell", "replace-query", "put(a)"] {
            var bindings = Bindings()
            XCTAssertNoThrow(try bindings.parse("ctrl-x:" + spec), spec)
        }
        var bad = Bindings()
        XCTAssertNoThrow(try bad.parse("ctrl-x:change-pointer(>>>)"), "fzf's takes it, and does nothing with it")
        XCTAssertThrowsError(try bad.parse("ctrl-x:change-header-lines(two)"))
        XCTAssertThrowsError(try bad.parse("ctrl-x:trigger(no-such-key)"))
    }

    func testSearchFiltersByItsTextAndLeavesTheQueryAlone() {
        var d = driver()
        guard case .search(let text)? = press(&d, "search('line2)").first else { return XCTFail() }
        XCTAssertEqual(text, "'line2")
        d.session.searchOverride = text
        d.send(.searchAgain)
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.count, 11, "line2 and line20…line29")
        XCTAssertEqual(d.session.queryText, "", "the query line is left as it is")
        d.session.filters = false
        XCTAssertEqual(d.session.searchedText, "'line2", "search(…) searches even with search disabled, as fzf's")
        d.type("line3", at: 100)
        XCTAssertNil(d.session.searchOverride, "a new query searches for itself again")
        XCTAssertEqual(d.session.searchedText, "")
    }

    func testGhostPointerAndHeaderLinesChangeAsAsked() {
        var d = driver(multi: true)
        guard case .setGhost("type a name")? = press(&d, "change-ghost(type a name)").first,
              case .setPointer("=>")? = press(&d, "change-pointer(=>)").first,
              case .setHeaderLines(2)? = press(&d, "change-header-lines(2)").first else { return XCTFail() }
        XCTAssertTrue(press(&d, "change-header-lines(0)").isEmpty, "the count it has already changes nothing")
        XCTAssertTrue(press(&d, "change-pointer(>>>)").isEmpty, "a pointer wider than 2 columns changes nothing (fzf's)")
        guard case .setPointer("")? = press(&d, "change-pointer()").first else { return XCTFail("no pointer") }
        _ = press(&d, "select+down+down+select")
        XCTAssertEqual(d.session.marks.count, 2)
        d.session.changeHeaderLines(2)
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line3"], "a mark on a line now in the header goes")
        XCTAssertEqual(d.session.candidates, 28)
    }

    func testATransformRunsItsCommandAndItsOutputDoesWhatTheChangeWould() {
        var d = driver()
        for spec in ["transform-query(echo a)", "bg-transform-query(echo a)", "transform(echo a)", "bg-transform(echo a)"] {
            guard case .command(.transform, let run)? = d.session.decide(action(spec), trigger: key, context: screen).first else {
                return XCTFail(spec)
            }
            XCTAssertEqual(run.kind.runsInBackground, spec.hasPrefix("bg-"), spec)
        }
        func output(_ spec: String, _ text: String) -> [ActionEffect] {
            d.session.transformed(action(spec), output: text, trigger: key, context: screen)
        }
        guard case .replaceQuery("abc")? = output("bg-transform-query(x)", "abc\nsecond line").first,
              case .search("ab")? = output("transform-search(x)", "ab").first,
              case .setGhost("hint")? = output("bg-transform-ghost(x)", "hint").first,
              case .setPointer("->")? = output("transform-pointer(x)", "->").first,
              case .setHeaderLines(3)? = output("bg-transform-header-lines(x)", "3").first,
              case .setHeader("two\nlines")? = output("bg-transform-header(x)", "two\nlines").first,
              case .setPrompt("p> ")? = output("bg-transform-prompt(x)", "p> ").first,
              case .setBorderLabel("label")? = output("bg-transform-border-label(x)", "label").first
        else { return XCTFail() }
        guard case .setFooter("foot")? = output("bg-transform-footer(x)", "foot").first,
              case .setLabel(.footer, "fl")? = output("bg-transform-footer-label(x)", "fl").first,
              case .command(.transform, _)? = d.session.decide(action("bg-transform-footer(x)"), trigger: key, context: screen).first
        else { return XCTFail("the footer's and its label's, as fzf's test_async_transform runs them") }
        XCTAssertTrue(action("bg-transform-footer-label(x)").kind.runsInBackground)
        XCTAssertTrue(output("transform-pointer(x)", "-->").isEmpty, "a pointer wider than 2 columns is dropped")
        XCTAssertTrue(output("transform-header-lines(x)", "many").isEmpty)
        guard case .setNth(let two)? = output("transform-nth(x)", "2|1").first,
              case .setNth(nil)? = output("transform-nth(x)", "").first,
              case .setNth(nil)? = output("transform-nth(x)", "x").first,
              case .setWithNth(let first)? = output("bg-transform-with-nth(x)", "1").first,
              case .setWithNth(let template)? = output("transform-with-nth(x)", "{2} {1}|1").first else {
            return XCTFail()
        }
        XCTAssertEqual(two, try FieldRanges(parsing: "2"), "the first of A|B, as fzf")
        XCTAssertEqual(first, FieldTemplate(try FieldRanges(parsing: "1")))
        XCTAssertEqual(template, FieldTemplate(parsing: "{2} {1}"), "a template, as fzf's")
        XCTAssertTrue(output("transform-with-nth(x)", "x").isEmpty, "an unreadable --with-nth changes nothing")
        guard case .queueFirst(let chain)? = output("bg-transform(x)", "change-query(a)+accept").first else {
            return XCTFail()
        }
        XCTAssertEqual(chain.map(\.kind), [.changeQuery, .accept])
        XCTAssertTrue(output("transform(x)", "no-such-action").isEmpty, "a chain that does not parse is dropped")
        guard case .cancelBackground? = d.session.decide(action("bg-cancel"), trigger: key, context: screen).first else {
            return XCTFail()
        }
    }

    func testTriggerRunsTheChainsOfOtherBindingsNeverItselfAgain() throws {
        var bindings = Bindings()
        try bindings.parse("ctrl-a:up+trigger(ctrl-b),ctrl-b:down+trigger(ctrl-a),ctrl-c:accept")
        var d = driver()
        guard case .runChains(let targets)? = press(&d, "trigger(ctrl-a,ctrl-c)").first else { return XCTFail() }
        var state = BoundState()
        state.queue = [(BoundAction(.first), key)]
        state.runChains(of: targets, in: bindings, firedBy: key)
        var ran: [BindActionKind] = []
        while let (action, _) = state.next() {
            ran.append(action.kind)
            if case .triggers(let more) = action.value, action.kind == .trigger {
                state.runChains(of: more, in: bindings, firedBy: key)
            }
        }
        XCTAssertEqual(ran, [.up, .trigger, .down, .trigger, .accept, .first],
                       "ctrl-a runs ctrl-b's chain, whose trigger(ctrl-a) is skipped; then ctrl-c's; then the rest")
        state.unbound = [.key(.char(3))]
        state.runChains(of: [.key(.char(3))], in: bindings, firedBy: key)
        XCTAssertTrue(state.queue.isEmpty, "an unbound key's chain does not run")
    }

    func testATriggerRunsEachNamedChainInTurnAndAFreshKeyStartsAfresh() throws {
        // fzf's suite (test_trigger): a:up+trigger(a) moves up twice; then
        // b:trigger(a,a,b,a) six times (each of a's chains once more; b's own once).
        var bindings = Bindings()
        try bindings.parse("a:up+trigger(a),b:trigger(a,a,b,a)")
        var state = BoundState()
        func press(_ c: Character) -> Int {
            let trigger = BindTrigger.key(.char(c.asciiValue.map(UInt32.init)!))
            state.enqueue(bindings[trigger]!, firedBy: trigger)
            var ups = 0
            // As the picker runs them: until the queue is empty, never asking past it.
            while !state.queue.isEmpty, let (action, _) = state.next() {
                if action.kind == .up { ups += 1 }
                if case .triggers(let more) = action.value, action.kind == .trigger {
                    state.runChains(of: more, in: bindings, firedBy: trigger)
                }
            }
            return ups
        }
        XCTAssertEqual(press("a"), 2)
        XCTAssertEqual(press("b"), 6, "a's chain that ran for the last key is not running now")
    }

    func testToggleBindTurnsEachBindingOffOrOnAgain() {
        var d = driver()
        guard case .unbind(let off)? = press(&d, "toggle-bind(ctrl-a)").first else { return XCTFail() }
        XCTAssertEqual(off, [.key(.char(1))])
        d.session.bound.unbound = [.key(.char(1))]
        let effects = press(&d, "toggle-bind(ctrl-a,ctrl-b)")
        guard effects.count == 2, case .unbind([.key(.char(2))]) = effects[0], case .rebind([.key(.char(1))]) = effects[1] else {
            return XCTFail("\(effects)")
        }
    }

    func testAnUnboundLetterTypesItselfAndOtherKeysDoNothing() {
        XCTAssertTrue(BindTrigger.key(.char(0x63)).typesText, "c")
        XCTAssertTrue(BindTrigger.key(.char(0x20)).typesText, "space")
        XCTAssertFalse(BindTrigger.key(.char(1)).typesText, "ctrl-a")
        XCTAssertFalse(BindTrigger.key(.char(0x7F)).typesText, "backspace")
        XCTAssertFalse(BindTrigger.event(.start).typesText)
    }

    func testWaitHoldsTheChainOnlyWhileASearchRuns() {
        var d = driver()
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertTrue(press(&d, "wait").isEmpty, "no search running: wait goes on at once")
        d.type("line1", at: 100)
        guard case .waitForSearch? = press(&d, "wait").first else { return XCTFail("a search runs") }
        d.workerAnswers()
        XCTAssertTrue(d.session.searchSettled)
        var state = BoundState()
        state.waitsForSearch = true
        state.queue = [(BoundAction(.first), key)]
        XCTAssertNil(state.keyWhileWaiting([BoundAction(.down)]), "a key is ignored while waiting")
        XCTAssertEqual(state.queue.count, 1)
        XCTAssertEqual(state.keyWhileWaiting([BoundAction(.cancel), BoundAction(.last)])?.map(\.kind), [.last],
                       "cancel ends the wait, the rest of its chain runs")
        XCTAssertFalse(state.waitsForSearch)
        XCTAssertTrue(state.queue.isEmpty, "what waited is dropped")
    }

    func testPrintReplaceQueryCloseBellAndClearScreen() {
        var d = driver()
        guard case .print("done")? = press(&d, "print(done)").first,
              case .replaceQueryWithLine? = press(&d, "replace-query").first,
              case .bell? = press(&d, "bell").first,
              case .redrawScreen? = press(&d, "clear-screen").first,
              case .end(.cancel)? = press(&d, "close").first else { return XCTFail() }
        let shown = ActionContext(pageRows: 10, listReadsDown: true, preview: (shown: true, rows: 10))
        guard case .preview(.toggle)? = press(&d, "close", context: shown).first else {
            return XCTFail("close hides a preview that shows")
        }
        guard case .preview(.once(let template))? = press(&d, "preview(cat {})", context: shown).first,
              template == CommandTemplate("cat {}") else {
            return XCTFail()
        }
        XCTAssertTrue(press(&d, "preview(cat {})").isEmpty, "no --preview: no pane to preview in")
        var empty = Driver(lines: [], loading: false)
        empty.type("", at: 0)
        XCTAssertTrue(press(&empty, "replace-query").isEmpty, "no line, no query from it")
    }
}
