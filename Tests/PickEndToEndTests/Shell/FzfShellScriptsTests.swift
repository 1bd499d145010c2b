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
    func testStarStarTabCompletesAPath() throws { try starStarTabCompletesAPathThroughThePicker() }
    func testStarStarTabAfterCdListsFolders() throws { try starStarTabAfterCdListsFoldersOnly() }
}

final class FzfZshScriptsTests: FzfShellScriptsScenarios {
    override var shellName: String { "zsh" }
    func testStarStarTabCompletesAPath() throws { try starStarTabCompletesAPathThroughThePicker() }
    func testStarStarTabAfterCdListsFolders() throws { try starStarTabAfterCdListsFoldersOnly() }
}
