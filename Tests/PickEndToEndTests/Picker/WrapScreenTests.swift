import Foundation
import XCTest

/// Items over several rows, each screen the one fzf 0.74.5 draws for the same command
/// (captured side by side in tmux, fzf's suite options `--pointer '>' --marker '>'` and
/// its default layout): `--read0` items with newlines (fzf's test_fzf_multi_line),
/// `--wrap`, `--gap`, their toggles, and the preview's wrapping.
final class WrapScreenTests: InteractiveTestCase {
    /// fzf's suite's defaults (its FZF_DEFAULT_OPTS) and its layout.
    private let fzfLook = "--layout=default --no-scrollbar --pointer '>' --marker '>' --gutter ' ' --scroll-off=3"

    /// The list's rows above the info line (the last `rows` of them), as the screen shows them.
    private func list(_ screen: [String], rows: Int, height: Int) -> [String] {
        Array(screen[(height - 2 - rows)..<(height - 2)])
    }

    func testAMultiLineItemTakesARowForEachLineTheFarOneCutAtItsTop() throws {
        try tmux.start(input: "(printf '0\\0'; printf '1\\n2\\0'; seq 30)",
                       args: "--read0 --multi --bind load:select-all --bind space:toggle-multi-line \(fzfLook)",
                       width: 40, height: 14)
        let first = [" ┃23", " ┃24", " ┃25", " ┃26", " ┃27", " ┃28", " ┃29", " ┃30", " ╹", " ╻1", " ╹2", ">>0"]
        var rows = tmux.waitFor("fzf's first screen") { self.list($0, rows: 12, height: 14) == first }
        XCTAssertEqual(rows[12], tmux.infoRow("3/3 (3)"))
        tmux.keys("Up", "Up")
        let tall = [">╻1", ">┃2", ">┃3", ">┃4", ">┃5", ">┃6", ">┃7", ">┃8", ">┃9", ">┃10", ">┃11", ">┃12␊"]
        rows = tmux.waitFor("the highlighted item from its first row, the pointer on each") {
            self.list($0, rows: 12, height: 14) == tall
        }
        tmux.keys("Down")
        let back = [" ┃22", " ┃23", " ┃24", " ┃25", " ┃26", " ┃27", " ┃28", " ┃29", " ┃30", " ╹", ">╻1", ">╹2"]
        rows = tmux.waitFor("the item moved to starts the list, as fzf's offset") { self.list($0, rows: 12, height: 14) == back }
        tmux.keys("Down", "Space")
        rows = tmux.waitFor("toggle-multi-line: one row each, the newlines drawn ␊") {
            self.list($0, rows: 3, height: 14) == [" >1␊2␊3␊4␊5␊6␊7␊8␊9␊10␊11␊12␊13␊14␊15␊··", " >1␊2", ">>0"]
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "0\n1\n2\n" + (1...30).map { "\($0)\n" }.joined() + "\n",
                       "the items printed whole, as read, each ended by a newline")
    }

    func testWrapGoesOnOverTheRowsBelowAndToggleWrapCutsIt() throws {
        try tmux.start(input: "seq 100 | tr '\\n' ' '", args: "--wrap --bind space:toggle-wrap \(fzfLook)",
                       width: 30, height: 12)
        let wrapped = ["> 1 2 3 4 5 6 7 8 9 10 11 12 1", "> ↳ 3 14 15 16 17 18 19 20 21", "> ↳ 22 23 24 25 26 27 28 29 30",
                       "> ↳  31 32 33 34 35 36 37 38 3", "> ↳ 9 40 41 42 43 44 45 46 47", "> ↳ 48 49 50 51 52 53 54 55 56",
                       "> ↳  57 58 59 60 61 62 63 64 6", "> ↳ 5 66 67 68 69 70 71 72 73", "> ↳ 74 75 76 77 78 79 80 81 82",
                       "> ↳  83 84 85 86 87 88 89 90 9"]
        tmux.waitFor("fzf's wrapped rows, from the line's first") { self.list($0, rows: 10, height: 12) == wrapped }
        tmux.type(" ")
        tmux.waitFor("toggle-wrap: one row, cut") { $0[9] == "> 1 2 3 4 5 6 7 8 9 10 11 12··" && $0[8].isEmpty }
        tmux.type(" ")
        tmux.waitFor("and wrapped again") { self.list($0, rows: 10, height: 12) == wrapped }
    }

    func testWordWrapBreaksAfterABlankAndTheListScrollsByRows() throws {
        // Nine lines, the n-th 1 to 12n.
        try tmux.start(input: "for i in 1 2 3 4 5 6 7 8 9; do seq $((i*12)) | tr '\\n' ' '; echo; done",
                       args: "--wrap=word \(fzfLook)", width: 30, height: 12)
        tmux.waitFor(text: "9/9")
        for _ in 0..<6 { tmux.keys("Up") }
        tmux.waitFor("the seventh line, taller than the list, from its first row") { screen in
            screen[0] == "> 1 2 3 4 5 6 7 8 9 10 11 12" && screen[1] == "> ↳ 13 14 15 16 17 18 19 20"
                && screen[9] == "> ↳ 77 78 79 80 81 82 83 84"
        }
        tmux.keys("Down")
        tmux.waitFor("the sixth line whole, the seventh's last row above it, as fzf") { screen in
            screen[0] == "  ↳ 77 78 79 80 81 82 83 84" && screen[1] == "> 1 2 3 4 5 6 7 8 9 10 11 12"
                && screen[9] == "> ↳ 69 70 71 72"
        }
        tmux.keys("Down")
        let rows = tmux.waitFor("the fifth line whole, the sixth's last rows above it, as fzf") { screen in
            screen[3] == "> 1 2 3 4 5 6 7 8 9 10 11 12" && screen[9] == "> ↳ 53 54 55 56 57 58 59 60"
        }
        XCTAssertEqual(Array(rows[0..<3]), ["  ↳ 53 54 55 56 57 58 59 60", "  ↳ 61 62 63 64 65 66 67 68", "  ↳ 69 70 71 72"])
    }

