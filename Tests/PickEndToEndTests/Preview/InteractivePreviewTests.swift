import Foundation
import XCTest

/// The preview pane on the real binary's screen: it follows the focus, never runs a line
/// as shell code, shows escape-laden output harmlessly, keeps an endless command small,
/// kills a slow one when the focus moves or pick exits, and takes fzf's window options.
final class InteractivePreviewTests: InteractiveTestCase {
    /// The pane's text on a row of a right-hand pane: what follows its left border.
    private func pane(_ row: String) -> String {
        guard let bar = row.range(of: "│ ") else { return "" }
        return String(row[bar.upperBound...]).replacingOccurrences(of: "│", with: "")
            .trimmingCharacters(in: .whitespaces)
    }

    /// The processes whose command line holds `pattern`, once none is left or the deadline
    /// passes (a killed group takes a moment to go).
    private func processesLeft(matching pattern: String) throws -> String {
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var left = ""
        repeat {
            left = try TmuxPick.shell(["pgrep", "-f", pattern]).output
            if left.isEmpty { break }
            usleep(20_000)
        } while Date() < end
        return left
    }

    func testThePaneShowsTheFocusedLineAndFollowsTheSelection() throws {
        try tmux.start(input: "printf 'alpha\\nbeta\\ngamma\\n'", args: "--preview 'echo seen: {}'", width: 60, height: 10)
        var rows = tmux.waitFor(text: "seen: alpha")
        XCTAssertTrue(rows[row: 0].hasPrefix(">"), "the prompt keeps the left half")
        XCTAssertTrue(rows[row: 0].hasSuffix("╮"), "the pane has fzf's rounded border on the right")
        tmux.keys("Down")
        rows = tmux.waitFor(text: "seen: beta")
        XCTAssertFalse(rows.contains { $0.contains("seen: alpha") })
        tmux.keys("Down")
        tmux.waitFor(text: "seen: gamma")
        tmux.type("alp")
        tmux.waitFor(text: "seen: alpha")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "alpha\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    /// As fzf's: the preview waits for the first list, so a command with no placeholder runs
    /// once, not once before the lines come and again on the first; an input read whole
    /// with no line runs it too.
    func testAPreviewWaitsForTheFirstListAndRunsOnce() throws {
        try tmux.start(input: "sleep 1; seq 3", args: "--preview 'echo run >> runs; echo previewed'", width: 60, height: 10)
        tmux.waitFor(text: "previewed")
        tmux.waitFor(text: "3/3")
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertEqual(try String(contentsOf: tmux.dir.appendingPathComponent("runs"), encoding: .utf8), "run\n")
    }

    func testAPreviewRunsForAnInputReadWholeWithNoLine() throws {
        try tmux.start(input: "sleep 0.5", args: "--preview 'echo previewed'", width: 60, height: 10)
        tmux.waitFor(text: "0/0")
        tmux.waitFor(text: "previewed")
    }

    func testAQueryPlaceholderRunsAgainAsTheQueryChanges() throws {
        try tmux.start(input: "printf 'alpha\\nalps\\n'", args: "--preview 'printf \"q=[%s] line=%s\" {q} {}'", width: 70, height: 8)
        tmux.waitFor(text: "q=[] line=alpha")
        tmux.type("alps")
        tmux.waitFor(text: "q=[alps] line=alps")
    }

    func testMarkedLinesPlaceholderFollowsTheMarks() throws {
        try tmux.start(input: "printf 'one\\ntwo\\nthree\\n'", args: "--multi --preview 'echo marked: {+}'",
                       width: 70, height: 8)
        tmux.waitFor(text: "marked: one")
        tmux.keys("Tab", "Tab")
        tmux.waitFor(text: "marked: one two")
    }

    /// A command gets stdin, stdout and stderr and nothing else of pick's: no copy of the
    /// terminal, no pipe of pick's own (ls's own directory is the fourth).
    func testThePreviewCommandInheritsNoDescriptorOfPicks() throws {
        try tmux.start(input: "printf 'one\\n'", args: "--preview 'echo fds: $(ls /proc/self/fd | wc -l)'",
                       width: 60, height: 8)
        tmux.waitFor(text: "fds: 4")
    }

    /// `{n}` is the line's index among the items, as in `execute` and as fzf: the header
    /// lines are not counted.
    /// fzf counts the header lines in `{n}`: the first line below a one-line header is 1.
    func testTheIndexPlaceholderCountsTheHeaderLinesAsFzf() throws {
        try tmux.start(input: "printf 'head\\none\\ntwo\\n'", args: "--header-lines 1 --preview 'echo n={n} {}'",
                       width: 60, height: 8)
        tmux.waitFor(text: "n=1 one")
        tmux.keys("Down")
        tmux.waitFor(text: "n=2 two")
    }

    func testHostileLinesAreShownLiterallyAndNeverRunAsShellCode() throws {
        let lines = ["it's \"quoted\"", "$(touch MARK)", "`touch MARK`", "a; touch MARK", "-n -e x", "x' ; touch MARK ; '",
                     "$HOME \\\\ *"]
        let input = try tmux.file("hostile", lines.joined(separator: "\n") + "\n")
        try tmux.start(input: "cat '\(input)'", args: "--preview 'printf \"[%s]\\n\" {}'", width: 70, height: 14)
        for (k, line) in lines.enumerated() {
            if k > 0 { tmux.keys("Down") }
            tmux.waitFor("the line \(line) in brackets") { $0.contains { self.pane($0) == "[\(line)]" } }
        }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmux.dir.appendingPathComponent("MARK").path))
    }

    func testEscapesInTheOutputNeverReachTheTerminal() throws {
        try tmux.start(input: "printf 'one\\ntwo\\n'",
                       args: "--preview \"printf '\\\\033]0;TITLE\\\\007\\\\033[2J\\\\033[31mred'\"", width: 60, height: 8)
        let rows = tmux.waitFor("the coloured text alone") { $0.contains { self.pane($0) == "red" } }
        XCTAssertTrue(rows.contains { $0.hasPrefix("> one") }, "the screen was not cleared")
        XCTAssertTrue(tmux.screenWithEscapes().contains("\u{1B}[31mred"), "colour is honoured")
        let title = try TmuxPick.shell(["tmux", "-L", tmux.socket, "display-message", "-p", "-t", tmux.name,
                                        "#{pane_title}"]).output
        XCTAssertFalse(title.contains("TITLE"), "the title was not set: \(title)")
    }

    func testAColourHoldsOnTheNextLinesUntilItIsResetAsInFzf() throws {
        try tmux.start(input: "echo x", args: "--preview \"printf '\\033[31mred1\\nred2\\033[0m\\nplain\\n'\"",
                       width: 60, height: 8)
        tmux.waitFor(text: "plain")
        let rows = tmux.screenWithEscapes().components(separatedBy: "\n")
        XCTAssertTrue(rows.contains { $0.contains("\u{1B}[31mred2") }, "red2 is still red")
        XCTAssertFalse(rows.contains { $0.contains("\u{1B}[31mplain") }, "the reset ends it")
    }

    func testASlowPreviewGivesWayAtOnceAndNeverOutlivesPick() throws {
        let marker = "30.\(Int.random(in: 100_000...999_999))"
        try tmux.start(input: "printf 'a\\nb\\n'", args: "--preview 'echo now {}; sleep \(marker); echo late'",
                       width: 60, height: 8)
        tmux.waitFor(text: "now a")
        tmux.keys("Down")
        let rows = tmux.waitFor(text: "now b")
        XCTAssertFalse(rows.contains { $0.contains("late") })
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "b\n")
        XCTAssertEqual(try processesLeft(matching: "sleep \(marker)"), "", "no sleep of the preview remains")
    }

    func testASignalledPickLeavesNoPreviewRunning() throws {
        let marker = "31.\(Int.random(in: 100_000...999_999))"
        try tmux.start(input: "printf 'a\\nb\\n'", args: "--preview 'echo now {}; sleep \(marker)'", width: 60, height: 8,
                       background: true)
        tmux.waitFor(text: "now a")
        let pid = try XCTUnwrap(tmux.pid)
        XCTAssertNotEqual(try TmuxPick.shell(["pgrep", "-f", "sleep \(marker)"]).output, "")
        kill(pid, SIGTERM)
        XCTAssertEqual(tmux.exitStatus(), 143)
        XCTAssertTrue(tmux.terminalRestored)
        XCTAssertEqual(try processesLeft(matching: "sleep \(marker)"), "", "no sleep of the preview remains after SIGTERM")
    }

    func testAnEndlessPreviewKeepsPickSmall() throws {
        try tmux.start(input: "seq 1000", args: "--preview yes", width: 80, height: 24, background: true)
        tmux.waitFor("the pane full of y") { $0.filter { self.pane($0) == "y" }.count > 10 }
        let pid = try XCTUnwrap(tmux.pid)
        sleep(1)  // the behaviour bound: what `yes` writes for a second does not pile up
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kilobytes = try XCTUnwrap(Int(line.split(separator: " ").dropFirst().first ?? ""))
        XCTAssertLessThan(kilobytes, 100 * 1024, "pick's RSS after a second of --preview yes: \(kilobytes) kB")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testTheCommandKnowsThePanesSize() throws {
        try tmux.start(input: "echo x", args: "--preview 'echo $PICK_PREVIEW_LINES by $PICK_PREVIEW_COLUMNS'",
                       width: 60, height: 10)
        tmux.waitFor(text: "8 by 26")
    }

    /// pick keeps 10,000 lines of a preview: the pane's count says there was more.
    func testAPreviewCutShortSaysSoInItsCount() throws {
        try tmux.start(input: "echo x", args: "--preview 'seq 30000'", width: 60, height: 10)
        tmux.waitFor(text: "1/10000+")
    }

    /// As fzf's preview gets FZF_QUERY, FZF_POS and the counts, pick's gets PICK_*.
    func testTheCommandKnowsThePickersState() throws {
        try tmux.start(input: "printf 'apple\\napricot\\nbanana\\n'",
                       args: "--preview 'echo \"q=$PICK_QUERY pos=$PICK_POS of=$PICK_MATCH_COUNT/$PICK_TOTAL_COUNT\"'",
                       width: 80, height: 10)
        tmux.waitFor(text: "q= pos=1 of=3/3")
        tmux.type("ap")
        tmux.waitFor(text: "2/3")
        tmux.keys("Down")
        tmux.waitFor(text: "q=ap pos=2 of=2/3")
    }

    func testANarrowTerminalTakesTheAlternativeLayout() throws {
        try tmux.start(input: "seq 3", args: "--preview 'echo P{}' --preview-window 'right,50%,<40(down,3)'",
                       width: 60, height: 12)
        var rows = tmux.waitFor(text: "P1")
        XCTAssertTrue(rows[row: 7].hasPrefix("╭"), "30 columns is under 40: the pane goes below:\n\(rows.joined(separator: "\n"))")
        XCTAssertEqual(rows[row: 8], "│ P1" + String(repeating: " ", count: 55) + "│")
        tmux.resize(width: 100, height: 12)
        rows = tmux.waitFor("the pane on the right") { $0[row: 1].hasSuffix("│ P1" + String(repeating: " ", count: 45) + "│") }
        XCTAssertTrue(rows[row: 2].hasPrefix("> 1"))
    }

    func testAHiddenPaneShowsAndHidesWithCtrlSlash() throws {
        try tmux.start(input: "seq 3", args: "--preview 'echo P{}' --preview-window hidden", width: 80, height: 30)
        var rows = tmux.waitFor(text: "3/3")
        XCTAssertFalse(rows.contains { $0.contains("P1") || $0.contains("╮") })
        tmux.keys("C-_")
        rows = tmux.waitFor(text: "P1")
        tmux.keys("C-_")
        rows = tmux.waitFor("the pane gone") { !$0.contains { $0.contains("P1") } }
        XCTAssertTrue(rows[row: 2].hasPrefix("> 1"))
        tmux.keys("F1")
        tmux.waitFor(text: "toggle the preview")
    }

    func testACutTitleNeverRunsIntoABorderlessPaneOnTheRight() throws {
        let long = String(repeating: "x", count: 120)
        try tmux.start(input: "echo \(long)", args: "--preview 'seq 1000 1010' --preview-window noborder,noinfo",
                       width: 80, height: 6)
        let rows = tmux.waitFor(text: "1002")
        XCTAssertTrue(rows[row: 2].contains("·· 1002"), "as fzf: its ellipsis, a blank column between list and pane: \(rows[row: 2])")
    }

    func testShiftKeysScrollThePreview() throws {
        try tmux.start(input: "echo x", args: "--preview 'seq 100'", width: 60, height: 10)
        var rows = tmux.waitFor(text: "1/100")
        XCTAssertTrue(pane(rows[row: 1]).hasPrefix("1 "))
        tmux.keys("S-Down")
        rows = tmux.waitFor(text: "2/100")
        XCTAssertTrue(pane(rows[row: 1]).hasPrefix("2 "), "a line down")
        XCTAssertEqual(pane(rows[row: 2]), "3")
        tmux.keys("S-NPage")
        rows = tmux.waitFor(text: "9/100")
        XCTAssertEqual(pane(rows[row: 2]), "10", "a page: the pane's rows less one")
        tmux.keys("S-Up")
        tmux.waitFor(text: "8/100")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0, "the scroll keys did not pick or cancel")
        XCTAssertEqual(tmux.stdout, "x\n")
    }

    func testHidingAndShowingThePaneOrAResizeKeepsItsScrollPosition() throws {
        try tmux.start(input: "seq 3", args: "--preview 'seq 100'", width: 60, height: 10)
        tmux.waitFor(text: "1/100")
        tmux.keys("S-Down", "S-Down", "S-Down", "S-Down", "S-Down")
        tmux.waitFor(text: "6/100")
        tmux.keys("C-_")
        tmux.waitFor("the pane hidden") { !$0.contains { $0.contains("/100") } }
        tmux.keys("C-_")
        var rows = tmux.waitFor(text: "/100")
        XCTAssertTrue(pane(rows[row: 1]).hasPrefix("6 "), "as fzf: the same line's preview where it was left")
        tmux.resize(width: 70, height: 12)
        tmux.waitFor("the wider pane") { $0.count > 11 && $0[row: 11].hasSuffix("╯") }
        tmux.waitFor(text: "6/100")
        tmux.keys("Down")
        rows = tmux.waitFor(text: "1/100")
        XCTAssertTrue(rows[row: 3].hasPrefix("> 2"), "another line's preview starts at its top")
    }

    func testTheWheelOverThePaneScrollsItAndLeavesTheList() throws {
        try tmux.start(input: "seq 3", args: "--preview 'seq 100'", width: 60, height: 10)
        tmux.waitFor(text: "1/100")
        // Wheel down twice over the pane (SGR mouse reports, column 45, row 5).
        let hex = Array("\u{1B}[<65;45;5M\u{1B}[<65;45;5M".utf8).map { String(format: "%02x", $0) }
        _ = try TmuxPick.shell(["tmux", "-L", tmux.socket, "send-keys", "-t", tmux.name, "-H"] + hex)
        // fzf 0.74 shows 3/100 here: preview-scroll-down is preview-down, a line a turn.
        let rows = tmux.waitFor(text: "3/100")
        XCTAssertTrue(rows[row: 2].hasPrefix("> 1"), "the list's highlight stays")
    }

    func testHeaderLinesStayAndTheScrollOffsetComesFromAField() throws {
        try tmux.start(input: "printf 'f 30\\ng 60\\n'", args: "--preview 'seq 100' --preview-window '~2,+{2}-5'",
                       width: 60, height: 10)
        var rows = tmux.waitFor(text: "25/100")
        XCTAssertTrue(pane(rows[row: 1]).hasPrefix("1 "), "the header, the scroll position at its end")
        XCTAssertEqual([2, 3, 4].map { pane(rows[row: $0]) }, ["2", "25", "26"],
                       "as fzf: line 30 less 5 (counted over the whole output) after the header")
        tmux.keys("Down")
        rows = tmux.waitFor(text: "55/100")
        XCTAssertEqual(pane(rows[row: 3]), "55")
    }

    func testFollowKeepsTheEndOfAGrowingOutputInView() throws {
        try tmux.start(input: "echo x", args: "--preview 'seq 100; sleep 0.3; echo last' --preview-window follow",
                       width: 60, height: 10)
        var rows = tmux.waitFor(text: "93/100")
        XCTAssertEqual(pane(rows[row: 8]), "100")
        rows = tmux.waitFor(text: "94/101")
        XCTAssertEqual(pane(rows[row: 8]), "last", "the end stays in view as the output grows")
    }

    func testWrapFoldsLongLines() throws {
        try tmux.start(input: "echo x", args: "--preview 'printf %s {}; seq -s- 40' --preview-window 'wrap,noinfo'",
                       width: 40, height: 8)
        let rows = tmux.waitFor(text: "x1-2")
        let text = Array("x" + (1...40).map(String.init).joined(separator: "-"))
        XCTAssertEqual(pane(rows[row: 1]), String(text[0..<16]))
        XCTAssertEqual(pane(rows[row: 2]), "↳ " + String(text[16..<30]),
                       "the rest of the line on the next rows, after the wrap sign, as fzf's")
    }

    func testAnEmptyListRunsNoPreviewThatNeedsALine() throws {
        try tmux.start(input: "printf ''", args: "--preview 'touch RAN {}'", width: 60, height: 8)
        tmux.waitFor(text: "No input")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmux.dir.appendingPathComponent("RAN").path))
    }

    func testWithNothingFocusedAPreviewOfTheQueryStillRuns() throws {
        try tmux.start(input: "printf 'alpha\\nbeta\\n'", args: "--preview 'echo query={q} line={}'", width: 60, height: 8)
        tmux.waitFor(text: "query= line=alpha")
        tmux.type("zzz")
        tmux.waitFor(text: "query=zzz line=")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testWithNothingFocusedAPreviewWithoutPlaceholdersStays() throws {
        try tmux.start(input: "echo alpha", args: "--preview 'echo cheat sheet'", width: 60, height: 8)
        tmux.waitFor(text: "cheat sheet")
        tmux.type("zzz")
        tmux.waitFor(text: "0/1")
        let rows = tmux.waitFor(text: "cheat sheet")
        XCTAssertTrue(rows.contains { $0.contains("cheat sheet") }, "as fzf: the command needs no line")
    }

    func testTheBuiltinPreviewIsPicksOwnPathPreviewer() throws {
        let file = try tmux.file("notes.txt", "first line of the notes\nsecond\n")
        guard try runPick(["--preview-builtin", file]).status == 0 else {
            throw XCTSkip("pick --preview-builtin (helper previewer's) is not in this build")
        }
        try tmux.start(input: "printf 'notes.txt\\n'", args: "--preview builtin", width: 80, height: 8)
        tmux.waitFor(text: "first line of the notes")
    }

    func testABadWindowSpecIsOneLineAndExit2() throws {
        let run = try runPick(["--preview", "cat {}", "--preview-window", "middle"], lines: ["x"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr.split(separator: "\n").count, 1)
        XCTAssertTrue(run.stderr.contains("invalid value for --preview-window: 'middle'"), run.stderr)
    }
}
