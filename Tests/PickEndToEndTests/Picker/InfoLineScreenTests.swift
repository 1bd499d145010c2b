import Foundation
import XCTest

/// The info line in each of fzf's `--info` styles, its separator and `--info-command`, as
/// fzf 0.74.5 draws them for the same options (its `--layout=reverse`, pick's default), read
/// from fzf in tmux at the same size.
final class InfoLineScreenTests: InteractiveTestCase {
    private func rule(_ n: Int) -> String { String(repeating: "─", count: n) }
    /// A list row of 60 columns with the scrollbar's thumb at its end.
    private func barred(_ row: String, _ glyph: String = "│") -> String {
        row + String(repeating: " ", count: 59 - row.count) + glyph
    }

    func testEachStyleDrawsTheCountsAndTheSeparatorWhereFzfDoes() throws {
        let cases: [(args: String, rows: [String])] = [
            ("", [">", "  20/20 " + rule(51), barred("> 1")]),
            ("--info=right", [">", rule(53) + " 20/20", barred("> 1")]),
            ("--info=hidden", [">", rule(59), barred("> 1")]),
            ("--info=hidden --no-separator", [">", barred("> 1"), barred("  2")]),
            ("--info=inline", [">   < 20/20 " + rule(47), barred("> 1"), barred("  2")]),
            ("--info=inline:XX --separator=-=", [">  XX20/20 " + String(String(repeating: "-=", count: 24).prefix(48)),
                                                 barred("> 1")]),
            ("--info=inline-right", [">" + String(repeating: " ", count: 53) + "20/20", rule(59), barred("> 1")]),
            ("--info=inline-right:XX --no-separator", [">" + String(repeating: " ", count: 51) + "XX20/20", barred("> 1")]),
            ("--info=right --no-separator", [">", String(repeating: " ", count: 54) + "20/20", barred("> 1")]),
            ("--no-unicode", [">", "  20/20 " + String(repeating: "-", count: 51), barred("> 1", "|")]),
            // fzf's suite (test_ghost_inline): the counts follow the ghost text at once.
            ("--info='inline: Y' --no-separator --prompt 'X ' --ghost 'Type in query ...'",
             ["X Type in query ... Y20/20", barred("> 1")]),
        ]
        for c in cases {
            tmux.close()
            tmux = try TmuxPick(test: name + c.args)
            try tmux.start(input: "seq 20", args: c.args, width: 60, height: 8)
            let rows = tmux.waitFor("\(c.args): the first frame") { $0[row: c.rows.count - 1] == c.rows.last! }
            XCTAssertEqual(Array(rows.prefix(c.rows.count)), c.rows, c.args)
        }
    }

    func testAGivenSeparatorIsDrawnBesideABorderTheDefaultIsNot() throws {
        // fzf's: a border between the counts and the list stands for the default rule only.
        try tmux.start(input: "seq 20", args: "--input-border --separator '='", width: 30, height: 8)
        var rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(rows[row: 2], "│   20/20 " + String(repeating: "=", count: 18) + " │")
        tmux.close()
        tmux = try TmuxPick(test: name + "default")
        try tmux.start(input: "seq 20", args: "--input-border", width: 30, height: 8)
        rows = tmux.waitFor(text: "20/20")
        XCTAssertEqual(rows[row: 2].replacingOccurrences(of: " ", with: ""), "│20/20│")
    }

    func testTheSeparatorRepeatsItsColoursAndTabsAsFzfs() throws {
        // fzf's suite: `--tabstop 4 --separator $'\x1b[33ma\tb'`.
        try tmux.start(input: "seq 100", args: "-q55 --tabstop 4 --separator \"$(printf '\\033[33ma\\tb')\"", width: 40, height: 6)
        let rows = tmux.waitFor(text: "1/100")
        XCTAssertEqual(rows[row: 1], "  1/100 a   ba   ba   ba   ba   ba   ba")
        let cells = StyledScreen(tmux.screenWithEscapes()).cells(of: "a   b")
        XCTAssertEqual(cells.first?.foreground, "33", "the separator's own colour")
    }

