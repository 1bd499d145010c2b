import Foundation
import XCTest

/// `--bind`: keys and events running actions in a real terminal. Each test drives one pick
/// through several actions, so the suite stays quick.
final class InteractiveBindTests: InteractiveTestCase {
    /// Whether a row holds `text`.
    func shows(_ rows: [String], _ text: String) -> Bool { rows.contains { $0.contains(text) } }

    /// The file's text in the session's directory ("" before it exists).
    func read(_ name: String) -> String {
        (try? String(contentsOf: tmux.dir.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    func testMovingAndMarkingActions() throws {
        try tmux.file("input.txt", (1...30).map { "line\($0)" }.joined(separator: "\n") + "\n")
        try tmux.start(input: "cat input.txt", args: """
            --no-scrollbar --multi --height 12 --bind 'ctrl-x:last,ctrl-y:first,ctrl-o:toggle+down,ctrl-v:page-down' \
            --bind 'ctrl-a:select-all,ctrl-d:deselect-all,ctrl-t:toggle-all,ctrl-b:up+up,ctrl-e:down' \
            --bind 'ctrl-q:accept'
            """)
        tmux.waitFor(text: "30/30")
        tmux.keys("C-x")
        tmux.waitFor("last moves to the last line") { $0.contains("> line30") }
        tmux.keys("C-y")
        tmux.waitFor("first goes back") { $0.contains("> line1") }
        tmux.keys("C-v")
        tmux.waitFor("page-down moves a page") { $0.contains("> line10") }
        tmux.keys("C-y", "C-e", "C-e", "C-b")
        tmux.waitFor("down, down, up+up") { $0.contains("> line1") }
        tmux.keys("C-o", "C-o")
        tmux.waitFor(text: "(2)")
        tmux.keys("C-a")
        tmux.waitFor(text: "(30)")
        tmux.keys("C-d")
        tmux.waitFor("deselect-all") { !$0.contains { $0.contains("marked") } }
        tmux.type("'line2")
        tmux.waitFor(text: "11/30")
        tmux.keys("C-t")
        tmux.waitFor(text: "(11)")
        tmux.keys("C-u")
        tmux.waitFor(text: "30/30")
        tmux.keys("C-y", "C-o", "C-t")
        tmux.waitFor(text: "(18)")
        tmux.keys("C-q")
        XCTAssertEqual(tmux.exitStatus(), 0)
        let printed = tmux.stdout.split(separator: "\n")
        XCTAssertEqual(printed.count, 18)
        XCTAssertFalse(printed.contains("line1") || printed.contains("line2") || printed.contains("line25"),
                       "toggle-all unmarked the marked lines")
    }

    func testQueryPromptAndHeaderActions() throws {
        try tmux.file("input.txt", "apple\nbanana\ncherry\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-x:change-query(ban),ctrl-y:put(an),ctrl-o:clear-query' \
            --bind 'ctrl-t:change-prompt(fruit> )+change-header(pick a fruit)' \
            --bind 'ctrl-e:accept-non-empty,ctrl-q:abort,a:put'
            """)
        tmux.waitFor(text: "3/3")
        tmux.keys("C-x")
        tmux.waitFor("change-query") { $0[row: 0].hasPrefix("> ban") && $0[row: 1] == tmux.infoRow("1/3") }
        tmux.keys("C-o")
        tmux.waitFor("clear-query") { $0[row: 0] == ">" && $0[row: 1] == tmux.infoRow("3/3") }
        tmux.keys("C-y")
        tmux.waitFor("put(an)") { $0[row: 0].hasPrefix("> an") && $0[row: 1] == tmux.infoRow("1/3") }
        tmux.keys("a")
        tmux.waitFor("a bound to put types a") { $0[row: 0].hasPrefix("> ana") }
        tmux.keys("C-t")
        tmux.waitFor("change-prompt and change-header") { $0[row: 0].hasPrefix("fruit> ana") && self.shows($0, "pick a fruit") }
        tmux.type("xyz")
        tmux.waitFor(text: "0/3")
        tmux.keys("C-e")
        tmux.waitFor(text: "No matches")
        tmux.keys("C-u")
        tmux.waitFor(text: "3/3")
        tmux.keys("C-q")
        XCTAssertEqual(tmux.exitStatus(), 130, "abort")
    }

    func testAnUnboundLetterTypesItselfUntilItIsBoundAgain() throws {
        // fzf's suite (test_unbind_rebind_toggle_bind).
        try tmux.start(input: "seq 100", args: "--bind 'c:clear-query,d:unbind(c,d),e:rebind(c,d),f:toggle-bind(c)'")
        tmux.waitFor(text: "100/100")
        tmux.type("ab")
        tmux.waitFor(text: "> ab")
        tmux.type("c")
        tmux.waitFor("c clears the query") { $0[row: 0] == ">" }
        tmux.type("dabcd")
        tmux.waitFor("unbound, c and d type themselves") { $0[row: 0] == "> abcd" }
        tmux.type("ecabddc")
        tmux.waitFor("bound again, c clears") { $0[row: 0] == "> abdc" }
        tmux.type("fcabfc")
        tmux.waitFor("toggle-bind: c types, then clears") { $0[row: 0] == "> abc" }
    }

    func testSortSearchAndBindingToggles() throws {
        try tmux.file("input.txt", "xaxbxc\nabc\nzzz\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-s:toggle-sort,ctrl-x:disable-search,ctrl-y:enable-search,ctrl-t:toggle-search' \
            --bind 'ctrl-o:unbind(ctrl-s),ctrl-e:rebind(ctrl-s),ctrl-w:unbind(enter),ctrl-q:rebind(enter)'
            """)
        tmux.waitFor(text: "3/3")
        tmux.type("abc")
        tmux.waitFor("sorted: the tighter match first") { $0[row: 1] == tmux.infoRow("2/3 +S") && $0[row: 2] == "> abc" }
        tmux.keys("C-s")
        tmux.waitFor("toggle-sort: input order") { $0[row: 2] == "> xaxbxc" }
        tmux.keys("C-o", "C-s")
        tmux.keys("C-x")
        tmux.type("z")
        // As fzf: the list stays filtered by what was typed before; unbound ctrl-s did nothing.
        tmux.waitFor("disable-search: what is typed no longer filters") {
            $0[row: 0].hasPrefix("> abcz") && $0[row: 1] == tmux.infoRow("2/3 -S") && $0[row: 2] == "> xaxbxc"
        }
        tmux.keys("C-y")
        tmux.waitFor(text: "0/3")
        tmux.keys("BSpace")
        tmux.waitFor(text: "2/3")
        tmux.keys("C-t")
        tmux.type("q")
        tmux.waitFor("toggle-search off") { $0[row: 0].hasPrefix("> abcq") && $0[row: 1] == tmux.infoRow("2/3 -S") }
        tmux.keys("C-t")
        tmux.waitFor(text: "0/3")
        tmux.keys("BSpace")
        tmux.waitFor(text: "2/3")
        tmux.keys("C-e", "C-s")
        tmux.waitFor("rebind: ctrl-s sorts again") { $0[row: 1] == tmux.infoRow("2/3 +S") && $0[row: 2] == "> abc" }
        tmux.keys("C-w")
        tmux.keys("Enter")
        tmux.type("x")
        tmux.waitFor("enter unbound does nothing; typing goes on") { $0[row: 0].hasPrefix("> abcx") }
        tmux.keys("BSpace", "C-q")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "abc\n")
    }

    func testExcludeTakesLinesOutOfTheList() throws {
        try tmux.file("input.txt", (1...6).map { "line\($0)" }.joined(separator: "\n") + "\n")
        try tmux.start(input: "cat input.txt", args: """
            --multi --bind 'ctrl-x:exclude,ctrl-r:exclude-multi,ctrl-o:toggle+down,ctrl-q:accept'
            """)
        tmux.waitFor(text: "6/6")
        tmux.keys("Down")
        tmux.waitFor("down") { $0.contains("> line2") }
        tmux.keys("C-x")
        tmux.waitFor("exclude: line2 gone, the highlight keeps its row") { rows in
            rows.contains { $0.contains("5/6") } && !rows.contains { $0.hasSuffix("line2") }
                && rows.contains("> line3")
        }
        tmux.type("line")
        tmux.waitFor("stays out whatever the query, close matches too") { rows in
            rows.contains { $0.contains("5/6") } && !rows.contains { $0.contains("close") || $0.hasSuffix("line2") }
        }
        tmux.keys("C-u")
        tmux.keys("C-o", "C-o")
        tmux.waitFor(text: "(2)")
        tmux.keys("C-r")
        // The info line counts the lines read (fzf's total), the taken out among them.
        tmux.waitFor("exclude-multi: the marked lines gone, marks with them") { rows in
            rows.contains { $0.contains("3/6") } && !rows.contains { $0.contains("marked") }
                && !rows.contains { $0.hasSuffix("line1") || $0.hasSuffix("line3") }
        }
        tmux.keys("C-r")
        tmux.waitFor("exclude-multi without marks: the highlighted line") { $0.contains { $0.contains("2/6") } }
        tmux.keys("C-q")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertFalse(tmux.stdout.contains("line1") || tmux.stdout.contains("line2") || tmux.stdout.contains("line3"))
    }

    func testChangeNthAndWithNthCycle() throws {
        try tmux.file("input.txt", "apple red\nberry blue\ncherry green\n")
        try tmux.start(input: "cat input.txt", args: """
            --nth 1 --with-nth 1 --bind 'ctrl-n:change-nth(2|),ctrl-w:change-with-nth(2|1..),ctrl-q:accept'
            """)
        tmux.waitFor(text: "3/3")
        tmux.keys("Down")
        tmux.waitFor("down") { $0.contains("> berry") }
        tmux.keys("C-w")
        tmux.waitFor("change-with-nth: the second field shown, the highlight on its line") { rows in
            rows.contains("> blue") && rows.contains("  red") && !rows.contains { $0.contains("apple") }
        }
        tmux.keys("C-w")
        tmux.waitFor("the next choice: every field") { $0.contains("> berry blue") }
        tmux.type("gre")
        tmux.waitFor("--nth 1: the colour is not searched") { $0.contains { $0.hasPrefix("  0/3") } }
        tmux.keys("C-n")
        tmux.waitFor("change-nth(2): it is") { $0.contains { $0.hasPrefix("  1/3") } && $0.contains("> cherry green") }
        tmux.keys("C-n")
        tmux.waitFor("an empty choice: --nth as given") { $0.contains { $0.hasPrefix("  0/3") } }
        tmux.keys("C-u")
        tmux.waitFor(text: "3/3")
        tmux.keys("Down", "C-n")
        tmux.waitFor("the highlight stays on its line") { $0.contains("> berry blue") }
        tmux.keys("C-q")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "berry blue\n")
    }

    func testChangeWithNthUnmarksTheLinesThatNoLongerMatch() throws {
        // fzf's test_change_with_nth_selection: the query matches what the lines show.
        try tmux.file("input.txt", "a match x\nb miss y\nc match z\nd match match\n")
        try tmux.start(input: "cat input.txt",
                       args: "--with-nth 2 --multi -q match --bind 'ctrl-a:select-all,ctrl-w:change-with-nth(3)'")
        tmux.waitFor(text: "3/4")
        tmux.keys("C-a")
        tmux.waitFor(text: "3/4 (3)")
        tmux.keys("C-w")
        tmux.waitFor("the third field shown: only d's still matches, and stays marked") {
            $0.contains { $0.hasPrefix("  1/4 (1)") }
        }
        tmux.keys("C-u")
        tmux.waitFor("the marks stay as they are once the query changes") { $0.contains { $0.hasPrefix("  4/4 (1)") } }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "d match match\n")
    }

