// Command-line options, with fzf's spellings wherever the meaning is the same.
//
// What each option is and where its value lands is one row of OptionTable; this file holds
// the values themselves and the parser that walks the words. Accepted forms: `--name=value`,
// `--name value`, `-q value`, `-qvalue`, bundled short flags (`-ei`), and `+i`/`+s`/`+m`/`+e`
// to turn a flag off as fzf does; an optional value may be the next word where fzf takes it
// so (`--multi 5`, `--border sharp`). The defaults file, then the defaults variable, then the
// command line: the command line wins. Every option fzf 0.74.5 accepts is accepted; those
// pick cannot honour yet are ignored, as a terminal that cannot draw them would
// (docs/fzf-differences.md lists them), and a few are refused by name.

/// Where the prompt sits, and which way the list reads.
public enum Layout: String, Sendable {
    /// Prompt on the first row, list below (pick's default, as a command palette; fzf's
    /// `--layout=reverse`).
    case top
    /// Prompt on the last row, list above it growing upward (fzf's default).
    case bottom
    /// Prompt on the last row, list above it in reading order, best first at the top
    /// (fzf's `--layout=reverse-list`).
    case reverseList = "reverse-list"

    /// Whether the prompt is on the region's first row (else its last).
    public var promptOnTop: Bool { self == .top }
    /// Whether the list reads downward from its first line (else upward from the prompt).
    public var listReadsDown: Bool { self != .bottom }
}

/// Where the info line (counts, spinner, marks, scopes) goes: `--info`, fzf's styles.
public enum InfoStyle: Equatable, Sendable {
    /// A row of its own next to the prompt, counts at the left.
    case `default`
    /// A row of its own, counts at the right end.
    case right
    /// Not shown: the row goes to the list.
    case hidden
    /// On the prompt row after the query, after `prefix` (fzf's default `" < "`).
    case inline(prefix: String)
    /// On the prompt row, at its right end.
    case inlineRight(prefix: String)

    /// Whether it takes a row of its own.
    public var hasOwnRow: Bool {
        switch self {
        case .default, .right: return true
        case .hidden, .inline, .inlineRight: return false
        }
    }
}

/// `--scheme`: fzf's scoring schemes, as pick's ranking can follow them. A scheme sets the
/// tiebreak and, as fzf's, what a `'word'` term earns for what stands before the word
/// (`LineMatcher.exactAtBoundary`); pick's fuzzy scorer keeps its own weights.
public enum Scheme: String, Sendable {
    /// Ties go to the shorter line, then input order.
    case `default`
    /// As default: pick's scorer already rewards a match in the last path component, the
    /// part fzf's path scheme adds a bonus for. A word after `/` outranks one after a space.
    case path
    /// Ties go to input order alone, so that the newest (first) of equally good lines wins.
    /// A word after a space, `/` or other punctuation earns alike.
    case history

    /// The tiebreaks the scheme sets (as in fzf, the later of `--scheme` and `--tiebreak` wins).
    public var tiebreaks: [Tiebreak] {
        self == .history ? [.index] : [.length]
    }
}

/// The height of the UI: full screen, a number of rows, or a percentage of the terminal.
public enum Height: Sendable, Equatable {
    case full
    case rows(Int)
    case percent(Int)
    /// `--height=-N`: all the terminal's rows but N.
    case allBut(Int)
}