    func testTheSpinnerTurnsWhereFzfsDoesWhileInputArrives() throws {
        let spinner = "[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]"
        let cases: [(args: String, row: Int, pattern: String)] = [
            ("", 1, "^\(spinner) 3/3 ─+$"),
            ("--info=right", 1, "^─+ \(spinner) 3/3$"),
            ("--info=inline", 0, "^>   < 3/3 \(spinner) ─+$"),
            ("--info=inline-right", 0, "^> +\(spinner) 3/3$"),
        ]
        for c in cases {
            tmux.close()
            tmux = try TmuxPick(test: name + c.args)
            try tmux.start(input: "(seq 3; sleep 10)", args: c.args, width: 60, height: 8)
            let rows = tmux.waitFor("\(c.args): loading") { $0[row: c.row].contains("3/3") }
            XCTAssertNotNil(rows[row: c.row].range(of: c.pattern, options: .regularExpression),
                            "\(c.args): \(rows[row: c.row])")
            tmux.keys("C-c")
        }
    }

    func testInfoCommandTakesTheCountsPlaceAndFollowsTheFocus() throws {
        // fzf's suite: FZF_INFO holds the counts; the output's colours are kept.
        let command = #"--separator x --info-command 'echo -e "--\x1b[33m$FZF_POS\x1b[m/$FZF_INFO--"'"#
        try tmux.start(input: "seq 10000", args: command, width: 40, height: 6)
        var rows = tmux.waitFor("the command's output") { $0[row: 1].hasPrefix("  --1/10000/10000-- xx") }
        XCTAssertEqual(rows[row: 1], "  --1/10000/10000-- " + String(repeating: "x", count: 19))
        XCTAssertEqual(StyledScreen(tmux.screenWithEscapes()).cells(of: "1/10000/").first?.foreground, "33")
        tmux.keys("Down")
        rows = tmux.waitFor("run again for the new focus") { $0[row: 1].hasPrefix("  --2/10000/10000-- xx") }
        tmux.type("99")
        rows = tmux.waitFor("run again for the new counts") { $0[row: 1].hasPrefix("  --1/523/10000-- xx") }
        XCTAssertEqual(rows[row: 0], "> 99")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "99\n")
    }

    func testInfoCommandInTheInlineStyles() throws {
        let command = #"--info-command 'echo -e "--$FZF_POS/$FZF_INFO--"'"#
        try tmux.start(input: "seq 10000", args: command + " --separator x --info inline:xx", width: 40, height: 6)
        tmux.waitFor("inline") { $0[row: 0] == ">  xx--1/10000/10000-- " + String(repeating: "x", count: 16) }
        tmux.close()
        tmux = try TmuxPick(test: name + "right")
        try tmux.start(input: "seq 10000", args: command + " --info inline-right", width: 40, height: 6)
        tmux.waitFor("inline-right") { $0[row: 0] == ">" + String(repeating: " ", count: 21) + "--1/10000/10000--" }
    }

    func testFzfInfoSaysTheTrackedLineAsFzfsDoes() throws {
        // fzf 0.74 writes `[5/5 +t]` here once track-current follows the line.
        try tmux.start(input: "seq 5", args: #"--info-command 'echo "[$FZF_INFO]"' --bind 'ctrl-t:track-current'"#,
                       width: 40, height: 8)
        tmux.waitFor(text: "[5/5]")
        tmux.keys("C-t")
        tmux.waitFor(text: "[5/5 +t]")
    }

    func testASlowInfoCommandNeverHoldsTheKeysBack() throws {
        try tmux.start(input: "seq 100", args: "--info-command 'sleep 5; echo late'", width: 40, height: 6)
        tmux.waitFor(text: "100/100")
        tmux.type("42")
        let rows = tmux.waitFor("the query answered while the command sleeps") { $0[row: 2] == "> 42" }
        XCTAssertEqual(rows[row: 1], tmux.infoRow("1/100", columns: 40), "the counts until the first output")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "42\n")
    }
}
