import Foundation
import XCTest

/// `--remember NAME` in the picker: what is picked comes first the next time, shift-Delete
/// forgets it, and a store that cannot be used does not stop a pick.
final class InteractiveRememberTests: InteractiveTestCase {
    private var state: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        state = FileManager.default.temporaryDirectory.appendingPathComponent("pick-remember-tmux-\(getpid())-\(Int.random(in: 0..<1_000_000_000))")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    }

    override func tearDown() {
        super.tearDown()
        try? FileManager.default.removeItem(at: state)
    }

    private let files = "Makefile\nsrc/map.c\nsrc/main.c\ndocs/manual.md\nREADME.md\n"

    /// A fresh picker over `files` with `--remember files`.
    private func open(_ label: String) throws {
        tmux.close()
        tmux = try TmuxPick(test: name + label)
        try tmux.file("input.txt", files)
        try tmux.start(input: "cat input.txt", args: "--remember files", environment: ["XDG_STATE_HOME": state.path])
        tmux.waitFor(text: "5/5")
    }

    /// The list's rows (after the prompt and the info line), without the pointer column.
    private func listed(_ rows: [String]) -> [String] {
        visible(rows).dropFirst(2).map { String($0.dropFirst(2)).trimmingCharacters(in: .whitespaces) }
    }

    func testAPickedLineComesFirstForAShortQueryAndShiftDeleteForgetsIt() throws {
        try open("first")
        tmux.type("ma")
        tmux.waitFor("Makefile first for 'ma'") { self.listed($0).first == "Makefile" && self.listed($0).count == 4 }
        // docs/manual.md is fourth: picked from there.
        tmux.keys("Down", "Down", "Down")
        tmux.waitFor("docs/manual.md highlighted") { $0.contains { $0.hasPrefix("> docs/manual.md") } }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "docs/manual.md\n")

        // Opened again: one letter of what was typed reaches it.
        try open("again")
        tmux.type("m")
        tmux.waitFor("docs/manual.md first for 'm'") { rows in
            self.listed(rows).first == "docs/manual.md" && rows.contains { $0.hasPrefix("> docs/manual.md") }
        }
        // shift-Delete forgets it: Makefile is first again, and stays so the next time.
        tmux.keys("S-DC")
        tmux.waitFor("Makefile first once forgotten") { self.listed($0).first == "Makefile" }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        let list = try runPick(["--remember", "files", "--list"], lines: [], environment: ["XDG_STATE_HOME": state.path])
        XCTAssertEqual(list.stdout, Data(), "forgotten in the store")
    }

    func testAStoreThatCannotBeOpenedStillLetsAPersonPick() throws {
        let file = state.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: file)
        try tmux.file("input.txt", files)
        try tmux.start(input: "cat input.txt", args: "--remember files", environment: ["XDG_STATE_HOME": file.path])
        tmux.waitFor(text: "5/5")
        tmux.type("read")
        tmux.waitFor(text: "1/5")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "README.md\n")
        // One line, as it started.
        XCTAssertEqual(tmux.stderr.split(separator: "\n").count, 1, tmux.stderr)
        XCTAssertTrue(tmux.stderr.hasPrefix("pick: memory store"), tmux.stderr)
    }

    func testASelectAllAcceptRecordsNothingAndWhatWasLearnedStays() throws {
        let environment = ["XDG_STATE_HOME": state.path]
        let learned = (0..<100).map { "learned/file-\($0).txt" }
        XCTAssertEqual(try runPick(["--remember", "files", "--record"], lines: learned, environment: environment).status, 0)
        try tmux.file("input.txt", ((0..<12_000).map { "bulk/line-\($0)" } + learned).joined(separator: "\n") + "\n")
        try tmux.start(input: "cat input.txt", args: "-m --remember files --bind ctrl-a:select-all", environment: environment)
        tmux.waitFor(text: "12100/12100")
        tmux.keys("C-a")
        tmux.waitFor(text: "12100/12100 (12100)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout.split(separator: "\n").count, 12_100, "every marked line is printed")
        let list = try runPick(["--remember", "files", "--list"], lines: [], environment: environment)
        let remembered = list.lines.map { $0.split(separator: "\t")[1] }.map(String.init)
        XCTAssertEqual(Set(remembered), Set(learned), "the bulk accept recorded nothing and evicted nothing")
    }
}
