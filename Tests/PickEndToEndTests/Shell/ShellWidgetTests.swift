import Foundation
import XCTest

/// The key bindings of `pick --shell`, pressed in a real shell: ctrl-t inserts paths,
/// ctrl-r brings back a command, alt-c changes directory; each leaves a working shell.
/// The scenarios are written once and run in bash, zsh and fish (the classes below).
class ShellWidgetScenarios: ShellTestCase {
    /// `src/my file.txt` as this shell quotes it.
    var quotedMyFile: String { shellName == "fish" ? "'src/my file.txt'" : "src/my\\ file.txt" }

    /// What pick's walker lists in the pane's `work/`, as fzf's ctrl-t does: hidden files
    /// too, folders with a trailing slash.
    let listed: Set<String> = [".env", ".hidden/", ".hidden/secret.txt", "src/", "src/main.swift", "src/my file.txt",
                               "src/deep/", "src/deep/notes.txt", "docs/", "docs/guide.md"]

    func ctrlTInsertsThePickedPathAtTheCursorQuoted() throws {
        try pane.start()
        pane.tmux.type("ls  -l")
        pane.tmux.keys("Left", "Left", "Left")
        pane.waitForLine("ls  -l", beforeCursor: "ls ")
        pane.tmux.keys("C-t")
        let rows = pane.waitForPick("10/10")
        XCTAssertTrue(Set(pane.pickRows(rows)).isSubset(of: listed), "ctrl-t lists what the walker finds")
        pane.tmux.type("'.hidden")
        XCTAssertEqual(Set(pane.pickRows(pane.waitForPick("2/10"))), [".hidden/", ".hidden/secret.txt"],
                       "hidden files are listed, folders with a slash")
        pane.tmux.keys("C-u")
        pane.waitForPick("10/10")
        pane.tmux.type("myfile")
        pane.waitForPick("1/10")
        pane.tmux.keys("Enter")
        pane.waitForLine("ls \(quotedMyFile)  -l", beforeCursor: "ls \(quotedMyFile) ")

        // Cancelling leaves the line and the cursor as they were.
        pane.tmux.keys("C-t")
        pane.waitForPick("10/10")
        pane.tmux.keys("Escape")
        pane.waitForLine("ls \(quotedMyFile)  -l", beforeCursor: "ls \(quotedMyFile) ")

        pane.tmux.keys("C-e", "C-u")
        pane.waitForLine("")
        pane.run("echo ok", output: "ok")
    }

    func ctrlTWithTabMarksSeveralPaths() throws {
        try pane.start()
        pane.tmux.type("cat ")
        pane.tmux.keys("C-t")
        pane.waitForPick("10/10")
        pane.tmux.type("'.txt !hidden")
        pane.waitForPick("2/10")
        pane.tmux.keys("Tab", "Tab")
        pane.tmux.waitFor(text: "(2)")
        pane.tmux.keys("Enter")
        let both = ["cat \(quotedMyFile) src/deep/notes.txt", "cat src/deep/notes.txt \(quotedMyFile)"]
        pane.tmux.waitFor("both paths on the command line") { _ in both.contains(self.pane.commandLine()?.text ?? "") }
        pane.tmux.keys("Enter")
        pane.waitForLine("")
        pane.run("echo ok", output: "ok")
    }

    func ctrlRPutsAHistoryCommandOnTheLineWithoutRunningIt() throws {
        try pane.start()
        pane.run("echo alpha", output: "alpha")
        pane.run("echo beta", output: "beta")
        pane.run("echo alpha", output: "alpha")

        pane.tmux.keys("C-r")
        let rows = pane.waitForPick("2/2")
        XCTAssertEqual(pane.pickRows(rows), ["echo alpha", "echo beta"], "newest first, each command once")
        pane.tmux.keys("Escape")
        pane.waitForLine("")

        // What is already typed becomes the query.
        pane.tmux.type("bet")
        pane.tmux.keys("C-r")
        pane.waitForPick("1/2")
        pane.tmux.waitFor(text: "> bet")
        pane.tmux.keys("Enter")
        pane.waitForLine("echo beta", beforeCursor: "echo beta")
        XCTAssertEqual(pane.tmux.screen().filter { $0 == "beta" }.count, 1, "the command is not run")
        pane.run("", output: "beta")
        pane.run("echo ok", output: "ok")
    }

