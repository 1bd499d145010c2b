import Foundation
import XCTest

/// The picker on a large file redirected to stdin, which it maps rather than reads
/// (MappedInput): the same picks as a pipe, and never a line that is not in the file.
final class MappedInputInteractiveTests: InteractiveTestCase {
    /// 40,000 lines, about 2 MB (more than the 1 MiB under which files are read).
    private func bigFile(lines count: Int = 40_000) throws -> String {
        let lines = (1...count).map { "src/module\($0 % 97)/component\($0)/index-\($0).swift" }
        return try tmux.file("input.txt", lines.joined(separator: "\n") + "\n")
    }

    /// pick ended with status 2 and the one-line error, having printed nothing.
    private func assertRefusedAsChanged(file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(tmux.exitStatus(), 2, file: file, line: line)
        XCTAssertEqual(tmux.stdoutData, Data(), "nothing printed", file: file, line: line)
        XCTAssertTrue(tmux.stderr.contains("input file changed"), tmux.stderr, file: file, line: line)
    }

    func testALineOfAMappedFileIsPickedByteForByte() throws {
        let path = try bigFile()
        try tmux.start(input: nil, args: "< '\(path)'")
        tmux.waitFor(text: "40000/40000")
        tmux.type("'component31337/")
        tmux.waitFor(text: "1/40000")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "src/module\(31337 % 97)/component31337/index-31337.swift\n")
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testAFileWrittenWhilePickIsOpenPrintsNothing() throws {
        let path = try bigFile()
        try tmux.start(input: nil, args: "< '\(path)'")
        tmux.waitFor(text: "40000/40000")
        // Rewritten in place, as `>` does: the line on screen is no longer in the file.
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.write(contentsOf: Data("XXX".utf8))
        try handle.close()
        tmux.keys("Enter")
        assertRefusedAsChanged()
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testAChangeInTheSecondHalfOfALargeFileIsCaughtToo() throws {
        // Files of 4 MiB and more are scanned in two halves, each with its own checksum.
        let path = try bigFile(lines: 100_000)
        try tmux.start(input: nil, args: "< '\(path)'")
        tmux.waitFor(text: "100000/100000")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seek(toOffset: try handle.seekToEnd() - 100)
        try handle.write(contentsOf: Data("XXX".utf8))
        try handle.close()
        tmux.keys("Enter")
        assertRefusedAsChanged()
    }

    func testAFileThatOnlyGrewWhilePickIsOpenStillPrintsThePick() throws {
        // A log still being written: what pick read is unchanged, so the pick stands.
        let path = try bigFile()
        try tmux.start(input: nil, args: "< '\(path)'")
        tmux.waitFor(text: "40000/40000")
        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("a line written later\n".utf8))
        try handle.close()
        tmux.type("'component7/")
        tmux.waitFor(text: "1/40000")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "src/module7/component7/index-7.swift\n")
    }

    func testAFileTruncatedWhilePickIsOpenNeitherCrashesNorPrints() throws {
        let path = try bigFile()
        try tmux.start(input: nil, args: "< '\(path)'")
        tmux.waitFor(text: "40000/40000")
        XCTAssertEqual(truncate(path, 0), 0)
        // A search reads every line again, now past the end of the file.
        tmux.type("zz")
        tmux.waitFor("the search over the vanished lines finished") { rows in
            rows.contains { $0.contains("/40000") && !$0.contains("40000/40000") }
        }
        tmux.keys("BSpace", "BSpace", "Enter")
        assertRefusedAsChanged()
        XCTAssertTrue(tmux.terminalRestored)
    }

    func testABusErrorOutsideTheFileIsStillACrashThatGivesTheTerminalBack() throws {
        // The guard against truncation handles faults in the mapped file only.
        let path = try bigFile()
        try tmux.start(input: nil, args: "< '\(path)'", background: true)
        tmux.waitFor(text: "40000/40000")
        try TmuxPick.shell(["kill", "-BUS", "\(tmux.pid ?? 0)"])
        XCTAssertEqual(tmux.exitStatus(), 135)
        XCTAssertTrue(tmux.terminalRestored)
        tmux.waitFor("the alternate screen left") { !$0.contains { $0.contains("40000/40000") } }
    }
}
