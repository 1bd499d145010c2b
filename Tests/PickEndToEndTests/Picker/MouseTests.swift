import Foundation
import XCTest

/// The mouse, as a terminal reports it once pick asks (SGR mouse mode): a click highlights
/// the line under it, a double-click picks it, the wheel moves. The reports are sent as the
/// bytes a terminal writes (`ESC [ < button ; column ; row M`, `m` on release).
final class MouseTests: InteractiveTestCase {
    /// Sends a click (press and release) at a 1-based cell.
    private func click(column: Int, row: Int) {
        report("\u{1B}[<0;\(column);\(row)M\u{1B}[<0;\(column);\(row)m")
    }

    private func report(_ bytes: String) {
        let hex = bytes.utf8.map { String(format: "%02x", $0) }
        _ = try? TmuxPick.shell(["tmux", "-L", tmux.socket, "send-keys", "-t", tmux.name, "-H"] + hex)
    }

    /// Whether the program in the pane asked for SGR mouse reports.
    private var mouseReporting: Bool {
        let out = (try? TmuxPick.shell(["tmux", "-L", tmux.socket, "display-message", "-p", "-t", tmux.name,
                                        "#{mouse_sgr_flag}#{mouse_standard_flag}"]))?.output ?? ""
        return out.trimmingCharacters(in: .whitespacesAndNewlines) == "11"
    }

    func testAClickHighlightsTheLineUnderIt() throws {
        try tmux.start(input: "seq 9", args: "")
        tmux.waitFor(text: "9/9")
        // The prompt is row 1, the info line row 2: line "3" is on row 5.
        click(column: 6, row: 5)
        tmux.waitFor("the clicked line highlighted") { $0[row: 4].hasPrefix("> 3") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "3\n")
    }

    func testADoubleClickPicksTheLine() throws {
        try tmux.start(input: "seq 9", args: "")
        tmux.waitFor(text: "9/9")
        click(column: 3, row: 6)
        click(column: 3, row: 6)
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "4\n")
    }

    func testClicksLandOnTheRightLineWithThePromptAtTheBottom() throws {
        try tmux.start(input: "seq 9", args: "--layout bottom", height: 12)
        tmux.waitFor(text: "9/9")
        // Prompt on row 12, info on 11, line "1" on 10, "2" on 9.
        click(column: 4, row: 9)
        tmux.waitFor("the clicked line highlighted") { $0[row: 8].hasPrefix("> 2") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "2\n")
    }

    func testTheWheelMovesTheHighlight() throws {
        try tmux.start(input: "seq 9", args: "")
        tmux.waitFor(text: "9/9")
        report("\u{1B}[<65;5;5M\u{1B}[<65;5;5M")  // wheel down, twice
        tmux.waitFor("two lines down") { $0[row: 4].hasPrefix("> 3") }
        report("\u{1B}[<64;5;5M")  // wheel up
        tmux.waitFor("one line up") { $0[row: 3].hasPrefix("> 2") }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testARightClickMarksTheLineUnderItAsFzfs() throws {
        try tmux.start(input: "seq 9", args: "--multi --marker +")
        tmux.waitFor(text: "9/9 (0)")
        report("\u{1B}[<2;5;5M\u{1B}[<2;5;5m")  // right button on "3"
        tmux.waitFor("highlighted and marked") { $0[row: 1].contains("9/9 (1)") && $0[row: 4] == ">+3" }
        report("\u{1B}[<4;5;6M\u{1B}[<4;5;6m")  // shift and the left button on "4"
        tmux.waitFor(text: "9/9 (2)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "3\n4\n")
    }

    func testABindingOfAMouseEventReplacesItsDefault() throws {
        try tmux.start(input: "seq 9", args: "--bind 'scroll-down:last,left-click:change-prompt(clicked> )'")
        tmux.waitFor(text: "9/9")
        report("\u{1B}[<65;5;5M")  // wheel down: bound to last, not down
        tmux.waitFor("the last line") { $0[row: 10].hasPrefix("> 9") }
        click(column: 5, row: 4)
        tmux.waitFor("the line highlighted, then the bound action") {
            $0[row: 0].hasPrefix("clicked>") && $0[row: 3].hasPrefix("> 2")
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "2\n")
    }

    func testUnbindingTheWheelLeavesTheHighlight() throws {
        try tmux.start(input: "seq 9", args: "--bind 'start:unbind(scroll-down)' --bind 'ctrl-t:change-prompt(t> )'")
        tmux.waitFor(text: "9/9")
        report("\u{1B}[<65;5;5M")
        tmux.keys("C-t")
        let rows = tmux.waitFor("the key after the wheel handled") { $0[row: 0].hasPrefix("t>") }
        XCTAssertTrue(rows[row: 2].hasPrefix("> 1"), "the wheel, unbound, moved nothing")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testMouseReportingIsOnWhilePickRunsAndOffAfterEveryExit() throws {
        try tmux.start(input: "seq 3", args: "--height 6")
        tmux.waitFor(text: "3/3")
        XCTAssertTrue(mouseReporting, "pick asks for mouse reports")
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertFalse(mouseReporting, "and turns them off when it ends")
    }

    func testNoMouseLeavesTheMouseToTheTerminal() throws {
        try tmux.start(input: "seq 3", args: "--no-mouse")
        tmux.waitFor(text: "3/3")
        XCTAssertFalse(mouseReporting, "with --no-mouse the terminal keeps its own selection")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "1\n")
    }
}
