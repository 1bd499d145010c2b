#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// `pick --preview-builtin PATH`: the built-in previewer that `--preview builtin` runs for
/// the focused line (and the shell widgets use), so a file picker has a preview with nothing
/// else installed. What it shows is decided in PickCore's `PathPreview`; this reads the file
/// system.
///
/// It starts on every focus change, so it runs before anything else in main.swift (no
/// option parsing, no `PICK_DEFAULT_OPTS`) and reads no more than it shows. The path is
/// taken from argv as bytes (a file name need not be UTF-8), as it is: no `~` expansion, a
/// leading `-` is part of the name, a relative path is from the current directory. It never
/// opens a FIFO, a device or a socket (a read could block, or the open itself act), and it
/// exits 0 whatever it finds, with a one-line note, so the pane shows why there is no text.
enum BuiltinPreview {
    static func main() -> Never {
        guard CommandLine.argc == 3, let path = CommandLine.unsafeArgv[2] else {
            fail("usage: pick \(Options.previewBuiltinMode) PATH (one path; --preview builtin runs this)")
        }
        signal(SIGPIPE, SIG_IGN)  // a pane that stops reading ends the preview quietly
        let out = Output(fd: 1)
        let lines = PathPreview.lineLimit(environment: getenv("PICK_PREVIEW_LINES").map { String(cString: $0) })
        preview(path, lines: lines, into: out)
        out.flush()
        exit(0)
    }

    private static func preview(_ path: UnsafePointer<CChar>, lines: Int, into out: Output) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return note(problem(errno), into: out) }
        var lines = lines
        if info.st_mode & S_IFMT == S_IFLNK {
            out.write("symbolic link to ")
            out.write(PathPreview.oneLine(linkTarget(path)))
            out.write(byte: 0x0A)
            lines = max(lines - 1, 1)
            guard stat(path, &info) == 0 else { return note(problem(errno), into: out) }
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG: file(path, lines: lines, into: out)
        case S_IFDIR: directory(path, lines: lines, into: out)
        default: note(kindNote(info.st_mode), into: out)
        }
    }

    /// What a file that is neither a regular file nor a directory is, and that it was not read.
    private static func kindNote(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "named pipe (FIFO), not read"
        case S_IFCHR: return "character device, not read"
        case S_IFBLK: return "block device, not read"
        case S_IFSOCK: return "socket, not read"
        default: return "special file, not read"
        }
    }

    private static func problem(_ code: Int32) -> String {
        "cannot read: \(String(cString: strerror(code)))"
    }

    private static func note(_ text: String, into out: Output) {
        out.write(text)
        out.write(byte: 0x0A)
    }

    private static func linkTarget(_ path: UnsafePointer<CChar>) -> [UInt8] {
        let capacity = Int(PATH_MAX)
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            let n = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: capacity) {
                readlink(path, $0, capacity)
            }
            count = max(n, 0)
        }
    }

    /// Opens `path` without blocking and checks what was opened is of `kind` (it may have
    /// changed since it was looked at): a FIFO put in a file's place is never read.
    private static func open(_ path: UnsafePointer<CChar>, _ flags: Int32, expecting kind: mode_t,
                             into out: Output) -> (fd: Int32, info: stat)? {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | flags)
        guard fd >= 0 else { note(problem(errno), into: out); return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else { note(problem(errno), into: out); close(fd); return nil }
        guard info.st_mode & S_IFMT == kind else { note(kindNote(info.st_mode), into: out); close(fd); return nil }
        return (fd, info)
    }

    private static func file(_ path: UnsafePointer<CChar>, lines: Int, into out: Output) {
        guard let (fd, info) = open(path, 0, expecting: S_IFREG, into: out) else { return }
        defer { close(fd) }
        let capacity = Tunables.PathPreview.readBytes
        var failure: Int32 = 0
        var reachedEnd = false
        let sample = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            count = 0
            while count < capacity {
                let n = read(fd, buffer.baseAddress! + count, capacity - count)
                if n > 0 { count += n; continue }
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = errno } else { reachedEnd = true }
                break
            }
        }
        if failure != 0 && sample.isEmpty { return note(problem(failure), into: out) }
        sample.withUnsafeBufferPointer { text in
            switch PathPreview.classify(text, isWholeFile: reachedEnd) {
            case .empty:
                note("empty file", into: out)
            case .binary:
                note(PathPreview.binaryNote(bytes: max(Int(info.st_size), text.count)), into: out)
            case .text:
                let shown = UnsafeBufferPointer(rebasing: text[..<PathPreview.firstLinesLength(text, lines: lines)])
                out.write(shown)
                if shown.last != 0x0A { out.write(byte: 0x0A) }
            }
        }
    }

    private static func directory(_ path: UnsafePointer<CChar>, lines: Int, into out: Output) {
        guard let (fd, _) = open(path, O_DIRECTORY, expecting: S_IFDIR, into: out) else { return }
        guard let dir = fdopendir(fd) else { note(problem(errno), into: out); close(fd); return }
        defer { closedir(dir) }
        var listing = PathPreview.Listing(lines: lines)
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let kind: PathPreview.EntryKind
            switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): kind = .directory
            case Int32(DT_LNK): kind = .symbolicLink
            case Int32(DT_UNKNOWN): kind = .unknown
            default: kind = .other
            }
            listing.add(PathPreview.Entry(name: name, kind: kind))
        }
        // Some file systems leave the kind to a stat: asked only for the entries shown.
        let shown = listing.shown().map { entry -> PathPreview.Entry in
            guard entry.kind == .unknown else { return entry }
            var info = stat()
            var resolved = entry
            let found = (entry.name + [0]).withUnsafeBufferPointer { name in
                name.withMemoryRebound(to: CChar.self) {
                    fstatat(dirfd(dir), $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) == 0
                }
            }
            switch found ? info.st_mode & S_IFMT : 0 {
            case S_IFDIR: resolved.kind = .directory
            case S_IFLNK: resolved.kind = .symbolicLink
            default: resolved.kind = .other
            }
            return resolved
        }
        out.write(listing.render(shown))
    }
}
