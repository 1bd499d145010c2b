import Foundation
import XCTest

/// Behaviour fzf's own test suite found different, now as fzf's: each test is one scenario
/// of that suite, seen by a user.
final class FzfSuiteBehaviourTests: InteractiveTestCase {
    /// fzf's `change:reload(seq $FZF_QUERY)`: the list starts as read, since `change`
    /// fires on an edit, not at start.
    func testChangeDoesNotFireAtStart() throws {
        try tmux.start(input: "seq 1000", args: "--bind 'change:reload(seq $PICK_QUERY)' --header-lines 2")
        tmux.waitFor(text: "998/998")
        tmux.type("5")
        // seq 5 less its two header lines, searched for 5.
        tmux.waitFor("an edit fires change") { $0.contains { $0.contains("1/3") } }
    }

    /// disable-search keeps the list filtered by the query typed until then, and a reload
    /// keeps the old list on screen until its first line comes; a reload's lines are all
    /// listed (fzf's reload_disabled cases).
    func testDisableSearchAndReloadKeepTheListUntilTheNewLinesCome() throws {
        let go = tmux.dir.appendingPathComponent("go").path
        try tmux.start(input: "seq 100", args: "--query 99 --bind 'space:disable-search+reload(while [ ! -f \(go) ]; do sleep 0.05; done; seq 1000)+backward-delete-char'")
        tmux.waitFor(text: "1/100")
        tmux.keys("Space")
        // The chain's own edit: the query reads 9, the list is still the one for 99.
        tmux.waitFor("the old list under the edited query") { rows in
            rows.contains { $0.hasSuffix("> 9") || $0 == "> 9" } && rows.contains { $0.contains("1/100") }
        }
        // A later key's edit is for the new list, empty until its lines come.
        tmux.keys("BSpace")
        tmux.waitFor(text: "0/0")
        FileManager.default.createFile(atPath: go, contents: Data())
        tmux.waitFor(text: "1000/1000")
    }

    /// every(N) runs its chain on a timer, with no key pressed: the prompt follows a file
    /// another program writes; unbind stops it; $FZF_IDLE_TIME counts seconds without keys.
    func testEveryTimerRunsUntilUnbound() throws {
        let file = tmux.dir.appendingPathComponent("prompt").path
        try "AAA> ".write(toFile: file, atomically: true, encoding: .utf8)
        try tmux.start(input: "seq 100", args: """
            --bind 'every(0.2):transform-prompt(cat \(file))+transform-header(echo idle=$FZF_IDLE_TIME)' \
            --bind 'space:unbind(every(0.2))+change-header(STOPPED)'
            """)
        tmux.waitFor(text: "AAA>")
        tmux.waitFor(text: "idle=1")
        try "BBB> ".write(toFile: file, atomically: true, encoding: .utf8)
        tmux.waitFor(text: "BBB>")
        tmux.keys("Space")
        tmux.waitFor(text: "STOPPED")
        try "CCC> ".write(toFile: file, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 0.8)
        let rows = tmux.screen()
        XCTAssertTrue(rows.contains { $0.contains("BBB>") } && rows.contains { $0.contains("STOPPED") },
                      "the timer no longer runs once unbound:\n" + rows.joined(separator: "\n"))
    }

    /// With the input empty (read whole), accept-non-empty accepts, and --print-query prints
    /// the query.
    func testAcceptNonEmptyOnAnEmptyInputPrintsTheQuery() throws {
        try tmux.start(input: ":", args: "-q foo --print-query --bind enter:accept-non-empty")
        tmux.waitFor(text: "0/0")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 1)
        XCTAssertEqual(tmux.stdout, "foo\n")
    }

    /// accept-non-empty with lines but no match still waits, as fzf's.
    func testAcceptNonEmptyWithNoMatchWaits() throws {
        try tmux.start(input: "seq 100", args: "-q xyz --print-query --bind enter:accept-non-empty,ctrl-x:abort")
        tmux.waitFor(text: "0/100")
        tmux.keys("Enter")
        tmux.keys("BSpace", "BSpace", "BSpace")
        tmux.waitFor("Enter did not end pick: the query is edited") { $0.contains { $0.contains("100/100") } }
        tmux.keys("C-x")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    /// become, execute and reload with no line focused do nothing when their command needs
    /// the line; one that needs none still runs.
    func testCommandsNeedingTheFocusedLineDoNothingWithNoMatch() throws {
        try tmux.start(input: "seq 10", args: """
            -q xyz --bind 'enter:become(echo became {}),ctrl-x:execute-silent(touch ran-{}),ctrl-y:reload(echo {q})'
            """)
        tmux.waitFor(text: "0/10")
        tmux.keys("Enter", "C-x")
        tmux.keys("C-y")
        tmux.waitFor("reload with {q} runs: its one line") { $0.contains { $0.contains("1/1") } }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmux.dir.appendingPathComponent("ran-").path))
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertEqual(tmux.stdout, "")
    }

    /// {+f} and {*f}: files the command reads, gone once pick has ended.
    func testFilePlaceholdersAreReadAndRemoved() throws {
        try tmux.start(input: "seq 20", args: """
            --multi -q 1 --bind 'ctrl-x:execute-silent(cat {*f} > all.txt; echo {+f} > name.txt)+select-all+accept'
            """, before: "export TMPDIR=$PWD/tmp; mkdir -p tmp")
        tmux.waitFor(text: "11/20")
        tmux.keys("C-x")
        XCTAssertEqual(tmux.exitStatus(), 0)
        let all = try String(contentsOf: tmux.dir.appendingPathComponent("all.txt"), encoding: .utf8)
        XCTAssertEqual(all.split(separator: "\n").count, 11, all)
        let name = try String(contentsOf: tmux.dir.appendingPathComponent("name.txt"), encoding: .utf8)
        XCTAssertTrue(name.contains("/tmp/pick-temp-"), name)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmux.dir.appendingPathComponent("tmp").path), [])
    }
}
