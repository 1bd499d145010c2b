#if canImport(Glibc)
import Glibc
#endif
import CLibEdit
import CLibEditShim
import PickCore

// The query prompt: libedit. libedit edits the line and draws the prompt; pick's own read
// function (EL_GETCFN) sits under it, redraws the list before every key, polls the tty and
// the self-pipe, and decodes keys itself. The read function is the one place to redraw:
// libedit calls it after each refresh, and typed text goes through libedit's own insert,
// which no bound function sees. Keys pick handles (moving, accepting, marking…) never
// reach libedit; editing keys do. Actions that must change the line run inside libedit
// through one private character bound to `pick-action`, so libedit's idea of the line and
// cursor stays right.

/// What `pick-action` does inside libedit when it runs next.
enum PendingAction {
    case finish
    case replaceQuery(String)
    /// Inserts text at the cursor (a paste).
    case insert(String)
}

/// Private characters the read function hands libedit (C1 controls: never typed as text).
enum PrivateKey {
    /// Runs the picker's pending action (accept, cancel, replace the query).
    static let action: wchar_t = 0x80
    static let left: wchar_t = 0x81
    static let right: wchar_t = 0x82
    static let home: wchar_t = 0x83
    static let end: wchar_t = 0x84
    static let delete: wchar_t = 0x85
    // For `--bind`'s editing actions (fzf's names, libedit's functions).
    static let backspace: wchar_t = 0x86
    static let killToEnd: wchar_t = 0x87
    static let killToStart: wchar_t = 0x88
    static let killWordBefore: wchar_t = 0x89
    static let killWordAfter: wchar_t = 0x8A
    static let wordBefore: wchar_t = 0x8B
    static let wordAfter: wchar_t = 0x8C
    static let yank: wchar_t = 0x8D
    static let subwordBefore: wchar_t = 0x8E
    static let subwordAfter: wchar_t = 0x8F
    static let killSubwordBefore: wchar_t = 0x90
    static let killSubwordAfter: wchar_t = 0x91
    static let killBlankWordBefore: wchar_t = 0x92

    /// The key that does what an action asks of the query line.
    static func of(_ edit: EditorKey) -> wchar_t {
        switch edit {
        case .home: home
        case .end: end
        case .left: left
        case .right: right
        case .wordBefore: wordBefore
        case .wordAfter: wordAfter
        case .delete: delete
        case .backspace: backspace
        case .killToEnd: killToEnd
        case .killToStart: killToStart
        case .killWordBefore: killWordBefore
        case .killWordAfter: killWordAfter
        case .yank: yank
        case .subwordBefore: subwordBefore
        case .subwordAfter: subwordAfter
        case .killSubwordBefore: killSubwordBefore
        case .killSubwordAfter: killSubwordAfter
        case .killBlankWordBefore: killBlankWordBefore
        }
    }
}