/// What `pick` was asked to do, parsed from `PICK_DEFAULT_OPTS` and the command line.
public struct Options: Sendable {
    public var query = ""
    public var filter: String? = nil
    public var complete: String? = nil
    public var limit = Tunables.Picker.suggestions
    public var selectOne = false
    public var exitZero = false
    public var multi = false
    public var multiLimit = 0
    public var matching = MatchingOptions()
    public var ranking = RankingOptions()
    public var read0 = false
    public var print0 = false
    public var printQuery = false
    /// `--expect`: keys that also accept, each printed as it was written.
    public var expect: [NamedKey] = []
    /// `--bind`: keys and events that run actions (Bindings.swift).
    public var bindings = Bindings()
    /// `--disabled`: the query does not filter (a `change:reload` does the searching).
    public var disabled = false
    /// `--no-input`: the prompt's row and the info line hidden, the query not typed in
    /// (show-input and toggle-input show them).
    public var noInput = false
    public var prompt = "> "
    /// `--ghost`: the text shown in place of an empty query (fzf's), safe to draw.
    public var ghost = ""
    public var header: String? = nil
    public var headerLines = 0
    public var height: Height = .full
    /// `--height=~N`: fewer rows when the input needs fewer (at most the height).
    public var heightAdapts = false
    /// `--min-height`: the fewest rows a percentage or `-N` height takes (fzf's default).
    public var minHeight = 10
    /// The best completion drawn dim after the query (pick's; off when invoked as fzf).
    public var completionGhost = true
    /// `--min-height=N+`: N rows for the list, the other parts' rows on top.
    public var minHeightAuto = false
    /// The style a border option without a value draws (`--style full:STYLE` sets it).
    public var defaultBorder = BorderStyle.rounded
    public var layout: Layout = .top
    /// Margin, border, label and padding around the picker.
    public var surround = Surround()
    /// The parts' borders and labels, and `--header-first` (PartLayout).
    public var parts = PartsSpec()
    /// `--preview-label` and `--preview-label-pos` (the style is `previewWindow`'s border).
    public var previewLabel = PartBorder()
    /// `--footer`: lines of text beyond the list, in a box of their own.
    public var footer: String? = nil
    public var info: InfoStyle = .default
    /// `--info-command`: a command whose first line of output is drawn in the counts'
    /// place (`FZF_INFO` holds them), run again as they, the focus or the query change.
    public var infoCommand: String? = nil
    /// `--track`: the highlight stays on its line as the query changes.
    public var track = false
    /// `--id-nth`: the fields that say which line is which across a reload (what `--track`
    /// follows, what marks a reload-sync keeps); nil: the whole line, as read.
    public var idNth: FieldRanges? = nil
    /// The highlight keeps its row of the list when the query changes, as fzf's cursor
    /// does (as fzf); pick's goes back to the first match.
    public var keepsRow = false
    /// `--sync`: the picker starts once the input is read whole.
    public var sync = false
    /// The gutter's glyphs: the selected line's pointer and a marked line's marker (nil:
    /// the defaults, `pointerShown` and `markerShown`).
    public var pointer: String? = nil
    public var marker: String? = nil
    /// `--gutter`, `--gutter-raw`: what the pointer's column shows on the other rows (nil:
    /// the default, `gutterShown`), and in raw mode (nil: fzf's `▖`, `:` without Unicode).
    public var gutter: String? = nil
    public var gutterRaw: String? = nil
    /// fzf's own glyphs where none is given (pick invoked as `fzf`): the pointer `▌`, the
    /// marker `┃` and the gutter `▌`; without Unicode `>`, `>` and a blank in the gutter's
    /// colour. pick's own are `>`, `*` and a blank.
    public var fzfGlyphs = false
    /// The glyphs drawn, the defaults filled in.
    public var pointerShown: String { pointer ?? (fzfGlyphs && unicode ? "\u{258C}" : ">") }
    public var markerShown: String { marker ?? (fzfGlyphs ? (unicode ? "\u{2503}" : ">") : "*") }
    /// nil: a blank (`gutterIsReversed`: in the gutter's colour as a background).
    public var gutterShown: String? { gutter ?? (fzfGlyphs && unicode ? "\u{258C}" : nil) }
    public var gutterIsReversed: Bool { gutter == nil && fzfGlyphs && !unicode }
    public var gutterRawShown: String { gutterRaw ?? (unicode ? "\u{2596}" : ":") }
    /// `--raw`: start in raw mode (every line listed, those not matching dimmed).
    public var raw = false
    /// `--jump-labels`: the keys jump mode labels the rows with, in order from the prompt.
    public var jumpLabels = Options.defaultJumpLabels
    public static let defaultJumpLabels = "asdfghjklqwertyuiopzxcvbnm1234567890ASDFGHJKLQWERTYUIOPZXCVBNM`~;:,<.>/?'\"!@#$%^&*()[{]}-_=+"
    /// `--highlight-line`: the selected row's colours reach the row's end, not only its text.
    public var highlightLine = false
    /// The rule after the counts (`--separator`, SGR colours and tabs allowed, as fzf):
    /// nil is fzf's default (`─`, `-` without Unicode), "" none (`--no-separator`).
    /// `separatorRule` is what is drawn.
    public var separator: String? = nil
    /// `--no-unicode`: ASCII glyphs where fzf draws box-drawing ones.
    public var unicode = true
    /// `--no-bold`: the selected line, its matches, the prompt, the query, the pointer and
    /// the spinner without the bold fzf gives them.
    public var bold = true
    /// `--black`: a black background, over `bg`'s.
    public var black = false
    /// `--ambidouble`: East Asian ambiguous characters take two columns (nil: as
    /// RUNEWIDTH_EASTASIAN says, fzf's).
    public var ambidouble: Bool? = nil
    /// The rule drawn after the counts, or nil for none.
    public var separatorRule: String? {
        guard let separator else { return unicode ? "─" : "-" }
        return separator.isEmpty ? nil : separator
    }
    /// `--scrollbar=CHARS`: the list's glyph and the preview's (one character is both);
    /// nil is fzf's default (`│`, `|` without Unicode), "" none (`--no-scrollbar`).
    /// `listScrollbar` and `previewScrollbar` are what is drawn.
    public var scrollbar: String? = nil
    /// The list's scrollbar glyph, or "" for none.
    public var listScrollbar: String {
        guard let scrollbar else { return unicode ? "│" : "|" }
        return scrollbar.first.map(String.init) ?? ""
    }
    /// The preview pane's scrollbar glyph, or "" for none.
    public var previewScrollbar: String {
        guard let scrollbar else { return unicode ? "│" : "|" }
        let glyphs = Array(scrollbar)
        return glyphs.count > 1 ? String(glyphs[1]) : glyphs.first.map(String.init) ?? ""
    }
    /// How long lines are cut or wrapped: `--hscroll`, `--hscroll-off`, `--keep-right`,
    /// `--wrap`, `--gap` (`look.multiLine` follows `multiLine` and `--read0` at start).
    public var look = ListLook()
    /// `--no-multi-line`: a `--read0` item's newlines drawn `␊` on one row, not over rows.
    public var multiLine = true
    /// `--wrap-sign`, `--preview-wrap-sign`: what starts a row a wrapped line goes on
    /// over (nil: fzf's `↳ `, `> ` without Unicode; the preview's: the list's).
    public var wrapSign: String? = nil
    public var previewWrapSign: String? = nil
    /// `--marker-multi-line`: the marker on a marked item's first, middle and last rows
    /// (nil: fzf's `╻┃╹`, `.|'` without Unicode; empty: none).
    public var markerMultiLine: [String]? = nil
    /// `--gap-line`: the rule on each gap's last row (nil: fzf's `┈`, `-` without
    /// Unicode; empty: none, `--no-gap-line`).
    public var gapLine: String? = nil
    /// The glyphs drawn, fzf's defaults filled in.
    public var wrapSignShown: String { wrapSign ?? (unicode ? "\u{21B3} " : "> ") }
    public var previewWrapSignShown: String { previewWrapSign ?? wrapSignShown }
    public var markerMultiLineShown: [String] {
        markerMultiLine ?? (markerShown.isEmpty ? ["", "", ""] : unicode ? ["\u{257B}", "\u{2503}", "\u{2579}"] : [".", "|", "'"])
    }
    public var gapLineShown: String { gapLine ?? (unicode ? "\u{2508}" : "-") }
    /// `--scroll-off`: lines kept in view above and below the highlight.
    public var scrollOff = 0
    /// `--tabstop`: a tab in a title is blank to the next multiple of this many columns.
    public var tabStop = TerminalText.tabStop
    /// What marks a title cut short (nil: fzf's `··`, `..` without Unicode).
    public var ellipsis: String? = nil
    public var ellipsisShown: String { ellipsis ?? (unicode ? "··" : "..") }
    /// `--no-clear` (false): the last frame stays drawn when pick ends, as fzf's.
    public var clear = true
    /// `--filepath-word`: the query's word moves and kills take the parts of a path as
    /// words (QueryEdit.Words).
    public var filepathWord = false
    /// `--scheme` (kept with the matching options, which score `'word'` terms by it).
    public var scheme: Scheme {
        get { matching.scheme }
        set { matching.scheme = newValue }
    }
    /// `-d/--delimiter`: how --nth, --with-nth, --accept-nth and field placeholders cut a
    /// line (FieldDelimiter); nil: runs of blanks.
    public var delimiter: String? = nil
    /// `-n/--nth`, `--with-nth`, `--accept-nth`: the fields searched, shown and printed
    /// (FieldView).
    public var nth: FieldRanges? = nil
    public var withNth: FieldTemplate? = nil
    public var acceptNth: FieldTemplate? = nil
    public var color: ColorSpec? = nil
    /// `--no-color`; `--color` may still say `bw` (nothing at all) or `always`.
    public var noColor = false
    public var ansi = false
    /// Clicks select, a double-click picks, the wheel scrolls (`--no-mouse`: off).
    public var mouse = true
    public var history: String? = nil
    /// `--history-size`: how many queries the history keeps.
    public var historySize = Tunables.Picker.historyEntries
    /// `--with-shell`: the shell and its arguments that run commands, the command last
    /// (nil: `$SHELL -c`).
    public var withShell: [String]? = nil
    public var cycle = false
    /// `--palette`: a line is TITLE<TAB>SECTION<TAB>KEYWORDS<TAB>SHORTCUT. Off, a line is
    /// one title, tabs and all, as fzf reads it (`--plain`, `--no-palette`).
    public var palette = false
    public var scope: String? = nil
    /// `--preview CMD`: the command whose output the preview pane shows (nil: no pane).
    public var preview: String? = nil
    /// `--preview-window`: where the pane goes and how it shows the output.
    public var previewWindow = PreviewWindow()
    public var demo = false
    /// `--typos` / `--no-typos`: close matches (CloseMatches.swift) after the real ones.
    /// nil: the picker shows them, `--filter` does not (it prints fzf's line sets).
    public var typos: Bool? = nil
    /// Whether control characters in lines show as symbols (`TerminalText`); as `fzf`, not.
    public var controlSymbols = true
    /// `--shell NAME`: print the key bindings for bash, zsh or fish.
    public var shell: String? = nil
    /// `--completion NAME`: print the completion of pick's options for bash, zsh or fish.
    public var completion: String? = nil
    public var help = false
    public var version = false
    /// `--remember NAME`: rank with what NAME remembers, and record picks under it.
    public var remember: String? = nil
    /// `--record`, `--forget`, `--list`: script NAME's memory instead of picking.
    public var memoryCommand: MemoryCommand? = nil
    /// `--tmux`: open in a tmux popup (inside tmux 3.3 or later; inline elsewhere).
    public var tmux: TmuxPopup? = nil
    /// `--accessible`: the cursor rests on the selected row, the spinner stands still, and
    /// the info line says the counts in words (for screen readers).
    public var accessible = false
    /// `--walker`, `--walker-root`, `--walker-skip`: the files listed when stdin is a terminal.
    public var walker = WalkerOptions()
    /// `--listen[=ADDRESS]`: the remote control's address (ListenAddress.swift), and whether
    /// `--listen-unsafe` lets clients on another address than loopback run commands.
    public var listen: ListenAddress? = nil
    public var listenUnsafe = false

