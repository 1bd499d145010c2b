#if canImport(Glibc)
import Glibc
#endif
import CPickSystem
import PickCore

// `--tmux`: pick runs itself again inside `tmux display-popup -E`, as fzf does.
//
// The popup's command is a script pick writes into a temporary directory of its own (mode
// 0700): it exports pick's environment (a popup starts with the tmux server's), changes to
// the current directory, and runs the same pick with every option word single-quoted (no
// byte of an option is ever read as shell code) plus `--no-tmux`, reading stdin from a
// FIFO this pick fills as its own stdin arrives (so input may still be streaming), writing
// stdout, stderr and the exit status to files this pick hands on once the popup closes.
// The directory is removed on every way out. Outside tmux, with a tmux older than 3.3
// (no `display-popup -E`/`-B`; fzf issue #3198: popups hung there), or with no tmux client
// to show a popup on (a server that is gone, a detached session), the picker runs inline.

enum TmuxLauncher {
    /// The tmux version that has everything the popup needs.
    static let oldestVersion = (major: 3, minor: 3)

    /// The size of the tmux client the popup would show on, or nil when there is none and
    /// the picker runs inline: outside tmux (TMUX unset), a tmux too old for popups, a TMUX
    /// naming a server that is gone ("error connecting to …"), or a session no client is
    /// attached to (`tmux run-shell`, a detached session: "no current client"). One query,
    /// with a deadline: a server that does not answer is no client either.
    static func client() -> (width: Int, height: Int)? {
        guard let tmux = getenv("TMUX"), tmux.pointee != 0 else { return nil }
        guard let (status, output) = capture(["tmux", "-V"]), status == 0, supports(versionLine: output) else {
            return nil
        }
        let query = ["tmux", "display-message", "-p"] + paneTarget + ["#{client_tty} #{client_width} #{client_height}"]
        guard let (queried, answer) = capture(query, withinMillis: Tunables.Popup.clientQueryMillis), queried == 0 else {
            return nil
        }
        let words = answer.split(whereSeparator: \.isWhitespace)
        guard words.count == 3, let width = Int(words[1]), let height = Int(words[2]), width > 0, height > 0 else {
            return nil  // an empty client_tty: no client attached
        }
        return (width, height)
    }

    /// `-t PANE` for the pane pick runs in (TMUX_PANE), so tmux picks that session's client.
    private static var paneTarget: [String] {
        guard let pane = getenv("TMUX_PANE").map({ String(cString: $0) }), !pane.isEmpty else { return [] }
        return ["-t", pane]
    }

    /// `tmux 3.3a` → true; `tmux 3.2a`, `tmux 2.9` → false; `tmux master`, `tmux next-3.4`
    /// (a build from source, newer than any release) → true.
    static func supports(versionLine: String) -> Bool {
        let text = versionLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let digits = text.drop { !$0.isNumber }
        let parts = digits.split(whereSeparator: { !$0.isNumber }).prefix(2).compactMap { Int($0) }
        guard parts.count == 2 else { return !text.isEmpty && text.first?.isNumber == false }
        return (parts[0], parts[1]) >= oldestVersion
    }

    /// The tmux command's pid while the popup shows, for the signal handlers.
    nonisolated(unsafe) static var child: pid_t = 0
    nonisolated(unsafe) static var caught: Int32 = 0

