import Foundation
import XCTest

/// Close matches (issue 22): a query one typo away still finds the line, below every real match.
final class InteractiveCloseMatchesTests: InteractiveTestCase {
    private let list = "Open Recent\nSettings\nSave All\nGo to File\n"

    /// Starts pick on `list` with `args` and types `setitngs`.
    private func typeTypo(args: String) throws {
        try tmux.file("input.txt", list)
        try tmux.start(input: "cat input.txt", args: args)
        tmux.waitFor(text: "4/4")
        tmux.type("setitngs")
    }

    func testATypoShowsTheLineUnderCloseMatchesAndDownThenReturnPicksIt() throws {
        try typeTypo(args: "")
        let rows = tmux.waitFor(text: "close matches")
        let header = rows.firstIndex { $0.contains("close matches") }!
        XCTAssertTrue(rows[header + 1].hasPrefix("  Settings"), "Settings, not highlighted, right under the header")
        XCTAssertTrue(rows.contains { $0.contains("0/4 +1 close") },
                      "the count is of real matches, and says the close one:\n" + rows.joined(separator: "\n"))
        tmux.keys("Down")
        tmux.waitFor("Settings highlighted once pointed at") { $0.contains { $0.hasPrefix("> Settings") } }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "Settings\n")
    }

    func testReturnOnACloseMatchNobodyPointedAtPicksNothingAsFzf() throws {
        // `git branch | pick | xargs git branch -D`, and `mian` typed: main must not go.
        try tmux.file("input.txt", "  dev\n* main\n  release\n")
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "3/3")
        tmux.type("mian")
        tmux.waitFor(text: "close matches")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 1, "as fzf: nothing matched, nothing picked")
        XCTAssertEqual(tmux.stdout, "")
    }

    func testATypedQueryAndReturnAtOncePicksNothing() throws {
        try tmux.file("input.txt", list)
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "4/4")
        tmux.type("setitngs\r")
        XCTAssertEqual(tmux.exitStatus(), 1)
        XCTAssertEqual(tmux.stdout, "")
    }

    func testSelectAllMarksNoCloseMatch() throws {
        try tmux.file("input.txt", "Sources/main.swift\nSources/swift.c\nREADME.md\nMakefile\n")
        try tmux.start(input: "cat input.txt", args: "-m --bind ctrl-a:select-all,ctrl-t:toggle-all")
        tmux.waitFor(text: "4/4")
        tmux.type("swifr")
        tmux.waitFor(text: "close matches")
        tmux.keys("C-a")
        tmux.keys("C-t")
        tmux.keys("Tab")
        tmux.type("x")
        tmux.keys("BSpace")
        let rows = tmux.waitFor(text: "close matches")
        XCTAssertFalse(rows.contains { $0.contains("marked") || $0.contains(">*") || $0.contains(" *") },
                       "nothing marked:\n" + rows.joined(separator: "\n"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 1, "as fzf: nothing printed")
        XCTAssertEqual(tmux.stdout, "")
    }

    func testSelectOneDoesNotPickALoneCloseMatch() throws {
        // `-1` prints a lone match without showing anything; a lone close match is no match:
        // the picker opens on it, as fzf's does on nothing.
        try tmux.file("input.txt", list)
        try tmux.start(input: "cat input.txt", args: "-1 -q setitngs")
        let rows = tmux.waitFor(text: "close matches")
        XCTAssertTrue(rows.contains { $0.contains("0/4 +1 close") }, rows.joined(separator: "\n"))
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertEqual(tmux.stdout, "")
    }

    func testAcceptNonEmptyDoesNotAcceptACloseMatch() throws {
        try tmux.file("input.txt", list)
        try tmux.start(input: "cat input.txt", args: "--bind enter:accept-non-empty")
        tmux.waitFor(text: "4/4")
        tmux.type("setitngs")
        tmux.waitFor(text: "close matches")
        tmux.keys("Enter")
        tmux.keys("C-u")
        tmux.type("save")
        tmux.waitFor(text: "1/4")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "Save All\n", "the first Return did nothing")
    }

    func testAPaletteHighlightsTheFirstCloseMatchAndReturnPicksIt() throws {
        try tmux.file("input.txt", list)
        try tmux.start(input: "cat input.txt", args: "--palette")
        tmux.waitFor(text: "4/4")
        tmux.type("setitngs\r")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "Settings\n", "Return waits for the close matches")
    }

    func testTheDemoPaletteForgivesATypo() throws {
        try tmux.start(input: nil, args: "--demo")
        tmux.waitFor(text: "13/13")
        tmux.type("tgogle")
        let rows = tmux.waitFor(text: "close matches")
        let header = rows.firstIndex { $0.contains("close matches") }!
        XCTAssertTrue(rows[header + 1].hasPrefix("> Toggle Comment"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "Toggle Comment\tActions\tcomment,uncomment\tf8\n")
    }

    func testRealMatchesStayAboveTheCloseOnes() throws {
        try tmux.file("input.txt", list + "sxet things\n")
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "5/5")
        tmux.type("sethings")
        let rows = tmux.waitFor(text: "close matches")
        let header = rows.firstIndex { $0.contains("close matches") }!
        let real = rows.firstIndex { $0.contains("sxet things") }!
        XCTAssertLessThan(real, header)
        XCTAssertTrue(rows[header + 1].contains("Settings"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "sxet things\n", "the real match is first, and Return picks it")
    }

    func testNoTyposShowsNoCloseMatches() throws {
        try typeTypo(args: "--no-typos")
        let rows = tmux.waitFor(text: "No matches")
        XCTAssertFalse(rows.contains { $0.contains("close matches") || $0.contains("Settings") })
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 1, "nothing matched, nothing picked")
        XCTAssertEqual(tmux.stdout, "")
    }
}

/// `--filter` prints fzf's line sets; `--typos` adds the close matches after them.
final class FilterCloseMatchesTests: XCTestCase {
    private let lines = ["Open Recent", "Settings", "sxet things", "Save All", "settings.json"]

    func testFilterStaysExactWithoutTypos() throws {
        let run = try runPick(["--filter", "setitngs"], lines: lines)
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.lines, [])
        XCTAssertEqual(try runPick(["--filter", "sethings"], lines: lines).lines, ["sxet things"])
    }

    func testTyposAddsCloseMatchesAfterTheRealOnes() throws {
        let run = try runPick(["--typos", "--filter", "sethings"], lines: lines)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines.first, "sxet things", "the real match first")
        XCTAssertEqual(Set(run.lines.dropFirst()), ["Settings", "settings.json"])
        let typo = try runPick(["--typos", "--filter", "setitngs"], lines: lines)
        XCTAssertEqual(typo.status, 0, "close matches alone: something was printed")
        XCTAssertEqual(typo.lines.first, "Settings", "the closest first")
        XCTAssertEqual(Set(typo.lines), ["Settings", "settings.json"], "not the strewn letters of sxet things")
    }

    func testNoTyposAfterTyposTurnsThemOffAgain() throws {
        XCTAssertEqual(try runPick(["--typos", "--no-typos", "--filter", "setitngs"], lines: lines).status, 1)
    }
}