    public init() {}
}

/// What `--record`, `--forget` and `--list` ask of `--remember NAME`'s memory.
public enum MemoryCommand: String, Sendable {
    /// Record the lines on stdin as picked (after `--query`, if given).
    case record
    /// Forget the lines on stdin.
    case forget
    /// Print what NAME remembers, most weighted first.
    case list
}

/// A problem with the options: the message names the option and where it came from.
public struct OptionError: Error, CustomStringConvertible, Equatable {
    public var message: String
    public var description: String { message }

    /// Control characters in the quoted values show as visible symbols, so the error stays
    /// one line and a value cannot write escape sequences to the terminal through stderr.
    public init(message: String) {
        self.message = TerminalText.sanitize(message)
    }

    /// A value as an error message shows it: quoted, and cut short when long, so a 100 KB
    /// value still gives a line a person can read.
    public static func quote<S: StringProtocol>(_ value: S) -> String {
        "'\(shorten(value))'"
    }

    /// The first 60 characters (Unicode scalars) of `text`, then `…` if there was more.
    public static func shorten<S: StringProtocol>(_ text: S) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 60 else { return String(text) }
        var shown = String.UnicodeScalarView()
        shown.append(contentsOf: scalars.prefix(60))
        return String(shown) + "…"
    }
}

