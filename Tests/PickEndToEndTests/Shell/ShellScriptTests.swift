import Foundation
import XCTest

/// `pick --shell NAME` prints a script each shell accepts; other names are an error.
/// And examples/palette.sh, the command palette, runs the command of the picked line.
final class ShellScriptTests: XCTestCase {
    /// Runs `shell args` with `input` on stdin; the status and combined output.
    private func check(_ shell: String, _ args: [String], input: Data) throws -> (status: Int32, output: String) {
        guard (try? TmuxPick.shell(["sh", "-c", "command -v \(shell)"]))?.status == 0 else {
            throw XCTSkip("\(shell) is not installed (make deps)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [shell] + args
        let inPipe = Pipe(), outPipe = Pipe()
        process.standardInput = inPipe
        process.standardOutput = outPipe
        process.standardError = outPipe
        try process.run()
        try inPipe.fileHandleForWriting.write(contentsOf: input)
        try inPipe.fileHandleForWriting.close()
        let data = outPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func testEachShellAcceptsItsScript() throws {
        for (shell, args) in [("bash", ["-n"]), ("zsh", ["-n"]), ("fish", ["--no-execute"])] {
            let run = try runPick(["--shell", shell])
            XCTAssertEqual(run.status, 0)
            XCTAssertEqual(run.stderr, "")
            XCTAssertTrue(run.text.hasPrefix("# pick key bindings for \(shell)"), run.text)
            let syntax = try check(shell, args, input: run.stdout)
            XCTAssertEqual(syntax.status, 0, "\(shell): \(syntax.output)")
            XCTAssertEqual(syntax.output, "", shell)
        }
        XCTAssertEqual(try runPick(["--shell=zsh"]).stdout, try runPick(["--shell", "zsh"]).stdout)
    }

    func testEachScriptBindsTheThreeKeysAndNamesItsSettings() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try runPick(["--shell", shell]).text
            for name in ["PICK_CTRL_T_COMMAND", "PICK_CTRL_T_OPTS", "PICK_CTRL_R_OPTS", "PICK_ALT_C_COMMAND",
                         "PICK_ALT_C_OPTS", "--height 40%"] {
                XCTAssertTrue(script.contains(name), "\(shell) script uses \(name)")
            }
        }
    }

    /// Paths and history are never palettes: every widget passes --plain on pick's command
    /// line, after PICK_DEFAULT_OPTS and the widget's options, so a `--palette` kept in
    /// PICK_DEFAULT_OPTS cannot read a tab in a path or a command as a field.
    func testWidgetsReadPathsAndHistoryAsPlainLinesWhateverTheDefaults() throws {
        for shell in ["bash", "zsh", "fish"] {
            let script = try runPick(["--shell", shell]).text
            // Fuzzy completion (bash, zsh) runs pick through __pick_comprun CMD "$@", and
            // ctrl-t and alt-c through __pick_list_or_walk LIST "$@": each call of either
            // passes --plain first; ctrl-r calls pick itself (fish: shift-Tab's completion too).
            let calls = script.components(separatedBy: "command pick").dropFirst()
                .filter { !$0.hasPrefix(" \"$@\"") && !$0.hasPrefix(" $argv[2..-1]") }
            XCTAssertEqual(calls.count, shell == "fish" ? 2 : 1, "\(shell): ctrl-r's call")
            for call in calls { XCTAssertTrue(call.hasPrefix(" --plain"), "\(shell): pick\(call.prefix(40))") }
            let walks = script.components(separatedBy: "__pick_list_or_walk \"").dropFirst()
            XCTAssertEqual(walks.count, 2, "\(shell): ctrl-t's and alt-c's calls")
            for call in walks {
                XCTAssertNotNil(call.range(of: "^[^\"]*\" --plain", options: .regularExpression),
                                "\(shell): __pick_list_or_walk \"\(call.prefix(60))")
            }
            let completions = script.components(separatedBy: "__pick_comprun \"").dropFirst()
            XCTAssertEqual(completions.count, shell == "fish" ? 0 : 4, "\(shell): fuzzy completion's calls")
            for call in completions {
                XCTAssertNotNil(call.range(of: "^[^\"]*\" --plain ", options: .regularExpression),
                                "\(shell): __pick_comprun \"\(call.prefix(40))")
            }
        }
        // ctrl-t in bash, run without a terminal: --filter in the widget's options. Fuzzy
        // `ab` finds `a<TAB>b` only where the tab is text.
        let script = """
            exec 2>/dev/null
            eval "$('\(pickBinaryPath())' --shell bash)"
            PATH='\(URL(fileURLWithPath: pickBinaryPath()).deletingLastPathComponent().path)':$PATH
            PICK_DEFAULT_OPTS=--palette PICK_CTRL_T_COMMAND="printf 'a\\tb\\n'" PICK_CTRL_T_OPTS='--filter ab'
            READLINE_LINE='ls ' READLINE_POINT=3
            __pick_ctrl_t
            printf '%s|' "$READLINE_LINE"
            """
        let run = try check("bash", ["--norc", "--noprofile", "-i", "-c", script], input: Data())
        // (bash -i without a terminal first says it has no job control.)
        XCTAssertEqual(run.output.split(separator: "\n").last, "ls $'a\\tb' |", "the path with its tab, quoted")
    }

    func testAnotherShellIsAnErrorOnOneLine() throws {
        let run = try runPick(["--shell", "ksh"])
        XCTAssertEqual(run.status, 2)
        XCTAssertEqual(run.text, "")
        XCTAssertEqual(run.stderr, "pick: invalid value for --shell: 'ksh' (expected bash, zsh or fish)\n")
        let missing = try runPick(["--shell"])
        XCTAssertEqual(missing.status, 2)
        XCTAssertEqual(missing.stderr, "pick: option --shell needs a value\n")
    }

    /// The palette runs the fifth field of the line pick prints (here through --filter).
    func testPaletteRunsThePickedCommand() throws {
        let examples = repositoryRoot.appendingPathComponent("examples")
        let pickDir = URL(fileURLWithPath: pickBinaryPath()).deletingLastPathComponent().path
        let script = """
            export PATH='\(pickDir)':"$PATH"; unset PICK_DEFAULT_OPTS; cd /
            sh '\(examples.path)/palette.sh' --filter where
            """
        let run = try check("sh", ["-c", script], input: Data())
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(run.output, "pwd\n/\n", "the command on stderr, then its output")
        let nothing = try check("sh", ["-c", script.replacingOccurrences(of: "--filter where", with: "--filter zzzz")],
                                input: Data())
        XCTAssertEqual(nothing.status, 1)
        XCTAssertEqual(nothing.output, "")
    }

    /// Every line of the palette has the five fields, and its shortcut is one pick knows.
    func testPaletteLinesHaveFiveFields() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("examples/palette.tsv"), encoding: .utf8)
        let lines = text.split(separator: "\n")
        XCTAssertGreaterThanOrEqual(lines.count, 8)
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            XCTAssertEqual(fields.count, 5, String(line))
            XCTAssertTrue(fields.allSatisfy { !$0.isEmpty }, String(line))
        }
        let sections = Set(lines.map { $0.split(separator: "\t")[1] })
        XCTAssertEqual(sections, ["Files", "System", "Git"])
    }
}

