import Foundation
import XCTest

/// Fuzzy completion of `pick --shell`: a word ending in `**` and Tab opens pick on what fits
/// the command, and the pick replaces the word; without the trigger Tab completes as before.
/// Written once, run in real bash and zsh (the classes below).
class TriggerCompletionScenarios: ShellTestCase {
    func pathsFoldersAndPlainTab() throws {
        try pane.start()
        pane.tmux.type("cat src/**")
        pane.tmux.keys("Tab")
        // src/ and below it, through pick's walker.
        let rows = pane.waitForPick("5/5")
        XCTAssertEqual(Set(pane.pickRows(rows)),
                       ["src/", "src/main.swift", "src/my file.txt", "src/deep/", "src/deep/notes.txt"])
        pane.tmux.type("myfile")
        pane.waitForPick("1/5")
        pane.tmux.keys("Enter")
        pane.waitForLine("cat src/my\\ file.txt", beforeCursor: "cat src/my\\ file.txt ")

        // cd: folders only (hidden ones not walked); Escape leaves the word as it was.
        pane.tmux.keys("C-u")
        pane.tmux.type("cd **")
        pane.tmux.keys("Tab")
        XCTAssertEqual(Set(pane.pickRows(pane.waitForPick("3/3"))), ["src/", "src/deep/", "docs/"])
        pane.tmux.keys("Escape")
        pane.waitForLine("cd **", beforeCursor: "cd **")
        // A folder picked gets no space after it, so the path can go on.
        pane.tmux.keys("C-u")
        pane.tmux.type("cd **")
        pane.tmux.keys("Tab")
        pane.waitForPick("3/3")
        pane.tmux.type("deep")
        pane.waitForPick("1/3")
        pane.tmux.keys("Enter")
        pane.waitForLine("cd src/deep/", beforeCursor: "cd src/deep/")

        // Without the trigger, Tab completes as the shell does.
        pane.tmux.keys("C-u")
        pane.tmux.type("cat do")
        pane.tmux.keys("Tab")
        pane.waitForLine("cat docs/")
        pane.tmux.keys("C-u")
        pane.run("echo ok", output: "ok")
    }

    func killInsertsThePIDOfThePickedProcess() throws {
        try pane.start()
        // A marker of this run's own: another test's sleep must not be the one picked.
        let marker = "\(4000 + Int(getpid() % 1000))\(Int.random(in: 100...999))"
        pane.tmux.type("sleep \(marker) & echo pid=$!")
        pane.tmux.keys("Enter")
        pane.tmux.waitFor("the PID echoed") { rows in rows.contains { $0.hasPrefix("pid=") } }
        pane.waitForLine("")
        let pid = try XCTUnwrap(pane.tmux.screen().compactMap { row -> String? in
            row.hasPrefix("pid=") ? String(row.dropFirst(4)) : nil }.last)
        pane.tmux.type("kill **")
        pane.tmux.keys("Tab")
        pane.tmux.waitFor(text: "PID")
        pane.tmux.type("'\(marker)")
        pane.tmux.waitFor("the sleep listed first") { rows in
            rows.contains { $0.hasPrefix("> ") && $0.contains(" \(pid) ") && $0.contains("sleep \(marker)") }
        }
        pane.tmux.keys("Enter")
        pane.waitForLine("kill \(pid)")
        pane.tmux.keys("Enter")
        // Run, the command ends the sleep.
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        while kill(pid_t(pid)!, 0) == 0 && Date() < end { usleep(20_000) }
        XCTAssertNotEqual(kill(pid_t(pid)!, 0), 0, "kill \(pid) ended the sleep")
    }

    func hostsVariablesAndACustomTrigger() throws {
        try FileManager.default.createDirectory(at: pane.tmux.dir.appendingPathComponent(".ssh"),
                                                withIntermediateDirectories: true)
        try pane.tmux.file(".ssh/config", "Host alpha beta-box\n  User me\nHost *.example\n")
        try pane.start()
        pane.tmux.type("ssh **")
        pane.tmux.keys("Tab")
        pane.tmux.type("beta")
        pane.tmux.waitFor("beta-box listed") { rows in rows.contains("> beta-box") }
        XCTAssertFalse(pane.tmux.screen().contains { $0.contains("*.example") }, "patterns are not hosts")
        pane.tmux.keys("Enter")
        pane.waitForLine("ssh beta-box")

        // After `user@`, the host goes after it.
        pane.tmux.keys("C-u")
        pane.tmux.type("ssh me@**")
        pane.tmux.keys("Tab")
        pane.tmux.type("beta")
        pane.tmux.waitFor("beta-box listed") { rows in rows.contains { $0.hasPrefix("> ") && $0.hasSuffix("@beta-box") } }
        pane.tmux.keys("Enter")
        pane.waitForLine("ssh me@beta-box")

        // Variables: the exported ones, as fzf's.
        pane.tmux.keys("C-u")
        pane.run("FZF_COMPLETION_TRIGGER=,, MY_PICK_LOCAL=1; export MY_PICK_VAR=1; echo set", output: "set")
        pane.tmux.type("unset MY_PICK_,,")
        pane.tmux.keys("Tab")
        let rows = pane.tmux.waitFor("the variable listed") { rows in rows.contains("> MY_PICK_VAR") }
        XCTAssertEqual(pane.pickRows(rows), ["MY_PICK_VAR"], "a variable not exported is not listed")
        pane.tmux.keys("Enter")
        pane.waitForLine("unset MY_PICK_VAR")
        pane.tmux.keys("C-u")
        pane.run("echo ok", output: "ok")
    }

