import Foundation
import XCTest

/// `pick --filter`: the matches in display order through a pipe, exit 0 or 1.
final class FilterModeTests: XCTestCase {
    private let palette = [
        "New File\tCreate\tadd,touch\tf2",
        "Save\tActions\twrite,store\tf5",
        "Go to Line\tGo to\tjump,number\tf9",
        "New Folder\tCreate\tmkdir\tf3",
        "Go to File\tGo to\topen\tf10",
        "Find in Files\tActions\tsearch,grep\tf7",
    ]

    func testFilterPrintsMatchesBestFirstAndExitsZero() throws {
        let run = try runPick(["--filter", "main"], lines: ["README.md", "src/domain.c", "main.swift", "x/m/a/i/n"])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines.first, "main.swift")
        XCTAssertEqual(Set(run.lines), ["src/domain.c", "main.swift", "x/m/a/i/n"])
        XCTAssertEqual(run.stderr, "")
    }

    func testShortFlagAndEqualsFormWork() throws {
        let lines = ["alpha", "beta", "gamma"]
        XCTAssertEqual(try runPick(["-f", "bet"], lines: lines).lines, ["beta"])
        XCTAssertEqual(try runPick(["-fbet"], lines: lines).lines, ["beta"])
        XCTAssertEqual(try runPick(["--filter=bet"], lines: lines).lines, ["beta"])
    }

    func testAnsiMatchesAndPrintsTheVisibleTextOnly() throws {
        // As `ls --color=always` writes them: the codes' digits must not match.
        let listing = ["\u{1B}[01;34mopt\u{1B}[0m", "\u{1B}[01;34mtmp\u{1B}[0m", "\u{1B}[0m\u{1B}[01;36mlib64\u{1B}[0m"]
        XCTAssertEqual(try runPick(["--ansi", "-f", "34"], lines: listing).status, 1)
        XCTAssertEqual(try runPick(["--ansi", "-f", "tm"], lines: listing).lines, ["tmp"])
        XCTAssertEqual(try runPick(["--ansi", "-f", ""], lines: listing).lines, ["opt", "tmp", "lib64"])
        XCTAssertEqual(try runPick(["--ansi", "--complete", "li"], lines: listing).lines, ["lib64"])
        let plain = try runPick(["-f", "tmp"], lines: listing)
        XCTAssertEqual(plain.lines, [listing[1]], "without --ansi a line is printed byte for byte")
    }

    func testNoMatchPrintsNothingAndExitsOne() throws {
        let run = try runPick(["-f", "zzzq"], lines: ["alpha", "beta"])
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, Data())
        XCTAssertEqual(run.stderr, "")
    }

    func testEmptyInputExitsOne() throws {
        let run = try runPick(["-f", ""], input: Data())
        XCTAssertEqual(run.status, 1)
        XCTAssertEqual(run.stdout, Data())
    }

    func testEmptyQueryPrintsInputOrderGroupedBySection() throws {
        let run = try runPick(["--palette", "-f", ""], lines: palette)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines, [palette[0], palette[3], palette[1], palette[5], palette[2], palette[4]])
    }

    func testTypingASectionNameShowsThatSectionFirst() throws {
        let run = try runPick(["--palette", "-f", "go to"], lines: palette)
        XCTAssertEqual(Array(run.lines.prefix(2)), [palette[2], palette[4]])
    }

    func testKeywordFindsItsLine() throws {
        XCTAssertEqual(try runPick(["--palette", "-f", "grep"], lines: palette).lines, [palette[5]])
    }

    func testResultsAreGroupedBySectionInFirstAppearanceOrder() throws {
        // "file": Go to File and New File are the best matches; groups follow their order.
        let run = try runPick(["--palette", "-f", "'file"], lines: palette)
        let sections = run.lines.map { $0.split(separator: "\t").dropFirst().first.map(String.init) ?? "" }
        var seen: [String] = []
        for s in sections where seen.last != s {
            XCTAssertFalse(seen.contains(s), "section \(s) appears twice in \(run.lines)")
            seen.append(s)
        }
        XCTAssertEqual(Set(run.lines), [palette[0], palette[4], palette[5]])
    }

    /// A tab is text unless --palette asks for fields: on tabbed input (grep -rn on
    /// tab-indented code, git log with %x09, a TSV) --filter prints the lines fzf 0.74's
    /// `--filter` prints for the same query (checked side by side; tools/fzf-parity.py
    /// compares many more).
    func testTabbedInputMatchesTheLinesFzfMatches() throws {
        let lines = ["src/main.c:1:#include <stdio.h>", "src/main.c:2:int main(void) {", "src/main.c:3:\tprintf(\"hi\");",
                     "src/main.c:4:\treturn 0;", "src/main.c:5:}", "a1b2c3d\tAda Lovelace\tFix the parser",
                     "0f3e9a1\tGrace Hopper\tAdd a compiler", "id\tname\tnotes\tf5", "42\tsave\twrite to disk\tf5"]
        let fzf: [String: Set<Int>] = [
            "mainreturn": [3], "c:3:print": [2], "ada fix": [5], "^grace": [], "hopper compiler": [6],
            "lovelace parser": [5], "savewrite": [8], "f5$": [7, 8], "^42": [8], "'0;": [3], "disk f5": [8],
            "notes": [7],
        ]
        for (query, expected) in fzf {
            let run = try runPick(["-f", query], lines: lines)
            XCTAssertEqual(Set(run.lines), Set(expected.map { lines[$0] }), query)
            XCTAssertEqual(run.status, expected.isEmpty ? 1 : 0, query)
        }
        XCTAssertEqual(try runPick(["-f", ""], lines: lines).lines, lines, "an empty query keeps input order, ungrouped")
    }

    func testQueryOptionIsIgnoredInFilterMode() throws {
        let run = try runPick(["-q", "zzz", "-f", "alp"], lines: ["alpha", "beta"])
        XCTAssertEqual(run.lines, ["alpha"])
        XCTAssertEqual(run.status, 0)
    }

    func testSelectOneAndExitZeroChangeNothingInFilterMode() throws {
        let lines = ["alpha", "alps", "beta"]
        XCTAssertEqual(try runPick(["-1", "-f", "alp"], lines: lines).lines, ["alps", "alpha"])
        XCTAssertEqual(try runPick(["-1", "-f", "bet"], lines: lines).lines, ["beta"])
        let none = try runPick(["-0", "-f", "zz"], lines: lines)
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, Data())
    }

    func testNoSortAndTac() throws {
        let lines = ["xaxbxc", "abc", "a b c", "zzz"]
        XCTAssertEqual(try runPick(["-f", "abc", "--no-sort"], lines: lines).lines, ["xaxbxc", "abc", "a b c"])
        XCTAssertEqual(try runPick(["-f", "abc", "+s", "--tac"], lines: lines).lines, ["a b c", "abc", "xaxbxc"])
        XCTAssertEqual(try runPick(["-f", "", "--tac"], lines: ["1", "2", "3"]).lines, ["3", "2", "1"])
    }

    func testTiebreakOption() throws {
        let lines = ["xx foo", "x foo yyyyy"]
        XCTAssertEqual(try runPick(["-f", "'foo"], lines: lines).lines, ["xx foo", "x foo yyyyy"])
        XCTAssertEqual(try runPick(["-f", "'foo", "--tiebreak=begin"], lines: lines).lines, ["x foo yyyyy", "xx foo"])
    }

    func testExactAndCaseFlags() throws {
        let lines = ["fxo", "foo", "FOO"]
        XCTAssertEqual(try runPick(["-e", "-f", "fo"], lines: lines).lines.sorted(), ["FOO", "foo"])
        XCTAssertEqual(try runPick(["-e", "+i", "-f", "fo"], lines: lines).lines, ["foo"])
        XCTAssertEqual(try runPick(["-i", "-f", "FO"], lines: lines).lines.sorted(), ["FOO", "foo", "fxo"])
    }

    func testFoldingAndLiteral() throws {
        let lines = ["Café", "йогурт", "άλφα", "plain"]
        XCTAssertEqual(try runPick(["-f", "cafe"], lines: lines).lines, ["Café"])
        XCTAssertEqual(try runPick(["-f", "иогурт"], lines: lines).lines, ["йогурт"])
        XCTAssertEqual(try runPick(["-f", "αλφα"], lines: lines).lines, ["άλφα"])
        XCTAssertEqual(try runPick(["-f", "cafe", "--literal"], lines: lines).status, 1)
    }

    func testDefaultOptionsApplyAndTheCommandLineWins() throws {
        let lines = ["1", "2", "3"]
        XCTAssertEqual(try runPick(["-f", ""], lines: lines, environment: ["PICK_DEFAULT_OPTS": "--tac"]).lines,
                       ["3", "2", "1"])
        XCTAssertEqual(try runPick(["-f", "", "--no-tac"], lines: lines,
                                   environment: ["PICK_DEFAULT_OPTS": "--tac"]).lines, ["1", "2", "3"])
    }

    func testHeaderLinesAreNeitherMatchedNorPrinted() throws {
        let run = try runPick(["-f", "name", "--header-lines=1"], lines: ["NAME", "alpha", "name2"])
        XCTAssertEqual(run.lines, ["name2"])
        let all = try runPick(["-f", "", "--header-lines", "2"], lines: ["H1", "H2", "a", "b"])
        XCTAssertEqual(all.lines, ["a", "b"])
    }

    func testPrintQueryPrintsTheFilterQueryFirst() throws {
        let run = try runPick(["-f", "bet", "--print-query"], lines: ["alpha", "beta"])
        XCTAssertEqual(run.lines, ["bet", "beta"])
        let none = try runPick(["-f", "zz", "--print-query"], lines: ["alpha"])
        XCTAssertEqual(none.lines, ["zz"])
        XCTAssertEqual(none.status, 1)
    }

    func testDemoPaletteInFilterMode() throws {
        let run = try runPick(["--demo", "--filter", ""])
        XCTAssertEqual(run.status, 0)
        XCTAssertGreaterThanOrEqual(run.lines.count, 12)
        let sections = Set(run.lines.compactMap { $0.split(separator: "\t").dropFirst().first.map(String.init) })
        XCTAssertEqual(sections.count, 3, "three sections: \(sections)")
        XCTAssertTrue(run.lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count >= 3 })
    }

    func testManyLinesArriveWhole() throws {
        let lines = (0..<200_000).map { "dir\($0 % 97)/file\($0).txt" }
        let run = try runPick(["-f", ""], lines: lines)
        XCTAssertEqual(run.lines.count, 200_000)
        XCTAssertEqual(run.lines.last, lines.last)
        let some = try runPick(["-f", "'file19999"], lines: lines)
        XCTAssertEqual(some.lines.first, "dir17/file19999.txt")
        XCTAssertEqual(some.lines.count, 11)
    }
}