/// How an option takes its value.
public enum OptionArgument: Sendable, Equatable {
    /// A flag: `--name`; `--name=VALUE` is refused.
    case none
    /// `--name VALUE` or `--name=VALUE`; missing at the end of the words, it is an error.
    case required
    /// `--name` alone, or a value attached by `=` (`--multi=5`, `-m5`).
    case optional
}

extension Options {
    /// Every long option pick accepts and how it takes a value (from OptionTable). The
    /// parser refuses a name not listed; OptionValueTests drives each one with missing,
    /// empty, huge and malformed values, so a new option cannot slip in without deciding
    /// what they do.
    public static let longOptions: [String: OptionArgument] = OptionTable.byName.filter {
        $0.value.support != .notImplemented
    }.mapValues(\.argument)

    /// The short options (`-q VALUE`, bundled flags like `-ei`) and how they take a value.
    public static let shortOptions: [Character: OptionArgument] = {
        var map: [Character: OptionArgument] = [:]
        for (short, row) in OptionTable.byShort where short.hasPrefix("-") { map[short.last!] = row.argument }
        return map
    }()

    /// `pick --preview-builtin PATH`: the built-in path previewer, a mode of its own that
    /// `--preview builtin` runs. It must be the first argument (main.swift looks for it before
    /// parsing anything); anywhere else it is refused.
    public static let previewBuiltinMode = "--preview-builtin"

