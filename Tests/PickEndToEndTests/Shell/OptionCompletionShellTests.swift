import Foundation
import XCTest

/// Completion of pick's own options, typed in a real shell with the README's install line
/// (`pick --shell SHELL` prints it after the key bindings): option names, the values of a
/// fixed set, key names, files for --history.
class OptionCompletionScenarios: ShellTestCase {
    /// What the shell needs before the install line can register completion (zsh: compinit).
    var rc: String { "" }

    func completesOptionNamesValuesAndFiles(valueAfterEquals: Bool = true) throws {
        try pane.start(rc: rc)
        pane.tmux.type("pick --lay")
        pane.tmux.keys("Tab")
        pane.waitForLine("pick --layout")
        pane.tmux.type("bot")
        pane.tmux.keys("Tab")
        pane.waitForLine("pick --layout bottom")
        pane.tmux.keys("C-u")
        pane.waitForLine("")

        if valueAfterEquals {
            pane.tmux.type("pick --tiebreak=be")
            pane.tmux.keys("Tab")
            pane.waitForLine("pick --tiebreak=begin")
            pane.tmux.keys("C-u")
            pane.waitForLine("")
        }

        // Key names, from the table the F1 help lists; a binding's key with its `:`.
        pane.tmux.type("pick --expect shift-de")
        pane.tmux.keys("Tab")
        pane.waitForLine("pick --expect shift-delete")
        pane.tmux.keys("C-u")
        pane.waitForLine("")
        pane.tmux.type("pick --bind alt-bac")
        pane.tmux.keys("Tab")
        pane.tmux.type("accept")
        pane.waitForLine("pick --bind alt-backspace:accept")
        pane.tmux.keys("C-u")
        pane.waitForLine("")

        pane.tmux.type("pick --history src/ma")
        pane.tmux.keys("Tab")
        pane.waitForLine("pick --history src/main.swift")
        pane.tmux.keys("C-u")
        pane.waitForLine("")

        // A file piped in: the most common way to give pick lines.
        pane.tmux.type("pick < src/ma")
        pane.tmux.keys("Tab")
        pane.waitForLine("pick < src/main.swift")
        pane.tmux.keys("C-u")
        pane.waitForLine("")

        // A value of the person's own completes to nothing: not an option name.
        pane.tmux.type("pick --query --ex")
        pane.tmux.keys("Tab")
        pane.tmux.type("X")
        pane.waitForLine("pick --query --exX")
        pane.tmux.keys("C-u")
        pane.run("echo ok", output: "ok")
    }
}

final class BashOptionCompletionTests: OptionCompletionScenarios {
    override var shellName: String { "bash" }
    func testCompletesOptionNamesValuesAndFiles() throws { try completesOptionNamesValuesAndFiles() }
}

final class ZshOptionCompletionTests: OptionCompletionScenarios {
    override var shellName: String { "zsh" }
    override var rc: String { "autoload -Uz compinit && compinit -u -D\nsource <(pick --shell zsh)" }
    func testCompletesOptionNamesValuesAndFiles() throws { try completesOptionNamesValuesAndFiles() }
}

/// The file `make install` puts in zsh's site-functions (`pick --completion zsh`), found
/// through $fpath by compinit, with nothing sourced.
final class ZshInstalledOptionCompletionTests: OptionCompletionScenarios {
    override var shellName: String { "zsh" }
    override var rc: String {
        """
        unfunction _pick
        mkdir -p ~/site-functions && pick --completion zsh > ~/site-functions/_pick
        fpath=(~/site-functions $fpath)
        autoload -Uz compinit && compinit -u -D
        """
    }
    func testCompletesOptionNamesValuesAndFiles() throws { try completesOptionNamesValuesAndFiles() }
}

final class FishOptionCompletionTests: OptionCompletionScenarios {
    override var shellName: String { "fish" }
    func testCompletesOptionNamesValuesAndFiles() throws { try completesOptionNamesValuesAndFiles() }
}
