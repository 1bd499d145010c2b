@testable import PickCore
import XCTest

/// Plays the picker's part for a session, with no terminal: a real store and engine, a
/// clock the test moves, and a worker whose jobs wait until the test lets them finish.
struct Driver {
    var session: PickSession
    var store: LineStore
    var engine: SearchEngine
    var now = 0
    /// Jobs handed to the worker, newest last (each replaces the one before).
    var workerJob: SearchJob? = nil
    var draws = 0
    /// Jobs run at once on the event loop.
    var ranNow: [SearchJob] = []

    init(lines: [String], loading: Bool, settings: PickSession.Settings = .init(), raw: Bool = false) {
        store = LineStore(separator: 0x0A, parsesFields: true)
        for line in lines { store.append(Array(line.utf8) + [0x0A]) }
        if !loading { store.finish() }
        engine = SearchEngine(store: store)
        session = PickSession(settings: settings, raw: raw, startedAt: 0)
        send(.inputRead(lines: store.count, loading: loading))
    }

    mutating func send(_ event: SessionEvent) {
        run(session.handle(event, at: now))
    }

    mutating func run(_ actions: [SessionAction]) {
        for action in actions {
            switch action {
            case .search(let job): workerJob = job
            case .searchNow(let job):
                ranNow.append(job)
                run(session.handle(.answered(answer(job)), at: now))
            case .draw:
                draws += 1
                run(session.handle(.drawn, at: now))
            }
        }
    }

    func answer(_ job: SearchJob) -> SearchAnswer {
        switch job.kind {
        case .firstRows(let rows): return .result(generation: job.generation, engine.search(job.text, firstRows: rows)!)
        case .whole:
            let result = engine.search(job.text)!
            return .result(generation: job.generation, job.raw ? engine.rawList(result) : result)
        case .suggestions(_, let scope): return .suggestions(generation: job.generation, scope: scope, ["suggested"])
        case .refineBounds: preconditionFailure("refining bounds answers nothing (workerAnswers runs it)")
        case .closeMatches(let matches, let scope, let limit):
            return .closeMatches(generation: job.generation, scope: scope,
                                 engine.closeMatches(job.text, excluding: matches, scope: scope, limit: limit)!)
        }
    }

    /// The worker finishes its job and the event loop takes the answer.
    mutating func workerAnswers() {
        guard let job = workerJob else { return XCTFail("the worker has no job") }
        workerJob = nil
        if job.kind == .refineBounds { return engine.refineBounds() }
        send(.answered(answer(job)))
    }

    /// A reload: a new store (read whole) in place of the old one.
    mutating func replaceInput(with lines: [String]) {
        let store = LineStore(separator: 0x0A, parsesFields: true)
        for line in lines { store.append(Array(line.utf8) + [0x0A]) }
        store.finish()
        replaceInput(with: store)
    }

    mutating func replaceInput(with store: LineStore) {
        self.store = store
        engine = SearchEngine(store: store)
        workerJob = nil
        send(.inputReplaced)
        send(.inputRead(lines: store.count, loading: !store.isFinished))
    }

    mutating func type(_ text: String, at time: Int) {
        now = time
        send(.queryEdited(text))
    }

    mutating func stream(_ lines: [String], loading: Bool = true, at time: Int) {
        now = time
        for line in lines { store.append(Array(line.utf8) + [0x0A]) }
        if !loading { store.finish() }
        send(.inputRead(lines: store.count, loading: loading))
    }

    func text(_ line: Int32?) -> String? {
        line.map { String(decoding: store.bytes(of: Int($0)), as: UTF8.self) }
    }

    func accepted() -> [String]? {
        if case .lines(let lines) = session.accept() { return lines.map { text($0)! } }
        return nil
    }
}

final class SessionSchedulingTests: XCTestCase {
    func testAKeystrokeIsSearchedAtOnceAndItsAnswerDrawnAtOnce() {
        var d = Driver(lines: ["alpha", "beta", "gamma"], loading: false)
        d.type("", at: 0)
        let drawsBefore = d.draws
        d.type("a", at: 20)
        XCTAssertEqual(d.workerJob?.text, "a")
        XCTAssertEqual(d.draws, drawsBefore + 1,
                       "the typed query's first frame goes out at once (the old rows that match it)")
        d.now = 21  // well inside a frame's interval of the last draw
        d.workerAnswers()
        XCTAssertEqual(d.draws, drawsBefore + 2, "the keystroke's answer goes out without waiting for the next tick")
        XCTAssertEqual(d.text(d.session.highlighted), "alpha")
    }

    func testAnEmptyQueryOnLoadedInputIsListedOnTheEventLoop() {
        var d = Driver(lines: ["one", "two"], loading: false)
        d.type("", at: 0)
        XCTAssertNil(d.workerJob)
        XCTAssertEqual(d.ranNow.map(\.text), [""])
        XCTAssertEqual(d.session.shown?.lines.count, 2)
        XCTAssertEqual(d.draws, 1)
    }

    func testTheListWaitsForLoadingInputDuringTheFirstFrame() {
        var d = Driver(lines: ["one"], loading: true)
        d.type("", at: 5)
        XCTAssertNil(d.workerJob, "nothing is searched in the first frame's time while input loads")
        XCTAssertEqual(d.draws, 0)
        XCTAssertEqual(d.session.wait(at: 5), Tunables.Session.firstListHold - 5)
        d.now = Tunables.Session.firstListHold
        d.send(.tick)
        XCTAssertEqual(d.workerJob?.text, "", "the deferred search starts once the hold is over")
    }

