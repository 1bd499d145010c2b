@testable import PickCore
import XCTest

/// Every option pick knows, given a missing, empty, huge or malformed value: refused with
/// one line naming the option (and PICK_DEFAULT_OPTS when the value came from there), or,
/// where such a value means something (`--query ''`, `--prompt ''`), accepted.
final class OptionValueTests: XCTestCase {
    /// What an option that takes a value does with hostile values.
    private struct Rule {
        /// A value it accepts: shows the parser handles the option at all.
        var valid: String
        /// Whether an empty value means something (accepted) or is refused.
        var acceptsEmpty: Bool
        /// Whether a 1 MB value is accepted (free text, checked when used) or refused.
        var acceptsHuge: Bool
        /// Values it must refuse.
        var malformed: [String]
    }

    private static let badNumbers = ["x", "-1", "1.5", "99999999999999999999", "-99999999999999999999", "0x10",
                                     "1e3", " 5", "5 ", "5x", "\u{FF15}", "\u{0665}", "-", "1,2"]

    private static let spacings = ["x", "-1", "1,2,3,4,5", "50%", "1e3", "1,", ",1", "1.5", "%", "10%%", " 1",
                                   "1001", "\u{FF15}", ".5%", "5.%", "1.2.3%", "1;2"]

    private static func text(_ valid: String) -> Rule {
        Rule(valid: valid, acceptsEmpty: true, acceptsHuge: true, malformed: [])
    }

    /// The decision for every option that takes a value. A new option must be added here.
    private static let badFieldIndexes = ["0", "a", "1..0", "-1..2", "1...2", ",", "1,", "{1}", " 1"]

