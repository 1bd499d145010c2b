import Foundation
import XCTest

/// The preview pane on the real binary's screen, as a terminal would show a command's
/// output, and at no cost once the command is done: an ended or endless command leaves no
/// reader spinning, zero-width characters keep the border in place, erase and screen
/// escapes leave no symbols, and a slow command's pane keeps the last text, marked loading.
final class PreviewTerminalTests: InteractiveTestCase {
    /// CPU seconds pick has used (user and system), from /proc.
    private func cpuSeconds(_ pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.range(of: ")", options: .backwards) else { return nil }
        let fields = stat[close.upperBound...].split(separator: " ")
        // After the command's name: state is field 3, utime 14 and stime 15 (1-based).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The processes whose parent is `pid`, once none is left or the deadline passes.
    private func children(of pid: Int32) throws -> String {
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var left = ""
        repeat {
            left = try TmuxPick.shell(["pgrep", "-P", String(pid)]).output
            if left.isEmpty { break }
            usleep(20_000)
        } while Date() < end
        return left
    }

    /// The share of one core pick uses over two seconds of idle, once the pane shows `shown`
    /// and the preview command is gone (ended, or stopped at the bound).
    private func idleShare(preview: String, shown: String) throws -> Double {
        try tmux.start(input: "echo x", args: "--preview '\(preview)'", width: 80, height: 12, background: true)
        tmux.waitFor(text: shown)
        let pid = try XCTUnwrap(tmux.pid)
        XCTAssertEqual(try children(of: pid), "", "the preview command was ended")
        // The last output read may still be drawing: wait (with a deadline) for a quiet
        // half second before measuring. A spinning reader is never quiet.
        let settle = Date().addingTimeInterval(TmuxPick.deadline)
        while Date() < settle {
            let a = try XCTUnwrap(cpuSeconds(pid))
            Thread.sleep(forTimeInterval: 0.5)
            if try XCTUnwrap(cpuSeconds(pid)) - a < 0.02 { break }
        }
        let before = try XCTUnwrap(cpuSeconds(pid))
        let start = Date()
        // A measuring interval, not a wait for a state: idle is what is measured.
        Thread.sleep(forTimeInterval: 2)
        let after = try XCTUnwrap(cpuSeconds(pid))
        return (after - before) / Date().timeIntervalSince(start)
    }

    func testAnIdlePreviewOfAFinishedCommandCostsNoCPU() throws {
        let share = try idleShare(preview: "seq 10000", shown: "1/10000")
        XCTAssertLessThan(share, 0.1, "pick used \(Int(share * 100))% of a core with nothing to do")
    }

    func testAnEndlessLineIsReadOnlyUpToTheBoundThenCostsNoCPU() throws {
        let share = try idleShare(preview: "echo start; cat /dev/zero", shown: "start")
        XCTAssertLessThan(share, 0.1, "pick used \(Int(share * 100))% of a core reading /dev/zero")
    }

    func testZeroWidthCharactersKeepThePanesBorderInPlace() throws {
        let text = "a\\u200fb\\n\\u061cc\\n\\u2028d\\n\\u2029e\\n\\ufefff\\n"
        try tmux.start(input: "echo x", args: "--preview 'printf \"\(text)\"'", width: 60, height: 10)
        let rows = tmux.waitFor("every line is shown") { rows in ["a", "c", "d", "e", "f"].allSatisfy { letter in
            rows.contains { $0.contains("│ " + letter) || $0.contains(letter + " ") && $0.contains("│") } } }
        // Each row of the pane has its two sides and nothing else: a border drawn a column
        // early leaves a stray one behind.
        let sides = rows.dropFirst().prefix(6).map { $0.filter { $0 == "│" }.count }
        XCTAssertEqual(sides, [2, 2, 2, 2, 2, 2], rows.joined(separator: "\n"))
    }

    func testGrepColoursAndScreenEscapesShowAsInATerminal() throws {
        let output = "gone\\n\\033[2J\\033[Hafter clear\\na \\033[01;31m\\033[Kmatch\\033[m\\033[K b\\n10%%\\r20%%\\rdone\\n"
        try tmux.start(input: "echo x", args: "--preview 'printf \"\(output)\"'", width: 60, height: 10)
        let rows = tmux.waitFor(text: "done")
        XCTAssertTrue(rows[row: 1].contains("│ after clear"), "as fzf: the text starts again at a clear\n" + rows.joined(separator: "\n"))
        XCTAssertFalse(rows.contains { $0.contains("gone") }, "what came before the clear is gone")
        XCTAssertTrue(rows.contains { $0.contains("│ a match b") }, rows.joined(separator: "\n"))
        XCTAssertTrue(rows.contains { $0.contains("│ done") }, "a progress line shows its last state")
        XCTAssertFalse(rows.contains { $0.contains("␛") || $0.contains("␍") }, rows.joined(separator: "\n"))
        XCTAssertTrue(tmux.screenWithEscapes().contains("match"), "still drawn")
        XCTAssertTrue(rows[row: 0].hasPrefix(">"), "nothing was cleared outside the pane")
    }

    func testASlowPreviewKeepsTheLastTextMarkedLoading() throws {
        // The slow command writes when the test says so (a file appears), not after a time.
        try tmux.start(input: "printf 'fast\\nslow\\n'",
                       args: "--preview 'case {} in fast) echo fast text;; *) until [ -e go ]; do sleep 0.01; done; echo slow text;; esac'",
                       width: 60, height: 10)
        tmux.waitFor(text: "fast text")
        tmux.keys("Down")
        let rows = tmux.waitFor("the last text, marked loading") { rows in
            rows.contains { $0.contains("loading…") } && rows.contains { $0.contains("fast text") }
        }
        XCTAssertTrue(rows.contains { $0.contains("> slow") || $0.contains("▌ slow") || $0.contains("slow") })
        try tmux.file("go", "")
        let done = tmux.waitFor(text: "slow text")
        XCTAssertFalse(done.contains { $0.contains("loading…") || $0.contains("fast text") })
    }
}