/// A private character as a key in libedit's notation (itself).
private func privateKey(_ key: wchar_t) -> String {
    String(Character(Unicode.Scalar(UInt32(key))!))
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

// libedit's default keys, audited (libedit 3.1: `bind` lists them in each mode). The keys
// of pick's own table (DefaultKeys, in PickCore) never reach libedit, Escape in emacs mode
// included; among them ctrl-r, whose libedit search prompt landed in the query, and ctrl-l,
// which cleared the whole terminal. Left, Right, Home, End and Delete reach it as private
// keys (below). Of the rest, each key edits the query, or is rebound below
// because it would print a prompt into the query, clear the screen, wait for another key
// with no sign, ring the bell on and on, or crash.
//
// emacs, editing: ctrl-a ctrl-e ctrl-b ctrl-f ctrl-h Backspace ctrl-t ctrl-u ctrl-w ctrl-y,
//   ctrl-d (on an empty query it cancels, as fzf's), alt-b alt-f alt-c alt-l alt-u alt-d
//   alt-w (either case), alt-Backspace, ctrl-alt-h, ctrl-alt-_ (copies the word before).
//   ctrl-u ctrl-w ctrl-y alt-b alt-f alt-d alt-Backspace ctrl-alt-h are fzf's and readline's
//   (`fzfEmacsKeys`, QueryEdit), bound before ~/.editrc; the other keys are libedit's.
// emacs, nothing: ctrl-o ctrl-q ctrl-] do nothing; ctrl-^ ctrl-_ and the alt keys libedit
//   leaves unbound (alt-. alt-_ alt-a …) ring the bell once. ctrl-\ is the terminal's
//   quit: pick cancels.
// vi insert mode: Backspace ctrl-h ctrl-w ctrl-u edit, ctrl-d cancels on an empty query,
//   Escape enters command mode, ctrl-q does nothing.
// vi command mode, editing as vi does: h l w b e W B E 0 ^ $ | % ; , x X D C S s R a A i I
//   p P ~ u . U (U clears the query: libedit keeps none of it to go back to), counts 1–9;
//   f F t T r and the operators c d y take one more key, as in vi. Keys vi leaves unbound
//   ring the bell once.

/// What ctrl-y puts back: the last kill of pick's editing functions (fzf's, not libedit's
/// kill buffer).
nonisolated(unsafe) private var yankedText: [Unicode.Scalar] = []

/// What the word moves and kills take as a word (`--filepath-word`), set once before the
/// editor reads a key.
nonisolated(unsafe) var queryWords = QueryEdit.Words.lettersAndDigits

/// Runs `edit` on libedit's line, inside libedit (a bound function).
private func runQueryEdit(_ el: OpaquePointer?, _ edit: QueryEdit) -> UInt8 {
    guard let el, let info = el_wline(el)?.pointee else { return UInt8(CC_ERROR) }
    let count = info.lastchar - info.buffer
    var text: [Unicode.Scalar] = []
    for i in 0..<count { text.append(Unicode.Scalar(UInt32(bitPattern: info.buffer[i])) ?? "?") }
    let before = QueryEdit.Line(text: text, cursor: info.cursor - info.buffer, yanked: yankedText)
    let after = edit.applied(to: before, words: queryWords)
    yankedText = after.yanked
    if after.text != before.text {
        _ = el_cursor(el, Int32(count - before.cursor))
        el_deletestr(el, Int32(count))
        let wide = after.text.map { wchar_t(bitPattern: $0.value) } + [0]
        wide.withUnsafeBufferPointer { _ = el_winsertstr(el, $0.baseAddress) }
        _ = el_cursor(el, Int32(after.cursor - after.text.count))
    } else {
        _ = el_cursor(el, Int32(after.cursor - before.cursor))
    }
    return UInt8(CC_REFRESH)
}

/// pick's editing functions in libedit, by name, with fzf's meaning (QueryEdit).
private let queryEditFunctions: [(name: String, help: String, fn: @convention(c) (OpaquePointer?, Int32) -> UInt8)] = [
    ("pick-unix-line-discard", "pick: kill to the start of the line", { el, _ in runQueryEdit(el, .killToStart) }),
    ("pick-kill-line", "pick: kill to the end of the line", { el, _ in runQueryEdit(el, .killToEnd) }),
    ("pick-unix-word-rubout", "pick: kill the blank-separated word before", { el, _ in runQueryEdit(el, .killBlankWordBefore) }),
    ("pick-backward-kill-word", "pick: kill the word before", { el, _ in runQueryEdit(el, .killWordBefore) }),
    ("pick-kill-word", "pick: kill to the end of the next word", { el, _ in runQueryEdit(el, .killWordAfter) }),
    ("pick-backward-word", "pick: to the start of the word before", { el, _ in runQueryEdit(el, .wordBefore) }),
    ("pick-forward-word", "pick: to the end of the next word", { el, _ in runQueryEdit(el, .wordAfter) }),
    ("pick-yank", "pick: put back the last kill", { el, _ in runQueryEdit(el, .yank) }),
    ("pick-backward-subword", "pick: to the start of the word part before", { el, _ in runQueryEdit(el, .subwordBefore) }),
    ("pick-forward-subword", "pick: to the end of the next word part", { el, _ in runQueryEdit(el, .subwordAfter) }),
    ("pick-backward-kill-subword", "pick: kill the word part before", { el, _ in runQueryEdit(el, .killSubwordBefore) }),
    ("pick-kill-subword", "pick: kill to the end of the next word part", { el, _ in runQueryEdit(el, .killSubwordAfter) }),
]

/// libedit on /dev/tty.
final class LineEditor {
    /// A key libedit binds by default that pick binds to something safe (see above).
    struct Rebinding {
        /// In libedit's notation: `^X` is ctrl-x, `^[x` alt-x.
        var key: String
        var function: String
        /// vi's command mode (libedit's alternative map), not the main map.
        var commandMode = false
    }

    static let emacsRebindings: [Rebinding] = [
        // Quoted insert: the next key goes into the query, even a control character.
        .init(key: "^V", function: "ed-ignore"),
        .init(key: "^@", function: "em-set-mark"),  // ctrl-space, as in emacs (alt-w copies)
        // A prefix: it waits for a second key with no sign, then drops it with a bell.
        .init(key: "^X", function: "ed-ignore"),
        // ed-command: a ": " prompt in the query, and the bell on and on.
        .init(key: "^[x", function: "ed-ignore"), .init(key: "^[X", function: "ed-ignore"),
        // Clears the whole terminal.
        .init(key: "^[^L", function: "ed-ignore"),
        // Search libedit's history, which pick does not keep (alt-p and alt-n walk pick's).
        .init(key: "^[N", function: "ed-ignore"), .init(key: "^[P", function: "ed-ignore"),
    ]
    // A repeat count for the next key, with no sign of it: alt-9 9 x typed 99 x's.
    + (0...9).map { Rebinding(key: "^[\($0)", function: "ed-ignore") }

    static let viRebindings: [Rebinding] = [
        // Insert mode: quoted insert (as in emacs mode).
        .init(key: "^V", function: "ed-ignore"), .init(key: "^@", function: "ed-ignore"),
        // Insert mode: ctrl-a and ctrl-e as libedit binds them in command mode, and as in
        // emacs. To the end, and Right, with vi's append: libedit's own moves stop short of
        // the end in vi mode, on the last character, as in command mode.
        .init(key: "^A", function: "ed-move-to-beg"), .init(key: "^E", function: "vi-add-at-eol"),
        .init(key: privateKey(PrivateKey.end), function: "vi-add-at-eol"),
        .init(key: privateKey(PrivateKey.right), function: "vi-add"),
    ]
    // Insert mode: these inserted themselves, a control character in the query.
    + ["^B", "^F", "^O", "^T", "^X", "^Y", "^]", "^^", "^_"].map { Rebinding(key: $0, function: "ed-ignore") }
    + [
        // Command mode: j k + - walk libedit's history, which pick does not keep (j emptied
        // the query); they move the selection, as Down and Up.
        .init(key: "j", function: "pick-down", commandMode: true),
        .init(key: "+", function: "pick-down", commandMode: true),
        .init(key: "k", function: "pick-up", commandMode: true),
        .init(key: "\\-", function: "pick-up", commandMode: true),  // escaped: not a switch of bind's
    ]
    + [
        // Command mode: / ? : open a prompt in the query, with the bell on and on; n N repeat
        // the search; v runs $EDITOR over pick's screen; # comments the query out and
        // accepts it (pick cancelled); @ reads an alias pick has none of.
        "/", "?", ":", "n", "N", "v", "#", "@",
        // G J K walk libedit's history; _ inserts a word of it (and crashed, with none).
        "G", "J", "K", "_",
        // Prefixes of arrow keys' sequences, which pick decodes itself: they wait for
        // another key with no sign (Escape too, pressed again in command mode).
        "^[", "O", "[", "\u{CF}", "\u{DB}",
        // Clears the whole terminal (reached as ctrl-alt-l).
        "^L",
    ].map { Rebinding(key: $0, function: "ed-ignore", commandMode: true) }

    /// fzf's and readline's editing keys in emacs mode, bound before ~/.editrc is read (so
    /// a person's own bindings win, and `bind -v` leaves vi's keys as vi has them).
    static let fzfEmacsKeys: [Rebinding] = [
        .init(key: "^U", function: "pick-unix-line-discard"),  // libedit's kills the whole line
        .init(key: "^W", function: "pick-unix-word-rubout"),   // libedit's kills from the mark
        .init(key: "^Y", function: "pick-yank"),
        .init(key: "^[b", function: "pick-backward-word"), .init(key: "^[f", function: "pick-forward-word"),
        .init(key: "^[d", function: "pick-kill-word"),
        .init(key: "^[^?", function: "pick-backward-kill-word"), .init(key: "^[^H", function: "pick-backward-kill-word"),
    ]

    let el: OpaquePointer
    private let input: UnsafeMutablePointer<FILE>
    private let output: UnsafeMutablePointer<FILE>
    private var prompt: (prefix: String, text: String)
    /// Colours the prompt (what is drawn left of the rows, then the prompt): escape
    /// sequences between two `promptDelimiter`s (libedit's EL_PROMPT_ESC counts no columns
    /// for them), the query's style at its end.
    private let stylePrompt: (_ prefix: String, _ prompt: String) -> String
    static let promptDelimiter: Character = "\u{1}"

    /// Sets libedit up: emacs, then the person's ~/.editrc (or $EDITRC), then pick's keys.
    /// `action` runs the picker's pending action; `down` and `up` move the selection (vi's
    /// j and k).
    init?(terminal: Terminal, prefix: String, prompt: String,
          stylePrompt: @escaping (_ prefix: String, _ prompt: String) -> String = { $0 + $1 },
          read: @escaping @convention(c) (OpaquePointer?, UnsafeMutablePointer<wchar_t>?) -> Int32,
          action: @escaping @convention(c) (OpaquePointer?, Int32) -> UInt8,
          down: @escaping @convention(c) (OpaquePointer?, Int32) -> UInt8,
          up: @escaping @convention(c) (OpaquePointer?, Int32) -> UInt8) {
        // Close-on-exec copies: no command pick starts (a preview, `execute`, `become`) inherits them.
        guard let fin = fdopen(fcntl(terminal.fd, F_DUPFD_CLOEXEC, 0), "r"),
              let fout = fdopen(fcntl(terminal.fd, F_DUPFD_CLOEXEC, 0), "w") else { return nil }
        guard let el = el_init("pick", fin, fout, fout) else { return nil }
        self.el = el
        input = fin
        output = fout
        self.prompt = (prefix, prompt)
        self.stylePrompt = stylePrompt
        promptText = permanentWide(stylePrompt(prefix, prompt))
        _ = pick_el_set_editor(el, permanentWide("emacs"))
        _ = pick_el_set_int(el, EL_SIGNAL, 0)
        _ = pick_el_set_prompt_esc(el, { _ in promptText }, wchar_t(Self.promptDelimiter.unicodeScalars.first!.value))
        _ = pick_el_set_getcfn(el, read)
        for f in queryEditFunctions {
            _ = pick_el_addfn(el, permanentWide(f.name), permanentWide(f.help), f.fn)
        }
        for rebinding in Self.fzfEmacsKeys {
            _ = pick_el_bind(el, permanentWide(rebinding.key), permanentWide(rebinding.function), 0)
        }
        _ = el_source(el, nil)
        _ = pick_el_addfn(el, permanentWide("pick-action"), permanentWide("pick: run a picker action"), action)
        _ = pick_el_addfn(el, permanentWide("pick-down"), permanentWide("pick: select the line below"), down)
        _ = pick_el_addfn(el, permanentWide("pick-up"), permanentWide("pick: select the line above"), up)
        let bindings: [(wchar_t, String)] = [
            (PrivateKey.action, "pick-action"), (PrivateKey.left, "ed-prev-char"),
            (PrivateKey.right, "ed-next-char"), (PrivateKey.home, "ed-move-to-beg"),
            (PrivateKey.end, "ed-move-to-end"), (PrivateKey.delete, "ed-delete-next-char"),
            (PrivateKey.backspace, "ed-delete-prev-char"), (PrivateKey.killToEnd, "pick-kill-line"),
            (PrivateKey.killToStart, "pick-unix-line-discard"), (PrivateKey.killWordBefore, "pick-backward-kill-word"),
            (PrivateKey.killWordAfter, "pick-kill-word"), (PrivateKey.wordBefore, "pick-backward-word"),
            (PrivateKey.wordAfter, "pick-forward-word"), (PrivateKey.yank, "pick-yank"),
            (PrivateKey.subwordBefore, "pick-backward-subword"), (PrivateKey.subwordAfter, "pick-forward-subword"),
            (PrivateKey.killSubwordBefore, "pick-backward-kill-subword"),
            (PrivateKey.killSubwordAfter, "pick-kill-subword"),
            (PrivateKey.killBlankWordBefore, "pick-unix-word-rubout"),
        ]
        for (key, fn) in bindings {
            let k = UnsafeMutablePointer<wchar_t>.allocate(capacity: 2)
            k[0] = key
            k[1] = 0
            _ = pick_el_bind(el, k, permanentWide(fn), 0)
            _ = pick_el_bind(el, k, permanentWide(fn), 1)
        }
        for rebinding in isVi ? Self.viRebindings : Self.emacsRebindings {
            _ = pick_el_bind(el, permanentWide(rebinding.key), permanentWide(rebinding.function),
                             rebinding.commandMode ? 1 : 0)
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

    /// After a resize: libedit learns the size (its full width again) and redraws the
    /// prompt at the cursor.
    func resized() {
        el_resize(el)
    }

    /// The prompt libedit draws before the query from now on.
    /// Styles the prompt again (the query's colours follow the search: `disabled`).
    func restylePrompt() {
        promptText = permanentWide(stylePrompt(prompt.prefix, prompt.text))
    }

    func setPrompt(prefix: String, _ text: String) {
        guard prefix != prompt.prefix || text != prompt.text else { return }
        prompt = (prefix, text)
        promptText = permanentWide(stylePrompt(prefix, text))
    }

    /// Makes libedit's lines end at column `columns`, short of the terminal's right edge
    /// (where pick draws a border): a long query wraps there. Without automatic margins
    /// (libedit would think the terminal wrapped at its short edge) and without clearing to
    /// the end of a line (which would take the border): libedit writes spaces instead.
    func limitColumns(_ columns: Int) {
        _ = pick_el_settc(el, "am", "no")
        _ = pick_el_settc(el, "ce", "")
        _ = pick_el_settc(el, "co", String(max(2, columns)))
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
