// Command-line options, with fzf's spellings wherever the meaning is the same.
//
// Accepted forms: `--name=value`, `--name value`, `-q value`, `-qvalue`, bundled short
// flags (`-ei`), and `+i`/`+s`/`+m`/`+e` to turn a flag off as fzf does; an optional value
// may be the next word where fzf takes it so (`--multi 5`, `--border sharp`).
// `PICK_DEFAULT_OPTS` is read first, then the command line, so the command line wins. An
// `FZF_DEFAULT_OPTS` copied there works: fzf's options pick lacks are refused by name
// (`fzfOptionsNotImplemented`), never taken for unknown or silently ignored.

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

/// `--scheme`: fzf's scoring schemes, as pick's ranking can follow them.
public enum Scheme: String, Sendable {
    /// Ties go to the shorter line, then input order.
    case `default`
    /// As default: pick's scorer already rewards a match in the last path component, the
    /// part fzf's path scheme adds a bonus for.
    case path
    /// Ties go to input order alone, so that the newest (first) of equally good lines wins.
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
    public var prompt = "> "
    public var header: String? = nil
    public var headerLines = 0
    public var height: Height = .full
    /// `--height=~N`: fewer rows when the input needs fewer (at most the height).
    public var heightAdapts = false
    public var layout: Layout = .top
    /// Margin, border, label and padding around the picker.
    public var surround = Surround()
    public var info: InfoStyle = .default
    /// `--track`: the highlight stays on its line as the query changes.
    public var track = false
    /// The gutter's glyphs: the selected line's pointer and a marked line's marker.
    public var pointer = ">"
    public var marker = "*"
    /// What marks a title cut short.
    public var ellipsis = "…"
    public var scheme: Scheme = .default
    /// `-d/--delimiter`: how --nth, --with-nth, --accept-nth and field placeholders cut a
    /// line (FieldDelimiter); nil: runs of blanks.
    public var delimiter: String? = nil
    /// `-n/--nth`, `--with-nth`, `--accept-nth`: the fields searched, shown and printed
    /// (FieldView).
    public var nth: FieldRanges? = nil
    public var withNth: FieldRanges? = nil
    public var acceptNth: FieldRanges? = nil
    public var color: ColorSpec? = nil
    /// `--no-color`; `--color` may still say `bw` (nothing at all) or `always`.
    public var noColor = false
    public var ansi = false
    /// Clicks select, a double-click picks, the wheel scrolls (`--no-mouse`: off).
    public var mouse = true
    public var history: String? = nil
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
    /// Every long option pick accepts and how it takes a value. The parser refuses a name
    /// not listed here; OptionValueTests drives each one with missing, empty, huge and
    /// malformed values, so a new option cannot slip in without deciding what they do.
    public static let longOptions: [String: OptionArgument] = [
        "--query": .required, "--filter": .required, "--complete": .required, "--limit": .required,
        "--select-1": .none, "--no-select-1": .none, "--exit-0": .none, "--no-exit-0": .none,
        "--multi": .optional, "--no-multi": .none,
        "--exact": .none, "--no-exact": .none, "--extended": .none,
        "--ignore-case": .none, "--no-ignore-case": .none, "--smart-case": .none,
        "--literal": .none, "--no-literal": .none,
        "--sort": .none, "--no-sort": .none, "--tac": .none, "--no-tac": .none, "--tiebreak": .required,
        "--read0": .none, "--no-read0": .none, "--print0": .none, "--no-print0": .none,
        "--print-query": .none, "--no-print-query": .none, "--expect": .required, "--bind": .required,
        "--disabled": .none, "--phony": .none, "--enabled": .none, "--no-phony": .none,
        "--prompt": .required, "--header": .required, "--header-lines": .required,
        "--height": .required, "--no-height": .none,
        "--layout": .required, "--reverse": .none, "--no-reverse": .none,
        "--mouse": .none, "--no-mouse": .none,
        "--color": .required, "--no-color": .none, "--ansi": .none, "--no-ansi": .none,
        "--history": .required, "--cycle": .none, "--no-cycle": .none,
        "--palette": .none, "--no-palette": .none, "--plain": .none,
        "--scope": .required, "--demo": .none, "--shell": .required, "--help": .none, "--version": .none,
        "--typos": .none, "--no-typos": .none,
        "--border": .optional, "--no-border": .none, "--border-label": .required, "--no-border-label": .none,
        "--border-label-pos": .required, "--margin": .required, "--no-margin": .none,
        "--padding": .required, "--no-padding": .none,
        "--info": .required, "--no-info": .none, "--inline-info": .none, "--no-inline-info": .none,
        "--track": .none, "--no-track": .none, "--pointer": .required, "--marker": .required,
        "--ellipsis": .required, "--scheme": .required, "--delimiter": .required,
        "--nth": .required, "--with-nth": .required, "--accept-nth": .required,
        "--remember": .required, "--no-remember": .none, "--record": .none, "--forget": .none, "--list": .none,
        "--preview": .required, "--no-preview": .none, "--preview-window": .required,
        "--walker": .required, "--walker-root": .required, "--walker-skip": .required,
        // fzf's, for elements pick does not have: accepted, and they change nothing.
        "--tmux": .optional, "--no-tmux": .none, "--popup": .optional, "--no-popup": .none,
        "--accessible": .none, "--no-accessible": .none, "--completion": .required,
        "--no-scrollbar": .none, "--no-separator": .none, "--highlight-line": .none, "--no-multi-line": .none,
    ]

