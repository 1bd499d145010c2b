import Foundation
import XCTest

/// A real bash, zsh or fish in a tmux pane, configured as a new user would be: the shell's
/// own defaults plus the install line from the README (`eval "$(pick --shell bash)"`,
/// `source <(pick --shell zsh)`, `pick --shell fish | source`) and a prompt that names the
/// directory and the shell (`work bash$ `). PATH starts with the built pick's directory.
/// The pane starts in `work/`, a small tree the widgets list.
final class ShellPane {
    let tmux: TmuxPick
    let shell: String
    let work: URL

    /// Whether tmux and `shell` can be run here.
    static func isAvailable(_ shell: String) -> Bool {
        TmuxPick.isAvailable && (try? TmuxPick.shell(["sh", "-c", "command -v \(shell)"]))?.status == 0
    }

    init(_ shell: String, test: String) throws {
        tmux = try TmuxPick(test: "\(shell)\(test)")
        self.shell = shell
        work = tmux.dir.appendingPathComponent("work")
        for dir in ["src/deep", "docs", ".hidden"] {
            try FileManager.default.createDirectory(at: work.appendingPathComponent(dir), withIntermediateDirectories: true)
        }
        for file in ["src/main.swift", "src/my file.txt", "src/deep/notes.txt", "docs/guide.md", ".hidden/secret.txt", ".env"] {
            try Data().write(to: work.appendingPathComponent(file))
        }
    }

    /// The prompt's end, after the directory's name.
    var marker: String { " \(shell)$" }

    /// The README's install line for this shell.
    var installLine: String {
        switch shell {
        case "bash": return "eval \"$(pick --shell bash)\""
        case "zsh": return "source <(pick --shell zsh)"
        default: return "pick --shell fish | source"
        }
    }

    /// Starts the shell (with `environment` added) in a terminal `columns` wide and waits for
    /// its first prompt. `install` replaces the README's install line.
    func start(environment: [String: String] = [:], rc extra: String = "", columns: Int = 100,
               install: String? = nil) throws {
        let install = install ?? installLine
        let d = tmux.dir.path
        let pickDir = URL(fileURLWithPath: pickBinaryPath()).deletingLastPathComponent().path
        var env = ["HOME": d, "PATH": "\(pickDir):/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
                   "LC_ALL": "C.UTF-8", "EDITRC": "\(d)/editrc", "XDG_CONFIG_HOME": "\(d)/config",
                   "XDG_DATA_HOME": "\(d)/data", "HISTFILE": "\(d)/history"]
        let command: String
        switch shell {
        case "bash":
            try tmux.file("rc", "PS1='\\W bash$ '\n\(install)\n\(extra)")
            command = "bash --noprofile --rcfile '\(d)/rc' -i"
        case "zsh":
            env["ZDOTDIR"] = d
            try tmux.file(".zshrc", "PROMPT='%1~ zsh$ '\n\(install)\n\(extra)")
            command = "zsh -d -i"
        default:
            // Autosuggestions would draw history after the cursor and blur the line's text.
            // Bracketed paste is switched on by fish's interactive configuration, which
            // --no-config skips: the two handlers do what it does.
            try tmux.file("rc.fish", """
                function fish_prompt; printf '%s fish$ ' (basename $PWD); end
                set -g fish_autosuggestion_enabled 0
                function __fish_enable_bracketed_paste --on-event fish_prompt; printf "\\e[?2004h"; end
                function __fish_disable_bracketed_paste --on-event fish_preexec --on-event fish_exit; printf "\\e[?2004l"; end
                __fish_enable_bracketed_paste
                \(install)
                \(extra)
                """)
            command = "fish --no-config -C 'source \(d)/rc.fish'"
        }
        for (k, v) in environment { env[k] = v }
        let exports = env.keys.sorted().map { "\($0)='\(env[$0]!)'" }.joined(separator: " ")
        try tmux.file("start.sh", "cd '\(work.path)'\nexec env -i TERM=\"$TERM\" \(exports) \(command)\n")
        let result = try TmuxPick.shell(["tmux", "-L", tmux.socket, "-f", "/dev/null", "new-session", "-d",
                                         "-s", tmux.name, "-x", "\(columns)", "-y", "24", "sh '\(d)/start.sh'"])
        XCTAssertEqual(result.status, 0, "tmux new-session failed: \(result.output)")
        waitForLine("")
    }

