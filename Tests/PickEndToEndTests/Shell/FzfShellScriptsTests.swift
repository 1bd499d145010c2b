import Foundation
import XCTest

/// fzf's own shell scripts (`shell/completion.*` of fzf's suite, in ../shared/fzf-suite or
/// $FZF_SUITE), sourced unchanged with `fzf` a link to pick: `**<Tab>` completes paths
/// and folders through pick's walker (`--walker`, `--walker-root`), as it does with fzf.
class FzfShellScriptsScenarios: ShellTestCase {
    var suiteShellDir: String {
        // Beside the checkout (../shared), or beside its folder (a worktree under /work/wt).
        ProcessInfo.processInfo.environment["FZF_SUITE"].map { $0 + "/shell" }
            ?? [repositoryRoot.deletingLastPathComponent(), repositoryRoot.deletingLastPathComponent().deletingLastPathComponent()]
                .map { $0.appendingPathComponent("shared/fzf-suite/shell").path }
                .first { FileManager.default.fileExists(atPath: $0) }
            ?? repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fzf-suite/shell").path
    }

    /// Starts the shell with fzf's completion sourced and `fzf` on PATH as pick.
    func startWithFzfsScripts() throws {
        let script = suiteShellDir + "/completion." + shellName
        guard FileManager.default.fileExists(atPath: script) else { throw XCTSkip("fzf's suite is not at \(suiteShellDir)") }
        try pane.start(rc: """
            mkdir -p "$HOME/fzfbin"; ln -sf "$(command -v pick)" "$HOME/fzfbin/fzf"; PATH="$HOME/fzfbin:$PATH"
            source '\(script)'
            """)
    }

    /// Starts the shell with fzf's key bindings sourced (fish: and `fzf_key_bindings` run),
    /// `fzf` on PATH as pick.
    func startWithFzfsKeyBindings() throws {
        let script = suiteShellDir + "/key-bindings." + shellName
        guard FileManager.default.fileExists(atPath: script) else { throw XCTSkip("fzf's suite is not at \(suiteShellDir)") }
        if shellName == "fish" {
            try pane.start(rc: """
                mkdir -p "$HOME/fzfbin"; ln -sf (command -v pick) "$HOME/fzfbin/fzf"; set -gx PATH "$HOME/fzfbin" $PATH
                source '\(script)'; fzf_key_bindings
                """)
        } else {
            try pane.start(rc: """
                mkdir -p "$HOME/fzfbin"; ln -sf "$(command -v pick)" "$HOME/fzfbin/fzf"; PATH="$HOME/fzfbin:$PATH"
                source '\(script)'
                """)
        }
    }

    /// fzf's ctrl-t: pick's walker lists what fzf's would (hidden files too, folders with a
    /// slash), under fzf's options (`--reverse --walker=… --scheme=path --min-height=20+`).
    func fzfsCtrlTListsWithPicksWalker() throws {
        try startWithFzfsKeyBindings()
        pane.tmux.type("cat ")
        pane.tmux.keys("C-t")
        pane.waitForPick("10/10")
        pane.tmux.type("'.hidden")
        XCTAssertEqual(Set(pane.pickRows(pane.waitForPick("2/10"))), [".hidden/", ".hidden/secret.txt"])
        pane.tmux.keys("C-u")
        pane.waitForPick("10/10")
        pane.tmux.type("notes")
        pane.waitForPick("1/10")
        pane.tmux.keys("Enter")
        pane.waitForLine("cat src/deep/notes.txt", beforeCursor: "cat src/deep/notes.txt ")
    }

    /// fzf's alt-c: folders from pick's walker; the shell changes into the one picked.
    func fzfsAltCChangesDirectory() throws {
        try startWithFzfsKeyBindings()
        pane.tmux.keys("M-c")
        XCTAssertEqual(Set(pane.pickRows(pane.waitForPick("4/4"))), [".hidden/", "src/", "src/deep/", "docs/"])
        pane.tmux.type("deep")
        pane.waitForPick("1/4")
        pane.tmux.keys("Enter")
        pane.tmux.waitFor("the prompt in the new directory") { rows in
            rows.contains { $0.hasPrefix("deep\(self.pane.marker)") }
        }
        pane.run("pwd | sed \"s|^$HOME/||\"", output: "work/src/deep")
    }

