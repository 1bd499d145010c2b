import Foundation
import XCTest

/// The promises around the UI: Return prints what `pick --filter` prints first; every way
/// out leaves the terminal as it was; no terminal is a clear error.
final class InteractiveInvariantTests: InteractiveTestCase {
    static let words: [String] = {
        var out: [String] = []
        let parts = ["src", "lib", "test", "doc", "app", "core", "ui", "net"]
        let names = ["main", "Matcher", "scorer", "line_store", "search-engine", "README", "Makefile", "config"]
        let exts = [".swift", ".c", ".md", ".txt", ""]
        for (i, p) in parts.enumerated() {
            for (j, n) in names.enumerated() {
                out.append("\(p)/\(n)\(exts[(i + j) % exts.count])")
                out.append("\(p)/\(parts[(i + j) % parts.count])/\(n.lowercased())\(exts[(i * j) % exts.count])")
            }
        }
        out.append("Go to Line\tGo to\tjump\tctrl-l")
        out.append("Save As…\tFile\twrite")
        out.append("crème brûlée.txt")
        return out
    }()

    func testReturnPicksTheFirstLineFilterPrintsForManyQueries() throws {
        let input = Self.words.joined(separator: "\n") + "\n"
        let queries = ["main", "mat", "sc sw", "^src", ".md$", "'line", "rdme", "go to", "creme", "ui | net",
                       "cfg", "!test main", "Mk", "s/m"]
        for (k, query) in queries.enumerated() {
            let filtered = try runPick(["--filter", query], input: Data(input.utf8))
            guard let first = filtered.lines.first else { XCTFail("filter found nothing for \(query)"); continue }
            if k > 0 {
                tmux.close()
                tmux = try TmuxPick(test: name + "\(k)")
            }
            try tmux.file("input.txt", input)
            try tmux.start(input: "cat input.txt", args: "", width: 100, height: 30)
            tmux.waitFor(text: "\(Self.words.count)/\(Self.words.count)")
            tmux.type(query)
            tmux.waitFor(text: "  \(filtered.lines.count)/\(Self.words.count)")
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(), 0, query)
            XCTAssertEqual(tmux.stdout, first + "\n", "query '\(query)'")
        }
    }

    func testReturnRightAfterTypingWaitsForTheSearch() throws {
        let input = (0..<50_000).map { "file\($0 % 977)/item\($0).txt" }.joined(separator: "\n") + "\n"
        let filtered = try runPick(["--filter", "item4242"], input: Data(input.utf8))
        try tmux.file("input.txt", input)
        try tmux.start(input: "cat input.txt", args: "")
        tmux.waitFor(text: "50000/50000")
        tmux.type("item4242")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, filtered.lines.first.map { $0 + "\n" })
    }

    func testSignalsLeaveTheTerminalAsItWas() throws {
        for (signal, status) in [("TERM", Int32(143)), ("HUP", 129), ("INT", 130)] {
            tmux.close()
            tmux = try TmuxPick(test: name + signal)
            try tmux.file("input.txt", "apple\nbanana\n")
            try tmux.start(input: "cat input.txt", args: "", background: true)
            tmux.waitFor(text: "2/2")
            guard let pid = tmux.pid else { XCTFail("no pid"); continue }
            try TmuxPick.shell(["kill", "-\(signal)", "\(pid)"])
            XCTAssertEqual(tmux.exitStatus(), status, signal)
            XCTAssertTrue(tmux.terminalRestored, "stty after SIG\(signal)")
            tmux.waitFor("the alternate screen left after SIG\(signal)") { !$0.contains { $0.contains("2/2") } }
        }
    }

    func testSignalsClearTheInlineRegion() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "--height 5", before: "printf 'kept\\n'", background: true)
        tmux.waitFor(text: "2/2")
        try TmuxPick.shell(["kill", "-TERM", "\(tmux.pid ?? 0)"])
        XCTAssertEqual(tmux.exitStatus(), 143)
        let rows = tmux.waitFor("the region cleared") { !$0.contains { $0.contains("2/2") || $0.contains("apple") } }
        XCTAssertEqual(rows[row: 0], "kept")
        XCTAssertTrue(tmux.terminalRestored)
    }

    /// Return while the input still streams in: picking the line asks for the ranking of
    /// every line read by then, after the screen was given back. That late result must not
    /// be drawn, inline or on the shell's screen after the alternate one.
    func testReturnWhileInputStreamsInLeavesOnlyTheShellsText() throws {
        for args in ["--height 40%", ""] {
            tmux.close()
            tmux = try TmuxPick(test: name + args.filter(\.isNumber))
            try tmux.start(input: "sh -c 'i=0; while :; do i=$((i+1)); echo \"line $i\"; done'", args: args,
                           before: "printf 'kept\\n'")
            tmux.waitFor("lines listed (\(args))") { $0.contains { $0.hasPrefix("  line ") } }
            tmux.type("line 7")
            tmux.waitFor("the query's matches (\(args))") { rows in
                rows.contains { $0.hasPrefix("> line 7") } && rows.contains { $0.hasPrefix("  line 7") }
            }
            tmux.keys("Enter")
            XCTAssertEqual(tmux.exitStatus(), 0, args)
            XCTAssertEqual(tmux.stdout, "line 7\n", args)
            XCTAssertEqual(visible(try tmux.screenOnceWritten()), ["kept"], "nothing of pick's left (\(args))")
            XCTAssertTrue(tmux.terminalRestored, args)
        }
    }

    func testCtrlZSuspendsAndFgResumes() throws {
        try tmux.file("input.txt", "apple\nbanana\n")
        try tmux.start(input: "cat input.txt", args: "", underJobControl: true)
        tmux.waitFor(text: "2/2")
        tmux.keys("C-z")
        // pick leaves its screen, then stops. (bash's "Stopped" may land on the alternate
        // screen just before pick leaves it, so it is not waited for.)
        tmux.waitFor("the screen left") { !$0.contains { $0.contains("2/2") } }
        tmux.type("fg")
        tmux.keys("Enter")
        tmux.waitFor(text: "2/2")
        tmux.type("ban")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "banana\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testWithoutATerminalPickSaysSoAndExitsTwo() throws {
        // setsid: a new session with no controlling terminal, so /dev/tty cannot be opened.
        let result = try TmuxPick.shell(["sh", "-c", "echo apple | setsid '\(pickBinaryPath())' 2>&1; echo rc=$?"])
        let lines = result.output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 2, result.output)
        XCTAssertTrue(lines.first?.hasPrefix("pick: no terminal") == true, result.output)
        XCTAssertEqual(lines.last, "rc=2")
    }
}
