// Command-line options, with fzf's spellings wherever the meaning is the same.
//
// Accepted forms: `--name=value`, `--name value`, `-q value`, `-qvalue`, bundled short
// flags (`-ei`), and `+i`/`+s`/`+m`/`+e` to turn a flag off as fzf does. `PICK_DEFAULT_OPTS`
// is read first, then the command line, so the command line wins.

/// Where the prompt sits.
public enum Layout: String, Sendable {
    /// Prompt on the first row, list below (pick's default, as a command palette).
    case top
    /// Prompt on the last row, list above (fzf's default).
    case bottom
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
    public var limit = 6
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
    public var prompt = "> "
    public var header: String? = nil
    public var headerLines = 0
    public var height: Height = .full
    public var layout: Layout = .top
    public var color: ColorSpec? = nil
    /// `--no-color`; `--color` may still say `bw` (nothing at all) or `always`.
    public var noColor = false
    public var ansi = false
    /// Clicks select, a double-click picks, the wheel scrolls (`--no-mouse`: off).
    public var mouse = true
    public var history: String? = nil
    public var cycle = false
    public var plain = false
    public var scope: String? = nil
    public var demo = false
    /// `--shell NAME`: print the key bindings for bash, zsh or fish.
    public var shell: String? = nil
    public var help = false
    public var version = false

    public init() {}
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
        "--print-query": .none, "--no-print-query": .none, "--expect": .required,
        "--prompt": .required, "--header": .required, "--header-lines": .required,
        "--height": .required, "--no-height": .none,
        "--layout": .required, "--reverse": .none, "--no-reverse": .none,
        "--mouse": .none, "--no-mouse": .none,
        "--color": .required, "--no-color": .none, "--ansi": .none, "--no-ansi": .none,
        "--history": .required, "--cycle": .none, "--no-cycle": .none, "--plain": .none,
        "--scope": .required, "--demo": .none, "--shell": .required, "--help": .none, "--version": .none,
    ]

    /// The short options (`-q VALUE`, bundled flags like `-ei`) and how they take a value.
    public static let shortOptions: [Character: OptionArgument] = [
        "q": .required, "f": .required, "m": .optional,
        "1": .none, "0": .none, "e": .none, "i": .none, "h": .none, "x": .none, "s": .none,
    ]

    /// Parses `PICK_DEFAULT_OPTS` (may be nil) and then `arguments` (without argv[0]).
    public static func parse(arguments: [String], defaults: String? = nil) throws -> Options {
        var options = Options()
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

    private mutating func apply(_ args: [String]) throws {
        var i = 0
        func value(_ name: String, inline: String?) throws -> String {
            if let inline { return inline }
            i += 1
            guard i < args.count else { throw OptionError(message: "option \(name) needs a value") }
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
                try long(name, inline: inline, value: value)
            } else if arg.hasPrefix("+"), arg.count > 1 {
                for c in arg.dropFirst() {
                    switch c {
                    case "i": matching.caseMode = .respect
                    case "s": ranking.sorts = false
                    case "m": multi = false
                    case "e": matching.fuzzy = true
                    case "1": selectOne = false
                    case "0": exitZero = false
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
                        // `-m5` is a limit; `-mi` is two bundled flags.
                        if let attached, attached.unicodeScalars.first!.properties.numericType != nil {
                            guard let n = Int(attached), n >= 0 else {
                                throw OptionError(message: "invalid value for -m: \(OptionError.quote(attached)) (expected a number)")
                            }
                            multiLimit = n
                            rest = Substring.UnicodeScalarView()
                        }
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

    private mutating func long(_ name: String, inline: String?,
                               value: (String, String?) throws -> String) throws {
        guard let argument = Self.longOptions[name] else {
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
            if let inline { multiLimit = try number(inline) }
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
        case "--prompt": prompt = try value(name, inline)
        case "--header": header = try value(name, inline)
        case "--header-lines": headerLines = try number(value(name, inline))
        case "--height":
            let text = try value(name, inline)
            if text.hasSuffix("%"), let p = Int(text.dropLast()), p >= 1, p <= 100 {
                height = p == 100 ? .full : .percent(p)
            } else if let n = Int(text), n >= 3, n <= 100_000 {
                height = .rows(n)
            } else {
                throw OptionError(message: "invalid value for --height: \(OptionError.quote(text)) (expected rows from 3, or a percentage like 40%)")
            }
        case "--no-height": height = .full
        case "--layout":
            let text = try value(name, inline)
            switch text {
            case "top", "reverse": layout = .top
            case "bottom", "default": layout = .bottom
            default: throw OptionError(message: "invalid value for --layout: \(OptionError.quote(text)) (expected top or bottom)")
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
        case "--plain": plain = true
        case "--scope":
            let text = try value(name, inline)
            guard !text.isEmpty else { throw OptionError(message: "invalid value for --scope: empty section name") }
            scope = text
        case "--demo": demo = true
        case "--shell":
            let text = try value(name, inline)
            guard ["bash", "zsh", "fish"].contains(text) else {
                throw OptionError(message: "invalid value for --shell: \(OptionError.quote(text)) (expected bash, zsh or fish)")
            }
            shell = text
        case "--help": help = true
        case "--version": version = true
        default: throw OptionError(message: "unknown option: \(name)")  // listed but not handled
        }
    }
}

/// Splits a string into words as a POSIX shell would: quotes and backslashes, no expansion.
public enum ShellWords {
    public static func split(_ text: String) throws -> [String] {
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
