import Foundation
import XCTest

/// The shell widgets remember what is picked (`--remember dirs` for alt-c): a directory
/// picked once comes first for the same short query the next time; PICK_NO_REMEMBER=1
/// turns that off. Run in bash, zsh and fish (the classes below).
class ShellRememberScenarios: ShellTestCase {
    /// alt-c, `d`, the second match (src/deep/, below docs/), then alt-c and `d` again: the
    /// first row then, and whether the store was written.
    private func pickDeepThenReopen() throws -> (first: String?, stored: Bool) {
        pane.tmux.keys("M-c")
        pane.waitForPick("4/4")
        pane.tmux.type("d")
        var rows = pane.waitForPick("3/4")
        XCTAssertEqual(pane.pickRows(rows), ["docs/", "src/deep/", ".hidden/"], "without memory, docs scores higher")
        pane.tmux.keys("Down", "Enter")
        pane.tmux.waitFor("the prompt in src/deep") { rows in rows.contains { $0.hasPrefix("deep\(self.pane.marker)") } }
        pane.run("cd ../..; echo back", output: "back")
        pane.tmux.keys("M-c")
        pane.waitForPick("4/4")
        pane.tmux.type("d")
        rows = pane.waitForPick("3/4")
        let first = pane.pickRows(rows).first
        pane.tmux.keys("Escape")
        pane.waitForLine("")
        let store = pane.tmux.dir.appendingPathComponent(".local/state/pick/memory.sqlite").path
        return (first, FileManager.default.fileExists(atPath: store))
    }

    func altCRemembersThePickedDirectory() throws {
        try pane.start()
        let (first, stored) = try pickDeepThenReopen()
        XCTAssertEqual(first, "src/deep/")
        XCTAssertTrue(stored)
    }

    func pickNoRememberTurnsItOff() throws {
        try pane.start(environment: ["PICK_NO_REMEMBER": "1"])
        let (first, stored) = try pickDeepThenReopen()
        XCTAssertEqual(first, "docs/")
        XCTAssertFalse(stored)
    }
}

final class ShellBashRememberTests: ShellRememberScenarios {
    override var shellName: String { "bash" }
    func testAltCRemembersThePickedDirectory() throws { try altCRemembersThePickedDirectory() }
    func testPickNoRememberTurnsItOff() throws { try pickNoRememberTurnsItOff() }
}

final class ShellZshRememberTests: ShellRememberScenarios {
    override var shellName: String { "zsh" }
    func testAltCRemembersThePickedDirectory() throws { try altCRemembersThePickedDirectory() }
    func testPickNoRememberTurnsItOff() throws { try pickNoRememberTurnsItOff() }
}

final class ShellFishRememberTests: ShellRememberScenarios {
    override var shellName: String { "fish" }
    func testAltCRemembersThePickedDirectory() throws { try altCRemembersThePickedDirectory() }
    func testPickNoRememberTurnsItOff() throws { try pickNoRememberTurnsItOff() }
}
