#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import PickCore

// What each key does in the picker. Keys that move, accept, cancel, mark, complete or
// switch scope are pick's; a line's own shortcut comes next; everything else is libedit's
// (editing the query), handed over as characters.

extension Picker {
    /// Handles one key; returns characters for libedit, or nil when pick took the key.
    func handle(_ key: Key) -> [wchar_t]? {
        dirty = true
        switch key {
        case .paste(let bytes):
            // Text, never keys: a paste over the help closes it and still goes into the query.
            showingHelp = false
            let text = Self.pastedText(bytes)
            if !text.isEmpty { pendingAction = .insert(text) }
            return nil
        case .cursorReport: return nil
        default: break
        }
        if showingHelp {
            // Up and Down scroll the help; any other key returns to the list.
            let page = max(1, geometry.listHeight(headers: headerCount) - 1)
            switch key {
            case .down, .char(14), .char(10): helpScroll += 1
            case .up, .char(16), .char(11): helpScroll -= 1
            case .pageDown: helpScroll += page
            case .pageUp: helpScroll -= page
            default:
                showingHelp = false
                if key == .char(3) { outcome = .cancel(130) }
            }
            helpScroll = max(0, min(helpScroll, helpLines().count - 1))
            return nil
        }
        let name = key.name
        if let name, options.expect.contains(name) {
            outcome = .accept(key: name)
            return nil
        }
        let up = options.layout == .top ? -1 : 1
        switch key {
        case .char(13): outcome = .accept(key: nil); return nil
        case .char(3), .char(7): outcome = .cancel(130); return nil
        case .escape:
            if isVi { return [0x1B] }
            outcome = .cancel(130)
            return nil
        case .up, .char(16), .char(11): move(up); return nil
        case .down, .char(14), .char(10): move(-up); return nil
        case .pageUp: move(up * max(1, geometry.listHeight(headers: headerCount) - 1)); return nil
        case .pageDown: move(-up * max(1, geometry.listHeight(headers: headerCount) - 1)); return nil
        case .char(9):
            if options.multi { toggleMark(); move(-up, wraps: false) } else { complete() }
            return nil
        case .shiftTab:
            if options.multi { toggleMark(); move(up, wraps: false) }
            return nil
        case .function(1), .alt(0x3F): showingHelp = true; helpScroll = 0; return nil
        case .alt(0x70): walkHistory(older: true); return nil
        case .alt(0x6E): walkHistory(older: false); return nil
        case .char(19): cycleScope(); return nil
        case .char(26): suspend(viaKey: true); return nil
        default: break
        }
        if let name {
            scanShortcuts()
            if let line = shortcuts[name] {
                outcome = .pickLine(line)
                return nil
            }
        }
        switch key {
        case .right:
            if cursorAtEnd, !ghostText(for: queryText ?? "").isEmpty, let best = currentSuggestions().first {
                pendingAction = .replaceQuery(best)
                return nil
            }
            return [PrivateKey.right]
        case .left: return [PrivateKey.left]
        case .home: return [PrivateKey.home]
        case .end: return [PrivateKey.end]
        case .delete: return [PrivateKey.delete]
        case .alt(let c): return [0x1B, wchar_t(bitPattern: c)]
        case .char(let c):
            if c >= 0x80 && c < 0xA0 { return nil }
            return [wchar_t(bitPattern: c)]
        default: return nil
        }
    }

