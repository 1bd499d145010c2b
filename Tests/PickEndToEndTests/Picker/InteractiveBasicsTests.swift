import Foundation
import XCTest

/// The picker as a person meets it: typing, moving, the two layouts, inline height,
/// resizing, UTF-8, vi mode, streaming input, and how it exits.
final class InteractiveBasicsTests: InteractiveTestCase {
    let fruits = "apple\nbanana\ncherry\nblueberry\nüber\n"

    func startFruits(_ args: String = "", width: Int = 80, height: Int = 24, before: String = "") throws {
        try tmux.file("input.txt", fruits)
        try tmux.start(input: "cat input.txt", args: args, width: width, height: height, before: before)
    }

    func testTypingNarrowsTheListAndReturnPicksTheSelection() throws {
        try startFruits()
        tmux.waitFor(text: "5/5")
        tmux.type("be")
        let rows = tmux.waitFor(text: "2/5")
        XCTAssertEqual(rows[row: 0], "> be")
        XCTAssertTrue(rows.contains { $0.hasPrefix("> blueberry") }, "first match is selected")
        tmux.keys("Down")
        tmux.waitFor("über selected") { $0.contains { $0.hasPrefix("> über") } }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "über\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testCtrlNCtrlPCtrlJCtrlKMoveTheSelection() throws {
        try startFruits()
        tmux.waitFor(text: "5/5")
        tmux.keys("C-n", "C-n", "C-j", "C-p", "C-k", "C-n")
        tmux.waitFor("cherry selected") { $0.contains { $0.hasPrefix("> cherry") } }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "cherry\n")
    }

    func testPageDownMovesAPage() throws {
        let lines = (1...100).map { "line \($0)" }.joined(separator: "\n") + "\n"
        try tmux.file("input.txt", lines)
        try tmux.start(input: "cat input.txt", args: "", height: 12)
        tmux.waitFor(text: "100/100")
        tmux.keys("PageDown")
        tmux.waitFor("a page down") { rows in rows.contains { $0.hasPrefix("> line ") && $0 != "> line 1" } }
        tmux.keys("PageUp")
        tmux.waitFor("back to the top") { $0.contains { $0.range(of: "^> line 1( |$)", options: .regularExpression) != nil } }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testBottomLayoutPutsThePromptOnTheLastRowAndUpMovesUp() throws {
        try startFruits("--layout bottom", height: 12)
        let rows = tmux.waitFor("the prompt at the bottom") { $0.count >= 12 && $0[row: 11].hasPrefix(">") && $0[row: 10].contains("5/5") }
        XCTAssertEqual(rows[row: 9], "> apple", "the first line sits just above the info line")
        XCTAssertEqual(rows[row: 8], "  banana")
        tmux.keys("Up")
        tmux.waitFor("banana selected") { $0.count >= 12 && $0[row: 8] == "> banana" }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "banana\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testHeightDrawsInlineBelowTheShellTextAndClearsItOnExit() throws {
        try startFruits("--height 6", height: 20, before: "printf 'shell text above\\n'")
        let rows = tmux.waitFor(text: "5/5")
        XCTAssertEqual(rows[row: 0], "shell text above", "the text above stays")
        XCTAssertEqual(rows[row: 1], ">", "the prompt starts on the next row")
        XCTAssertEqual(rows[row: 2], tmux.infoRow("5/5"))
        XCTAssertEqual(visible(rows).count, 1 + 1 + 1 + 4, "six rows: prompt, info and four lines")
        tmux.type("ch")
        tmux.waitFor(text: "1/5")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "cherry\n")
        let after = tmux.waitFor("the region cleared") { !$0.contains { $0.contains("1/5") } }
        XCTAssertEqual(after[row: 0], "shell text above")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testHeightClearsOldTextBelowTheCursorFirstAsFzf() throws {
        // Old text below the cursor (the cursor moved up over it): gone, as fzf clears it.
        try startFruits("--height 6", height: 20, before: "printf 'shell text above\\n'; seq 101 115; printf '\\033[15A'")
        let rows = tmux.waitFor(text: "5/5")
        XCTAssertEqual(rows[row: 0], "shell text above")
        XCTAssertEqual(rows[row: 1], ">")
        XCTAssertFalse(rows.contains { $0.hasPrefix("1") }, "no old line is left, in the region or below it")
    }

    func testNoClearLeavesTheLastScreenDrawn() throws {
        // fzf's suite (test_no_clear).
        try startFruits("--height 6 --no-clear", height: 20, before: "printf 'shell text above\\n'")
        tmux.waitFor(text: "5/5")
        tmux.type("ch")
        tmux.waitFor(text: "1/5")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "cherry\n")
        // Leaving puts the cursor back on the region's first row, once the frame is kept.
        tmux.waitFor("the cursor back where pick started") { _ in tmux.cursor() == (x: 0, y: 1) }
        let rows = tmux.waitFor("the last frame still drawn") { $0[row: 2] == tmux.infoRow("1/5") }
        XCTAssertEqual(rows[row: 0], "shell text above")
        XCTAssertEqual(rows[row: 3], "> cherry")
        XCTAssertTrue(tmux.terminalRestored)
    }

    /// Whether `row` ends with the chip ` f2 ` a column short of the edge (the scrollbar's,
    /// there or not): capture-pane drops a trailing space.
    func chipAtEdge(_ row: String, columns: Int) -> Bool {
        row.hasSuffix(" f2") && row.count == columns - 2 || row.hasSuffix(" f2 \u{2502}") && row.count == columns
    }

    func testResizingRedrawsAtTheNewSize() throws {
        try tmux.start(input: nil, args: "--demo", width: 80, height: 24)
        tmux.waitFor("the chip at the right edge") { $0.contains { self.chipAtEdge($0, columns: 80) } }
        tmux.resize(width: 50, height: 10)
        let rows = tmux.waitFor("the chip at the new right edge") { $0.contains { self.chipAtEdge($0, columns: 50) } }
        XCTAssertTrue(rows.contains { $0.contains("13/13") })
        tmux.resize(width: 20, height: 10)
        tmux.waitFor("chips dropped when too narrow") { rows in
            rows.contains { $0.hasPrefix("> New File") } && !rows.contains { $0.hasSuffix("f2") }
        }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testResizingAnInlineRegionRedrawsItAndLeavesNoDebris() throws {
        try tmux.start(input: nil, args: "--demo --height 50%", width: 60, height: 20, before: "printf 'kept\\n'")
        tmux.waitFor(text: "13/13")
        tmux.resize(width: 40, height: 12)
        let rows = tmux.waitFor("the region redrawn at the new width") { $0.contains { self.chipAtEdge($0, columns: 40) } }
        XCTAssertEqual(rows.filter { $0.contains("13/13") }.count, 1, "one info line:\n" + rows.joined(separator: "\n"))
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        tmux.waitFor("the region cleared") { !$0.contains { $0.contains("13/13") || $0.contains("New File") || $0.contains("Create") } }
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testAQueryLongerThanARowWrapsAndTheListMakesRoom() throws {
        for layout in ["top", "bottom"] {
            tmux.close()
            tmux = try TmuxPick(test: name + layout)
            try startFruits("--layout \(layout)", width: 30, height: 10)
            tmux.waitFor(text: "5/5")
            tmux.type(String(repeating: "q", count: 40))
            let rows = tmux.waitFor("the query on two rows (\(layout))") { rows in
                let at = rows.firstIndex { $0.hasPrefix("> qqqq") } ?? -1
                return at >= 0 && rows[row: at + 1] == String(repeating: "q", count: 12)
                    && rows.contains(tmux.infoRow("0/5"))
            }
            let prompt = rows.firstIndex { $0.hasPrefix("> qqqq") } ?? -1
            if layout == "top" {
                XCTAssertEqual(rows[row: 2], tmux.infoRow("0/5"), "the info line below the wrapped query")
            } else {
                XCTAssertEqual(prompt, 8, "the prompt moved up a row to fit")
            }
            tmux.keys("C-u")
            tmux.type("che")
            tmux.waitFor(text: "1/5")
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(), 0, layout)
            XCTAssertEqual(tmux.stdout, "cherry\n", layout)
        }
    }

    func testQueryOptionStartsWithTheQueryTyped() throws {
        try startFruits("--query ban")
        let rows = tmux.waitFor(text: "1/5")
        XCTAssertTrue(rows[row: 0].hasPrefix("> ban"))
        tmux.type("x")
        tmux.waitFor(text: "0/5")
        tmux.keys("BSpace", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "banana\n")
    }

    func testUTF8TypingFiltersAndEditsCharacters() throws {
        try tmux.file("input.txt", "élan\nelan vital\nstraße\n日本語\nnihon\n")
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "5/5")
        tmux.type("日本")
        // The rest of the best suggestion shows as ghost text after the query.
        tmux.waitFor("日本語 found") { $0[row: 0] == "> 日本語" && $0[row: 1] == tmux.infoRow("1/5") && $0[row: 2].hasPrefix("> 日本語") }
        tmux.keys("C-u")
        tmux.type("é")
        tmux.waitFor("élan found") { $0[row: 0] == "> élan" && $0[row: 1] == tmux.infoRow("1/5") && $0[row: 2].hasPrefix("> élan") }
        tmux.keys("BSpace")
        tmux.type("ßx")
        tmux.waitFor(text: "0/5")
        tmux.keys("BSpace")
        tmux.waitFor("straße found") { $0[row: 0] == "> ß" && $0.contains { $0.hasPrefix("> straße") } }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "straße\n")
    }

    func testEmacsEditingKeysWork() throws {
        try startFruits()
        tmux.waitFor(text: "5/5")
        tmux.type("xyz app")
        tmux.waitFor(text: "> xyz app")
        tmux.keys("M-b", "C-w")
        tmux.waitFor(text: "1/5")
        tmux.keys("C-e", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apple\n")
    }

    func testViModeFromEditrc() throws {
        try tmux.file("editrc", "bind -v\n")
        try startFruits()
        tmux.waitFor(text: "5/5")
        tmux.type("xcherry")
        tmux.waitFor(text: "> xcherry")
        tmux.keys("Escape")
        tmux.type("0x")
        tmux.waitFor(text: "1/5")
        XCTAssertTrue(tmux.screen()[row: 0] == "> cherry")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0, "Escape went to vi, not to cancel")
        XCTAssertEqual(tmux.stdout, "cherry\n")
    }

    func testTypingWorksWhileInputIsStillArriving() throws {
        // Each next line comes when the test says so (a file appears), not after a time: the
        // keys are typed while input is still arriving however slow the machine is.
        try tmux.start(input: """
            (printf 'apple\\n'; until [ -e more ]; do sleep 0.01; done; printf 'apricot\\n'; \
            until [ -e last ]; do sleep 0.01; done; printf 'banana\\n')
            """, args: "")
        let loading = tmux.waitFor(text: "1/1")
        XCTAssertTrue(loading[row: 1].unicodeScalars.contains { (0x2800...0x28FF).contains($0.value) },
                      "a spinner while input is arriving: \(loading[row: 1])")
        tmux.type("apr")
        tmux.waitFor(text: "> apr")
        try tmux.file("more", "")
        let rows = tmux.waitFor(text: "1/2")
        XCTAssertTrue(rows.contains { $0.hasPrefix("> apricot") })
        try tmux.file("last", "")
        tmux.waitFor(text: "1/3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apricot\n")
    }

    func testReturnEscapeCtrlCAndCtrlGExitAsFzfDoes() throws {
        for (key, status) in [("Enter", Int32(0)), ("Escape", 130), ("C-c", 130), ("C-g", 130)] {
            tmux.close()
            tmux = try TmuxPick(test: name + key)
            try startFruits()
            tmux.waitFor(text: "5/5")
            tmux.keys(key)
            XCTAssertEqual(tmux.exitStatus(), status, key)
            XCTAssertEqual(tmux.stdout, status == 0 ? "apple\n" : "", key)
            XCTAssertTrue(tmux.terminalRestored, key)
            tmux.waitFor("alternate screen left after \(key)") { !$0.contains { $0.contains("5/5") } }
        }
    }

    func testCycleWrapsAroundTheEnds() throws {
        try startFruits("--cycle")
        tmux.waitFor(text: "5/5")
        tmux.keys("Up")
        tmux.waitFor("the last line selected") { $0.contains { $0.hasPrefix("> über") } }
        tmux.keys("Down", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apple\n")
    }

    func testNoColorAndDumbTerminalsDrawWithoutColours() throws {
        try startFruits("", before: "export NO_COLOR=1")
        tmux.waitFor(text: "5/5")
        tmux.type("an")
        tmux.waitFor(text: "1/5")
        let screen = tmux.screenWithEscapes()
        XCTAssertFalse(screen.contains("38;5;"), "no colours with NO_COLOR")
        XCTAssertTrue(screen.contains("\u{1B}[1m"), "matches still in bold")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)

        tmux.close()
        tmux = try TmuxPick(test: name + "dumb")
        try startFruits("", before: "export TERM=dumb")
        tmux.waitFor(text: "5/5")
        tmux.type("an")
        tmux.waitFor(text: "1/5")
        XCTAssertFalse(tmux.screenWithEscapes().contains("\u{1B}[1m"), "nothing but text with TERM=dumb")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "banana\n")
    }

    func testReturnWithNoMatchExitsOne() throws {
        try startFruits("--print-query")
        tmux.waitFor(text: "5/5")
        tmux.type("zzz")
        tmux.waitFor(text: "0/5")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 1)
        XCTAssertEqual(tmux.stdout, "zzz\n")
    }
}