    func testStreamingInputIsSearchedAgainAtMostEveryRefreshInterval() {
        var d = Driver(lines: ["a1"], loading: true)
        d.type("a", at: 100)
        d.workerAnswers()
        d.workerJob = nil  // (the suggestions asked for once the answer was drawn)
        d.stream(["a2"], at: 150)
        XCTAssertNil(d.workerJob, "lines that arrive soon after a search wait for the next refresh")
        d.stream(["a3"], at: 100 + Tunables.Session.refreshInterval)
        XCTAssertEqual(d.workerJob?.text, "a")
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.count, 3)
    }

    func testAFrameOfAStaleAnswerWaitsForTheNewOneOnlySoLong() {
        var d = Driver(lines: ["ab", "ac"], loading: false)
        d.type("a", at: 0)
        d.workerAnswers()
        let drawn = d.draws
        // The same query searched again (the sort toggled): its old list is still right.
        d.now = 100
        d.send(.searchAgain)
        d.now = 100 + Tunables.Session.staleFrameHold - 1
        d.send(.redraw)
        XCTAssertEqual(d.draws, drawn, "the old answer is not drawn while the new one may come any moment")
        d.now = 100 + Tunables.Session.staleFrameHold
        d.send(.tick)
        XCTAssertEqual(d.draws, drawn + 1, "a slow search shows the old list")
    }

    func testAnEditedQuerysFirstFrameGoesOutAtOnce() {
        var d = Driver(lines: ["ab", "ac"], loading: false)
        d.type("a", at: 0)
        d.workerAnswers()
        let drawn = d.draws
        d.type("ab", at: 5)
        XCTAssertEqual(d.draws, drawn + 1,
                       "the editor shows the new query at once: so does the list, with the old rows that match it")
        d.now = 6
        d.send(.redraw)
        XCTAssertEqual(d.draws, drawn + 1, "then frames wait for the answer as before")
        d.workerAnswers()
        XCTAssertEqual(d.draws, drawn + 2)
    }

    /// The frame of the session as the picker builds it, for the query on screen.
    private func frame(_ d: Driver, query: String, height: Int = 10) -> Frame {
        FrameBuilder.build(FrameInput(session: d.session, options: Options(), width: 40, listHeight: height,
                                      query: Query(query), scopes: [], headerText: [], styles: nil,
                                      gutterWidth: FrameBuilder.gutter), store: d.store)
    }

    private func titles(_ frame: Frame) -> [String] {
        frame.rows.compactMap { if case .line(let row) = $0 { return row.spans.map(\.text).joined() } else { return nil } }
    }

    func testAnOlderQuerysListShowsOnlyTheRowsThatMatchTheQueryOnScreen() {
        var d = Driver(lines: ["y", "yes", "y", "yarn", "y", "yyn"], loading: true)
        d.type("y", at: 100)
        d.workerAnswers()
        XCTAssertEqual(titles(frame(d, query: "y")).count, 6)
        XCTAssertFalse(frame(d, query: "y").info.countPending)
        // Narrowed: the search for `yn` is slow; the old list's frame goes out meanwhile.
        d.type("yn", at: 200)
        XCTAssertTrue(d.session.showsOlderQuery)
        var stale = frame(d, query: "yn")
        XCTAssertEqual(titles(stale), ["yyn", "yarn"], "only the rows that match `yn`, as the old list had them")
        XCTAssertTrue(stale.info.countPending, "the old count is not this query's")
        XCTAssertTrue(stale.info.isBusy)
        guard case .line(let first) = stale.rows.first else { return XCTFail("no line row") }
        XCTAssertFalse(first.isSelected, "the pointer is not drawn on a row that does not match")
        XCTAssertEqual(first.spans.filter(\.isHighlighted).map(\.text).joined(), "yn")
        // Narrowed to nothing: no rows, and no "no matches" said before the search answers.
        d.type("ynq", at: 220)
        stale = frame(d, query: "ynq")
        XCTAssertEqual(stale.rows, [])
        XCTAssertEqual(stale.message, [])
        XCTAssertTrue(stale.info.countPending)
        // The answer: everything as before.
        d.workerAnswers()
        XCTAssertFalse(d.session.showsOlderQuery)
        let answered = frame(d, query: "ynq")
        XCTAssertFalse(answered.info.countPending)
        XCTAssertEqual(answered.info.matches, 0)
        XCTAssertFalse(answered.message.isEmpty, "no matches, said")
        // Widened (backspace): the old list's rows all match the wider query.
        d.type("yn", at: 300)
        d.workerAnswers()
        d.type("y", at: 400)
        stale = frame(d, query: "y")
        XCTAssertEqual(titles(stale), ["yyn", "yarn"])
        XCTAssertTrue(stale.info.countPending)
        d.workerAnswers()
        XCTAssertEqual(titles(frame(d, query: "y")).count, 6)
    }

    func testTheSameQuerySearchedAgainKeepsItsListAndCount() {
        var d = Driver(lines: ["ab", "ac"], loading: true)
        d.type("a", at: 100)
        d.workerAnswers()
        d.stream(["ad"], at: 300)
        XCTAssertFalse(d.session.showsOlderQuery, "more input for the same query: the list is this query's")
        XCTAssertEqual(titles(frame(d, query: "a")), ["ab", "ac"])
    }

    func testRedrawsComeAtMostOnceAFrame() {
        var d = Driver(lines: ["a"], loading: false)
        d.type("", at: 0)
        let drawn = d.draws
        d.now = 5
        d.send(.redraw)
        XCTAssertEqual(d.draws, drawn)
        XCTAssertEqual(d.session.wait(at: 5), Tunables.Session.frameInterval - 5)
        d.now = Tunables.Session.frameInterval
        d.send(.tick)
        XCTAssertEqual(d.draws, drawn + 1)
    }

    /// The first `rows` lines of the whole ranking of `text`, as a large input's first
    /// answer has them.
    private func firstScreen(of text: String, rows: Int, in d: Driver) -> SearchAnswer {
        var result = d.engine.search(text)!
        result.lines = Array(result.lines.prefix(rows))
        result.groups = [SectionGroup(section: 0, range: 0..<rows)]
        return .result(generation: d.session.generation, result)
    }

    func testAFirstScreenAnswerIsFollowedByTheWholeRankingThenSuggestions() {
        var d = Driver(lines: (0..<3000).map { "item\($0)" }, loading: false)
        d.send(.listHeight(16))
        d.type("", at: 0)
        d.type("item1", at: 10)
        guard case .firstRows(16)? = d.workerJob?.kind else { return XCTFail("a keystroke asks for the first rows") }
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        XCTAssertEqual(d.session.shown?.isComplete, false)
        XCTAssertEqual(d.draws, 3, "the first screen is drawn at once (after the query's, of the old rows)")
        XCTAssertEqual(d.workerJob?.kind, .whole, "once the first screen is drawn, the rest is asked for")
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.isComplete, true)
        guard case .suggestions? = d.workerJob?.kind else { return XCTFail("then the suggestions") }
        d.workerAnswers()
        XCTAssertEqual(d.session.suggestions, ["suggested"])
        XCTAssertNil(d.workerJob)
    }

    func testOnALargeInputTheWholeRankingIsFollowedByTheRefinementToo() {
        var settings = PickSession.Settings()
        settings.notesRestsFromLines = 3000
        var d = Driver(lines: (0..<3000).map { "item\($0)" }, loading: false, settings: settings)
        d.send(.listHeight(16))
        d.type("", at: 0)
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        XCTAssertEqual(d.workerJob?.kind, .whole)
        d.workerAnswers()
        guard case .suggestions? = d.workerJob?.kind else { return XCTFail("then the suggestions") }
        d.workerAnswers()
        XCTAssertEqual(d.workerJob?.kind, .refineBounds, "then the next key's rests noted, while idle")
        d.workerAnswers()
        XCTAssertNil(d.workerJob, "and then nothing")
        // The query emptied: its list of every line, and no rests noted beside it.
        d.type("", at: 20)
        var jobs = 0
        while let job = d.workerJob, jobs < 10 {
            jobs += 1
            XCTAssertNotEqual(job.kind, .refineBounds, "no refinement for the empty query")
            d.workerAnswers()
        }
        XCTAssertEqual(d.session.shown?.isComplete, true)
        XCTAssertEqual(d.session.shown?.matchCount, 3000)
    }

    func testAnAnswerForAnOlderQueryIsDropped() {
        var d = Driver(lines: ["ab", "b"], loading: false)
        d.type("a", at: 0)
        let old = d.workerJob!
        d.type("b", at: 10)
        d.send(.answered(d.answer(old)))
        XCTAssertNil(d.session.shown, "the older query's answer never shows as the new one's")
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.count, 2)
    }

    func testMovingPastTheFirstRowsRanksTheRestAtOnce() {
        var d = Driver(lines: (0..<3000).map { "item\($0)" }, loading: false)
        d.send(.listHeight(16))
        d.type("", at: 0)
        d.type("item", at: 10)
        d.send(.answered(firstScreen(of: "item", rows: 16, in: d)))
        d.send(.move(by: 20, wraps: false))
        XCTAssertEqual(d.ranNow.last?.kind, .whole)
        XCTAssertEqual(d.session.selection, 20, "the move lands where it would on the whole list")
        XCTAssertTrue(d.session.shown!.isComplete)
    }

    /// A session whose first screens of at least 100 matches stand without their rest.
    private func deferring(from matches: Int = 100, multi: Bool = false, track: Bool = false) -> Driver {
        var settings = PickSession.Settings(multi: multi)
        settings.defersRankingFromMatches = matches
        settings.track = track
        var d = Driver(lines: (0..<3000).map { "item\($0)" }, loading: false, settings: settings)
        d.send(.listHeight(16))
        d.type("", at: 0)
        return d
    }

    func testAFirstScreenOfManyMatchesIsFollowedBySuggestionsAndRefinedBoundsNotItsRest() {
        var d = deferring()
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        XCTAssertTrue(d.session.defersWholeRanking, "1,542 matches, 16 ranked")
        XCTAssertEqual(d.session.shown?.matchCount, d.engine.search("item1")!.lines.count, "the count is every match's")
        XCTAssertEqual(d.workerJob?.kind, .suggestions(matches: nil, scope: 0),
                       "the suggestions next, from the lines the engine found, not the rest")
        d.workerAnswers()
        XCTAssertEqual(d.session.suggestions, ["suggested"])
        XCTAssertEqual(d.workerJob?.kind, .refineBounds, "then the bounds made exact, while idle")
        d.workerAnswers()
        XCTAssertNil(d.workerJob, "and then nothing")
        XCTAssertEqual(d.session.shown?.isComplete, false)
    }

    func testAFirstScreenOfFewerMatchesIsStillFollowedByItsRest() {
        var d = deferring(from: 2000)
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        XCTAssertFalse(d.session.defersWholeRanking, "1,542 matches")
        XCTAssertEqual(d.workerJob?.kind, .whole)
    }

    func testReturnOnAFirstScreenWhoseRestWaitsPicksTheWholeRankingsFirst() {
        var d = deferring()
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        guard case .searchFirst(let job) = d.session.accept() else { return XCTFail("Return ranks the rest first") }
        XCTAssertEqual(job.kind, .whole)
        d.send(.answered(d.answer(job)))
        XCTAssertEqual(d.accepted(), [d.text(d.engine.search("item1")!.lines[0])!])
        XCTAssertEqual(d.session.wholeResultJob(), nil)
    }

    func testMovingPastAFirstScreenWhoseRestWaitsRanksItAtOnce() {
        var d = deferring()
        d.type("item", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item", rows: 16, in: d)))
        XCTAssertNotNil(d.session.wholeResultJob(), "select-all would rank the rest first")
        let ran = d.ranNow.count
        d.send(.move(by: 15, wraps: false))
        XCTAssertEqual(d.ranNow.count, ran, "within the rows shown")
        d.send(.move(by: 1, wraps: false))
        XCTAssertEqual(d.ranNow.last?.kind, .whole)
        XCTAssertEqual(d.session.selection, 16)
        XCTAssertEqual(d.session.highlighted, d.engine.search("item")!.lines[16])
    }

    func testPagesTypedBeforeTheNewQuerysFirstScreenComesGoPastIt() {
        // Three PageDowns while the new query's answer is on its way, over the older query's
        // first screen: the second and third wait for the new query's whole ranking (made on
        // the first screen, they stopped at its last row).
        var d = deferring()
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        d.type("item", at: 20)
        let ran = d.ranNow.count
        for _ in 0..<3 { d.send(.move(by: 13, wraps: false)) }
        XCTAssertEqual(d.session.selection, 13, "the older list's rows hold the first page only")
        XCTAssertEqual(d.ranNow.count, ran, "the new query's list comes first")
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item", rows: 16, in: d)))
        XCTAssertEqual(d.ranNow.last?.kind, .whole)
        XCTAssertEqual(d.session.selection, 39)
        XCTAssertEqual(d.session.highlighted, d.engine.search("item")!.lines[39])
    }

    func testReturnAfterPagesTypedBeforeTheNewQuerysListPicksWhereTheyLand() {
        var d = deferring()
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        d.type("item", at: 20)
        for _ in 0..<3 { d.send(.move(by: 13, wraps: false)) }
        guard case .searchFirst(let job) = d.session.accept() else { return XCTFail("Return ranks the list first") }
        XCTAssertEqual(job.kind, .whole)
        d.send(.answered(d.answer(job)))
        XCTAssertEqual(d.accepted(), [d.text(d.engine.search("item")!.lines[39])!])
    }

    func testAMarkTypedAfterWaitingPagesMarksTheLineTheyReach() {
        var d = deferring(multi: true)
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item1", rows: 16, in: d)))
        d.type("item", at: 20)
        d.send(.move(by: 13, wraps: false))
        d.send(.move(by: 13, wraps: false))
        d.send(.toggleMark)
        XCTAssertEqual(d.session.marks, [], "the mark waits with the page before it")
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item", rows: 16, in: d)))
        XCTAssertEqual(d.session.marks, [d.engine.search("item")!.lines[26]])
    }

    func testARowReachedOnAnOlderQuerysListIsNotCutToTheNewFirstScreen() {
        // The older query's list is whole: the move is made on it, and the new query's list
        // keeps its row (fzf's), past the new first screen's rows once it is ranked whole.
        var d = deferring()
        d.type("item1", at: 10)
        d.workerJob = nil
        d.send(.answered(.result(generation: d.session.generation, d.engine.search("item1")!)))
        d.type("item", at: 20)
        d.send(.move(by: 39, wraps: false))
        XCTAssertEqual(d.session.selection, 39)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item", rows: 16, in: d)))
        XCTAssertEqual(d.ranNow.last?.kind, .whole)
        XCTAssertEqual(d.session.selection, 39)
        XCTAssertEqual(d.session.highlighted, d.engine.search("item")!.lines[39])
    }

    func testWithTrackPagesTypedBeforeTheFirstScreenComesGoPastIt() {
        // --track: pages typed while the new query's list is to say where the line went are
        // made from where it lands (here the first row), over the whole ranking.
        var d = deferring(track: true)
        d.type("item", at: 10)
        for _ in 0..<3 { d.send(.move(by: 13, wraps: false)) }
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item", rows: 16, in: d)))
        XCTAssertEqual(d.ranNow.last?.kind, .whole)
        XCTAssertEqual(d.session.selection, 39)
        XCTAssertEqual(d.session.highlighted, d.engine.search("item")!.lines[39])
    }

    func testTrackingALineAFirstScreenLacksAsksForTheRest() {
        var d = deferring(track: true)
        d.send(.move(by: 2999, wraps: false))
        d.type("item", at: 10)
        d.workerJob = nil
        d.send(.answered(firstScreen(of: "item", rows: 16, in: d)))
        XCTAssertFalse(d.session.defersWholeRanking, "item2999 is not among the first rows")
        XCTAssertEqual(d.workerJob?.kind, .whole)
        d.workerAnswers()
        XCTAssertEqual(d.text(d.session.highlighted), "item2999")
    }
}

