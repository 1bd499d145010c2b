import Foundation
import XCTest

/// The git aliases of the README's git section, as written there, in a throwaway repository:
/// three commits on main, branches feature/login and fix/typo, an untracked file. Filter mode
/// stands in for the person where that is enough (`PICK_DEFAULT_OPTS=--filter=…`); the
/// branch switcher is also driven by hand in a shell in tmux.
final class GitRecipeTests: XCTestCase {
    private var root: URL!
    private var repo: URL!

    /// `alias.NAME` → value, from the README's `git config --global alias.NAME '…'` lines.
    static func readmeAliases() throws -> [String: String] {
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        var aliases: [String: String] = [:]
        for line in readme.split(separator: "\n") where line.hasPrefix("git config --global alias.") {
            let rest = line.dropFirst("git config --global ".count)
            guard let space = rest.firstIndex(of: " ") else { continue }
            let value = rest[rest.index(after: space)...]
            guard value.hasPrefix("'"), value.hasSuffix("'") else { continue }
            aliases[String(rest[..<space])] = String(value.dropFirst().dropLast())
        }
        return aliases
    }

    override func setUpWithError() throws {
        guard (try? TmuxPick.shell(["git", "--version"]))?.status == 0 else { throw XCTSkip("git is not installed (make deps)") }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pick-git-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        repo = root.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("src"), withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main")
        try git("config", "user.name", "Test")
        try git("config", "user.email", "test@example.com")
        try write("README.md", "hello\n")
        try git("add", "README.md")
        try git("commit", "-q", "-m", "First commit")
        try write("src/app.swift", "print(1)\n")
        try git("add", "src/app.swift")
        try git("commit", "-q", "-m", "Add the second feature")
        try write("src/login.swift", "print(2)\n")
        try git("add", "src/login.swift")
        try git("commit", "-q", "-m", "Third: login screen")
        try git("branch", "feature/login")
        try git("branch", "fix/typo")
        try write("notes.txt", "untracked\n")
        let aliases = try Self.readmeAliases()
        XCTAssertEqual(Set(aliases.keys), ["alias.sw", "alias.pick-commit", "alias.pick-file"], "README's git aliases")
        for (name, value) in aliases { try git("config", name, value) }
    }

    override func tearDown() {
        if let root { try? FileManager.default.removeItem(at: root) }
    }

    private func write(_ path: String, _ text: String) throws {
        try Data(text.utf8).write(to: repo.appendingPathComponent(path))
    }

    /// Runs git in the repository, with the built pick on PATH and no outside configuration.
    @discardableResult
    private func git(_ args: String..., pickOptions: String? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + args
        process.currentDirectoryURL = repo
        let pickDir = URL(fileURLWithPath: pickBinaryPath()).deletingLastPathComponent().path
        var env = ProcessInfo.processInfo.environment
        env["PATH"] = pickDir + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["HOME"] = root.path
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        env.removeValue(forKey: "PICK_DEFAULT_OPTS")
        if let pickOptions { env["PICK_DEFAULT_OPTS"] = pickOptions }
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    private func currentBranch() throws -> String {
        try git("branch", "--show-current").output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testBranchSwitcherSwitchesToThePickedBranch() throws {
        XCTAssertEqual(try git("sw", pickOptions: "--filter=login").status, 0)
        XCTAssertEqual(try currentBranch(), "feature/login")
        XCTAssertEqual(try git("sw", pickOptions: "--filter=typo").status, 0)
        XCTAssertEqual(try currentBranch(), "fix/typo")
    }

    func testBranchSwitcherDoesNothingWhenNothingIsPicked() throws {
        XCTAssertEqual(try git("sw", pickOptions: "--filter=nosuchbranch").status, 0, "xargs -r runs no git switch")
        XCTAssertEqual(try currentBranch(), "main")
    }

    func testCommitPickerPrintsTheHashNewestFirst() throws {
        let second = try git("rev-parse", "--short", "HEAD~1").output.trimmingCharacters(in: .whitespacesAndNewlines)
        let picked = try git("pick-commit", pickOptions: "--filter=second")
        XCTAssertEqual(picked.output, second + "\n")
        // With --no-sort the log's order stays: the newest commit comes first.
        let head = try git("rev-parse", "--short", "HEAD").output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try git("pick-commit", pickOptions: "--filter=").output.split(separator: "\n").first.map(String.init), head)
    }

    func testFilePickerListsTrackedFilesOnly() throws {
        XCTAssertEqual(try git("pick-file", pickOptions: "--filter=app").output, "src/app.swift\n")
        XCTAssertEqual(Set(try git("pick-file", pickOptions: "--filter=").output.split(separator: "\n")),
                       ["README.md", "src/app.swift", "src/login.swift"])
        let untracked = try git("pick-file", pickOptions: "--filter=notes")
        XCTAssertEqual(untracked.status, 1)
        XCTAssertEqual(untracked.output, "")
    }

    /// The branch switcher as a person uses it: `git sw` in bash, type, Return.
    func testBranchSwitcherInteractively() throws {
        guard ShellPane.isAvailable("bash") else { throw XCTSkip("tmux is not installed (make deps)") }
        let pane = try ShellPane("bash", test: name)
        defer { pane.close() }
        try FileManager.default.moveItem(at: repo, to: pane.work.appendingPathComponent("repo"))
        repo = pane.work.appendingPathComponent("repo")
        try pane.start(environment: ["GIT_CONFIG_NOSYSTEM": "1"], rc: "cd repo\n")
        pane.tmux.type("git sw")
        pane.tmux.keys("Enter")
        let rows = pane.waitForPick("3/3")
        XCTAssertEqual(Set(pane.pickRows(rows)), ["main", "feature/login", "fix/typo"])
        pane.tmux.type("login")
        pane.waitForPick("1/3")
        pane.tmux.keys("Enter")
        pane.tmux.waitFor(text: "Switched to branch 'feature/login'")
        pane.waitForLine("")
        XCTAssertEqual(try currentBranch(), "feature/login")
        pane.run("echo ok", output: "ok")
    }
}
