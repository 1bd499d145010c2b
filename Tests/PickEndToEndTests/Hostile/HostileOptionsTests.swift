import Foundation
import PickCore
import XCTest

/// Every option the parser knows (Options.longOptions), given hostile values through the real
/// binary: refused with exactly one short line on stderr naming it and status 2, nothing on
/// stdout; or accepted where the value means something. Never a crash, never a page of text.
/// (OptionValueTests holds the per-option decisions; this checks what reaches the terminal.)
final class HostileOptionsTests: XCTestCase {
    private let lines = ["alpha", "beta"]
    /// Under the kernel's limit for one argument or variable (128 KiB).
    private let huge = String(repeating: "x", count: 100_000)
    private let hugeNumber = String(repeating: "9", count: 100_000)

    private func assertRefused(_ run: PickRun, naming name: String, _ what: String,
                               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 2, "\(what): \(run.stderr.prefix(200))", file: file, line: line)
        XCTAssertEqual(run.stdout, Data(), "\(what) printed to stdout", file: file, line: line)
        XCTAssertTrue(run.stderr.hasPrefix("pick: ") && run.stderr.hasSuffix("\n"), "\(what): \(run.stderr.prefix(200))",
                      file: file, line: line)
        XCTAssertEqual(run.stderr.filter { $0 == "\n" }.count, 1, "\(what): one line", file: file, line: line)
        XCTAssertLessThan(run.stderr.utf8.count, 300, "\(what): a short line", file: file, line: line)
        XCTAssertTrue(run.stderr.contains(name), "\(what): '\(run.stderr)' names \(name)", file: file, line: line)
    }

    /// Status 0 or 1 (it ran), or a proper refusal naming `name`.
    private func assertRanOrRefused(_ run: PickRun, naming name: String, _ what: String,
                                    file: StaticString = #filePath, line: UInt = #line) {
        if run.status == 2 {
            assertRefused(run, naming: name, what, file: file, line: line)
        } else {
            XCTAssertTrue([0, 1].contains(run.status), "\(what): status \(run.status)", file: file, line: line)
            XCTAssertEqual(run.stderr, "", what, file: file, line: line)
        }
    }

    func testEveryOptionMissingItsValueIsOneLineNamingIt() throws {
        for (name, argument) in Options.longOptions where argument == .required {
            assertRefused(try runPick(["-f", "a", name], lines: lines), naming: name, "\(name) at the end")
        }
        for (c, argument) in Options.shortOptions where argument == .required {
            assertRefused(try runPick(["-f", "a", "-\(c)"], lines: lines), naming: "-\(c)", "-\(c) at the end")
        }
    }

    func testEveryFlagGivenAValueIsOneLineNamingIt() throws {
        for (name, argument) in Options.longOptions where argument == .none {
            assertRefused(try runPick(["-f", "a", "\(name)=1"], lines: lines), naming: name, "\(name)=1")
        }
    }

    func testEveryOptionGivenAHugeValueRunsOrSaysSoInOneShortLine() throws {
        for (name, argument) in Options.longOptions where argument != .none && name != "--filter" {
            for value in [huge, hugeNumber] {
                let run = try runPick(["-f", "a", "\(name)=\(value)"], lines: lines)
                assertRanOrRefused(run, naming: name, "\(name)=<\(value.prefix(1)) x 100000>")
            }
        }
        assertRanOrRefused(try runPick(["-f", huge], lines: lines), naming: "-f", "a 100 KB query")
        assertRefused(try runPick(["-f", "a", "--" + huge], lines: lines), naming: "unknown option", "a 100 KB option name")
    }

    func testEmptyValuesThatMeanSomethingAreTaken() throws {
        let run = try runPick(["--query", "", "--prompt", "", "--header=", "-f", ""], lines: lines)
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines, lines)
        XCTAssertEqual(try runPick(["--complete", ""], lines: lines).status, 1, "nothing completes empty text")
        assertRefused(try runPick(["-f", "a", "--height="], lines: lines), naming: "--height", "empty --height")
        assertRefused(try runPick(["-f", "a", "--history", ""], lines: lines), naming: "--history", "empty --history")
    }

    func testNumbersThatOverflowOrAreNegative() throws {
        for args in [["--limit", "99999999999999999999"], ["--height", "1000%"], ["--height=-100%"],
                     ["--header-lines=-1"], ["--multi=99999999999999999999"], ["-m99999999999999999999"],
                     ["--header-lines", "9223372036854775808"]] {
            let name = args[0].hasPrefix("-m") ? "-m" : String(args[0].prefix { $0 != "=" })
            assertRefused(try runPick(["-f", "a"] + args, lines: lines), naming: name, "\(args)")
        }
    }

    func testBadDefaultOptionsSayWhereTheValueCameFrom() throws {
        let run = try runPick(["-f", "a"], lines: lines, environment: ["PICK_DEFAULT_OPTS": "--cycle --height x"])
        XCTAssertEqual(run.stderr, "pick: PICK_DEFAULT_OPTS: invalid value for --height: 'x' (expected rows from 3, or a percentage like 40%, optionally after ~ or -)\n")
        XCTAssertEqual(run.status, 2)
        for defaults in ["--query", "--tac=1", "--limit=0", "stray", "--prompt='open", "--layout=\(huge)",
                         "--color=\(hugeNumber)", "--expect=\"\n\u{1B}[2J\"", "-q"] {
            let run = try runPick(["-f", "a"], lines: lines, environment: ["PICK_DEFAULT_OPTS": defaults])
            assertRefused(run, naming: "PICK_DEFAULT_OPTS: ", "PICK_DEFAULT_OPTS=\(defaults.prefix(30))")
        }
    }
}
