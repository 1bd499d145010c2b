import Foundation
import XCTest

/// Orders of `--filter` that fzf's suite checks, as fzf prints them.
final class FilterFzfOrderTests: XCTestCase {
    /// A query made only of negations scores every line alike: input order, as fzf.
    func testAQueryOfOnlyNegationsKeepsInputOrder() throws {
        let lines = ["bbb", "a", "cc", "ab", "xyz"]
        XCTAssertEqual(try runPick(["--filter", "!x"], lines: lines).lines, ["bbb", "a", "cc", "ab"])
        XCTAssertEqual(try runPick(["--filter", "!x !^c"], lines: lines).lines, ["bbb", "a", "ab"])
        // A positive term sorts again.
        XCTAssertEqual(try runPick(["--filter", "!x b"], lines: lines).lines, ["bbb", "ab"])
        XCTAssertEqual(try runPick(["--filter", "!x a"], lines: lines).lines, ["a", "ab"])
    }
}