    /// Options as fzf starts (pick invoked as `fzf`): its layout, prompt at the bottom, no
    /// close matches below the real ones, no completion ghost after the query (fzf draws
    /// nothing there; its scripts and users read that row), control characters in lines
    /// drawn as nothing, and three lines kept in view past the highlight (`--scroll-off`).
    public static var fzfDefaults: Options {
        var options = Options()
        options.layout = .bottom
        options.typos = false
        options.completionGhost = false
        options.controlSymbols = false
        options.scrollOff = 3
        options.keepsRow = true
        options.fzfGlyphs = true
        return options
    }

    /// Parses the defaults file (its path and text; may be nil), then the defaults variable
    /// (`defaults`, named `defaultsName` in errors; may be nil), then `arguments` (without
    /// argv[0]), over `start` (pick's defaults, or `fzfDefaults`). `#` comment lines and
    /// blank lines are allowed in the file and the variable, as fzf allows them.
    public static func parse(arguments: [String], defaults: String? = nil,
                             defaultsFile: (path: String, text: String)? = nil,
                             defaultsName: String = "PICK_DEFAULT_OPTS", start: Options = Options()) throws -> Options {
        var options = start
        if let file = defaultsFile {
            for (line, words) in try DefaultsFile.lines(file.text, path: file.path) {
                do {
                    try options.apply(words)
                } catch let error as OptionError {
                    throw OptionError(message: "\(file.path):\(line): \(error.message)")
                }
            }
        }
        if let defaults, !defaults.isEmpty {
            do {
                try options.apply(ShellWords.split(defaults, comments: true))
            } catch let error as OptionError {
                throw OptionError(message: "\(defaultsName): \(error.message)")
            }
        }
        try options.apply(arguments)
        try options.parts.checkInline(headerLines: options.headerLines)
        return options
    }

    /// Why `--record`, `--forget` or `--list` cannot run as given (checked once all options
    /// are in, as they may come from PICK_DEFAULT_OPTS and the command line), or nil.
    public var memoryCommandProblem: String? {
        guard let command = memoryCommand else { return nil }
        guard remember != nil else { return "--\(command.rawValue) needs --remember NAME (the memory to \(command.rawValue))" }
        if filter != nil { return "--\(command.rawValue) and --filter cannot be combined" }
        return nil
    }