    /// The cursor's column and row (0-based).
    func cursor() -> (x: Int, y: Int) {
        let out = (try? TmuxPick.shell(["tmux", "-L", tmux.socket, "display-message", "-p", "-t", tmux.name,
                                        "#{cursor_x} #{cursor_y}"]))?.output ?? ""
        let parts = out.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return parts.count == 2 ? (parts[0], parts[1]) : (-1, -1)
    }

    /// The command line being edited: the text after the prompt on the cursor's row, with
    /// the part before the cursor; nil while the cursor is not on a prompt (pick is open).
    func commandLine() -> (text: String, beforeCursor: String)? {
        let rows = tmux.screen()
        let (x, y) = cursor()
        guard y >= 0, y < rows.count, let end = rows[y].range(of: marker + " ") ?? rows[y].range(of: marker) else {
            return nil
        }
        let row = rows[y]
        let text = String(row[end.upperBound...]).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression)
        let chars = Array(row)
        let before = x <= chars.count ? String(chars[..<x]) : row + String(repeating: " ", count: x - chars.count)
        guard let start = before.range(of: marker) else { return nil }
        return (text, String(before[start.upperBound...]).replacingOccurrences(of: "^ ", with: "", options: .regularExpression))
    }

    /// Waits until the command line reads `text` (and, when given, the cursor stands after `beforeCursor`).
    func waitForLine(_ text: String, beforeCursor: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var last: (text: String, beforeCursor: String)? = nil
        while Date() < end {
            last = commandLine()
            if let last, last.text == text, beforeCursor == nil || last.beforeCursor == beforeCursor { return }
            usleep(20_000)
        }
        XCTFail("\(shell): timed out waiting for the command line '\(text)'"
                + (beforeCursor.map { " with '\($0)' before the cursor" } ?? "")
                + "; it reads \(last.map { "'\($0.text)' ('\($0.beforeCursor)' before the cursor)" } ?? "no prompt"); screen:\n"
                + tmux.screen().joined(separator: "\n"), file: file, line: line)
    }

    /// Types `command`, presses Return, and waits until a row reads `output` one more time than before.
    func run(_ command: String, output: String, file: StaticString = #filePath, line: UInt = #line) {
        let before = tmux.screen().filter { $0 == output }.count
        tmux.type(command)
        tmux.keys("Enter")
        tmux.waitFor("output '\(output)' of \(command)", file: file, line: line) { rows in
            rows.filter { $0 == output }.count > before
        }
        waitForLine("", file: file, line: line)
    }

    /// Waits for pick's info line to show `count` (as in `3/7`) and returns the screen.
    @discardableResult
    func waitForPick(_ count: String, file: StaticString = #filePath, line: UInt = #line) -> [String] {
        tmux.waitFor("pick showing \(count)", file: file, line: line) { rows in
            rows.contains { $0.range(of: "(^|\\s)\(NSRegularExpression.escapedPattern(for: count))(\\s|$)",
                                     options: .regularExpression) != nil }
        }
    }

    /// The candidates pick lists (rows below its info line), without the pointer column.
    func pickRows(_ rows: [String]) -> [String] {
        guard let info = rows.firstIndex(where: { $0.range(of: "^\\s+\\d+/\\d+", options: .regularExpression) != nil })
        else { return [] }
        // (The scrollbar's thumb left out.)
        return rows[(info + 1)...].map { String($0.dropFirst(2)).trimmingCharacters(in: CharacterSet(charactersIn: " \u{2502}")) }
            .filter { !$0.isEmpty }
    }

    func close() { tmux.close() }
}

/// One shell pane per test, closed in tearDown; `shellName` picks the shell.
class ShellTestCase: XCTestCase {
    var pane: ShellPane!
    var shellName: String { "bash" }

    override func setUpWithError() throws {
        guard ShellPane.isAvailable(shellName) else { throw XCTSkip("tmux or \(shellName) is not installed (make deps)") }
        pane = try ShellPane(shellName, test: name)
    }

    override func tearDown() {
        pane?.close()
        pane = nil
    }
}