    /// Pasted bytes as query text: line breaks and tabs become spaces (a pasted newline
    /// never picks), other control characters are dropped, invalid UTF-8 too.
    static func pastedText(_ bytes: [UInt8]) -> String {
        var out = String.UnicodeScalarView()
        var previousCR = false
        for u in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            defer { previousCR = u == "\r" }
            switch u {
            case "\n" where previousCR: continue
            case "\n", "\r", "\t": out.append(" ")
            default:
                if TerminalText.symbol(for: u.value) == nil { out.append(u) }
            }
        }
        return String(out)
    }

    func move(_ delta: Int, wraps: Bool = true) {
        if let shown = scoped, !shown.isComplete {
            let next = selection + delta
            if next < 0 || next >= shown.lines.count { completeResult() }
        }
        let count = scoped?.lines.count ?? 0
        guard count > 0 else { return }
        var next = selection + delta
        if options.cycle && wraps && abs(delta) == 1 {
            next = (next % count + count) % count
        } else {
            next = max(0, min(count - 1, next))
        }
        if next != selection { moved = true }
        selection = next
    }

    func toggleMark() {
        guard let lines = scoped?.lines, selection < lines.count else { return }
        let line = lines[selection]
        if markedSet.contains(line) {
            markedSet.remove(line)
            marked.removeAll { $0 == line }
        } else if options.multiLimit == 0 || marked.count < options.multiLimit {
            markedSet.insert(line)
            marked.append(line)
        }
    }

    func complete() {
        let query = queryText ?? ""
        if var c = completion, c.list.indices.contains(c.index), c.list[c.index] == query {
            c.index = (c.index + 1) % c.list.count
            completion = c
            pendingAction = .replaceQuery(c.list[c.index])
            return
        }
        var list = currentSuggestions()
        if list.isEmpty && !query.isEmpty {
            list = Suggestions.suggest(query, in: store, limit: 6, skipping: options.headerLines)
                .map { String(decoding: $0, as: UTF8.self) }
        }
        guard let first = list.first else { return }
        completion = (list, 0)
        pendingAction = .replaceQuery(first)
    }

    func cycleScope() {
        let count = Scopes.names(in: store).count
        guard count > 1 else { return }
        setScope((scope + 1) % count)
    }

    func setScope(_ index: Int) {
        scope = index
        if let result { scoped = Scopes.filter(result, to: scope) }
        selection = 0
        moved = false
        scroll = 0
        dirty = true
    }

    func walkHistory(older: Bool) {
        guard !history.isEmpty else { return }
        var index = historyIndex ?? history.count
        if historyIndex == nil { historyStash = queryText ?? "" }
        index += older ? -1 : 1
        if index < 0 { return }
        if index >= history.count {
            historyIndex = nil
            pendingAction = .replaceQuery(historyStash)
            return
        }
        historyIndex = index
        pendingAction = .replaceQuery(history[index])
    }

    static func loadHistory(_ path: String) -> [String] {
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

    /// Appends the query to the history file (not twice in a row; the last 1000 kept).
    ///
    /// Written atomically: a new file next to it (created afresh, with the user's umask,
    /// never through a symlink), then renamed over it, so a crash leaves the old file whole
    /// and a symlink planted at the path is replaced, not followed.
    func saveHistory() {
        guard let path = options.history, let query = queryText, !query.isEmpty else { return }
        var entries = history
        if entries.last != query { entries.append(query) }
        entries = Array(entries.suffix(1000))
        let text = Array((entries.joined(separator: "\n") + "\n").utf8)
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


    func helpLines() -> [String] {
        var lines = [
            "Keys (Up/Down scroll this help; any other key returns)",
            "  Up Down  ctrl-p ctrl-n  ctrl-k ctrl-j  move",
            "  PageUp PageDown                       move a page",
            "  Return                                pick",
            "  Escape  ctrl-c  ctrl-g                cancel",
            options.multi ? "  Tab  shift-Tab                        mark and move"
                          : "  Tab                                   complete the query",
            "  Right (at the end)                    take the dim suggestion",
            "  ctrl-s                                next scope",
            "  alt-p  alt-n                          older, newer query",
            "  F1  alt-?                             this help",
            "  ctrl-z                                suspend (fg resumes)",
            "  ctrl-a ctrl-e ctrl-w ctrl-u alt-b …   edit (libedit, ~/.editrc)",
        ]
        scanShortcuts()
        if !shortcutOrder.isEmpty {
            lines.append("Shortcuts")
            for (key, line) in shortcutOrder {
                let title = store.fields(of: Int(line)).title
                let name = TerminalText.glyphs(store.bytes(of: Int(line)), range: title).map(\.text).joined()
                let key = TerminalText.sanitize(key)
                let padded = key + String(repeating: " ", count: max(1, 10 - TerminalText.width(key)))
                lines.append("  " + padded + name)
            }
        }
        return lines
    }
}
