@testable import PickCore
import XCTest

/// Where the highlight goes as the list changes under it with `--track`, track-current and
/// `--id-nth` (fzf's), and how a reload's tracking holds the picker, replayed on a real engine.
extension ActionPolicyTests {
    func numbers(_ count: Int = 1000, track: Bool = false, keepsRow: Bool = false, multi: Bool = false) -> Driver {
        var d = Driver(lines: (1...count).map(String.init), loading: false,
                       settings: .init(multi: multi, track: track, keepsRow: keepsRow))
        d.type("", at: 0)
        return d
    }

    /// The query typed, answered whole, and the frame's scroll taken back as the picker does.
    func type(_ d: inout Driver, _ text: String, scroll: Int? = nil) {
        d.type(text, at: d.now + 100)
        d.send(.answered(d.answer(SearchJob(generation: d.session.generation, text: text, kind: .whole))))
        if let scroll { d.session.scroll = scroll }
    }

    func testTrackKeepsTheLineOnTheRowOfTheScreenItWasOn() {
        var d = numbers(track: true)
        type(&d, "55")
        let at = d.session.shown!.lines.firstIndex { d.text($0) == "555" }!
        press(&d, "pos(\(at + 1))")
        d.session.scroll = at - 2  // the frame shows it on the third row
        type(&d, "5")
        XCTAssertEqual(highlighted(d), "555")
        XCTAssertGreaterThan(d.session.selection, 20, "far down the list of 5")
        XCTAssertEqual(d.session.selection - d.session.scroll, 2, "on the third row, as before (fzf's)")
    }

    func testAsFzfTheHighlightKeepsItsRowWhenTheQueryChanges() {
        var d = numbers(keepsRow: true)
        press(&d, "down+down+down")
        type(&d, "1")
        XCTAssertEqual(d.session.selection, 3, "fzf's cursor keeps its index")
        XCTAssertEqual(highlighted(d), "12")
        XCTAssertEqual(d.accepted(), ["12"], "and Return picks that line")

        var pick = numbers()
        press(&pick, "down+down+down")
        type(&pick, "1")
        XCTAssertEqual(highlighted(pick), "1", "pick's goes back to the first match")
    }

    func testTrackCurrentEndsWhenItsLineIsGoneLeavingTheHighlightOnTheSameRowOfTheScreen() {
        var d = numbers(keepsRow: true)
        type(&d, "5")
        press(&d, "pos(7)+track")
        XCTAssertEqual(highlighted(d), "55")
        d.session.scroll = 3  // the frame kept three rows in view below it (--scroll-off 3)
        type(&d, "54")
        XCTAssertFalse(d.session.tracksCurrent, "55 no longer matches")
        XCTAssertEqual(d.session.selection, 3, "the fourth row of the screen, as it was")
        XCTAssertEqual(highlighted(d), "542")
        type(&d, "5")
        XCTAssertEqual(highlighted(d), "52", "the row kept as the query changes")
    }

    func testAReloadWithIdNthHoldsThePickerUntilTheLineStreamsIn() {
        var d = numbers(100, track: true)
        press(&d, "pos(3)")
        XCTAssertTrue(d.session.blockTracking())
        XCTAssertTrue(d.session.trackBlocked)
        XCTAssertTrue(press(&d, "down+toggle-sort+accept").isEmpty, "the actions wait while the picker holds")
        XCTAssertEqual(highlighted(d), "3")
        let identity = LineIdentity(fields: try! FieldRanges(parsing: "1"), delimiter: .blanks)
        d.session.followHighlight(text: identity.key(of: Array("3".utf8)), in: makeReload(["9 x", "3 y"], loading: true),
                                  identity: identity)
        d.replaceInput(with: reloadStore!)
        d.send(.answered(d.answer(SearchJob(generation: d.session.generation, text: "", kind: .whole))))
        XCTAssertEqual(highlighted(d), "3 y", "found by its first field while the reload still streams")
        XCTAssertFalse(d.session.trackBlocked, "the hold ends at once (reload: fzf's)")
        XCTAssertTrue(d.session.tracksAll)
    }

