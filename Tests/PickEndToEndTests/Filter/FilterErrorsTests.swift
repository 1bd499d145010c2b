import Foundation
import XCTest

/// An unknown option, a missing value or a bad value: one line on stderr naming it, exit 2.
final class FilterErrorsTests: XCTestCase {
    private func assertRefused(_ args: [String], naming name: String, environment: [String: String] = [:],
                               file: StaticString = #filePath, line: UInt = #line) throws {
        let run = try runPick(args, lines: ["alpha", "beta"], environment: environment)
        XCTAssertEqual(run.status, 2, "\(args)", file: file, line: line)
        XCTAssertEqual(run.stdout, Data(), "\(args) printed to stdout", file: file, line: line)
        let stderrLines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertEqual(stderrLines.count, 2, "exactly one line, ended by a newline: \(run.stderr)", file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("pick: "), run.stderr, file: file, line: line)
        XCTAssertTrue(run.stderr.contains(name), "\(run.stderr) should name \(name)", file: file, line: line)
    }

    func testUnknownOption() throws {
        try assertRefused(["--bogus", "-f", "a"], naming: "--bogus")
        try assertRefused(["-f", "a", "-z"], naming: "-z")
    }

    func testABadBindingNamesTheKeyOrTheAction() throws {
        try assertRefused(["-f", "a", "--bind", "ctrl-x:frobnicate"], naming: "ctrl-x: unknown action 'frobnicate'")
        try assertRefused(["-f", "a", "--bind", "hyper-x:accept"], naming: "unknown key 'hyper-x'")
        try assertRefused(["-f", "a", "--bind", "ctrl-x:execute(ls"], naming: "'execute(ls'")
        try assertRefused(["-f", "a"], naming: "PICK_DEFAULT_OPTS: invalid value for --bind: ctrl-y:",
                          environment: ["PICK_DEFAULT_OPTS": "--bind 'ctrl-y:up+nope'"])
    }

    func testMissingValue() throws {
        try assertRefused(["--filter"], naming: "--filter")
        try assertRefused(["-f", "a", "--limit"], naming: "--limit")
        try assertRefused(["-q"], naming: "-q")
    }

    func testBadValue() throws {
        try assertRefused(["--complete", "a", "--limit=0"], naming: "--limit")
        try assertRefused(["-f", "a", "--tiebreak=random"], naming: "--tiebreak")
        try assertRefused(["-f", "a", "--height", "abc"], naming: "--height")
        try assertRefused(["-f", "a", "--layout=sideways"], naming: "--layout")
        try assertRefused(["-f", "a", "--expect=hyper-x"], naming: "--expect")
    }

    func testStrayArgument() throws {
        try assertRefused(["-f", "a", "file.txt"], naming: "file.txt")
    }

    func testBadDefaultOptionsAreNamed() throws {
        try assertRefused(["-f", "a"], naming: "PICK_DEFAULT_OPTS", environment: ["PICK_DEFAULT_OPTS": "--bogus"])
        try assertRefused(["-f", "a"], naming: "PICK_DEFAULT_OPTS", environment: ["PICK_DEFAULT_OPTS": "--prompt='x"])
    }

    func testHelpAndVersionExitZero() throws {
        let help = try runPick(["--help"])
        XCTAssertEqual(help.status, 0)
        XCTAssertTrue(help.text.contains("--filter"))
        let version = try runPick(["--version"])
        XCTAssertEqual(version.status, 0)
        XCTAssertNotNil(version.text.range(of: #"^pick \d+\.\d+\.\d+\n$"#, options: .regularExpression), version.text)
    }
}
