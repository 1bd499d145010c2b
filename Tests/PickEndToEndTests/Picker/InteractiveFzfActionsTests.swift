import Foundation
import XCTest

/// fzf's actions and events of issue 30 in a real terminal, each recipe checked against
/// what fzf 0.74.5 shows for it (side by side in tmux): raw mode, the moves to matches and
/// marks, jump mode, scrolling, tracking, marking turned on and off, the subword edits,
/// history, and the events backward-eof, multi, jump, jump-cancel and click-header; and
/// those that change what is searched and shown, run in the background, print, trigger
/// other bindings and wait. Rows are compared whole, without the scrollbar.
final class InteractiveFzfActionsTests: InteractiveTestCase {
    func shows(_ rows: [String], _ text: String) -> Bool { rows.contains { $0.contains(text) } }

    func testRawModeListsEveryLineDimsTheOthersAndCtrlNSkipsThem() throws {
        try tmux.start(input: "seq 30", args: "--no-scrollbar --raw --bind ctrl-x:toggle-raw")
        tmux.waitFor(text: "30/30")
        tmux.type("2")
        // fzf: 12/30, every line still listed in input order, the highlight kept on 1.
        tmux.waitFor("the count of matches, every line listed") {
            $0[row: 1] == self.tmux.infoRow("12/30") && $0[row: 2] == "> 1" && $0[row: 3] == "\u{2596} 2"
        }
        XCTAssertTrue(tmux.screenWithEscapes().contains("\u{1B}[2m3"), "a line that does not match is dim")
        tmux.keys("C-n")
        tmux.waitFor("ctrl-n: the next match") { $0[row: 3] == "> 2" }
        tmux.keys("C-n")
        tmux.waitFor("ctrl-n skips 3…11") { $0[row: 13] == "> 12" && $0[row: 12] == "\u{2596} 11" }
        tmux.keys("C-x")
        tmux.waitFor("toggle-raw: only the matches, the highlight on its line") {
            $0.contains("> 12") && !self.shows($0, "11") && $0[row: 2].hasSuffix(" 2")
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "12\n")
    }

    func testMovesTypedRightAfterToggleRawAreMadeOnTheRawList() throws {
        try tmux.start(input: "seq 1000", args: "--no-scrollbar --bind ctrl-x:toggle-raw")
        tmux.waitFor(text: "1000/1000")
        tmux.type("5")
        tmux.waitFor("the matches of 5, 5 first") { $0[row: 1] == self.tmux.infoRow("271/1000") && $0[row: 2] == "> 5" }
        // Sent at once, as a person types them: the moves come before the raw list does.
        tmux.keys("C-x", "C-n", "C-n")
        tmux.waitFor("raw mode: two matches down from 5, past the dimmed lines (fzf's)") {
            $0.contains("> 25") && $0.contains("\u{2596} 24")
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "25\n")
    }

    func testBackgroundTransformsSetTheFooterAndItsLabel() throws {
        try tmux.start(input: "seq 100", args: """
            --footer old --footer-border rounded --footer-label ' FL ' \
            --bind 'ctrl-x:bg-transform-footer(echo new foot {q})+bg-transform-footer-label(echo label {q})'
            """)
        tmux.waitFor("the footer and its label as given") { $0.contains { $0.contains("old") } && $0.contains { $0.contains(" FL ") } }
        tmux.type("9")
        tmux.waitFor(text: "19/100")
        tmux.keys("C-x")
        tmux.waitFor("both, from the commands run in the background (fzf's test_async_transform)") { rows in
            rows.contains { $0.contains("new foot 9") } && rows.contains { $0.contains("label 9") }
                && !rows.contains { $0.contains("old") }
        }
    }

