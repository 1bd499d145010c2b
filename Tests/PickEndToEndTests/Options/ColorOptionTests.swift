import Foundation
import XCTest

/// `--color` names that pick draws change the screen; fzf's names it does not draw are
/// refused, saying why, rather than accepted and ignored.
final class ColorOptionTests: InteractiveTestCase {
    func testFgColoursTheRowsThatAreNotSelected() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "--color=fg:red")
        tmux.waitFor(text: "2/2")
        let rows = tmux.screenWithEscapes().components(separatedBy: "\n")
        let banana = try XCTUnwrap(rows.first { $0.contains("banana") })
        XCTAssertTrue(banana.contains("\u{1B}[31m"), "the row is red: \(banana.debugDescription)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "apple\n")
    }

    /// fzf's names for parts pick does not colour yet are accepted, as fzf's are, and
    /// change nothing; `bw` still stands alone, and a name fzf does not have is refused.
    func testFzfsNamesPickDoesNotColourYetAreAccepted() throws {
        for item in ["prompt:red", "bg:red", "query:#c0caf5:regular", "selected-bg:#45475a"] {
            let run = try runPick(["--color", item, "-f", "a"], input: Data("a\n".utf8))
            XCTAssertEqual(run.stderr, "", item)
            XCTAssertEqual(run.status, 0, item)
        }
        for (item, why) in [("bw,hl:red", "stands alone"), ("nothing:red", "with name one of")] {
            let run = try runPick(["--color", item], input: Data("a\n".utf8))
            XCTAssertEqual(run.status, 2, item)
            XCTAssertTrue(run.stderr.hasPrefix("pick: invalid value for --color: '\(item.split(separator: ",")[0])'"), run.stderr)
            XCTAssertTrue(run.stderr.contains(why), run.stderr)
        }
    }
}