final class SessionSelectionTests: XCTestCase {
    func testTheHighlightStaysOnItsLineWhileInputStreamsIn() {
        var d = Driver(lines: ["xa", "xb", "xc"], loading: true)
        d.type("x", at: 100)
        d.workerAnswers()
        d.send(.move(by: 2, wraps: false))
        XCTAssertEqual(d.text(d.session.highlighted), "xc")
        // Better matches arrive and rank above it.
        d.stream(["x", "x-1"], at: 300)
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.count, 5)
        XCTAssertEqual(d.text(d.session.highlighted), "xc", "the highlight follows the line, not the position")
        XCTAssertNotEqual(d.session.selection, 2)
    }

    func testANewQueryHighlightsItsFirstLine() {
        var d = Driver(lines: ["ab", "ac", "ad"], loading: false)
        d.type("a", at: 0)
        d.workerAnswers()
        d.send(.move(by: 1, wraps: false))
        d.type("ad", at: 50)
        d.workerAnswers()
        XCTAssertEqual(d.session.selection, 0)
        XCTAssertFalse(d.session.moved)
    }

    func testAMoveTypedBeforeTheNewQuerysListComesKeepsItsRow() {
        // fzf's test_vanilla: keys typed faster than the search; the query's change puts the
        // highlight on the first row, and a move after it holds once the list comes.
        var d = Driver(lines: ["ab", "ac", "ad", "b"], loading: false)
        d.type("", at: 0)
        d.type("a", at: 50)
        d.send(.move(by: 1, wraps: false))
        d.workerAnswers()
        XCTAssertEqual(d.session.selection, 1)
        XCTAssertEqual(d.text(d.session.highlighted), "ac")
        d.type("ad", at: 100)
        d.send(.move(by: 3, wraps: false))
        d.workerAnswers()
        XCTAssertEqual(d.session.selection, 0, "kept within the new list's one line")
    }

    func testWithTrackTheHighlightStaysOnItsLineAsTheQueryChanges() {
        let lines = (1...30).map(String.init)
        var d = Driver(lines: lines, loading: false, settings: .init(track: true))
        d.type("", at: 0)
        d.send(.move(by: 12, wraps: false))
        XCTAssertEqual(d.text(d.session.highlighted), "13")
        d.type("3", at: 50)
        d.workerAnswers()
        XCTAssertEqual(d.text(d.session.highlighted), "13", "as fzf --track: 13 still matches, so it stays highlighted")
        XCTAssertEqual(d.accepted(), ["13"], "Return picks the tracked line, not the first match")
        d.type("", at: 100)
        d.send(.answered(d.answer(SearchJob(generation: d.session.generation, text: "", kind: .whole))))
        XCTAssertEqual(d.text(d.session.highlighted), "13", "and back in the whole list")
    }

    func testWithTrackALineThatNoLongerMatchesLeavesTheHighlightWhereItWas() {
        var d = Driver(lines: (1...30).map(String.init), loading: false, settings: .init(track: true))
        d.type("", at: 0)
        d.send(.move(by: 2, wraps: false))
        d.type("5", at: 50)
        d.workerAnswers()
        // 3 is gone; as in fzf the highlight keeps its position: the third of 5, 15, 25.
        XCTAssertEqual(d.session.selection, 2)
        XCTAssertEqual(d.text(d.session.highlighted), "25")
    }

    func testWithoutTrackANewQueryStillHighlightsItsFirstLine() {
        var d = Driver(lines: (1...30).map(String.init), loading: false)
        d.type("", at: 0)
        d.send(.move(by: 12, wraps: false))
        d.type("3", at: 50)
        d.workerAnswers()
        XCTAssertEqual(d.text(d.session.highlighted), "3")
    }

    func testCycleWrapsOnlyWhenAsked() {
        var d = Driver(lines: ["a", "b", "c"], loading: false, settings: .init(cycle: true))
        d.type("", at: 0)
        d.send(.move(by: -1, wraps: true))
        XCTAssertEqual(d.text(d.session.highlighted), "c")
        var plain = Driver(lines: ["a", "b", "c"], loading: false)
        plain.type("", at: 0)
        plain.send(.move(by: -1, wraps: true))
        XCTAssertEqual(plain.text(plain.session.highlighted), "a")
    }

    func testMarksKeepTheirOrderAndTheLimit() {
        var d = Driver(lines: ["a", "b", "c"], loading: false, settings: .init(multi: true, multiLimit: 2))
        d.type("", at: 0)
        d.send(.move(by: 2, wraps: false))
        d.send(.toggleMark)
        d.send(.move(by: -2, wraps: false))
        d.send(.toggleMark)
        d.send(.move(by: 1, wraps: false))
        d.send(.toggleMark)
        XCTAssertEqual(d.accepted(), ["c", "a"], "marked order, and no third mark past --multi=2")
        d.send(.move(by: 1, wraps: false))
        d.send(.toggleMark)
        XCTAssertEqual(d.accepted(), ["a"])
    }

    func testAScopeShowsOnlyItsSection() {
        var d = Driver(lines: ["New\tCreate", "Save\tActions", "Open\tActions"], loading: false)
        d.type("", at: 0)
        d.send(.scope(2))
        XCTAssertEqual(d.session.shown?.lines.map { d.text($0)! }, ["Save\tActions", "Open\tActions"])
        XCTAssertEqual(d.accepted(), ["Save\tActions"])
    }

    func testSuggestionsComeFromTheLinesTheScopeShowsAndFollowIt() {
        var d = Driver(lines: ["Save\tActions", "Sort\tGo to", "Sync\tGo to"], loading: false)
        d.type("", at: 0)
        d.type("s", at: 100)
        d.workerAnswers()
        guard case .suggestions(let all, 0)? = d.workerJob?.kind else { return XCTFail("suggestions for All") }
        XCTAssertEqual(Set(all ?? []), [0, 1, 2])
        let stale = d.workerJob!
        d.send(.scope(2))
        XCTAssertEqual(d.session.suggestionGeneration, -1, "the suggestions of another scope are gone")
        d.now = 200
        d.send(.tick)
        guard case .suggestions(let goTo, 2)? = d.workerJob?.kind else { return XCTFail("asked again for Go to") }
        XCTAssertEqual(Set(goTo ?? []), [1, 2], "only the lines the scope shows")
        d.send(.answered(d.answer(stale)))
        XCTAssertEqual(d.session.suggestionGeneration, -1, "an answer for the scope left is dropped")
        d.workerAnswers()
        XCTAssertEqual(d.session.suggestions, ["suggested"])
    }

    func testTabBeforeTheSuggestionsCameRunsWhatTheyNeed() {
        var d = Driver(lines: ["alpha", "beta"], loading: false)
        d.type("", at: 0)
        d.type("a", at: 100)
        XCTAssertEqual(d.session.completionJob()?.kind, .whole, "the list's search first")
        d.workerAnswers()
        guard case .suggestions(_, 0)? = d.session.completionJob()?.kind else { return XCTFail("then the suggestions") }
        d.workerAnswers()
        XCTAssertNil(d.session.completionJob(), "and then nothing")
    }
}