    /// Whether `name` can name a memory: 1 to 64 letters, digits, `.`, `_` or `-`, not
    /// starting with `.` or `-`.
    public static func isMemoryName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 64, bytes[0] != UInt8(ascii: "."), bytes[0] != UInt8(ascii: "-") else {
            return false
        }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x2D
        }
    }

    /// Applies `args` in order, each through its row of OptionTable.
    private mutating func apply(_ args: [String]) throws {
        var words = OptionWords(args)
        while let arg = words.next() {
            if arg == "--" { continue }  // fzf ignores it
            if arg.hasPrefix("--") {
                try long(arg, &words)
            } else if arg.hasPrefix("+"), arg.count > 1 {
                for c in arg.dropFirst() {
                    guard let row = OptionTable.byShort["+\(c)"] else { throw OptionError(message: "unknown option: +\(c)") }
                    try row.apply(&self, OptionValue(name: "+\(c)", text: nil))
                }
            } else if arg.hasPrefix("-"), arg.count > 1 {
                try shortBundle(arg, &words)
            } else {
                throw OptionError(message: "unexpected argument: \(OptionError.quote(arg)) (pick reads candidates on stdin; see pick --help)")
            }
        }
    }

    /// `--name`, `--name=VALUE`, `--name VALUE`.
    private mutating func long(_ arg: String, _ words: inout OptionWords) throws {
        var name = arg
        var inline: String? = nil
        // By scalars: a value may start with a combining mark, which as a Character would
        // fuse with the `=`.
        let scalars = arg.unicodeScalars
        if let eq = scalars.firstIndex(of: "=") {
            name = String(scalars[..<eq])
            inline = String(scalars[scalars.index(after: eq)...])
        }
        guard let row = OptionTable.byName[name] else {
            if name == Self.previewBuiltinMode {
                throw OptionError(message: "\(name) must come first, alone with its path: pick \(name) PATH")
            }
            throw OptionError(message: "unknown option: \(OptionError.shorten(name))")
        }
        let text: String?
        switch row.argument {
        case .none:
            if let inline { throw OptionError(message: "option \(name) takes no value (got \(OptionError.quote(inline)))") }
            text = nil
        case .required: text = try inline ?? words.value(for: name)
        case .optional: text = inline ?? row.takesNextWord.flatMap { words.next(if: $0) }
        }
        var value = OptionValue(name: name, text: text)
        if row.takesFollowingWords {
            while let more = words.next(if: OptionRow.notAnOption) { value.following.append(more) }
        }
        try row.apply(&self, value)
    }

    /// `-q VALUE`, `-qVALUE`, and bundled flags (`-ei`); `-m5` is a limit, `-mi` two flags.
    private mutating func shortBundle(_ arg: String, _ words: inout OptionWords) throws {
        var rest = Substring.UnicodeScalarView(arg.unicodeScalars.dropFirst())
        while let c = rest.first {
            rest = Substring.UnicodeScalarView(rest.dropFirst())
            let name = "-\(c)"
            guard let row = OptionTable.byShort[name] else { throw OptionError(message: "unknown option: \(name)") }
            let attached: String? = rest.isEmpty ? nil : String(rest)
            var text: String? = nil
            switch row.argument {
            case .none: break
            case .required:
                text = try attached ?? words.value(for: name)
                rest = Substring.UnicodeScalarView()
            case .optional:
                let wanted = row.takesNextWord ?? { _ in false }
                if let attached {
                    if wanted(attached) { text = attached; rest = Substring.UnicodeScalarView() }
                } else {
                    text = words.next(if: wanted)
                }
            }
            try row.apply(&self, OptionValue(name: name, text: text))
        }
    }
}

/// The words being parsed, and the parser's place in them.
struct OptionWords {
    private let words: [String]
    private var i = 0

    init(_ words: [String]) { self.words = words }

    /// The next word, moving past it.
    mutating func next() -> String? {
        guard i < words.count else { return nil }
        defer { i += 1 }
        return words[i]
    }

    /// The next word as `name`'s value; missing at the end, it is an error.
    mutating func value(for name: String) throws -> String {
        guard let word = next() else { throw OptionError(message: "option \(name) needs a value") }
        return word
    }

    /// The next word when `wanted` says it is an optional value (`--multi 5`, `--border
    /// sharp`): pick has no positional arguments, so it can be nothing else.
    mutating func next(if wanted: (String) -> Bool) -> String? {
        guard i < words.count, wanted(words[i]) else { return nil }
        return next()
    }
}

/// Splits a string into words as a POSIX shell would: quotes and backslashes, no expansion.
public enum ShellWords {
    /// With `comments`, a `#` where a word would start begins a comment that runs to the end
    /// of its line (as in a shell script, and as fzf reads its defaults).
    public static func split(_ text: String, comments: Bool = false) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        var inComment = false
        for c in text {
            if inComment {
                if c == "\n" || c == "\r\n" { inComment = false }
                continue
            }
            if escaped {
                // Inside double quotes a backslash escapes only $ ` " \ and newline.
                if quote == "\"" && !"$`\"\\\n".contains(c) { current.append("\\") }
                current.append(c); escaped = false; inWord = true
            } else if let q = quote {
                if c == q { quote = nil }
                else if c == "\\" && q == "\"" { escaped = true }
                else { current.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c; inWord = true
            } else if c == "\\" {
                escaped = true
            } else if comments && c == "#" && !inWord {
                inComment = true
            } else if c == " " || c == "\t" || c == "\n" {
                if inWord { words.append(current); current = ""; inWord = false }
            } else {
                current.append(c); inWord = true
            }
        }
        if quote != nil { throw OptionError(message: "unterminated quote") }
        if inWord || escaped { words.append(current) }
        return words
    }
}
