import Foundation
import XCTest

/// `--accessible`: screen readers that follow the terminal cursor read the selected line.
final class AccessibleTests: InteractiveTestCase {
    func testTheCursorRestsOnTheSelectedRowAndFollowsIt() throws {
        try tmux.start(input: "seq 1 30", args: "--accessible")
        tmux.waitFor(text: "30 matches of 30 lines")
        // Prompt on row 0, the info line on row 1, the first line (selected) on row 2.
        waitForCursor(row: 2, column: 2)
        tmux.keys("Down", "Down")
        waitForCursor(row: 4, column: 2)
        tmux.keys("Up")
        waitForCursor(row: 3, column: 2)
        // Typing still edits the query, and the cursor comes back to the (new) selection.
        tmux.type("2")
        let rows = tmux.waitFor(text: "12 matches of 30 lines")
        XCTAssertEqual(rows[row: 0], "> 2")
        waitForCursor(row: 2, column: 2)
        tmux.keys("Down")
        waitForCursor(row: 3, column: 2)
        tmux.type("5")
        tmux.waitFor(text: "1 match of 30 lines")
        XCTAssertEqual(tmux.screen()[row: 0], "> 25")
        tmux.type("x")
        tmux.waitFor(text: "no matches of 30 lines")
        // Nothing to select: the cursor stays in the query.
        waitForCursor(row: 0, column: 5)
        tmux.keys("BSpace", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "25\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testWithThePromptAtTheBottomTheCursorIsOnTheSelectedRowAbove() throws {
        try tmux.start(input: "seq 1 30", args: "--accessible --layout=bottom")
        tmux.waitFor(text: "30 matches of 30 lines")
        waitForCursor(row: 21, column: 2)
        tmux.keys("Up")
        waitForCursor(row: 20, column: 2)
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "2\n")
    }

    func testWithoutItTheCursorStaysInTheQuery() throws {
        try tmux.start(input: "seq 1 30", args: "")
        tmux.waitFor(text: "30/30")
        tmux.keys("Down", "Down")
        tmux.waitFor(text: "> 3")
        waitForCursor(row: 0, column: 2)
    }

    func testWhileInputLoadsTheInfoLineSaysSoInWordsWithNoSpinner() throws {
        // The input ends when the test says so (a file appears), not after a time.
        try tmux.start(input: "{ seq 1 5; until [ -e ended ]; do sleep 0.01; done; }", args: "--accessible")
        let rows = tmux.waitFor(text: "5 matches of 5 lines, loading")
        let braille = rows.joined().unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) }
        XCTAssertFalse(braille, "no spinner glyph")
        try tmux.file("ended", "")
        tmux.waitFor("loading to end") { rows in
            rows.contains { $0.trimmingCharacters(in: .whitespaces) == "5 matches of 5 lines" }
        }
    }

    private func waitForCursor(row: Int, column: Int, file: StaticString = #filePath, line: UInt = #line) {
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var last = tmux.cursor()
        while Date() < end {
            last = tmux.cursor()
            if last.y == row && last.x == column { return }
            usleep(20_000)
        }
        XCTFail("the cursor is at row \(last.y), column \(last.x), not row \(row), column \(column); screen:\n"
                + tmux.screen().joined(separator: "\n"), file: file, line: line)
    }
}
