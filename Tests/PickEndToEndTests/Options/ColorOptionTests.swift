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

    func testNamesPickDoesNotDrawAreRefused() throws {
        for (item, why) in [("prompt:red", "the line editor draws it"), ("bg:red", "background"),
                            ("bw,hl:red", "stands alone")] {
            let run = try runPick(["--color", item], input: Data("a\n".utf8))
            XCTAssertEqual(run.status, 2, item)
            XCTAssertTrue(run.stderr.hasPrefix("pick: invalid value for --color: '\(item.split(separator: ",")[0])'"), run.stderr)
            XCTAssertTrue(run.stderr.contains(why), run.stderr)
        }
    }
}
