import Foundation
import XCTest

/// The keys libedit binds by default, pressed in the real picker: each one edits the query
/// or does nothing harmful. None prints a prompt into the query, clears the shell's text,
/// waits for another key with no sign, rings the bell on and on, or crashes; after each,
/// the screen is intact and Return prints the line the query shows. (The audit itself is
/// the comment above `LineEditor`.)
final class InteractiveEditorKeysTests: InteractiveTestCase {
    static let lines = "a one two\nb three four\nc five six\n"

    /// One press: a tmux key name (`C-v`, `M-x`, `Escape`) or literal text; or, in vi
    /// mode, Escape into command mode, waiting until the cursor steps back (a key right
    /// after Escape would read as alt and that key).
    enum Press {
        case key(String)
        case text(String)
        case commandMode
    }

    func press(_ press: Press, file: StaticString = #filePath, line: UInt = #line) {
        switch press {
        case .key(let name): tmux.keys(name)
        case .text(let text): tmux.type(text)
        case .commandMode:
            let x = tmux.cursor().x
            tmux.keys("Escape")
            let end = Date().addingTimeInterval(TmuxPick.deadline)
            while tmux.cursor().x != x - 1 && Date() < end { usleep(10_000) }
            XCTAssertEqual(tmux.cursor().x, x - 1, "the cursor stepped back into command mode", file: file, line: line)
        }
    }

    /// A scenario: type `typed`, press `presses`; the query then reads `query` and Return
    /// prints `picked` (nil: nothing matches, exit 1). `bells` is how many times the bell
    /// may ring (a key libedit leaves unbound rings it once, as a sign).
    struct Scenario {
        var name: String
        var typed = "one tw"
        var presses: [Press]
        var query: String
        var picked: String? = "a one two"
        var bells = 0
    }

