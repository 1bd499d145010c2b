@testable import Pick
@testable import PickCore
import XCTest

/// Placeholders expand as fzf's, every value shell-quoted.
final class CommandTemplateTests: XCTestCase {
    private func expand(_ template: String, _ c: TemplateContext) -> String {
        String(decoding: CommandTemplate(template).expand(c), as: UTF8.self)
    }

    private func line(_ s: String, _ index: Int = 0, query: String = "", marked: [String] = [], markedIndices: [Int] = [],
                      delimiter: String? = nil) -> TemplateContext {
        TemplateContext(current: Array(s.utf8), currentIndex: index, marked: marked.map { Array($0.utf8) },
                        markedIndices: markedIndices, query: Array(query.utf8), delimiter: try! FieldDelimiter(delimiter))
    }

    func testTheFocusedLineQueryAndIndexAreFilledIn() {
        XCTAssertEqual(expand("cat {} # {q} {n}", line("a file", 7, query: "fi")), "cat 'a file' # 'fi' 7")
    }

    func testThePickersContextCountsHeaderLinesInIndexesAsFzf() {
        let store = LineStore()
        store.append(Array("head\none\ntwo\n".utf8))
        store.finish()
        let c = TemplateContext(lines: store, current: 2, marked: [1, 2], query: "q",
                                delimiter: .blanks)
        XCTAssertEqual(expand("{} {n} {+} {+n} {q}", c), "'two' 2 'one' 'two' 1 2 'q'")
        let none = TemplateContext(lines: store, current: nil, marked: [], query: "",
                                   delimiter: .blanks)
        XCTAssertEqual(expand("[{}]", none), "['']")
    }

    func testASingleQuoteIsWrittenSoTheShellKeepsIt() {
        XCTAssertEqual(expand("echo {}", line("it's")), "echo 'it'\\''s'")
    }

    func testMarkedLinesAreEachQuotedOrTheFocusedLineWhenNoneIsMarked() {
        XCTAssertEqual(expand("rm {+}", line("c", 2, marked: ["a b", "c"], markedIndices: [0, 2])), "rm 'a b' 'c'")
        XCTAssertEqual(expand("rm {+}", line("c", 2)), "rm 'c'")
        XCTAssertEqual(expand("{+n}", line("c", 2, marked: ["a", "c"], markedIndices: [0, 2])), "0 2")
        XCTAssertEqual(expand("{+n}", line("c", 2)), "2")
    }

    func testFieldPlaceholdersPickFieldsOfTheLine() {
        let c = line("a:b:c:d", delimiter: ":")
        XCTAssertEqual(expand("{1} {-1} {2..3} {..2} {3..} {1,4} {9}", c), "'a' 'd' 'b:c' 'a:b' 'c:d' 'a:d' ''")
        XCTAssertEqual(expand("{+2}", line("x:y", marked: ["a:b", "c:d"], delimiter: ":")), "'b' 'd'")
        XCTAssertEqual(expand("{2}", line("  one   two  ")), "'two'")
        XCTAssertEqual(expand("[{s2}]", line("a: b :c", delimiter: ":")), "[' b ']")
    }

    func testQueryFieldsSplitAtBlanks() {
        XCTAssertEqual(expand("{q:2} {q:1..}", line("x", query: "  foo bar baz")), "'bar' 'foo bar baz'")
    }

    func testOtherBracesStayAsWritten() {
        let c = line("x")
        XCTAssertEqual(expand("awk '{print $1}' ${HOME} {x} {sn} {+*n} {0} \\{} \\{+f} {}", c),
                       "awk '{print $1}' ${HOME} {x} {sn} {+*n} {0} {} {+f} 'x'")
        // fzf's pattern matches, the fields do not parse: the text stays, its flags gone.
        XCTAssertEqual(expand("{+1-} {q:1-}", c), "{1-} {q:1-}")
    }

