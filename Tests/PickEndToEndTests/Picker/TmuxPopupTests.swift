import Foundation
import XCTest

/// `pick --tmux` as a person sees it: a tmux server whose session has a client attached
/// (a detached session has no client to show a popup on). The client runs in a pane of a
/// second, outer tmux server; keys go to that pane and reach the popup through the client,
/// and the outer pane's screen is what the person sees.
final class PopupTmux {
    let inner: String
    let outer: String
    let dir: URL

    init(test: String) throws {
        let unique = "\(getpid())-\(Int.random(in: 0..<1_000_000_000))"
        inner = "pi\(unique)"
        outer = "po\(unique)"
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pick-popup-\(test.filter(\.isLetter))-\(unique)")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        try Data().write(to: dir.appendingPathComponent("editrc"))
    }

    /// A word for sh, single-quoted.
    static func quote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    /// Starts the inner session with a shell script that waits for the client, prints
    /// `paneText`, then runs `pipeline` (its stdout, stderr and exit status to files).
    func start(_ pipeline: String, paneText: String = "text of the pane", withTmux: Bool = true) throws {
        let d = dir.path
        let script = """
        unset PICK_DEFAULT_OPTS PICK_DEFAULT_OPTS_FILE NO_COLOR
        export LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME='\(d)' EDITRC='\(d)/editrc' TMPDIR='\(d)/tmp'
        until [ -n "$(tmux list-clients 2>/dev/null)" ]; do sleep 0.05; done
        \(withTmux ? "" : "unset TMUX")
        echo \(Self.quote(paneText))
        \(pipeline) > '\(d)/out' 2> '\(d)/err'
        echo $? > '\(d)/rc'
        exec sleep 600

        """
        try Data(script.utf8).write(to: dir.appendingPathComponent("run.sh"))
        try startSessions()
    }

    /// Starts the inner session with an interactive bash that loaded `rc`, in `directory`.
    func startBash(rc: String, in directory: URL) throws {
        let d = dir.path
        let pickDir = URL(fileURLWithPath: pickBinaryPath()).deletingLastPathComponent().path
        try Data(rc.utf8).write(to: dir.appendingPathComponent("rc"))
        let script = """
        until [ -n "$(tmux list-clients 2>/dev/null)" ]; do sleep 0.05; done
        cd '\(directory.path)'
        exec env -u PICK_DEFAULT_OPTS -u PICK_DEFAULT_OPTS_FILE LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME='\(d)' \\
          EDITRC='\(d)/editrc' TMPDIR='\(d)/tmp' PATH='\(pickDir)':/usr/local/bin:/usr/bin:/bin \\
          bash --noprofile --rcfile '\(d)/rc' -i

        """
        try Data(script.utf8).write(to: dir.appendingPathComponent("run.sh"))
        try startSessions()
    }

    /// The inner session running run.sh, and the outer one whose pane attaches a client to it.
    private func startSessions() throws {
        var r = try TmuxPick.shell(["tmux", "-L", inner, "-f", "/dev/null", "new-session", "-d", "-s", "in",
                                    "-x", "100", "-y", "30", "sh '\(dir.path)/run.sh'"])
        XCTAssertEqual(r.status, 0, r.output)
        r = try TmuxPick.shell(["tmux", "-L", outer, "-f", "/dev/null", "new-session", "-d", "-s", "out",
                                "-x", "100", "-y", "30", "env -u TMUX tmux -L \(inner) attach -t in"])
        XCTAssertEqual(r.status, 0, r.output)
    }

    var pick: String { Self.quote(pickBinaryPath()) }

    func keys(_ names: String...) {
        _ = try? TmuxPick.shell(["tmux", "-L", outer, "send-keys", "-t", "out"] + names)
    }

    func type(_ text: String) {
        _ = try? TmuxPick.shell(["tmux", "-L", outer, "send-keys", "-t", "out", "-l", text])
    }

    /// What the person sees: the outer pane, with the client's view of the inner session.
    func screen() -> [String] {
        ((try? TmuxPick.shell(["tmux", "-L", outer, "capture-pane", "-p", "-t", "out"]))?.output ?? "")
            .components(separatedBy: "\n")
    }