    /// Runs each scenario in its own pick, drawn with `--height` under two lines of the
    /// shell's text. F1 twice after the presses is a barrier: once the help has come and
    /// gone, libedit has read every key before it.
    func check(_ scenarios: [Scenario], editrc: String = "", file: StaticString = #filePath, line: UInt = #line) throws {
        for s in scenarios {
            tmux.close()
            tmux = try TmuxPick(test: name + s.name)
            try tmux.file("input.txt", Self.lines)
            try tmux.file("editrc", editrc)
            try tmux.start(input: "cat input.txt", args: "--height 8", before: "printf 'above 1\\nabove 2\\n'")
            tmux.logOutput()
            tmux.waitFor("\(s.name): the first frame", file: file, line: line) { $0[row: 3] == tmux.infoRow("3/3") }
            tmux.type(s.typed)
            tmux.waitFor("\(s.name): typed", file: file, line: line) { $0[row: 2] == "> " + s.typed }
            for p in s.presses { press(p, file: file, line: line) }
            tmux.keys("F1")
            tmux.waitFor("\(s.name): the help", file: file, line: line) { $0.contains { $0.hasPrefix("Keys") } }
            tmux.keys("F1")
            let expected = "> " + s.query
            let rows = tmux.waitFor("\(s.name): the query '\(s.query)', the screen intact", file: file, line: line) { rows in
                !rows.contains { $0.hasPrefix("Keys") } && rows[row: 2] == trimmed(expected)
                    && rows[row: 0] == "above 1" && rows[row: 1] == "above 2" && tmux.isInfoRow(rows[row: 3], countsEndingWith: "/3")
            }
            XCTAssertEqual(rows.dropFirst(10).filter { !$0.isEmpty }, [], "\(s.name): nothing below the region",
                           file: file, line: line)
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(file: file, line: line), s.picked == nil ? 1 : 0, s.name, file: file, line: line)
            XCTAssertEqual(tmux.stdout, s.picked.map { $0 + "\n" } ?? "", s.name, file: file, line: line)
            let after = tmux.waitFor("\(s.name): the region cleared", file: file, line: line) { rows in
                !rows.contains { $0.hasPrefix(">") || $0.contains("/3") }
            }
            XCTAssertEqual(visible(after), ["above 1", "above 2"], "\(s.name): the shell's text kept", file: file, line: line)
            let bells = tmux.ttyLog.filter { $0 == 0x07 }.count
            XCTAssertLessThanOrEqual(bells, s.bells, "\(s.name): the bell rang \(bells) times", file: file, line: line)
            XCTAssertTrue(tmux.terminalRestored, s.name, file: file, line: line)
        }
    }

    private func trimmed(_ text: String) -> String {
        String(text.reversed().drop { $0 == " " }.reversed())
    }

    // MARK: emacs mode

    func testEmacsKeysThatWouldBreakTheQueryDoNothingHarmful() throws {
        try check([
            // Quoted insert: ctrl-b went into the query as a control character.
            Scenario(name: "ctrl-v", presses: [.key("C-v"), .key("C-b"), .key("C-f")], query: "one tw"),
            // Quoted insert too; now the mark, as in emacs (alt-w copies from it to the cursor).
            Scenario(name: "ctrl-space", presses: [.key("C-Space"), .key("C-b"), .key("C-f")], query: "one tw"),
            // A prefix that swallowed the next key.
            Scenario(name: "ctrl-x", presses: [.key("C-x"), .text("o")], query: "one two"),
            // ed-command: a ": " prompt in the query, then the bell without end.
            Scenario(name: "alt-x", presses: [.key("M-x"), .text("o")], query: "one two"),
            Scenario(name: "alt-X", presses: [.key("M-X"), .text("o")], query: "one two"),
            // Cleared the whole terminal.
            Scenario(name: "ctrl-alt-l", presses: [.key("M-C-l")], query: "one tw"),
            // Searched libedit's history, which is empty: a bell.
            Scenario(name: "alt-N", presses: [.key("M-N")], query: "one tw"),
            Scenario(name: "alt-P", presses: [.key("M-P")], query: "one tw"),
            // A repeat count: alt-3 o typed "ooo".
            Scenario(name: "alt-3", presses: [.key("M-3"), .text("o")], query: "one two"),
            Scenario(name: "alt-0", presses: [.key("M-0"), .key("M-9"), .text("o")], query: "one two"),
            // Already nothing.
            Scenario(name: "ctrl-o ctrl-q ctrl-]", presses: [.key("C-o"), .key("C-q"), .key("C-]"), .text("o")],
                     query: "one two"),
            // Left unbound by libedit: the bell once each, and nothing else.
            Scenario(name: "alt-. alt-_ ctrl-^", presses: [.key("M-."), .key("M-_"), .text("\u{1E}"), .text("o")],
                     query: "one two", bells: 3),
        ])
    }

    func testEmacsEditingKeysEditTheQuery() throws {
        try check([
            Scenario(name: "ctrl-a ctrl-d", presses: [.key("C-a"), .key("C-d")], query: "ne tw"),
            Scenario(name: "ctrl-a ctrl-e", presses: [.key("C-a"), .key("C-e"), .text("o")], query: "one two"),
            Scenario(name: "ctrl-b ctrl-f ctrl-h", presses: [.key("C-b"), .key("C-b"), .key("C-f"), .key("C-h")],
                     query: "one w"),
            Scenario(name: "ctrl-w ctrl-y", presses: [.key("C-w"), .key("C-y")], query: "one tw"),
            Scenario(name: "ctrl-u", presses: [.key("C-u")], query: ""),
            Scenario(name: "ctrl-t", presses: [.key("C-t")], query: "one wt", picked: nil),
            Scenario(name: "alt-b alt-d", presses: [.key("M-b"), .key("M-d")], query: "one "),
            Scenario(name: "alt-f", presses: [.key("C-a"), .key("M-f"), .key("M-d")], query: "one"),
            Scenario(name: "alt-c", presses: [.key("M-b"), .key("M-c")], query: "one Tw", picked: nil),
            Scenario(name: "alt-u alt-l", presses: [.key("M-b"), .key("M-u"), .key("M-b"), .key("M-l")],
                     query: "one tw"),
            Scenario(name: "alt-Backspace", presses: [.key("M-BSpace")], query: "one "),
            Scenario(name: "ctrl-alt-h", presses: [.key("M-C-h")], query: "one "),
            Scenario(name: "ctrl-alt-_", presses: [.key("M-C-_")], query: "one twtw", picked: nil),
            // At the end of the query there is nothing to delete: the bell (libedit rings twice).
            Scenario(name: "ctrl-d at the end", presses: [.key("C-d")], query: "one tw", bells: 2),
        ])
    }

    /// Where libedit's defaults differ from fzf's and readline's, fzf's win (an fzf user's
    /// fingers), and ~/.editrc still has the last word.
    func testEditingKeysKillAndMoveAsInFzfAndReadline() throws {
        try check([
            // libedit's ctrl-u kills the whole line; fzf's kills to the start.
            Scenario(name: "ctrl-u in the middle", presses: [.key("M-b"), .key("C-u")], query: "tw"),
            // ctrl-w kills back to a blank, punctuation and all (libedit's stops at `/`).
            Scenario(name: "ctrl-w to the blank", typed: "one x/tw", presses: [.key("C-w")], query: "one "),
            // alt-Backspace and alt-b stop at punctuation (libedit's words take `-` and `.`).
            Scenario(name: "alt-Backspace at a dash", typed: "one tw-x", presses: [.key("M-BSpace")], query: "one tw-",
                     picked: nil),
            Scenario(name: "alt-b at a dot", typed: "one tw.x", presses: [.key("M-b"), .key("C-h")], query: "one twx",
                     picked: nil),
            // Every kill is what ctrl-y puts back.
            Scenario(name: "ctrl-u ctrl-y", presses: [.key("M-b"), .key("C-u"), .key("C-e"), .key("C-y")],
                     query: "twone ", picked: nil),
            Scenario(name: "alt-d ctrl-y", presses: [.key("C-a"), .key("M-d"), .key("C-e"), .key("C-y")],
                     query: " twone", picked: nil),
        ])
    }

    func testWithFilepathWordTheWordKeysStopAtEachSlash() throws {
        // fzf's suite (test_file_word).
        try tmux.file("input.txt", Self.lines)
        try tmux.start(input: "cat input.txt", args: "--filepath-word -q '--/foo bar/foo-bar/baz'")
        tmux.waitFor(text: "> --/foo bar/foo-bar/baz")
        for key in ["M-b", "M-b", "M-b", "M-d", "M-f", "M-BSpace"] { tmux.keys(key) }
        tmux.waitFor("the path's parts killed") { $0[row: 0] == "> --///baz" }
    }

    func testEditrcStillRebindsTheEditingKeys() throws {
        try check([Scenario(name: "editrc ctrl-u", presses: [.key("M-b"), .key("C-u")], query: "")],
                  editrc: "bind ^U em-kill-line\n")
    }

    func testCtrlDOnAnEmptyQueryCancelsAsInFzf() throws {
        try tmux.file("input.txt", Self.lines)
        try tmux.start(input: "cat input.txt", args: "--height 8")
        tmux.waitFor(text: "3/3")
        tmux.keys("C-d")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertEqual(tmux.stdout, "")
        XCTAssertTrue(tmux.terminalRestored)
    }

    // MARK: vi mode

    func testViInsertModeKeysNeverPutControlCharactersInTheQuery() throws {
        let presses: [(String, Press)] = [
            ("ctrl-b", .key("C-b")), ("ctrl-f", .key("C-f")), ("ctrl-o", .key("C-o")), ("ctrl-t", .key("C-t")),
            ("ctrl-x", .key("C-x")), ("ctrl-y", .key("C-y")), ("ctrl-]", .key("C-]")), ("ctrl-^", .text("\u{1E}")),
            ("ctrl-_", .text("\u{1F}")),
        ]
        try check(presses.map { Scenario(name: "vi insert " + $0.0, presses: [$0.1, .text("o")], query: "one two") } + [
            // Quoted insert: the next key, a control character, went into the query.
            Scenario(name: "vi insert ctrl-v", presses: [.key("C-v"), .key("C-b"), .text("o")], query: "one two"),
            Scenario(name: "vi insert ctrl-space", presses: [.key("C-Space"), .key("C-b"), .text("o")],
                     query: "one two"),
            // As in vi's command mode and emacs: the start and the end of the query.
            Scenario(name: "vi insert ctrl-a ctrl-e", typed: "ne t",
                     presses: [.key("C-a"), .text("o"), .key("C-e"), .text("w")], query: "one tw"),
            // End and Right reach the end of the query (libedit's stopped on its last character).
            Scenario(name: "vi insert Home End", typed: "ne t",
                     presses: [.key("Home"), .text("o"), .key("End"), .text("w")], query: "one tw"),
            Scenario(name: "vi insert Left Right", typed: "one t",
                     presses: [.key("Left"), .key("Right"), .text("w")], query: "one tw"),
            Scenario(name: "vi insert ctrl-w", presses: [.key("C-w")], query: "one "),
        ], editrc: "bind -v\n")
    }

    func testViCommandModeKeysThatOpenPromptsDoNothing() throws {
        // After Escape the cursor is on the w; x deletes it, so a key that waits for
        // another, or opens a prompt, shows.
        let keys: [(String, Press)] = [
            ("/", .text("/")), ("?", .text("?")), (":", .text(":")), ("n", .text("n")), ("N", .text("N")),
            ("v", .text("v")), ("#", .text("#")), ("@", .text("@")), ("G", .text("G")), ("J", .text("J")),
            ("K", .text("K")), ("_", .text("_")), ("O", .text("O")), ("[", .text("[")), ("Ï", .text("Ï")),
            ("Escape", .key("Escape")), ("ctrl-alt-l", .key("M-C-l")),
        ]
        try check(keys.map { name, press in
            Scenario(name: "vi command " + name, presses: [.commandMode, press, .text("x")], query: "one t")
        } + [
            Scenario(name: "vi command U", presses: [.commandMode, .text("U")], query: ""),
            Scenario(name: "vi command b d w", presses: [.commandMode, .text("b"), .text("dw")], query: "one "),
        ], editrc: "bind -v\n")
    }

    func testViCommandModeJAndKMoveTheSelection() throws {
        for (keys, picked) in [("j", "b three four"), ("jk", "a one two"), ("+", "b three four"), ("+-", "a one two")] {
            tmux.close()
            tmux = try TmuxPick(test: name + keys)
            try tmux.file("input.txt", Self.lines)
            try tmux.file("editrc", "bind -v\n")
            try tmux.start(input: "cat input.txt", args: "")
            tmux.waitFor(text: "3/3")
            tmux.type("o")
            tmux.waitFor(text: "2/3")
            press(.commandMode)
            tmux.type(keys)
            let selected = "> " + picked
            tmux.waitFor("\(keys): the selection on \(picked)") { $0[row: 0] == "> o" && $0.contains(selected) }
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(), 0, keys)
            XCTAssertEqual(tmux.stdout, picked + "\n", keys)
        }
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
        tmux.waitFor("the query untouched") { $0[row: 0] == "> 1" && $0[row: 1] == tmux.infoRow("1/5") && $0[row: 2] == "> 1" }
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
        XCTAssertEqual(Array(rows.prefix(5)), ["above 1", "above 2", "> one", tmux.infoRow("1/3"), "> a one two"])
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
        XCTAssertEqual(visible(rows), ["> ", tmux.infoRow("3/3"), "> a one two", "  b three four", "  c five six"].map(trimmed))
        tmux.type("six")
        tmux.waitFor(text: "1/3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "c five six\n")
    }

    // MARK: Resizing with --height

    func testShrinkingAndGrowingKeepsTheShellsLinesAbove() throws {
        // Half the terminal (at least 3 rows, not fzf's 10): 12 rows below the 12 lines, then
        // 6, then 12 again. tmux drops
        // the rows below the cursor as the window shrinks and brings back the lines the
        // screen scrolled off as it grows.
        let above = (1...12).map { "line \($0)" }
        try tmux.file("input.txt", (1...20).map { "\($0)\n" }.joined())
        try tmux.start(input: "cat input.txt", args: "--height 50% --min-height 3", width: 60, height: 24,
                       before: "printf '\(above.joined(separator: "\\n"))\\n'")
        tmux.waitFor(text: "20/20")
        tmux.resize(width: 60, height: 12)
        // The region no longer fits below the lines: they scroll up, none is drawn over.
        // (Its six rows list four lines.)
        tmux.waitFor("the region in 6 rows, just below the last line") { rows in
            rows[row: 5] == "line 12" && rows[row: 6] == ">" && rows[row: 7] == tmux.infoRow("20/20") && rows[row: 11] == "  4"
        }
        tmux.resize(width: 60, height: 24)
        let rows = tmux.waitFor("the region in 12 rows, below every line") { $0[row: 23] == "  10" }
        XCTAssertEqual(Array(rows.prefix(14)), above + [">", tmux.infoRow("20/20")])
        tmux.type("13")
        tmux.waitFor(text: " 1/20")  // not 11/20, the frame of "1"
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