    func testAReloadWithoutTheLineEndsTheHoldOnceReadWholeTheHighlightKeepingItsRow() {
        var d = numbers(3, track: true)
        press(&d, "pos(2)")
        d.session.blockTracking()
        let identity = LineIdentity(fields: try! FieldRanges(parsing: ".."), delimiter: .blanks)
        d.session.followHighlight(text: Array("2".utf8), in: makeReload(["delta", "epsilon"], loading: true),
                                  identity: identity)
        d.replaceInput(with: reloadStore!)
        d.send(.answered(d.answer(SearchJob(generation: d.session.generation, text: "", kind: .whole))))
        XCTAssertTrue(d.session.trackBlocked, "more lines may come: still held")
        reloadStore!.append(Array("zeta\n".utf8))
        reloadStore!.finish()
        d.send(.inputRead(lines: reloadStore!.count, loading: false))
        d.send(.answered(d.answer(SearchJob(generation: d.session.generation, text: "", kind: .whole))))
        XCTAssertFalse(d.session.trackBlocked)
        XCTAssertEqual(highlighted(d), "epsilon", "the second row, where the highlight was")
    }

    func testAbortAndCancelEndTheHoldInsteadOfPickAndToggleTrackTurnsTrackingOff() {
        var d = numbers(10, track: true)
        d.session.blockTracking()
        XCTAssertTrue(press(&d, "abort").isEmpty, "abort does not end pick while the picker holds")
        XCTAssertFalse(d.session.trackBlocked)
        XCTAssertTrue(d.session.tracksAll, "tracking stays on")
        d.session.blockTracking()
        d.type("1", at: 100)
        let effects = press(&d, "cancel+clear-query")
        guard effects.count == 1, case .replaceQuery("")? = effects.first else {
            return XCTFail("cancel ends the hold (the query stays); what follows it runs: \(effects)")
        }
        XCTAssertFalse(d.session.trackBlocked)
        d.session.blockTracking()
        press(&d, "toggle-track")
        XCTAssertFalse(d.session.trackBlocked)
        XCTAssertFalse(d.session.tracks, "toggle-track turns tracking off, as fzf's")
        XCTAssertFalse(d.session.blockTracking(), "nothing tracked: a reload does not hold")
    }

    func testABgTransformsOutputIsAppliedWhileThePickerHolds() {
        var d = numbers(10, track: true)
        d.session.blockTracking()
        var bindings = Bindings()
        try! bindings.parse("ctrl-x:bg-transform-prompt(echo x)")
        let effects = d.session.transformed(bindings[key]![0], output: "hello> ", trigger: key, context: screen)
        guard case .setPrompt("hello> ")? = effects.first else { return XCTFail("\(effects)") }
        try! bindings.parse("ctrl-x:transform-prompt(echo x)")
        XCTAssertTrue(d.session.transformed(bindings[key]![0], output: "x", trigger: key, context: screen).isEmpty,
                      "a foreground transform's waits")
    }

    func testAReloadSyncMarksTheLinesWithTheSameFieldsAgain() {
        var d = Driver(lines: ["1 apple", "2 banana", "3 cherry"], loading: false, settings: .init(multi: true))
        d.type("", at: 0)
        press(&d, "pos(3)+toggle+pos(1)+toggle")
        let identity = LineIdentity(fields: try! FieldRanges(parsing: "1"), delimiter: .blanks)
        let keys = d.session.marks.map { identity.key(of: d.store.bytes(of: Int($0))) }
        XCTAssertEqual(keys, [Array("3".utf8), Array("1".utf8)])
        let reloaded = makeReload(["1 apricot", "2 blueberry", "3 cranberry"], loading: false)
        d.replaceInput(with: reloaded)
        XCTAssertEqual(d.session.marks, [], "a reload drops the marks")
        d.session.markAgain(keys: keys, in: reloaded, identity: identity)
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["3 cranberry", "1 apricot"], "in the order marked")
    }
}

/// The store of a reload in a test (a class property: the extension cannot hold one).
private var reloadStore: LineStore? = nil

private func makeReload(_ lines: [String], loading: Bool) -> LineStore {
    let store = LineStore(separator: 0x0A, parsesFields: false)
    for line in lines { store.append(Array(line.utf8) + [0x0A]) }
    if !loading { store.finish() }
    reloadStore = store
    return store
}
