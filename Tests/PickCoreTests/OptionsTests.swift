@testable import PickCore
import XCTest

/// fzf's spellings, PICK_DEFAULT_OPTS first, and errors that name the problem.
final class OptionsTests: XCTestCase {
    private func parse(_ args: [String], defaults: String? = nil) throws -> Options {
        try Options.parse(arguments: args, defaults: defaults)
    }

    private func error(_ args: [String], defaults: String? = nil) -> String? {
        do {
            _ = try parse(args, defaults: defaults)
            return nil
        } catch let e as OptionError {
            return e.message
        } catch {
            return "unexpected \(error)"
        }
    }

    func testDefaults() throws {
        let o = try parse([])
        XCTAssertEqual(o.query, "")
        XCTAssertNil(o.filter)
        XCTAssertEqual(o.limit, 6)
        XCTAssertEqual(o.matching, MatchingOptions())
        XCTAssertEqual(o.ranking, RankingOptions())
        XCTAssertEqual(o.layout, .top)
        XCTAssertEqual(o.height, .full)
        XCTAssertEqual(o.prompt, "> ")
    }

    func testLongOptionWithEqualsOrNextWord() throws {
        XCTAssertEqual(try parse(["--query=foo bar"]).query, "foo bar")
        XCTAssertEqual(try parse(["--query", "foo bar"]).query, "foo bar")
        XCTAssertEqual(try parse(["--filter=x"]).filter, "x")
        XCTAssertEqual(try parse(["--query="]).query, "")
    }

    func testValueMayStartWithADash() throws {
        XCTAssertEqual(try parse(["--query", "-x"]).query, "-x")
        XCTAssertEqual(try parse(["-f", "--tac"]).filter, "--tac")
    }

    func testShortOptionWithAttachedOrNextValue() throws {
        XCTAssertEqual(try parse(["-qfoo"]).query, "foo")
        XCTAssertEqual(try parse(["-q", "foo"]).query, "foo")
        XCTAssertEqual(try parse(["-fbar"]).filter, "bar")
    }

    func testBundledShortFlags() throws {
        let o = try parse(["-ei1"])
        XCTAssertFalse(o.matching.fuzzy)
        XCTAssertEqual(o.matching.caseMode, .ignore)
        XCTAssertTrue(o.selectOne)
        let m = try parse(["-mi"])
        XCTAssertTrue(m.multi)
        XCTAssertEqual(m.multiLimit, 0)
        XCTAssertEqual(m.matching.caseMode, .ignore)
        XCTAssertEqual(try parse(["-m5"]).multiLimit, 5)
        let q = try parse(["-eqfoo"])
        XCTAssertFalse(q.matching.fuzzy)
        XCTAssertEqual(q.query, "foo")
    }

    func testPlusITurnsIgnoreCaseOff() throws {
        XCTAssertEqual(try parse(["+i"]).matching.caseMode, .respect)
        XCTAssertEqual(try parse(["-i", "+i"]).matching.caseMode, .respect)
        XCTAssertEqual(try parse(["+i", "-i"]).matching.caseMode, .ignore)
        XCTAssertEqual(try parse(["+i", "--smart-case"]).matching.caseMode, .smart)
    }

    func testLaterOptionWins() throws {
        XCTAssertTrue(try parse(["--no-sort", "--sort"]).ranking.sorts)
        XCTAssertFalse(try parse(["--sort", "+s"]).ranking.sorts)
        XCTAssertTrue(try parse(["-e", "+e"]).matching.fuzzy)
        XCTAssertFalse(try parse(["--tac", "--no-tac"]).ranking.reversesInput)
    }

    func testMatchingAndRankingFlags() throws {
        let o = try parse(["--exact", "--ignore-case", "--literal", "--no-sort", "--tac", "--tiebreak=begin,length,index"])
        XCTAssertEqual(o.matching, MatchingOptions(fuzzy: false, caseMode: .ignore, normalize: false))
        XCTAssertEqual(o.ranking, RankingOptions(sorts: false, reversesInput: true, tiebreaks: [.begin, .length, .index]))
    }