    func altCChangesIntoAPickedDirectory() throws {
        try pane.start()
        pane.tmux.type("echo keep")
        pane.tmux.keys("Left")
        pane.waitForLine("echo keep", beforeCursor: "echo kee")
        pane.tmux.keys("M-c")
        let rows = pane.waitForPick("4/4")
        XCTAssertEqual(Set(pane.pickRows(rows)), [".hidden/", "src/", "src/deep/", "docs/"],
                       "alt-c lists the folders the walker finds, hidden ones too")
        pane.tmux.type("deep")
        pane.waitForPick("1/4")
        pane.tmux.keys("Enter")
        pane.waitForLine("echo keep", beforeCursor: "echo kee")
        pane.tmux.waitFor("the prompt in the new directory") { rows in
            rows.contains { $0.hasPrefix("deep\(self.pane.marker) echo keep") }
        }
        pane.run("", output: "keep")
        pane.run("pwd | sed \"s|^$HOME/||\"", output: "work/src/deep")
    }

    func widgetsLeaveBracketedPasteOn() throws {
        try pane.start()
        for key in ["C-t", "C-r", "M-c"] {
            pane.tmux.keys(key)
            pane.tmux.waitFor("pick after \(key)") { rows in rows.contains { $0.range(of: "^\\s+\\d+/\\d+", options: .regularExpression) != nil } }
            pane.tmux.keys("Escape")
            pane.waitForLine("")
        }
        // Pasted lines wait on the command line for Return when bracketed paste is on;
        // without it the first would run at once and the second would get a prompt of its own.
        try pane.tmux.file("paste", "echo one\necho two")
        _ = try TmuxPick.shell(["tmux", "-L", pane.tmux.socket, "load-buffer", pane.tmux.dir.appendingPathComponent("paste").path])
        _ = try TmuxPick.shell(["tmux", "-L", pane.tmux.socket, "paste-buffer", "-p", "-t", pane.tmux.name])
        pane.tmux.keys("Enter")
        let rows = pane.tmux.waitFor("the output of both lines") { $0.contains("one") && $0.contains("two") }
        XCTAssertFalse(rows.contains { $0.hasSuffix("\(pane.marker) echo two") }, "bracketed paste is still on")
        XCTAssertTrue(rows.contains("one"))
        pane.run("echo ok", output: "ok")
    }

    func settingsChangeWhatTheKeysListAndHowPickLooks() throws {
        try pane.start(environment: ["PICK_CTRL_T_COMMAND": "printf \"one\\ntwo\\n\"",
                                     "PICK_CTRL_T_OPTS": "--prompt=\"files> \"",
                                     "PICK_CTRL_R_OPTS": "--prompt=history:",
                                     "PICK_ALT_C_COMMAND": "echo docs",
                                     "PICK_ALT_C_OPTS": "--prompt=cd:"])
        pane.tmux.keys("C-t")
        var rows = pane.waitForPick("2/2")
        XCTAssertEqual(pane.pickRows(rows), ["one", "two"])
        pane.tmux.waitFor(text: "files>")
        pane.tmux.keys("Enter")
        pane.waitForLine("one")
        pane.tmux.keys("C-u", "C-r")
        pane.tmux.waitFor(text: "history:")
        pane.tmux.keys("Escape")
        pane.waitForLine("")
        pane.tmux.keys("M-c")
        rows = pane.waitForPick("1/1")
        XCTAssertTrue(rows.contains { $0.hasPrefix("cd:") }, rows.joined(separator: "\n"))
        pane.tmux.keys("Enter")
        pane.tmux.waitFor("the prompt in docs") { rows in rows.contains { $0.hasPrefix("docs\(self.pane.marker)") } }
        pane.run("echo ok", output: "ok")
    }

    /// fzf's settings count as pick's: FZF_CTRL_T_COMMAND and _OPTS, FZF_CTRL_R_OPTS, and an
    /// empty FZF_ALT_C_COMMAND leaves alt-c to the shell.
    func fzfSettingsCountAndAnEmptyCommandUnbindsItsKey() throws {
        try pane.start(environment: ["FZF_CTRL_T_COMMAND": "printf \"ein\\nzwei\\n\"",
                                     "FZF_CTRL_T_OPTS": "--prompt=\"fzf-files> \"",
                                     "FZF_CTRL_R_OPTS": "--prompt=fzf-history:",
                                     "FZF_ALT_C_COMMAND": ""])
        pane.tmux.keys("C-t")
        let rows = pane.waitForPick("2/2")
        XCTAssertEqual(pane.pickRows(rows), ["ein", "zwei"])
        pane.tmux.waitFor(text: "fzf-files>")
        pane.tmux.keys("Enter")
        pane.waitForLine("ein")
        pane.tmux.keys("C-u", "C-r")
        pane.tmux.waitFor(text: "fzf-history:")
        pane.tmux.keys("Escape")
        pane.waitForLine("")
        pane.tmux.keys("M-c")
        pane.run("echo ok", output: "ok")
    }

