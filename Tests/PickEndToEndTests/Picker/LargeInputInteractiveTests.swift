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
    /// what `--filter` prints first (the whole ranking, run then), and PageDowns past the rows
    /// shown land where the whole ranking has them: one at a time, or typed with the last key
    /// (before its answer, over the older query's first screen). (The point is lowered to
    /// 50,000 matches here: a debug build takes seconds a key at two million lines.)
    func testAFirstScreenWhoseRestWaitsPicksWhatFilterPrintsFirst() throws {
        let cases = [("modcompfile", 0, false), ("mod1comp", 3, false), ("mod1comp", 3, true)]
        for (k, (query, pages, atOnce)) in cases.enumerated() {
            if k > 0 {
                tmux.close()
                tmux = try TmuxPick(test: name)
            }
            let path = try input()
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let expected = try runPick(["--filter", query], input: data).lines
            XCTAssertGreaterThan(expected.count, 50_000, query)
            try tmux.start(input: nil, args: "< '\(path)'", width: 80, height: 16,
                           environment: ["PICK_DEFER_RANKING_FROM": "50000"])
            tmux.waitFor(text: "\(count)/\(count)")
            var typed = ""
            var rows: [String] = []
            for key in atOnce ? query.dropLast() : query[...] {
                typed.append(key)
                tmux.type(String(key))
                rows = tmux.waitFor("the answer to \(typed)") { rows in
                    rows.contains { $0.hasPrefix("> \(typed)") }
                        && rows.contains { $0.contains("/\(self.count)") && !$0.contains("…") }
                }
            }
            // A list of 14 rows (16, less the prompt and the count) pages by 13.
            if atOnce {
                // The last key and the pages at once: they come before its answer, over the
                // older query's first screen.
                tmux.type(String(query.last!))
                tmux.keys("PageDown", "PageDown", "PageDown")
                let line = expected[3 * 13]
                tmux.waitFor("3 pages at once on \(line)") { rows in rows.contains { $0.hasPrefix("> " + line) } }
            } else {
                XCTAssertTrue(rows.contains { $0.contains("\(expected.count)/\(count)") }, "the count of every match")
                // The scrollbar is sized for every match from the first screen on: its thumb, one
                // row of 13 for so many, on the first row (the whole ranking changes nothing).
                let thumbs = rows.dropFirst(2).enumerated().filter { $0.element.hasSuffix("\u{2502}") }.map(\.offset)
                XCTAssertEqual(thumbs, [0], "the thumb of \(expected.count) matches: \(rows)")
                // (The scrollbar's thumb left out.)
                let shown = rows.dropFirst(2)
                    .map { String($0.dropFirst(2)).trimmingCharacters(in: CharacterSet(charactersIn: " \u{2502}")) }
                    .filter { !$0.isEmpty }
                XCTAssertEqual(shown, Array(expected.prefix(shown.count)), "the first screen is the whole ranking's")
                XCTAssertGreaterThan(shown.count, 5)
                for page in 0..<pages {
                    tmux.keys("PageDown")
                    let line = expected[(page + 1) * 13]
                    tmux.waitFor("page \(page + 1) on \(line)") { rows in rows.contains { $0.hasPrefix("> " + line) } }
                }
            }
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(), 0)
            XCTAssertEqual(tmux.stdout, expected[pages * 13] + "\n", "\(query), \(pages) pages down")
        }
    }
}