    func testModesAndOutputFlags() throws {
        let o = try parse(["--complete", "sa", "--limit=3", "--read0", "--print0", "--print-query",
                           "--header-lines=2", "--plain", "--demo", "--expect=ctrl-x,f1"])
        XCTAssertEqual(o.complete, "sa")
        XCTAssertEqual(o.limit, 3)
        XCTAssertTrue(o.read0 && o.print0 && o.printQuery && o.plain && o.demo)
        XCTAssertEqual(o.headerLines, 2)
        XCTAssertEqual(o.expect.map(\.written), ["ctrl-x", "f1"])
    }

    func testInterfaceOptions() throws {
        let o = try parse(["--height=40%", "--layout=bottom", "--prompt", "? ", "--header=Hi",
                           "--scope=Go to", "--cycle", "--history=/tmp/h", "--color=dark,hl:red", "-m3"])
        XCTAssertEqual(o.height, .percent(40))
        XCTAssertEqual(o.layout, .bottom)
        XCTAssertEqual(o.prompt, "? ")
        XCTAssertEqual(o.header, "Hi")
        XCTAssertEqual(o.scope, "Go to")
        XCTAssertTrue(o.cycle)
        XCTAssertEqual(o.history, "/tmp/h")
        XCTAssertEqual(o.color, ColorSpec(steps: [.scheme(.dark), .style(.hl, ColorStyle(words: [.basic(1, bright: false)]))]))
        XCTAssertTrue(o.multi)
        XCTAssertEqual(o.multiLimit, 3)
        XCTAssertEqual(try parse(["--height", "10"]).height, .rows(10))
        XCTAssertEqual(try parse(["--height=100%"]).height, .full)
        XCTAssertTrue(try parse(["--no-color"]).noColor)
        XCTAssertEqual(try parse(["--color=bw"]).color?.isPlain, true)
        XCTAssertTrue(try parse(["--no-color", "--color=hl:red"]).noColor, "a later --color does not undo --no-color")
    }

    func testHelpAndVersion() throws {
        XCTAssertTrue(try parse(["-h"]).help)
        XCTAssertTrue(try parse(["--help"]).help)
        XCTAssertTrue(try parse(["--version"]).version)
    }

    func testUnknownOptionIsNamed() {
        XCTAssertEqual(error(["--bogus"]), "unknown option: --bogus")
        XCTAssertEqual(error(["-z"]), "unknown option: -z")
        XCTAssertEqual(error(["-ez"]), "unknown option: -z")
        XCTAssertEqual(error(["+z"]), "unknown option: +z")
        XCTAssertEqual(error(["--bogus=1"]), "unknown option: --bogus")
    }

    func testMissingValueIsNamed() {
        XCTAssertEqual(error(["--query"]), "option --query needs a value")
        XCTAssertEqual(error(["-q"]), "option -q needs a value")
        XCTAssertEqual(error(["--filter"]), "option --filter needs a value")
        XCTAssertEqual(error(["-i", "--limit"]), "option --limit needs a value")
    }

    func testBadValueIsNamed() throws {
        for (args, name) in [(["--limit=0"], "--limit"), (["--limit", "many"], "--limit"),
                             (["--tiebreak=random"], "--tiebreak"), (["--tiebreak=index,length"], "--tiebreak"),
                             (["--tiebreak=length,length"], "--tiebreak"), (["--height=1"], "--height"),
                             (["--height=0%"], "--height"), (["--layout=left"], "--layout"),
                             (["--color=hl:nocolor"], "--color"), (["--expect=ctrl-"], "--expect"),
                             (["--header-lines=-1"], "--header-lines"), (["-m5x"], "-m"),
                             (["--history="], "--history"), (["--scope="], "--scope")] {
            let message = try XCTUnwrap(error(args), "\(args) should be refused")
            XCTAssertTrue(message.hasPrefix("invalid value for \(name):"), "\(args): \(message)")
        }
    }

