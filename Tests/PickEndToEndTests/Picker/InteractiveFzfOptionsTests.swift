import Foundation
import XCTest

/// What fzf users keep in FZF_DEFAULT_OPTS, on the screen of the real binary: the border,
/// margin and padding, the info styles, the layouts, --track, the gutter's glyphs,
/// adaptive height, the (n/N) of --multi=N, and fzf options pick refuses.
final class InteractiveFzfOptionsTests: InteractiveTestCase {
    // MARK: Border, margin, padding

    // Inside a border fzf's rows reach the column beside its right side, where its scrollbar
    // goes: pick's rule there is one column shorter than fzf's.
    func testABorderWithALabelFramesTheFullScreen() throws {
        try tmux.start(input: "seq 20", args: "--border --border-label=Hi", width: 30, height: 10)
        var rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(rows[row: 0], "╭─────────────Hi─────────────╮", "fzf's rounded box, the label centred")
        XCTAssertEqual(rows[row: 1], "│ >                          │", "the prompt inside the border")
        XCTAssertEqual(rows[row: 2], "│   20/20 ─────────────────  │", "the counts, then the separator")
        XCTAssertEqual(rows[row: 3], "│ > 1                       ││", "the scrollbar beside the border")
        XCTAssertEqual(rows[row: 9], "╰────────────────────────────╯")
        XCTAssertEqual(tmux.cursor().x, 4, "the query starts after the border, its padding and the prompt")
        tmux.type("13")
        rows = tmux.waitFor(text: "   1/20")  // not 11/20, the frame of "1"
        XCTAssertEqual(rows[row: 1], "│ > 13                       │")
        XCTAssertEqual(rows[row: 3], "│ > 13                       │")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "13\n")
    }

    func testTheBorderAndItsLabelTakeTheirColours() throws {
        try tmux.start(input: "seq 3", args: "--border --border-label=Hi --color=border:100,label:101",
                       width: 30, height: 8)
        tmux.waitFor(text: "3/3")
        let rows = tmux.screenWithEscapes().components(separatedBy: "\n")
        XCTAssertTrue(rows[row: 0].hasPrefix("\u{1B}[38;5;100m╭"), rows[row: 0].debugDescription)
        XCTAssertTrue(rows[row: 0].contains("\u{1B}[38;5;101mHi"), rows[row: 0].debugDescription)
        XCTAssertTrue(rows[row: 1].contains("\u{1B}[38;5;100m│"), "the prompt row's glyph too: \(rows[row: 1].debugDescription)")
    }

    func testABorderInlineAtTheBottomKeepsTheShellsLinesAbove() throws {
        try tmux.start(input: "seq 20", args: "--height 7 --border=sharp --layout=bottom", width: 30, height: 12,
                       before: "clear; echo above")
        let rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(rows[row: 0], "above")
        XCTAssertEqual(rows[row: 1], "┌────────────────────────────┐")
        XCTAssertEqual(rows[row: 2], "│   3                        │")
        XCTAssertEqual(rows[row: 4], "│ > 1                       ││")
        XCTAssertEqual(rows[row: 5], "│   20/20 ─────────────────  │")
        XCTAssertEqual(rows[row: 6], "│ >                          │")
        XCTAssertEqual(rows[row: 7], "└────────────────────────────┘", "the border's rows count in the height")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        let after = tmux.waitFor("the region cleared") { !$0.contains { $0.contains("┌") || $0.contains("│") } }
        XCTAssertEqual(after[row: 0], "above")
    }

    func testALongQueryWrapsBeforeTheRightBorder() throws {
        try tmux.start(input: "seq 20", args: "--border", width: 30, height: 10)
        tmux.waitFor(text: "20/20")
        tmux.type("abcdefghijklmnopqrstuvwxyz0123")
        let rows = tmux.waitFor("the query on two rows, the info line below") {
            $0[row: 2].hasPrefix("yz0123") && $0[row: 3].contains(" 0/20")
        }
        XCTAssertEqual(rows[row: 1], "│ > abcdefghijklmnopqrstuvwx │", "libedit's line ends inside the border")
        XCTAssertTrue(rows[row: 2].hasSuffix("│"), "the right border stays: \(rows[row: 2])")
        XCTAssertEqual(rows[row: 3], "│   0/20 ──────────────────  │")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testMarginOutsideTheBorderAndPaddingInside() throws {
        try tmux.start(input: "seq 20", args: "--border --margin=1,2 --padding=1,1", width: 30, height: 12)
        let rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(rows[row: 0], "")
        XCTAssertEqual(rows[row: 1], "  ╭────────────────────────╮")
        XCTAssertEqual(rows[row: 2], "  │                        │", "a row of padding")
        XCTAssertEqual(rows[row: 3], "  │  >                     │", "a column of padding, and fzf's beside the line")
        XCTAssertEqual(rows[row: 4], "  │    20/20 ───────────   │")
        XCTAssertEqual(rows[row: 10], "  ╰────────────────────────╯")
        XCTAssertEqual(rows[row: 11], "")
    }

    // MARK: Info

    func testInlineInfoGoesOnThePromptRowAndGivesItsRowToTheList() throws {
        try tmux.start(input: "seq 20", args: "--info=inline", width: 40, height: 8)
        tmux.waitFor(text: "20/20")
        tmux.type("1")
        let rows = tmux.waitFor(text: "11/20")
        XCTAssertEqual(rows[row: 0], "> 1  < 11/20 " + String(repeating: "─", count: 26),
                       "after the query, with fzf's prefix, and the separator to a column short of the end")
        XCTAssertEqual(rows[row: 1], tmux.barred("> 1"), "the list starts on the next row")
        XCTAssertEqual(tmux.cursor().x, 3, "the cursor stays in the query")
    }

    func testInlineRightInfoEndsThePromptRow() throws {
        try tmux.start(input: "seq 20", args: "--info=inline-right --border", width: 40, height: 8)
        let rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(rows[row: 1], "│ >                             20/20  │", "a column short of the end")
        XCTAssertEqual(rows[row: 2], "│ ───────────────────────────────────  │", "the separator on a row of its own, as fzf's")
        XCTAssertEqual(rows[row: 3], "│ > 1                                 ││")
    }

    func testHiddenInfoShowsNoCounts() throws {
        try tmux.start(input: "seq 20", args: "--no-info", width: 40, height: 8)
        let rows = tmux.waitFor(text: "> 1")
        XCTAssertEqual(rows[row: 1], String(repeating: "─", count: 39), "fzf's separator keeps its row")
        XCTAssertEqual(rows[row: 2], tmux.barred("> 1"))
        XCTAssertFalse(rows.contains { $0.contains("20/20") })
    }

    func testHiddenInfoWithoutTheSeparatorGivesItsRowToTheList() throws {
        try tmux.start(input: "seq 20", args: "--info=hidden --no-separator", width: 40, height: 8)
        let rows = tmux.waitFor(text: "> 1")
        XCTAssertEqual(rows[row: 1], tmux.barred("> 1"))
    }

    func testMultiWithALimitShowsMarkedOutOfTheLimit() throws {
        try tmux.start(input: "seq 5", args: "--multi 2", width: 40, height: 8)
        tmux.waitFor(text: "5/5 (0/2)")
        tmux.keys("Tab", "Tab", "Tab")
        tmux.waitFor(text: "5/5 (2/2)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "1\n2\n", "no third mark past the limit")
    }

    // MARK: Layouts, track, gutter

    func testReverseListPutsThePromptBelowAndTheListTopDown() throws {
        try tmux.start(input: "seq 20", args: "--height 7 --layout=reverse-list", width: 30, height: 10,
                       before: "clear")
        var rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(Array(rows.prefix(7)), [tmux.barred("> 1"), "  2", "  3", "  4", "  5", tmux.infoRow("20/20"), ">"])
        tmux.keys("Down")
        rows = tmux.waitFor(text: "> 2")
        XCTAssertEqual(rows[row: 1], "> 2", "Down goes down the screen")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "2\n")
    }

    func testFzfsLayoutNamesKeepFzfsMeanings() throws {
        try tmux.start(input: "seq 20", args: "--height 5 --layout=default", width: 30, height: 10, before: "clear")
        let rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(Array(rows.prefix(5)), ["  3", "  2", tmux.barred("> 1"), tmux.infoRow("20/20"), ">"],
                       "fzf's default: the prompt below")
    }

    func testTrackKeepsTheHighlightOnItsLineAsTheQueryChanges() throws {
        try tmux.start(input: "seq 30", args: "--track", width: 40, height: 12)
        tmux.waitFor(text: "30/30 +T")
        for _ in 0..<12 { tmux.keys("Down") }
        tmux.waitFor(text: "> 13")
        tmux.type("3")
        let rows = tmux.waitFor(text: "4/30")
        XCTAssertTrue(rows.contains("> 13"), "13 still matches and stays highlighted")
        XCTAssertTrue(rows.contains("  3"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "13\n")
    }

    func testPointerAndMarkerAreTheGuttersGlyphs() throws {
        try tmux.start(input: "seq 5", args: "-m --pointer='->' --marker='✓'", width: 40, height: 8)
        tmux.waitFor(text: "5/5")
        tmux.keys("Tab")
        let rows = tmux.waitFor("1 marked, the pointer on 2") { $0[row: 3] == "-> 2" }
        XCTAssertEqual(rows[row: 2], "  ✓1", "the gutter is as wide as both glyphs")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "1\n")
    }

    // MARK: Height

    func testAdaptiveHeightTakesOnlyTheRowsTheInputNeeds() throws {
        try tmux.start(input: "printf 'a\\nb\\nc\\n'", args: "--height=~10", width: 30, height: 12,
                       before: "clear; printf 'l1\\nl2\\nl3\\nl4\\nl5\\n'")
        let rows = tmux.waitFor(text: "3/3")
        // Ten rows would not fit below the five lines: the screen would have scrolled.
        XCTAssertEqual(Array(rows.prefix(10)), ["l1", "l2", "l3", "l4", "l5", ">", tmux.infoRow("3/3"), "> a", "  b", "  c"])
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "a\n")
    }

    func testAdaptiveHeightStopsAtItsMost() throws {
        try tmux.start(input: "seq 100", args: "--height=~6", width: 30, height: 12, before: "clear")
        let rows = tmux.waitFor(text: "100/100")
        XCTAssertEqual(Array(rows.prefix(7)), [">", tmux.infoRow("100/100"), tmux.barred("> 1"), "  2", "  3", "  4", ""])
    }

    // MARK: Refused

    func testAnFzfOptionIgnoringWouldGetWrongIsRefusedSayingSo() throws {
        try tmux.start(input: "seq 5", args: "", environment: ["PICK_DEFAULT_OPTS": "--border --man"])
        XCTAssertEqual(tmux.exitStatus(), 2)
        XCTAssertEqual(tmux.stderr, "pick: PICK_DEFAULT_OPTS: --man is not implemented yet (fzf option)\n")
    }
}
