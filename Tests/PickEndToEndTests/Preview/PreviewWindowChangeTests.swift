import Foundation
import XCTest

/// The preview pane as fzf's users change it while pick runs: change-preview-window over
/// the window given, change-preview and refresh-preview, a pane of size 0, following a
/// growing output, and the pane's scrollbar.
final class PreviewWindowChangeTests: InteractiveTestCase {
    /// The text of a right-hand pane's row: what follows its left border, bars dropped.
    private func pane(_ row: String) -> String {
        guard let bar = row.range(of: "│ ") else { return "" }
        return String(row[bar.upperBound...]).replacingOccurrences(of: "│", with: "")
            .trimmingCharacters(in: .whitespaces)
    }

    /// The lines of the file at `path` once they are `expected`, or the test fails at the
    /// deadline (a preview's side effect lands a moment after the key).
    private func waitForLines(_ path: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) {
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var lines: [String] = []
        repeat {
            lines = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if lines == expected { return }
            usleep(20_000)
        } while Date() < end
        XCTAssertEqual(lines, expected, file: file, line: line)
    }

    func testChangePreviewWindowShowsAHiddenPaneAndAnEmptyLayoutHidesItAgain() throws {
        try tmux.start(input: "seq 100", args: "--bind '?:change-preview-window:up||down|' --preview 'echo =={}==' "
                       + "--preview-window hidden,down,1", width: 60, height: 12)
        var rows = tmux.waitFor(text: "100/100")
        XCTAssertFalse(rows.contains { $0.contains("==1==") })
        tmux.type("?")
        rows = tmux.waitFor("the pane on top") { $0[row: 1].contains("==1==") }
        tmux.type("?")
        rows = tmux.waitFor("the pane hidden again") { !$0.contains { $0.contains("==1==") } }
        tmux.type("?")
        rows = tmux.waitFor("the pane below, one row") { $0[row: 10].contains("==1==") && $0[row: 11].hasPrefix("╰") }
        tmux.type("?")
        tmux.waitFor("hidden once more") { !$0.contains { $0.contains("==1==") } }
        tmux.type("?")
        tmux.waitFor("round to the top") { $0[row: 1].contains("==1==") }
    }

    func testANextPaneSitsBetweenTheListAndThePromptAndToggles() throws {
        try tmux.start(input: "seq 5", args: "--layout default --preview 'echo =={}==' --preview-window next,2,hidden "
                       + "--bind space:toggle-preview", width: 40, height: 12)
        var rows = tmux.waitFor(text: "5/5")
        XCTAssertTrue(rows[row: 10].hasPrefix("  5/5 ─"), "hidden: the rule after the counts")
        tmux.keys("Space")
        rows = tmux.waitFor("the pane above the counts") { $0[row: 7].hasPrefix("│ ==1==") }
        XCTAssertTrue(rows[row: 6].hasPrefix("╭"), "its border right under the list")
        XCTAssertTrue(rows[row: 5].hasPrefix("> 1"))
        XCTAssertTrue(rows[row: 9].hasPrefix("╰"))
        XCTAssertEqual(rows[row: 10].trimmingCharacters(in: .whitespaces), "5/5", "the pane's border stands for the rule")
        tmux.keys("Space")
        tmux.waitFor("hidden again, the list down to the counts") { $0[row: 9].hasPrefix("> 1") && $0[row: 10].hasPrefix("  5/5 ─") }
    }

    func testAOneRowPaneItsLineFillsSaysOneOfOne() throws {
        // fzf's: the text fills the pane, so its place in the output shows.
        try tmux.start(input: "seq 5", args: "--preview 'echo =={}==' --preview-window down,1,border-none", width: 40, height: 8)
        let rows = tmux.waitFor("the pane's line") { $0[row: 7].hasPrefix("==1==") }
        XCTAssertTrue(rows[row: 7].hasSuffix(" 1/1"), rows[row: 7])
    }

    func testAPaneOfSizeZeroRunsItsCommandUnseenForEachLine() throws {
        let log = tmux.dir.appendingPathComponent("seen").path
        try tmux.start(input: "seq 100", args: "--preview 'echo {} >> seen' --preview-window 0 --bind space:toggle-preview",
                       width: 60, height: 12)
        tmux.waitFor(text: "100/100")
        waitForLines(log, ["1"])
        XCTAssertFalse(tmux.screen().contains { $0.contains("╮") || $0.contains("╰") }, "nothing of the pane shows")
        tmux.keys("Space", "Down", "Down")
        tmux.waitFor("the third line") { $0.contains { $0.hasPrefix("> 3") } }
        tmux.keys("Space", "Down")
        tmux.waitFor("the fourth line") { $0.contains { $0.hasPrefix("> 4") } }
        waitForLines(log, ["1", "3", "4"])
    }

    func testChangePreviewWithNoCommandClosesThePaneAndACommandOpensIt() throws {
        try tmux.start(input: "seq 10", args: "--preview 'echo [{}]' --bind 'a:change-preview(),b:change-preview(echo ={}=)'",
                       width: 60, height: 10)
        tmux.waitFor(text: "[1]")
        tmux.type("a")
        var rows = tmux.waitFor("the pane closed") { !$0.contains { $0.contains("[1]") || $0.contains("╮") } }
        XCTAssertTrue(rows[row: 2].hasPrefix("> 1"), "the list takes the room")
        tmux.type("b")
        rows = tmux.waitFor(text: "=1=")
    }

