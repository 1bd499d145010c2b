import PickCore

/// `pick --help`: the summary, its options from OptionTable. man/pick.1 is the reference;
/// a test keeps them in step.
let helpText = """
usage: pick [OPTIONS] < LINES
       pick [OPTIONS]          (nothing piped: the files below the current directory)
       pick --filter QUERY < LINES
       pick --complete TEXT < LINES
       pick --shell bash|zsh|fish
       pick --preview-builtin PATH
       pick --remember NAME --record [--query Q] | --forget | --list

Pick a line from stdin with an editable fuzzy query; the chosen line goes to stdout.
A line is one title, tabs and all, as fzf reads it. With --palette it is
TITLE<TAB>SECTION<TAB>KEYWORDS<TAB>SHORTCUT, every field after the title optional.
\(OptionTable.helpSections())
Query syntax (as fzf): fuzzy  'exact  ^prefix  suffix$  ^whole$  !not  a | b;
  a backslash keeps a space in a term: a\\ b
Exit status: 0 picked, 1 no match, 2 error, 130 cancelled.
Defaults may be set in PICK_DEFAULT_OPTS_FILE (a file of options) and PICK_DEFAULT_OPTS
(when both are unset, fzf's FZF_DEFAULT_OPTS_FILE and FZF_DEFAULT_OPTS); # starts a comment.
Invoked as fzf (a link named fzf), pick starts as fzf does and reads only fzf's variables.
Every fzf option is accepted; those pick does not draw yet change nothing (man pick).
See man pick (or man ./man/pick.1 in the source tree).

"""

/// The picker's F1 help: what each key does (every line's own shortcut follows), read from
/// `DefaultKeys`, the table `--bind` overrides; then the query editor's keys.
/// `mouse`: the mouse's entries under their own heading (after the shortcuts, which a
/// palette's user looks for first), instead of the keys'.
func keyHelp(multi: Bool, preview: Bool = false, history: Bool = false, mouse: Bool = false) -> [String] {
    func line(_ keys: String, _ what: String) -> String {
        "  " + keys + String(repeating: " ", count: max(1, 38 - keys.count)) + what
    }
    func isMouse(_ key: Key) -> Bool { if case .mouseEvent = key { true } else { false } }
    var lines = [mouse ? "Mouse" : "Keys (Up/Down scroll this help; / searches it; any other key returns)"]
    var entries = DefaultKeys.entries(multi: multi, preview: preview, history: history)
        .filter { preview || !$0.chain.contains(where: \.kind.isPreviewAction) }
        .filter { $0.keys.contains(where: isMouse) == mouse }
        .map { (keys: $0.keys.compactMap(KeyNames.name), what: $0.chain.map(\.kind.summary).joined(separator: ", then ")) }
    while !entries.isEmpty {
        var entry = entries.removeFirst()
        // "move up" and "move down" make one line, their keys in pairs: up down ctrl-p ctrl-n.
        for (one, other) in [(" up", " down"), (" down", " up")] {
            if entry.what.hasSuffix(one), let next = entries.first, next.what == entry.what.dropLast(one.count) + other,
               next.keys.count == entry.keys.count {
                entries.removeFirst()
                entry.keys = zip(entry.keys, next.keys).flatMap { [$0, $1] }
                entry.what += "," + other
                break
            }
        }
        lines.append(line(entry.keys.joined(separator: " "), entry.what))
    }
    if !mouse { lines.append(line("ctrl-a ctrl-e ctrl-w ctrl-u alt-b …", "edit (libedit, ~/.editrc)")) }
    return lines
}

/// The F1 help over the list: its lines, how far they are scrolled, and what `/` searches
/// it for (with the list's own matcher).
struct HelpOverlay {
    private let all: [String]
    private(set) var lines: [String]
    private(set) var scroll = 0
    /// What was typed after `/`; nil before `/`.
    private(set) var search: String? = nil

    init(lines: [String]) {
        all = lines
        self.lines = lines
    }

    /// What shows, from the first line scrolled to (the search first, while there is one).
    var shown: [String] { (search.map { ["/" + $0] } ?? []) + Array(lines.dropFirst(scroll)) }

    /// Scrolls for Up, Down (ctrl-p, ctrl-n, ctrl-k, ctrl-j), PageUp and PageDown; `/` starts
    /// a search, which typing and Backspace then edit; false for any other key, which
    /// closes the help.
    mutating func scroll(for key: Key, page: Int) -> Bool {
        switch key {
        case .down, .char(14), .char(10): scroll += 1
        case .up, .char(16), .char(11): scroll -= 1
        case .pageDown: scroll += page
        case .pageUp: scroll -= page
        case .char(0x2F) where search == nil: search = ""
        case .char(127), .char(8):
            guard search?.isEmpty == false else { return false }
            search!.removeLast()
            lines = HelpSearch.matching(all, search!)
        case .char(let c) where search != nil && c >= 0x20 && c != 0x7F:
            search!.unicodeScalars.append(Unicode.Scalar(c)!)
            lines = HelpSearch.matching(all, search!)
            scroll = 0
        default: return false
        }
        scroll = max(0, min(scroll, lines.count - 1))
        return true
    }
}

/// Searches the help's lines as the list is searched: the same query syntax and matcher,
/// the lines kept in the help's order.
enum HelpSearch {
    static func matching(_ lines: [String], _ query: String) -> [String] {
        guard !query.isEmpty else { return lines }
        let store = LineStore(separator: 0x0A, parsesFields: false)
        store.append(Array(lines.joined(separator: "\n").utf8))
        store.finish()
        let engine = SearchEngine(store: store, ranking: RankingOptions(sorts: false, reversesInput: false, tiebreaks: []))
        return engine.searchAllInput(query).lines.map { lines[Int($0)] }
    }
}
