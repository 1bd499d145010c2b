import Foundation
import XCTest

/// examples/completion.{bash,zsh,fish}: another command's completion through
/// pick. `deploy` (examples/deploy) takes a target from examples/deploy-targets; Tab
/// completes it through `pick --complete`, or opens pick over the targets.
class ShellCompletionScenarios: ShellTestCase {
    /// The lines a new user adds to their rc file to use the recipe.
    var setup: String {
        let examples = repositoryRoot.appendingPathComponent("examples").path
        let common = "export PATH=\"$PATH:\(examples)\" DEPLOY_TARGETS='\(examples)/deploy-targets'\n"
        switch shellName {
        case "zsh": return common + "autoload -Uz compinit && compinit -u -D\nsource '\(examples)/completion.zsh'\n"
        case "fish":
            return "set -gx PATH $PATH '\(examples)'\nset -gx DEPLOY_TARGETS '\(examples)/deploy-targets'\n"
                + "source '\(examples)/completion.fish'\n"
        default: return common + "source '\(examples)/completion.bash'\n"
        }
    }

    func tabCompletesThroughPickComplete() throws {
        try pane.start(rc: setup)
        // A word inside a target completes to it; a shared prefix completes as far as it goes.
        pane.tmux.type("deploy asia")
        pane.tmux.keys("Tab")
        pane.waitForLine("deploy production-asia", beforeCursor: "deploy production-asia ")
        pane.tmux.keys("C-u")
        pane.waitForLine("")
        pane.tmux.type("deploy PROD")
        pane.tmux.keys("Tab")
        pane.waitForLine("deploy production-")
        pane.tmux.type("u")
        pane.tmux.keys("Tab")
        pane.waitForLine("deploy production-us")
        pane.run("", output: "deploying to production-us")
    }

    func tabOpensPickOverTheTargets(enable: String) throws {
        try pane.start(rc: setup + enable + "\n")
        pane.tmux.type("deploy sta")
        pane.tmux.keys("Tab")
        let rows = pane.waitForPick("2/7")
        XCTAssertEqual(Set(pane.pickRows(rows)), ["staging-eu", "staging-us"], "what was typed is the query")
        pane.tmux.keys("C-u")
        let all = pane.waitForPick("7/7")
        XCTAssertEqual(pane.pickRows(all).count, 7)
        pane.tmux.type("'on-us")
        pane.waitForPick("1/7")
        pane.tmux.keys("Enter")
        pane.waitForLine("deploy production-us", beforeCursor: "deploy production-us ")
        pane.run("", output: "deploying to production-us")

        // Cancelling leaves the word as it was.
        pane.tmux.type("deploy eu")
        pane.tmux.keys("Tab")
        pane.waitForPick("2/7")
        pane.tmux.keys("Escape")
        pane.waitForLine("deploy eu", beforeCursor: "deploy eu")
        pane.tmux.keys("C-u")
        pane.run("echo ok", output: "ok")
    }
}

final class ShellBashCompletionTests: ShellCompletionScenarios {
    override var shellName: String { "bash" }
    func testTabCompletesThroughPickComplete() throws { try tabCompletesThroughPickComplete() }
    func testTabOpensPickOverTheTargets() throws {
        try tabOpensPickOverTheTargets(enable: "complete -F _deploy_pick deploy")
    }
}

final class ShellZshCompletionTests: ShellCompletionScenarios {
    override var shellName: String { "zsh" }
    func testTabCompletesThroughPickComplete() throws { try tabCompletesThroughPickComplete() }
    func testTabOpensPickOverTheTargets() throws {
        try tabOpensPickOverTheTargets(enable: "bindkey '^I' deploy-pick-or-complete")
    }
}

final class ShellFishCompletionTests: ShellCompletionScenarios {
    override var shellName: String { "fish" }
    func testTabCompletesThroughPickComplete() throws { try tabCompletesThroughPickComplete() }
    func testTabOpensPickOverTheTargets() throws {
        try tabOpensPickOverTheTargets(enable: "bind \\t deploy-pick-or-complete")
    }
}