    /// vi keymaps: ctrl-t and ctrl-r in insert mode, alt-c from command mode.
    func keysWorkInViMode(_ enable: String) throws {
        try pane.start(rc: enable + "\n")
        pane.tmux.type("ls ")
        pane.tmux.keys("C-t")
        pane.waitForPick("10/10")
        pane.tmux.type("myfile")
        pane.waitForPick("1/10")
        pane.tmux.keys("Enter")
        pane.waitForLine("ls \(quotedMyFile)", beforeCursor: "ls \(quotedMyFile) ")
        // Command mode puts the cursor on the last character.
        pane.tmux.keys("Escape")
        pane.waitForLine("ls \(quotedMyFile)", beforeCursor: "ls \(quotedMyFile)")
        pane.tmux.keys("M-c")
        pane.waitForPick("4/4")
        pane.tmux.type("deep")
        pane.waitForPick("1/4")
        pane.tmux.keys("Enter")
        pane.tmux.waitFor("the prompt in the new directory") { rows in
            rows.contains { $0.hasPrefix("deep\(self.pane.marker) ls \(self.quotedMyFile)") }
        }
        pane.tmux.keys("C-r")
        pane.waitForPick("0/0")
        pane.tmux.keys("Escape")
        pane.waitForLine("ls \(quotedMyFile)")
        pane.tmux.keys("Enter")
        pane.run("echo ok", output: "ok")
    }

    /// pick reachable only as `fzf` (a link of that name, no `pick` on PATH): the integration
    /// `fzf --bash` (`--zsh`, `--fish`) prints runs `fzf`, and its keys work.
    func linkedAsFzfOnlyTheIntegrationRunsFzf() throws {
        let install: String
        if shellName == "fish" {
            install = """
                mkdir -p $HOME/fzfonly; ln -sf (command -v pick) $HOME/fzfonly/fzf; set -gx PATH $HOME/fzfonly /usr/bin /bin
                fzf --fish | source
                """
        } else {
            install = """
                mkdir -p "$HOME/fzfonly"; ln -sf "$(command -v pick)" "$HOME/fzfonly/fzf"; PATH="$HOME/fzfonly:/usr/bin:/bin"
                \(shellName == "bash" ? "eval \"$(fzf --bash)\"" : "source <(fzf --zsh)")
                """
        }
        try pane.start(install: install)
        pane.run("command -v pick || echo no-pick", output: "no-pick")
        pane.tmux.type("ls ")
        pane.tmux.keys("C-t")
        XCTAssertTrue(Set(pane.pickRows(pane.waitForPick("10/10"))).isSubset(of: listed))
        pane.tmux.type("myfile")
        pane.waitForPick("1/10")
        pane.tmux.keys("Enter")
        pane.waitForLine("ls \(quotedMyFile)", beforeCursor: "ls \(quotedMyFile) ")
        pane.tmux.keys("C-u", "M-c")
        pane.waitForPick("4/4")
        pane.tmux.type("deep")
        pane.waitForPick("1/4")
        pane.tmux.keys("Enter")
        pane.tmux.waitFor("the prompt in the new directory") { rows in
            rows.contains { $0.hasPrefix("deep\(self.pane.marker)") }
        }
        if shellName != "fish" {
            pane.tmux.type("cat **")
            pane.tmux.keys("Tab")
            pane.waitForPick("1/1")
            pane.tmux.keys("Enter")
            pane.waitForLine("cat notes.txt")
            pane.tmux.keys("C-u")
        }
        pane.run("echo ok", output: "ok")
    }

    /// At the bottom of the screen pick scrolls up to make room, and the prompt comes back
    /// right below the last output, with nothing of pick left on the screen.
    func ctrlTAtTheBottomOfTheScreen() throws {
        try pane.start()
        pane.run("seq 1 40", output: "40")
        pane.tmux.type("ls ")
        pane.tmux.keys("C-t")
        pane.waitForPick("10/10")
        pane.tmux.type("myfile")
        pane.waitForPick("1/10")
        pane.tmux.keys("Enter")
        pane.waitForLine("ls \(quotedMyFile)", beforeCursor: "ls \(quotedMyFile) ")
        let rows = pane.tmux.screen()
        let y = pane.cursor().y
        XCTAssertEqual(rows[row: y - 1], "40", "the output above the prompt stays")
        XCTAssertTrue(rows[(y + 1)...].allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty },
                      "nothing of pick is left below the prompt:\n" + rows.joined(separator: "\n"))
        pane.tmux.keys("C-e", "C-u")
        pane.run("echo ok", output: "ok")
    }
}