    private static let rules: [String: Rule] = [
        // Free text: empty is meaningful (no query, no prompt, an empty header line).
        "--query": text("foo bar"),
        "--filter": text("foo"),
        "--complete": text("sa"),
        "--prompt": text("? "),
        "--header": text("Hi"),
        // Names checked when used: empty is refused now, a long one fails when opened or looked up.
        "--history": Rule(valid: "/tmp/h", acceptsEmpty: false, acceptsHuge: true, malformed: []),
        "--scope": Rule(valid: "Go to", acceptsEmpty: false, acceptsHuge: true, malformed: []),
        "--remember": Rule(valid: "files", acceptsEmpty: false, acceptsHuge: false,
                           malformed: ["a/b", "..", ".x", "-x", "a b", "x\n", "é", "../files", "x:y"]),
        // Numbers, lists and words: refused unless well formed.
        "--limit": Rule(valid: "3", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers + ["0", "1000000001"]),
        "--multi": Rule(valid: "5", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers + ["1000000001"]),
        "--header-lines": Rule(valid: "2", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers),
        // `-N` is fzf's "all but N rows": `-1` and `-10%` mean something.
        "--height": Rule(valid: "~40%", acceptsEmpty: false, acceptsHuge: false,
                         malformed: badNumbers.filter { $0 != "-1" } + ["1000%", "0%", "101%", "-100%", "%", "10%%", "40 %", "2",
                                                  "0", "100001", "99999999999999999999%", "1.5%", "%40", "--1", "-~1",
                                                  "~", "~~10", "10~", "~ 10", "~2", "- 1"]),
        "--min-height": Rule(valid: "20+", acceptsEmpty: false, acceptsHuge: false,
                             malformed: ["x", "-1", "+", "1.5", "20++", "+20", " 5", "100001"]),
        "--tabstop": Rule(valid: "4", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers + ["0"]),
        "--history-size": Rule(valid: "100", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers + ["0"]),
        "--hscroll-off": Rule(valid: "3", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers),
        "--scroll-off": Rule(valid: "3", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers),
        "--with-shell": Rule(valid: "bash -c", acceptsEmpty: false, acceptsHuge: true, malformed: ["'bash", "  "]),
        "--toggle-sort": Rule(valid: "ctrl-r", acceptsEmpty: false, acceptsHuge: false, malformed: ["nokey", "ctrl-"]),
        "--sort": Rule(valid: "1000", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers),
        "--tiebreak": Rule(valid: "begin,index", acceptsEmpty: false, acceptsHuge: false,
                           malformed: ["random", "index,length", "length,length", ",", "length,", ",length",
                                       "begin,end,length,chunk", "Length", "length index"]),
        "--bind": Rule(valid: "ctrl-x:execute(ls {})+accept", acceptsEmpty: false, acceptsHuge: false,
                       malformed: ["ctrl-x", "ctrl-x:nope", ":accept", "ctrl-x:execute(ls", "nokey:up", "a:up+",
                                   "jumpy:up", "ctrl-r:put", "a:unbind(x-y)"]),
        // As fzf: an empty name is skipped (`ctrl-x,`), a lone `,` is the comma key.
        "--expect": Rule(valid: "/,alt-enter,", acceptsEmpty: false, acceptsHuge: false,
                         malformed: ["hyper-x", "ctrl-", "f13", "f0", "ctrl-xy", "alt-", "ctrl-x,nokey"]),
        "--layout": Rule(valid: "reverse-list", acceptsEmpty: false, acceptsHuge: false,
                         malformed: ["left", "Top", " top", "top,", "reverse_list", "Reverse"]),
        // fzf's look: words and sizes checked now; label text is cut to the width when drawn.
        "--border": Rule(valid: "sharp", acceptsEmpty: false, acceptsHuge: false,
                         malformed: ["round", "Rounded", "inline", "sharp,bold", " sharp", "none "]),
        "--border-label": text("Files"),
        "--border-label-pos": Rule(valid: "-3:bottom", acceptsEmpty: false, acceptsHuge: false,
                                   malformed: ["x", "1.5", "3:left", "3:bottom:top", "99999999999999999999", "+3",
                                               "--3", "3 ", ":", "10001", "\u{FF15}"]),
        "--list-border": partBorder(refusing: ["inline", "line"]), "--input-border": partBorder(refusing: ["inline"]),
        "--header-border": partBorder(), "--header-lines-border": partBorder(), "--footer-border": partBorder(),
        "--preview-border": partBorder(refusing: ["inline"]),
        "--list-label": text("List"), "--input-label": text("In"), "--header-label": text("H"),
        "--footer-label": text("F"), "--preview-label": text("P"),
        "--list-label-pos": labelPosition, "--input-label-pos": labelPosition, "--header-label-pos": labelPosition,
        "--footer-label-pos": labelPosition, "--preview-label-pos": labelPosition,
        "--footer": text("a footer"),
        "--style": Rule(valid: "full:sharp", acceptsEmpty: false, acceptsHuge: false,
                        malformed: ["fancy", "full:round", "minimal:sharp", "default:", " full", "full,sharp"]),
        "--margin": Rule(valid: "1,10%", acceptsEmpty: false, acceptsHuge: false, malformed: spacings),
        "--padding": Rule(valid: "0,1,2,3", acceptsEmpty: false, acceptsHuge: false, malformed: spacings),
        "--info": Rule(valid: "inline-right", acceptsEmpty: false, acceptsHuge: false,
                       malformed: ["inline-left", "Inline", "inline,right", "hidden:x", "default:", "right:>"]),
        "--pointer": Rule(valid: "▶", acceptsEmpty: true, acceptsHuge: false, malformed: ["abc", "世界", "->>", "▶▶▶"]),
        "--marker": Rule(valid: "+ ", acceptsEmpty: true, acceptsHuge: false, malformed: ["abc", "世界", "***"]),
        "--gutter": Rule(valid: "▌", acceptsEmpty: true, acceptsHuge: false, malformed: ["ab", "世"]),
        // The list's glyph and the preview's: empty is none (--no-scrollbar).
        "--scrollbar": Rule(valid: "▌▐", acceptsEmpty: true, acceptsHuge: false, malformed: ["abc", "世"]),
        "--gutter-raw": Rule(valid: "▖", acceptsEmpty: true, acceptsHuge: false, malformed: ["abc", "世界"]),
        "--jump-labels": Rule(valid: "asdf", acceptsEmpty: false, acceptsHuge: false, malformed: ["aa", "世界"]),
        "--ellipsis": Rule(valid: "SNIPSNIP", acceptsEmpty: true, acceptsHuge: false,
                           malformed: [String(repeating: ".", count: 41), String(repeating: "世", count: 21)]),
        // The rule after the counts: free text, colours and tabs included, drawn cut to the
        // width (empty: none drawn).
        "--separator": text("─"),
        // Wrapping, multi-line items and gaps (fzf's values): signs and the gap line are free
        // text (a sign wider than a row is cut there), the rest refused unless well formed.
        "--wrap": Rule(valid: "word", acceptsEmpty: false, acceptsHuge: false, malformed: ["line", "Word", " char", "char "]),
        "--wrap-sign": text("↳ "),
        "--preview-wrap-sign": text("> "),
        "--gap-line": text("┈"),
        "--gap": Rule(valid: "2", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers),
        // Fields kept in view at a long line's start and end: a count.
        "--freeze-left": Rule(valid: "1", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers),
        "--freeze-right": Rule(valid: "1", acceptsEmpty: false, acceptsHuge: false, malformed: badNumbers),
        "--marker-multi-line": Rule(valid: "╻┃╹", acceptsEmpty: true, acceptsHuge: false, malformed: ["ab", "abcd", "世"]),
        "--scheme": Rule(valid: "history", acceptsEmpty: false, acceptsHuge: false,
                         malformed: ["hist", "paths", "default,path", " path"]),
        // A literal string or a regular expression: any text but an empty one.
        "--delimiter": Rule(valid: ":", acceptsEmpty: false, acceptsHuge: true, malformed: []),
        "--nth": Rule(valid: "1,3..-1", acceptsEmpty: false, acceptsHuge: false, malformed: badFieldIndexes),
        "--with-nth": Rule(valid: "2..", acceptsEmpty: false, acceptsHuge: false,
                           malformed: badFieldIndexes.filter { $0 != "{1}" } + ["{x}"]),
        // A template (`{1}: {2..}`) is a value too; text with no placeholder is not.
        "--accept-nth": Rule(valid: "-1", acceptsEmpty: false, acceptsHuge: false,
                             malformed: badFieldIndexes.filter { $0 != "{1}" } + ["{x}"]),
        "--id-nth": Rule(valid: "1", acceptsEmpty: false, acceptsHuge: false, malformed: badFieldIndexes),
        "--color": Rule(valid: "dark,hl:red", acceptsEmpty: false, acceptsHuge: false,
                        malformed: ["nocolor", "hl:nocolor", "hl:256", "hl:-2", ":red", ",", "dark,",
                                    "hl:#12345", "hl:#12345g", "nothing:red", "hl=red"]),
        // The preview: a command (empty: none, as fzf), and fzf's window words, each checked.
        "--preview": text("cat {}"),
        // A command whose output takes the counts' place (empty: none).
        "--info-command": text("echo $FZF_INFO"),
        // Free text shown dim in place of an empty query (empty: none).
        "--ghost": text("type to search"),
        "--preview-window": Rule(valid: "up,40%,border-sharp,+{2}-5/2,~3,<80(down,10)", acceptsEmpty: true,
                                 acceptsHuge: false,
                                 malformed: ["middle", "100%", "50%%", "-5", "+", "+x", "+{2", "+{x}", "+1/0", "~x",
                                             "~-1", "border-round", "<80(", "right;50%", "1.5", "1.5%"]),
        // The walker: fzf's words, file or dir among them; folders and names are free text
        // (an empty --walker-skip skips nothing).
        "--walker": Rule(valid: "file,dir,follow,hidden", acceptsEmpty: false, acceptsHuge: false,
                         malformed: ["hidden", "follow,hidden", "files", "file,x", "file dir", ","]),
        "--walker-root": text("src"),
        "--walker-skip": text(".git,node_modules,target"),
        "--shell": Rule(valid: "bash", acceptsEmpty: false, acceptsHuge: false, malformed: ["sh", "BASH", "bash ", "pwsh"]),
        "--completion": Rule(valid: "zsh", acceptsEmpty: false, acceptsHuge: false, malformed: ["sh", "Zsh", "zsh "]),
        // --listen's address: a port, HOST:PORT, or a socket path (ListenAddress.swift).
        "--listen": Rule(valid: "localhost:6266", acceptsEmpty: false, acceptsHuge: false, malformed: listenAddresses),
        "--listen-unsafe": Rule(valid: "/tmp/pick.sock", acceptsEmpty: false, acceptsHuge: false, malformed: listenAddresses),
        "--tmux": Rule(valid: "bottom,40%", acceptsEmpty: false, acceptsHuge: false, malformed: tmuxSpecs),
        "--popup": Rule(valid: "80%,60%", acceptsEmpty: false, acceptsHuge: false, malformed: tmuxSpecs),
    ]
    /// A part's border style, as --border's (`inline` only for the header's, header
    /// lines' and footer's).
    private static func partBorder(refusing more: [String] = []) -> Rule {
        Rule(valid: "double", acceptsEmpty: false, acceptsHuge: false,
             malformed: ["round", "Rounded", "sharp,bold", " sharp", "none "] + more)
    }
    private static let labelPosition = Rule(valid: "2:bottom", acceptsEmpty: false, acceptsHuge: false,
                                            malformed: ["x", "1.5", "3:left", "3:bottom:top", "+3", "--3", "3 ", ":", "10001"])
    private static let listenAddresses = ["65536", "x", "a:b:1", "-1", "+1", "1.5", " 80", "80 ", "host:", "::1"]
    private static let tmuxSpecs = ["middle", "0%", "101%", "1,2,3", "x%", "center,", "10 ", "-5", "bottom,40%,50%,60%"]

