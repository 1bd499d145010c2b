@testable import PickCore
import XCTest

/// fzf's moves to matches and marks, scrolling, tracking, marking on and off, raw mode and
/// jump mode, as `PickSession.decide` has them (issue 30), replayed on a real engine.
extension ActionPolicyTests {
    func rawDriver(_ count: Int = 30, multi: Bool = false) -> Driver {
        var d = Driver(lines: (1...count).map { "line\($0)" }, loading: false, settings: .init(multi: multi), raw: true)
        d.type("", at: 0)
        return d
    }

    func testRawModeListsEveryLineInInputOrderAndCountsTheMatches() {
        var d = rawDriver()
        d.type("'line2", at: 100)
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.count, 30, "every line stays listed")
        XCTAssertEqual(d.session.shown?.matchCount, 11, "line2 and line20…line29 match")
        XCTAssertEqual(highlighted(d), "line1", "the highlight keeps its place, on a line that does not match")
        XCTAssertFalse(d.session.matches(at: 0))
        XCTAssertTrue(d.session.matches(at: 1))
    }

    func testUpMatchAndDownMatchSkipTheDimmedLinesInRawMode() {
        var d = rawDriver()
        d.type("'line2", at: 100)
        d.workerAnswers()
        press(&d, "down-match")
        XCTAssertEqual(highlighted(d), "line2")
        press(&d, "down-match")
        XCTAssertEqual(highlighted(d), "line20", "line3…line19 are skipped")
        press(&d, "down+down-match")
        XCTAssertEqual(highlighted(d), "line22")
        press(&d, "last+up-match")
        XCTAssertEqual(highlighted(d), "line29")
        press(&d, "last+down-match")
        XCTAssertEqual(highlighted(d), "line30", "no match below: the highlight stays")

        var plain = driver()
        press(&plain, "down-match+down-match")
        XCTAssertEqual(highlighted(plain), "line3", "without raw mode, as down")
    }

    func testBestGoesToTheLineRankedFirstInRawModeAndToTheFirstOtherwise() {
        var d = rawDriver()
        d.type("line29", at: 100)
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), "line1")
        press(&d, "best")
        XCTAssertEqual(highlighted(d), "line29")

        var plain = driver()
        press(&plain, "down+down+best")
        XCTAssertEqual(highlighted(plain), "line1", "as first")
    }

    func testTogglingRawModeKeepsTheLineOrGoesToTheNearestMatchAndDropsDimmedMarks() {
        var d = driver(multi: true)
        d.type("'line2", at: 100)
        d.workerAnswers()
        press(&d, "down")
        XCTAssertEqual(highlighted(d), "line20")
        press(&d, "toggle-raw")
        d.workerAnswers()
        XCTAssertTrue(d.session.raw)
        XCTAssertEqual(d.session.shown?.lines.count, 30)
        XCTAssertEqual(highlighted(d), "line20", "the highlight stays on its line")
        press(&d, "toggle+up+toggle+up")
        XCTAssertEqual(d.session.marks.count, 2, "a dimmed line can be marked")
        XCTAssertEqual(highlighted(d), "line18")
        press(&d, "toggle-raw")
        d.workerAnswers()
        XCTAssertFalse(d.session.raw)
        XCTAssertEqual(highlighted(d), "line20", "the nearest match to the dimmed line18, later lines first")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line20"], "the mark on the dimmed line19 goes")
        XCTAssertTrue(press(&d, "disable-raw").isEmpty, "raw mode is off already")
    }

    func testMovesTypedBeforeToggleRawsListArrivesAreMadeOnThatList() {
        var d = driver()
        d.type("'line2", at: 100)
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), "line2")
        press(&d, "toggle-raw+down-match+down-match")
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.count, 30, "the raw list came after the moves")
        XCTAssertEqual(highlighted(d), "line21", "from line2, past the dimmed line3…line19, twice (fzf's)")
        press(&d, "toggle-raw+up")
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), "line20", "back in the matches, one up from line21")
    }

    func testToggleRawAgainBeforeItsListCameMakesTheMovesOnThatListFirst() {
        var d = driver()
        d.type("'line2", at: 100)
        d.workerAnswers()
        press(&d, "toggle-raw" + String(repeating: "+down", count: 12))
        XCTAssertTrue(d.session.movesWait, "the moves wait for the raw list")
        press(&d, "toggle-raw")
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), "line20", "line14 in the raw list, then the nearest match (fzf's test_raw_mode)")
    }

    func testMovesTypedBeforeTrackedQuerysListArrivesStartFromTheTrackedLine() throws {
        var d = Driver(lines: (1...30).map { "line\($0)" }, loading: false, settings: .init(track: true))
        d.type("", at: 0)
        press(&d, "pos(21)")
        d.type("line2", at: 100)
        press(&d, "down+down")
        d.workerAnswers()
        XCTAssertEqual(d.session.shown?.lines.firstIndex { d.text($0) == "line21" }.map { $0 + 2 },
                       d.session.selection, "two rows down from line21, where tracking put it")
        let tracked = highlighted(d)
        d.type("line", at: 200)
        press(&d, "up")
        guard case .searchFirst(let job) = d.session.accept() else { return XCTFail("Return waits for the list") }
        d.send(.answered(d.answer(job)))
        let lines = (d.session.shown?.lines ?? []).map { d.text($0) }
        let at = try XCTUnwrap(lines.firstIndex(of: tracked))
        XCTAssertEqual(d.accepted(), [lines[at - 1]!], "Return typed with the move: one up from the tracked line")
    }

    func testAMarkTypedAmongMovesAheadMarksTheLineTheMovesReach() {
        var d = Driver(lines: (1...30).map { "line\($0)" }, loading: false, settings: .init(multi: true, track: true))
        d.type("", at: 0)
        press(&d, "pos(21)")
        d.type("line2", at: 100)
        press(&d, "down+toggle+down")
        XCTAssertEqual(d.session.marks, [], "the mark waits with the moves")
        d.workerAnswers()
        let lines = (d.session.shown?.lines ?? []).map { d.text($0)! }
        let at = lines.firstIndex(of: "line21")!
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, [lines[at + 1]], "one down from line21, marked there")
        XCTAssertEqual(d.session.selection, at + 2)
    }

    func testAClickWhileMovesWaitPointsAtTheLineClicked() {
        var d = Driver(lines: (1...30).map { "line\($0)" }, loading: false, settings: .init(track: true))
        d.type("", at: 0)
        press(&d, "pos(21)")
        d.type("line2", at: 100)
        press(&d, "down+down")
        d.send(.select(1))
        XCTAssertEqual(highlighted(d), "line2", "the old list's second line, clicked")
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), "line2", "found in the new list; the moves before the click dropped")
        d.type("line", at: 200)
        press(&d, "down")
        d.send(.select(5))
        let clicked = d.text(d.session.shown!.lines[5])
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), clicked, "the line clicked is followed into the new list, not moved from")
    }

    func testAcceptInRawModePicksTheLineUnderTheHighlight() {
        var d = rawDriver()
        d.type("line29", at: 100)
        d.workerAnswers()
        XCTAssertEqual(d.accepted(), ["line1"], "a dimmed line is picked as fzf picks it")
    }

    func testChangeWithNthUnmarksTheLinesTheListSearchedAgainNoLongerMatches() {
        var d = driver(multi: true)
        press(&d, "toggle+down+toggle")
        d.type("'line2", at: 100)
        d.workerAnswers()
        XCTAssertEqual(d.session.marks.count, 2, "a query edit keeps the mark of line1, which no longer matches")
        d.session.dropMarksNotMatchingOnceSearched()
        d.send(.searchAgain)
        XCTAssertEqual(d.session.marks.count, 2, "until the list is searched again")
        d.workerAnswers()
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line2"], "fzf's: line1's mark goes")
        d.type("'line", at: 200)
        d.workerAnswers()
        press(&d, "up+toggle")
        d.type("'line2", at: 300)
        d.workerAnswers()
        XCTAssertEqual(d.session.marks.count, 2, "once: later searches keep marks as before")
    }

    func testSelectAllInRawModeMarksOnlyTheMatches() {
        var d = rawDriver(multi: true)
        d.type("'line1", at: 100)
        d.workerAnswers()
        press(&d, "select-all")
        XCTAssertEqual(d.session.marks.count, 11)
    }

    func testDownSelectedAndUpSelectedGoAroundToTheMarkedLines() {
        var d = driver(multi: true)
        press(&d, "pos(5)+toggle+pos(20)+toggle+first")
        press(&d, "down-selected")
        XCTAssertEqual(highlighted(d), "line5")
        press(&d, "next-selected")
        XCTAssertEqual(highlighted(d), "line20")
        press(&d, "down-selected")
        XCTAssertEqual(highlighted(d), "line5", "around the end")
        press(&d, "up-selected")
        XCTAssertEqual(highlighted(d), "line20", "around the start")
        press(&d, "prev-selected")
        XCTAssertEqual(highlighted(d), "line5")
    }

    func testClearMultiUnmarksEveryLineAndDeselectAllOnlyTheListed() {
        var d = driver(multi: true)
        press(&d, "toggle+down+toggle")
        d.type("'line2", at: 100)
        d.workerAnswers()
        press(&d, "deselect-all")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line1"], "line1 is not listed: its mark stays")
        press(&d, "clear-multi")
        XCTAssertEqual(d.session.marks, [])
    }

    func testChangeMultiTurnsMarkingOnWithOrWithoutALimitAndOff() throws {
        var d = driver()
        press(&d, "toggle")
        XCTAssertEqual(d.session.marks, [])
        press(&d, "change-multi+toggle+down+toggle")
        XCTAssertEqual(d.session.marks.count, 2)
        press(&d, "change-multi(1)")
        XCTAssertEqual(d.session.marks, [], "a new limit drops the marks, as fzf")
        press(&d, "toggle+down+toggle")
        XCTAssertEqual(d.session.marks.count, 1, "at most one")
        press(&d, "change-multi(0)+toggle")
        XCTAssertFalse(d.session.settings.multi)
        XCTAssertEqual(d.session.marks, [])
        press(&d, "change-multi(3)+toggle+change-multi(xxx)+down+toggle")
        XCTAssertEqual(d.session.settings.multiLimit, 3, "an argument that is no count changes nothing, as fzf's")
        XCTAssertEqual(d.session.marks.count, 2, "the marks stay")
    }

    func testToggleAtTheMarkLimitNeitherMarksNorMoves() {
        var d = driver(multi: true, multiLimit: 2)
        press(&d, "toggle-down+toggle-down")
        XCTAssertEqual(highlighted(d), "line3")
        press(&d, "toggle-down")
        XCTAssertEqual(d.session.marks.count, 2)
        XCTAssertEqual(highlighted(d), "line3", "line3 cannot be marked: the highlight stays on it, as fzf's")
        press(&d, "up+toggle-down")
        XCTAssertEqual(d.session.marks.map { d.text($0)! }, ["line1"], "a marked line still unmarks, and moves on")
        XCTAssertEqual(highlighted(d), "line3")
    }

    func testOffsetScrollsTheListAndKeepsTheHighlightOnScreen() {
        var d = driver()
        let rows = screen.pageRows + 1
        press(&d, "offset-down")
        XCTAssertEqual(d.session.scroll, 1)
        XCTAssertEqual(highlighted(d), "line2", "line1 left the screen: the highlight moves onto it")
        press(&d, "offset-up+offset-up")
        XCTAssertEqual(d.session.scroll, 0, "not above the first line")
        XCTAssertEqual(highlighted(d), "line1", "there the highlight moves instead, as fzf's")
        press(&d, "pos(20)+offset-middle")
        XCTAssertEqual(d.session.scroll, 20 - 1 - (rows - 1) / 2, "line20 in the middle of \(rows) rows")
        press(&d, "offset-down", context: ActionContext(pageRows: 10, listReadsDown: false))
        XCTAssertEqual(d.session.scroll, 13, "with the prompt at the bottom, down shows lines nearer the start")
    }

    func testPagesOverTallItemsCountTheWindowsRowsAndHalfAPageIsHalfTheRows() {
        var d = driver()
        let plain = ActionContext(pageRows: 9, listReadsDown: true)
        press(&d, "half-page-down", context: plain)
        XCTAssertEqual(highlighted(d), "line6", "half of 10 rows: 5 lines down, as fzf's")
        press(&d, "page-down", context: plain)
        XCTAssertEqual(highlighted(d), "line15", "a page: the rows less one")
        var tall = plain
        tall.window = ListWindow(count: 30, rows: 10, height: { _ in 3 })
        press(&d, "first")
        d.session.scroll = 0
        press(&d, "page-down", context: tall)
        XCTAssertEqual(highlighted(d), "line6", "three items show whole and one in part: the page stops once it shows whole")
        XCTAssertEqual(d.session.scroll, 3)
        press(&d, "offset-up", context: tall)
        XCTAssertEqual(d.session.scroll, 2, "an item scrolled into view above")
        XCTAssertEqual(highlighted(d), "line5", "line6 would leave the window: the highlight moves up one")
        press(&d, "offset-middle", context: tall)
        XCTAssertEqual(d.session.scroll, 3, "an item before it, it, and four rows after")
    }

    func testTrackCurrentFollowsTheLineUntilTheHighlightMoves() {
        var d = driver()
        press(&d, "pos(12)+track-current")
        XCTAssertTrue(d.session.tracksCurrent)
        d.type("line1", at: 100)
        d.workerAnswers()
        XCTAssertEqual(highlighted(d), "line12", "the line is followed into the new list")
        press(&d, "down")
        XCTAssertFalse(d.session.tracksCurrent, "moving ends it")
        press(&d, "toggle-track-current")
        XCTAssertTrue(d.session.tracksCurrent)
        press(&d, "untrack-current")
        XCTAssertFalse(d.session.tracks)
        press(&d, "toggle-track")
        XCTAssertTrue(d.session.tracksAll)
        press(&d, "track-current")
        XCTAssertFalse(d.session.tracksCurrent, "--track is on: track-current does nothing")
    }

    func testJumpTargetsTheRowItsLabelNames() {
        var d = driver()
        guard case .jump(accepts: false)? = press(&d, "jump").first,
              case .jump(accepts: true)? = press(&d, "jump-accept").first else { return XCTFail() }
        let labels = Array("asdf")
        XCTAssertEqual(d.session.jumpTarget(.char(0x64), labels: labels, listed: Array(0..<10)), 2, "d: the third item")
        XCTAssertNil(d.session.jumpTarget(.char(0x78), labels: labels, listed: Array(0..<10)), "x is no label")
        XCTAssertNil(d.session.jumpTarget(.char(0x66), labels: labels, listed: [0, 1, 2]), "f names no item on screen")
        XCTAssertEqual(d.session.jumpTarget(.char(0x61), labels: labels, listed: Array(1..<11)), 1,
                       "counted from the first item shown")
    }

    func testQueryEditsAndHistoryAreTheEditorsAndBackwardEOFFires() {
        var d = driver()
        guard case .edit(.subwordBefore)? = press(&d, "backward-subword").first,
              case .edit(.subwordAfter)? = press(&d, "forward-subword").first,
              case .edit(.killSubwordAfter)? = press(&d, "kill-subword").first,
              case .fire(.backwardEOF)? = press(&d, "backward-kill-subword").first,
              case .fire(.backwardEOF)? = press(&d, "backward-delete-char").first,
              case .walkHistory(older: true)? = press(&d, "prev-history").first,
              case .walkHistory(older: false)? = press(&d, "next-history").first,
              case .end(.acceptOrPrintQuery)? = press(&d, "accept-or-print-query").first else { return XCTFail() }
        d.type("fooBar", at: 100)
        guard case .edit(.killSubwordBefore)? = press(&d, "backward-kill-subword").first,
              case .edit(.backspace)? = press(&d, "backward-delete-char").first else { return XCTFail() }
    }

    func testTheMultiEventFiresWhenTheMarksChange() {
        var d = driver(multi: true)
        var watch = EventWatch()
        _ = watch.events(in: d.session, loading: false)
        press(&d, "toggle")
        XCTAssertTrue(watch.events(in: d.session, loading: false).contains(.multi))
        XCTAssertFalse(watch.events(in: d.session, loading: false).contains(.multi), "once")
        press(&d, "down")
        XCTAssertFalse(watch.events(in: d.session, loading: false).contains(.multi), "a move marks nothing")
    }

    func testTheNewEventsAndActionsParse() throws {
        var bindings = Bindings()
        try bindings.parse("backward-eof:abort,multi:ignore,jump:accept,jump-cancel:abort,click-header:ignore,click-footer:ignore")
        XCTAssertEqual(bindings.triggers.count, 6)
        try bindings.parse("ctrl-x:clear-selection+previous-history+track+toggle-raw+enable-raw+offset-middle")
        XCTAssertEqual(bindings[key]!.map(\.kind), [.clearMulti, .prevHistory, .trackCurrent, .toggleRaw, .enableRaw, .offsetMiddle])
    }
}

