@testable import PickCore
import XCTest

/// `--preview-window` in fzf's spellings, and the preview pane's policy: which command runs
/// when, what of its output is kept, and what the pane shows.
final class PreviewWindowTests: XCTestCase {
    private func window(_ spec: String) throws -> PreviewWindow {
        try PreviewWindow().applying(spec)
    }

    func testTheDefaultIsFzfsRightHalfWithARoundedBorder() {
        let w = PreviewWindow()
        XCTAssertEqual(w.position, .right)
        XCTAssertEqual(w.size, .percent(50))
        XCTAssertEqual(w.border, .rounded)
        XCTAssertFalse(w.wrap || w.hidden || w.follow)
    }

    func testEveryWordOfASpecApplies() throws {
        let w = try window("up,30%:border-sharp,wrap,hidden,follow,+{2}-5/2,~3,cycle,noinfo")
        XCTAssertEqual(w.position, .up)
        XCTAssertEqual(w.size, .percent(30))
        XCTAssertEqual(w.border, .sharp)
        XCTAssertTrue(w.wrap && w.hidden && w.follow && w.cycle)
        XCTAssertFalse(w.info)
        XCTAssertEqual(w.scroll, "{2}-5/2")
        XCTAssertEqual(w.headerLines, 3)
        XCTAssertEqual(try window("down,10").size, .cells(10))
        XCTAssertEqual(try window("noborder").border, .none)
        XCTAssertEqual(try window("border-left").borderSides, Sides(left: true))
        XCTAssertEqual(try window("left,border-line").borderSides, Sides(right: true), "a line faces the list")
        XCTAssertEqual(try window("border-up").border, .top)
    }

    func testALaterWordOrSpecOverridesAnEarlierOne() throws {
        var w = try window("wrap,hidden,left")
        w = try w.applying("nowrap,nohidden")
        XCTAssertFalse(w.wrap || w.hidden)
        XCTAssertEqual(w.position, .left, "a second --preview-window adds to the first")
        XCTAssertEqual(try window("up,wrap,default"), PreviewWindow())
    }

    func testTheAlternativeStartsFromTheSpecBeforeIt() throws {
        let w = try window("right,border-left,hidden,<30(up,30%,border-bottom)")
        XCTAssertEqual(w.threshold, 30)
        let alternative = try XCTUnwrap(w.alternative)
        XCTAssertEqual(alternative.position, .up)
        XCTAssertEqual(alternative.size, .percent(30))
        XCTAssertEqual(alternative.border, .bottom)
        XCTAssertFalse(alternative.hidden, "as fzf: the alternative is not hidden unless it says so")
    }

    func testMalformedWordsAreRefusedNamingTheWord() {
        for bad in ["middle", "100%", "+", "+x", "+{2", "~x", "border-round", "<80(", "1.5%", "right;50%"] {
            XCTAssertThrowsError(try window(bad), bad) { error in
                XCTAssertTrue((error as! OptionError).message.hasPrefix("invalid value for --preview-window:"), bad)
            }
        }
    }

    func testScrollExpressionsAsFzfEvaluatesThem() {
        let fields: (Int) -> [UInt8] = { n in n == 2 ? Array("42".utf8) : n == 3 ? Array("x7".utf8) : [] }
        func offset(_ e: String, height: Int = 20) -> Int {
            XCTAssertTrue(PreviewScroll.isValid(e), e)
            return PreviewScroll.offset(e, field: fields, index: 9, height: height)
        }
        XCTAssertEqual(offset("10"), 9, "+10 shows line 10 first (counted from 1)")
        XCTAssertEqual(offset("{2}"), 41)
        XCTAssertEqual(offset("{2}-5"), 36)
        XCTAssertEqual(offset("{2}+3/2"), 34, "line 45 half way down 20 rows")
        XCTAssertEqual(offset("{n}"), 8)
        XCTAssertEqual(offset("{3}"), 6, "a field keeps only its digits, as fzf")
        XCTAssertEqual(offset("{1}-5"), 0, "never before the first line")
        XCTAssertFalse(PreviewScroll.isValid("{x}"))
        XCTAssertFalse(PreviewScroll.isValid("1/0"))
    }

    func testTheAlternativeTakesOverBelowItsThreshold() throws {
        let w = try window("right,50%,<40(down,5)")
        let wide = PreviewPlacement.place(w, rows: 24, columns: 100)
        XCTAssertEqual(wide.window.position, .right)
        XCTAssertEqual(wide.size, 50)
        let narrow = PreviewPlacement.place(w, rows: 24, columns: 60)
        XCTAssertEqual(narrow.window.position, .down)
        XCTAssertEqual(narrow.size, 7, "5 rows of text and the border's two")
    }