    /// Shows pick in a popup with option `words` (the defaults and the command line) and
    /// returns the exit status the picker in it ended with.
    static func run(popup: TmuxPopup, words: [String]) -> Int32 {
        guard let dir = makeDirectory() else { fail("--tmux: cannot create a temporary directory") }
        let files = (run: dir + "/run", input: dir + "/in", output: dir + "/out", errors: dir + "/err",
                     status: dir + "/status")
        func removeFiles() {
            for path in [files.run, files.input, files.output, files.errors, files.status] { unlink(path) }
            rmdir(dir)
        }
        defer { removeFiles() }
        /// `fail` exits at once: no `defer` runs.
        func failClean(_ message: String) -> Never {
            removeFiles()
            fail("--tmux: " + message)
        }
        let pipesInput = isatty(0) == 0
        if pipesInput && mkfifo(files.input, 0o600) != 0 {
            failClean("cannot create a FIFO in \(dir): \(String(cString: strerror(errno)))")
        }
        // As fzf: pick draws its own border in the popup (tmux's is turned off with -B),
        // rounded unless the options say otherwise: they come after it, so --no-border wins.
        var pickWords = ["--border=rounded"] + words
        // As fzf: the popup is the picker's whole screen (a widget's --height would leave
        // most of it empty).
        pickWords += ["--no-height", "--no-tmux"]
        // The script deletes itself first: sh reads on from the file it opened, and no copy
        // of the environment outlives this pick, even killed with SIGKILL. Values and the
        // directory are bytes, as the environment holds them (not always UTF-8). The words
        // carry the defaults already: the popup's pick reads neither pick's nor
        // (PICK_DEFAULT_OPTS set, empty) fzf's.
        var script = Array("rm -f \(quoted(files.run))\nunset PICK_DEFAULT_OPTS_FILE\nexport PICK_DEFAULT_OPTS=''\n".utf8)
        script += exports()
        script += Array("cd ".utf8) + CommandTemplate.quote(currentDirectory()) + Array(" || exit 2\n".utf8)
        var command = ([quoted(executablePath())] + pickWords.map(quoted)).joined(separator: " ")
        if pipesInput { command += " < \(quoted(files.input))" }
        command += " > \(quoted(files.output)) 2> \(quoted(files.errors))\n"
        command += "echo $? > \(quoted(files.status))\n"
        script += Array(command.utf8)
        guard write(script, to: files.run) else { failClean("cannot write \(files.run)") }

        if pipesInput {
            let fifo = files.input
            // Blocks until the popup's pick opens the FIFO; ends at end of input or when that
            // pick exits (EPIPE: SIGPIPE is ignored).
            spawnThread { copyInput(to: fifo) }
        }
        let target = paneTarget
        var args = ["tmux", "display-popup", "-E", "-B"] + target
        args += popup.tmuxArguments
        args.append("sh \(quoted(files.run))")
        // Touched before the handlers exist: a handler must not run a static's lazy initialiser.
        child = 0
        caught = 0
        for s in [SIGINT, SIGTERM, SIGHUP] {
            signal(s) { signo in
                TmuxLauncher.caught = signo
                if TmuxLauncher.child > 0 { kill(TmuxLauncher.child, signo) }
            }
        }
        let started: (pid_t) -> Void = { pid in
            child = pid
            if caught != 0 { kill(pid, caught) }  // a signal that came before the pid was known
        }
        guard let tmuxStatus = spawnAndWait(args, onStart: started) else { failClean("cannot run tmux") }
        child = 0
        if caught != 0 {
            // The popup outlives the tmux command: close it, which hangs up on its pick.
            _ = capture(["tmux", "display-popup", "-C"] + target)
            copyFile(files.errors, to: 2)
            return caught == SIGINT ? 130 : 128 + caught
        }
        copyFile(files.errors, to: 2)
        copyFile(files.output, to: 1)
        if let text = readWholeFile(files.status), let status = Int32(text.split(separator: "\n").first ?? "") {
            return status
        }
        // The popup closed without the picker saying how it ended (display-popup -C, or
        // tmux could not show it).
        return tmuxStatus == 0 ? 130 : 2
    }

    // MARK: Pieces

    /// A word for `sh`, single-quoted: every byte stands for itself (CommandTemplate's
    /// quoting, the one pick has).
    static func quoted(_ word: String) -> String {
        String(decoding: CommandTemplate.quote(Array(word.utf8)), as: UTF8.self)
    }