final class ShellBashWidgetTests: ShellWidgetScenarios {
    override var shellName: String { "bash" }
    func testCtrlTAtTheBottomOfTheScreen() throws { try ctrlTAtTheBottomOfTheScreen() }
    func testLinkedAsFzfOnly() throws { try linkedAsFzfOnlyTheIntegrationRunsFzf() }
    func testKeysWorkInViMode() throws { try keysWorkInViMode("set -o vi") }
    func testWidgetsLeaveBracketedPasteOn() throws { try widgetsLeaveBracketedPasteOn() }
    func testSettingsChangeWhatTheKeysListAndHowPickLooks() throws { try settingsChangeWhatTheKeysListAndHowPickLooks() }
    func testFzfSettingsCount() throws { try fzfSettingsCountAndAnEmptyCommandUnbindsItsKey() }
    func testCtrlTInsertsThePickedPathAtTheCursorQuoted() throws { try ctrlTInsertsThePickedPathAtTheCursorQuoted() }
    func testCtrlTWithTabMarksSeveralPaths() throws { try ctrlTWithTabMarksSeveralPaths() }
    func testCtrlRPutsAHistoryCommandOnTheLine() throws { try ctrlRPutsAHistoryCommandOnTheLineWithoutRunningIt() }
    func testAltCChangesIntoAPickedDirectory() throws { try altCChangesIntoAPickedDirectory() }
}

final class ShellZshWidgetTests: ShellWidgetScenarios {
    override var shellName: String { "zsh" }
    func testCtrlTAtTheBottomOfTheScreen() throws { try ctrlTAtTheBottomOfTheScreen() }
    func testLinkedAsFzfOnly() throws { try linkedAsFzfOnlyTheIntegrationRunsFzf() }
    func testKeysWorkInViMode() throws { try keysWorkInViMode("bindkey -v") }
    func testWidgetsLeaveBracketedPasteOn() throws { try widgetsLeaveBracketedPasteOn() }
    func testSettingsChangeWhatTheKeysListAndHowPickLooks() throws { try settingsChangeWhatTheKeysListAndHowPickLooks() }
    func testFzfSettingsCount() throws { try fzfSettingsCountAndAnEmptyCommandUnbindsItsKey() }
    func testCtrlTInsertsThePickedPathAtTheCursorQuoted() throws { try ctrlTInsertsThePickedPathAtTheCursorQuoted() }
    func testCtrlTWithTabMarksSeveralPaths() throws { try ctrlTWithTabMarksSeveralPaths() }
    func testCtrlRPutsAHistoryCommandOnTheLine() throws { try ctrlRPutsAHistoryCommandOnTheLineWithoutRunningIt() }
    func testAltCChangesIntoAPickedDirectory() throws { try altCChangesIntoAPickedDirectory() }
}

final class ShellFishWidgetTests: ShellWidgetScenarios {
    override var shellName: String { "fish" }
    func testCtrlTAtTheBottomOfTheScreen() throws { try ctrlTAtTheBottomOfTheScreen() }
    func testLinkedAsFzfOnly() throws { try linkedAsFzfOnlyTheIntegrationRunsFzf() }
    func testWidgetsLeaveBracketedPasteOn() throws { try widgetsLeaveBracketedPasteOn() }
    func testSettingsChangeWhatTheKeysListAndHowPickLooks() throws { try settingsChangeWhatTheKeysListAndHowPickLooks() }
    func testFzfSettingsCount() throws { try fzfSettingsCountAndAnEmptyCommandUnbindsItsKey() }
    func testCtrlTInsertsThePickedPathAtTheCursorQuoted() throws { try ctrlTInsertsThePickedPathAtTheCursorQuoted() }
    func testCtrlTWithTabMarksSeveralPaths() throws { try ctrlTWithTabMarksSeveralPaths() }
    func testCtrlRPutsAHistoryCommandOnTheLine() throws { try ctrlRPutsAHistoryCommandOnTheLineWithoutRunningIt() }
    func testAltCChangesIntoAPickedDirectory() throws { try altCChangesIntoAPickedDirectory() }
}