    /// fzf's options that pick does not implement (yet): refused with a message that says so,
    /// not as unknown, so that an `FZF_DEFAULT_OPTS` copied into `PICK_DEFAULT_OPTS` tells
    /// what is missing. The man page's FZF COMPATIBILITY section lists them.
    public static let fzfOptionsNotImplemented: Set<String> = [
        "--algo", "--ambidouble", "--async", "--bench", "--black", "--bold",
        "--clear", "--extended-exact", "--filepath-word", "--footer",
        "--footer-border", "--footer-label", "--footer-label-pos", "--force-tty-in", "--freeze-left",
        "--freeze-right", "--gap", "--gap-line", "--ghost", "--gutter", "--gutter-raw", "--header-border",
        "--header-first", "--header-label", "--header-label-pos", "--header-lines-border", "--history-size",
        "--hscroll", "--hscroll-off", "--id-nth", "--info-command", "--input-border", "--input-label",
        "--input-label-pos", "--jump-labels", "--keep-right", "--list-border", "--list-label",
        "--list-label-pos", "--listen", "--listen-unsafe", "--man", "--marker-multi-line", "--min-height",
        "--multi-line", "--no-256", "--no-ambidouble", "--no-black", "--no-bold", "--no-clear",
        "--no-expect", "--no-extended", "--no-filepath-word", "--no-footer", "--no-footer-border",
        "--no-footer-label", "--no-force-tty-in", "--no-gap", "--no-gap-line", "--no-header",
        "--no-header-border", "--no-header-first", "--no-header-label", "--no-header-lines",
        "--no-header-lines-border", "--no-highlight-line", "--no-history", "--no-hscroll", "--no-id-nth",
        "--no-info-command", "--no-input", "--no-input-border", "--no-input-label", "--no-keep-right",
        "--no-list-border", "--no-list-label", "--no-listen", "--no-listen-unsafe",
        "--no-preview-border", "--no-preview-label", "--no-raw", "--no-sync",
        "--no-tail", "--no-tty-default", "--no-unicode", "--no-winpty", "--no-wrap",
        "--no-wrap-word", "--nushell", "--preview-border",
        "--preview-label", "--preview-label-pos", "--preview-wrap-sign",
        "--profile-block", "--profile-cpu", "--profile-mem", "--profile-mutex", "--proxy-script", "--raw",
        "--scroll-off", "--scrollbar", "--separator", "--style", "--sync", "--tabstop", "--tail",
        "--threads", "--toggle-sort", "--tty-default", "--unicode", "--with-shell", "--wrap", "--wrap-sign", "--wrap-word",
    ]

    /// `pick --preview-builtin PATH`: the built-in path previewer, a mode of its own that
    /// `--preview builtin` runs. It must be the first argument (main.swift looks for it before
    /// parsing anything); anywhere else it is refused.
    public static let previewBuiltinMode = "--preview-builtin"

    /// fzf's shell-integration options, which pick spells `--shell NAME`.
    static let fzfShellOptions: [String: String] = ["--bash": "bash", "--zsh": "zsh", "--fish": "fish"]

    /// The short options (`-q VALUE`, bundled flags like `-ei`) and how they take a value.
    public static let shortOptions: [Character: OptionArgument] = [
        "q": .required, "f": .required, "m": .optional, "d": .required,
        "1": .none, "0": .none, "e": .none, "i": .none, "h": .none, "x": .none, "s": .none,
    ]

