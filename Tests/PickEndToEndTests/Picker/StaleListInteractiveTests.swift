import Foundation
import XCTest

/// While input streams in (`yes`, endless), a keystroke's search over millions of lines
/// takes a while: the rows on screen must match the query on screen all the while, and the
/// count must not pass the old query's number off as the new one's.
final class StaleListInteractiveTests: InteractiveTestCase {
    /// The list's rows that are the line `y` (the prompt is row 0, the count row 1).
    private func yRows(_ rows: [String]) -> Int {
        rows.dropFirst(2).filter { String($0.dropFirst(2)).trimmingCharacters(in: .whitespaces) == "y" }.count
    }

    /// The matches the count row says, or nil when it says none as final (in progress).
    private func countedMatches(_ rows: [String]) -> Int? {
        // The counts are the word with the slash (the spinner turns before them, as fzf's).
        guard let info = rows[row: 1].split(separator: " ").first(where: { $0.contains("/") }) else { return nil }
        guard let slash = info.firstIndex(of: "/") else { return nil }
        return Int(info[..<slash])
    }

    func testRowsUnderANarrowedQueryAlwaysMatchItWhileInputStreams() throws {
        try tmux.start(input: "yes", args: "", width: 60, height: 12)
        defer { tmux.keys("C-c") }
        // Millions of lines in, listed under the empty query.
        tmux.waitFor("millions of `y` rows") { rows in
            self.yRows(rows) > 3 && (self.countedMatches(rows) ?? 0) > 2_000_000
        }
        // `yy`, then `yyn`: neither matches the line `y`.
        tmux.type("yy")
        var screens: [[String]] = []
        func watch(for seconds: TimeInterval) {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                screens.append(tmux.screen())
                usleep(20_000)
            }
        }
        watch(for: 0.5)
        tmux.type("n")
        watch(for: 1.5)
        // The screens under `yy` or `yyn`, but for the one capture that may fall between the
        // editor's echo of a key and pick's frame for it (microseconds apart, longer on a
        // loaded machine): the old list stayed for over a second.
        let underNewQuery = screens.indices.filter { i in
            screens[i][row: 0].hasPrefix("> yy") && i > 0 && screens[i - 1][row: 0] == screens[i][row: 0]
        }.map { screens[$0] }
        XCTAssertGreaterThan(underNewQuery.count, 10, "screens under `yy`/`yyn`")
        // Each screen, not just the last: the first that lists `y` or counts the old matches.
        if let rows = underNewQuery.first(where: { yRows($0) > 0 }) {
            XCTFail("rows of `y` under \(rows[row: 0]):\n" + rows.joined(separator: "\n"))
        }
        if let rows = underNewQuery.first(where: { (countedMatches($0) ?? 0) != 0 }) {
            XCTFail("the old count shown as final under \(rows[row: 0]):\n" + rows.joined(separator: "\n"))
        }
        XCTAssertTrue(screens.contains { $0[row: 0].hasPrefix("> yyn") }, "a screen under `yyn`")
    }
}
