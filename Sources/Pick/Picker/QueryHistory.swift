#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// `--history FILE`: past queries, walked with alt-p and alt-n, saved when a pick is accepted.
struct QueryHistory {
    let path: String?
    /// The queries and where alt-p and alt-n stand in them (HistoryWalk, in PickCore).
    private var walker = HistoryWalk(entries: [])
    var entries: [String] { walker.entries }

    /// `--history-size`: how many queries the file keeps.
    var limit = Tunables.Picker.historyEntries

    init(path: String?, limit: Int = Tunables.Picker.historyEntries) {
        self.limit = limit
        self.path = path
        if let path { walker = HistoryWalk(entries: Self.load(path)) }
    }

    /// The query one step older or newer than the one shown, or nil to leave it.
    mutating func walk(older: Bool, from current: String) -> String? { walker.walk(older: older, from: current) }

    /// The most recent queries, newest first, each once.
    func recent(_ limit: Int) -> [String] {
        var seen = Set<String>()
        return entries.reversed().filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
    }

    private static func load(_ path: String) -> [String] {
        // Not through a symlink either: a link planted at the path is not pick's history.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, let f = fdopen(fd, "r") else { return [] }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, f)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
        }
        return bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends `query` to the history file (not twice in a row; the last `limit` kept).
    ///
    /// Written atomically: a new file next to it (created afresh, with the user's umask,
    /// never through a symlink), then renamed over it, so a crash leaves the old file whole
    /// and a symlink planted at the path is replaced, not followed.
    func save(adding query: String) {
        guard let path, !query.isEmpty else { return }
        var kept = entries
        if kept.last != query { kept.append(query) }
        kept = Array(kept.suffix(limit))
        let text = Array((kept.joined(separator: "\n") + "\n").utf8)
        // A short name next to the history (the same file system, for the rename), which
        // a history name near the 255-byte limit cannot push past it.
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let temporary = directory + ".pick-history-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        guard fd >= 0 else { return }
        // The new file takes the old one's mode: a private history stays private.
        var old = stat()
        if lstat(path, &old) == 0 && old.st_mode & S_IFMT == S_IFREG { _ = fchmod(fd, old.st_mode & 0o7777) }
        var written = 0
        while written < text.count {
            let n = text.withUnsafeBytes { write(fd, $0.baseAddress! + written, text.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            written += n
        }
        let synced = written == text.count && fsync(fd) == 0
        close(fd)
        if !synced || rename(temporary, path) != 0 { unlink(temporary) }
    }
}