    func testAChangePreviewBindingAloneGivesPickAPane() throws {
        try tmux.start(input: "seq 3", args: "--preview-window up,border-none --bind 'start:change-preview(echo hello {})' "
                       + "--bind 'enter:change-preview-window(border-left)'", width: 60, height: 10)
        tmux.waitFor("hello on top") { $0[row: 0] == "hello 1" }
        tmux.keys("Enter")
        tmux.waitFor("the same command in a pane with a left border") { $0[row: 0] == "│ hello 1" }
    }

    func testRefreshPreviewRunsThePanesOwnCommandNotAOneOff() throws {
        try tmux.start(input: "seq 10", args: "--preview 'echo [{}]' --bind 'a:preview(echo [{}{}]),c:refresh-preview'",
                       width: 60, height: 10)
        tmux.waitFor(text: "[1]")
        tmux.type("a")
        tmux.waitFor(text: "[11]")
        tmux.type("c")
        let rows = tmux.waitFor(text: "[1]")
        XCTAssertFalse(rows.contains { $0.contains("[11]") })
    }

    func testFollowStopsWhenScrolledUpAndResumesBackAtTheEnd() throws {
        let path = try tmux.file("growing", (1...50).map(String.init).joined(separator: "\n") + "\n")
        try tmux.start(input: "echo x", args: "--preview 'tail -n +1 -f growing' --preview-window follow "
                       + "--bind 'up:preview-up,down:preview-down,space:change-preview-window(nofollow)+change-prompt(nf> )'",
                       width: 60, height: 10)
        var rows = tmux.waitFor("the end in view") { self.pane($0[row: 8]) == "50" }
        let growing = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? growing.close() }
        growing.seekToEndOfFile()
        tmux.keys("Up")
        rows = tmux.waitFor("a line up") { self.pane($0[row: 8]) == "49" }
        growing.write(Data("51\n".utf8))
        tmux.keys("Down")
        rows = tmux.waitFor("back at the end") { self.pane($0[row: 8]) == "50" }
        tmux.keys("Down")
        rows = tmux.waitFor("the line written while scrolled up") { self.pane($0[row: 8]) == "51" }
        growing.write(Data("52\n".utf8))
        rows = tmux.waitFor("following again") { self.pane($0[row: 8]) == "52" }
        tmux.keys("Space")
        // The prompt changes in the same chain: once it shows, follow is off, and only then the file grows.
        tmux.waitFor("nofollow in effect") { $0.contains { $0.hasPrefix("nf> ") } }
        growing.write(Data("53\n54\n".utf8))
        rows = tmux.waitFor(text: "45/54")
        XCTAssertEqual(pane(rows[row: 8]), "52", "nofollow: the view stays where it was")
    }

    func testThePanesScrollbarShowsWhereTheViewIs() throws {
        try tmux.start(input: "echo x", args: "--preview 'seq 40' --preview-window noinfo", width: 60, height: 10)
        var rows = tmux.waitFor(text: "│ 1 ")
        // 8 rows of 40 lines: a thumb of one row, in the column before the right border.
        XCTAssertTrue(rows[row: 1].hasSuffix("││"), rows.joined(separator: "\n"))
        XCTAssertTrue(rows[row: 8].hasSuffix(" │"), rows.joined(separator: "\n"))
        tmux.keys("S-Down")
        tmux.waitFor("scrolled one line") { self.pane($0[row: 1]) == "2" }
        tmux.keys("S-NPage", "S-NPage", "S-NPage", "S-NPage", "S-NPage")
        rows = tmux.waitFor("at the end") { self.pane($0[row: 8]) == "40" }
        XCTAssertTrue(rows[row: 8].hasSuffix("││"), "the thumb at the bottom\n" + rows.joined(separator: "\n"))
        XCTAssertTrue(rows[row: 1].hasSuffix(" │"), rows.joined(separator: "\n"))
    }

    func testNoScrollbarLeavesThePanesSideBlank() throws {
        try tmux.start(input: "echo x", args: "--preview 'seq 40' --preview-window noinfo --no-scrollbar", width: 60, height: 10)
        let rows = tmux.waitFor(text: "│ 1 ")
        XCTAssertFalse(rows.contains { $0.hasSuffix("││") }, rows.joined(separator: "\n"))
    }

    func testALongPreviewLineIsCutAtThePanesEdgeWithoutAnEllipsis() throws {
        try tmux.start(input: "echo x", args: "--preview 'printf \"%s\\n\" {}; seq -s- 40'", width: 60, height: 10)
        let rows = tmux.waitFor(text: "1-2-3")
        let row = rows.first { $0.contains("1-2-3") } ?? ""
        XCTAssertFalse(row.contains("…"), "as fzf: no ellipsis in the pane\n" + row)
        let text = (1...40).map(String.init).joined(separator: "-")
        XCTAssertEqual(pane(row), String(text.prefix(26)), "the pane's 26 columns of text, all of them the line's")
    }

    func testFilePlaceholdersEndEachValueWithNulUnderPrint0() throws {
        try tmux.start(input: "printf 'foo bar\\nbar foo\\n'",
                       args: "--multi --print0 --bind space:select-all --preview 'tr \"\\\\000\\\\n\" \"0N\" < {+f}; echo'",
                       width: 60, height: 10)
        tmux.waitFor(text: "foo bar0 ")
        tmux.keys("Space")
        let rows = tmux.waitFor(text: "foo bar0bar foo0")
        XCTAssertFalse(rows.contains { $0.contains("N") && $0.contains("foo bar") }, "no newline between the values")
    }
}