final class SessionAcceptTests: XCTestCase {
    func testReturnWhileInputStreamsPrintsTheHighlightedLine() {
        var d = Driver(lines: ["x1", "x2", "x3"], loading: true)
        d.type("x", at: 100)
        d.workerAnswers()
        d.send(.move(by: 1, wraps: false))
        XCTAssertEqual(d.text(d.session.highlighted), "x2")
        // More lines arrive, one of them a better match, before any new answer.
        d.stream(["x"], at: 120)
        XCTAssertEqual(d.accepted(), ["x2"], "Return prints what is highlighted, not what is now at its position")
    }

    func testReturnBeforeMovingPrintsTheFirstLineOfTheWholeRanking() {
        var d = Driver(lines: ["xyz1", "xyz2"], loading: true)
        d.type("xyz", at: 100)
        d.workerAnswers()
        d.stream(["xyz"], at: 120)
        // The answer on screen does not cover the line just read: search first.
        guard case .searchFirst(let job) = d.session.accept() else { return XCTFail("a stale answer is searched again") }
        d.send(.answered(d.answer(job)))
        XCTAssertEqual(d.accepted(), ["xyz"], "the line pick --filter prints first")
    }

    func testAClickedLineIsPrintedEvenWhenItIsTheFirst() {
        var d = Driver(lines: ["x1", "x2"], loading: true)
        d.type("x", at: 100)
        d.workerAnswers()
        d.send(.select(0))
        d.stream(["x"], at: 120)
        XCTAssertEqual(d.accepted(), ["x1"], "the line pointed at, not the better match that arrived since")
    }