    func testMovesAfterAReloadActOnTheNewList() throws {
        try tmux.file("input.txt", "a\nb\nc\n")
        try tmux.start(input: "cat input.txt", args: """
            --no-scrollbar --bind 'ctrl-l:reload(seq 10)+last,ctrl-p:reload(seq 20)+pos(5),ctrl-f:reload(seq 30)+first,ctrl-q:accept'
            """)
        tmux.waitFor(text: "3/3")
        tmux.keys("C-l")
        tmux.waitFor("reload+last: the old list's last index, clamped") { $0.contains(tmux.infoRow("10/10")) && $0.contains("> 3") }
        tmux.keys("C-p")
        tmux.waitFor("reload+pos(5)") { $0.contains(tmux.infoRow("20/20")) && $0.contains("> 5") }
        tmux.keys("C-f")
        tmux.waitFor("reload+first") { $0.contains(tmux.infoRow("30/30")) && $0.contains("> 1") }
        tmux.keys("C-l")
        tmux.waitFor("reload+last from 30 lines: the new last") { $0.contains(tmux.infoRow("10/10")) && $0.contains("> 10") }
        tmux.keys("C-q")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "10\n")
    }

    /// A reload while close matches are listed: the new, shorter list shows, and pick goes
    /// on (the close matches' line numbers were the old list's).
    func testReloadWhileCloseMatchesAreListed() throws {
        try tmux.start(input: "seq 100000", args: "--bind 'ctrl-x:reload(seq 10)'")
        tmux.waitFor(text: "100000/100000")
        tmux.type("99x99")
        tmux.waitFor("close matches follow the few matches") { $0.contains { $0.contains("close matches") } }
        tmux.keys("C-x")
        tmux.waitFor("the reloaded list, no close matches of the old one") {
            $0.contains { $0.contains("/10") } && !$0.contains { $0.contains("close matches") }
        }
        tmux.keys("C-u")
        tmux.waitFor(text: "10/10")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0, "pick went on after the reload")
        XCTAssertEqual(tmux.stdout, "1\n")
    }

    /// pick's own keys are the defaults of the table --bind edits: a binding replaces one,
    /// unbind turns one off, and the rest keep their default.
    func testBindOverridesAndUnbindsPicksOwnKeys() throws {
        try tmux.file("input.txt", "one\ntwo\nthree\n")
        try tmux.start(input: "cat input.txt", args: "--bind 'pgdn:last,ctrl-x:unbind(esc,enter)'")
        tmux.waitFor(text: "3/3")
        tmux.keys("PageDown")
        tmux.waitFor("page-down bound to last") { $0.contains("> three") }
        tmux.keys("Up")
        tmux.waitFor("up keeps its default") { $0.contains("> two") }
        tmux.keys("C-x", "Escape", "Enter")
        tmux.type("t")
        tmux.waitFor("Escape and Return unbound: pick goes on") { $0[row: 0].hasPrefix("> t") }
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130, "ctrl-c still cancels")
    }

    /// Tab, F1 and pick's other keys are entries of the same table, bound to actions by
    /// name: a binding replaces Tab's, and the actions go on any key (`complete`, `help`).
    func testPicksOwnActionsBindToAnyKey() throws {
        try tmux.file("input.txt", "alpha\nalpine\nbeta\n")
        try tmux.start(input: "cat input.txt", args: "--bind 'tab:down,ctrl-o:complete,ctrl-t:help,f1:ignore'")
        tmux.waitFor(text: "3/3")
        tmux.type("alp")
        tmux.waitFor(text: "2/3")
        tmux.keys("Tab")
        tmux.waitFor("Tab moves down instead of completing") { $0.contains("> alpine") && $0.contains(tmux.infoRow("2/3")) }
        tmux.keys("Up", "C-o", "Left")
        tmux.type("-")
        tmux.waitFor("ctrl-o completed the query") { $0[row: 0].hasPrefix("> alph-a") }
        tmux.keys("F1", "C-t")
        let rows = tmux.waitFor(text: "Keys")
        XCTAssertTrue(rows.contains { $0.contains("ctrl-t") && $0.contains("this help") })
        tmux.keys("C-c")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testChangeNthWhileTheInputStreams() throws {
        try tmux.file("slow.sh", "echo 'a x'; sleep 1; echo 'b y'; echo 'c y'\n")
        try tmux.start(input: "sh slow.sh", args: "--nth 1 --bind 'ctrl-n:change-nth(2)'")
        tmux.waitFor(text: "1/1")
        tmux.keys("C-n")
        tmux.type("y")
        tmux.waitFor("lines read after the change are searched by the new fields") { rows in
            rows.contains { $0.hasPrefix("  2/3") } && rows.contains("> b y")
        }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testToggleSortStartsFromNoSort() throws {
        try tmux.file("input.txt", "xaxbxc\nabc\n")
        try tmux.start(input: "cat input.txt", args: "--no-sort --bind ctrl-s:toggle-sort --query abc")
        tmux.waitFor("--no-sort: input order, said as fzf does") { $0[row: 1] == tmux.infoRow("2/2 -S") && $0[row: 2].hasPrefix("> xaxbxc") }
        tmux.keys("C-s")
        tmux.waitFor("the first press sorts") { $0[row: 1] == tmux.infoRow("2/2 +S") && $0[row: 2].hasPrefix("> abc") }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testEventsFire() throws {
        try tmux.file("input.txt", "alpha\nbeta\ngamma\n")
        let log = tmux.dir.appendingPathComponent("events").path
        try tmux.start(input: "cat input.txt", args: """
            --bind 'start:change-prompt(started> ),load:change-header(loaded)' \
            --bind 'zero:change-header(none left),resize:change-prompt(resized> )' \
            --bind 'focus:execute-silent(echo focus {} >> \(log)),result:execute-silent(echo result {q} >> \(log))' \
            --bind 'change:execute-silent(echo change {q} >> \(log))'
            """)
        tmux.waitFor("start and load") { $0[row: 0] == "started>" && self.shows($0, "loaded") }
        tmux.type("zz")
        tmux.waitFor(text: "none left")
        tmux.resize(width: 70, height: 20)
        tmux.waitFor("resize") { $0[row: 0].hasPrefix("resized> zz") }
        tmux.keys("C-u")
        tmux.waitFor(text: "3/3")
        tmux.keys("Down")
        tmux.waitFor("focus on beta logged") { _ in self.read("events").contains("focus beta") }
        let events = read("events")
        XCTAssertTrue(events.contains("change zz"), events)
        XCTAssertTrue(events.contains("result zz"), events)
        XCTAssertTrue(events.contains("focus alpha"), events)
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testOneAcceptsTheOnlyMatch() throws {
        try tmux.file("input.txt", "alpha\nbeta\ngamma\n")
        try tmux.start(input: "cat input.txt", args: "--bind one:accept")
        tmux.waitFor(text: "3/3")
        tmux.type("gam")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "gamma\n")
    }

    func testExecuteGivesTheTerminalAndComesBack() throws {
        try tmux.file("input.txt", "alpha\nbeta\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-x:execute(printf "ran %s %s\\n" {} "$PICK_QUERY"; read -r answer; echo "$answer" > answer)'
            """)
        tmux.waitFor(text: "2/2")
        tmux.type("be")
        tmux.waitFor(text: "1/2")
        tmux.keys("C-x")
        tmux.waitFor(text: "ran beta be")
        tmux.type("typed in the command")
        tmux.keys("Enter")
        tmux.waitFor("the picker as it was") { $0[row: 0].hasPrefix("> be") && !self.shows($0, "ran beta") && $0[row: 1] == tmux.infoRow("1/2") && $0[row: 2] == "> beta" }
        XCTAssertEqual(try String(contentsOf: tmux.dir.appendingPathComponent("answer"), encoding: .utf8),
                       "typed in the command\n")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "beta\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testCommandsGetPicksEnvironment() throws {
        try tmux.file("input.txt", "abc\nabd\nxyz\n")
        try tmux.start(input: "cat input.txt", args: """
            --multi --prompt 'p> ' --bind 'ctrl-x:execute-silent(env | grep ^PICK_ | grep -v ^PICK_TESTS_ | sort > env.txt)'
            """)
        tmux.waitFor(text: "3/3")
        tmux.keys("Tab")
        tmux.type("ab")
        tmux.waitFor(text: "2/3")
        tmux.keys("Down", "C-x")
        tmux.waitFor("the command wrote its environment") { _ in self.read("env.txt").contains("PICK_TOTAL") }
        XCTAssertEqual(read("env.txt"), """
            PICK_ACTION=down
            PICK_COLUMNS=80
            PICK_KEY=ctrl-x
            PICK_LINES=24
            PICK_MATCH_COUNT=2
            PICK_POS=2
            PICK_PROMPT=p>\u{20}
            PICK_QUERY=ab
            PICK_SELECT_COUNT=1
            PICK_TOTAL_COUNT=3

            """)
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testExecuteUnderHeightComesBackToKeysNotEchoes() throws {
        try tmux.file("input.txt", "one\ntwo\n")
        try tmux.start(input: "cat input.txt", args: "--height 6 --bind 'ctrl-x:execute(echo ran {})'",
                       before: "echo above")
        tmux.waitFor(text: "2/2")
        tmux.keys("C-x")
        tmux.waitFor(text: "ran one")
        tmux.keys("Down")
        tmux.waitFor("keys move again, nothing echoed") { $0.contains("> two") && !self.shows($0, "^[") }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testCtrlCEndsAHangingExecuteSilentNotPick() throws {
        try tmux.file("input.txt", "one\ntwo\n")
        try tmux.start(input: "cat input.txt", args: "--bind 'ctrl-x:execute-silent(sleep 33)+change-prompt(after> )'")
        tmux.waitFor(text: "2/2")
        tmux.keys("C-x")
        tmux.waitFor("the command runs") { _ in
            !((try? TmuxPick.shell(["pgrep", "-f", "^sleep 33"]))?.output.isEmpty ?? true)
        }
        tmux.type("tw")
        tmux.keys("C-c")
        tmux.waitFor("the command ended, the keys typed meanwhile kept") { rows in
            rows[row: 0].hasPrefix("> tw") && rows[row: 1] == tmux.infoRow("1/2")
                && ((try? TmuxPick.shell(["pgrep", "-f", "^sleep 33"]))?.output.isEmpty ?? true)
        }
        XCTAssertFalse(tmux.screen()[row: 0].hasPrefix("after"), "the rest of the chain dropped")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "two\n")
    }

    /// Lines and a query that are shell code reach the commands as data: the marker file is
    /// never created, and each command sees the bytes exactly.
    func testHostileLinesThroughExecuteSilentExecuteAndBecome() throws {
        let hostile = ["$(touch marker)", "`touch marker`", "'; touch marker; '", "\"; touch marker; \"", "a\\' b; touch marker"]
        try tmux.file("input.txt", hostile.joined(separator: "\n") + "\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-x:execute-silent(printf "%s|%s\\n" {} {q} >> silent)+down' \
            --bind 'ctrl-e:execute(printf "%s\\n" {} >> loud)+down' \
            --bind 'ctrl-b:become(printf "%s\\n" {+} {q}),ctrl-y:first' --multi
            """)
        tmux.waitFor(text: "5/5")
        tmux.type("$(touch marker)")
        tmux.waitFor(text: "1/5")
        tmux.keys("C-x", "C-u")
        tmux.waitFor(text: "5/5")
        for _ in hostile { tmux.keys("C-x") }
        tmux.keys("C-y")
        for _ in hostile { tmux.keys("C-e") }
        tmux.waitFor("every execute ran") { _ in self.read("loud").split(separator: "\n").count == hostile.count }
        tmux.keys("C-y", "Tab", "Tab")
        tmux.waitFor(text: "(2)")
        tmux.keys("C-b")
        XCTAssertEqual(tmux.exitStatus(), 0)
        let silent = read("silent")
        XCTAssertEqual(silent, "$(touch marker)|$(touch marker)\n" + hostile.map { $0 + "|\n" }.joined())
        let loud = read("loud")
        XCTAssertEqual(loud, hostile.map { $0 + "\n" }.joined())
        XCTAssertEqual(tmux.stdout, hostile.prefix(2).map { $0 + "\n" }.joined() + "\n", "become printed the marked lines")
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmux.dir.appendingPathComponent("marker").path))
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testReloadWhileTypingKeepsTheHighlightedLine() throws {
        try tmux.file("input.txt", "one\ntwo\nthree\n")
        try tmux.file("more.sh", "printf 'zero\\none\\ntwo\\nthree\\n'; i=0; while [ $i -lt 40 ]; do echo extra$i; i=$((i+1)); sleep 0.02; done\n")
        try tmux.start(input: "cat input.txt", args: "--bind 'ctrl-r:reload(sh more.sh)'")
        tmux.waitFor(text: "3/3")
        tmux.keys("Down", "Down")
        tmux.waitFor(text: "> three")
        tmux.keys("C-r")
        tmux.waitFor("the highlight stayed on three, zero now above it") { rows in
            rows[row: 1] == tmux.infoRow("44/44") && self.shows(rows, "> three") && self.shows(rows, "  zero")
        }
        tmux.keys("C-r")
        tmux.type("'extra3")
        tmux.waitFor("the reload streamed in while typing") { $0[row: 0] == "> 'extra3" && $0[row: 1] == tmux.infoRow("11/44") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "extra3\n")
    }

    func testAReloadReplacesTheOneRunningAndReloadSyncWaits() throws {
        try tmux.start(input: "echo start", args: """
            --bind 'ctrl-x:reload(echo slow; sleep 31; echo never)' \
            --bind 'ctrl-y:reload(echo fast)' --bind 'ctrl-e:reload-sync(sleep 0.5; echo synced)'
            """)
        tmux.waitFor(text: "1/1")
        tmux.keys("C-x")
        tmux.waitFor(text: "> slow")
        tmux.keys("C-y")
        tmux.waitFor(text: "> fast")
        tmux.waitFor("the slow reload's sleep was killed") { _ in
            (try? TmuxPick.shell(["pgrep", "-f", "^sleep 31"]))?.output.isEmpty ?? true
        }
        tmux.keys("C-e")
        tmux.waitFor(text: "> synced")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "synced\n")
    }

    /// As fzf: while a reload's command runs, the old list stays and the spinner turns; its
    /// lines replace the list once they come (reload-sync's once the command ends).
    func testAReloadInProgressKeepsTheOldListWithTheSpinner() throws {
        try tmux.file("go", "")
        try tmux.start(input: "seq 3", args: """
            --bind 'ctrl-r:reload(while [ -e go ]; do sleep 0.05; done; seq 10 11)' \
            --bind 'ctrl-e:reload-sync(echo first; while [ -e go ]; do sleep 0.05; done; echo last)'
            """)
        tmux.waitFor(text: "3/3")
        let spinner = Set("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")
        func spins(_ rows: [String]) -> Bool { rows[row: 1].first.map(spinner.contains) ?? false }
        XCTAssertFalse(spins(tmux.screen()), "no spinner once the input is read")
        tmux.keys("C-r")
        tmux.waitFor("the spinner turns, the old list shown and usable") { rows in
            spins(rows) && rows[row: 1].contains("3/3") && self.shows(rows, "> 1") && self.shows(rows, "  3")
        }
        tmux.keys("Down")
        tmux.waitFor(text: "> 2")
        try FileManager.default.removeItem(atPath: tmux.dir.appendingPathComponent("go").path)
        tmux.waitFor("the new lines, the spinner stopped") { $0[row: 1] == tmux.infoRow("2/2") && self.shows($0, "  10") }
        try tmux.file("go", "")
        tmux.keys("C-e")
        tmux.waitFor("reload-sync keeps the old list until its command ends") { rows in
            spins(rows) && rows[row: 1].contains("2/2") && self.shows(rows, "11")
        }
        XCTAssertFalse(tmux.screen().contains { $0.contains("first") })
        try FileManager.default.removeItem(atPath: tmux.dir.appendingPathComponent("go").path)
        tmux.waitFor("reload-sync's whole list") { $0[row: 1] == tmux.infoRow("2/2") && self.shows($0, "  first") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "last\n", "the highlight kept its row (fzf's)")
    }

    /// As fzf: a reload whose command fails and prints nothing says so in the info line.
    func testAFailedReloadSaysSoInTheInfoLine() throws {
        try tmux.start(input: "seq 3", args: "--bind 'ctrl-r:reload(echo {} >/dev/null; false)' --bind 'ctrl-t:reload(seq 5)'")
        tmux.waitFor(text: "3/3")
        tmux.keys("C-r")
        tmux.waitFor("the failed command") { $0[row: 1].hasPrefix("  [Command failed: echo '1' >/dev/null; false] ─") }
        tmux.keys("C-t")
        tmux.waitFor("the next reload's lines, the failure gone") { $0[row: 1] == tmux.infoRow("5/5") }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testAReloadOnStartIsTheInputAndStandardInputIsNeverShown() throws {
        // As fzf: `start:reload` replaces the input, so `load` fires for the reload's
        // lines, not for the piped ones, which never show.
        try tmux.file("go", "")
        try tmux.start(input: "echo piped", args: """
            --header waiting --bind 'start:reload(while [ -e go ]; do sleep 0.05; done; echo reloaded)' \
            --bind 'load:change-header(loaded)'
            """)
        tmux.waitFor("the reload has not ended: no load yet") { self.shows($0, "waiting") && self.shows($0, "0/0") }
        XCTAssertFalse(tmux.screen().contains { $0.contains("piped") })
        try FileManager.default.removeItem(atPath: tmux.dir.appendingPathComponent("go").path)
        tmux.waitFor("load fired for the reload") { self.shows($0, "loaded") && self.shows($0, "> reloaded") }
        XCTAssertFalse(tmux.screen().contains { $0.contains("piped") })
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "reloaded\n")
    }

    func testAReloadUnderAnsiKeepsItsColours() throws {
        try tmux.start(input: "echo plain", args: """
            --ansi --bind 'start:reload(printf "\\033[31mred\\033[0m line\\n")'
            """)
        tmux.waitFor(text: "red line")
        XCTAssertTrue(tmux.screenWithEscapes().contains("\u{1B}[31mred"), "the colour drawn, not shown as text")
        XCTAssertFalse(tmux.screen().contains { $0.contains("[31m") })
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "red line\n", "the visible text printed")
    }

    func testAPickFromAReloadedListIsRemembered() throws {
        let state = tmux.dir.appendingPathComponent("state").path
        try tmux.start(input: "echo first", args: """
            --remember bindtest --bind 'start:reload(printf "x1\\nx2\\nx3\\n")'
            """, environment: ["XDG_STATE_HOME": state])
        tmux.waitFor(text: "3/3")
        tmux.keys("Down", "Down", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "x3\n")
        let list = try runPick(["--remember", "bindtest", "--list"], environment: ["XDG_STATE_HOME": state])
        XCTAssertTrue(list.text.contains("\tx3\t"), "the reloaded store's line was recorded: \(list.text)")
    }

    func testAReloadUnderWithNthShowsFieldsAndGivesCommandsTheLines() throws {
        try tmux.start(input: "echo '0 zero'", args: """
            --with-nth 2 --bind 'ctrl-r:reload(printf "1 one\\n2 two\\n")' \
            --bind 'ctrl-x:execute-silent(echo {} > line.txt)'
            """)
        tmux.waitFor(text: "> zero")
        tmux.keys("C-r")
        tmux.waitFor("the reloaded lines' second fields") { $0.contains("> one") && $0.contains("  two") }
        tmux.keys("Down", "C-x")
        tmux.waitFor("the command got the line as read") { _ in self.read("line.txt") == "2 two\n" }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "2 two\n")
    }

    func testTransformsRunInTheBackground() throws {
        try tmux.file("input.txt", "alpha\nbeta\n")
        try tmux.start(input: "cat input.txt", args: """
            --bind 'ctrl-x:transform[echo "change-query(beta)+change-prompt(T> )"]' \
            --bind 'ctrl-y:transform-query(echo al),ctrl-t:transform-prompt(echo "$PICK_MATCH_COUNT> ")' \
            --bind 'ctrl-o:transform-header(echo header {})' \
            --bind 'ctrl-e:transform(sleep 32)+change-prompt(stale> )'
            """)
        tmux.waitFor(text: "2/2")
        tmux.keys("C-x")
        tmux.waitFor("transform ran the printed actions") { $0[row: 0] == "T> beta" && $0[row: 1] == tmux.infoRow("1/2") }
        tmux.keys("C-y")
        tmux.waitFor("transform-query") { $0[row: 0].hasPrefix("T> al") && $0[row: 1] == tmux.infoRow("1/2") }
        tmux.keys("C-t")
        tmux.waitFor("transform-prompt") { $0[row: 0].hasPrefix("1> al") }
        tmux.keys("C-o")
        tmux.waitFor(text: "header alpha")
        tmux.keys("C-e")
        tmux.type("pha")
        tmux.waitFor("the picker answers while a transform hangs") { $0[row: 0] == "1> alpha" }
        tmux.keys("C-o")
        tmux.waitFor("the hanging transform was dropped") { _ in
            (try? TmuxPick.shell(["pgrep", "-f", "^sleep 32"]))?.output.isEmpty ?? true
        }
        XCTAssertFalse(tmux.screen()[row: 0].hasPrefix("stale"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "alpha\n")
    }

    func testPreviewActions() throws {
        try tmux.file("input.txt", "alpha\nbeta\n")
        try tmux.start(input: "cat input.txt", args: """
            --preview 'echo head of {}; echo run >> runs; echo "run $(wc -l < runs)"; seq 1 100' \
            --bind 'ctrl-t:toggle-preview,ctrl-x:preview-down,ctrl-y:preview-up,ctrl-v:preview-page-down' \
            --bind 'ctrl-e:refresh-preview,ctrl-o:change-preview(echo other {}),ctrl-w:change-preview-window(down|hidden|)'
            """)
        tmux.waitFor(text: "head of alpha")
        tmux.keys("C-t")
        tmux.waitFor("toggle-preview hides it") { !self.shows($0, "head of") }
        tmux.keys("C-t")
        tmux.waitFor(text: "head of alpha")
        tmux.keys("C-x")
        tmux.waitFor("preview-down scrolls a line") { !self.shows($0, "head of") && self.shows($0, "run 2") }
        tmux.keys("C-y")
        tmux.waitFor(text: "head of alpha")
        tmux.keys("C-v")
        tmux.waitFor("preview-page-down scrolls a page") { !self.shows($0, "run 2") }
        tmux.keys("C-e")
        tmux.waitFor("refresh-preview ran it again") { self.shows($0, "head of alpha") && self.shows($0, "run 3") }
        tmux.keys("C-w")
        tmux.waitFor("the first layout: below the list") { $0[row: 2] == "> alpha" && self.shows($0, "head of alpha") }
        tmux.keys("C-w")
        tmux.waitFor("the second: hidden") { !self.shows($0, "head of") }
        tmux.keys("C-w")
        tmux.waitFor("the third: --preview-window's") { $0[row: 2].hasPrefix("> alpha ") && self.shows($0, "head of alpha") }
        tmux.keys("C-o")
        tmux.waitFor(text: "other alpha")
        tmux.keys("Down")
        tmux.waitFor(text: "other beta")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testScrollingBeforeThePreviewHasAllItsTextKeepsThePlace() throws {
        try tmux.file("input.txt", "alpha\n")
        try tmux.start(input: "cat input.txt", args: "--preview 'echo first; echo second; sleep 1; seq 3 100'")
        tmux.waitFor(text: "second")
        tmux.keys("S-Down", "S-Down")
        // The rest comes after the keys: the pane stays two lines down.
        tmux.waitFor("the place scrolled to holds") { rows in
            !self.shows(rows, "first") && !self.shows(rows, "second") && rows.contains { $0.contains("│ 3 ") }
        }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testF1ListsTheBindingsAndSearchesThem() throws {
        try tmux.file("input.txt", "alpha\n")
        try tmux.start(input: "cat input.txt", args: "--bind 'ctrl-x:execute(vim {}),change:first'")
        tmux.waitFor(text: "1/1")
        tmux.keys("F1")
        let rows = tmux.waitFor(text: "Bound with --bind")
        XCTAssertTrue(rows.contains { $0.contains("ctrl-x") && $0.contains("run on the terminal: vim {}") })
        XCTAssertTrue(rows.contains { $0.contains("change") && $0.contains("when the query changes") })
        tmux.keys("/")
        tmux.type("vim")
        tmux.waitFor("only what matches") { rows in
            rows.contains { $0.contains("ctrl-x") } && !rows.contains { $0.contains("Return") }
        }
        tmux.keys("Escape")
        tmux.waitFor(text: "> alpha")
        // Every action --bind takes is in the help, found by what it does.
        tmux.keys("F1", "/")
        tmux.type("preview wrap")
        tmux.waitFor("actions listed by fzf's names") { rows in
            rows.contains { $0.contains("toggle-preview-wrap ") && $0.contains("wrap the preview's long lines") }
        }
        tmux.keys("Escape")
        tmux.waitFor(text: "> alpha")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }
}