    func testTheToggleShowsOrHidesThePaneInForce() throws {
        let w = try window("hidden,<40(down,5)")
        XCTAssertTrue(PreviewPlacement.place(w, rows: 24, columns: 60).isShown, "as fzf: the alternative is not hidden")
        let toggledNarrow = PreviewPlacement.toggled(w, rows: 24, columns: 60)
        XCTAssertFalse(PreviewPlacement.place(toggledNarrow, rows: 24, columns: 60).isShown)
        let toggledWide = PreviewPlacement.toggled(w, rows: 24, columns: 100)
        XCTAssertTrue(PreviewPlacement.place(toggledWide, rows: 24, columns: 100).isShown)
    }

    func testAHiddenOrTooLargePaneTakesNoRoom() throws {
        XCTAssertFalse(PreviewPlacement.place(try window("hidden"), rows: 24, columns: 80).isShown)
        XCTAssertEqual(PreviewPlacement.place(try window("99%"), rows: 24, columns: 80).size, 76,
                       "the list keeps 4 columns")
        XCTAssertFalse(PreviewPlacement.place(try window("0"), rows: 24, columns: 80).isShown)
    }

    func testChangePreviewWindowStartsFromTheGivenWindowAndShowsAHiddenOne() throws {
        let given = try window("hidden,down,1")
        let up = try given.changed(by: "up")
        XCTAssertFalse(up.hidden, "a layout that says anything shows a pane that started hidden")
        XCTAssertEqual(up.position, .up)
        XCTAssertEqual(up.size, .cells(1), "the rest of the given window holds")
        XCTAssertEqual(try given.changed(by: ""), given, "an empty layout is the given window, hidden")
        XCTAssertTrue(try given.changed(by: "hidden").hidden)
        let shown = try window("left")
        XCTAssertEqual(try shown.changed(by: "down").position, .down, "not the last change's: the given one's")
    }

    func testAPaneOfSizeZeroRunsUnseenUnlessHidden() throws {
        XCTAssertTrue(try window("0").runsUnseen)
        XCTAssertTrue(try window("0%").runsUnseen)
        XCTAssertFalse(try window("0,hidden").runsUnseen)
        XCTAssertFalse(try window("1").runsUnseen)
        XCTAssertFalse(try window("0,<40(down,5)").runsUnseen, "its alternative has a size")
        XCTAssertFalse(PreviewPlacement.place(try window("0"), rows: 24, columns: 80).isShown)
    }

    func testANextPaneTakesRowsAndItsLineFacesTheListInEachLayout() throws {
        let next = try window("next,3,border-line")
        XCTAssertTrue(next.position.isVertical)
        XCTAssertEqual(PreviewPlacement.place(next, rows: 24, columns: 80).size, 4, "three rows and the line")
        XCTAssertEqual(next.placed(in: .bottom).borderSides, Sides(top: true), "the list above it")
        XCTAssertEqual(next.placed(in: .top).borderSides, Sides(bottom: true), "the list below it")
        XCTAssertEqual(next.placed(in: .reverseList).borderSides, Sides(top: true))
    }

    func testTheDefaultRuleGoesOnlyWhenEveryNextPaneFacesTheInput() throws {
        XCTAssertNil(try window("up").nextHidesSeparator(layout: .bottom, hasCommand: true), "no pane at next: no say")
        XCTAssertEqual(try window("next,3").nextHidesSeparator(layout: .bottom, hasCommand: true), true)
        XCTAssertEqual(try window("next,3").nextHidesSeparator(layout: .bottom, hasCommand: false), false,
                       "preview(…) may open it at any time")
        XCTAssertEqual(try window("next,3,hidden").nextHidesSeparator(layout: .bottom, hasCommand: true), false)
        XCTAssertEqual(try window("next,3,border-none").nextHidesSeparator(layout: .top, hasCommand: true), false)
        XCTAssertEqual(try window("next,3,border-top").nextHidesSeparator(layout: .top, hasCommand: true), true)
        XCTAssertEqual(try window("next,3,border-top").nextHidesSeparator(layout: .bottom, hasCommand: true), false,
                       "its line is on the list's side")
        XCTAssertEqual(try window("up,40%,<9999(next,1,border-none)").nextHidesSeparator(layout: .bottom, hasCommand: true),
                       false)
        XCTAssertEqual(try window("next,3,<15(next,3)").nextHidesSeparator(layout: .bottom, hasCommand: true), true)
    }
}

