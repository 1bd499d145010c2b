import Foundation
import XCTest

/// `pick -f` on a large file redirected to stdin maps the file instead of reading it
/// (MappedInput). The lines must be exactly those a pipe gives.
final class MappedInputTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pick-mapped-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    /// About 5 MB of every kind of line (larger than the 1 MiB under which files are read,
    /// and than the 4 MiB from which two threads scan them), ending in a line with no
    /// newline.
    private func mixedFile(megabytes: Int = 5) throws -> URL {
        var bytes: [UInt8] = []
        var n = 0
        while bytes.count < megabytes << 20 {
            switch n % 7 {
            case 0: bytes += Array("src/module\(n)/file\(n).swift".utf8)
            case 1: bytes += Array("Open file \(n)\tFile\tload read\tctrl-o".utf8)
            case 2: bytes += Array("Crème brûlée \(n)\tDesserts".utf8)
            case 3: bytes += Array("windows line \(n)\r".utf8)
            case 4: bytes += [0xFF, 0xFE, 0x41 &+ UInt8(n % 26), 0x80]
            case 5: bytes += []
            default: bytes += Array("Привет мир \(n) 日本語".utf8)
            }
            bytes.append(0x0A)
            n += 1
        }
        bytes += Array("last line without a newline".utf8)
        let url = dir.appendingPathComponent("input.txt")
        try Data(bytes).write(to: url)
        return url
    }

    /// Runs a shell command line; stdin is /dev/null unless the script redirects it.
    private func shell(_ script: String) throws -> PickRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.standardInput = FileHandle.nullDevice
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return PickRun(stdout: data, stderr: "", status: process.terminationStatus)
    }

    func testAFileOnStdinGivesExactlyTheLinesAPipeGives() throws {
        let file = try mixedFile().path
        let pick = pickBinaryPath()
        for args in ["-f ''", "-f 'file'", "-f 'brulee'", "--palette -f 'file'", "--palette -f 'desserts'", "-f 'привет' --tac", "-f '!line'"] {
            let mapped = try shell("'\(pick)' \(args) < '\(file)'")
            let piped = try shell("cat '\(file)' | '\(pick)' \(args)")
            XCTAssertEqual(mapped.status, piped.status, args)
            XCTAssertGreaterThan(mapped.stdout.count, 0, args)
            XCTAssertEqual(mapped.stdout, piped.stdout, "pick \(args): a redirected file and a pipe differ")
        }
    }

    func testEveryByteOfAnUnfilteredFileComesBack() throws {
        let url = try mixedFile()
        let run = try shell("'\(pickBinaryPath())' --no-sort --plain -f '' < '\(url.path)'")
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout, try Data(contentsOf: url) + Data([0x0A]))
    }

    func testEveryByteComesBackInOrderWhenTheTwoThreadsTakeWorkFromEachOther() throws {
        // The second thread takes half of what is left; whichever is done first takes half
        // of what the other has left, and so on: each range a store of its own, appended in
        // the file's order. Larger, the file is cut more often.
        let url = try mixedFile(megabytes: 24)
        for _ in 0..<3 {
            let run = try shell("'\(pickBinaryPath())' --no-sort --plain -f '' < '\(url.path)'")
            XCTAssertEqual(run.status, 0)
            XCTAssertEqual(run.stdout, try Data(contentsOf: url) + Data([0x0A]))
        }
    }

    func testReadingStartsWhereTheShellLeftStdin() throws {
        // `read` leaves the offset just past the first line, which is not page-aligned.
        let url = try mixedFile()
        let run = try shell("{ read -r skipped; '\(pickBinaryPath())' --no-sort --plain -f ''; } < '\(url.path)'")
        XCTAssertEqual(run.status, 0)
        let all = try Data(contentsOf: url)
        let rest = all[(all.firstIndex(of: 0x0A)! + 1)...]
        XCTAssertEqual(run.stdout, Data(rest) + Data([0x0A]))
    }
}