    /// Huge values: as long as one argument or variable can be (the kernel's MAX_ARG_STRLEN,
    /// 128 KiB). Each test parses hundreds of them, in a debug build; a defaults file has no
    /// such limit, and its test takes a mebibyte (`hugeInAFile`).
    private let huge = String(repeating: "x", count: 1 << 17)
    private let hugeNumber = String(repeating: "9", count: 1 << 17)
    private let hugeInAFile = String(repeating: "x", count: 1 << 20)

    /// The error `args` (and `defaults`) give, or nil when they parse.
    private func error(_ args: [String], defaults: String? = nil) -> String? {
        do {
            _ = try Options.parse(arguments: args, defaults: defaults)
            return nil
        } catch let e as OptionError {
            return e.message
        } catch {
            return "unexpected \(error)"
        }
    }

    /// `args` are refused with a short single line that names `name`.
    private func assertRefused(_ args: [String], naming name: String, defaults: String? = nil,
                               file: StaticString = #filePath, line: UInt = #line) {
        let shown = args.map { $0.count > 40 ? "\($0.prefix(40))… (\($0.utf8.count) bytes)" : $0 }
        guard let message = error(args, defaults: defaults) else {
            return XCTFail("\(shown) \(defaults.map { "with PICK_DEFAULT_OPTS \($0.prefix(40))" } ?? "") was accepted",
                           file: file, line: line)
        }
        XCTAssertTrue(message.contains(name), "\(shown): '\(message)' should name \(name)", file: file, line: line)
        XCTAssertFalse(message.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                       "\(shown): one printable line, got \(message.debugDescription)", file: file, line: line)
        XCTAssertLessThan(message.count, 300, "\(shown): a huge value is cut short in the message", file: file, line: line)
        if defaults != nil {
            XCTAssertTrue(message.hasPrefix("PICK_DEFAULT_OPTS: "), "\(shown): '\(message)' should say where", file: file, line: line)
        }
    }

