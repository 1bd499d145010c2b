#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import CLibEditShim

// The query prompt: libedit. libedit edits the line and draws the prompt; pick's own read
// function (EL_GETCFN) sits under it, redraws the list before every key, polls the tty and
// the self-pipe, and decodes keys itself. The read function is the one place to redraw:
// libedit calls it after each refresh, and typed text goes through libedit's own insert,
// which no bound function sees. Keys pick handles (moving, accepting, marking…) never
// reach libedit; editing keys do. Actions that must change the line run inside libedit
// through one private character bound to `pick-action`, so libedit's idea of the line and
// cursor stays right.

/// Private characters the read function hands libedit (C1 controls: never typed as text).
enum PrivateKey {
    /// Runs the picker's pending action (accept, cancel, replace the query).
    static let action: wchar_t = 0x80
    static let left: wchar_t = 0x81
    static let right: wchar_t = 0x82
    static let home: wchar_t = 0x83
    static let end: wchar_t = 0x84
    static let delete: wchar_t = 0x85
}

/// A NUL-terminated wide string that lives as long as the process (libedit keeps pointers).
func permanentWide(_ text: String) -> UnsafeMutablePointer<wchar_t> {
    let scalars = Array(text.unicodeScalars)
    let p = UnsafeMutablePointer<wchar_t>.allocate(capacity: scalars.count + 1)
    for (i, s) in scalars.enumerated() { p[i] = wchar_t(bitPattern: s.value) }
    p[scalars.count] = 0
    return p
}

nonisolated(unsafe) private var promptText: UnsafeMutablePointer<wchar_t> = permanentWide("> ")

/// libedit on /dev/tty.
final class LineEditor {
    let el: OpaquePointer
    private let input: UnsafeMutablePointer<FILE>
    private let output: UnsafeMutablePointer<FILE>

    /// Sets libedit up: emacs, then the person's ~/.editrc (or $EDITRC), then pick's keys.
    init?(terminal: Terminal, prompt: String,
          read: @escaping @convention(c) (OpaquePointer?, UnsafeMutablePointer<wchar_t>?) -> Int32,
          action: @escaping @convention(c) (OpaquePointer?, Int32) -> UInt8) {
        guard let fin = fdopen(dup(terminal.fd), "r"), let fout = fdopen(dup(terminal.fd), "w") else { return nil }
        guard let el = el_init("pick", fin, fout, fout) else { return nil }
        self.el = el
        input = fin
        output = fout
        promptText = permanentWide(prompt)
        _ = pick_el_set_editor(el, permanentWide("emacs"))
        _ = pick_el_set_int(el, EL_SIGNAL, 0)
        _ = pick_el_set_prompt(el) { _ in promptText }
        _ = pick_el_set_getcfn(el, read)
        _ = el_source(el, nil)
        _ = pick_el_addfn(el, permanentWide("pick-action"), permanentWide("pick: run a picker action"), action)
        let bindings: [(wchar_t, String)] = [
            (PrivateKey.action, "pick-action"), (PrivateKey.left, "ed-prev-char"),
            (PrivateKey.right, "ed-next-char"), (PrivateKey.home, "ed-move-to-beg"),
            (PrivateKey.end, "ed-move-to-end"), (PrivateKey.delete, "ed-delete-next-char"),
        ]
        for (key, fn) in bindings {
            let k = UnsafeMutablePointer<wchar_t>.allocate(capacity: 2)
            k[0] = key
            k[1] = 0
            _ = pick_el_bind(el, k, permanentWide(fn), 0)
            _ = pick_el_bind(el, k, permanentWide(fn), 1)
        }
    }

    /// Whether ~/.editrc chose vi mode (then a lone Escape belongs to vi).
    var isVi: Bool {
        var mode: UnsafePointer<wchar_t>? = nil
        guard pick_el_get_editor(el, &mode) == 0, let mode else { return false }
        return mode[0] == wchar_t(UInt8(ascii: "v"))
    }

    /// The query as typed, and the cursor as a character index into it.
    var line: (text: String, cursor: Int, count: Int) {
        guard let info = el_wline(el)?.pointee else { return ("", 0, 0) }
        let n = info.lastchar - info.buffer
        var text = ""
        for i in 0..<n {
            if let s = Unicode.Scalar(UInt32(bitPattern: info.buffer[i])) { text.unicodeScalars.append(s) }
        }
        return (text, info.cursor - info.buffer, n)
    }

    /// Replaces the whole line (only from inside a libedit callback).
    func replaceLine(with text: String) {
        let current = line
        _ = el_cursor(el, Int32(current.count - current.cursor))
        el_deletestr(el, Int32(current.count))
        let wide = Array(text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }) + [0]
        wide.withUnsafeBufferPointer { _ = el_winsertstr(el, $0.baseAddress) }
    }

    /// Inserts text at the cursor (only from inside a libedit callback).
    func insert(_ text: String) {
        let wide = Array(text.unicodeScalars.map { wchar_t(bitPattern: $0.value) }) + [0]
        wide.withUnsafeBufferPointer { _ = el_winsertstr(el, $0.baseAddress) }
    }

    /// Reads one line: returns when the action function returns CC_NEWLINE or CC_EOF.
    func run() {
        var count: Int32 = 0
        _ = el_wgets(el, &count)
    }

    /// After a resize: libedit learns the size and redraws the prompt at the cursor.
    func resized() {
        el_resize(el)
    }

    func refresh() {
        _ = pick_el_refresh(el)
    }

    /// Restores libedit's terminal settings and frees it.
    func end() {
        el_end(el)
        fclose(input)
        fclose(output)
    }
}
