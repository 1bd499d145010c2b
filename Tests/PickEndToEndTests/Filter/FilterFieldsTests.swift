import Foundation
import XCTest

/// `--filter` with -d, --nth, --with-nth and --accept-nth prints what fzf prints for the same
/// input and options (the same lines; the order may differ, as pick ranks by its own scorer).
final class FilterFieldsTests: XCTestCase {
    /// Lines with several delimiters, empty fields, leading blanks, tabs and non-ASCII text.
    static let input = [
        "alpha:beta:gamma", "beta::alpha", ":alpha:", "gamma:delta:alpha:beta", "  lead one:two",
        "one,two;three", "x  y   z", "  spaced   out   words", "tab\tsep\tfields", "crème:brûlée:café",
        "delta,,epsilon", "zeta;eta,theta:iota", "last:", "", "solo", "a b:c d:e f",
    ]

    private func runFzf(_ arguments: [String], lines: [String]) throws -> (lines: [String], status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try fzfPath())
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "FZF_DEFAULT_OPTS")
        env.removeValue(forKey: "FZF_DEFAULT_OPTS_FILE")
        process.environment = env
        let inFile = FileManager.default.temporaryDirectory.appendingPathComponent("pick-fzf-\(UUID()).txt")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: inFile)
        defer { try? FileManager.default.removeItem(at: inFile) }
        process.standardInput = try FileHandle(forReadingFrom: inFile)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        return (text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init),
                process.terminationStatus)
    }

    /// pick and fzf give the same lines for each query, with `options`.
    private func assertSameAsFzf(_ options: [String], queries: [String], input: [String] = input,
                                 file: StaticString = #filePath, line: UInt = #line) throws {
        _ = try fzfPath()
        for query in queries {
            let arguments = options + ["--filter", query]
            let pick = try runPick(arguments, lines: input)
            let fzf = try runFzf(arguments, lines: input)
            XCTAssertEqual(pick.lines.sorted(), fzf.lines.sorted(), "\(arguments)", file: file, line: line)
            XCTAssertEqual(pick.status, fzf.status, "exit status for \(arguments)", file: file, line: line)
        }
    }

    func testNthWithALiteralDelimiterSearchesOnlyThoseFields() throws {
        try assertSameAsFzf(["-d", ":", "--nth", "2"], queries: ["alpha", "beta", "", "^b", "a$", "'delta", "brûlée", "x"])
        try assertSameAsFzf(["-d", ":", "--nth", "-1"], queries: ["alpha", "gamma", "beta$", "two", "café"])
        try assertSameAsFzf(["-d", ":", "--nth", "2.."], queries: ["alpha", "gamma", "^delta", "lead"])
        try assertSameAsFzf(["-d", ":", "--nth", "..2"], queries: ["gamma", "beta", "iota"])
        try assertSameAsFzf(["-d", ":", "--nth", "-2..-1"], queries: ["delta", "alpha", "^gamma"])
        try assertSameAsFzf(["-d", ",", "--nth", "3"], queries: ["epsilon", "theta", ""])
    }

    func testNthWithoutADelimiterCountsRunsOfBlanksAfterLeadingBlanks() throws {
        try assertSameAsFzf(["--nth", "1"], queries: ["lead", "spaced", "x", "out", "^tab"])
        try assertSameAsFzf(["--nth", "2"], queries: ["one", "out", "y", "sep", "lead"])
        try assertSameAsFzf(["--nth", "-1"], queries: ["words", "z", "fields", "solo"])
    }

    func testARegularExpressionDelimiter() throws {
        try assertSameAsFzf(["-d", "[:,;]", "--nth", "2"], queries: ["two", "eta", "beta", "^$", "alpha"])
        try assertSameAsFzf(["-d", " +", "--nth", "2"], queries: ["y", "out", "one", "spaced"])
        try assertSameAsFzf(["-d", "\\t", "--nth", "2"], queries: ["sep", "fields", "tab"])
        try assertSameAsFzf(["-d", ":+", "--nth", "2"], queries: ["alpha", "beta"])
    }

    func testRegularExpressionsOfEveryShapeCutAsGosDo() throws {
        // Empty matches (`x*`), alternation, classes, Go's \d and \s, groups.
        let input = ["abxc;d,e", "1 , 2, 3", "foo:bar:baz", "a  b\tc"]
        for d in ["x*", ",|;", "[[:space:]]+", "\\s*,\\s*", "\\d", "a|b", "(:)"] {
            for fields in ["1", "2", "-1", "2.."] {
                try assertSameAsFzf(["-d", d, "--accept-nth", fields], queries: [""], input: input)
            }
        }
    }

    func testWithNthSearchesTheShownFieldsAndPrintsTheWholeLine() throws {
        try assertSameAsFzf(["-d", ":", "--with-nth", "2.."], queries: ["alpha", "gamma", "^beta", "lead"])
        try assertSameAsFzf(["-d", ":", "--with-nth", "2..", "--nth", "1"], queries: ["alpha", "beta", "delta", "gamma"])
        try assertSameAsFzf(["--with-nth", "-1"], queries: ["words", "lead", "two"])
    }

    func testAWithNthTemplateIsSearchedAsFzfMakesIt() throws {
        try assertSameAsFzf(["-d", ":", "--with-nth", "{3} <{1}>"], queries: ["'<alpha>", "gamma <", "^alpha", "'<>"])
        try assertSameAsFzf(["-d", ":", "--with-nth", "{2..}={n}", "--nth", "-1"], queries: ["=1", "'=3", "beta", ""])
        try assertSameAsFzf(["--with-nth", "{2} {1}.", "--nth", "2.."], queries: ["one.", "lead.", "x.", "spaced"])
        // fzf's suite (test_with_nth_template), where --nth counts in the text made.
        let run = try runPick(["-f^he he.he.", "-x", "-n", "2..", "--with-nth", "{2} {1}. {1}."],
                              lines: ["hello world ", "byebye"])
        XCTAssertEqual(run.lines, ["hello world "])
    }

    func testAcceptNthPrintsTheChosenFields() throws {
        try assertSameAsFzf(["-d", ":", "--accept-nth", "2"], queries: ["alpha", "", "crème"])
        try assertSameAsFzf(["-d", ":", "--accept-nth", "1,3"], queries: ["gamma", "beta"])
        try assertSameAsFzf(["-d", ":", "--accept-nth", "-1", "--nth", "1"], queries: ["gamma", "beta"])
        try assertSameAsFzf(["--accept-nth", "2..", "--nth", "1"], queries: ["lead", "x", "spaced"])
        try assertSameAsFzf(["-d", "[:,;]", "--accept-nth", "..2"], queries: ["two", "eta", "delta"])
    }

    func testCommaListsMatchEachRangeAloneLikeFzfForWordsInOneField() throws {
        // pick searches the ranges of a comma list as one text (a term may cross them); for
        // terms that lie inside one field the lines are fzf's.
        try assertSameAsFzf(["-d", ":", "--nth", "1,3"], queries: ["gamma", "alpha", "café", "two"])
    }

    func testPrint0AndReadNulSeparatedLinesWithFields() throws {
        let input = Data("a:one\u{0}b:two\nlines\u{0}c:three".utf8)
        let run = try runPick(["--read0", "--print0", "-d", ":", "--nth", "2", "--accept-nth", "1", "--filter", "t"],
                              input: input)
        XCTAssertEqual(Set(run.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }), ["b", "c"])
    }

    func testAFieldOptionWithABadIndexIsAnErrorNamingIt() throws {
        let run = try runPick(["--nth", "1..0", "--filter", "x"], lines: ["x"])
        XCTAssertEqual(run.status, 2)
        XCTAssertTrue(run.stderr.contains("--nth"), run.stderr)
        XCTAssertEqual(run.stdout, Data())
    }

    func testWithoutFieldOptionsALinePrintsByteForByte() throws {
        let line: [UInt8] = [0x61, 0x3A, 0xFF, 0x3A, 0x62]
        let run = try runPick(["-d", ":", "--nth", "2..", "--filter", "b"], input: Data(line + [0x0A]))
        XCTAssertEqual(run.stdout, Data(line + [0x0A]))
    }
}
