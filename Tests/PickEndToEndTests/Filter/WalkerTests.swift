import Foundation
import XCTest

/// With nothing piped in, pick lists files as fzf's walker does: `--walker`, `--walker-root`,
/// `--walker-skip`, and fzf's defaults. Each case is checked against the paths expected
/// and, side by side, against the real fzf on the same tree.
final class WalkerTests: XCTestCase {
    private var tree: URL!

    override func setUpWithError() throws {
        tree = FileManager.default.temporaryDirectory.appendingPathComponent("pick-walker-\(UUID().uuidString)")
        let fm = FileManager.default
        for dir in ["a/b", ".hid/x", "node_modules/m", ".git/o", "c", "sub/node_modules", "sub/.git", "loop/x"] {
            try fm.createDirectory(at: tree.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        for file in ["f1", ".hf", "a/f2", "a/b/f3", ".hid/x/f4", "node_modules/m/f5", ".git/o/f6", "sub/node_modules/f7",
                     "sub/.git/f8", "c/f9", "loop/x/f10"] {
            fm.createFile(atPath: tree.appendingPathComponent(file).path, contents: Data())
        }
        try fm.createSymbolicLink(atPath: tree.appendingPathComponent("c/lnk").path, withDestinationPath: "../a")
        try fm.createSymbolicLink(atPath: tree.appendingPathComponent("c/flink").path, withDestinationPath: "../f1")
        try fm.createSymbolicLink(atPath: tree.appendingPathComponent("c/broken").path, withDestinationPath: "/nonexistent")
        try fm.createSymbolicLink(atPath: tree.appendingPathComponent("loop/x/up").path, withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: tree.appendingPathComponent("loop/root").path, withDestinationPath: "/")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: tree)
    }

    /// The paths `program` lists with `arguments` and stdin a terminal (util-linux `script`),
    /// in `tree`, sorted (fzf walks in parallel: only the set is the same).
    private func listed(_ program: String, _ arguments: String) throws -> [String] {
        let out = tree.appendingPathComponent(".out-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "cd '\(tree.path)' && '\(program)' \(arguments) --filter '' > '\(out.path)'", "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        for name in ["PICK_DEFAULT_OPTS", "PICK_DEFAULT_COMMAND", "FZF_DEFAULT_OPTS", "FZF_DEFAULT_COMMAND"] {
            env.removeValue(forKey: name)
        }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix(".out-") }.sorted()
    }

    /// The real fzf to compare with (`fzfPath`); without one only pick's list is checked,
    /// except under `make test`, where a missing fzf fails the test.
    private var fzf: String? {
        get throws {
            do { return try fzfPath() } catch is XCTSkip { return nil }
        }
    }

    private func check(_ arguments: String, _ expected: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let got = try listed(pickBinaryPath(), arguments)
        XCTAssertEqual(got, expected.sorted(), "pick \(arguments)", file: file, line: line)
        if let fzf = try fzf {
            XCTAssertEqual(got, try listed(fzf, arguments), "pick and fzf differ: \(arguments)", file: file, line: line)
        }
    }

    func testByDefaultFilesAndHiddenFoldersAreListedAndSymlinksFollowed() throws {
        try check("", [".hf", ".hid/x/f4", "a/b/f3", "a/f2", "c/broken", "c/f9", "c/flink", "c/lnk/b/f3", "c/lnk/f2", "f1",
                       "loop/x/f10"])
    }

    func testWithoutHiddenHiddenFoldersAreSkippedButHiddenFilesListed() throws {
        try check("--walker=file", [".hf", "a/b/f3", "a/f2", "c/broken", "c/f9", "c/flink", "f1", "loop/x/f10"])
    }

    func testFoldersEndWithASlashAndALoopIsListedOnce() throws {
        try check("--walker=dir,follow", ["a/", "a/b/", "c/", "c/lnk/", "c/lnk/b/", "loop/", "loop/x/", "loop/x/up/", "sub/"])
        try check("--walker=dir,hidden", [".hid/", ".hid/x/", "a/", "a/b/", "c/", "loop/", "loop/x/", "sub/"])
    }

    func testWalkerSkipReplacesTheDefaultsWithNamesAndPaths() throws {
        try check("--walker=file,dir --walker-skip=b,sub/.git,loop",
                  [".hf", "a/", "a/f2", "c/", "c/broken", "c/f9", "c/flink", "f1", "node_modules/", "node_modules/m/",
                   "node_modules/m/f5", "sub/", "sub/node_modules/", "sub/node_modules/f7"])
    }

    func testSeveralRootsEachAsWritten() throws {
        // c/lnk leads to the root a: not walked twice.
        try check("--walker-root=a c", ["a/b/f3", "a/f2", "c/broken", "c/f9", "c/flink"])
        try check("--walker-root=./a/ --walker=dir,file", ["a/", "a/b/", "a/b/f3", "a/f2"])
        try check("--walker-root=\(tree.path)/a", ["\(tree.path)/a/b/f3", "\(tree.path)/a/f2"])
        // A later --walker-root replaces the earlier one, as in fzf.
        try check("--walker-root=a --walker-root=c/lnk", ["c/lnk/b/f3", "c/lnk/f2"])
    }

    func testABadWalkerValueIsOneLineOnStderr() throws {
        for value in ["hidden", "files", "file,bogus"] {
            let run = try runPick(["--walker", value, "--filter", ""])
            XCTAssertEqual(run.status, 2, value)
            XCTAssertTrue(run.stderr.contains("--walker"), run.stderr)
            XCTAssertEqual(run.stderr.split(separator: "\n").count, 1, run.stderr)
        }
    }

    /// A name with a newline in it is one path, as fzf's walker lists it (`--print0`).
    func testANameWithANewlineStaysOnePath() throws {
        let dir = tree.appendingPathComponent("nl")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: dir.appendingPathComponent("two\nlines").path, contents: Data())
        FileManager.default.createFile(atPath: dir.appendingPathComponent("plain").path, contents: Data())
        let out = tree.appendingPathComponent(".out-nl")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "cd '\(dir.path)' && '\(pickBinaryPath())' --filter lines --print0 > '\(out.path)'", "/dev/null"]
        var env = ProcessInfo.processInfo.environment
        for name in ["PICK_DEFAULT_OPTS", "PICK_DEFAULT_COMMAND", "FZF_DEFAULT_OPTS", "FZF_DEFAULT_COMMAND"] {
            env.removeValue(forKey: name)
        }
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(try String(contentsOf: out, encoding: .utf8), "two\nlines\0")
    }
}