    func testBestGoesToTheBestMatchInRawMode() throws {
        try tmux.start(input: "seq 1000", args: "--no-scrollbar --raw --bind space:best")
        tmux.waitFor(text: "1000/1000")
        tmux.type("999")
        tmux.waitFor("the highlight stays on 1") { $0[row: 1] == self.tmux.infoRow("1/1000") && $0[row: 2] == "> 1" }
        tmux.keys("Space")
        tmux.waitFor(text: "> 999")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "999\n", "a dimmed line under the highlight would be picked as it is")
    }

    func testJumpLabelsTheRowsAndItsEventsFire() throws {
        try tmux.start(input: "seq 20", args: "--bind 'space:jump,jump:accept,jump-cancel:change-prompt(cancelled> )'")
        tmux.waitFor(text: "20/20")
        tmux.keys("Space")
        tmux.waitFor("each row labelled, from the prompt") { $0[row: 2] == "a 1" && $0[row: 4] == "d 3" }
        tmux.keys("x")
        tmux.waitFor("a key that is no label cancels") { $0[row: 0].hasPrefix("cancelled>") && $0[row: 2] == "> 1" }
        tmux.keys("Space")
        tmux.waitFor(text: "d 3")
        tmux.keys("d")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "3\n", "jump went to the third row and its event accepted")
    }

    func testJumpAcceptWithOwnLabels() throws {
        try tmux.start(input: "seq 20", args: "--jump-labels 123 --bind space:jump-accept")
        tmux.waitFor(text: "20/20")
        tmux.keys("Space")
        tmux.waitFor("the labels given") { $0[row: 4] == "3 3" && $0[row: 5] == "  4" }
        tmux.keys("2")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "2\n")
    }

    func testOffsetScrollsTheListAndMovesTheHighlightAtItsEnd() throws {
        try tmux.start(input: "seq 100", args: "--no-scrollbar --height 8 --bind ctrl-x:offset-down,ctrl-y:offset-up,ctrl-o:offset-middle")
        tmux.waitFor(text: "100/100")
        tmux.keys("C-x")
        // As fzf: the list scrolls a line; the highlight, its row gone, goes to the next.
        tmux.waitFor("offset-down") { $0[row: 2] == "> 2" && $0[row: 3] == "  3" }
        tmux.keys("C-y", "C-y")
        tmux.waitFor("offset-up at the top moves the highlight instead") { $0[row: 2] == "> 1" }
        tmux.keys("Down", "Down", "Down", "Down", "C-o")
        tmux.waitFor("offset-middle: 5 in the middle of six rows") { $0[row: 2] == "  3" && $0[row: 4] == "> 5" }
    }

    func testMovesToTheMarkedLinesAndMarkingTurnedOnAndOff() throws {
        try tmux.start(input: "seq 20", args: """
            --bind 'ctrl-x:down-selected,ctrl-y:up-selected,ctrl-o:change-multi,ctrl-t:change-multi(0)' \
            --bind 'multi:transform-prompt(echo "$FZF_SELECT_COUNT> ")'
            """)
        tmux.waitFor(text: "20/20")
        tmux.keys("C-o", "Tab")
        tmux.waitFor("change-multi turns marking on; multi fires") { $0[row: 0].hasPrefix("1>") }
        tmux.keys("Down", "Down", "Tab")
        tmux.waitFor(text: "2>")
        tmux.keys("C-x")
        tmux.waitFor("down-selected goes around to the first mark") { $0[row: 2].hasPrefix(">*1") }
        tmux.keys("C-y")
        tmux.waitFor("up-selected goes around the start to the other") { $0[row: 5].hasPrefix(">*4") }
        tmux.keys("C-t")
        tmux.waitFor("change-multi(0) turns marking off, the marks go") { $0[row: 0].hasPrefix("0>") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "4\n")
    }

    func testSubwordEditsAcceptOrPrintQueryAndBackwardEOF() throws {
        try tmux.start(input: "seq 3", args: """
            --bind 'ctrl-x:backward-kill-subword,ctrl-y:backward-subword,ctrl-o:kill-subword' \
            --bind 'enter:accept-or-print-query,backward-eof:change-prompt(empty> )'
            """)
        tmux.waitFor(text: "3/3")
        tmux.type("getHttpCode")
        tmux.waitFor(text: "getHttpCode")
        tmux.keys("C-x")
        tmux.waitFor("the last hump cut") { $0[row: 0] == "> getHttp" }
        tmux.keys("C-y", "C-o")
        tmux.waitFor("back a hump, and the hump after cut") { $0[row: 0] == "> get" }
        tmux.keys("C-u", "BSpace")
        tmux.waitFor("backspace on an empty query fires backward-eof") { $0[row: 0].hasPrefix("empty>") }
        tmux.type("xyz")
        tmux.waitFor(text: "0/3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "xyz\n", "nothing matches: the query is printed")
    }

    func testHistoryActionsWalkTheQueries() throws {
        let history = try tmux.file("history", "first\nsecond\n")
        try tmux.start(input: "seq 3", args: "--history '\(history)' --bind ctrl-x:prev-history,ctrl-y:next-history")
        tmux.waitFor(text: "3/3")
        tmux.keys("C-x")
        tmux.waitFor("the newest query") { $0[row: 0] == "> second" }
        tmux.keys("C-x")
        tmux.waitFor("the one before") { $0[row: 0] == "> first" }
        tmux.keys("C-y")
        tmux.waitFor("and back") { $0[row: 0] == "> second" }
    }

    func testTrackCurrentFollowsTheLineAndSaysSo() throws {
        try tmux.start(input: "seq 20", args: "--bind ctrl-x:track-current,ctrl-y:toggle-track")
        tmux.waitFor(text: "20/20")
        tmux.keys("Down", "Down", "C-x")
        tmux.waitFor("+t, as fzf") { $0[row: 1] == self.tmux.infoRow("20/20 +t") }
        tmux.type("1")
        tmux.waitFor("3 no longer matches: the highlight keeps its row, tracking ends") {
            $0[row: 1] == self.tmux.infoRow("11/20") && $0[row: 4] == "> 11"
        }
        tmux.keys("C-u")
        tmux.waitFor(text: "20/20")
        for _ in 0..<11 { tmux.keys("Down") }
        tmux.waitFor(text: "> 12")
        tmux.keys("C-x")
        tmux.type("2")
        tmux.waitFor("the tracked line followed into the new list") {
            $0[row: 1] == self.tmux.infoRow("3/20 +t") && $0[row: 2] == "  2" && self.shows($0, "> 12")
        }
        tmux.keys("C-y")
        tmux.waitFor("toggle-track does nothing while track-current follows a line, as fzf") {
            $0[row: 1] == self.tmux.infoRow("3/20 +t")
        }
        tmux.keys("Up")
        tmux.waitFor(text: "3/20 ─")
        tmux.keys("C-y")
        tmux.waitFor(text: "+T")
    }

    func testClickHeaderTellsTheWordClicked() throws {
        try tmux.start(input: "printf 'NAME SIZE\\na 1\\nb 2\\n'", args: """
            --header-lines 1 --bind 'click-header:transform-prompt(echo "$FZF_CLICK_HEADER_WORD:$FZF_CLICK_HEADER_NTH> ")'
            """)
        tmux.waitFor(text: "2/2")
        // The prompt is row 1, the info line row 2, the header row 3: "  NAME SIZE", the
        // gutter first, so column 9 is SIZE's second letter.
        try click(column: 9, row: 3)
        tmux.waitFor("the second word, the rest of the line") { $0[row: 0].hasPrefix("SIZE:2..>") }
    }

    /// Clicks the left button at a screen cell (1-based), as a terminal reports it.
    func click(column: Int, row: Int) throws {
        let click = "\u{1B}[<0;\(column);\(row)M\u{1B}[<0;\(column);\(row)m"
        _ = try TmuxPick.shell(["tmux", "-L", tmux.socket, "send-keys", "-t", tmux.name, "-H"]
                               + click.utf8.map { String(format: "%02x", $0) })
    }

    /// Clicks the first character of `word` where the screen shows it.
    func click(_ word: String, on screen: [String]) throws {
        guard let row = screen.firstIndex(where: { $0.contains(word) }),
              let range = screen[row].range(of: word) else { return XCTFail("\(word) is not on the screen") }
        try click(column: screen[row].distance(from: screen[row].startIndex, to: range.lowerBound) + 1, row: row + 1)
    }

    func testClickHeaderInItsOwnBoxNumbersTheLinesAsFzf() throws {
        // Default layout: the header lines read upward from the header text, and fzf counts
        // the lines down the screen, header lines first.
        try tmux.start(input: "printf 'Xaa\\nYbb\\nseq\\n'", args: """
            --layout=default --style full --header Aaa --header-lines 2 \
            --bind 'click-header:transform-prompt(echo "$FZF_CLICK_HEADER_LINE:$FZF_CLICK_HEADER_WORD:$FZF_CLICK_HEADER_COLUMN> ")'
            """)
        let screen = tmux.waitFor(text: "1/1")
        try click("Xaa", on: screen)
        tmux.waitFor("the first header line is the lowest of the two") { $0.contains { $0.contains("2:Xaa:1>") } }
        try click("Aaa", on: tmux.screen())
        tmux.waitFor("the header text comes after the header lines") { $0.contains { $0.contains("3:Aaa:1>") } }
    }

    func testClickFooterTellsTheLineAndWord() throws {
        try tmux.start(input: "seq 3", args: """
            --style full --footer "$(printf 'Foo one\\nBar two')" \
            --bind 'click-footer:transform-prompt(echo "$FZF_CLICK_FOOTER_LINE:$FZF_CLICK_FOOTER_WORD> ")'
            """)
        let screen = tmux.waitFor(text: "3/3")
        try click("two", on: screen)
        tmux.waitFor("the footer's second line, its second word") { $0.contains { $0.contains("2:two>") } }
    }

    /// Polls `condition` until it holds (a deadline, no fixed sleep).
    func eventually(_ what: String, file: StaticString = #filePath, line: UInt = #line, _ condition: () -> Bool) {
        let end = Date().addingTimeInterval(10)
        while Date() < end {
            if condition() { return }
            usleep(20_000)
        }
        XCTFail("timed out waiting for \(what)", file: file, line: line)
    }

    func testBackgroundTransformLeavesTheKeysFreeAndBgCancelEndsIt() throws {
        // Each command waits for a file the test writes: the picker answers keys meanwhile.
        try tmux.start(input: "seq 20", args: """
            --bind 'ctrl-a:bg-transform-header(while [ ! -f go ]; do sleep 0.02; done; echo from the background)' \
            --bind 'ctrl-b:bg-transform-query(echo $$ > pid; while [ ! -f never ]; do sleep 0.02; done; echo 7)' \
            --bind 'ctrl-x:bg-cancel,ctrl-t:bg-transform(echo change-prompt:bg\\> )'
            """)
        tmux.waitFor(text: "20/20")
        tmux.keys("C-a")
        tmux.type("5")
        tmux.waitFor("the query is typed while the command runs") { $0[row: 0] == "> 5" && $0[row: 1].hasPrefix("  2/20 ") }
        try tmux.file("go", "")
        tmux.waitFor(text: "from the background")
        tmux.keys("C-u", "C-b")
        // The shell creates the file before it writes the pid: wait for the whole number.
        func written() -> Int32? {
            (try? String(contentsOf: tmux.dir.appendingPathComponent("pid"), encoding: .utf8))
                .flatMap { $0.hasSuffix("\n") ? Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) : nil }
        }
        eventually("the second command starts") { written() != nil }
        let pid = written()!
        tmux.keys("C-x")
        eventually("bg-cancel ends the command") { kill(pid, 0) != 0 }
        tmux.keys("C-t")
        tmux.waitFor("bg-transform runs the actions printed") { $0[row: 0].hasPrefix("bg>") }
        XCTAssertTrue(tmux.screen()[row: 1].hasPrefix("  20/20 "), "the cancelled query never came")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testSearchGhostPointerAndHeaderLines() throws {
        try tmux.start(input: "seq 20", args: """
            --ghost 'type a number' \
            --bind 'ctrl-s:search(5),ctrl-p:change-pointer(=>),ctrl-h:change-header-lines(2)' \
            --bind 'ctrl-g:transform-ghost(echo other hint),ctrl-r:replace-query,ctrl-o:transform-search(echo 1)' \
            --bind 'ctrl-t:change-pointer(===),ctrl-e:transform-pointer(),ctrl-b:change-pointer(=>)'
            """)
        tmux.waitFor("--ghost shows in place of the empty query") { $0[row: 0] == "> type a number" }
        tmux.keys("C-s")
        tmux.waitFor("search(5) filters, the query line left empty") {
            $0[row: 0] == "> type a number" && $0[row: 1].hasPrefix("  2/20 ") && $0[row: 2] == "> 5" && $0[row: 3] == "  15"
        }
        tmux.keys("C-p")
        tmux.waitFor("change-pointer") { $0[row: 2] == "=> 5" && $0[row: 3] == "   15" }
        // fzf's suite (test_change_pointer, test_transform_pointer): too wide does nothing;
        // a transform of no command leaves no pointer.
        tmux.keys("C-t", "C-e")
        tmux.waitFor("no pointer") { $0[row: 2] == " 5" && $0[row: 3] == " 15" }
        tmux.keys("C-b")
        tmux.waitFor(text: "=> 5")
        tmux.keys("C-h")
        tmux.waitFor("the first two lines are the header, the highlight stays on its line") {
            $0[row: 1].hasPrefix("  2/18 ") && $0[row: 2].trimmingCharacters(in: .whitespaces) == "1"
                && $0[row: 3].trimmingCharacters(in: .whitespaces) == "2" && $0[row: 4] == "=> 5"
        }
        tmux.keys("C-g")
        tmux.waitFor("transform-ghost") { $0[row: 0] == "> other hint" }
        tmux.keys("C-o")
        tmux.waitFor("transform-search") { $0[row: 1].hasPrefix("  10/18 ") && $0[row: 0] == "> other hint" }
        tmux.keys("C-r")
        tmux.waitFor("replace-query puts the line in the query") { $0[row: 0] == "> 10" && $0[row: 1].hasPrefix("  1/18 ") }
        tmux.type("0")
        tmux.waitFor("typing searches for the query again") { $0[row: 0] == "> 100" && $0[row: 1].hasPrefix("  0/18 ") }
        tmux.keys("C-u")
        tmux.waitFor("the ghost is back") { $0[row: 0] == "> other hint" && $0[row: 1].hasPrefix("  18/18 ") }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testPrintTriggerWaitAndToggleBind() throws {
        try tmux.start(input: "seq 20", args: """
            --bind 'ctrl-a:print(first)+down,ctrl-t:trigger(ctrl-a)+print(second)' \
            --bind 'ctrl-w:change-query(1)+wait+last,ctrl-b:toggle-bind(ctrl-a)'
            """)
        tmux.waitFor(text: "20/20")
        tmux.keys("C-t")
        tmux.waitFor("trigger runs ctrl-a's chain") { $0[row: 3] == "> 2" }
        tmux.keys("C-b", "C-a")
        tmux.keys("C-b", "C-a")
        tmux.waitFor("toggle-bind turned ctrl-a off, then on again") { $0[row: 4] == "> 3" }
        tmux.keys("C-w")
        tmux.waitFor("wait lets last act on the new query's list") { $0[row: 0] == "> 1" && $0.contains("> 19") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "first\nsecond\nfirst\n19\n", "print(…)'s text before the line, in order")
    }

    func testPreviewOnceAndClose() throws {
        try tmux.start(input: "seq 20", args: "--bind 'ctrl-p:preview(echo once {}),ctrl-o:close'")
        tmux.waitFor(text: "20/20")
        XCTAssertFalse(tmux.screen().contains { $0.contains("╭") }, "no --preview: no pane until preview(…)")
        tmux.keys("C-p")
        tmux.waitFor("preview(…) opens the pane with its command's output") { $0.contains { $0.contains("│ once 1") } }
        tmux.keys("Down")
        tmux.waitFor(text: "> 2")
        XCTAssertTrue(tmux.screen().contains { $0.contains("│ once 1") }, "without a command of its own the pane keeps it")
        tmux.keys("C-o")
        tmux.waitFor("close hides the pane") { !$0.contains { $0.contains("once") } }
        tmux.keys("C-o")
        XCTAssertEqual(tmux.exitStatus(), 130, "close with no pane cancels")
    }
}