final class PreviewPaneTests: XCTestCase {
    private func start(_ actions: [PreviewAction]) -> PreviewSubject? {
        for case .start(let s, _) in actions { return s }
        return nil
    }

    func testAFocusChangeStopsTheCommandAndStartsTheNextAtOnceAfterAQuietSpell() {
        var pane = PreviewPane()
        XCTAssertEqual(start(pane.focus(PreviewSubject(line: 0), at: 1000)), PreviewSubject(line: 0))
        let generation = pane.generation
        let moved = pane.focus(PreviewSubject(line: 1), at: 2000)
        XCTAssertEqual(moved.first, .stop, "the old command is stopped first")
        XCTAssertEqual(start(moved), PreviewSubject(line: 1))
        XCTAssertGreaterThan(pane.generation, generation, "the old command's output is stale")
        XCTAssertEqual(pane.focus(PreviewSubject(line: 1), at: 2001), [], "the same line runs once")
    }

    func testQuickMovesStartAtMostOneCommandAnInterval() {
        var pane = PreviewPane()
        _ = pane.focus(PreviewSubject(line: 0), at: 1000)
        let interval = Tunables.Preview.startIntervalMillis
        var started: [Int32] = []
        for k in 1...10 {
            let actions = pane.focus(PreviewSubject(line: Int32(k)), at: 1000 + k * 5)
            if let s = start(actions), let line = s.line { started.append(line) }
        }
        XCTAssertLessThanOrEqual(started.count, 50 / interval + 1)
        XCTAssertNotNil(pane.wait(at: 1050))
        let due = 1050 + (pane.wait(at: 1050) ?? 0)
        XCTAssertEqual(start(pane.focus(PreviewSubject(line: 10), at: due)), PreviewSubject(line: 10),
                       "the line focused when the pacing allows")
    }

    func testNothingRunsForAnEmptyListOrAHiddenPane() {
        var pane = PreviewPane()
        XCTAssertEqual(pane.focus(nil, at: 0), [])
        _ = pane.focus(PreviewSubject(line: 3), at: 1000)
        XCTAssertEqual(pane.focus(nil, at: 2000), [.stop])
        XCTAssertNil(pane.wait(at: 2000))
    }

    func testTheSameLineShownAgainKeepsItsScrollAnotherStartsAtTheTop() {
        var pane = PreviewPane()
        _ = pane.focus(PreviewSubject(line: 0), at: 1000)
        pane.scroll(by: 5, lines: 100, headerLines: 0, height: 10, cycle: false)
        XCTAssertEqual(pane.focus(nil, at: 2000), [.stop], "hidden")
        XCTAssertEqual(start(pane.focus(PreviewSubject(line: 0), at: 3000)), PreviewSubject(line: 0))
        XCTAssertEqual(pane.scroll, 5, "shown again: where it was left")
        _ = pane.focus(PreviewSubject(line: 1), at: 4000)
        XCTAssertEqual(pane.scroll, 0)
    }

    func testScrollingStaysInTheOutputAndFollowKeepsTheEnd() {
        var pane = PreviewPane()
        pane.scroll(by: -3, lines: 100, headerLines: 0, height: 10, cycle: false)
        XCTAssertEqual(pane.scroll, 0)
        pane.scroll(by: 500, lines: 100, headerLines: 0, height: 10, cycle: false)
        XCTAssertEqual(pane.scroll, 90)
        pane.scroll(by: 1, lines: 100, headerLines: 0, height: 10, cycle: true)
        XCTAssertEqual(pane.scroll, 0, "cycle wraps")
        let fresh = PreviewPane()
        XCTAssertEqual(fresh.firstLine(lines: 100, headerLines: 2, height: 10, follow: true), 90)
    }

    func testFollowStopsAwayFromTheEndAndResumesBackAtIt() {
        var pane = PreviewPane()
        _ = pane.focus(PreviewSubject(line: 0), at: 1000)
        pane.hold(at: pane.firstLine(lines: 100, headerLines: 0, height: 10, follow: true))
        pane.scroll(by: -1, lines: 100, headerLines: 0, height: 10, cycle: false)
        pane.noteEnd(lines: 100, headerLines: 0, height: 10)
        XCTAssertEqual(pane.firstLine(lines: 120, headerLines: 0, height: 10, follow: true), 89,
                       "scrolled up: new lines leave the view alone")
        pane.scroll(by: 21, lines: 120, headerLines: 0, height: 10, cycle: false)
        pane.noteEnd(lines: 120, headerLines: 0, height: 10)
        XCTAssertEqual(pane.firstLine(lines: 130, headerLines: 0, height: 10, follow: true), 120,
                       "back at the end: it follows again")
        pane.scroll(by: -5, lines: 130, headerLines: 0, height: 10, cycle: false)
        pane.noteEnd(lines: 130, headerLines: 0, height: 10)
        pane.followAgain()
        XCTAssertEqual(pane.firstLine(lines: 140, headerLines: 0, height: 10, follow: true), 130,
                       "change-preview-window follows again wherever the view was")
    }
}