/// click-header's word and field, as fzf tells its commands.
final class HeaderClickTests: XCTestCase {
    func testTheClickedWordAndItsFieldCountedOverTheHeadersLines() {
        let lines = ["UID   PID  CMD", "root  1    init"]
        XCTAssertEqual(HeaderClick(lines: lines, line: 1, column: 8).word, "PID")
        XCTAssertEqual(HeaderClick(lines: lines, line: 1, column: 8).nth, "2")
        XCTAssertEqual(HeaderClick(lines: lines, line: 2, column: 1).nth, "4", "three words on the line before")
        XCTAssertEqual(HeaderClick(lines: lines, line: 2, column: 13).nth, "6..", "the last word: the rest of the line")
        XCTAssertNil(HeaderClick(lines: lines, line: 1, column: 5).word, "a blank is no word")
        XCTAssertEqual(HeaderClick(lines: lines, line: 1, column: 5).column, 5)
    }

    func testTheHeadersLinesAreNumberedDownTheScreenAsFzf() {
        // --header A,B and --header-lines X,Y (in input order).
        XCTAssertEqual(HeaderClick.order(text: ["A", "B"], lines: ["X", "Y"], layout: .top), ["A", "B", "X", "Y"])
        XCTAssertEqual(HeaderClick.order(text: ["A", "B"], lines: ["X", "Y"], layout: .bottom), ["Y", "X", "A", "B"])
        XCTAssertEqual(HeaderClick.order(text: ["A", "B"], lines: ["X", "Y"], layout: .reverseList), ["X", "Y", "A", "B"])
        // Rows 0, 1 are the text, 2, 3 the header lines X, Y.
        XCTAssertEqual((0..<4).map { HeaderClick.line(ofRow: $0, text: 2, lines: 2, layout: .top) }, [1, 2, 3, 4])
        XCTAssertEqual((0..<4).map { HeaderClick.line(ofRow: $0, text: 2, lines: 2, layout: .bottom) }, [3, 4, 2, 1])
        XCTAssertEqual((0..<4).map { HeaderClick.line(ofRow: $0, text: 2, lines: 2, layout: .reverseList) }, [3, 4, 1, 2])
    }
}
