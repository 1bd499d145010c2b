import Foundation
import XCTest

/// Input a pipeline can throw at pick: bytes that are not text, NULs, huge lines, millions of
/// lines, lines of nothing, marks, right-to-left and wide text. The printed line is always the
/// input line byte for byte (compared as bytes, never as Strings, which would repair them).
final class HostileInputTests: XCTestCase {
    /// `lines`, each ended by `terminator`, as bytes.
    private func joined(_ lines: [[UInt8]], terminator: UInt8 = 0x0A) -> Data {
        Data(lines.flatMap { $0 + [terminator] })
    }

    /// stdout split at `terminator` into byte lines (the last terminator ends the last line).
    private func byteLines(_ data: Data, terminator: UInt8 = 0x0A) -> [[UInt8]] {
        var lines = [UInt8](data).split(separator: terminator, omittingEmptySubsequences: false).map(Array.init)
        XCTAssertEqual(lines.last, [], "output ends with its terminator")
        lines.removeLast()
        return lines
    }

    /// Bytes from a fixed-seed generator (xorshift64): the same "random" file on every run.
    private func seededBytes(count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        var bytes = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[i] = UInt8(truncatingIfNeeded: state >> 32)
        }
        return bytes
    }

    // MARK: Bytes that are not UTF-8

    func testEveryKindOfInvalidUTF8IsPrintedAsRead() throws {
        let bad: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF],  // lone continuation, overlong
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],                           // UTF-16 surrogates
            [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xC3],                         // cut short
            [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],         // past U+10FFFF, 5 bytes
            [0xFE], [0xFF], [0xFF, 0xFE], [0xEF, 0xBB, 0xBF],                 // never valid; a BOM
        ]
        let lines = bad.enumerated().map { Array("id\($0.offset)-".utf8) + $0.element + Array("-end".utf8) }
        let input = joined(lines)
        let all = try runPick(["--plain", "-f", ""], input: input)
        XCTAssertEqual(all.status, 0)
        XCTAssertEqual(all.stdout, input)
        for (i, line) in lines.enumerated() {
            let one = try runPick(["-f", "^id\(i)-"], input: input)
            XCTAssertEqual(one.stdout, Data(line + [0x0A]), "line \(i): \(bad[i])")
        }
    }

    func testAQueryMatchesTheTextAroundInvalidBytes() throws {
        let line: [UInt8] = Array("caf".utf8) + [0xFF] + Array("e noir".utf8)
        let run = try runPick(["-f", "noir"], input: joined([line, Array("other".utf8)]))
        XCTAssertEqual(run.stdout, Data(line + [0x0A]))
    }

    func testCompletionsAreTheTitlesBytesAsRead() throws {
        let titles: [[UInt8]] = [Array("ab".utf8) + [0xFF] + Array("c".utf8), Array("ab".utf8) + [0xFE, 0x00] + Array("d".utf8)]
        let input = joined(titles + [Array("zz".utf8)])
        let run = try runPick(["--complete", "a"], input: input)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout, joined(titles), "two different byte strings, each printed as read")
    }

    // MARK: NUL

    func testNulBytesWithoutRead0StayInsideTheirLine() throws {
        let lines: [[UInt8]] = [[0x61, 0x00, 0x62], [0x00], [0x00, 0x00, 0x63, 0x00], Array("plain".utf8)]
        let input = joined(lines)
        XCTAssertEqual(try runPick(["--plain", "-f", ""], input: input).stdout, input)
        XCTAssertEqual(try runPick(["-f", "ab"], input: input).stdout, Data(lines[0] + [0x0A]))
        XCTAssertEqual(try runPick(["-f", "c"], input: input).stdout, Data(lines[2] + [0x0A]))
    }

    func testNulBytesWithPrint0AreStillPrintedAsRead() throws {
        let line: [UInt8] = [0x61, 0x00, 0x62]
        let run = try runPick(["--print0", "-f", "ab"], input: joined([line, Array("x".utf8)]))
        XCTAssertEqual(run.stdout, Data(line + [0x00]))
    }

    // MARK: Size

    func testAFiftyMegabyteLineIsFoundAndPrintedWhole() throws {
        var line = [UInt8](repeating: UInt8(ascii: "x"), count: 50_000_000)
        line.replaceSubrange(25_000_000..<25_000_006, with: Array("needle".utf8))
        line[49_999_999] = 0xFF
        let input = joined([Array("short".utf8), line, Array("last".utf8)])
        let run = try runPick(["-f", "'needle"], input: input)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.stdout.count, 50_000_001)
        XCTAssertTrue(run.stdout == Data(line + [0x0A]), "the 50 MB line comes back byte for byte")
        XCTAssertEqual(run.stderr, "")
    }

    /// Ten million lines from `seq` (fast to make, no test-side buffer): all of them come back
    /// in order with an empty query, and a suffix query finds the hundred ending in 99999.
    /// About 4 s for each run in a debug build.
    func testTenMillionShortLines() throws {
        let script = """
        seq 1 10000000 | "$0" -f '' | cmp - <(seq 1 10000000) && echo identical
        seq 1 10000000 | "$0" -f '99999$' | sort -n | sed -n '1p;$p'
        """
        let result = try TmuxPick.shell(["bash", "-c", script, pickBinaryPath()])
        XCTAssertEqual(result.output, "identical\n99999\n9999999\n")
    }

    /// A large file on stdin cut short while pick works through it (a log rotated under it):
    /// pick maps such a file, and a page past the new end faults (SIGBUS) instead of reading
    /// short. No crash and no hang: pick ends with no match (1), or says in one line that the
    /// file changed (2). (A sparse file: 256 MB that take no disk.)
    func testAFileTruncatedWhilePickReadsItIsNotACrash() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("pick-hostile-\(getpid())-\(Int.random(in: 0..<1_000_000_000))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("shrinking").path
        for delay in ["0.02", "0.1", "0.3"] {
            let result = try TmuxPick.shell(["bash", "-c", """
            truncate -s 256M "$1"
            "$0" -f x < "$1" 2>&1 & pid=$!
            sleep \(delay); truncate -s 0 "$1"
            wait $pid; echo "status $?"
            """, pickBinaryPath(), file])
            let lines = result.output.split(separator: "\n").map(String.init)
            if lines == ["status 1"] { continue }
            XCTAssertEqual(lines.count, 2, "truncated after \(delay) s: \(result.output)")
            XCTAssertTrue(lines.first?.hasPrefix("pick: ") == true, "truncated after \(delay) s: \(result.output)")
            XCTAssertEqual(lines.last, "status 2", "truncated after \(delay) s: \(result.output)")
        }
    }

    // MARK: Lines of almost nothing

    func testCarriageReturnsAreKept() throws {
        let input = Data("crlf\r\n\r\n\r\rtwo\r\nlone\rcr\n".utf8)
        XCTAssertEqual(try runPick(["--plain", "-f", ""], input: input).stdout, input)
        XCTAssertEqual(try runPick(["-f", "lonecr"], input: input).stdout, Data("lone\rcr\n".utf8))
        XCTAssertEqual(try runPick(["--read0", "--print0", "-f", ""], input: Data("a\r\n\u{0}b\r\u{0}".utf8)).stdout,
                       Data("a\r\n\u{0}b\r\u{0}".utf8))
    }

    func testOnlyEmptyLines() throws {
        let input = Data("\n\n\n\n".utf8)
        let all = try runPick(["-f", ""], input: input)
        XCTAssertEqual(all.status, 0)
        XCTAssertEqual(all.stdout, input)
        let none = try runPick(["-f", "a"], input: input)
        XCTAssertEqual(none.status, 1)
        XCTAssertEqual(none.stdout, Data())
        XCTAssertEqual(try runPick(["--read0", "--print0", "-f", ""], input: Data([0, 0, 0])).stdout, Data([0, 0, 0]))
        XCTAssertEqual(try runPick(["--complete", "a"], input: input).status, 1)
    }

    func testNoLinesAtAll() throws {
        for args in [["-f", ""], ["-f", "x"], ["--read0", "-f", ""], ["--plain", "--print0", "-f", ""],
                     ["--complete", "x"], ["--header-lines=3", "-f", ""], ["--print-query", "-f", "q"]] {
            let run = try runPick(args, input: Data())
            XCTAssertEqual(run.status, 1, "\(args)")
            XCTAssertEqual(run.stdout, args.contains("--print-query") ? Data("q\n".utf8) : Data(), "\(args)")
            XCTAssertEqual(run.stderr, "", "\(args)")
        }
    }

    // MARK: Binary files

    func testARandomBinaryFileComesBackByteForByte() throws {
        let bytes = seededBytes(count: 1 << 20, seed: 0x5EED_0F_B1_7E5)
        let input = Data(bytes)
        // --plain keeps tabs in the title, so the empty query is input order: the file itself
        // (plus the newline that ends its last line).
        let plain = try runPick(["--plain", "-f", ""], input: input)
        XCTAssertEqual(plain.status, 0)
        XCTAssertTrue(plain.stdout == input + (bytes.last == 0x0A ? Data() : Data([0x0A])), "plain: the file again")
        XCTAssertEqual(plain.stderr, "")
        // With fields the lines are grouped by their "section", so compare as a multiset.
        let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        let expected = (bytes.last == 0x0A ? Array(lines.dropLast()) : lines)
        let fields = try runPick(["-f", ""], input: input)
        XCTAssertEqual(fields.status, 0)
        XCTAssertTrue(byteLines(fields.stdout).sorted { $0.lexicographicallyPrecedes($1) }
                      == expected.sorted { $0.lexicographicallyPrecedes($1) }, "fields: the same lines")
        // NUL-separated, as `find -print0` would give it.
        let nul = try runPick(["--plain", "--read0", "--print0", "-f", ""], input: input)
        XCTAssertTrue(nul.stdout == input + (bytes.last == 0 ? Data() : Data([0])), "read0: the file again")
    }

    func testQueriesOverARandomBinaryFilePrintOnlyInputLines() throws {
        let bytes = seededBytes(count: 1 << 18, seed: 42)
        let input = Data(bytes)
        let lines = Set(bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init))
        for query in ["a", "ab", "'\u{FFFD}", "^x", "z$", "!q", "a | b", "é"] {
            let run = try runPick(["-f", query], input: input)
            XCTAssertTrue([0, 1].contains(run.status), "\(query): status \(run.status) \(run.stderr)")
            XCTAssertEqual(run.stderr, "", query)
            for line in byteLines(run.stdout) where !lines.contains(line) {
                XCTFail("\(query): printed a line that is not in the input: \(line.prefix(20))")
                break
            }
        }
    }

    // MARK: Text that is hard to lay out

    func testLinesOfOnlyCombiningMarks() throws {
        let lines = ["\u{301}", "\u{301}\u{301}\u{301}", "\u{308}\u{20DD}\u{5B4}", "e\u{301}", "plain"].map { Array($0.utf8) }
        let input = joined(lines)
        XCTAssertEqual(try runPick(["-f", ""], input: input).stdout, input)
        XCTAssertEqual(try runPick(["--literal", "-f", "e\u{301}"], input: input).stdout, Data(lines[3] + [0x0A]))
        let marks = try runPick(["-f", "\u{301}"], input: input)
        XCTAssertEqual(marks.stderr, "")
        for line in byteLines(marks.stdout) { XCTAssertTrue(lines.contains(line)) }
    }

    func testRightToLeftTextAndDirectionOverrides() throws {
        let lines = ["שלום עולם", "مرحبا بالعالم.txt", "\u{202E}gnp.exe", "abc\u{200F}def\u{2067}x\u{2069}"].map { Array($0.utf8) }
        let input = joined(lines)
        XCTAssertEqual(try runPick(["-f", ""], input: input).stdout, input)
        XCTAssertEqual(try runPick(["-f", "עולם"], input: input).stdout, Data(lines[0] + [0x0A]))
        XCTAssertEqual(try runPick(["-f", "بالعالم"], input: input).stdout, Data(lines[1] + [0x0A]))
        XCTAssertEqual(try runPick(["-f", "exe"], input: input).stdout, Data(lines[2] + [0x0A]))
        XCTAssertEqual(try runPick(["-f", "'abc"], input: input).stdout, Data(lines[3] + [0x0A]))
    }

    func testWideCJKAndEmoji() throws {
        let lines = ["日本語のファイル.txt", "👨‍👩‍👧‍👦 family", "🇯🇵 flag", "ｆｕｌｌｗｉｄｔｈ", "한국어\t섹션\t키워드\t⌘K"]
            .map { Array($0.utf8) }
        let input = joined(lines)
        XCTAssertEqual(try runPick(["--plain", "-f", ""], input: input).stdout, input)
        XCTAssertEqual(try runPick(["-f", "ファイル"], input: input).stdout, Data(lines[0] + [0x0A]))
        XCTAssertEqual(try runPick(["-f", "family"], input: input).stdout, Data(lines[1] + [0x0A]))
        XCTAssertEqual(try runPick(["-f", "🇯🇵"], input: input).stdout, Data(lines[2] + [0x0A]))
        XCTAssertEqual(try runPick(["-f", "키워드"], input: input).stdout, Data(lines[4] + [0x0A]))
    }
}