    /// fzf's ctrl-r (`--read0 --scheme=history`, the entries numbered): the command comes
    /// back on the line, not run.
    func fzfsCtrlRPutsTheCommandOnTheLine() throws {
        // fzf's ctrl-r binds alt-r to toggle-raw, an action pick does not have yet (#30).
        if try runPick(["--bind", "alt-r:toggle-raw", "--filter", ""]).status == 2 {
            throw XCTSkip("pick refuses toggle-raw, which fzf's ctrl-r binds")
        }
        try startWithFzfsKeyBindings()
        pane.run("echo alpha", output: "alpha")
        pane.run("echo beta", output: "beta")
        pane.tmux.keys("C-r")
        pane.waitForPick("2/2")
        pane.tmux.type("alpha")
        pane.waitForPick("1/2")
        pane.tmux.keys("Enter")
        pane.waitForLine("echo alpha")
    }

    /// fzf's fish ctrl-r searches `--nth 2..,..` of `--with-nth 2..` (the time, the command):
    /// the command is searched once, so a fuzzy term does not match across a copy of it
    /// (`e3d` in `echo d3 x` and its copy: e, 3, then the copy's d).
    func fzfsFishCtrlRFindsACommandOnlyWhereItMatches() throws {
        try startWithFzfsKeyBindings()
        pane.run("echo d3 x", output: "d3 x")
        pane.run("echo 3d", output: "3d")
        pane.tmux.keys("C-r")
        pane.waitForPick("2/2")
        pane.tmux.type("e3d")
        pane.waitForPick("1/2")
        pane.tmux.keys("Enter")
        pane.waitForLine("echo 3d")
    }

    func starStarTabCompletesAPathThroughThePicker() throws {
        try startWithFzfsScripts()
        pane.tmux.type("cat src/**")
        pane.tmux.keys("Tab")
        // src/ and below it, files and folders (file,dir,follow,hidden), as fzf lists them.
        let rows = pane.waitForPick("5/5")
        XCTAssertEqual(Set(pane.pickRows(rows)),
                       ["src/", "src/main.swift", "src/my file.txt", "src/deep/", "src/deep/notes.txt"])
        pane.tmux.type("notes")
        pane.waitForPick("1/5")
        pane.tmux.keys("Enter")
        pane.waitForLine("cat src/deep/notes.txt", beforeCursor: "cat src/deep/notes.txt ")
    }

    func starStarTabAfterCdListsFoldersOnly() throws {
        try startWithFzfsScripts()
        pane.tmux.type("cd **")
        pane.tmux.keys("Tab")
        let rows = pane.waitForPick("3/3")
        XCTAssertEqual(Set(pane.pickRows(rows)), ["src/", "src/deep/", "docs/"])
        pane.tmux.keys("Escape")
        pane.waitForLine("cd **")
    }
}

final class FzfBashScriptsTests: FzfShellScriptsScenarios {
    override var shellName: String { "bash" }
    func testFzfsCtrlTListsWithPicksWalker() throws { try fzfsCtrlTListsWithPicksWalker() }
    func testFzfsAltCChangesDirectory() throws { try fzfsAltCChangesDirectory() }
    func testFzfsCtrlRPutsTheCommandOnTheLine() throws { try fzfsCtrlRPutsTheCommandOnTheLine() }
    func testStarStarTabCompletesAPath() throws { try starStarTabCompletesAPathThroughThePicker() }
    func testStarStarTabAfterCdListsFolders() throws { try starStarTabAfterCdListsFoldersOnly() }
}

final class FzfZshScriptsTests: FzfShellScriptsScenarios {
    override var shellName: String { "zsh" }
    func testFzfsCtrlTListsWithPicksWalker() throws { try fzfsCtrlTListsWithPicksWalker() }
    func testFzfsAltCChangesDirectory() throws { try fzfsAltCChangesDirectory() }
    func testFzfsCtrlRPutsTheCommandOnTheLine() throws { try fzfsCtrlRPutsTheCommandOnTheLine() }
    func testStarStarTabCompletesAPath() throws { try starStarTabCompletesAPathThroughThePicker() }
    func testStarStarTabAfterCdListsFolders() throws { try starStarTabAfterCdListsFoldersOnly() }
}

/// fish has no `**` trigger in fzf (its completion is on shift-tab); its key bindings:
/// ctrl-t, alt-c and ctrl-r.
final class FzfFishScriptsTests: FzfShellScriptsScenarios {
    override var shellName: String { "fish" }
    func testFzfsCtrlRSearchesTheCommandOnce() throws { try fzfsFishCtrlRFindsACommandOnlyWhereItMatches() }
    func testFzfsCtrlTListsWithPicksWalker() throws { try fzfsCtrlTListsWithPicksWalker() }
    func testFzfsAltCChangesDirectory() throws { try fzfsAltCChangesDirectory() }
}