    func testReturnWithNothingMatchedPrintsNothing() {
        var d = Driver(lines: ["a"], loading: false)
        d.type("zzz", at: 0)
        d.workerAnswers()
        XCTAssertEqual(d.session.accept(), .nothing)
    }
}

final class SessionCloseMatchesTests: XCTestCase {
    private let lines = ["Settings", "Save All", "Set Theme", "Go to File"]
    private let typos = PickSession.Settings(typos: MatchingOptions())
    private let palette = PickSession.Settings(typos: MatchingOptions(), forgivesTypos: true)

    func testAShortListIsFilledWithCloseMatchesUnderTheirHeader() {
        var d = Driver(lines: lines, loading: false, settings: typos)
        d.type("setitngs", at: 0)
        d.workerAnswers()
        XCTAssertTrue(d.session.awaitsCloseMatches, "the real answer is drawn first; the close matches follow")
        guard case .closeMatches = d.workerJob?.kind else { return XCTFail("close matches were not asked for") }
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.map { d.text($0)! }, ["Settings"])
        XCTAssertEqual(d.session.shown?.groups.last?.section, SectionGroup.closeMatches)
        XCTAssertEqual(d.session.shown?.matchCount, 0, "the info line counts real matches only")
        XCTAssertNil(d.session.highlighted, "nothing is highlighted until the person points")
        XCTAssertEqual(d.session.accept(), .nothing, "Return acts on no line the query did not match")
        d.send(.move(by: 1, wraps: false))
        XCTAssertEqual(d.session.highlighted.flatMap { d.text($0) }, "Settings", "the first move points at the first one")
        XCTAssertEqual(d.accepted(), ["Settings"], "Return picks the close match pointed at")
    }

    func testSelectAllAndToggleMarkNoCloseMatch() {
        var d = Driver(lines: lines, loading: false, settings: PickSession.Settings(multi: true, typos: MatchingOptions()))
        d.type("setitngs", at: 0)
        d.workerAnswers()
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.closeMatches, 1)
        d.send(.marks(.all))
        XCTAssertEqual(d.session.marks, [], "select-all marks real matches only")
        d.send(.marks(.invert))
        XCTAssertEqual(d.session.marks, [], "toggle-all likewise")
        d.send(.toggleMark)
        XCTAssertEqual(d.session.marks, [], "nothing is highlighted to mark")
        XCTAssertEqual(d.session.accept(), .nothing)
        d.send(.select(0))
        d.send(.toggleMark)
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["Settings"], "a clicked close match is marked")
    }

    func testAPaletteHighlightsTheFirstCloseMatch() {
        var d = Driver(lines: lines, loading: false, settings: palette)
        d.type("setitngs", at: 0)
        d.workerAnswers()
        d.workerAnswers()
        XCTAssertEqual(d.session.highlighted.flatMap { d.text($0) }, "Settings")
        XCTAssertEqual(d.accepted(), ["Settings"], "a palette forgives the typo")
    }

    func testReturnBeforeTheCloseMatchesComeWaitsForThemInAPalette() {
        var d = Driver(lines: lines, loading: false, settings: palette)
        d.type("setitngs", at: 0)
        d.workerAnswers()
        guard case .searchFirst(let job) = d.session.accept(), case .closeMatches = job.kind else {
            return XCTFail("Return would not wait for the close matches")
        }
        d.send(.answered(d.answer(job)))
        XCTAssertEqual(d.accepted(), ["Settings"])
    }

    func testRealMatchesComeFirst() {
        var d = Driver(lines: lines + ["sxet things"], loading: false, settings: typos)
        d.type("sethings", at: 0)
        d.workerAnswers()
        d.workerAnswers()
        let shown = d.session.shown!
        XCTAssertEqual(shown.lines.prefix(shown.matchCount).map { d.text($0)! }, ["sxet things"])
        XCTAssertEqual(shown.closeMatches, 1)
        XCTAssertEqual(shown.lines.map { d.text($0)! }, ["sxet things", "Settings"])
        XCTAssertEqual(d.accepted(), ["sxet things"])
    }

    func testNoCloseMatchesWithoutTyposOrForShortQueriesOrAFullList() {
        var off = Driver(lines: lines, loading: false)
        off.type("setitngs", at: 0)
        off.workerAnswers()
        XCTAssertFalse(off.session.awaitsCloseMatches)
        XCTAssertEqual(off.session.accept(), .nothing, "--no-typos: nothing matched, nothing printed")

        var short = Driver(lines: lines, loading: false, settings: typos)
        short.type("stx", at: 0)
        short.workerAnswers()
        XCTAssertFalse(short.session.awaitsCloseMatches)

        var full = Driver(lines: (0..<40).map { "setitngs \($0)" } + ["Settings"], loading: false, settings: typos)
        full.send(.listHeight(16))
        full.type("setitngs", at: 0)
        full.workerAnswers()
        XCTAssertFalse(full.session.awaitsCloseMatches, "real matches fill the list: nothing to look for")
    }

    func testCloseMatchesWaitForTheInputToLoad() {
        var d = Driver(lines: ["Settings"], loading: true, settings: palette)
        d.type("setitngs", at: 100)
        d.workerAnswers()
        XCTAssertFalse(d.session.awaitsCloseMatches, "each batch of input would stop them")
        if case .closeMatches = d.workerJob?.kind { XCTFail("close matches asked for while input loads") }
        d.stream(["Save All"], loading: false, at: 200)
        d.workerAnswers()
        guard case .closeMatches = d.workerJob?.kind else { return XCTFail("not asked for once input ended") }
        d.workerAnswers()
        XCTAssertEqual(d.accepted(), ["Settings"])
    }

    func testTheFrameShowsTheHeaderAboveTheCloseMatches() {
        var d = Driver(lines: lines, loading: false, settings: typos)
        d.type("setitngs", at: 0)
        d.workerAnswers()
        d.workerAnswers()
        let input = FrameInput(width: 40, listHeight: 10, result: d.session.shown, query: Query("setitngs"),
                               queryText: "setitngs", total: d.store.count)
        let frame = FrameBuilder.build(input, store: d.store)
        XCTAssertEqual(frame.rows.first, .section(CloseMatches.header))
        guard case .line(let row) = frame.rows.dropFirst().first else { return XCTFail("no line row") }
        XCTAssertEqual(row.spans.filter(\.isHighlighted).map(\.text).joined().count, 7,
                       "the seven letters of the close reading are highlighted")
        XCTAssertEqual(frame.message, [])
    }
}

