import Foundation
import XCTest

/// `PICK_DEFAULT_OPTS_FILE`: options kept in a file, before PICK_DEFAULT_OPTS and the command line.
final class DefaultsFileTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pick-defaults-\(getpid())-\(Int.random(in: 0..<1_000_000))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: dir)
    }

    private func rc(_ text: String) throws -> String {
        let path = dir.appendingPathComponent("pickrc").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private let lines = ["a # b 1", "a # b 2", "other"]

    func testOptionsFromTheFileWithQuotesAndComments() throws {
        let path = try rc("""
            # my pick defaults
            --print-query   # the query comes first
            --filter "a # b" --tac

            """)
        let run = try runPick([], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.lines, ["a # b", "a # b 2", "a # b 1"])
    }

    func testTheVariableAndTheCommandLineOverrideTheFile() throws {
        let path = try rc("--filter 'a # b' --tac\n")
        var run = try runPick([], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path, "PICK_DEFAULT_OPTS": "--no-tac"])
        XCTAssertEqual(run.lines, ["a # b 1", "a # b 2"])
        run = try runPick(["--tac"], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path, "PICK_DEFAULT_OPTS": "--no-tac"])
        XCTAssertEqual(run.lines, ["a # b 2", "a # b 1"])
        run = try runPick(["--filter=other"], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path])
        XCTAssertEqual(run.lines, ["other"])
    }

    func testAnErrorNamesTheFileAndLine() throws {
        let path = try rc("--tac\n# --foo in a comment is fine\n  --exact --foo\n")
        let run = try runPick(["--filter=a"], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "pick: \(path):3: unknown option: --foo\n")
        XCTAssertEqual(run.stdout, Data())
    }

    func testAFileWithWindowsLineEndsReadsLineByLine() throws {
        var path = try rc("--print-query\r\n--filter 'a # b' --tac\r\n")
        var run = try runPick([], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.lines, ["a # b", "a # b 2", "a # b 1"])
        path = try rc("--tac\r\n--layout up\r\n--exact\r\n")
        run = try runPick(["--filter=a"], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.hasPrefix("pick: \(path):2: invalid value for --layout: 'up' ("), run.stderr)
    }

    func testAByteOrderMarkBeforeTheFirstOptionIsIgnored() throws {
        let path = try rc("\u{FEFF}--filter 'a # b' --tac\n")
        let run = try runPick([], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.lines, ["a # b 2", "a # b 1"])
    }

    func testAMissingFileIsAnError() throws {
        let path = dir.appendingPathComponent("missing").path
        let run = try runPick(["--filter=a"], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": path])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "pick: PICK_DEFAULT_OPTS_FILE: cannot read '\(path)': No such file or directory\n")
    }

    func testAnEmptyVariableIsNoFile() throws {
        let run = try runPick(["--filter=other"], lines: lines, environment: ["PICK_DEFAULT_OPTS_FILE": ""])
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines, ["other"])
    }
}