    func testFlagGivenAValueIsRefused() {
        XCTAssertEqual(error(["--exact=yes"]), "option --exact takes no value (got 'yes')")
    }

    func testPositionalArgumentIsRefused() {
        XCTAssertTrue(error(["foo"])?.hasPrefix("unexpected argument: 'foo'") ?? false)
    }

    func testDefaultOptionsAreReadFirst() throws {
        let o = try parse([], defaults: "--layout=bottom -i --prompt='pick> '")
        XCTAssertEqual(o.layout, .bottom)
        XCTAssertEqual(o.matching.caseMode, .ignore)
        XCTAssertEqual(o.prompt, "pick> ")
    }

    func testCommandLineOverridesDefaultOptions() throws {
        let o = try parse(["--layout=top", "+i"], defaults: "--layout=bottom -i --tac")
        XCTAssertEqual(o.layout, .top)
        XCTAssertEqual(o.matching.caseMode, .respect)
        XCTAssertTrue(o.ranking.reversesInput, "what the command line does not mention stays")
    }

    func testBadDefaultOptionsAreNamedInTheError() {
        let unknown = error([], defaults: "--bogus")
        XCTAssertTrue(unknown?.contains("--bogus") ?? false, unknown ?? "no error")
        XCTAssertTrue(unknown?.contains("PICK_DEFAULT_OPTS") ?? false, unknown ?? "no error")
        let quote = error([], defaults: "--prompt='open")
        XCTAssertTrue(quote?.contains("PICK_DEFAULT_OPTS") ?? false, quote ?? "no error")
    }

    func testCommandLineErrorsDoNotBlameDefaultOptions() {
        let message = error(["--bogus"], defaults: "--tac")
        XCTAssertEqual(message, "unknown option: --bogus")
    }

    func testEmptyDefaultOptionsAreFine() throws {
        XCTAssertEqual(try parse([], defaults: "").query, "")
        XCTAssertEqual(try parse([], defaults: "   ").query, "")
    }

    func testShellWordsSplitLikeAShell() throws {
        XCTAssertEqual(try ShellWords.split(#"a 'b c' "d \" e" f\ g"#), ["a", "b c", #"d " e"#, "f g"])
        XCTAssertEqual(try ShellWords.split("''"), [""])
        // As in sh: inside double quotes a backslash before other characters stays.
        XCTAssertEqual(try ShellWords.split(#""C:\dir" "a\\b" 'x\y'"#), [#"C:\dir"#, #"a\b"#, #"x\y"#])
        XCTAssertThrowsError(try ShellWords.split("'open"))
    }

    func testExpectKeepsTheKeysAsWrittenAndTheKeysTheyName() throws {
        let o = try parse(["--expect=Return,ctrl-X,alt-up,alt-P"])
        XCTAssertEqual(o.expect.map(\.written), ["Return", "ctrl-X", "alt-up", "alt-P"])
        XCTAssertEqual(o.expect.map(\.key), [.char(13), .char(24), .modified(.up, .alt), .alt(0x50)])
        XCTAssertEqual(try parse(["--expect=enter,return"]).expect, [NamedKey(key: .char(13), written: "return")],
                       "a key named twice prints as written last, as in fzf")
        XCTAssertEqual(error(["--expect=ctrl-x,hyper-x"]), "invalid value for --expect: unknown key 'hyper-x'")
        XCTAssertEqual(error(["--expect=double-click"]),
                       "invalid value for --expect: 'double-click' is a mouse event, not a key")
    }

    func testAValueStartingWithACombiningMarkStaysAValue() throws {
        // "=" followed by U+0301 is one Character; the option parser must still split there.
        let options = try Options.parse(arguments: ["--filter=\u{301}x", "-q\u{301}y"])
        XCTAssertEqual(options.filter?.unicodeScalars.map(\.value), [0x301, 0x78])
        XCTAssertEqual(options.query.unicodeScalars.map(\.value), [0x301, 0x79])
    }
}
