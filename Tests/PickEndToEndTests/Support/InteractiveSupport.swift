import Foundation
import XCTest

/// The built pick driven inside tmux, as a person drives it: a script runs pick in a pane
/// of a fixed size (recording `stty -g` before and after, the exit status and stdout in
/// files), keys are sent with `send-keys`, and the screen is read with `capture-pane`,
/// polled until the expected state appears or a deadline passes. Each session has its own
/// tmux server (`-L`), so tests never touch a person's tmux and can run side by side.
final class TmuxPick {
    let name: String
    let socket: String
    let dir: URL
    static let deadline: TimeInterval = 10
    /// The pane's columns, as last started or resized.
    private(set) var width = 80

    /// Whether tmux can be run here.
    static var isAvailable: Bool {
        (try? shell(["tmux", "-V"]))?.status == 0
    }

    init(test: String) throws {
        let unique = "\(test.filter { $0.isLetter || $0.isNumber })-\(getpid())-\(Int.random(in: 0..<1_000_000))"
        name = "pick"
        socket = "pt\(getpid())-\(Int.random(in: 0..<1_000_000_000))"
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pick-tmux-" + unique)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data().write(to: dir.appendingPathComponent("editrc"))
    }

    /// Writes `text` to a file in the session's directory and returns its path.
    @discardableResult
    func file(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Starts pick: `input` is a shell command whose output is piped in (nil: none), `args` are
    /// pick's arguments (shell words), `before` runs first in the pane. With `background`,
    /// pick runs as a background job whose pid is in the file `pid` (for signal tests).
    /// `wrapper` (shell words) runs pick, as `wrapper pick args`; `binary` is the executable
    /// (a link to pick named `fzf`, say).
    func start(input: String?, args: String, width: Int = 80, height: Int = 24, before: String = "",
               environment: [String: String] = [:], background: Bool = false,
               underJobControl: Bool = false, wrapper: String = "", binary: String = pickBinaryPath()) throws {
        self.width = width
        let d = dir.path
        var env = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "EDITRC": "\(d)/editrc", "HOME": d]
        for (k, v) in environment { env[k] = v }
        let exports = env.keys.sorted().map { "export \($0)='\(env[$0]!)'" }.joined(separator: "\n")
        let pipeline = (input.map { "\($0) | " } ?? "") + "\(wrapper)'\(binary)' \(args) > '\(d)/out' 2> '\(d)/err'"
        let run = background
            ? "\(pipeline) &\necho $! > '\(d)/pid'\nwait $!\necho $? > '\(d)/rc'"
            : "\(pipeline)\necho $? > '\(d)/rc'"
        let script = """
        cd '\(d)'
        unset \(defaultsVariables.joined(separator: " ")) NO_COLOR
        \(exports)
        trap 'echo INT >> "\(d)/signals"' INT
        stty -g > '\(d)/before'
        \(before)
        \(run)
        stty -g > '\(d)/after'
        echo done > '\(d)/finished'
        exec sleep 600

        """
        try file("run.sh", script)
        // With job control, an interactive bash runs the script as a job (ctrl-z stops it).
        let command = underJobControl ? "bash --norc --noprofile -i" : "sh '\(d)/run.sh'"
        let result = try Self.shell(["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", name,
                                     "-x", "\(width)", "-y", "\(height)", command])
        XCTAssertEqual(result.status, 0, "tmux new-session failed: \(result.output)")
        if underJobControl {
            type("clear; sh '\(d)/run.sh'")
            keys("Enter")
        }
    }

    /// Sends tmux key names (`Enter`, `Up`, `C-c`, `F1`, `M-o`).
    func keys(_ names: String...) {
        _ = try? Self.shell(["tmux", "-L", socket, "send-keys", "-t", name] + names)
    }

    /// Types text literally.
    func type(_ text: String) {
        _ = try? Self.shell(["tmux", "-L", socket, "send-keys", "-t", name, "-l", text])
    }