    private func assertAccepted(_ args: [String], defaults: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        if let message = error(args, defaults: defaults) {
            XCTFail("\(args.map { $0.prefix(40) }) refused: \(message)", file: file, line: line)
        }
    }

    /// Quotes `value` for PICK_DEFAULT_OPTS as a shell would read it.
    private func shellQuoted(_ value: String) -> String {
        "'" + value.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The options pick honours (those it accepts and ignores have their own test below).
    private var valueOptions: [String] {
        OptionTable.rows.filter { $0.support == .honoured && $0.argument != .none }.map(\.name).sorted()
    }

    private var flags: [String] {
        OptionTable.rows.filter { $0.support == .honoured && $0.argument == .none }.map(\.name).sorted()
    }

    // MARK: The table covers every option

    func testEveryOptionThatTakesAValueHasADecidedRule() {
        XCTAssertGreaterThan(Options.longOptions.count, 40)
        XCTAssertEqual(valueOptions.filter { Self.rules[$0] == nil }, [],
                       "a new option takes a value: decide what empty, huge and malformed values do")
        XCTAssertEqual(Self.rules.keys.filter { Options.longOptions[$0] == nil || Options.longOptions[$0] == OptionArgument.none }.sorted(), [],
                       "a rule for an option pick does not have")
    }

    func testEveryListedOptionIsHandledByTheParser() {
        for name in flags { assertAccepted([name]) }
        for name in valueOptions {
            let valid = Self.rules[name]!.valid
            assertAccepted(["\(name)=\(valid)"])
            if Options.longOptions[name] == .required { assertAccepted([name, valid]) }
        }
        assertAccepted(["--multi"])
        for (c, argument) in Options.shortOptions {
            let valid = OptionTable.byShort["-\(c)"].flatMap { Self.rules[$0.name]?.valid } ?? "v"
            switch argument {
            case .none: assertAccepted(["-\(c)"])
            case .required: assertAccepted(["-\(c)", valid]); assertAccepted(["-\(c)\(valid)"])
            case .optional: assertAccepted(["-\(c)"]); assertAccepted(["-\(c)3"])
            }
        }
    }

    func testAnOptionPickDoesNotListIsUnknown() {
        XCTAssertEqual(error(["--no-such-option"]), "unknown option: --no-such-option")
        XCTAssertEqual(error(["--QUERY=x"]), "unknown option: --QUERY")
        assertAccepted(["--"])  // fzf ignores it
    }

    /// fzf's options pick accepts without honouring them: any value fzf takes, in either
    /// form, a huge one kept in one short line when refused, and never the next option.
    func testOptionsAcceptedAndNotHonouredTakeTheirValuesAsFzfDoes() {
        let rows = OptionTable.rows.filter { $0.support != .honoured && $0.support != .notImplemented }
        XCTAssertGreaterThan(rows.count, 5, "the rows accepted and not honoured are found")
        for row in rows {
            let value = row.name == "--algo" ? "v1" : "2"
            switch row.argument {
            case .none:
                assertAccepted([row.name])
                assertRefused(["\(row.name)=1"], naming: row.name)
            case .required:
                assertAccepted([row.name, value])
                assertAccepted(["\(row.name)=\(value)"])
                assertRefused([row.name], naming: row.name)
                assertAccepted(["-f", "x"], defaults: "\(row.name)=\(value)")
            case .optional:
                assertAccepted([row.name])
                assertAccepted([row.name, "--tac"])  // an option follows, not a value
                assertAccepted(["\(row.name)=2"])
            }
        }
    }

    // MARK: Missing values

    func testAMissingValueIsNamed() {
        for name in valueOptions where Options.longOptions[name] == .required {
            assertRefused([name], naming: name)
            assertRefused(["-i", name], naming: name)
            XCTAssertEqual(error([name]), "option \(name) needs a value")
        }
        for (c, argument) in Options.shortOptions where argument == .required {
            assertRefused(["-\(c)"], naming: "-\(c)")
            assertRefused(["-e\(c)"], naming: "-\(c)")
        }
    }

    func testAMissingValueInDefaultOptionsDoesNotTakeACommandLineWord() {
        for name in valueOptions where Options.longOptions[name] == .required {
            assertRefused(["-f", "x"], naming: name, defaults: "--tac \(name)")
        }
        assertRefused(["foo"], naming: "-q", defaults: "-q")
    }

    // MARK: Empty values

    func testAnEmptyValueIsAcceptedOnlyWhereItMeansSomething() throws {
        for name in valueOptions {
            let rule = Self.rules[name]!
            for args in [["\(name)="], [name, ""]] where Options.longOptions[name] == .required || args.count == 1 {
                if rule.acceptsEmpty { assertAccepted(args) } else { assertRefused(args, naming: name) }
            }
        }
        let empty = try Options.parse(arguments: ["--query", "", "--prompt=", "--header", "", "--filter="])
        XCTAssertEqual(empty.query, "")
        XCTAssertEqual(empty.prompt, "")
        XCTAssertEqual(empty.header, "")
        XCTAssertEqual(empty.filter, "")
    }

    // MARK: Huge values

    func testAHugeValueIsRefusedInAShortLineOrKeptWhole() throws {
        for name in valueOptions {
            let rule = Self.rules[name]!
            for value in [huge, hugeNumber, hugeNumber + "%"] {
                if rule.acceptsHuge { assertAccepted(["\(name)=\(value)"]) } else { assertRefused(["\(name)=\(value)"], naming: name) }
            }
        }
        let kept = try Options.parse(arguments: ["--prompt", huge, "-q", huge])
        XCTAssertEqual(kept.prompt.utf8.count, 1 << 17)
        XCTAssertEqual(kept.query.utf8.count, 1 << 17)
        assertRefused(["-m" + hugeNumber], naming: "-m")
        assertRefused(["--" + huge], naming: "unknown option: --xxxx")
        assertRefused([huge], naming: "unexpected argument")
    }

    func testAHugeValueIsShownCutShort() {
        let message = error(["--limit=" + hugeNumber])
        XCTAssertEqual(message, "invalid value for --limit: '\(String(repeating: "9", count: 60))…' (expected a whole number from 1)")
    }

    // MARK: Malformed values

    func testAMalformedValueIsNamed() {
        for name in valueOptions {
            for value in Self.rules[name]!.malformed {
                assertRefused(["\(name)=\(value)"], naming: name)
                if Options.longOptions[name] == .required { assertRefused([name, value], naming: name) }
            }
        }
    }

    func testNumbersThatOverflowOrAreNegativeAreRefused() {
        XCTAssertEqual(error(["--limit", "99999999999999999999"]),
                       "invalid value for --limit: '99999999999999999999' (expected a whole number from 1)")
        XCTAssertEqual(error(["--height", "1000%"]),
                       "invalid value for --height: '1000%' (expected rows from 3, or a percentage like 40%, optionally after ~ or -)")
        XCTAssertEqual(error(["--header-lines=-3"]), "invalid value for --header-lines: '-3' (expected a whole number)")
        XCTAssertEqual(error(["-m99999999999999999999"]), "invalid value for -m: '99999999999999999999' (expected a whole number)")
        assertRefused(["--multi=-1"], naming: "--multi")
        assertRefused(["-m1.5"], naming: "-m")
    }

    func testAFlagGivenAValueIsRefused() {
        for name in flags {
            assertRefused(["\(name)=yes"], naming: name)
            assertRefused(["\(name)="], naming: name)
            XCTAssertEqual(error(["\(name)=1"]), "option \(name) takes no value (got '1')")
        }
        assertRefused(["--tac=" + huge], naming: "--tac")
    }

    func testAnOptionalValueMustBeANumber() {
        assertRefused(["--multi="], naming: "--multi")
        assertRefused(["--multi=all"], naming: "--multi")
        assertRefused(["--multi", "5x"], naming: "--multi")
        assertRefused(["-m", "5x"], naming: "-m")
        assertRefused(["--multi", "all"], naming: "unexpected argument: 'all'")  // not a number: not its value
    }

    func testAnOptionalValueMayBeTheNextWordAsFzfTakesIt() throws {
        XCTAssertEqual(try Options.parse(arguments: ["--multi", "5"]).multiLimit, 5)
        XCTAssertEqual(try Options.parse(arguments: ["-m", "5"]).multiLimit, 5)
        XCTAssertEqual(try Options.parse(arguments: ["--multi", "-i"]).multiLimit, 0)
        XCTAssertEqual(try Options.parse(arguments: ["--border", "sharp"]).surround.border, .sharp)
        XCTAssertEqual(try Options.parse(arguments: ["--border", "--tac"]).surround.border, .rounded)
        assertRefused(["--border", "square"], naming: "--border")
        assertAccepted(["--border", "+i"])  // an option follows, not a style
    }

    // MARK: PICK_DEFAULT_OPTS

    func testABadDefaultOptionSaysItCameFromPickDefaultOpts() {
        XCTAssertEqual(error([], defaults: "--height x"),
                       "PICK_DEFAULT_OPTS: invalid value for --height: 'x' (expected rows from 3, or a percentage like 40%, optionally after ~ or -)")
        XCTAssertEqual(error(["--tac"], defaults: "--bogus"), "PICK_DEFAULT_OPTS: unknown option: --bogus")
        XCTAssertEqual(error([], defaults: "--prompt 'open"), "PICK_DEFAULT_OPTS: unterminated quote")
        XCTAssertEqual(error([], defaults: "stray"),
                       "PICK_DEFAULT_OPTS: unexpected argument: 'stray' (pick reads candidates on stdin; see pick --help)")
        XCTAssertEqual(error([], defaults: "--exact=yes"), "PICK_DEFAULT_OPTS: option --exact takes no value (got 'yes')")
    }

    func testEveryMalformedValueInDefaultOptionsIsNamedWithItsSource() {
        for name in valueOptions {
            let rule = Self.rules[name]!
            for value in rule.malformed + (rule.acceptsEmpty ? [] : [""]) + (rule.acceptsHuge ? [] : [huge]) {
                assertRefused([], naming: name, defaults: "--tac \(name)=\(shellQuoted(value))")
            }
        }
        for name in flags { assertRefused([], naming: name, defaults: "\(name)=1") }
    }

    func testAHugeDefaultOptionsValueIsReadOrRefusedInOneShortLine() throws {
        XCTAssertEqual(try Options.parse(arguments: [], defaults: "--prompt=" + hugeInAFile).prompt.utf8.count, 1 << 20)
        assertRefused([], naming: "--height", defaults: "--height=" + String(repeating: "9", count: 1 << 20))
        assertRefused([], naming: "unterminated quote", defaults: "--prompt='" + hugeInAFile)
    }

    func testCommandLineErrorsDoNotBlameDefaultOptions() {
        XCTAssertEqual(error(["--height=x"], defaults: "--tac"),
                       "invalid value for --height: 'x' (expected rows from 3, or a percentage like 40%, optionally after ~ or -)")
    }

    func testControlCharactersInADefaultOptionsValueStayOnOneLine() {
        assertRefused([], naming: "--layout", defaults: "--layout=$'\\n'\"\n\u{1B}[2J\"")
        assertRefused([], naming: "--layout", defaults: "--layout=\"a\u{9B}b\"")
    }
}