    func testGapRowsBetweenItemsWithTheGapLine() throws {
        try tmux.start(input: "seq 100", args: "--gap=2 --gap-line xyz \(fzfLook)", width: 30, height: 12)
        tmux.waitFor(text: "100/100")
        tmux.keys("Up", "Up", "Up")
        let rule = "  " + String(String(repeating: "xyz", count: 10).prefix(27))
        tmux.waitFor("fzf's screen: a blank row and the rule after each item") { screen in
            self.list(screen, rows: 10, height: 12) == ["  6", rule, "", "  5", rule, "", "> 4", rule, "", "  3"]
        }
    }

    func testTogglePreviewWrapFoldsThePreviewAfterItsSign() throws {
        // fzf's suite (test_preview_wrap_sign_between_ansi_fragments), and the toggle forgit binds.
        try tmux.start(input: "seq 1",
                       args: "--preview 'printf \"\\033[33m1234567890 \\033[mhello\\n\"' --preview-window 10,wrap-word "
                           + "--bind ctrl-w:toggle-preview-wrap \(fzfLook)", width: 40, height: 10)
        tmux.waitFor("word-wrapped, the blank dropped") { screen in
            screen.contains { $0.hasSuffix("│ 1234567890 │") } && screen.contains { $0.hasSuffix("│ ↳ hello    │") }
        }
        tmux.keys("C-w")
        tmux.waitFor("cut once toggled") { screen in
            !screen.contains { $0.contains("hello") } && screen.contains { $0.contains("│ 123456789") }
        }
        tmux.keys("C-w")
        tmux.waitFor("wrapped again, by characters (the blank kept)") { screen in
            screen.contains { $0.hasSuffix("│ ↳  hello   │") }
        }
    }

    /// page-up, half-page-down and offset-up over wrapped items of one to three rows move as
    /// fzf's: a page stops before an item would pass unseen, and the list's first row and
    /// the highlighted item are the ones fzf shows.
    func testPagesOverWrappedItemsMoveAsFzfs() throws {
        // item01…item30, each 5 to 80 x's long: one, two or three rows at 40 columns.
        try tmux.start(input: "for i in $(seq 1 30); do printf 'item%02d %s\\n' $i \"$(printf %$(( i % 4 * 25 + 5 ))s | tr ' ' x)\"; done",
                       args: "--wrap --no-scrollbar --bind ctrl-l:half-page-down,ctrl-o:offset-up,ctrl-t:offset-middle \(fzfLook)",
                       width: 40, height: 14)
        tmux.waitFor(text: "30/30")
        func at(_ top: String, pointer: String) -> ([String]) -> Bool {
            { rows in rows[0].hasPrefix("  \(top) ") && rows.contains { $0.hasPrefix("> \(pointer) ") } }
        }
        tmux.keys("PPage")
        tmux.waitFor("page-up: item10 highlighted, item11 cut at the top", at("item11", pointer: "item10"))
        tmux.keys("PPage")
        tmux.waitFor("page-up again", at("item15", pointer: "item14"))
        tmux.keys("C-l")
        tmux.waitFor("half-page-down: half the rows", at("item13", pointer: "item08"))
        tmux.keys("C-o")
        tmux.waitFor("offset-up within --scroll-off: the highlight moves instead", at("item13", pointer: "item09"))
        tmux.keys("C-o", "C-t")
        tmux.waitFor("offset-middle keeps it where fzf has it", at("item13", pointer: "item10"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertTrue(tmux.stdout.hasPrefix("item10 "))
    }

    /// jump over wrapped items labels each item on screen, on each of its rows, in order
    /// from the prompt, as fzf's; a label past the items shown names nothing.
    func testJumpLabelsEachWrappedItemOnScreen() throws {
        try tmux.start(input: "for i in 1 2 3 4 5 6; do printf 'line%s %s\\n' $i \"$(printf %50s | tr ' ' y)\"; done",
                       args: "--wrap --no-scrollbar --bind ctrl-g:jump \(fzfLook)", width: 40, height: 10)
        tmux.waitFor(text: "6/6")
        tmux.keys("C-g")
        tmux.waitFor("a label on each row of the four items shown") { $0.prefix(8).map { $0.prefix(8) } ==
            ["f line4 ", "f ↳ yyyy", "d line3 ", "d ↳ yyyy", "s line2 ", "s ↳ yyyy", "a line1 ", "a ↳ yyyy"] }
        tmux.type("d")
        tmux.waitFor("on line3, --scroll-off scrolling the list a line") { $0[0].hasPrefix("  line5 ") && $0[4].hasPrefix("> line3 ") }
        tmux.keys("C-g")
        tmux.waitFor("labelled from the first item shown") { $0[6].hasPrefix("a line2 ") && $0[0].hasPrefix("f line5 ") }
        tmux.type("g")
        tmux.waitFor("g names no item on screen: jump ends, the highlight stays") { $0[4].hasPrefix("> line3 ") && $0[6].hasPrefix("  line2") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertTrue(tmux.stdout.hasPrefix("line3 "))
    }
}