    func testEveryMatchingLineAndTheirIndexesWithTheStar() {
        let c = TemplateContext(current: Array("b".utf8), currentIndex: 1, matched: [Array("a x".utf8), Array("b".utf8)],
                                matchedIndices: [0, 1])
        XCTAssertEqual(expand("{*} {*n} {*1}", c), "'a x' 'b' 0 1 'a' 'b'")
        XCTAssertEqual(expand("[{*}] [{*n}]", TemplateContext()), "[] []")
        XCTAssertTrue(CommandTemplate("wc {*f}").usesMatches)
        XCTAssertFalse(CommandTemplate("wc {+f}").usesMatches)
    }

    /// fzf's `r` flag means unquoted; pick takes the values fzf's would and quotes them all
    /// the same, so that a line's bytes never run as shell code (docs/fzf-differences.md).
    func testRawPlaceholdersAreTakenButStillQuoted() {
        let c = line("a b:it's", 3, marked: ["x y", "z"], delimiter: ":")
        XCTAssertEqual(expand("{r} {r1} {+r} {rs2}", c), "'a b:it'\\''s' 'a b' 'x y' 'z' 'it'\\''s'")
    }

    func testFileFlagWritesTheValuesOneALineAndGivesThePath() {
        var written: [[UInt8]] = []
        func file(_ contents: [UInt8]) -> [UInt8] {
            written.append(contents)
            return Array("'/tmp/f\(written.count)'".utf8)
        }
        let c = line("c d", 2, marked: ["a b", "c d"], markedIndices: [0, 2])
        let out = String(decoding: CommandTemplate("cat {f} {+f} {+fn} {f2}").expand(c, writeFile: file), as: UTF8.self)
        XCTAssertEqual(out, "cat '/tmp/f1' '/tmp/f2' '/tmp/f3' '/tmp/f4'")
        XCTAssertEqual(written.map { String(decoding: $0, as: UTF8.self) }, ["c d\n", "a b\nc d\n", "0\n2\n", "d\n"])
        var nul = c
        nul.separator = 0
        written = []
        _ = CommandTemplate("{+f}").expand(nul, writeFile: file)
        XCTAssertEqual(written, [Array("a b".utf8) + [0] + Array("c d".utf8) + [0]])
        // As fzf's: a file of no values holds one empty line.
        written = []
        _ = CommandTemplate("{*f}").expand(TemplateContext(), writeFile: file)
        XCTAssertEqual(written, [[0x0A]])
    }

    func testFzfsOwnNamesForTheQueryPromptAndAction() {
        let c = TemplateContext(query: Array("it's".utf8), action: "up", prompt: Array("> ".utf8))
        XCTAssertEqual(expand("{fzf:query} {fzf:prompt} {fzf:action}", c), "'it'\\''s' '> ' up")
    }

    func testWithNoFocusedLineEachPlaceholderIsAnEmptyArgument() {
        let c = TemplateContext(query: Array("q".utf8))
        XCTAssertEqual(expand("x {} {n} {1} {+} {q}", c), "x '' '' '' '' 'q'")
    }

    func testTheTemplateSaysWhatItDependsOn() {
        XCTAssertTrue(CommandTemplate("grep {q} {}").usesQuery)
        XCTAssertFalse(CommandTemplate("cat {}").usesQuery)
        XCTAssertTrue(CommandTemplate("cat {+1}").usesMarked)
        XCTAssertFalse(CommandTemplate("cat {1}").usesMarked)
        XCTAssertFalse(CommandTemplate("echo hi").hasPlaceholders)
    }

    func testAValueIsCutAtItsFirstNulByte() {
        XCTAssertEqual(expand("{} {q}", TemplateContext(current: [0x61, 0, 0x62], currentIndex: 0, query: [0, 0x7A])),
                       "'a' ''")
    }

    // MARK: The shell gives back every byte

    private func randomBytes(_ g: inout SeededGenerator, nul: Bool = false) -> [UInt8] {
        let hostile = Array("'\"$`\\;&|<>(){}*?[]!#~-\n\t %".utf8) + [0xFF, 0xC3, 0x80, 0x1B]
        let count = Int(g.next() % 24)
        return (0..<count).map { _ in
            let b: UInt8 = g.next() % 2 == 0 ? hostile[Int(g.next() % UInt64(hostile.count))] : UInt8(truncatingIfNeeded: g.next())
            return !nul && b == 0 ? 0x01 : b
        }
    }

