import Foundation
import XCTest

/// The three fzf recipes ported to pick in examples/, run as a person runs them: in a real
/// git repository, against real processes, in tmux.
final class BindRecipeTests: InteractiveTestCase {
    /// Starts `examples/NAME` in the session's directory, with the built pick as PICK.
    func startRecipe(_ name: String, before: String = "", environment: [String: String] = [:]) throws {
        let script = repositoryRoot.appendingPathComponent("examples/" + name).path
        try tmux.start(input: nil, args: "sh '\(script)'", width: 100, before: before, environment: environment,
                       wrapper: "env PICK=")
    }

    func shows(_ rows: [String], _ text: String) -> Bool { rows.contains { $0.contains(text) } }

    func git(_ args: String) -> String {
        "git -c user.name=t -c user.email=t@example.com \(args)"
    }

    func testGitBranchPickerDeletesReloadsAndSwitches() throws {
        guard (try? TmuxPick.shell(["git", "--version"]))?.status == 0 else { throw XCTSkip("git is not installed") }
        try startRecipe("git-branches.sh", before: """
            git init -q -b main repo && cd repo && \(git("commit -q --allow-empty -m one")) && \
            git branch feature/merged && git checkout -q -b feature/wip && \(git("commit -q --allow-empty -m two")) && \
            git checkout -q main && git branch feature/other
            """)
        tmux.waitFor(text: "4/4")
        tmux.type("merged")
        tmux.waitFor(text: "> feature/merged")
        tmux.keys("C-d")
        tmux.waitFor("deleted and listed again") { $0[row: 1].hasPrefix("  0/3 ") }
        tmux.keys("C-u")
        tmux.type("wip")
        tmux.waitFor(text: "> feature/wip")
        tmux.keys("C-d")
        tmux.keys("C-r")
        tmux.waitFor("an unmerged branch is kept by ctrl-d, its commits in the preview") {
            $0[row: 1].hasPrefix("  1/3 ") && self.shows($0, "> feature/wip") && self.shows($0, " two ")
        }
        tmux.keys("C-_")
        tmux.waitFor("ctrl-/ puts the preview below") { !$0[row: 1].contains("│") && self.shows($0, " two ") }
        tmux.keys("C-_")
        tmux.waitFor("then hides it") { !self.shows($0, " two ") }
        tmux.keys("C-u")
        tmux.type("other")
        tmux.waitFor(text: "> feature/other")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        let branches = try TmuxPick.shell(["git", "-C", tmux.dir.appendingPathComponent("repo").path, "branch"])
        XCTAssertEqual(branches.output, "* feature/other\n  feature/wip\n  main\n", "become(git switch) switched")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testProcessPickerKillsAndReloads() throws {
        let seconds = 4000 + Int.random(in: 0..<900)
        defer { _ = try? TmuxPick.shell(["pkill", "-f", "^sleep \(seconds)"]) }
        try startRecipe("kill-process.sh", before: "sleep \(seconds) & sleep \(seconds) &")
        tmux.waitFor(text: "PID USER")
        let sleeps = { (rows: [String]) in rows.filter { $0.hasSuffix(" sleep \(seconds)") }.count }
        tmux.type("'sleep '\(seconds)")
        tmux.waitFor("both sleeps listed") { sleeps($0) == 2 && $0.contains { $0.hasPrefix("> ") && $0.hasSuffix(" sleep \(seconds)") } }
        tmux.keys("C-k")
        tmux.waitFor("the highlighted one killed, the list reloaded") { sleeps($0) == 1 }
        let left = try TmuxPick.shell(["pgrep", "-f", "^sleep \(seconds)"]).output
        XCTAssertEqual(left.split(separator: "\n").count, 1, "one of the two sleeps is left")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, left, "Return printed the pid left")
    }

    func testSearchAsYouTypeGrepsOnEveryChange() throws {
        try startRecipe("search-as-you-type.sh", before: """
            mkdir tree && cd tree && printf 'alpha beta\\ngamma\\nbeta again\\n' > notes.txt && \
            printf 'no match here\\n' > other.txt
            """, environment: ["EDITOR": "echo"])
        tmux.waitFor(text: "grep>")
        tmux.type("beta")
        tmux.waitFor("grep answered the query") { $0[row: 1] == tmux.infoRow("2/2") && $0.contains("> ./notes.txt:1:alpha beta") }
        tmux.type(" again")
        tmux.waitFor("grep ran again") { $0[row: 1] == tmux.infoRow("1/1") && $0.contains("> ./notes.txt:3:beta again") }
        tmux.keys("C-u")
        tmux.type("a")
        tmux.waitFor("every line with an a") { $0[row: 1] == tmux.infoRow("4/4") }
        tmux.keys("C-f")
        tmux.type(" gam")
        tmux.waitFor("pick's own filter over grep's lines") { $0[row: 0].hasPrefix("filter> a gam") && $0[row: 1] == tmux.infoRow("1/4") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "./notes.txt +2\n", "become($EDITOR {1} +{2})")
    }
}
