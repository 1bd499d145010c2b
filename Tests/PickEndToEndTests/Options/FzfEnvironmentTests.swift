import Foundation
import XCTest

/// A link to the built pick named `fzf`, in a directory of its own: pick answers as fzf.
func fzfLink() throws -> String {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pick-as-fzf-\(getpid())")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let link = dir.appendingPathComponent("fzf").path
    if (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) != pickBinaryPath() {
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pickBinaryPath())
    }
    return link
}

/// pick invoked as fzf, and as pick, reads the variables fzf's users have set (filter mode).
final class FzfEnvironmentTests: XCTestCase {
    private let lines = ["abc", "axbxc"]

    func testInvokedAsFzfTheVersionBeginsWithFzfsAndNamesPick() throws {
        let run = try runPick(["--version"], binary: try fzfLink())
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.text, "0.74.5 (pick 0.1.0)\n", "scripts compare the first word with fzf's versions")
        XCTAssertEqual(try runPick(["--version"]).text, "pick 0.1.0\n")
    }

    func testInvokedAsFzfItReadsFzfDefaultOptsWithItsCommentLines() throws {
        // forgit writes its options a line each, with comments between.
        let opts = "# forgit's style\n--exact   # plain terms match exactly\n\n  # --no-exact\n"
        let run = try runPick(["-f", "abc"], lines: lines, environment: ["FZF_DEFAULT_OPTS": opts], binary: try fzfLink())
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.lines, ["abc"])
        let plain = try runPick(["-f", "abc"], lines: lines, binary: try fzfLink())
        XCTAssertEqual(plain.lines, ["abc", "axbxc"], "without the option both match, fuzzily")
    }

    func testInvokedAsFzfItReadsFzfsDefaultsFileAndNotPicks() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fzfrc-\(getpid())").path
        try Data("# my fzf options\n--exact\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try runPick(["-f", "abc"], lines: lines,
                              environment: ["FZF_DEFAULT_OPTS_FILE": file, "PICK_DEFAULT_OPTS": "--bogus"],
                              binary: try fzfLink())
        XCTAssertEqual(run.stderr, "", "pick's own variable is not fzf's")
        XCTAssertEqual(run.lines, ["abc"])
    }

    func testInvokedAsFzfABadDefaultNamesFzfsVariable() throws {
        let run = try runPick(["-f", "a"], lines: lines, environment: ["FZF_DEFAULT_OPTS": "--bogus"], binary: try fzfLink())
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.stderr, "pick: FZF_DEFAULT_OPTS: unknown option: --bogus\n")
    }

    func testAsPickFzfsDefaultsApplyUntilPicksOwnAreSetAndAnEmptyOneOptsOut() throws {
        let fzf = ["FZF_DEFAULT_OPTS": "# theme\n--exact"]
        XCTAssertEqual(try runPick(["-f", "abc"], lines: lines, environment: fzf).lines, ["abc"])
        var optOut = fzf
        optOut["PICK_DEFAULT_OPTS"] = ""
        XCTAssertEqual(try runPick(["-f", "abc"], lines: lines, environment: optOut).lines, ["abc", "axbxc"])
        var own = fzf
        own["PICK_DEFAULT_OPTS"] = "--no-sort  # pick's own, with a comment"
        XCTAssertEqual(try runPick(["-f", "abc"], lines: lines, environment: own).lines, ["abc", "axbxc"])
    }

    func testExpectWithAnEmptyNameAsFzfTabPassesIt() throws {
        let run = try runPick(["--expect=/,alt-enter,", "-f", "a"], lines: ["a", "b"])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.status, 0)
        XCTAssertEqual(run.lines, ["a"])
    }

    func testADelimiterWithGosEscapesCutsAtTheBytesTheyName() throws {
        let input = Data("name\u{1F}\u{1E}value one\u{1F}\u{1E}x\nother\u{1F}\u{1E}value two\u{1F}\u{1E}y\n".utf8)
        let run = try runPick(["-d", #"\x1f\x1e"#, "--nth", "2", "--accept-nth", "3", "-f", "two"], input: input)
        XCTAssertEqual(run.lines, ["y"])
        let nul = try runPick(["-d", #"\x00"#, "--nth", "2", "--accept-nth", "1", "-f", "b"],
                              input: Data("a\u{0}b\nb\u{0}c\n".utf8))
        XCTAssertEqual(nul.lines, ["a"])
        let tab = try runPick(["-d", #"\t"#, "--with-nth", "2", "-f", "x", "--accept-nth", "1"], input: Data("1\tx\n2\ty\n".utf8))
        XCTAssertEqual(tab.lines, ["1"])
    }

    func testEveryOptionFzfAcceptsIsAccepted() throws {
        // One of each kind from fzf 0.74.5's options (the suite's scan tries them all).
        let args = ["--style=full", "--wrap", "--tabstop=4", "--list-border", "--input-label= in ", "--gap",
                    "--tail=100", "--sync", "--threads=2", "--algo=v1", "--no-tty-default", "--min-height=20+",
                    "--height=-3", "--history-size=100", "--with-shell=bash -c", "--listen", "--walker=file,dir",
                    "--color=bg:#1e1e2e,query:#c0caf5:regular,selected-bg:#45475a", "--info-command=echo"]
        let run = try runPick(args + ["-f", "a"], lines: ["a"])
        XCTAssertEqual(run.stderr, "")
        XCTAssertEqual(run.lines, ["a"])
    }
}

/// pick as fzf in the terminal, and what the commands it runs see.
final class FzfEnvironmentInteractiveTests: InteractiveTestCase {
    func testInvokedAsFzfThePromptIsAtTheBottomAsFzfStarts() throws {
        try tmux.start(input: "printf 'one\\ntwo\\n'", args: "", height: 10, binary: try fzfLink())
        let screen = tmux.waitFor(text: "2/2")
        XCTAssertTrue(screen[row: 9].hasPrefix(">"), "the prompt on the last row: \(screen)")
        XCTAssertTrue(screen.firstIndex { $0.contains("one") } ?? 0 > screen.firstIndex { $0.contains("two") } ?? 0,
                      "the list reads upward from the prompt: \(screen)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "one\n")
    }

    /// As fzf draws them: no ghost text after the query, and a line's control characters
    /// (fzf-tab's NULs between fields) take no column; as pick, both show.
    func testInvokedAsFzfNoGhostTextAndControlCharactersDrawNothing() throws {
        try tmux.start(input: "printf 'al\\0pha\\0\\nbeta\\n'", args: "", height: 10, binary: try fzfLink())
        tmux.waitFor(text: "2/2")
        tmux.type("al")
        let screen = tmux.waitFor(text: "1/2")
        XCTAssertTrue(screen.contains("\u{258C} alpha"), "the NULs draw nothing (after fzf's pointer): \(screen)")
        XCTAssertTrue(screen.contains("> al"), "no ghost text after the query: \(screen)")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "al\0pha\0\n", "the line is printed as read")
    }

    func testAsPickControlCharactersShowAsSymbols() throws {
        try tmux.start(input: "printf 'al\\0pha\\n'", args: "", height: 10)
        tmux.waitFor("the NUL as a symbol") { $0.contains { $0.contains("al\u{2400}pha") } }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testTheDefaultCommandListsTheCandidatesWhenNothingIsPiped() throws {
        try tmux.start(input: nil, args: "", environment: ["FZF_DEFAULT_COMMAND": "printf \"alpha\\nbeta\\n\""])
        tmux.waitFor(text: "2/2")
        tmux.type("bet")
        tmux.waitFor(text: "1/2")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "beta\n")
    }

    func testAFailedDefaultCommandIsSaidInTheInfoLine() throws {
        try tmux.start(input: nil, args: "", environment: ["FZF_DEFAULT_COMMAND": "echo nothing >&2; exit 3"])
        tmux.waitFor("fzf's words in the counts' place") {
            $0[row: 1].hasPrefix("  [Command failed: echo nothing >&2; exit 3] ─")
        }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testADefaultCommandThatFailsAfterListingLinesShowsTheCounts() throws {
        // fzf's: the failure is said only while nothing was read.
        try tmux.start(input: nil, args: "", environment: ["FZF_DEFAULT_COMMAND": "echo one; false"])
        tmux.waitFor(text: "1/1")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "one\n")
    }

    func testPicksDefaultCommandComesBeforeFzfs() throws {
        try tmux.start(input: nil, args: "", environment: ["FZF_DEFAULT_COMMAND": "echo fzfs",
                                                            "PICK_DEFAULT_COMMAND": "echo picks"])
        tmux.waitFor(text: "1/1")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "picks\n")
    }

    func testAPreviewSeesTheVariablesFzfExports() throws {
        let names = "QUERY|PROMPT|POS|MATCH_COUNT|SELECT_COUNT|TOTAL_COUNT|LINES|COLUMNS|DIRECTION|NTH|"
            + "PREVIEW_LINES|PREVIEW_COLUMNS|BORDER_LABEL|ACTION|KEY"
        try tmux.start(input: "printf 'one two\\nthree four\\n'",
                       args: "--nth 2 --border-label=lbl --prompt 'P> ' --preview ': {q}; env | grep -E \"^FZF_(\(names))=\" | sort'",
                       height: 24)
        // `{q}` in the command: the preview runs again as the query changes.
        tmux.type("fo")
        // The whole output, to its last line (sorted: TOTAL_COUNT): the preview draws its
        // first text as it comes, so an earlier line can show before the rest is read.
        let screen = tmux.waitFor("the preview's whole output for fo") { rows in
            rows.contains { $0.contains("FZF_QUERY=fo") } && rows.contains { row in
                row.range(of: "FZF_TOTAL_COUNT=").map { row[$0.upperBound...].first?.isNumber == true } ?? false
            }
        }
        let text = screen.joined(separator: "\n")
        for expected in ["FZF_MATCH_COUNT=1", "FZF_TOTAL_COUNT=2", "FZF_POS=1", "FZF_PROMPT=P> ", "FZF_NTH=2",
                         "FZF_DIRECTION=down", "FZF_LINES=24", "FZF_COLUMNS=80", "FZF_SELECT_COUNT=0",
                         "FZF_BORDER_LABEL=lbl", "FZF_PREVIEW_LINES=",
                         // As fzf's: the last action (a character typed) and key, for a preview too.
                         "FZF_ACTION=char", "FZF_KEY=o"] {
            XCTAssertTrue(text.contains(expected), "\(expected) in \(screen)")
        }
    }

    func testAnExecutedCommandSeesTheActionAndTheKey() throws {
        let file = tmux.dir.appendingPathComponent("seen").path
        try tmux.start(input: "printf 'a\\nb\\n'",
                       args: "--multi --bind 'ctrl-x:execute-silent(echo \"$FZF_ACTION $FZF_KEY $FZF_SELECT_COUNT $FZF_QUERY\" > \(file))'")
        tmux.waitFor(text: "2/2")
        tmux.keys("Tab")
        tmux.type("b")
        tmux.waitFor(text: "1/2")
        tmux.keys("C-x")
        let deadline = Date().addingTimeInterval(TmuxPick.deadline)
        var seen = ""
        while Date() < deadline {
            seen = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
            if !seen.isEmpty { break }
            usleep(20_000)
        }
        XCTAssertEqual(seen, "char ctrl-x 1 b\n", "as fzf: the last action before the command (b typed), and its key")
    }

    func testWithFishAsTheShellAPreviewRunsAFishFunction() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else { throw XCTSkip("fish is not installed") }
        // fzf.fish's previews call fish functions: autoloaded from ~/.config/fish/functions.
        let functions = tmux.dir.appendingPathComponent(".config/fish/functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try Data("function greet\n    echo \"fish says [$argv]\"\nend\n".utf8)
            .write(to: functions.appendingPathComponent("greet.fish"))
        // A backslash and a quote in the line: quoted as fish reads single quotes.
        try tmux.file("lines", "back\\slash 'quoted'\nplain\n")
        try tmux.start(input: "cat lines", args: "--preview 'greet {}'", environment: ["SHELL": "/usr/bin/fish"])
        tmux.waitFor(text: "fish says [back\\slash 'quoted']")
        tmux.type("pl")
        tmux.waitFor(text: "fish says [plain]")
    }

    func testWithShellOverridesTheShell() throws {
        try tmux.start(input: "printf 'x\\n'", args: "--with-shell 'bash -c' --preview '[[ -n {} ]] && echo bash-ran'",
                       environment: ["SHELL": "/usr/bin/fish"])
        tmux.waitFor(text: "bash-ran")
    }
}