    /// `export NAME='value'` for every variable with a name sh can take, the value byte for
    /// byte.
    private static func exports() -> [UInt8] {
        func isNameByte(_ b: UInt8, first: Bool) -> Bool {
            b == 0x5F || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || (!first && (0x30...0x39).contains(b))
        }
        var out: [UInt8] = []
        var p = environ
        while let entry = p.pointee {
            p += 1
            let pair = UnsafeRawBufferPointer(start: entry, count: strlen(entry))
            guard let eq = pair.firstIndex(of: 0x3D), eq > 0 else { continue }
            let name = Array(pair[..<eq])
            guard name.indices.allSatisfy({ isNameByte(name[$0], first: $0 == 0) }),
                  name != Array("PICK_DEFAULT_OPTS".utf8), name != Array("PICK_DEFAULT_OPTS_FILE".utf8) else { continue }
            out += Array("export ".utf8) + name + [0x3D] + CommandTemplate.quote(Array(pair[(eq + 1)...])) + [0x0A]
        }
        return out
    }

    /// A new directory only this user can enter, under TMPDIR (or /tmp).
    private static func makeDirectory() -> String? {
        var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        // The script's path goes to tmux's default shell (sh, bash, zsh or fish) single-quoted:
        // a TMPDIR with characters those shells quote differently is not used.
        let plain = base.unicodeScalars.allSatisfy { c in
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "/._-".unicodeScalars.contains(c)
        }
        if base.isEmpty || !base.hasPrefix("/") || !plain { base = "/tmp" }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/pick-tmux-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else { return nil }
        return String(cString: template)
    }

    /// The current directory's path, as bytes.
    private static func currentDirectory() -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return [0x2E] }
        return buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    }

    private static func write(_ bytes: [UInt8], to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return writeAll(fd, bytes)
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
    }

    /// Copies stdin into the FIFO, byte for byte.
    private static func copyInput(to fifo: String) {
        let out = open(fifo, O_WRONLY | O_CLOEXEC)
        guard out >= 0 else { return }
        defer { close(out) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(0, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0, writeAll(out, Array(buffer[0..<n])) else { return }
        }
    }

    /// Copies a file to `fd` (stdout or stderr); nothing if it is missing.
    private static func copyFile(_ path: String, to fd: Int32) {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return }
        defer { close(input) }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = read(input, &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0, writeAll(fd, Array(buffer[0..<n])) else { return }
        }
    }

    /// Runs `args` (stdin, stdout and stderr inherited) and returns its exit status; with a
    /// deadline, kills it (SIGKILL) once `withinMillis` have passed.
    private static func spawnAndWait(_ args: [String], onStart: (pid_t) -> Void = { _ in },
                                     stdout: Int32? = nil, withinMillis: Int? = nil) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdout {
            posix_spawn_file_actions_adddup2(&actions, stdout, 1)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        var argv: [UnsafeMutablePointer<CChar>?] = args.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, args[0], &actions, nil, &argv, environ) == 0 else { return nil }
        onStart(pid)
        var status: Int32 = 0
        if let withinMillis {
            var left = withinMillis
            while true {
                let done = waitpid(pid, &status, WNOHANG)
                if done == pid { break }
                if done < 0 && errno != EINTR { return nil }
                if left <= 0 {
                    kill(pid, SIGKILL)
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                    return nil
                }
                usleep(5_000)
                left -= 5
            }
        } else {
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else { return nil }
            }
        }
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Runs `args` and returns its exit status and what it wrote to stdout.
    private static func capture(_ args: [String], withinMillis: Int? = nil) -> (Int32, String)? {
        var fds: [Int32] = [0, 0]
        guard pick_pipe_cloexec(&fds) == 0 else { return nil }
        let status = spawnAndWait(args, stdout: fds[1], withinMillis: withinMillis)
        close(fds[1])
        // The command has ended, and what it printed is in the pipe (a few bytes: less than
        // the pipe holds). Not waiting for the end of the pipe: a tmux client hands its
        // stdout to the server, and a server that is stopped holds it open for ever.
        if withinMillis != nil { _ = fcntl(fds[0], F_SETFL, O_NONBLOCK) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(fds[0], &buffer, buffer.count)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            bytes += buffer[0..<n]
        }
        close(fds[0])
        return status.map { ($0, String(decoding: bytes, as: UTF8.self)) }
    }
}

/// A whole file as text (invalid UTF-8 repaired), or nil with errno set.
func readWholeFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = read(fd, &buffer, buffer.count)
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return nil }
        guard n > 0 else { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
