import Foundation
import XCTest

/// Keys (and resizes) in the real picker that must leave the query and the shell's text alone.
final class InteractiveEditorKeysTests: InteractiveTestCase {
    static let lines = "a one two\nb three four\nc five six\n"

    private func trimmed(_ text: String) -> String {
        String(text.reversed().drop { $0 == " " }.reversed())
    }

    // MARK: ctrl-r and ctrl-l

    func testCtrlRMovesToTheNextLineAndLeavesTheQueryAlone() throws {
        try tmux.file("input.txt", "1\n2\n3\n4\n5\n")
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "5/5")
        tmux.type("1")
        tmux.waitFor(text: "1/5")
        tmux.keys("C-r")
        tmux.keys("F1")
        tmux.waitFor(text: "Keys")
        tmux.keys("F1")
        tmux.waitFor("the query untouched") { $0[row: 0] == "> 1" && $0[row: 1] == "  1/5" && $0[row: 2] == "> 1" }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "1\n")

        tmux.close()
        tmux = try TmuxPick(test: name + "next")
        try tmux.file("input.txt", "echo newest\nls\necho older\necho oldest\n")
        try tmux.start(input: "cat input.txt", args: "--tiebreak=index")
        tmux.waitFor(text: "4/4")
        tmux.type("echo")
        tmux.waitFor(text: "3/4")
        tmux.keys("C-r", "C-r")
        // (The rest of "echo newest", the best suggestion, follows the query as ghost text.)
        tmux.waitFor("ctrl-r twice: two lines on") { $0[row: 0].hasPrefix("> echo") && $0[row: 4] == "> echo oldest" }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "echo oldest\n")
    }

    func testCtrlLRedrawsPicksRowsAndKeepsTheShellsText() throws {
        try tmux.file("input.txt", Self.lines)
        try tmux.start(input: "cat input.txt", args: "--height 8", before: "printf 'above 1\\nabove 2\\n'")
        tmux.waitFor(text: "3/3")
        tmux.type("one")
        tmux.waitFor(text: "1/3")
        // Another program writes over pick's rows: ctrl-l paints them again.
        let tty = try TmuxPick.shell(["tmux", "-L", tmux.socket, "display-message", "-p", "-t", tmux.name,
                                      "#{pane_tty}"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("\u{1B}7\u{1B}[5;1Hstray text\u{1B}8".utf8).write(to: URL(fileURLWithPath: tty))
        tmux.waitFor(text: "stray text")
        tmux.keys("C-l")
        var rows = tmux.waitFor("pick's rows painted again") { !$0.contains { $0.contains("stray") } }
        XCTAssertEqual(Array(rows.prefix(5)), ["above 1", "above 2", "> one", "  1/3", "> a one two"])
        tmux.type(" t")
        rows = tmux.waitFor("typing goes on where it was") { $0[row: 2] == "> one t" }
        XCTAssertEqual(Array(rows.prefix(2)), ["above 1", "above 2"])
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "a one two\n")
        rows = tmux.waitFor("the region cleared") { !$0.contains { $0.contains("1/3") } }
        XCTAssertEqual(visible(rows), ["above 1", "above 2"], "no stray prompt left")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testCtrlLRedrawsTheFullScreen() throws {
        try tmux.file("input.txt", Self.lines)
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "3/3")
        let tty = try TmuxPick.shell(["tmux", "-L", tmux.socket, "display-message", "-p", "-t", tmux.name,
                                      "#{pane_tty}"]).output.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data("\u{1B}7\u{1B}[12;1Hstray text\u{1B}8".utf8).write(to: URL(fileURLWithPath: tty))
        tmux.waitFor(text: "stray text")
        tmux.keys("C-l")
        let rows = tmux.waitFor("the screen painted again") { !$0.contains { $0.contains("stray") } }
        XCTAssertEqual(visible(rows), ["> ", "  3/3", "> a one two", "  b three four", "  c five six"].map(trimmed))
        tmux.type("six")
        tmux.waitFor(text: "1/3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "c five six\n")
    }

    // MARK: Resizing with --height

    func testShrinkingAndGrowingKeepsTheShellsLinesAbove() throws {
        // Half the terminal: 12 rows below the 12 lines, then 6, then 12 again. tmux drops
        // the rows below the cursor as the window shrinks and brings back the lines the
        // screen scrolled off as it grows.
        let above = (1...12).map { "line \($0)" }
        try tmux.file("input.txt", (1...20).map { "\($0)\n" }.joined())
        try tmux.start(input: "cat input.txt", args: "--height 50%", width: 60, height: 24,
                       before: "printf '\(above.joined(separator: "\\n"))\\n'")
        tmux.waitFor(text: "20/20")
        tmux.resize(width: 60, height: 12)
        // The region no longer fits below the lines: they scroll up, none is drawn over.
        // (Its six rows list four lines.)
        tmux.waitFor("the region in 6 rows, just below the last line") { rows in
            rows[row: 5] == "line 12" && rows[row: 6] == ">" && rows[row: 7] == "  20/20" && rows[row: 11] == "  4"
        }
        tmux.resize(width: 60, height: 24)
        let rows = tmux.waitFor("the region in 12 rows, below every line") { $0[row: 23] == "  10" }
        XCTAssertEqual(Array(rows.prefix(14)), above + [">", "  20/20"])
        tmux.type("13")
        tmux.waitFor(text: "1/20")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "13\n")
        let after = tmux.waitFor("the region cleared") { !$0.contains { $0.contains("/20") } }
        XCTAssertEqual(visible(after), above)
        XCTAssertTrue(tmux.terminalRestored)
    }
}

/// ctrl-r pressed again inside pick's own history widget, bash's habit: the next older command.
final class ShellCtrlRAgainTests: ShellTestCase {
    func testCtrlRAgainInTheHistoryWidgetPicksTheNextOlderCommand() throws {
        try pane.start()
        pane.run("echo one", output: "one")
        pane.run("echo two", output: "two")
        pane.run("echo three", output: "three")
        pane.tmux.keys("C-r")
        pane.waitForPick("3/3")
        pane.tmux.type("echo t")
        pane.waitForPick("2/3")
        pane.tmux.keys("C-r")
        pane.tmux.waitFor("the next older command selected") { $0.contains("> echo two") }
        pane.tmux.keys("Enter")
        pane.waitForLine("echo two", beforeCursor: "echo two")
        pane.run("", output: "two")
    }
}