    func resize(width: Int, height: Int) {
        self.width = width
        _ = try? Self.shell(["tmux", "-L", socket, "resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// The info line as fzf draws it on a row of its own across `columns` (the pane's by
    /// default): two blanks, the counts, and the separator `─` to a column short of the end.
    func infoRow(_ counts: String, columns: Int? = nil) -> String {
        let fill = (columns ?? width) - 4 - counts.count
        return fill > 0 ? "  \(counts) " + String(repeating: "─", count: fill) : "  " + counts
    }

    /// A list row as fzf draws it with the scrollbar's thumb beside it, in the pane's last
    /// column (`columns`, the pane's by default).
    func barred(_ row: String, columns: Int? = nil, glyph: String = "\u{2502}") -> String {
        row + String(repeating: " ", count: max(0, (columns ?? width) - 1 - row.count)) + glyph
    }

    /// Whether `row` is an info line as `infoRow` draws it, its counts ending with `suffix`.
    func isInfoRow(_ row: String, countsEndingWith suffix: String) -> Bool {
        let counts = String(row.dropFirst(2).prefix { $0 != " " })
        return counts.hasSuffix(suffix) && row == infoRow(counts)
    }

    /// The cursor's column and row (0-based).
    func cursor() -> (x: Int, y: Int) {
        let out = (try? Self.shell(["tmux", "-L", socket, "display-message", "-p", "-t", name,
                                    "#{cursor_x} #{cursor_y}"]))?.output ?? ""
        let parts = out.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (-1, -1)
    }

    /// Pastes `text` as a terminal does: inside bracketed-paste markers when the program
    /// asked for them, as plain typing otherwise.
    func paste(_ text: String) throws {
        let path = try file("paste-\(Int.random(in: 0..<1_000_000))", text)
        _ = try Self.shell(["tmux", "-L", socket, "load-buffer", path])
        _ = try Self.shell(["tmux", "-L", socket, "paste-buffer", "-p", "-d", "-t", name])
    }

    /// Starts copying everything the pane's program writes to the file `tty.log`.
    func logOutput() {
        _ = try? Self.shell(["tmux", "-L", socket, "pipe-pane", "-t", name, "cat >> '\(dir.path)/tty.log'"])
    }

    /// What the pane's programs wrote since `logOutput()`, byte for byte.
    var ttyLog: Data { (try? Data(contentsOf: dir.appendingPathComponent("tty.log"))) ?? Data() }

    /// The screen as text, one string per row.
    func screen() -> [String] {
        let out = (try? Self.shell(["tmux", "-L", socket, "capture-pane", "-p", "-t", name]))?.output ?? ""
        return out.components(separatedBy: "\n")
    }

    /// The screen with its SGR escape sequences (capture-pane -e).
    func screenWithEscapes() -> String {
        (try? Self.shell(["tmux", "-L", socket, "capture-pane", "-p", "-e", "-t", name]))?.output ?? ""
    }

    /// The screen once the pane has shown every byte written to it before this call (all
    /// of pick's, once it has exited): a marker written to the pane's terminal queues up
    /// behind them; when it shows, it is taken out of the rows returned. A state that
    /// holds only for a moment (a region cleared, then drawn over again) is not mistaken
    /// for the last one.
    func screenOnceWritten(file: StaticString = #filePath, line: UInt = #line) throws -> [String] {
        let marker = "@@written-\(Int.random(in: 0..<1_000_000))@@"
        let tty = try Self.shell(["tmux", "-L", socket, "display-message", "-p", "-t", name, "#{pane_tty}"])
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        try Data(marker.utf8).write(to: URL(fileURLWithPath: tty))
        return waitFor("the marker written after pick", file: file, line: line) { $0.contains { $0.contains(marker) } }
            .map { $0.replacingOccurrences(of: marker, with: "") }
    }

    /// Polls the screen until `condition` holds; fails the test (and returns the last screen) if it never does.
    @discardableResult
    func waitFor(_ what: String, file: StaticString = #filePath, line: UInt = #line,
                 _ condition: ([String]) -> Bool) -> [String] {
        let end = Date().addingTimeInterval(Self.deadline)
        var rows = screen()
        while Date() < end {
            if condition(rows) { return rows }
            usleep(20_000)
            rows = screen()
        }
        XCTFail("timed out waiting for \(what); screen:\n" + rows.joined(separator: "\n"), file: file, line: line)
        return rows
    }

    /// Waits until the screen shows `text` somewhere.
    @discardableResult
    func waitFor(text: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        waitFor("'\(text)'", file: file, line: line) { $0.contains { $0.contains(text) } }
    }

    /// Waits for pick to exit; returns its status (nil on timeout).
    func exitStatus(file: StaticString = #filePath, line: UInt = #line) -> Int32? {
        let end = Date().addingTimeInterval(Self.deadline)
        let finished = dir.appendingPathComponent("finished").path
        while Date() < end {
            if FileManager.default.fileExists(atPath: finished),
               let text = try? String(contentsOf: dir.appendingPathComponent("rc"), encoding: .utf8) {
                return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            usleep(20_000)
        }
        XCTFail("pick did not exit; screen:\n" + screen().joined(separator: "\n"), file: file, line: line)
        return nil
    }

    var stdout: String { (try? String(contentsOf: dir.appendingPathComponent("out"), encoding: .utf8)) ?? "" }
    var stdoutData: Data { (try? Data(contentsOf: dir.appendingPathComponent("out"))) ?? Data() }
    var stderr: String { (try? String(contentsOf: dir.appendingPathComponent("err"), encoding: .utf8)) ?? "" }

    /// Whether `stty -g` was the same before and after pick.
    var terminalRestored: Bool {
        let before = try? String(contentsOf: dir.appendingPathComponent("before"), encoding: .utf8)
        let after = try? String(contentsOf: dir.appendingPathComponent("after"), encoding: .utf8)
        return before != nil && before == after
    }

    var pid: Int32? {
        (try? String(contentsOf: dir.appendingPathComponent("pid"), encoding: .utf8))
            .flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    func close() {
        _ = try? Self.shell(["tmux", "-L", socket, "kill-server"])
        try? FileManager.default.removeItem(at: dir)
    }

    /// Runs a command, returning its combined output and status. Spawned and reaped
    /// directly (posix_spawn, waitpid) with output through a file: the tmux server that
    /// `new-session` forks would hold a pipe open forever, and Foundation's Process was
    /// seen not to notice the tmux client's exit.
    @discardableResult
    static func shell(_ args: [String]) throws -> (output: String, status: Int32) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("pick-shell-\(getpid())-\(Int.random(in: 0..<1_000_000_000))").path
        defer { unlink(path) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, args[0], &actions, nil, &argv, environ)
        guard rc == 0 else { return ("cannot run \(args[0])", 127) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let data = (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()
        let exited = status & 0x7F == 0
        return (String(decoding: data, as: UTF8.self), exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F))
    }
}

/// A test case with one tmux session per test, killed in tearDown.
class InteractiveTestCase: XCTestCase {
    var tmux: TmuxPick!

    override func setUpWithError() throws {
        guard TmuxPick.isAvailable else { throw XCTSkip("tmux is not installed") }
        tmux = try TmuxPick(test: name)
    }

    override func tearDown() {
        tmux?.close()
        tmux = nil
    }

    /// The rows of the screen that are not blank.
    func visible(_ rows: [String]) -> [String] {
        rows.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}

extension Array where Element == String {
    /// Row `i`, or "" past the end (a short screen fails the assertion, not the run).
    subscript(row i: Int) -> String { i >= 0 && i < count ? self[i] : "" }
}

extension InteractiveTestCase {
    /// Runs the real fzf, then pick as `fzf` (a link), in panes of the same size with `args` on `input`,
    /// sends each `keys` once it shows `ready`, and asserts pick's screen settles as fzf's:
    /// every row's text, or with `styled` every cell's colours and boldness too (a blank's
    /// background only).
    func assertScreenAsFzf(_ input: String, _ args: String, ready: String, width: Int = 40, height: Int = 12,
                           keys: [String] = [], environment: [String: String] = [:], styled: Bool = false,
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let fzf = try fzfPath()
        let theirs = try TmuxPick(test: name + "fzf")
        defer { theirs.close() }
        let link = tmux.dir.appendingPathComponent("fzf").path
        try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: pickBinaryPath())
        for (pane, binary) in [(theirs, fzf), (tmux!, link)] {
            try pane.start(input: input, args: args, width: width, height: height, environment: environment, binary: binary)
            pane.waitFor(text: ready, file: file, line: line)
            for key in keys { pane.keys(key) }
        }
        func capture(_ pane: TmuxPick) -> [String] {
            guard styled else { return pane.screen() }
            return StyledScreen(pane.screenWithEscapes()).rows.map { row in
                // A blank shows its background only.
                row.map { $0.character == " " ? " /\($0.background ?? "-")"
                    : "\($0.character)\($0.foreground ?? "-")/\($0.background ?? "-")\($0.bold ? "b" : "")" }.joined(separator: " ")
            }
        }
        // fzf's screen once it has settled: the same in two captures in a row.
        var expected = capture(theirs)
        theirs.waitFor("fzf's screen to settle", file: file, line: line) { _ in
            let now = capture(theirs)
            defer { expected = now }
            return now == expected
        }
        var rows: [String] = []
        tmux.waitFor("pick's screen as fzf's:\n" + expected.joined(separator: "\n"), file: file, line: line) { _ in
            rows = capture(self.tmux)
            return rows == expected
        }
        XCTAssertEqual(rows, expected, file: file, line: line)
    }
}