final class PreviewTextTests: XCTestCase {
    func testAnEndlessCommandKeepsOnlyWhatThePaneCanScrollThrough() {
        var text = PreviewText(lineLimit: 100)
        let chunk = Array(String(repeating: "y\n", count: 4096).utf8)
        for _ in 0..<100 {
            text.append(chunk)
            if text.isFull { break }
        }
        XCTAssertTrue(text.isFull, "the reader may stop reading")
        XCTAssertEqual(text.count, 100)
    }

    func testFollowKeepsTheLastLines() {
        var text = PreviewText(follows: true, lineLimit: 3)
        text.append(Array("1\n2\n3\n4\n5\n".utf8))
        XCTAssertEqual((0..<text.count).map { String(decoding: text.line($0), as: UTF8.self) }, ["3", "4", "5"])
        XCTAssertFalse(text.isFull, "follow reads on")
        XCTAssertEqual(text.dropped, 2)
    }

    func testAColourSetOnOneLineHoldsOnTheNextUntilReset() {
        var text = PreviewText()
        text.append(Array("\u{1B}[31mred\n\u{1B}[1mbold red\nstill\u{1B}[0m\nplain\npartial".utf8))
        XCTAssertEqual((0..<5).map { text.style($0).sgr }, ["", "31", "1;31", "", ""])
    }

    func testALineThatNeverEndsFillsTheTextByTheBytesRead() {
        // `cat /dev/zero`: one line, never ended; the reader must stop at the byte bound.
        var text = PreviewText()
        let zeros = [UInt8](repeating: 0, count: 1 << 16)
        var chunks = 0
        while !text.isFull && chunks < 1000 {
            text.append(zeros)
            chunks += 1
        }
        XCTAssertTrue(text.isFull)
        XCTAssertEqual(chunks * zeros.count, Tunables.Preview.keptBytes)
        XCTAssertEqual(text.count, 1)
        XCTAssertEqual(text.line(0).count, Tunables.Preview.lineBytes)
    }

    func testClearingTheScreenStartsTheTextAgain() {
        var text = PreviewText()
        text.append(Array("1\n2\n\u{1B}[2J3\n4\n".utf8))
        XCTAssertEqual((0..<text.count).map { String(decoding: text.line($0), as: UTF8.self) }, ["3", "4"],
                       "as fzf: what came before ESC[2J is gone, what follows it on its line stays")
        text.append(Array("5\u{1B}[2J\n6".utf8))
        XCTAssertEqual((0..<text.count).map { String(decoding: text.line($0), as: UTF8.self) }, ["", "6"])
    }

    func testALineWithoutANewlineIsShownAndBounded() {
        var text = PreviewText()
        let long = [UInt8](repeating: 0x61, count: Tunables.Preview.lineBytes * 3)
        text.append(Array("first\r\n".utf8))
        text.append(long)
        XCTAssertEqual(text.count, 2)
        XCTAssertEqual(text.line(0), Array("first".utf8), "CRLF reads as a line")
        XCTAssertEqual(text.line(1).count, Tunables.Preview.lineBytes)
    }
}

final class PreviewFrameTests: XCTestCase {
    private func plain(_ row: [Span]) -> String { row.map(\.text).joined() }

    func testColourIsKeptAndScreenEscapesAreDropped() {
        let line = Array("\u{1B}]0;TITLE\u{07}\u{1B}[2J\u{1B}[31mred\u{1B}[K".utf8)
        let frame = PreviewFrameBuilder.build(count: 1, line: { _ in line }, first: 0, window: PreviewWindow(),
                                              width: 40, height: 5)
        XCTAssertEqual(plain(frame.rows[0]), "red")
        XCTAssertEqual(frame.rows[0].last, Span(text: "red", isHighlighted: false, isSymbol: false, style: "31"))
    }

    func testZeroWidthCharactersTakeNoColumnOfThePane() {
        let line = Array("a\u{200F}b\u{061C}c\u{2028}d\u{2029}e\u{FEFF}f".utf8)
        let frame = PreviewFrameBuilder.build(count: 1, line: { _ in line }, first: 0, window: PreviewWindow(),
                                              width: 6, height: 1)
        XCTAssertEqual(TerminalText.width(plain(frame.rows[0])), 6)
        XCTAssertEqual(plain(frame.rows[0]).unicodeScalars.filter { $0.value < 0x80 }.count, 6, "all six letters fit")
    }

