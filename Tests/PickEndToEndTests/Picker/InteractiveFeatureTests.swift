import Foundation
import XCTest

/// Marks, --expect, line shortcuts, scopes, messages, help, completion, history and safety.
final class InteractiveFeatureTests: InteractiveTestCase {
    func testMultiMarksLinesWithTabAndPrintsThemAll() throws {
        try tmux.file("input.txt", "one\ntwo\nthree\nfour\n")
        try tmux.start(input: "cat input.txt", args: "--multi")
        tmux.waitFor(text: "4/4")
        tmux.keys("Tab", "Down", "Tab")
        tmux.waitFor(text: "(2)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "one\nthree\n")
    }

    func testExpectPrintsTheKeyBeforeTheLine() throws {
        try tmux.file("input.txt", "one\ntwo\n")
        try tmux.start(input: "cat input.txt", args: "--expect ctrl-x,f9")
        tmux.waitFor(text: "2/2")
        tmux.keys("Down", "C-x")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "ctrl-x\ntwo\n")
    }

    func testExpectPrintsAnEmptyKeyLineForReturn() throws {
        try tmux.file("input.txt", "one\ntwo\n")
        try tmux.start(input: "cat input.txt", args: "--expect ctrl-x --print-query")
        tmux.waitFor(text: "2/2")
        tmux.type("tw")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "tw\n\ntwo\n")
    }

    func testALinesShortcutKeyPicksIt() throws {
        try tmux.start(input: nil, args: "--demo")
        tmux.waitFor(text: "13/13")
        tmux.keys("F7")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "Find in Files\tActions\tsearch,grep\tf7\n", "the whole line, byte-exact")
    }

    func testAltAndCtrlShortcutsPickTheirLines() throws {
        let input = "Open\tFile\topen\t⌘O\nClose\tFile\t\tctrl-o\nQuit\t\t\tf10\n"
        for (key, expected) in [("M-o", "Open"), ("C-o", "Close")] {
            tmux.close()
            tmux = try TmuxPick(test: name + key)
            try tmux.file("input.txt", input)
            try tmux.start(input: "cat input.txt", args: "--palette")
            let rows = tmux.waitFor(text: "3/3")
            XCTAssertTrue(rows.contains { $0.hasPrefix("> Open") && $0.hasSuffix(" ⌘O") }, "the chip shows")
            tmux.keys(key)
            XCTAssertEqual(tmux.exitStatus(), 0, key)
            XCTAssertTrue(tmux.stdout.hasPrefix(expected + "\t"), key)
        }
    }

    func testEditingKeysStayEditingKeysWhateverALineNames() throws {
        // ctrl-a and ctrl-w edit the query, alt-n walks the history: lines cannot take them.
        try tmux.file("input.txt", "Start\t\t\tctrl-a\nWipe\t\t\tctrl-w\nNew\t\t\t⌘N\nxy one\t\t\tf10\n")
        try tmux.start(input: "cat input.txt", args: "--palette --color=bw")
        let rows = tmux.waitFor(text: "4/4")
        XCTAssertTrue(rows.contains { $0.hasPrefix("> Start") && $0.hasSuffix("(ctrl-a)") }, "a hint, not a key")
        XCTAssertTrue(rows.contains { $0.hasPrefix("  New") && $0.hasSuffix("(⌘N)") }, rows.joined(separator: "\n"))
        XCTAssertTrue(rows.contains { $0.hasPrefix("  xy one") && $0.hasSuffix("[f10]") }, "a key that picks")
        tmux.type("y")
        tmux.waitFor(text: "1/4")
        tmux.keys("C-a")
        tmux.type("x")
        tmux.waitFor("ctrl-a went to the start of the query") { $0[row: 0].hasPrefix("> xy") }
        tmux.keys("C-w")
        tmux.waitFor("ctrl-w deleted the word before the cursor") { $0[row: 0].hasPrefix("> y") && $0[row: 1].contains("/4") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "xy one\t\t\tf10\n", "Return picks the highlighted line, not a shortcut's")
    }

    func testSectionsHaveHeadersAndTypingASectionNameFindsIt() throws {
        try tmux.start(input: nil, args: "--demo")
        var rows = tmux.waitFor(text: "13/13")
        XCTAssertEqual(rows[row: 2], "Create")
        XCTAssertTrue(rows.contains("Actions"))
        tmux.type("go to")
        rows = tmux.waitFor(text: "5/13")  // the Go to section, and Toggle Comment (fuzzy)
        XCTAssertEqual(rows[row: 2], "Go to")
        XCTAssertTrue(rows[row: 3].hasPrefix("> Go to Line"))
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testCtrlSCyclesTheScopeAndScopeStartsInOne() throws {
        try tmux.start(input: nil, args: "--demo --no-color")
        tmux.waitFor(text: "13/13")
        tmux.keys("C-s")
        var rows = tmux.waitFor(text: "4/13")
        XCTAssertTrue(rows.contains { $0.hasPrefix("> New File") })
        tmux.keys("C-s")
        rows = tmux.waitFor(text: "5/13")
        XCTAssertTrue(rows.contains { $0.hasPrefix("> Save") })
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertTrue(tmux.stdout.hasPrefix("Save\t"))

        tmux.close()
        tmux = try TmuxPick(test: name + "scope")
        try tmux.start(input: nil, args: "--demo --scope 'go to' --color bw")
        rows = tmux.waitFor(text: "4/13")
        XCTAssertTrue(rows.contains { $0.contains("[Go to]") }, "the current scope is marked")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertTrue(tmux.stdout.hasPrefix("Go to Line\t"))
    }

    func testNoMatchesSaysSoAndSuggestsWhatToTry() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "2/2")
        tmux.type("qqq")
        let rows = tmux.waitFor(text: "No matches for “qqq”")
        XCTAssertTrue(rows.contains { $0.contains("ctrl-u") })
        tmux.keys("C-u")
        tmux.waitFor(text: "2/2")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testEmptyInputSaysThereIsNothing() throws {
        try tmux.start(input: "true", args: "")
        tmux.waitFor(text: "No input")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 1)
    }

    func testF1ShowsKeysAndShortcutsThenReturns() throws {
        try tmux.start(input: nil, args: "--demo")
        tmux.waitFor(text: "13/13")
        tmux.keys("F1")
        let rows = tmux.waitFor(text: "Shortcuts")
        XCTAssertTrue(rows.contains { $0.contains("Keys") })
        XCTAssertTrue(rows.contains { $0.contains("f5") && $0.contains("Save") })
        tmux.keys("Space")
        tmux.waitFor(text: "> New File")
        tmux.keys("M-?")
        tmux.waitFor(text: "Shortcuts")
        tmux.keys("Escape")
        tmux.waitFor(text: "> New File")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testTabCompletesAndRightAcceptsTheGhostText() throws {
        try tmux.start(input: nil, args: "--demo")
        tmux.waitFor(text: "13/13")
        tmux.type("dup")
        tmux.waitFor("ghost text after the query") { $0[row: 0] == "> duplicate Line" }
        XCTAssertEqual(tmux.cursor().x, 5, "the cursor stays after what was typed")
        tmux.keys("Right")
        // The query is what the screen showed: what was typed, then the ghost text.
        tmux.waitFor("the query completed") { $0[row: 0] == "> duplicate Line" && self.tmux.cursor().x == 16 }
        tmux.keys("C-u")
        tmux.type("go to de")
        tmux.waitFor(text: "> go to definition")
        tmux.keys("Tab")
        tmux.waitFor("Tab took it") { $0[row: 0] == "> go to definition" && self.tmux.cursor().x == 18 }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertTrue(tmux.stdout.hasPrefix("Go to Definition\t"))
    }

    func testTabOnlyExtendsWhatWasTyped() throws {
        // ls -la: no line starts with `pyth`, so Tab leaves the query as typed (it used to
        // put the whole first line that contains it, permissions and all, in its place).
        try tmux.file("ls.txt", """
            total 12
            -rwxr-xr-x 1 root root 5904 Jan  1  2024 activate-global-python-argcomplete
            -rwxr-xr-x 1 root root 6832 Jan  1  2024 python3.12
            lrwxrwxrwx 1 root root   10 Jan  1  2024 python3 -> python3.12

            """)
        try tmux.start(input: "cat ls.txt", args: "")
        tmux.waitFor(text: "4/4")
        tmux.type("pyth")
        tmux.waitFor(text: "3/4")
        tmux.keys("Tab")
        tmux.type("o")  // after Tab: once it shows, Tab was handled
        tmux.waitFor("the query as typed") { $0[row: 0] == "> pytho" && $0[row: 1] == tmux.infoRow("3/4") }
        // A line that starts with the query completes.
        tmux.keys("C-u")
        tmux.type("lrw")
        tmux.waitFor("the ghost text") { $0[row: 0] == "> lrwxrwxrwx 1 root root   10 Jan  1  2024 python3 -> python3.12" }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)

        // git branch: `fe` completes the branch a folder at a time, without the indent.
        tmux.close()
        tmux = try TmuxPick(test: name + "branch")
        try tmux.file("branches.txt", "  feature/login\n  feature/search\n* main\n  fix/typo\n")
        try tmux.start(input: "cat branches.txt", args: "")
        tmux.waitFor(text: "4/4")
        tmux.type("fe")
        tmux.waitFor("the ghost text") { $0[row: 0] == "> feature/" }
        tmux.keys("Tab")
        tmux.waitFor("completed to the folder") { $0[row: 0].hasPrefix("> feature/") && self.tmux.cursor().x == 10 }
        tmux.type("s")
        tmux.waitFor("the ghost text") { $0[row: 0] == "> feature/search" }
        tmux.keys("Tab", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "  feature/search\n")
    }

    func testWhatTabInsertsKeepsMatchingTheHighlightedLine() throws {
        // `ls Sources/Pick/Commands`: `pre` highlights PreviewRunner.swift (the shorter
        // of two that start with it), while PreviewController.swift comes first in input
        // order. The ghost is the highlighted line's rest, and a capital in it would turn
        // smart case on and match nothing: what Tab inserts keeps matching its line.
        try tmux.file("ls.txt", "ActionCommands.swift\nBuiltinPreview.swift\nChildProcess.swift\n"
            + "PreviewController.swift\nPreviewRunner.swift\nREADME.md\nTmuxLauncher.swift\n")
        try tmux.start(input: "cat ls.txt", args: "")
        tmux.waitFor(text: "7/7")
        tmux.type("pre")
        let rows = tmux.waitFor("the ghost text") { $0[row: 0].count > "> pre".count }
        let highlighted = try XCTUnwrap(rows.first { $0.hasPrefix("> ") && $0 != rows[0] })
        let line = String(highlighted.dropFirst(2)).trimmingCharacters(in: .whitespaces)
        XCTAssertEqual(rows[0], "> " + line.lowercased(), "the ghost completes the highlighted line:\n" + rows.joined(separator: "\n"))
        tmux.keys("Tab")
        tmux.waitFor("the completed query matching its line") { rows in
            rows[0] == "> " + line.lowercased() && rows[row: 1].hasPrefix("  1/7")
                && rows.contains { $0.hasPrefix("> ") && $0.contains(line) && $0 != rows[0] }
        }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, line + "\n")
    }

    func testCompletionFollowsTheScope() throws {
        try tmux.start(input: nil, args: "--demo")
        tmux.waitFor(text: "13/13")
        tmux.type("s")
        tmux.waitFor("in All, Save") { $0[row: 0] == "> save" }
        tmux.keys("C-s", "C-s", "C-s")
        // In Go to, a keyword of Go to Definition; never Save, from Actions.
        tmux.waitFor("in Go to, symbol") { $0[row: 0] == "> symbol" }
        tmux.keys("Tab")
        tmux.waitFor("taken") { $0[row: 0] == "> symbol" && self.tmux.cursor().x == 8 }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertTrue(tmux.stdout.hasPrefix("Go to Definition\t"))
    }

    func testGhostTextNeverLooksTypedWithoutAttributes() throws {
        for (args, environment) in [("--demo", ["TERM": "dumb"]), ("--demo --color=bw", [:])] {
            tmux.close()
            tmux = try TmuxPick(test: name + args.filter(\.isLetter))
            try tmux.start(input: nil, args: args, environment: environment)
            tmux.waitFor(text: "13/13")
            tmux.type("dup")
            tmux.waitFor("the ghost text in brackets (\(args))") { $0[row: 0] == "> dup[licate Line]" }
            tmux.keys("Right")
            tmux.waitFor("taken (\(args))") { $0[row: 0] == "> duplicate Line" }
            tmux.keys("Escape")
            XCTAssertEqual(tmux.exitStatus(), 130)
        }
    }

    func testControlCharactersInInputAreShownAsSymbols() throws {
        try tmux.file("input.txt", "evil\u{1B}[2J\u{1B}]0;title\u{7}x\nbell\u{7}\n")
        try tmux.start(input: "cat input.txt", args: "")
        let rows = tmux.waitFor(text: "2/2")
        XCTAssertTrue(rows.contains { $0.contains("evil␛[2J␛]0;title␇x") }, rows.joined(separator: "\n"))
        XCTAssertTrue(rows.contains { $0.contains("bell␇") })
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdoutData, Data("evil\u{1B}[2J\u{1B}]0;title\u{7}x\n".utf8), "printed raw, byte-exact")
    }

    func testAnsiShowsColourCodesAsColours() throws {
        try tmux.file("input.txt", "\u{1B}[31mred\u{1B}[0m plain\nother\n")
        try tmux.start(input: "cat input.txt", args: "--ansi")
        let rows = tmux.waitFor(text: "2/2")
        XCTAssertTrue(rows.contains { $0.hasPrefix("> red plain") }, "the codes are not shown")
        XCTAssertTrue(tmux.screenWithEscapes().contains("\u{1B}[31mred"), "they colour the text")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "red plain\n", "printed as its visible text, as fzf does")
    }

    func testAnsiColourHoldsOnTheNextLinesUntilResetAsInFzf() throws {
        try tmux.file("input.txt", "\u{1B}[32mgreen1\ngreen2\u{1B}[0m\nplain\n")
        try tmux.start(input: "cat input.txt", args: "--ansi --no-sort")
        tmux.waitFor(text: "3/3")
        let rows = tmux.screenWithEscapes().components(separatedBy: "\n")
        XCTAssertTrue(rows.contains { $0.contains("\u{1B}[32mgreen2") }, "green2 is still green")
        XCTAssertFalse(rows.contains { $0.contains("\u{1B}[32mplain") }, "the reset ends it")
        tmux.keys("Down", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "green2\n")
    }

    func testRead0AndPrint0() throws {
        try tmux.start(input: "printf 'one\\ntwo\\0three\\0'", args: "--read0 --print0")
        tmux.waitFor(text: "2/2")
        tmux.type("thr")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdoutData, Data("three\0".utf8))
    }

    func testWideCharactersKeepTheChipAligned() throws {
        try tmux.file("input.txt", "日本語のファイル\t\t\tctrl-o\nplain file\t\t\tctrl-p\n")
        try tmux.start(input: "cat input.txt", args: "--palette", width: 40)
        let rows = tmux.waitFor(text: "2/2")
        let chipRow = rows.first { $0.contains("日本語") } ?? ""
        let wide = chipRow.unicodeScalars.filter { $0.value >= 0x3000 }.count
        XCTAssertTrue(chipRow.hasSuffix(" ctrl-o"), chipRow)
        XCTAssertEqual(chipRow.count + wide, 38,
                       "the chip ends a column short of the right edge, the scrollbar's (its trailing space is trimmed)")
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testWithHistoryCtrlPAndCtrlNWalkItAsInFzf() throws {
        // fzf's suite (test_history): fzf remaps ctrl-p and ctrl-n when --history is given.
        let history = try tmux.file("history", "11\n22\n")
        try tmux.start(input: "seq 100", args: "--history '\(history)'")
        tmux.waitFor(text: "100/100")
        tmux.keys("C-p")
        tmux.waitFor(text: "> 22")
        tmux.keys("C-p")
        tmux.waitFor(text: "> 11")
        tmux.keys("C-n")
        tmux.waitFor("the newer query") { $0[row: 0] == "> 22" }
    }

    func testARecalledQueryEditedKeepsItsEditWhenWalkedBackToButNotInTheFile() throws {
        // fzf's test_history: the edit lasts while pick runs; the file keeps what was picked.
        let history = try tmux.file("history", "22\n33\n44\n")
        try tmux.start(input: "seq 1000", args: "--history '\(history)'")
        tmux.waitFor(text: "1000/1000")
        tmux.keys("C-p", "C-p")
        tmux.waitFor("33 recalled") { $0[row: 0] == "> 33" }
        tmux.keys("BSpace")
        tmux.type("1")
        tmux.waitFor("edited to 31") { $0[row: 0] == "> 31" }
        tmux.keys("C-p")
        tmux.waitFor("the older query") { $0[row: 0] == "> 22" }
        tmux.keys("C-n")
        tmux.waitFor("back to the edit, not to 33") { $0[row: 0] == "> 31" }
        tmux.type("0")
        tmux.waitFor(text: "1/1000")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "310\n")
        XCTAssertEqual(try String(contentsOfFile: history, encoding: .utf8), "22\n33\n44\n310\n")
    }

    func testHistoryWalksWithAltPAndSavesTheQuery() throws {
        let history = try tmux.file("history", "first query\nban\n")
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "--history '\(history)'")
        tmux.waitFor(text: "2/2")
        tmux.keys("M-p")
        tmux.waitFor(text: "> ban")
        tmux.keys("M-p")
        tmux.waitFor(text: "> first query")
        tmux.waitFor(text: "0/2")
        tmux.keys("M-n", "M-n")
        // Back to an empty query: the most recent query is offered as a hint, in brackets.
        tmux.waitFor("the query back to empty") { $0[row: 0] == "> [recent: ban]" && $0[row: 1] == tmux.infoRow("2/2") }
        XCTAssertEqual(tmux.cursor().x, 2, "the query is empty")
        tmux.keys("Tab")
        tmux.waitFor("Tab takes it") { $0[row: 1] == tmux.infoRow("1/2") && self.tmux.cursor().x == 5 }
        tmux.keys("C-u")
        tmux.type("app")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(try String(contentsOfFile: history, encoding: .utf8), "first query\nban\napp\n")
    }

    func testHistoryIsNeverWrittenThroughASymlinkPlantedAtItsPath() throws {
        let victim = try tmux.file("victim", "precious\n")
        let history = (victim as NSString).deletingLastPathComponent + "/history"
        try FileManager.default.createSymbolicLink(atPath: history, withDestinationPath: victim)
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "--history '\(history)'")
        tmux.waitFor(text: "2/2")
        tmux.type("ban")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "precious\n", "the link's target is untouched")
        let attributes = try FileManager.default.attributesOfItem(atPath: history)
        XCTAssertEqual(attributes[.type] as? FileAttributeType, .typeRegular, "the link was replaced by the history")
        XCTAssertEqual(try String(contentsOfFile: history, encoding: .utf8), "ban\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (history as NSString).deletingLastPathComponent)
            .filter { $0.contains(".pick-") }
        XCTAssertEqual(leftovers, [], "no temporary file is left behind")
    }

    func testHeaderAndHeaderLinesShowAboveTheList() throws {
        try tmux.file("input.txt", "NAME SIZE\napple 3\nbanana 5\n")
        try tmux.start(input: "cat input.txt", args: "--header 'pick a fruit' --header-lines 1 --prompt 'fruit> '")
        let rows = tmux.waitFor(text: "2/2")
        XCTAssertEqual(rows[row: 0], "fruit>")
        // Indented as far as the lines' text, as fzf's.
        XCTAssertEqual(rows[row: 2], "  pick a fruit")
        XCTAssertEqual(rows[row: 3], "  NAME SIZE")
        XCTAssertEqual(rows[row: 4], "> apple 3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apple 3\n")
    }

    func testSelectOneAndExitZeroDecideWithoutTheUI() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "-1 -q ban")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "banana\n")
        tmux.close()
        tmux = try TmuxPick(test: name + "0")
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "-0 -q zzz")
        XCTAssertEqual(tmux.exitStatus(), 1)
    }
}
