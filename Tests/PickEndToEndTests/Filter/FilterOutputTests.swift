import Foundation
import XCTest

/// The printed line is the input line byte for byte; --read0, --print0.
final class FilterOutputTests: XCTestCase {
    func testInvalidUTF8CarriageReturnAndTabsArePrintedAsRead() throws {
        let line: [UInt8] = [0x66, 0x6F, 0xFF, 0xFE, 0x6F, 0x0D, 0x09, 0x78, 0xC3]
        let input = Data(line + [0x0A] + Array("other\n".utf8))
        let run = try runPick(["-f", "fo"], input: input)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout, Data(line + [0x0A]))
    }

    func testCRLFLinesKeepTheirCarriageReturn() throws {
        let run = try runPick(["-f", "foo"], input: Data("foo\r\nbar\r\n".utf8))
        XCTAssertEqual(run.stdout, Data("foo\r\n".utf8))
    }

    func testFieldsArePrintedWholeNotJustTheTitle() throws {
        let line = "New File\tCreate\tadd,touch\tctrl-n"
        let run = try runPick(["--palette", "-f", "touch"], lines: [line, "Save\tActions"])
        XCTAssertEqual(run.stdout, Data((line + "\n").utf8))
    }

    func testATabbedLineIsOneTitleUnlessPaletteIsAskedFor() throws {
        let input = Data("left\tright\tmore\nother\n".utf8)
        let run = try runPick(["-f", "leftr"], input: input)
        XCTAssertEqual(run.stdout, Data("left\tright\tmore\n".utf8))
        XCTAssertEqual(try runPick(["--palette", "-f", "leftr"], input: input).status, 1, "with --palette the title is only 'left'")
        XCTAssertEqual(try runPick(["--palette", "--plain", "-f", "leftr"], input: input).stdout, run.stdout, "--plain undoes it")
        XCTAssertEqual(try runPick(["--palette", "--no-palette", "-f", "leftr"], input: input).stdout, run.stdout)
        XCTAssertEqual(try runPick(["-f", "leftr"], input: input, environment: ["PICK_DEFAULT_OPTS": "--palette"]).status, 1,
                       "PICK_DEFAULT_OPTS=--palette turns it on for every call")
        XCTAssertEqual(try runPick(["--plain", "-f", "leftr"], input: input, environment: ["PICK_DEFAULT_OPTS": "--palette"]).stdout,
                       run.stdout, "and --plain turns it off again for one")
    }

    func testPlainKeepsInvalidBytes() throws {
        let line: [UInt8] = [0x61, 0x09, 0xFF, 0x0D, 0x62]
        let run = try runPick(["--plain", "-f", "ab"], input: Data(line + [0x0A]))
        XCTAssertEqual(run.stdout, Data(line + [0x0A]))
    }

    func testEmptyLinesAreCandidates() throws {
        let run = try runPick(["-f", ""], input: Data("\n\nfoo\n".utf8))
        XCTAssertEqual(run.stdout, Data("\n\nfoo\n".utf8))
    }

    func testLastLineWithoutNewlineCounts() throws {
        let run = try runPick(["-f", "last"], input: Data("first\nlast".utf8))
        XCTAssertEqual(run.stdout, Data("last\n".utf8))
    }

    func testRead0SplitsOnNulAndKeepsNewlines() throws {
        let input = Data("one\ntwo\u{0}three\u{0}".utf8)
        let run = try runPick(["--read0", "-f", ""], input: input)
        XCTAssertEqual(run.stdout, Data("one\ntwo\nthree\n".utf8))
        let tw = try runPick(["--read0", "-f", "'two"], input: input)
        XCTAssertEqual(tw.stdout, Data("one\ntwo\n".utf8))
    }

    func testPrint0EndsLinesWithNul() throws {
        let run = try runPick(["--print0", "-f", "a"], lines: ["a1", "b", "a2"])
        XCTAssertEqual(run.stdout, Data("a1\u{0}a2\u{0}".utf8))
    }

    func testRead0AndPrint0RoundTrip() throws {
        let input = Data("x\ny\u{0}z\r\u{0}".utf8)
        let run = try runPick(["--read0", "--print0", "-f", ""], input: input)
        XCTAssertEqual(run.stdout, input)
    }

    func testReaderThatGoesAwayIsNotACrash() throws {
        // `pick -f '' | head -n 1` on many lines: pick meets a closed stdout and exits quietly.
        let script = "seq 1 300000 | \"$0\" -f '' | head -n 1; echo \"status ${PIPESTATUS[1]}\""
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", script, pickBinaryPath()]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(text, "1\nstatus 0\n")
        XCTAssertEqual(errors, "")
    }

    /// Many lines are copied for printing on every core, a round at a time: what is printed
    /// is still every line byte for byte, in order, a line longer than a round's buffer too.
    func testManyLinesPrintInOrderByteForByte() throws {
        var generator = SystemRandomNumberGenerator()
        var lines: [String] = []
        for k in 0..<30000 {
            let dashes = String(repeating: "-", count: Int.random(in: 0...120, using: &generator))
            lines.append(k % 7 == 3 ? "zz\(k)" : "ab\(dashes)é\(k)")
        }
        lines[12345] = "ab" + String(repeating: "x", count: 300_000)
        let input = Data((lines.joined(separator: "\n") + "\n").utf8)
        let all = try runPick(["-f", ""], input: input)
        XCTAssertEqual(all.status, 0)
        XCTAssertEqual(all.stdout, input, "every line as read, in input order")
        let nul = try runPick(["--print0", "-f", ""], input: input)
        XCTAssertEqual(nul.stdout, Data((lines.joined(separator: "\u{0}") + "\u{0}").utf8))
        // `ab` starts every line that holds it: ranked shortest first, ties in input order.
        let ranked = try runPick(["-f", "ab"], input: input)
        let matching = lines.filter { $0.hasPrefix("ab") }
        let sorted = matching.enumerated().sorted { ($0.element.utf8.count, $0.offset) < ($1.element.utf8.count, $1.offset) }
        XCTAssertEqual(String(decoding: ranked.stdout, as: UTF8.self), sorted.map { $0.element + "\n" }.joined())
    }

    func testPrintQueryWithPrint0() throws {
        let run = try runPick(["--print0", "--print-query", "-f", "b"], lines: ["a", "b"])
        XCTAssertEqual(run.stdout, Data("b\u{0}b\u{0}".utf8))
    }
}