    /// Parses the `PICK_DEFAULT_OPTS_FILE` file (its path and text; may be nil), then
    /// `PICK_DEFAULT_OPTS` (may be nil), then `arguments` (without argv[0]).
    public static func parse(arguments: [String], defaults: String? = nil,
                             defaultsFile: (path: String, text: String)? = nil) throws -> Options {
        var options = Options()
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
            let words: [String]
            do {
                words = try ShellWords.split(defaults)
            } catch let error as OptionError {
                throw OptionError(message: "PICK_DEFAULT_OPTS: \(error.message)")
            }
            do {
                try options.apply(words)
            } catch let error as OptionError {
                throw OptionError(message: "PICK_DEFAULT_OPTS: \(error.message)")
            }
        }
        try options.apply(arguments)
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

    private mutating func apply(_ args: [String]) throws {
        var i = 0
        func value(_ name: String, inline: String?) throws -> String {
            if let inline { return inline }
            i += 1
            guard i < args.count else { throw OptionError(message: "option \(name) needs a value") }
            return args[i]
        }
        // An optional value may also be the next word, as fzf takes it (`--multi 5`,
        // `--border sharp`): pick has no positional arguments, so it can be nothing else.
        func nextWord(if wanted: (String) -> Bool) -> String? {
            guard i + 1 < args.count, wanted(args[i + 1]) else { return nil }
            i += 1
            return args[i]
        }
        while i < args.count {
            let arg = args[i]
            if arg.hasPrefix("--") {
                var name = arg
                var inline: String? = nil
                // By scalars: a value may start with a combining mark, which as a Character
                // would fuse with the `=`.
                let scalars = arg.unicodeScalars
                if let eq = scalars.firstIndex(of: "=") {
                    name = String(scalars[..<eq])
                    inline = String(scalars[scalars.index(after: eq)...])
                }
                try long(name, inline: inline, value: value, nextWord: nextWord)
            } else if arg.hasPrefix("+"), arg.count > 1 {
                for c in arg.dropFirst() {
                    switch c {
                    case "i": matching.caseMode = .respect
                    case "s": ranking.sorts = false
                    case "m": multi = false
                    case "e": matching.fuzzy = true
                    case "1": selectOne = false
                    case "0": exitZero = false
                    case "x": throw OptionError(message: "+x (--no-extended) is not implemented yet (fzf option)")
                    default: throw OptionError(message: "unknown option: +\(c)")
                    }
                }
            } else if arg.hasPrefix("-"), arg.count > 1 {
                var rest = Substring.UnicodeScalarView(arg.unicodeScalars.dropFirst())
                while let c = rest.first {
                    rest = Substring.UnicodeScalarView(rest.dropFirst())
                    let attached: String? = rest.isEmpty ? nil : String(rest)
                    switch c {
                    case "q": query = try value("-q", inline: attached); rest = Substring.UnicodeScalarView()
                    case "f": filter = try value("-f", inline: attached); rest = Substring.UnicodeScalarView()
                    case "m":
                        multi = true
                        // `-m5` and `-m 5` are a limit; `-mi` is two bundled flags.
                        let limit = attached ?? nextWord(if: Self.startsWithDigit)
                        if let limit, limit.unicodeScalars.first!.properties.numericType != nil {
                            guard let n = Int(limit), n >= 0 else {
                                throw OptionError(message: "invalid value for -m: \(OptionError.quote(limit)) (expected a number)")
                            }
                            multiLimit = n
                            rest = Substring.UnicodeScalarView()
                        }
                    case "d":
                        delimiter = try value("-d", inline: attached)
                        if delimiter == "" { throw OptionError(message: "invalid value for -d: empty delimiter") }
                        rest = Substring.UnicodeScalarView()
                    case "n":
                        nth = try Self.fieldRanges(value("-n", inline: attached), "-n")
                        rest = Substring.UnicodeScalarView()
                    case "1": selectOne = true
                    case "0": exitZero = true
                    case "e": matching.fuzzy = false
                    case "i": matching.caseMode = .ignore
                    case "h": help = true
                    case "x": matching.fuzzy = true
                    case "s": ranking.sorts = true
                    default: throw OptionError(message: "unknown option: -\(c)")
                    }
                }
            } else {
                throw OptionError(message: "unexpected argument: \(OptionError.quote(arg)) (pick reads candidates on stdin; see pick --help)")
            }
            i += 1
        }
    }