/// The palette as a person uses it: examples/palette.sh in bash, a line's shortcut runs it.
final class ShellPaletteTests: ShellTestCase {
    func testAShortcutRunsItsCommandAtOnce() throws {
        let examples = repositoryRoot.appendingPathComponent("examples").path
        try pane.start()
        pane.tmux.type("sh '\(examples)/palette.sh' --height 60%")
        pane.tmux.keys("Enter")
        let rows = pane.waitForPick("11/11")
        XCTAssertTrue(rows.contains { $0.contains("Working directory") && $0.contains("alt-h") }, rows.joined(separator: "\n"))
        XCTAssertTrue(rows.contains { $0.trimmingCharacters(in: CharacterSet(charactersIn: " \u{2502}")) == "Files" },
                      "a section header (the scrollbar's thumb beside it or not)")
        pane.tmux.keys("M-h")
        pane.tmux.waitFor("the palette's pwd") { $0.contains("pwd") }
        pane.waitForLine("")
        pane.tmux.type("sh '\(examples)/palette.sh' --height 60%")
        pane.tmux.keys("Enter")
        pane.waitForPick("11/11")
        pane.tmux.type("storage")
        pane.waitForPick("1/11")
        pane.tmux.keys("Enter")
        pane.tmux.waitFor(text: "df -h .")
        pane.waitForLine("")
        pane.run("echo ok", output: "ok")
    }
}
