import Foundation
import XCTest

/// A tab in the input is text unless `--palette` asks for fields: the pipes people use
/// every day (grep -rn on indented code, git log with %x09, a TSV) show whole lines, in
/// input order, and never bind keys or regroup the list.
final class InteractiveTabbedInputTests: InteractiveTestCase {
    func testGrepOutputOfTabIndentedCodeShowsTheCodeInInputOrder() throws {
        try FileManager.default.createDirectory(at: tmux.dir.appendingPathComponent("src"), withIntermediateDirectories: true)
        try tmux.file("src/main.c", "int main(void) {\n\tif (ready) {\n\t\treturn 0;\n\t}\n}\n")
        try tmux.start(input: "grep -rn '' src", args: "")
        let rows = tmux.waitFor(text: "5/5")
        XCTAssertFalse(rows[row: 1].contains("·"), "no scope bar made of code: \(rows[row: 1])")
        // Tabs drawn as blank space to the next tab stop (8 columns from the title's start).
        XCTAssertEqual(Array(rows[2...6]), ["> src/main.c:1:int main(void) {",
                                            "  src/main.c:2:   if (ready) {",
                                            "  src/main.c:3:           return 0;",
                                            "  src/main.c:4:   }",
                                            "  src/main.c:5:}"], "the code, whole and in input order")
        tmux.type("return")
        tmux.waitFor(text: "1/5")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "src/main.c:3:\t\treturn 0;\n")
    }

    func testGitLogWithTabsShowsWholeLinesNotHashesGroupedByAuthor() throws {
        try tmux.file("log.txt", "a1b2c3d\tAda Lovelace\tFix the parser\n0f3e9a1\tGrace Hopper\tAdd a compiler\n"
                      + "77aa001\tAda Lovelace\tTest the parser\n")
        try tmux.start(input: "cat log.txt", args: "")
        let rows = tmux.waitFor(text: "3/3")
        XCTAssertEqual(Array(rows[2...4]), ["> a1b2c3d Ada Lovelace    Fix the parser",
                                            "  0f3e9a1 Grace Hopper    Add a compiler",
                                            "  77aa001 Ada Lovelace    Test the parser"],
                       "every line whole, in input order, no author headers")
        tmux.type("hopper comp")
        tmux.waitFor(text: "1/3")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "0f3e9a1\tGrace Hopper\tAdd a compiler\n")
    }

    func testAFourthColumnNamingAKeyBindsNothingWithoutPalette() throws {
        let tsv = "id\tname\tnotes\tkey\n1\tsave\twrite to disk\tf5\n2\topen\tread\tf6\n"
        try tmux.file("data.tsv", tsv)
        try tmux.start(input: "cat data.tsv", args: "")
        tmux.waitFor(text: "3/3")
        tmux.keys("F5")
        // Keys are handled in order: once `x` shows in the query, F5 was pressed and picked
        // nothing.
        tmux.type("x")
        tmux.waitFor("the query after F5") { $0[row: 0] == "> x" }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertEqual(tmux.stdout, "")

        // Asked for, the same column is a shortcut.
        tmux.close()
        tmux = try TmuxPick(test: name + "palette")
        try tmux.file("data.tsv", tsv)
        try tmux.start(input: "cat data.tsv", args: "--palette")
        tmux.waitFor(text: "3/3")
        tmux.keys("F5")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "1\tsave\twrite to disk\tf5\n")
    }
}