    private static func startsWithDigit(_ word: String) -> Bool {
        word.unicodeScalars.first.map { ("0"..."9").contains($0) } ?? false
    }

    private mutating func long(_ name: String, inline: String?, value: (String, String?) throws -> String,
                               nextWord: ((String) -> Bool) -> String?) throws {
        guard let argument = Self.longOptions[name] else {
            if Self.fzfOptionsNotImplemented.contains(name) {
                throw OptionError(message: "\(name) is not implemented yet (fzf option)")
            }
            if name == Self.previewBuiltinMode {
                throw OptionError(message: "\(name) must come first, alone with its path: pick \(name) PATH")
            }
            if let shell = Self.fzfShellOptions[name] {
                throw OptionError(message: "\(name) is fzf's spelling: pick --shell \(shell) prints the key bindings")
            }
            throw OptionError(message: "unknown option: \(OptionError.shorten(name))")
        }
        if argument == .none, let inline {
            throw OptionError(message: "option \(name) takes no value (got \(OptionError.quote(inline)))")
        }
        func number(_ text: String, min: Int = 0) throws -> Int {
            guard let n = Int(text), n >= min, n <= 1_000_000_000 else {
                throw OptionError(message: "invalid value for \(name): \(OptionError.quote(text)) (expected a whole number\(min > 0 ? " from \(min)" : ""))")
            }
            return n
        }
        switch name {
        case "--query": query = try value(name, inline)
        case "--filter": filter = try value(name, inline)
        case "--complete": complete = try value(name, inline)
        case "--limit": limit = try number(value(name, inline), min: 1)
        case "--select-1": selectOne = true
        case "--no-select-1": selectOne = false
        case "--exit-0": exitZero = true
        case "--no-exit-0": exitZero = false
        case "--multi":
            multi = true
            if let limit = inline ?? nextWord(Self.startsWithDigit) { multiLimit = try number(limit) }
        case "--no-multi": multi = false
        case "--exact": matching.fuzzy = false
        case "--no-exact", "--extended": matching.fuzzy = true
        case "--ignore-case": matching.caseMode = .ignore
        case "--no-ignore-case": matching.caseMode = .respect
        case "--smart-case": matching.caseMode = .smart
        case "--literal": matching.normalize = false
        case "--no-literal": matching.normalize = true
        case "--sort": ranking.sorts = true
        case "--no-sort": ranking.sorts = false
        case "--tac": ranking.reversesInput = true
        case "--no-tac": ranking.reversesInput = false
        case "--tiebreak":
            let text = try value(name, inline)
            var criteria: [Tiebreak] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                guard let t = Tiebreak(rawValue: String(part)) else {
                    throw OptionError(message: "invalid value for --tiebreak: \(OptionError.quote(part)) (expected length, begin, end or index)")
                }
                guard !criteria.contains(t) else {
                    throw OptionError(message: "invalid value for --tiebreak: \(OptionError.quote(part)) is listed twice")
                }
                criteria.append(t)
            }
            if let idx = criteria.firstIndex(of: .index), idx != criteria.count - 1 {
                throw OptionError(message: "invalid value for --tiebreak: 'index' must come last")
            }
            guard criteria.filter({ $0 != .index }).count <= 2 else {
                throw OptionError(message: "invalid value for --tiebreak: at most two criteria before index")
            }
            ranking.tiebreaks = criteria
        case "--read0": read0 = true
        case "--no-read0": read0 = false
        case "--print0": print0 = true
        case "--no-print0": print0 = false
        case "--print-query": printQuery = true
        case "--no-print-query": printQuery = false
        case "--expect":
            let text = try value(name, inline)
            var keys: [NamedKey] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
                guard let key = KeyNames.key(named: part) else {
                    throw OptionError(message: "invalid value for --expect: \(KeyNames.refusal(part))")
                }
                // A key named twice prints as it was written last, as in fzf.
                keys.removeAll { $0.key == key }
                keys.append(NamedKey(key: key, written: part))
            }
            expect = keys
        case "--bind": try bindings.parse(value(name, inline))
        case "--disabled", "--phony": disabled = true
        case "--enabled", "--no-phony": disabled = false
        case "--prompt": prompt = try value(name, inline)
        case "--header": header = try value(name, inline)
        case "--header-lines": headerLines = try number(value(name, inline))
        case "--height":
            let text = try value(name, inline)
            // `~N`: adapt to the input, at most N (`~100%` stays inline).
            let adapts = text.hasPrefix("~")
            let size = adapts ? String(text.dropFirst()) : text
            if size.hasSuffix("%"), let p = Int(size.dropLast()), p >= 1, p <= 100 {
                height = p == 100 && !adapts ? .full : .percent(p)
            } else if let n = Int(size), n >= 3, n <= 100_000 {
                height = .rows(n)
            } else {
                throw OptionError(message: "invalid value for --height: \(OptionError.quote(text)) (expected rows from 3, or a percentage like 40%)")
            }
            heightAdapts = adapts
            tmux = nil  // as in fzf, the later of --height and --tmux wins
        case "--no-height":
            height = .full
            heightAdapts = false
        case "--layout":
            let text = try value(name, inline)
            switch text {
            case "top", "reverse": layout = .top
            case "bottom", "default": layout = .bottom
            case "reverse-list": layout = .reverseList
            default:
                throw OptionError(message: "invalid value for --layout: \(OptionError.quote(text)) (expected top, bottom, or fzf's reverse, default, reverse-list)")
            }
        case "--reverse": layout = .top
        case "--no-reverse": layout = .bottom
        case "--color":
            color = try ColorSpec.parse(value(name, inline))
        case "--mouse": mouse = true
        case "--no-mouse": mouse = false
        case "--no-color": noColor = true
        case "--ansi": ansi = true
        case "--no-ansi": ansi = false
        case "--history":
            let text = try value(name, inline)
            guard !text.isEmpty else { throw OptionError(message: "invalid value for --history: empty file name") }
            history = text
        case "--cycle": cycle = true
        case "--no-cycle": cycle = false
        case "--palette": palette = true
        case "--no-palette", "--plain": palette = false
        case "--scope":
            let text = try value(name, inline)
            guard !text.isEmpty else { throw OptionError(message: "invalid value for --scope: empty section name") }
            scope = text
        case "--demo":
            demo = true
            palette = true  // the demo is a palette; a later --plain still shows its raw lines
        case "--shell":
            let text = try value(name, inline)
            guard ["bash", "zsh", "fish"].contains(text) else {
                throw OptionError(message: "invalid value for --shell: \(OptionError.quote(text)) (expected bash, zsh or fish)")
            }
            shell = text
        case "--typos": typos = true
        case "--no-typos": typos = false
        case "--completion":
            let text = try value(name, inline)
            guard OptionCompletion.shells.contains(text) else {
                throw OptionError(message: "invalid value for --completion: \(OptionError.quote(text)) (expected bash, zsh or fish)")
            }
            completion = text
        case "--help": help = true
        case "--version": version = true
        case "--border":
            // As fzf: `--border` alone is rounded; a style may follow as the next word.
            let text = inline ?? nextWord { !$0.hasPrefix("-") && !$0.hasPrefix("+") } ?? "rounded"
            guard let style = BorderStyle(rawValue: text) else {
                let names = BorderStyle.allCases.map(\.rawValue).joined(separator: ", ")
                throw OptionError(message: "invalid value for --border: \(OptionError.quote(text)) (expected \(names))")
            }
            surround.border = style
        case "--no-border": surround.border = .none
        case "--border-label": surround.label = try value(name, inline)
        case "--no-border-label": surround.label = ""
        case "--border-label-pos":
            let text = try value(name, inline)
            guard let position = LabelPosition.parse(text) else {
                throw OptionError(message: "invalid value for --border-label-pos: \(OptionError.quote(text)) (expected a column such as 3 or -3, or center, optionally with :bottom)")
            }
            surround.labelPosition = position
        case "--margin", "--padding":
            let text = try value(name, inline)
            guard let spacing = Spacing.parse(text) else {
                throw OptionError(message: "invalid value for \(name): \(OptionError.quote(text)) (expected 1 to 4 comma-separated sizes, each N or N% up to 49%)")
            }
            if name == "--margin" { surround.margin = spacing } else { surround.padding = spacing }
        case "--no-margin": surround.margin = .zero
        case "--no-padding": surround.padding = .zero
        case "--info":
            let text = try value(name, inline)
            guard let style = Self.infoStyle(text) else {
                throw OptionError(message: "invalid value for --info: \(OptionError.quote(text)) (expected default, right, hidden, inline or inline-right, the last two optionally with :PREFIX)")
            }
            info = style
        case "--no-info": info = .hidden
        case "--inline-info": info = .inline(prefix: " < ")
        case "--no-inline-info": info = .default
        case "--track": track = true
        case "--no-track": track = false
        case "--pointer", "--marker", "--ellipsis":
            let text = TerminalText.sanitize(try value(name, inline))
            let most = name == "--ellipsis" ? 3 : 2
            guard TerminalText.width(text) <= most else {
                throw OptionError(message: "invalid value for \(name): \(OptionError.quote(text)) (at most \(most) columns wide)")
            }
            switch name {
            case "--pointer": pointer = text
            case "--marker": marker = text
            default: ellipsis = text
            }
        case "--scheme":
            let text = try value(name, inline)
            guard let s = Scheme(rawValue: text.lowercased()) else {
                throw OptionError(message: "invalid value for --scheme: \(OptionError.quote(text)) (expected default, path or history)")
            }
            scheme = s
            ranking.tiebreaks = s.tiebreaks
        case "--delimiter":
            let text = try value(name, inline)
            guard !text.isEmpty else { throw OptionError(message: "invalid value for --delimiter: empty delimiter") }
            delimiter = text
        case "--nth": nth = try Self.fieldRanges(value(name, inline), name)
        case "--with-nth": withNth = try Self.fieldRanges(value(name, inline), name)
        case "--accept-nth": acceptNth = try Self.fieldRanges(value(name, inline), name)
        case "--remember":
            let text = try value(name, inline)
            guard Self.isMemoryName(text) else {
                throw OptionError(message: "invalid value for --remember: \(OptionError.quote(text)) (expected a name of letters, digits, '.', '_' or '-', up to 64)")
            }
            remember = text
        case "--no-remember": remember = nil
        case "--record", "--forget", "--list":
            let command = MemoryCommand(rawValue: String(name.dropFirst(2)))!
            if let other = memoryCommand, other != command {
                throw OptionError(message: "--\(other.rawValue) and \(name) cannot be combined")
            }
            memoryCommand = command
        case "--walker":
            let roots = walker.roots, skip = walker.skip
            walker = try WalkerOptions.parse(value(name, inline))
            (walker.roots, walker.skip) = (roots, skip)
        case "--walker-root":
            // fzf's: the folders that follow are roots too (pick has no positional words).
            var roots = [try value(name, inline)]
            while let more = nextWord({ !$0.hasPrefix("-") && !$0.hasPrefix("+") }) { roots.append(more) }
            walker.roots = roots
        case "--walker-skip":
            walker.skip = try value(name, inline).split(separator: ",").map(String.init)
        case "--preview": preview = try value(name, inline)
        case "--no-preview": preview = nil
        case "--preview-window": previewWindow = try previewWindow.applying(value(name, inline))
        case "--tmux", "--popup":
            // As fzf: a spec may follow as the next word when it does not look like an option.
            guard let text = inline ?? nextWord({ !$0.hasPrefix("-") && !$0.hasPrefix("+") }) else {
                tmux = TmuxPopup()
                break
            }
            guard let popup = TmuxPopup(parsing: text) else {
                throw OptionError(message: "invalid value for \(name): \(OptionError.quote(text)) (expected [center|top|bottom|left|right][,SIZE[%]][,SIZE[%]])")
            }
            tmux = popup
        case "--no-tmux", "--no-popup": tmux = nil
        case "--accessible": accessible = true
        case "--no-accessible": accessible = false
        case "--no-scrollbar", "--no-separator", "--highlight-line", "--no-multi-line": break
        default: throw OptionError(message: "unknown option: \(name)")  // listed but not handled
        }
    }

    /// fzf's `--info` styles; `inline` and `inline-right` may carry a prefix after a colon.
    private static func infoStyle(_ text: String) -> InfoStyle? {
        switch text {
        case "default": return .default
        case "right": return .right
        case "hidden": return .hidden
        case "inline": return .inline(prefix: " < ")
        case "inline-right": return .inlineRight(prefix: "")
        default: break
        }
        for name in ["inline-right", "inline"] where text.hasPrefix(name + ":") {
            let prefix = TerminalText.sanitize(String(text.dropFirst(name.count + 1)))
            guard TerminalText.width(prefix) <= 20 else { return nil }
            return name == "inline" ? .inline(prefix: prefix) : .inlineRight(prefix: prefix)
        }
        return nil
    }
}

/// Splits a string into words as a POSIX shell would: quotes and backslashes, no expansion.
public enum ShellWords {
    /// With `comments`, a `#` where a word would start ends the text (as in a shell script).
    public static func split(_ text: String, comments: Bool = false) throws -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character? = nil
        var escaped = false
        for c in text {
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
                break
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
