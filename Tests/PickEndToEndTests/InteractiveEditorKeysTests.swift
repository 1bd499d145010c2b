import Foundation
import XCTest

/// Keys (and resizes) in the real picker that must leave the query and the shell's text alone.
final class InteractiveEditorKeysTests: InteractiveTestCase {
    static let lines = "a one two\nb three four\nc five six\n"

    private func trimmed(_ text: String) -> String {
        String(text.reversed().drop { $0 == " " }.reversed())
    }

    // MARK: ctrl-l

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
}