    @discardableResult
    func waitFor(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: ([String]) -> Bool) -> [String] {
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var rows = screen()
        while Date() < end {
            if condition(rows) { return rows }
            usleep(20_000)
            rows = screen()
        }
        XCTFail("timed out waiting for \(what); screen:\n" + rows.joined(separator: "\n"), file: file, line: line)
        return rows
    }

    /// The popup's rows: those inside pick's rounded border, without it.
    func popupRows(_ rows: [String]) -> [String] {
        rows.compactMap { row in
            guard let open = row.firstIndex(of: "│"), let close = row.lastIndex(of: "│"), open < close else { return nil }
            return String(row[row.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Whether the popup's info row shows `counts`, then fzf's separator to its end.
    func popupShows(_ rows: [String], counts: String) -> Bool {
        popupRows(rows).contains { row in
            row.hasPrefix(counts + " ─") && row.dropFirst(counts.count + 1).allSatisfy { $0 == "─" }
        }
    }

    /// The exit status of the pipeline (nil on timeout).
    func exitStatus(file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        while Date() < end {
            if let text = try? String(contentsOf: dir.appendingPathComponent("rc"), encoding: .utf8), text.hasSuffix("\n") {
                return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            usleep(20_000)
        }
        XCTFail("pick did not exit; screen:\n" + screen().joined(separator: "\n"), file: file, line: line)
        return nil
    }

    var stdout: Data { (try? Data(contentsOf: dir.appendingPathComponent("out"))) ?? Data() }
    var stderr: String { (try? String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)) ?? "" }
    /// What pick left in its TMPDIR.
    var leftovers: [String] { (try? FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("tmp").path)) ?? [] }

    func close() {
        _ = try? TmuxPick.shell(["tmux", "-L", outer, "kill-server"])
        _ = try? TmuxPick.shell(["tmux", "-L", inner, "kill-server"])
        try? FileManager.default.removeItem(at: dir)
    }
}

final class TmuxPopupTests: XCTestCase {
    private var tmux: PopupTmux!

    override func setUpWithError() throws {
        guard TmuxPick.isAvailable else { throw XCTSkip("tmux is not installed") }
        let version = try TmuxPick.shell(["tmux", "-V"]).output
        let numbers = version.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard numbers.count >= 2, (numbers[0], numbers[1]) >= (3, 3) else { throw XCTSkip("tmux 3.3 or later needed: \(version)") }
        tmux = try PopupTmux(test: name)
    }

    override func tearDown() {
        tmux?.close()
        tmux = nil
    }

    private func writeInput(_ bytes: [UInt8]) throws -> String {
        let path = tmux.dir.appendingPathComponent("input").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func testPopupOpensOverThePaneAndThePickComesBackOnStdout() throws {
        let input = try writeInput(Array("alpha\nbeta\ngamma\n".utf8))
        try tmux.start("\(tmux.pick) --tmux 80%,50% < '\(input)'")
        let rows = tmux.waitFor("the popup with three lines") { self.tmux.popupShows($0, counts: "3/3") }
        XCTAssertTrue(rows.contains { $0.contains("text of the pane") }, "the pane keeps its text beside the popup")
        XCTAssertTrue(rows.contains { $0.contains("╭") }, "pick draws its border in the popup")
        tmux.type("gam")
        tmux.waitFor("one match") { self.tmux.popupShows($0, counts: "1/3") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "gamma\n")
        XCTAssertEqual(tmux.stderr, "")
        tmux.waitFor("the popup to close") { rows in !rows.contains { $0.contains("╭") } }
        XCTAssertEqual(tmux.leftovers, [], "the temporary directory is removed")
    }

    func testLinesWithAnyBytesAndStreamingInputReachThePopup() throws {
        // Invalid UTF-8, a carriage return, quotes and shell syntax that must never run.
        var odd: [UInt8] = Array("odd \u{27}$(touch pwned)\u{27} \"x\" `y` ".utf8) + [0xFF, 0xFE, 0x0D] + Array(" end".utf8)
        let input = try writeInput(Array("first\n".utf8) + odd + [0x0A])
        try tmux.start("{ cat '\(input)'; sleep 1; echo arrives-late; } | \(tmux.pick) --tmux --multi")
        tmux.waitFor("the streamed line") { self.tmux.popupRows($0).contains { $0.contains("arrives-late") } }
        tmux.type("odd")
        tmux.waitFor("the odd line alone") { self.tmux.popupRows($0).contains { $0.hasPrefix("1/3") } }
        tmux.keys("Tab")
        tmux.keys("C-u")
        tmux.type("late")
        tmux.waitFor("the late line alone") { self.tmux.popupRows($0).contains { $0.hasPrefix("1/3") } }
        tmux.keys("Tab", "Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        odd.append(0x0A)
        XCTAssertEqual(Array(tmux.stdout), odd + Array("arrives-late\n".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmux.dir.appendingPathComponent("pwned").path))
        XCTAssertEqual(tmux.leftovers, [])
    }

    func testOptionsReachThePopupWordForWord() throws {
        let input = try writeInput(Array("one\ntwo\n".utf8))
        let prompt = "it's $HOME `x` \\ > "
        try tmux.start("PICK_DEFAULT_OPTS='--header=from-env' \(tmux.pick) --tmux --prompt \(PopupTmux.quote(prompt)) --print-query < '\(input)'")
        tmux.waitFor("the prompt as given") { rows in rows.contains { $0.contains(prompt) } && rows.contains { $0.contains("from-env") } }
        tmux.type("tw")
        tmux.waitFor("one match") { self.tmux.popupShows($0, counts: "1/2") }
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "tw\ntwo\n")
    }

    func testNoBorderDrawsThePopupWithoutABorderAsFzf() throws {
        let input = try writeInput(Array("alpha\nbeta\n".utf8))
        try tmux.start("\(tmux.pick) --tmux --no-border < '\(input)'")
        let rows = tmux.waitFor("the popup's counts") { rows in rows.contains { $0.contains("2/2") } }
        XCTAssertFalse(rows.contains { $0.contains("╭") || $0.contains("│") }, "no border: " + rows.joined(separator: "\n"))
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testCancellingAndNoMatchGiveTheSameExitCodesAsInline() throws {
        let input = try writeInput(Array("one\ntwo\n".utf8))
        try tmux.start("\(tmux.pick) --tmux < '\(input)'; echo $? > '\(tmux.dir.path)/first'; \(tmux.pick) --tmux --query=zzz --exit-0 < '\(input)'")
        tmux.waitFor("the popup") { self.tmux.popupShows($0, counts: "2/2") }
        // ctrl-z cannot stop a picker in a popup (nothing could resume it): it stays.
        tmux.keys("C-z")
        tmux.type("tw")
        tmux.waitFor("the popup, still answering") { self.tmux.popupShows($0, counts: "1/2") }
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 1, "--exit-0 with no match")
        let first = try String(contentsOf: tmux.dir.appendingPathComponent("first"), encoding: .utf8)
        XCTAssertEqual(first, "130\n", "Escape cancels")
        XCTAssertEqual(tmux.stdout, Data())
        XCTAssertEqual(tmux.leftovers, [])
    }

    func testAShellWidgetOpensInAPopupThroughItsOpts() throws {
        let work = tmux.dir.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("src/deep"), withIntermediateDirectories: true)
        for file in ["src/main.swift", "src/deep/notes.txt"] {
            try Data().write(to: work.appendingPathComponent(file))
        }
        try tmux.startBash(rc: "PS1='work$ '\neval \"$(pick --shell bash)\"\nexport PICK_CTRL_T_OPTS='--tmux 60%'\n", in: work)
        tmux.waitFor("the prompt") { $0.contains { $0.hasPrefix("work$") } }
        tmux.type("ls ")
        tmux.keys("C-t")
        tmux.waitFor("the paths in the popup") { rows in
            rows.contains { $0.contains("╭") } && self.tmux.popupRows(rows).contains { $0.hasSuffix("notes.txt") }
        }
        tmux.type("notes")
        tmux.waitFor("one match") { self.tmux.popupRows($0).contains { $0.hasPrefix("1/") } }
        tmux.keys("Enter")
        tmux.waitFor("the path on the command line") { rows in
            rows.contains { $0.trimmingCharacters(in: .whitespaces) == "work$ ls src/deep/notes.txt" }
                && !rows.contains { $0.contains("╭") }
        }
        XCTAssertEqual(tmux.leftovers, [])
    }

    func testKilledWhileThePopupShowsItClosesThePopupAndLeavesNothing() throws {
        let input = try writeInput(Array("one\ntwo\n".utf8))
        let d = tmux.dir.path
        try tmux.start("\(tmux.pick) --tmux < '\(input)' & echo $! > '\(d)/pid'; wait $!")
        tmux.waitFor("the popup") { self.tmux.popupShows($0, counts: "2/2") }
        let pid = try XCTUnwrap(Int32(String(contentsOf: tmux.dir.appendingPathComponent("pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGTERM)
        XCTAssertEqual(tmux.exitStatus(), 143)
        tmux.waitFor("the popup to close") { rows in !rows.contains { $0.contains("╭") } }
        // The popup's pick (its command line names the temporary directory's script's options).
        let popupPick = "\(pickBinaryPath()) --tmux --border=rounded --no-height --no-tmux"
        func running() -> String { (try? TmuxPick.shell(["pgrep", "-f", "--", popupPick]).output) ?? "" }
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        while Date() < end, running() != "" { usleep(20_000) }
        XCTAssertEqual(running(), "", "the popup's pick is gone")
        XCTAssertEqual(tmux.leftovers, [])
    }

    func testEnvironmentValuesReachThePopupByteForByte() throws {
        let input = try writeInput(Array("one\ntwo\n".utf8))
        // printf's octal escapes: 0xFF 0xFE, invalid UTF-8, then "ok".
        try tmux.start("BINV=\"$(printf 'x\\377\\376ok')\" \(tmux.pick) --tmux --preview 'printf %s \"$BINV\" | od -An -tx1' < '\(input)'")
        let rows = tmux.waitFor("the variable's bytes in the preview") { rows in
            rows.contains { $0.contains("78 ff fe 6f 6b") } || rows.contains { $0.contains("ef bf bd") }
        }
        XCTAssertTrue(rows.contains { $0.contains("78 ff fe 6f 6b") }, "bytes changed:\n" + rows.joined(separator: "\n"))
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
    }

    func testThePopupDeletesItsCopyOfTheEnvironmentOnceRead() throws {
        let input = try writeInput(Array("one\ntwo\n".utf8))
        let d = tmux.dir.path
        try tmux.start("SECRET=hunter2 \(tmux.pick) --tmux < '\(input)' & echo $! > '\(d)/pid'; wait $!")
        tmux.waitFor("the popup") { self.tmux.popupShows($0, counts: "2/2") }
        let tmp = tmux.dir.appendingPathComponent("tmp")
        func scripts() -> [String] {
            tmux.leftovers.flatMap { dir in
                ((try? FileManager.default.contentsOfDirectory(atPath: tmp.appendingPathComponent(dir).path)) ?? [])
                    .filter { $0 == "run" }.map { dir + "/" + $0 }
            }
        }
        XCTAssertEqual(tmux.leftovers.count, 1, "the popup's temporary directory")
        XCTAssertEqual(scripts(), [], "the script with the environment is gone while the popup shows")
        let pid = try XCTUnwrap(Int32(String(contentsOf: tmux.dir.appendingPathComponent("pid"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(pid, SIGKILL)
        XCTAssertEqual(tmux.exitStatus(), 137)
        XCTAssertEqual(scripts(), [], "nothing holds the environment after kill -9")
        _ = try? TmuxPick.shell(["tmux", "-L", tmux.inner, "display-popup", "-C", "-t", "in"])
    }

    func testABadOptionFailsAtOnceWithoutAPopup() throws {
        try tmux.start("\(tmux.pick) --tmux --layout=sideways < /dev/null")
        XCTAssertEqual(tmux.exitStatus(), 2)
        XCTAssertTrue(tmux.stderr.hasPrefix("pick: invalid value for --layout"), tmux.stderr)
    }

    func testOutsideTmuxThePickerRunsInline() throws {
        let input = try writeInput(Array("one\ntwo\n".utf8))
        try tmux.start("\(tmux.pick) --tmux < '\(input)'", withTmux: false)
        let rows = tmux.waitFor("the picker") { $0.contains { $0.hasPrefix("  2/2") } }
        XCTAssertFalse(rows.contains { $0.contains("╭") }, "no popup, no border")
        tmux.type("two")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "two\n")
    }

    func testAPopupLargerThanTheClientFillsIt() throws {
        // tmux refuses a popup larger than its client ("height too large").
        let input = try writeInput(Array("one\ntwo\n".utf8))
        try tmux.start("\(tmux.pick) --tmux 200 < '\(input)'")
        let rows = tmux.waitFor("the popup") { self.tmux.popupShows($0, counts: "2/2") }
        XCTAssertTrue(rows.first?.hasPrefix("╭") == true, "the popup starts at the top: " + rows.joined(separator: "\n"))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "one\n")
        XCTAssertEqual(tmux.stderr, "")
    }

    func testWithTmuxGoneThePickerRunsInline() throws {
        // A stale TMUX: the server it names has exited ("error connecting to …").
        let input = try writeInput(Array("one\ntwo\n".utf8))
        try tmux.start("TMUX='\(tmux.dir.path)/gone,1,0' \(tmux.pick) --tmux < '\(input)'")
        let rows = tmux.waitFor("the picker") { $0.contains { $0.hasPrefix("  2/2") } }
        XCTAssertFalse(rows.contains { $0.contains("╭") }, "no popup, no border")
        tmux.type("two")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "two\n")
        XCTAssertEqual(tmux.stderr, "")
    }

    func testInASessionWithNoClientThePickerRunsInline() throws {
        // As from `tmux run-shell` or a detached session: tmux has no client to show a
        // popup on ("no current client").
        let detached = "pd\(getpid())-\(Int.random(in: 0..<1_000_000_000))"
        defer { _ = try? TmuxPick.shell(["tmux", "-L", detached, "kill-server"]) }
        let r = try TmuxPick.shell(["tmux", "-L", detached, "-f", "/dev/null", "new-session", "-d", "sleep 600"])
        XCTAssertEqual(r.status, 0, r.output)
        let socket = try TmuxPick.shell(["tmux", "-L", detached, "display-message", "-p", "#{socket_path},#{pid},0"])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let input = try writeInput(Array("one\ntwo\n".utf8))
        try tmux.start("TMUX='\(socket)' TMUX_PANE=%0 \(tmux.pick) --tmux < '\(input)'")
        let rows = tmux.waitFor("the picker") { $0.contains { $0.hasPrefix("  2/2") } }
        XCTAssertFalse(rows.contains { $0.contains("╭") }, "no popup, no border")
        tmux.type("one")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "one\n")
        XCTAssertEqual(tmux.stderr, "")
    }

    func testWithATmuxServerThatDoesNotAnswerThePickerRunsInline() throws {
        // A stopped server: tmux's query would wait for ever; pick gives it a deadline.
        let stopped = "ps\(getpid())-\(Int.random(in: 0..<1_000_000_000))"
        let r = try TmuxPick.shell(["tmux", "-L", stopped, "-f", "/dev/null", "new-session", "-d", "sleep 600"])
        XCTAssertEqual(r.status, 0, r.output)
        let answer = try TmuxPick.shell(["tmux", "-L", stopped, "display-message", "-p", "#{socket_path},#{pid},0"])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        let server = try XCTUnwrap(Int32(answer.split(separator: ",")[1]))
        kill(server, SIGSTOP)
        defer {
            kill(server, SIGCONT)
            _ = try? TmuxPick.shell(["tmux", "-L", stopped, "kill-server"])
        }
        let input = try writeInput(Array("one\ntwo\n".utf8))
        try tmux.start("TMUX='\(answer)' TMUX_PANE=%0 \(tmux.pick) --tmux < '\(input)'")
        let rows = tmux.waitFor("the picker") { $0.contains { $0.hasPrefix("  2/2") } }
        XCTAssertFalse(rows.contains { $0.contains("╭") }, "no popup, no border")
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "one\n")
    }

    func testWithATmuxTooOldForPopupsThePickerRunsInline() throws {
        let bin = tmux.dir.appendingPathComponent("old-tmux")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("tmux")
        try Data("#!/bin/sh\necho 'tmux 3.2a'\n".utf8).write(to: fake)
        chmod(fake.path, 0o755)
        let input = try writeInput(Array("one\ntwo\n".utf8))
        try tmux.start("PATH='\(bin.path)':$PATH \(tmux.pick) --tmux < '\(input)'")
        let rows = tmux.waitFor("the picker") { $0.contains { $0.hasPrefix("  2/2") } }
        XCTAssertFalse(rows.contains { $0.contains("╭") })
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(String(decoding: tmux.stdout, as: UTF8.self), "one\n")
    }
}
