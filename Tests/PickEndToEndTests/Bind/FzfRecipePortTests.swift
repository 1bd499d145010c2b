import Foundation
import XCTest

/// fzf's recipes (ADVANCED.md, fzf-git.sh) run with `s/fzf/pick/`: what broke when they were
/// ported, each as the recipe uses it.
final class FzfRecipePortTests: InteractiveTestCase {
    /// ADVANCED.md's "toggling with a single key binding" keeps its state in the prompt and
    /// tests it with bash's `[[ … =~ … ]]`: fzf runs commands with $SHELL, so pick must too.
    func testATransformWrittenForBashTogglesUnderABashShell() throws {
        try tmux.file("input.txt", "alpha\nbeta\n")
        try tmux.start(input: "cat input.txt", args: """
            --prompt 'Files> ' --bind 'ctrl-t:transform:[[ ! $PICK_PROMPT =~ Files ]] &&
              echo "change-prompt(Files> )" || echo "change-prompt(Directories> )"'
            """, environment: ["SHELL": "/bin/bash"])
        tmux.waitFor(text: "2/2")
        tmux.keys("C-t")
        tmux.waitFor("the transform switched to directories") { $0[row: 0].hasPrefix("Directories>") }
        tmux.keys("C-t")
        tmux.waitFor("and back to files") { $0[row: 0].hasPrefix("Files>") }
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    /// A reload's or a transform's errors are not lines, nor a query: fzf drops them (the
    /// ripgrep launcher's `cat /tmp/rg-fzf-r` before the file exists, `grep` on a bad path).
    func testErrorsOfReloadsAndTransformsAreDropped() throws {
        try tmux.file("input.txt", "alpha\nbeta\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-r:reload(echo reloaded; ls ./no-such-file)' \
            --bind 'ctrl-q:transform-query(cat ./no-such-query-file)' \
            --bind 'ctrl-t:transform(echo "change-prompt(T> )"; ls ./no-such-file)'
            """)
        tmux.waitFor(text: "2/2")
        tmux.keys("C-r")
        tmux.waitFor("the reload's error is not a line") { $0[row: 1] == tmux.infoRow("1/1") && $0[row: 2].hasSuffix("reloaded") }
        tmux.type("x")
        tmux.waitFor(text: "0/1")
        tmux.keys("C-q")
        tmux.waitFor("the failed transform-query cleared the query") { $0[row: 0] == ">" && $0[row: 1] == tmux.infoRow("1/1") }
        tmux.keys("C-t")
        tmux.waitFor("the transform's actions ran despite its error") { $0[row: 0].hasPrefix("T>") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "reloaded\n")
    }
}

extension FzfRecipePortTests {
    /// `focus:transform-header` (fzf's README) with `result:transform-prompt`: both fire in
    /// the turn that answers a query, and the second must not drop the first. The header is
    /// indented as the list's text, as fzf draws it.
    func testTransformsOfEventsFiringTogetherBothRun() throws {
        try tmux.file("input.txt", (1...100).map(String.init).joined(separator: "\n") + "\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'focus:transform-header(echo focus {})' \
            --bind 'result:transform-prompt(echo "$PICK_MATCH_COUNT> ")'
            """)
        tmux.waitFor("start: the header and the prompt") { $0[row: 0] == "100>" && $0.contains("  focus 1") }
        tmux.type("5")
        tmux.waitFor("a query: the header and the prompt") { $0[row: 0] == "19> 5" && $0.contains("  focus 5") }
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }
}

extension FzfRecipePortTests {
    /// `become` replaces pick with the same shell the other commands run in.
    func testBecomeRunsInTheBashShellToo() throws {
        try tmux.file("input.txt", "alpha\nbeta\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'enter:become([[ {} == alpha ]] && echo yes-{} || echo no)'
            """, environment: ["SHELL": "/bin/bash"])
        tmux.waitFor(text: "2/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "yes-alpha\n")
    }
}

extension FzfRecipePortTests {
    /// fzf-git.sh's branch picker: `alt-a:change-border-label(🌳 All branches)+reload:…`.
    func testBorderLabelChangesWithTheList() throws {
        try tmux.file("input.txt", "main\ndev\n")
        try tmux.start(input: "cat input.txt", args: """
            --border --border-label 'Branches' \
            --bind "alt-a:change-border-label(All branches)+reload:printf 'main\\ndev\\norigin/main\\n'" \
            --bind 'ctrl-t:transform-border-label(echo " $PICK_MATCH_COUNT matches ")'
            """)
        tmux.waitFor(text: "Branches")
        tmux.keys("M-a")
        tmux.waitFor("the label and the list changed") { $0[row: 0].contains("All branches") && $0.contains { $0.contains("3/3") } }
        tmux.keys("C-t")
        tmux.waitFor("the label is what the command printed") { $0[row: 0].contains("─ 3 matches ─") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "main\n")
    }
}

extension FzfRecipePortTests {
    /// ADVANCED.md's ripgrep/fzf switch: ctrl-f ends in transform-query (the query saved for
    /// the other mode); what is typed right after it goes into the new query, not lost.
    func testTypingRightAfterAKeysTransformQueryIsKept() throws {
        try tmux.file("input.txt", "gamma 2\ngamma 4\n")
        try tmux.file("saved", "gam\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-f:change-prompt(2. fzf> )+transform-query(sleep 0.2; cat saved)'
            """)
        tmux.waitFor(text: "2/2")
        tmux.keys("C-f", "4")
        tmux.waitFor("the typed 4 follows the transformed query") { $0[row: 0] == "2. fzf> gam4" && $0[row: 1].hasPrefix("  1/2") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "gamma 4\n")
    }
}

extension FzfRecipePortTests {
    /// fzf's `pos(N)`, `cancel` (esc: clear the query first) and `print-query`.
    func testPosCancelAndPrintQuery() throws {
        try tmux.file("input.txt", (1...20).map { "line\($0)" }.joined(separator: "\n") + "\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-p:pos(3),ctrl-n:pos(-2),ctrl-q:print-query,ctrl-x:cancel'
            """)
        tmux.waitFor(text: "20/20")
        tmux.keys("C-p")
        tmux.waitFor(text: "> line3")
        tmux.keys("C-n")
        tmux.waitFor(text: "> line19")
        tmux.type("line20")
        tmux.waitFor(text: " 1/20")  // not 11/20, the frame of "line1"
        tmux.keys("C-x")
        tmux.waitFor("cancel cleared the query") { $0[row: 0] == ">" && $0[row: 1] == tmux.infoRow("20/20") }
        tmux.type("ne1")
        tmux.waitFor(text: "11/20")
        tmux.keys("C-q")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "ne1\n")
    }

    func testCancelOnAnEmptyQueryCancels() throws {
        try tmux.start(input: "seq 3", args: "--bind 'ctrl-x:cancel'")
        tmux.waitFor(text: "3/3")
        tmux.keys("C-x")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertEqual(tmux.stdout, "")
    }
}

extension FzfRecipePortTests {
    /// Dotfiles' `ctrl-u:preview-half-page-up,ctrl-d:preview-half-page-down`, and fzf's
    /// `tab:toggle-in,btab:toggle-out` (toward the prompt, away from it).
    func testPreviewHalfPagesAndToggleInOut() throws {
        try tmux.start(input: "seq 5", args: """
            --multi --preview 'seq 100' \
            --bind 'ctrl-d:preview-half-page-down,ctrl-u:preview-half-page-up' \
            --bind 'alt-g:preview-bottom,alt-t:preview-top,ctrl-o:toggle-out,ctrl-t:toggle-in'
            """, height: 22)
        tmux.waitFor(text: "1/100")
        tmux.keys("C-d")
        tmux.waitFor(text: "11/100")
        tmux.keys("C-d", "C-u")
        tmux.waitFor("back half a page") { rows in rows.contains { $0.contains("11/100") } }
        tmux.keys("M-g")
        tmux.waitFor("the preview's end") { rows in rows.contains { $0.contains("│ 100 ") } }
        tmux.keys("M-t")
        tmux.waitFor(text: "1/100")
        tmux.keys("C-o", "C-o", "C-t")
        tmux.waitFor("three marked, back on the second line") { rows in
            rows.contains { $0.contains("(3)") } && rows.contains { $0.hasPrefix(">") && $0.dropFirst(2).hasPrefix("2") }
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "1\n2\n3\n")
    }
}

extension FzfRecipePortTests {
    /// fzf's query-editing actions, chained with others as dotfiles bind them.
    func testQueryEditingActions() throws {
        try tmux.start(input: "seq 5", args: """
            --bind 'ctrl-x:beginning-of-line+put(A),ctrl-y:end-of-line+put(Z)' \
            --bind 'ctrl-o:backward-char+backward-char+backward-delete-char,ctrl-k:kill-line' \
            --bind 'ctrl-t:unix-line-discard,ctrl-d:delete-char/eof,ctrl-b:backward-kill-word,ctrl-f:yank'
            """)
        tmux.waitFor(text: "5/5")
        tmux.type("foo bar")
        tmux.waitFor(text: "foo bar")
        tmux.keys("C-x", "C-y")
        tmux.waitFor("put at both ends") { $0[row: 0] == "> Afoo barZ" }
        tmux.keys("C-o")
        tmux.waitFor("two left, one deleted before") { $0[row: 0] == "> Afoo brZ" }
        tmux.keys("C-b")
        tmux.waitFor("the word before cut") { $0[row: 0] == "> Afoo rZ" }
        tmux.keys("C-f")
        tmux.waitFor("and pasted back") { $0[row: 0] == "> Afoo brZ" }
        tmux.keys("C-x", "C-k")
        tmux.waitFor("cut to the end") { $0[row: 0] == "> A" }
        tmux.keys("C-t")
        tmux.waitFor("cut to the start") { $0[row: 0] == ">" }
        tmux.keys("C-d")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }
}

extension FzfRecipePortTests {
    /// unix-word-rubout cuts back to white space, backward-kill-word to a word's start
    /// (fzf's ctrl-w and alt-backspace; fzf leaves these same queries).
    func testUnixWordRuboutCutsBackToWhiteSpace() throws {
        try tmux.start(input: "seq 5", args: "--bind 'ctrl-b:unix-word-rubout,ctrl-e:backward-kill-word'")
        tmux.waitFor(text: "5/5")
        tmux.type("foo-bar baz.qux")
        tmux.waitFor(text: "foo-bar baz.qux")
        tmux.keys("C-e")
        tmux.waitFor("a word of letters cut") { $0[row: 0] == "> foo-bar baz." }
        tmux.keys("C-b")
        tmux.waitFor("back to the blank") { $0[row: 0] == "> foo-bar" }
        tmux.keys("C-b")
        tmux.waitFor("the blank and the word before it") { $0[row: 0] == ">" }
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }
}

extension FzfRecipePortTests {
    /// PICK_LINES and PICK_COLUMNS are what pick takes, as FZF_LINES and FZF_COLUMNS are
    /// (`--height 8` in a taller terminal: 8 lines, not the terminal's).
    func testLinesAndColumnsAreThePickersUnderHeight() throws {
        try tmux.start(input: "seq 3", args: """
            --height 8 --bind 'start:transform-header(echo "$PICK_LINES lines, $PICK_COLUMNS columns")'
            """, width: 70, height: 20)
        tmux.waitFor(text: "8 lines, 70 columns")
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }
}

extension FzfRecipePortTests {
    /// fzf-git.sh's `ctrl-x:reload(git worktree remove {1}; git worktree list)` and the
    /// branch deleters: the highlighted line is gone from the reload, so the highlight stays
    /// at its place in the list (the next line), as fzf's does, not back at the top.
    func testDeletingTheHighlightedLineAndReloadingKeepsThePlace() throws {
        try tmux.file("list", "a\nb\nc\nd\ne\n")
        try tmux.start(input: "cat list", args: """
            --bind 'ctrl-d:execute-silent(grep -vx {} list > t; mv t list)+reload(cat list)'
            """)
        tmux.waitFor(text: "5/5")
        tmux.keys("Down", "Down")
        tmux.waitFor(text: "> c")
        tmux.keys("C-d")
        tmux.waitFor("c is gone; d, in its place, is highlighted") { $0[row: 1] == tmux.infoRow("4/4") && $0.contains("> d") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "d\n")
    }
}
