import Foundation
import XCTest

/// fzf's actions that change what is searched and shown, run in the background, print,
/// trigger other bindings and wait: each test drives one pick in tmux through several of
/// them and asserts what fzf 0.74.5 shows for the same recipe.
final class InteractiveFzfActionsTests: InteractiveTestCase {
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
        eventually("the second command starts") { FileManager.default.fileExists(atPath: tmux.dir.appendingPathComponent("pid").path) }
        let pid = Int32(try String(contentsOf: tmux.dir.appendingPathComponent("pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines))!
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
            --bind 'ctrl-g:transform-ghost(echo other hint),ctrl-r:replace-query,ctrl-o:transform-search(echo 1)'
            """)
        tmux.waitFor("--ghost shows in place of the empty query") { $0[row: 0] == "> type a number" }
        tmux.keys("C-s")
        tmux.waitFor("search(5) filters, the query line left empty") {
            $0[row: 0] == "> type a number" && $0[row: 1].hasPrefix("  2/20 ") && $0[row: 2] == "> 5" && $0[row: 3] == "  15"
        }
        tmux.keys("C-p")
        tmux.waitFor("change-pointer") { $0[row: 2] == "=> 5" && $0[row: 3] == "   15" }
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