    func testASlowCommandsPaneSaysItIsLoading() {
        let frame = PreviewFrameBuilder.build(count: 1, line: { _ in Array("old".utf8) }, first: 0,
                                              window: PreviewWindow(), width: 20, height: 3, loading: true)
        XCTAssertEqual(frame.info, PreviewFrameBuilder.loadingMark)
        XCTAssertEqual(plain(frame.rows[0]), "old", "the last text stays")
    }

    func testHeaderLinesStayAndTheRestScrolls() throws {
        let lines = (1...100).map { Array(String($0).utf8) }
        let frame = PreviewFrameBuilder.build(count: 100, line: { lines[$0] }, first: 10,
                                              window: try PreviewWindow().applying("~2"), width: 20, height: 4)
        XCTAssertEqual(frame.rows.map(plain), ["1", "2", "13", "14"])
        XCTAssertEqual(frame.info, "13/100", "as fzf: the first line shown, of the whole output")
    }

    func testACountOfOutputCutShortSaysSo() throws {
        let lines = (1...100).map { Array(String($0).utf8) }
        let frame = PreviewFrameBuilder.build(count: 100, line: { lines[$0] }, first: 0, window: PreviewWindow(),
                                              width: 20, height: 4, cut: true)
        XCTAssertEqual(frame.info, "1/100+", "the command wrote more than the 100 lines kept")
    }

    func testTheScrollbarThumbIsTheShareInViewWhereTheViewIs() throws {
        XCTAssertNil(Scrollbar.thumb(lines: 10, height: 10, first: 0), "the output fits")
        XCTAssertEqual(Scrollbar.thumb(lines: 1000, height: 20, first: 0), 0..<1, "one row at least")
        XCTAssertEqual(Scrollbar.thumb(lines: 40, height: 20, first: 0), 0..<10)
        XCTAssertEqual(Scrollbar.thumb(lines: 40, height: 20, first: 20), 10..<20, "at the end, at the bottom")
        let lines = (1...100).map { Array(String($0).utf8) }
        let frame = PreviewFrameBuilder.build(count: 100, line: { lines[$0] }, first: 98,
                                              window: try PreviewWindow().applying("~2"), width: 20, height: 12)
        XCTAssertEqual(frame.scrollbar, 11..<12, "below the header lines, sized by the rest")
    }

    func testFollowingWrappedTextShowsItsLastRows() throws {
        // fzf's suite (test_preview_follow_wrap): `seq 1000` in a pane two columns wide:
        // 1000 takes three rows ("10", then the sign alone twice), 999 two.
        let lines = (1...1000).map { Array(String($0).utf8) }
        var window = try PreviewWindow().applying("wrap,follow")
        window.info = false
        let last = PreviewFrameBuilder.lastFirstLine(count: 1000, line: { lines[$0] }, window: window, width: 2, height: 8)
        XCTAssertEqual(last, 996, "997 to 1000 fill the eight rows, and one more")
        let frame = PreviewFrameBuilder.build(count: 1000, line: { lines[$0] }, first: last, window: window, width: 2,
                                              height: 8, showsEnd: true)
        XCTAssertEqual(frame.rows.map(plain), ["↳ ", "99", "↳ ", "99", "↳ ", "10", "↳ ", "↳ "], "the first line's top cut")
    }

    func testWrapFoldsALongLine() throws {
        let line = Array(String(repeating: "abcde", count: 5).utf8)
        let wrapped = PreviewFrameBuilder.build(count: 1, line: { _ in line }, first: 0,
                                                window: try PreviewWindow().applying("wrap"), width: 10, height: 5)
        XCTAssertEqual(wrapped.rows.map(plain), ["abcdeabcde", "↳ abcdeabc", "↳ deabcde"], "after the wrap sign, as fzf's")
        let words = Array("one two three four".utf8)
        let byWords = PreviewFrameBuilder.build(count: 1, line: { _ in words }, first: 0,
                                                window: try PreviewWindow().applying("wrap-word"), width: 10, height: 5,
                                                wrapSign: "> ")
        XCTAssertEqual(byWords.rows.map(plain), ["one two", "> three", "> four"], "broken at a blank, dropped (fzf's preview)")
        let cut = PreviewFrameBuilder.build(count: 1, line: { _ in line }, first: 0, window: PreviewWindow(),
                                            width: 10, height: 5)
        XCTAssertEqual(cut.rows.map(plain), ["abcdeabcde"], "cut at the edge, no ellipsis: fzf's")
    }
}