/// `--remember`'s forget key: the same query is searched again, with the line forgotten.
final class SessionRankingChangeTests: XCTestCase {
    func testAForgottenLineIsRankedAgainAndTheHighlightGoesToTheTop() {
        var d = Driver(lines: ["x/alpha-long.txt", "x/alpha.txt"], loading: false)
        var memory = RememberedPicks()
        memory.add(line: Array("x/alpha-long.txt".utf8), query: "alp", weight: 3)
        d.engine.remember(memory)
        d.type("alp", at: 0)
        d.workerAnswers()
        XCTAssertEqual(d.text(d.session.highlighted), "x/alpha-long.txt")
        d.send(.move(by: 1, wraps: false))
        XCTAssertEqual(d.text(d.session.highlighted), "x/alpha.txt")
        d.engine.forgetRemembered(Array("x/alpha-long.txt".utf8))
        d.now = 50
        d.send(.rankingChanged)
        XCTAssertEqual(d.workerJob?.text, "alp", "the same query, searched again")
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.map { d.text($0)! }, ["x/alpha.txt", "x/alpha-long.txt"])
        XCTAssertEqual(d.session.selection, 0)
        XCTAssertEqual(d.accepted(), ["x/alpha.txt"])
    }
}

/// What `--bind`'s actions ask of the session: marks of the whole list, a query that does
/// not filter, the same query searched again, a reload's new store.
final class SessionBindingTests: XCTestCase {
    func testMarkingAllInvertingAndClearingTheMarks() {
        var d = Driver(lines: ["apple", "banana", "cherry", "avocado"], loading: false,
                       settings: .init(multi: true))
        d.type("a", at: 0)
        d.workerAnswers()
        XCTAssertNil(d.session.wholeResultJob(), "the list shows the whole ranking")
        d.send(.marks(.all))
        XCTAssertEqual(Set(d.session.marks.compactMap(d.text)), ["apple", "banana", "avocado"])
        d.type("", at: 10)
        d.send(.toggleMark)  // the first line, apple, unmarked
        d.send(.marks(.invert))
        XCTAssertEqual(Set(d.session.marks.compactMap(d.text)), ["apple", "cherry"])
        d.send(.marks(.none))
        XCTAssertEqual(d.session.marks, [])
    }