    func testForRandomBytesTheShellGetsBackExactlyTheLineAndQuery() throws {
        var g = SeededGenerator(seed: 20)
        for round in 0..<60 {
            let current = randomBytes(&g), query = randomBytes(&g)
            let marked = (0..<Int(g.next() % 4)).map { _ in randomBytes(&g) }
            let c = TemplateContext(current: current, currentIndex: round, marked: marked,
                                    markedIndices: Array(0..<marked.count), query: query)
            let d = "line \(current) query \(query)"
            XCTAssertEqual(try runShell(CommandTemplate("printf %s {}").expand(c)), current, d)
            XCTAssertEqual(try runShell(CommandTemplate("printf %s {q}").expand(c)), query, d)
            XCTAssertEqual(try runShell(CommandTemplate("printf %s {n}").expand(c)), Array(String(round).utf8), d)
            // {+}: as many arguments as lines, each intact; {*} likewise for the matches.
            let all = marked.isEmpty ? [current] : marked
            XCTAssertEqual(try runShell(CommandTemplate("set -- {+}; printf '%s:' $#; printf %s \"$@\"").expand(c)),
                           Array("\(all.count):".utf8) + all.joined(), d)
            var matching = c
            matching.matched = marked
            XCTAssertEqual(try runShell(CommandTemplate("set -- {*}; printf '%s:' $#; printf %s \"$@\"").expand(matching)),
                           Array("\(marked.count):".utf8) + marked.joined(), d)
            // {+f}: a file the shell reads back, each line ended by a newline.
            let files = TemporaryFiles()
            XCTAssertEqual(try runShell(CommandTemplate("cat {+f}").expand(c, writeFile: files.write)),
                           all.map { $0 + [0x0A] }.joined().map { $0 }, d)
            files.remove()
            for form in ["1", "-1", "2..", "..2", "1,3", "-2..-1", "s1", "+1"] {
                let want: [UInt8]
                if form.hasPrefix("+") {
                    let r = try FieldRanges(parsing: String(form.dropFirst()))
                    want = all.map { Fields.select(r, of: $0, .blanks) }.joined().map { $0 }
                } else if form.hasPrefix("s") {
                    want = Fields.select(try FieldRanges(parsing: String(form.dropFirst())), of: current, .blanks,
                                         preservingSpace: true)
                } else {
                    want = Fields.select(try FieldRanges(parsing: form), of: current, .blanks)
                }
                XCTAssertEqual(try runShell(CommandTemplate("printf %s {\(form)}").expand(c)), want, "{\(form)} \(d)")
            }
        }
    }

    /// fish reads `\\` and `\'` inside single quotes: quoted for it, fish gets back every byte.
    func testForRandomBytesFishGetsBackExactlyTheLineAndQuery() throws {
        guard access("/usr/bin/fish", X_OK) == 0 else { throw XCTSkip("fish is not installed (make deps)") }
        let saved = ChildProcess.shellWords
        ChildProcess.shellWords = ["/usr/bin/fish", "--no-config", "-c"]
        defer { ChildProcess.shellWords = saved }
        XCTAssertEqual(ChildProcess.quoting, .fish)
        var g = SeededGenerator(seed: 29)
        for _ in 0..<40 {
            let current = randomBytes(&g), query = randomBytes(&g)
            var c = TemplateContext(current: current, currentIndex: 0, query: query)
            c.quoting = .fish
            let d = "line \(current) query \(query)"
            XCTAssertEqual(try runShell(CommandTemplate("printf %s {}").expand(c)), current, d)
            XCTAssertEqual(try runShell(CommandTemplate("printf %s {q}").expand(c)), query, d)
        }
    }

    func testANulByteEndsTheValueAndNothingAfterItRuns() throws {
        let line: [UInt8] = Array("a".utf8) + [0] + Array("'; echo pwned; '".utf8)
        let c = TemplateContext(current: line, currentIndex: 0)
        XCTAssertEqual(try runShell(CommandTemplate("printf %s {}").expand(c)), Array("a".utf8))
        XCTAssertEqual(try runShell(CommandTemplate("printf %s {1}").expand(c)), Array("a".utf8))
    }
}
