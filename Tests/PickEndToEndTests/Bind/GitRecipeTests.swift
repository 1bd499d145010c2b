import Foundation
import PickCore
import XCTest

/// The git aliases of the README's git section, as written there, in a throwaway repository:
/// three commits on main, branches feature/login (one commit more) and fix/typo, a changed
/// file, a staged one and an untracked one. Filter mode stands in for the person where that
/// is enough (`PICK_DEFAULT_OPTS=--filter=…`); each alias's preview command is expanded by
/// PickCore's CommandTemplate, as pick expands it, and run in the repository; the branch
/// switcher and the changed-file picker are also driven by hand in a shell in tmux.
///
/// The aliases use `--preview` and fields (`{1}`, `--nth`): a test whose alias this pick
/// does not accept yet is skipped, saying so (`skipUnlessPickAccepts`).
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
        aliases = try Self.readmeAliases()
        XCTAssertEqual(Set(aliases.keys), ["alias.sw", "alias.pick-commit", "alias.pick-file", "alias.pick-changed"],
                       "README's git aliases")
        if Self.template == nil {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("pick-git-template-\(getpid())-\(Int.random(in: 0..<1_000_000))")
            repo = root.appendingPathComponent("repo")
            try makeRepository()
            Self.template = repo
        }
        root = FileManager.default.temporaryDirectory.appendingPathComponent("pick-git-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        repo = root.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let copy = try TmuxPick.shell(["cp", "-a", try XCTUnwrap(Self.template).path, repo.path])
        XCTAssertEqual(copy.status, 0, copy.output)
    }

    /// The repository, made once for the class (some twenty git runs) and copied for each
    /// test, which may change its copy.
    nonisolated(unsafe) private static var template: URL?

    override class func tearDown() {
        if let template { try? FileManager.default.removeItem(at: template.deletingLastPathComponent()) }
        template = nil
        super.tearDown()
    }

    private func makeRepository() throws {
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
        // A commit only feature/login has, which only its preview shows.
        try git("switch", "-q", "feature/login")
        try write("src/form.swift", "form()\n")
        try git("add", "src/form.swift")
        try git("commit", "-q", "-m", "Login form")
        try git("switch", "-q", "main")
        try write("notes.txt", "untracked\n")
        try write("README.md", "hello\nchanged line\n")
        try write("src/app.swift", "print(1)\nprint(\"staged\")\n")
        try git("add", "src/app.swift")
        for (name, value) in aliases { try git("config", name, value) }
    }

    private var aliases: [String: String] = [:]

    /// The words of the alias's `pick` command, as its shell passes them.
    private func pickWords(_ alias: String) throws -> [String] {
        let value = try XCTUnwrap(aliases[alias], alias)
        let words = try ShellWords.split(String(value.dropFirst()))  // the leading `!`
        let start = try XCTUnwrap(words.firstIndex(of: "pick"), value)
        let end = words[start...].firstIndex(of: "|") ?? words.endIndex
        return Array(words[(start + 1)..<end])
    }

    /// The alias's `--preview` command.
    private func previewCommand(_ alias: String) throws -> String {
        let words = try pickWords(alias)
        let at = try XCTUnwrap(words.firstIndex(of: "--preview"), "\(alias) has a preview")
        return words[at + 1]
    }

    /// Skips the test when this pick refuses one of the alias's options (until the preview
    /// pane and fields are merged).
    private func skipUnlessPickAccepts(_ alias: String) throws {
        let run = try runPick(try pickWords(alias) + ["--filter", ""], input: Data())
        if run.status == 2 { throw XCTSkip("\(alias): \(run.stderr)") }
    }

    /// What the alias's preview shows for `line`: its command expanded as pick expands it
    /// and run by /bin/sh in the repository (stdout and stderr, as the pane shows them).
    private func preview(_ alias: String, for line: String) throws -> String {
        let command = CommandTemplate(try previewCommand(alias)).expand(TemplateContext(current: Array(line.utf8)))
        return try run(["sh", "-c", String(decoding: command, as: UTF8.self)], errorsToo: true).output
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
        try run(["git"] + args, pickOptions: pickOptions)
    }

    /// Runs a command in the repository, as `git` does.
    private func run(_ args: [String], pickOptions: String? = nil, errorsToo: Bool = false) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = args
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
        process.standardError = errorsToo ? out : FileHandle.nullDevice
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
        try skipUnlessPickAccepts("alias.sw")
        XCTAssertEqual(try git("sw", pickOptions: "--filter=login").status, 0)
        XCTAssertEqual(try currentBranch(), "feature/login")
        XCTAssertEqual(try git("sw", pickOptions: "--filter=typo").status, 0)
        XCTAssertEqual(try currentBranch(), "fix/typo")
    }

    func testBranchSwitcherDoesNothingWhenNothingIsPicked() throws {
        try skipUnlessPickAccepts("alias.sw")
        XCTAssertEqual(try git("sw", pickOptions: "--filter=nosuchbranch").status, 0, "xargs -r runs no git switch")
        XCTAssertEqual(try currentBranch(), "main")
    }

    func testCommitPickerPrintsTheHashNewestFirst() throws {
        try skipUnlessPickAccepts("alias.pick-commit")
        let second = try git("rev-parse", "--short", "HEAD~1").output.trimmingCharacters(in: .whitespacesAndNewlines)
        let picked = try git("pick-commit", pickOptions: "--filter=second")
        XCTAssertEqual(picked.output, second + "\n")
        // With --no-sort the log's order stays: the newest commit comes first.
        let head = try git("rev-parse", "--short", "HEAD").output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertEqual(try git("pick-commit", pickOptions: "--filter=").output.split(separator: "\n").first.map(String.init), head)
    }

    func testFilePickerListsTrackedFilesOnly() throws {
        try skipUnlessPickAccepts("alias.pick-file")
        XCTAssertEqual(try git("pick-file", pickOptions: "--filter=app").output, "src/app.swift\n")
        XCTAssertEqual(Set(try git("pick-file", pickOptions: "--filter=").output.split(separator: "\n")),
                       ["README.md", "src/app.swift", "src/login.swift"])
        let untracked = try git("pick-file", pickOptions: "--filter=notes")
        XCTAssertEqual(untracked.status, 1)
        XCTAssertEqual(untracked.output, "")
    }

    func testBranchSwitcherPreviewsTheBranchsRecentLog() throws {
        let shown = try preview("alias.sw", for: "feature/login")
        XCTAssertEqual(shown, try git("log", "--oneline", "--color=always", "-n", "20", "feature/login", "--").output)
        XCTAssertTrue(shown.contains("Login form"), shown)
        // A file named like the branch does not make the log ambiguous (the `--`).
        try write("main", "a file\n")
        let main = try preview("alias.sw", for: "main")
        XCTAssertTrue(main.contains("Third: login screen"), main)
        XCTAssertFalse(main.contains("Login form"), main)
    }

    /// A branch name may hold `$( )`, `;` and backticks: pick quotes it, so the recipe's `{}`
    /// needs no quotes of its own, and nothing in the name runs.
    func testBranchSwitcherPreviewRunsNothingFromABranchName() throws {
        let hostile = "odd$(touch${IFS}pwned);`touch${IFS}pwned2`"
        try git("branch", hostile)
        let shown = try preview("alias.sw", for: hostile)
        XCTAssertEqual(shown, try git("log", "--oneline", "--color=always", "-n", "20", hostile, "--").output)
        XCTAssertTrue(shown.contains("Third: login screen"), shown)
        for file in ["pwned", "pwned2"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: repo.appendingPathComponent(file).path), file)
        }
    }

    func testCommitPickerPreviewsTheCommitsChangedFiles() throws {
        let line = try XCTUnwrap(try git("log", "--oneline").output.split(separator: "\n").first { $0.contains("second feature") })
        let hash = String(line.split(separator: " ")[0])
        let shown = try preview("alias.pick-commit", for: String(line))
        XCTAssertEqual(shown, try git("show", "--stat", "--color=always", hash).output)
        XCTAssertTrue(shown.contains("Add the second feature"), shown)
        XCTAssertTrue(shown.contains("src/app.swift"), shown)
    }

    func testFilePickerPreviewsWithTheBuiltinPreviewer() throws {
        XCTAssertEqual(try previewCommand("alias.pick-file"), "builtin")
        XCTAssertEqual(try run(["pick", "--preview-builtin", "src/login.swift"]).output, "print(2)\n")
    }

    func testChangedFilePickerPrintsThePathOfAChangedFile() throws {
        try skipUnlessPickAccepts("alias.pick-changed")
        XCTAssertEqual(try git("pick-changed", pickOptions: "--filter=app").output, "src/app.swift\n")
        XCTAssertEqual(Set(try git("pick-changed", pickOptions: "--filter=").output.split(separator: "\n")),
                       ["README.md", "src/app.swift", "notes.txt"])
        XCTAssertEqual(try git("pick-changed", pickOptions: "--filter=M").output, "README.md\n",
                       "git's status letters (M for a modified file) are not searched")
        XCTAssertEqual(try git("pick-changed", pickOptions: "--filter=login").status, 1, "an unchanged file is not listed")
    }

    /// The entries of `git status` as the alias reads them.
    private func statusEntries() throws -> [String] {
        try git("status", "--porcelain", "-z", "--no-renames").output.split(separator: "\0").map(String.init)
    }

    func testChangedFilePickerPreviewsTheDiffOrTheNewFile() throws {
        let entries = try statusEntries()
        let readme = try XCTUnwrap(entries.first { $0.hasSuffix("README.md") }, "\(entries)")
        let shown = try preview("alias.pick-changed", for: readme)
        XCTAssertEqual(shown, try git("diff", "--color=always", "HEAD", "--", "README.md").output)
        XCTAssertTrue(shown.contains("changed line"), shown)  // git colours the + apart
        let staged = try XCTUnwrap(entries.first { $0.hasSuffix("src/app.swift") }, "\(entries)")
        XCTAssertEqual(try preview("alias.pick-changed", for: staged),
                       try git("diff", "--color=always", "HEAD", "--", "src/app.swift").output, "a staged change")
        let untracked = try XCTUnwrap(entries.first { $0.hasSuffix("notes.txt") }, "\(entries)")
        XCTAssertEqual(try preview("alias.pick-changed", for: untracked), "untracked\n", "a new file has no diff: its text")
    }

    func testChangedFilePickerPreviewRunsNothingFromAFileName() throws {
        let hostile = "it's $(touch pwned) `touch pwned2`; \"x\""
        try write(hostile, "hostile\n")
        let entry = try XCTUnwrap(try statusEntries().first { $0.hasSuffix("\"x\"") })
        XCTAssertEqual(try preview("alias.pick-changed", for: entry), "hostile\n")
        for file in ["pwned", "pwned2"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: repo.appendingPathComponent(file).path), file)
        }
    }

    /// bash in tmux, in the repository (moved into the pane's directory).
    private func bashInRepository() throws -> ShellPane {
        guard ShellPane.isAvailable("bash") else { throw XCTSkip("tmux is not installed (make deps)") }
        let pane = try ShellPane("bash", test: name)
        do {
            try FileManager.default.moveItem(at: repo, to: pane.work.appendingPathComponent("repo"))
            repo = pane.work.appendingPathComponent("repo")
            try pane.start(environment: ["GIT_CONFIG_NOSYSTEM": "1"], rc: "cd repo\n")
        } catch {
            pane.close()
            throw error
        }
        return pane
    }

    /// The branch switcher as a person uses it: `git sw` in bash, type, the focused branch's
    /// log in the preview, Return.
    func testBranchSwitcherInteractively() throws {
        try skipUnlessPickAccepts("alias.sw")
        let pane = try bashInRepository()
        defer { pane.close() }
        pane.tmux.type("git sw")
        pane.tmux.keys("Enter")
        let rows = pane.waitForPick("3/3")
        for branch in ["main", "feature/login", "fix/typo"] {
            XCTAssertTrue(pane.pickRows(rows).contains { $0.hasPrefix(branch) }, "\(branch) listed:\n" + rows.joined(separator: "\n"))
        }
        pane.tmux.type("login")
        pane.waitForPick("1/3")
        pane.tmux.waitFor(text: "Login form")  // feature/login's own commit, in the preview
        pane.tmux.keys("Enter")
        pane.tmux.waitFor(text: "Switched to branch 'feature/login'")
        pane.waitForLine("")
        XCTAssertEqual(try currentBranch(), "feature/login")
        pane.run("echo ok", output: "ok")
    }

    /// The changed-file picker in bash: a new file's text, then a changed file's diff, in the
    /// preview; Return prints the path alone.
    func testChangedFilePickerInteractively() throws {
        try skipUnlessPickAccepts("alias.pick-changed")
        let pane = try bashInRepository()
        defer { pane.close() }
        pane.tmux.type("git pick-changed > ../picked")
        pane.tmux.keys("Enter")
        pane.waitForPick("3/3")
        pane.tmux.type("notes")
        pane.waitForPick("1/3")
        pane.tmux.waitFor(text: "untracked")
        pane.tmux.keys("C-u")
        pane.tmux.type("readme")
        pane.waitForPick("1/3")
        pane.tmux.waitFor(text: "+changed line")
        pane.tmux.keys("Enter")
        pane.waitForLine("")
        XCTAssertEqual(try String(contentsOf: pane.work.appendingPathComponent("picked"), encoding: .utf8), "README.md\n")
        pane.run("echo ok", output: "ok")
    }
}