    func testMarkingAllKeepsToTheLimit() {
        var d = Driver(lines: ["a1", "a2", "a3"], loading: false, settings: .init(multi: true, multiLimit: 2))
        d.type("", at: 0)
        d.send(.marks(.all))
        XCTAssertEqual(d.session.marks.count, 2)
    }

    func testAQueryThatDoesNotFilterListsEveryLine() {
        var d = Driver(lines: ["one", "two", "three"], loading: false)
        d.session.filters = false
        d.type("zzz", at: 0)
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertEqual(d.session.shown?.lines.count, 3)
        XCTAssertEqual(d.session.queryText, "zzz")
        d.session.filters = true
        d.send(.searchAgain)
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertEqual(d.session.shown?.lines.count, 0, "searched again, the query filters")
    }

    func testAReloadWhileCloseMatchesAreListedShowsOnlyTheNewLines() {
        var d = Driver(lines: (1...20).map(String.init) + ["9999", "99199", "99999"], loading: false,
                       settings: .init(typos: MatchingOptions()))
        d.type("99x99", at: 0)
        d.workerAnswers()
        guard case .closeMatches = d.workerJob?.kind else { return XCTFail("close matches were not asked for") }
        d.workerAnswers()
        XCTAssertGreaterThan(d.session.shown?.closeMatches ?? 0, 0, "close matches listed before the reload")
        d.replaceInput(with: (1...10).map(String.init))
        // Every answer, the first one for the new list included (a frame follows each).
        while d.workerJob != nil {
            d.workerAnswers()
            let shown = d.session.shown?.lines ?? []
            XCTAssertTrue(shown.allSatisfy { Int($0) < d.store.count }, "a line listed is not one of the new list's")
        }
        d.type("", at: 1000)
        while d.workerJob != nil { d.workerAnswers() }
        XCTAssertEqual(d.session.shown?.lines.map { d.text($0)! }, (1...10).map(String.init))
    }

    func testAReplacedInputDropsTheOldAnswerAndMarks() {
        var d = Driver(lines: ["one", "two"], loading: false, settings: .init(multi: true))
        d.type("o", at: 0)
        let stale = d.workerJob!
        d.send(.toggleMark)
        d.send(.inputReplaced)
        XCTAssertNil(d.session.shown)
        XCTAssertEqual(d.session.marks, [])
        XCTAssertTrue(d.session.isLoading)
        d.send(.answered(d.answer(stale)))
        XCTAssertNil(d.session.shown, "an answer about the old store is dropped")
    }

