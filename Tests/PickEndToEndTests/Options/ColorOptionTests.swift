import Foundation
import XCTest

/// `--color` names that pick draws change the screen; fzf's names it does not draw are
/// refused, saying why, rather than accepted and ignored.
final class ColorOptionTests: InteractiveTestCase {
    func testFgColoursTheRowsThatAreNotSelected() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "--color=fg:red")
        tmux.waitFor(text: "2/2")
        let rows = tmux.screenWithEscapes().components(separatedBy: "\n")
        let banana = try XCTUnwrap(rows.first { $0.contains("banana") })
        XCTAssertTrue(banana.contains("\u{1B}[31m"), "the row is red: \(banana.debugDescription)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apple\n")
    }

    func testRepeatedColorOptionsMergeAsFzfs() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "--color=fg:red --color=hl:blue", environment: ["PICK_DEFAULT_OPTS": "--color=bg:green"])
        tmux.type("a")
        tmux.waitFor(text: "2/2")
        let screen = StyledScreen(tmux.screenWithEscapes())
        let banana = screen.cells(of: "banana")
        XCTAssertEqual(banana.map(\.background), Array(repeating: "42", count: 6), "the defaults' bg holds")
        XCTAssertEqual(banana[1].foreground, "34", "hl from the second --color")
        XCTAssertEqual(banana[0].foreground, "31", "fg from the first")
    }

    func testAColourNameFzfDoesNotHaveIsRefused() throws {
        let run = try runPick(["--color", "nothing:red"], input: Data("a\n".utf8))
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("pick: invalid value for --color: 'nothing:red'"), run.stderr)
    }

    // Catppuccin mocha's fzf theme, as its README gives it, in the defaults variable.
    static let catppuccin = "--color=bg+:#313244,bg:#1E1E2E,spinner:#F5E0DC,hl:#F38BA8 "
        + "--color=fg:#CDD6F4,header:#F38BA8,info:#CBA6F7,pointer:#F5E0DC "
        + "--color=marker:#B4BEFE,fg+:#CDD6F4,prompt:#CBA6F7,hl+:#F38BA8 "
        + "--color=selected-bg:#45475A --color=border:#6C7086,label:#CDD6F4"
    // Tokyonight's (night), as its extras give it: one --color per part.
    static let tokyonight = ["bg+:#283457", "bg:#16161e", "border:#27a1b9", "fg:#c0caf5", "gutter:#16161e",
                             "header:#ff9e64", "hl+:#2ac3de", "hl:#2ac3de", "info:#545c7e", "marker:#ff007c",
                             "pointer:#ff007c", "prompt:#2ac3de", "query:#c0caf5:regular", "scrollbar:#27a1b9",
                             "separator:#ff9e64", "spinner:#ff007c"].map { "--color=" + $0 }.joined(separator: " ")

    /// Types `e` (apple and cherry match), marks apple and moves on to cherry, and reads the screen.
    private func themedScreen(_ theme: String, variable: String) throws -> StyledScreen {
        try tmux.file("input.txt", "apple\nbanana\ncherry\n")
        try tmux.start(input: "cat input.txt", args: "--multi", width: 40, height: 8, environment: [variable: theme])
        tmux.type("e")
        tmux.waitFor(text: "2/3")
        tmux.keys("Tab")
        // The mark is drawn a frame before the pointer moves: wait for both.
        tmux.waitFor("apple marked, the pointer on cherry") { rows in
            rows.contains { $0.contains("(1)") } && rows.contains { $0.hasPrefix("> cherry") }
        }
        return StyledScreen(tmux.screenWithEscapes())
    }

    /// What fzf 0.74 draws for catppuccin's theme (read from it in tmux the same way):
    /// every cell on the theme's background; the prompt mauve and bold, the query bold; the
    /// pointer's row on bg+ with the pointer in rosewater; a marked row on selected-bg with
    /// its marker in lavender; matches in red; the count in mauve.
    func testCatppuccinsThemeColoursEveryPartAsFzf() throws {
        let screen = try themedScreen(Self.catppuccin, variable: "PICK_DEFAULT_OPTS")
        let base = "2;30;30;46", mauve = "2;203;166;247"
        let prompt = screen.cells(of: "> e")
        XCTAssertEqual(prompt.map(\.background), [base, base, base], "the prompt row on bg")
        XCTAssertEqual(prompt[0].foreground, mauve)
        XCTAssertTrue(prompt[0].bold && prompt[2].bold, "prompt and query bold, as fzf's")
        XCTAssertNil(prompt[2].foreground, "the query in the terminal's colour")
        let count = screen.cells(of: "2/3")
        XCTAssertEqual(count.map(\.foreground), [mauve, mauve, mauve])
        XCTAssertEqual(count.map(\.background), [base, base, base])
        let marked = try XCTUnwrap(screen.row(containing: "apple"))
        let apple = screen.cells(of: "apple")
        XCTAssertEqual(apple.map(\.background), Array(repeating: "2;69;71;90", count: 5), "selected-bg")
        XCTAssertEqual(apple[4].foreground, "2;243;139;168", "hl")
        XCTAssertEqual(apple[0].foreground, "2;205;214;244", "fg")
        XCTAssertEqual(marked.last?.background, "2;69;71;90", "selected-bg fills the marked row")
        XCTAssertEqual(screen.cells(of: "*").first?.foreground, "2;180;190;254", "marker")
        let pointerRow = try XCTUnwrap(screen.row(containing: "cherry"))
        XCTAssertEqual(pointerRow.first?.foreground, "2;245;224;220", "pointer")
        XCTAssertEqual(screen.cells(of: "cherry").map(\.background), Array(repeating: "2;49;50;68", count: 6), "bg+")
        XCTAssertTrue(screen.cells(of: "cherry").allSatisfy(\.bold), "the pointer's row is bold, as fzf's")
        XCTAssertEqual(screen.cells(of: "cherry")[2].foreground, "2;243;139;168", "hl+")
        let blank = try XCTUnwrap(screen.rows.last)
        XCTAssertTrue(blank.allSatisfy { $0.background == base }, "rows with nothing on them are on bg too")
    }

    /// Tokyonight's theme, in FZF_DEFAULT_OPTS as pick reads it: the query
    /// regular (its `:regular`), the prompt cyan and bold, the pointer's row on bg+.
    func testTokyonightsThemeColoursEveryPartAsFzf() throws {
        let screen = try themedScreen(Self.tokyonight, variable: "FZF_DEFAULT_OPTS")
        let base = "2;22;22;30"
        let prompt = screen.cells(of: "> e")
        XCTAssertEqual(prompt.map(\.background), [base, base, base])
        XCTAssertEqual(prompt[0].foreground, "2;42;195;222")
        XCTAssertTrue(prompt[0].bold)
        XCTAssertEqual(prompt[2].foreground, "2;192;202;245", "the query in its colour")
        XCTAssertFalse(prompt[2].bold, "query:…:regular takes fzf's bold away")
        XCTAssertEqual(screen.cells(of: "2/3").first?.foreground, "2;84;92;126", "info")
        XCTAssertEqual(screen.cells(of: "*").first?.foreground, "2;255;0;124", "marker")
        let pointerRow = try XCTUnwrap(screen.row(containing: "cherry"))
        XCTAssertEqual(pointerRow.first?.foreground, "2;255;0;124", "pointer")
        XCTAssertEqual(screen.cells(of: "cherry").map(\.background), Array(repeating: "2;40;52;87", count: 6), "bg+")
        XCTAssertEqual(screen.cells(of: "cherry").first?.foreground, "5;254", "fzf's fg+ where the theme has none")
        XCTAssertEqual(screen.cells(of: "apple").map(\.background), Array(repeating: base, count: 5),
                       "no selected-bg in the theme: a marked row on bg")
        XCTAssertEqual(screen.cells(of: "apple").first?.foreground, "2;192;202;245", "fg")
        XCTAssertEqual(screen.cells(of: "apple")[4].foreground, "2;42;195;222", "hl")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apple\n")
    }

    /// As fzf 0.74 draws `--multi --separator=-=` at 30 columns: ` (0)` before anything is
    /// marked, the rule cut one column short of the edge, in the separator's colour.
    func testSeparatorAndTheMarkedCountAsFzfs() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "--multi --separator=-= --color=separator:red", width: 30, height: 6)
        let rows = tmux.waitFor(text: "2/2")
        XCTAssertEqual(rows.first { $0.contains("2/2") }, "  2/2 (0) -=-=-=-=-=-=-=-=-=-")
        XCTAssertEqual(StyledScreen(tmux.screenWithEscapes()).cells(of: "-=").first?.foreground, "31")
        tmux.keys("Tab")
        tmux.waitFor(text: "2/2 (1) -=")
    }

    /// fzf's `disabled`: the query's colour while the search is off, the query's again once
    /// it is on.
    func testTheQueryTakesTheDisabledColourWhileTheSearchIsOff() throws {
        try tmux.start(input: "seq 10", args: "--disabled --color=disabled:red --bind ctrl-s:toggle-search",
                       width: 40, height: 6)
        tmux.waitFor(text: "10/10")
        tmux.type("ab")
        tmux.waitFor("typed") { $0[row: 0] == "> ab" }
        XCTAssertEqual(StyledScreen(tmux.screenWithEscapes()).cells(of: "ab").first?.foreground, "31")
        tmux.keys("C-s")
        tmux.waitFor("searching again") { $0[row: 1].hasPrefix("  0/10") }
        tmux.type("c")
        tmux.waitFor("typed on") { $0[row: 0] == "> abc" }
        XCTAssertNil(StyledScreen(tmux.screenWithEscapes()).cells(of: "abc").first?.foreground, "the query's own")
    }

    /// fzf 0.74's own glyphs, given as options: `▌` in bg+'s colour on the other rows, the
    /// pointer `▌` on bg+, the marker `┃`; the selected row's colours end with its text,
    /// and reach the row's end with --highlight-line.
    func testTheGutterGlyphAndHighlightLineAsFzfs() throws {
        try tmux.start(input: "seq 3", args: "--gutter=▌ --pointer=▌ --marker=┃ --multi", width: 20, height: 6)
        tmux.waitFor(text: "3/3 (0)")
        tmux.keys("Tab")
        // The mark and the move may reach the screen a frame apart: wait for the pointer's colour.
        let rows = tmux.waitFor("marked and moved") { rows in
            rows[row: 2] == "▌┃1" && StyledScreen(self.tmux.screenWithEscapes()).rows[3].first?.foreground == "5;161"
        }
        XCTAssertEqual(Array(rows[2...4]), ["▌┃1", "▌ 2", "▌ 3"])
        var screen = StyledScreen(tmux.screenWithEscapes())
        XCTAssertEqual(screen.rows[4].first?.foreground, "5;236", "the gutter glyph in bg+'s colour")
        XCTAssertEqual(screen.rows[3].first?.foreground, "5;161", "the pointer")
        XCTAssertEqual(screen.rows[2][1].foreground, "5;168", "the marker")
        XCTAssertEqual(screen.rows[3].count, 3, "the selected row's colours end with its text")
        tmux.close()
        tmux = try TmuxPick(test: name + "line")
        try tmux.start(input: "seq 3", args: "--highlight-line", width: 20, height: 6)
        tmux.waitFor(text: "3/3")
        // capture-pane -N keeps the trailing blanks, which carry the row's colours.
        let captured = try TmuxPick.shell(["tmux", "-L", tmux.socket, "capture-pane", "-p", "-e", "-N", "-t", tmux.name])
        screen = StyledScreen(captured.output)
        XCTAssertEqual(screen.rows[2].count, 19, "the row drawn to a column short of its end, as fzf's")
        XCTAssertEqual(screen.rows[2].last?.background, "5;236")
    }
}
