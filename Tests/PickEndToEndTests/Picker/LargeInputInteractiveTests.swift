import Foundation
import XCTest

/// Typing into a large input (over 256K lines), where a keystroke's answer ranks the first
/// screens first and the rest after: the screen, the count and the pick must be what the
/// whole ranking (`pick --filter`) gives, also for a line past the first screens.
final class LargeInputInteractiveTests: InteractiveTestCase {
    private let count = 300_000

    private func input() throws -> String {
        let lines = (1...count).map { "src/mod\($0 % 97)/comp\($0 % 1013)/file-\($0).swift" }
        return try tmux.file("input.txt", lines.joined(separator: "\n") + "\n")
    }

    func testEachKeystrokeShowsTheWholeRankingsFirstLinesAndCount() throws {
        let path = try input()
        try tmux.start(input: nil, args: "< '\(path)'", width: 80, height: 16)
        tmux.waitFor(text: "\(count)/\(count)")
        var typed = ""
        for key in "mod9comp1f" {
            typed.append(key)
            tmux.type(String(key))
            let expected = try runPick(["--filter", typed], input: Data(contentsOf: URL(fileURLWithPath: path)))
                .lines
            let rows = tmux.waitFor("the answer to \(typed)") { rows in
                rows.contains { $0.hasPrefix("> \(typed)") }
                    && rows.contains { $0.contains("\(expected.count)/\(self.count)") }
            }
            // The list's rows, best first, as the whole ranking has them.
            // (The scrollbar's thumb left out.)
            let shown = rows.dropFirst(2).map { String($0.dropFirst(2)).trimmingCharacters(in: CharacterSet(charactersIn: " \u{2502}")) }
                .filter { !$0.isEmpty }
            XCTAssertEqual(shown, Array(expected.prefix(shown.count)), "rows for \(typed)")
            XCTAssertGreaterThan(shown.count, 5, "rows for \(typed)")
        }
        // Past the first screens at once: the line the whole ranking has there.
        for _ in 0..<5 { tmux.keys("PageDown") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        let expected = try runPick(["--filter", typed], input: Data(contentsOf: URL(fileURLWithPath: path)))
            .lines
        // A list of 14 rows (16, less the prompt and the count) pages by 13.
        XCTAssertEqual(tmux.stdout, expected[5 * 13] + "\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    /// Past two million matches a keystroke's first screen stands alone: the rest is ranked
    /// only when something needs it (`PickSession.defersWholeRanking`). Return still picks
    /// what `--filter` prints first (the whole ranking, run then).
    func testReturnOnTwoMillionMatchesPicksWhatFilterPrintsFirst() throws {
        let count = 2_500_000
        var text = ""
        text.reserveCapacity(count * 32)
        for i in 0..<count { text += "src/m\(i % 89)/p\(i % 997)/mod\(i).py\n" }
        let path = try tmux.file("input.txt", text)
        let query = "m1py"  // 2,052,362 matches
        let expected = try runPick(["--filter", query], input: Data(text.utf8)).lines
        XCTAssertGreaterThan(expected.count, 2_000_000)
        try tmux.start(input: nil, args: "< '\(path)'", width: 80, height: 16)
        tmux.waitFor(text: "\(count)/\(count)")
        tmux.type(query)
        let rows = tmux.waitFor("the answer to \(query)") { rows in
            rows.contains { $0.hasPrefix("> \(query)") } && rows.contains { $0.contains("\(expected.count)/\(count)") }
        }
        let shown = rows.dropFirst(2).map { String($0.dropFirst(2)).trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        XCTAssertEqual(shown, Array(expected.prefix(shown.count)), "the first screen is the whole ranking's")
        XCTAssertGreaterThan(shown.count, 5)
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, expected[0] + "\n")
    }
}