    func testTheFirstListIsListedOnceItHasLinesOrTheInputIsReadWhole() {
        var d = Driver(lines: [], loading: true)
        d.type("", at: Tunables.Session.firstListHold + 1)
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertNotNil(d.session.shown)
        XCTAssertFalse(d.session.listedOnce, "an empty list while the input loads: the preview waits")
        d.stream(["one"], at: Tunables.Session.firstListHold + 2)
        while d.workerJob != nil { d.workerAnswers() }
        d.stream([], loading: true, at: Tunables.Session.firstListHold + Tunables.Session.refreshInterval + 3)
        while d.workerJob != nil { d.workerAnswers() }
        XCTAssertTrue(d.session.listedOnce, "its first line")

        var empty = Driver(lines: [], loading: true)
        empty.type("", at: Tunables.Session.firstListHold + 1)
        if empty.workerJob != nil { empty.workerAnswers() }
        empty.stream([], loading: false, at: Tunables.Session.firstListHold + 2)
        XCTAssertTrue(empty.session.listedOnce, "read whole with no line")
    }

    func testAReloadKeepsTheOldListAndTurnsTheSpinnerUntilItsLinesCome() {
        var d = Driver(lines: ["one", "two"], loading: false)
        d.type("", at: 0)
        XCTAssertFalse(d.session.isBusy)
        let draws = d.draws
        d.now = 1000
        d.send(.reloadStarted)
        XCTAssertTrue(d.session.isBusy, "the spinner turns while the command runs")
        XCTAssertGreaterThan(d.draws, draws, "a frame shows the spinner")
        XCTAssertEqual(d.session.shown?.lines.map { d.text($0)! }, ["one", "two"], "the old list stays")
        XCTAssertEqual(d.session.wait(at: 1000), Tunables.Session.spinnerInterval)
        d.send(.move(by: 1, wraps: false))
        XCTAssertEqual(d.text(d.session.highlighted), "two", "the old list is still usable")
        d.replaceInput(with: ["three"])
        while d.workerJob != nil { d.workerAnswers() }
        XCTAssertFalse(d.session.isReloading)
        XCTAssertFalse(d.session.isBusy, "the reload read whole: the spinner stops")
        XCTAssertEqual(d.session.shown?.lines.map { d.text($0)! }, ["three"])
    }
}

/// When `--bind`'s events fire, replayed on a session.
final class EventWatchTests: XCTestCase {
    func testStartThenLoadThenFocusAndResult() {
        var d = Driver(lines: ["alpha", "beta"], loading: true)
        var watch = EventWatch()
        XCTAssertEqual(watch.events(in: d.session, loading: true), [.start])
        XCTAssertEqual(watch.events(in: d.session, loading: true), [], "nothing new, nothing fires")
        d.stream(["gamma"], loading: false, at: Tunables.Session.firstListHold + 1)
        d.type("", at: Tunables.Session.firstListHold + 2)
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertEqual(watch.events(in: d.session, loading: false), [.load, .focus, .result, .resultFinal])
        d.send(.move(by: 1, wraps: false))
        XCTAssertEqual(watch.events(in: d.session, loading: false), [.focus])
        watch.inputReplaced()
        XCTAssertEqual(watch.events(in: d.session, loading: false), [.load], "a reload read whole loads again")
    }

    func testOneAndZeroFireOnceForTheWholeInput() {
        var d = Driver(lines: ["alpha", "beta", "gamma"], loading: false)
        var watch = EventWatch()
        d.type("", at: 0)
        _ = watch.events(in: d.session, loading: false)
        d.type("gam", at: 10)
        d.workerAnswers()
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertEqual(watch.events(in: d.session, loading: false), [.focus, .result, .resultFinal, .one])
        XCTAssertEqual(watch.events(in: d.session, loading: false), [])
        d.type("gamz", at: 20)
        XCTAssertEqual(watch.events(in: d.session, loading: false), [], "the old query's answer fires nothing")
        d.workerAnswers()
        XCTAssertEqual(watch.events(in: d.session, loading: false), [.focus, .result, .resultFinal, .zero])
    }

    func testACloseMatchIsNoOne() {
        // `--bind one:accept` must not pick a line the query did not match.
        var d = Driver(lines: ["Settings", "Save All"], loading: false, settings: .init(typos: MatchingOptions()))
        var watch = EventWatch()
        d.type("setitngs", at: 0)
        d.workerAnswers()
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.closeMatches, 1, "the close match is listed")
        XCTAssertEqual(watch.events(in: d.session, loading: false).last, .zero)
    }

    func testResultFinalFiresOnlyOnceTheInputIsReadWhole() {
        var d = Driver(lines: ["alpha", "beta"], loading: true)
        var watch = EventWatch()
        d.type("a", at: Tunables.Session.firstListHold + 1)
        d.workerAnswers()
        if d.workerJob != nil { d.workerAnswers() }
        let whileLoading = watch.events(in: d.session, loading: true)
        XCTAssertTrue(whileLoading.contains(.result))
        XCTAssertFalse(whileLoading.contains(.resultFinal), "more lines may come: the result is not final")
        d.stream(["gamma"], loading: false, at: Tunables.Session.firstListHold + 2)
        d.send(.tick)
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertEqual(watch.events(in: d.session, loading: false), [.load, .result, .resultFinal])
    }

    func testNoOneWhileInputStillLoads() {
        var d = Driver(lines: ["alpha", "beta"], loading: true)
        var watch = EventWatch()
        d.type("alp", at: Tunables.Session.firstListHold + 1)
        d.workerAnswers()
        if d.workerJob != nil { d.workerAnswers() }
        XCTAssertFalse(watch.events(in: d.session, loading: true).contains(.one), "more lines may match yet")
    }
}