    func fzfsHooksListRunAndComplete() throws {
        var rc = """
            _fzf_compgen_path() { printf '%s\\n' "$1/from-hook-a" "$1/from-hook-b"; }
            _fzf_comprun() { local cmd=$1; shift; pick --prompt "$cmd> " "$@"; }
            _fzf_complete_foo() { _fzf_complete --multi -- "$@" < <(printf '%s\\n' very wow); }
            """
        if shellName == "bash" { rc += "\ncomplete -F _fzf_complete_foo -o default -o bashdefault foo" }
        try pane.start(rc: rc)
        pane.tmux.type("cat **")
        pane.tmux.keys("Tab")
        let rows = pane.waitForPick("2/2")
        XCTAssertEqual(pane.pickRows(rows), ["./from-hook-a", "./from-hook-b"])
        XCTAssertTrue(rows.contains { $0.hasPrefix("cat>") }, "_fzf_comprun runs the picker")
        pane.tmux.keys("Enter")
        pane.waitForLine("cat ./from-hook-a")

        pane.tmux.keys("C-u")
        pane.tmux.type("foo w**")
        pane.tmux.keys("Tab")
        pane.waitForPick("1/2")
        pane.tmux.keys("Enter")
        pane.waitForLine("foo wow")
        pane.tmux.keys("C-u")
        pane.run("echo ok", output: "ok")
    }
}

final class BashTriggerCompletionTests: TriggerCompletionScenarios {
    override var shellName: String { "bash" }
    func testPathsFoldersAndPlainTab() throws { try pathsFoldersAndPlainTab() }
    func testKillInsertsThePID() throws { try killInsertsThePIDOfThePickedProcess() }
    func testHostsVariablesAndACustomTrigger() throws { try hostsVariablesAndACustomTrigger() }
    func testFzfsHooks() throws { try fzfsHooksListRunAndComplete() }

    /// bash: a command's own completion function (pick's options) still answers Tab.
    func testPlainTabKeepsACommandsOwnCompletion() throws {
        try pane.start()
        pane.tmux.type("pick --layo")
        pane.tmux.keys("Tab")
        pane.waitForLine("pick --layout")
    }
}

final class ZshTriggerCompletionTests: TriggerCompletionScenarios {
    override var shellName: String { "zsh" }
    func testPathsFoldersAndPlainTab() throws { try pathsFoldersAndPlainTab() }
    func testKillInsertsThePID() throws { try killInsertsThePIDOfThePickedProcess() }
    func testHostsVariablesAndACustomTrigger() throws { try hostsVariablesAndACustomTrigger() }
    func testFzfsHooks() throws { try fzfsHooksListRunAndComplete() }
}

/// fish: shift-Tab completes the token with pick, as fzf's fish completion does (fish has
/// no `**` trigger): what fish would complete it with, the paths a wildcard expands to, and
/// a command's own _fzf_complete_CMD.
final class FishCompletionWidgetTests: ShellTestCase {
    override var shellName: String { "fish" }

    func testShiftTabPicksAmongFishsCompletions() throws {
        try pane.start()
        pane.tmux.type("cat src/")
        pane.tmux.keys("BTab")
        let rows = pane.waitForPick("3/3")
        XCTAssertEqual(Set(pane.pickRows(rows)), ["src/main.swift", "src/my\\ file.txt", "src/deep/"],
                       "as fish would insert them")
        pane.tmux.type("myfile")
        pane.waitForPick("1/3")
        pane.tmux.keys("Enter")
        pane.waitForLine("cat src/my\\ file.txt", beforeCursor: "cat src/my\\ file.txt ")
        // A folder gets no space after it.
        pane.tmux.keys("C-u")
        pane.tmux.type("ls sr")
        pane.tmux.keys("BTab")
        pane.waitForPick("1/1")
        pane.tmux.keys("Enter")
        pane.waitForLine("ls src/", beforeCursor: "ls src/")
    }

    func testShiftTabOnAWildcardPicksAmongThePathsItExpandsTo() throws {
        try pane.start()
        pane.tmux.type("cat **.txt")
        pane.tmux.keys("BTab")
        let rows = pane.waitForPick("2/2")
        XCTAssertEqual(Set(pane.pickRows(rows)), ["src/my file.txt", "src/deep/notes.txt"])
        pane.tmux.keys("Tab", "Tab")
        pane.tmux.waitFor(text: "(2)")
        pane.tmux.keys("Enter")
        let both = ["cat src/my\\ file.txt src/deep/notes.txt", "cat src/deep/notes.txt src/my\\ file.txt"]
        pane.tmux.waitFor("both paths on the command line") { _ in both.contains(self.pane.commandLine()?.text ?? "") }
    }

    func testACommandsOwnFzfCompleteFunction() throws {
        try pane.start(rc: "function _fzf_complete_foo; printf '%s\\n' very wow | _fzf_complete --multi -- $argv; end")
        pane.tmux.type("foo ")
        pane.tmux.keys("BTab")
        XCTAssertEqual(pane.pickRows(pane.waitForPick("2/2")), ["very", "wow"])
        pane.tmux.type("wow")
        pane.waitForPick("1/2")
        pane.tmux.keys("Enter")
        pane.waitForLine("foo wow", beforeCursor: "foo wow ")
        pane.tmux.keys("C-u")
        pane.run("echo ok", output: "ok")
    }
}
