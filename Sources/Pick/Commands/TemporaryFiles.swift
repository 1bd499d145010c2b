#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// The temporary files of one command's `f` placeholders (`{+f}`, `{*f}`): each holds the
/// values it stands for, readable by this user only, and is removed once its command has
/// ended (`remove`), or when pick exits whichever way it leaves. `become` keeps its files:
/// the command that replaces pick reads them, as fzf's does.
final class TemporaryFiles {
    private(set) var paths: [String] = []

    /// Writes `contents` to a new file under TMPDIR (or /tmp) and answers its path for the
    /// command line, shell-quoted (TMPDIR may hold any byte); `''` when no file can be made.
    func write(_ contents: [UInt8]) -> [UInt8] {
        _ = TemporaryFiles.exitHook
        var base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        if base.isEmpty { base = "/tmp" }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/pick-temp-XXXXXX").utf8CString)
        let fd = mkstemp(&template)
        guard fd >= 0 else { return CommandTemplate.quote([]) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let path = String(cString: template)
        paths.append(path)
        _ = TemporaryFiles.lock.locked { TemporaryFiles.live.insert(path) }
        contents.withUnsafeBytes { raw in
            var done = 0
            while done < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + done, raw.count - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
        }
        close(fd)
        return CommandTemplate.quote(Array(path.utf8))
    }

    /// This command's files, removed: it has ended.
    func remove() {
        TemporaryFiles.lock.locked { for path in paths { TemporaryFiles.live.remove(path) } }
        for path in paths { unlink(path) }
        paths = []
    }

    private static let lock = Lock()
    nonisolated(unsafe) private static var live: Set<String> = []
    private static let exitHook: Void = {
        _ = atexit {
            for path in TemporaryFiles.lock.locked({ TemporaryFiles.live }) { unlink(path) }
        }
    }()
}
