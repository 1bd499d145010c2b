import PickCore

/// `pick --help`: the summary. man/pick.1 is the reference; a test keeps them in step.
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

Search
  -q, --query=QUERY       start with this query
  -e, --exact             plain terms match exactly (a 'term is then fuzzy)
  -i, --ignore-case       ignore case;  +i, --no-ignore-case  respect it (default: smart)
      --literal           do not ignore diacritics
      --no-sort           keep input order instead of ranking
      --tac               reverse input order
      --tiebreak=CRI      length, begin, end, index; up to two, comma-separated
      --scheme=SCHEME     default, path, or history (ties go to input order)
  -d, --delimiter=STR     how fields split: a string or regular expression, as fzf
                          (default: runs of blanks, each field keeping its trailing ones)
  -n, --nth=N[,..]        search only these fields: 2, -1 (the last), 2.., ..3, 1,3
      --with-nth=N[,..]   show only these fields (the whole line is still printed)
      --accept-nth=N[,..] print only these fields of the chosen line
      --palette           lines are TITLE<TAB>SECTION<TAB>KEYWORDS<TAB>SHORTCUT
      --plain             tabs are text (the default): undoes --palette; --no-palette too
      --read0             lines end with NUL instead of newline
      --walker=OPTS       nothing piped: list [file][,dir][,follow][,hidden] (file,follow,hidden)
      --walker-root=DIR.. the folders to list from (default .)
      --walker-skip=DIRS  folders not walked into (default .git,node_modules)
      --typos             --filter also prints close matches (one typo away), last
      --no-typos          no close matches in the picker (default: fill a short list)

Modes
  -f, --filter=QUERY      print the lines matching QUERY in display order and exit
      --complete=TEXT     print suggestions that complete TEXT and exit
      --limit=N           how many suggestions (default 6)
      --demo              use a built-in sample command palette as input
      --shell=SHELL       print key bindings for bash, zsh or fish (ctrl-t, ctrl-r, alt-c)
                          and the completion of pick's options
      --completion=SHELL  print only the completion of pick's options
      --preview-builtin PATH
                          print a preview of PATH (a file's first lines, a directory's
                          entries) and exit; the built-in preview runs this

Memory
      --remember=NAME     learn from picks under NAME: a line picked before moves up
                          among comparably good matches, most for the query typed then
                          (shift-Delete forgets the selected line; --no-remember or
                          PICK_NO_REMEMBER=1: off)
      --record            record stdin's lines as picked after --query, and exit
      --forget            forget stdin's lines, and exit
      --list              print what NAME remembers, with weights, and exit

Interface
  -m, --multi[=N]         mark several lines (at most N) with Tab; all are printed
  -1, --select-1          pick the only match without asking
  -0, --exit-0            exit at once when nothing matches
      --height=[~]N[%]    draw N rows (or N% of the terminal) below the cursor;
                          ~N: fewer when the input needs fewer
      --layout=LAYOUT     top (prompt above the list, default: fzf's reverse), bottom
                          (fzf's default), reverse-list (prompt below, list top down)
      --reverse           the same as --layout=top
      --border[=STYLE]    a border: rounded (default), sharp, bold, double, dashed,
                          block, thinblock, horizontal, vertical, top, bottom, left,
                          right, line, none;  --no-border  none
      --border-label=TEXT a label on the border;  --border-label-pos=N[:bottom]
      --margin=TRBL       space outside the border: 1 to 4 sizes, N or N%
      --padding=TRBL      space inside the border, likewise
      --info=STYLE        default, right, hidden, inline, inline-right (the counts on
                          the prompt's row);  --no-info  hidden
      --track             keep the highlight on its line as the query changes
      --pointer=STR       the selected line's mark (default '>');  --marker=STR  a
                          marked line's (default '*'); each at most 2 columns
      --ellipsis=STR      marks a title cut short (default '…')
      --prompt=TEXT       the prompt (default '> ')
      --header=TEXT       a line of text above the list
      --header-lines=N    the first N input lines are a header, not candidates
      --scope=NAME        start in the section NAME
      --bind=KEY:ACTION   keys and events (start, change, load…) run actions, as fzf's
                          --bind: execute, reload, become, transform… (man pick)
      --disabled          the query does not filter (--bind change:reload… does)
      --cycle             moving past either end wraps around
      --no-mouse          leave the mouse to the terminal (default: clicks pick)
      --history=FILE      keep queries in FILE; alt-p and alt-n walk them
      --color=SPEC        colors: dark, light, 16, bw, or name:color pairs
      --no-color          draw without colors (also NO_COLOR, TERM=dumb)
      --ansi              draw colour codes; match and print the visible text
      --tmux[=POS,W%,H%]  inside tmux 3.3+, open in a popup: center (default), top,
                          bottom, left, right; sizes default to 50%
      --accessible        for screen readers: the cursor rests on the selected row,
                          the counts are said in words, the spinner stands still

Preview
      --preview=CMD       show CMD's output for the focused line in a pane; {} is the
                          line, {q} the query, {n} its index, {N} a field, each quoted
                          (builtin: pick's own previewer of paths, as ctrl-t and alt-c use)
      --preview-window=OPTS  fzf's: right,50% (default), left, up, down, N or N%,
                          border-STYLE, noborder, wrap, hidden, follow, +SCROLL[/D],
                          ~HEADER, <COLS(ALTERNATIVE) for narrow terminals

Output
      --print-query       print the query before the result
      --expect=KEYS       keys that also accept; the key is printed first, as written
      --print0            end output lines with NUL

  -h, --help              this summary;  --version  the version

Query syntax (as fzf): fuzzy  'exact  ^prefix  suffix$  ^whole$  !not  a | b;
  a backslash keeps a space in a term: a\\ b
Exit status: 0 picked, 1 no match, 2 error, 130 cancelled.
Defaults may be set in PICK_DEFAULT_OPTS_FILE (a file of options) and PICK_DEFAULT_OPTS;
fzf options pick does not implement yet are refused, saying so. See man pick (or man ./man/pick.1 in the source tree).

"""

/// The picker's F1 help: what each key does (every line's own shortcut follows).
func keyHelp(multi: Bool, preview: Bool = false) -> [String] {
    let previewKeys = [
        "  shift-Up shift-Down                   scroll the preview",
        "  shift-PageUp shift-PageDown           page the preview",
        "  ctrl-/                                toggle the preview",
    ]
    return [
        "Keys (Up/Down scroll this help; / searches it; any other key returns)",
        "  Up Down  ctrl-p ctrl-n  ctrl-k ctrl-j  move",
        "  PageUp PageDown                       move a page",
        "  Return                                pick",
        "  Escape  ctrl-c  ctrl-g                cancel",
        multi ? "  Tab  shift-Tab                        mark and move"
              : "  Tab                                   complete the query",
        "  Right (at the end)                    take the dim suggestion",
        "  ctrl-s                                next scope",
        "  ctrl-r                                next line (older, in history)",
        "  ctrl-l                                draw the screen again",
        "  shift-Delete                          forget the line (--remember)",
        "  alt-p  alt-n                          older, newer query",
        "  F1  alt-?                             this help",
        "  ctrl-z                                suspend (fg resumes)",
        "  ctrl-a ctrl-e ctrl-w ctrl-u alt-b …   edit (libedit, ~/.editrc)",
    ] + (preview ? previewKeys : [])
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
