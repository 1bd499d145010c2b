// Every option pick accepts, one row each (OptionRow.swift): fzf's with fzf's meaning, and
// pick's own. To add an option, add its row here, in the part its help line belongs to, and
// the field its value lands in (Options.swift); OptionValueTests then asks what its missing,
// empty, huge and malformed values do. `ignored` rows say why; docs/fzf-differences.md
// lists them.

public enum OptionTable {
    /// Every row, in `pick --help`'s order within each part.
    public static let rows: [OptionRow] =
        search + modes + memory + interface + parts + preview + output + fzfBehaviour + fzfLook

    /// The row of each long name.
    public static let byName: [String: OptionRow] = {
        var map: [String: OptionRow] = [:]
        for row in rows {
            precondition(map[row.name] == nil, "\(row.name) has two rows")
            map[row.name] = row
        }
        return map
    }()

    /// The row of each short name (`q` for `-q`, and `+i` kept as `+i`).
    public static let byShort: [String: OptionRow] = {
        var map: [String: OptionRow] = [:]
        for row in rows { if let short = row.short { map[short] = row } }
        return map
    }()

    private static let help = OptionHelp.init

    static let search: [OptionRow] = [
        OptionRow("--query", short: "-q", .required, help: help(.search, "--query=QUERY", "start with this query")) {
            $0.query = $1.string
        },
        .flag("--exact", short: "-e", help: help(.search, "--exact", "plain terms match exactly (a 'term is then fuzzy)")) {
            $0.matching.fuzzy = false
        },
        .flag("--no-exact", short: "+e") { $0.matching.fuzzy = true },
        .flag("--extended", short: "-x") { $0.matching.fuzzy = true; $0.matching.extended = true },
        .flag("--ignore-case", short: "-i",
              help: help(.search, "--ignore-case", "ignore case;  +i, --no-ignore-case  respect it (default: smart)")) {
            $0.matching.caseMode = .ignore
        },
        .flag("--no-ignore-case", short: "+i") { $0.matching.caseMode = .respect },
        .flag("--smart-case") { $0.matching.caseMode = .smart },
        .flag("--literal", help: help(.search, "--literal", "do not ignore diacritics")) { $0.matching.normalize = false },
        .flag("--no-literal") { $0.matching.normalize = true },
        OptionRow("--sort", short: "-s", .optional, nextWord: OptionRow.startsWithDigit) { options, value in
            if value.text != nil { _ = try value.number() }  // fzf's sort threshold: pick always sorts
            options.ranking.sorts = true
        },
        .flag("--no-sort", short: "+s", help: help(.search, "--no-sort", "keep input order instead of ranking")) {
            $0.ranking.sorts = false
        },
        .flag("--tac", help: help(.search, "--tac", "reverse input order")) { $0.ranking.reversesInput = true },
        .flag("--no-tac") { $0.ranking.reversesInput = false },
        OptionRow("--tiebreak", .required,
                  help: help(.search, "--tiebreak=CRI", "length, begin, end, chunk, pathname, index; up to three")) {
            $0.ranking.tiebreaks = try OptionParsing.tiebreaks($1.string)
        },
        OptionRow("--scheme", .required,
                  help: help(.search, "--scheme=SCHEME", "default, path, or history (ties go to input order)")) {
            guard let scheme = Scheme(rawValue: $1.string.lowercased()) else { throw $1.refused("expected default, path or history") }
            $0.scheme = scheme
            $0.ranking.tiebreaks = scheme.tiebreaks
        },
        OptionRow("--delimiter", short: "-d", .required,
                  help: help(.search, "--delimiter=STR", "how fields split: a string or regular expression, as fzf\n"
                             + "(Go's escapes: \\t, \\x1f; default: runs of blanks, each field\nkeeping its trailing ones)")) {
            $0.delimiter = try $1.nonEmpty("delimiter")
        },
        OptionRow("--nth", short: "-n", .required,
                  help: help(.search, "--nth=N[,..]", "search only these fields: 2, -1 (the last), 2.., ..3, 1,3")) {
            $0.nth = try Options.fieldRanges($1.string, $1.name)
        },
        OptionRow("--with-nth", .required,
                  help: help(.search, "--with-nth=N[,..]", "show only these fields (the whole line is still printed)\n(or a template: '{2} {1}', {n} the line's index)")) {
            $0.withNth = try Options.fieldTemplate($1.string, $1.name)
        },
        OptionRow("--accept-nth", .required,
                  help: help(.search, "--accept-nth=N[,..]", "print only these fields of the chosen line\n(or a template: '{1}: {3}', {n} the line's index)")) {
            $0.acceptNth = try Options.fieldTemplate($1.string, $1.name)
        },
        .flag("--palette", origin: .pick, help: help(.search, "--palette", "lines are TITLE<TAB>SECTION<TAB>KEYWORDS<TAB>SHORTCUT")) {
            $0.palette = true
        },
        .flag("--plain", origin: .pick,
              help: help(.search, "--plain", "tabs are text (the default): undoes --palette; --no-palette too")) {
            $0.palette = false
        },
        .flag("--no-palette", origin: .pick) { $0.palette = false },
        .flag("--read0", help: help(.search, "--read0", "lines end with NUL instead of newline")) { $0.read0 = true },
        .flag("--no-read0") { $0.read0 = false },
        OptionRow("--walker", .required,
                  help: help(.search, "--walker=OPTS", "nothing piped: list [file][,dir][,follow][,hidden] (file,follow,hidden)")) {
            let roots = $0.walker.roots, skip = $0.walker.skip
            $0.walker = try WalkerOptions.parse($1.string)
            ($0.walker.roots, $0.walker.skip) = (roots, skip)
        },
        // fzf's: the folders that follow are roots too.
        OptionRow("--walker-root", .required, followingWords: true,
                  help: help(.search, "--walker-root=DIR..", "the folders to list from (default .)")) {
            $0.walker.roots = [$1.string] + $1.following
        },
        OptionRow("--walker-skip", .required,
                  help: help(.search, "--walker-skip=DIRS", "folders not walked into (default .git,node_modules)")) {
            $0.walker.skip = $1.string.split(separator: ",").map(String.init)
        },
        .flag("--typos", origin: .pick, help: help(.search, "--typos", "--filter also prints close matches (one typo away), last")) {
            $0.typos = true
        },
        .flag("--no-typos", origin: .pick,
              help: help(.search, "--no-typos", "no close matches in the picker (default: fill a short list)")) {
            $0.typos = false
        },
    ]

    static let modes: [OptionRow] = [
        OptionRow("--filter", short: "-f", .required,
                  help: help(.modes, "--filter=QUERY", "print the lines matching QUERY in display order and exit")) {
            $0.filter = $1.string
        },
        OptionRow("--complete", .required, origin: .pick,
                  help: help(.modes, "--complete=TEXT", "print suggestions that complete TEXT and exit")) {
            $0.complete = $1.string
        },
        OptionRow("--limit", .required, origin: .pick, help: help(.modes, "--limit=N", "how many suggestions (default 6)")) {
            $0.limit = try $1.number(min: 1)
        },
        .flag("--demo", origin: .pick, help: help(.modes, "--demo", "use a built-in sample command palette as input")) {
            $0.demo = true
            $0.palette = true  // the demo is a palette; a later --plain still shows its raw lines
        },
        OptionRow("--shell", .required, origin: .pick,
                  help: help(.modes, "--shell=SHELL", "print key bindings for bash, zsh or fish (ctrl-t, ctrl-r, alt-c)\n"
                             + "and the completion of pick's options")) {
            guard OptionCompletion.shells.contains($1.string) else { throw $1.refused("expected bash, zsh or fish") }
            $0.shell = $1.string
        },
        OptionRow("--completion", .required, origin: .pick,
                  help: help(.modes, "--completion=SHELL", "print only the completion of pick's options")) {
            guard OptionCompletion.shells.contains($1.string) else { throw $1.refused("expected bash, zsh or fish") }
            $0.completion = $1.string
        },
    ]

    static let memory: [OptionRow] = [
        OptionRow("--remember", .required, origin: .pick,
                  help: help(.memory, "--remember=NAME", "learn from picks under NAME: a line picked before moves up\n"
                             + "among comparably good matches, most for the query typed then\n"
                             + "(shift-Delete forgets the selected line; --no-remember or\nPICK_NO_REMEMBER=1: off)")) {
            guard Options.isMemoryName($1.string) else {
                throw $1.refused("expected a name of letters, digits, '.', '_' or '-', up to 64")
            }
            $0.remember = $1.string
        },
        .flag("--no-remember", origin: .pick) { $0.remember = nil },
        memoryCommand(.record, "record stdin's lines as picked after --query, and exit"),
        memoryCommand(.forget, "forget stdin's lines, and exit"),
        memoryCommand(.list, "print what NAME remembers, with weights, and exit"),
    ]

    private static func memoryCommand(_ command: MemoryCommand, _ text: String) -> OptionRow {
        OptionRow("--\(command.rawValue)", .none, origin: .pick, help: help(.memory, "--\(command.rawValue)", text)) { options, value in
            if let other = options.memoryCommand, other != command {
                throw OptionError(message: "--\(other.rawValue) and \(value.name) cannot be combined")
            }
            options.memoryCommand = command
        }
    }

    static let output: [OptionRow] = [
        .flag("--print-query", help: help(.output, "--print-query", "print the query before the result")) { $0.printQuery = true },
        .flag("--no-print-query") { $0.printQuery = false },
        OptionRow("--expect", .required,
                  help: help(.output, "--expect=KEYS", "keys that also accept; the key is printed first, as written")) {
            $0.expect = try OptionParsing.expect($1)
        },
        .flag("--no-expect") { $0.expect = [] },
        .flag("--print0", help: help(.output, "--print0", "end output lines with NUL")) { $0.print0 = true },
        .flag("--no-print0") { $0.print0 = false },
        .flag("--help", short: "-h", help: help(.closing, "--help", "this summary;  --version  the version")) { $0.help = true },
        .flag("--version") { $0.version = true },
    ]
}

extension OptionTable {
    /// Lines of `pick --help` that are not options: modes that must come first.
    static let helpOnly: [OptionHelp] = [
        OptionHelp(.modes, "--preview-builtin PATH", "\nprint a preview of PATH (a file's first lines, a directory's\n"
                   + "entries) and exit; the built-in preview runs this"),
    ]

    /// The option sections of `pick --help`, from the rows' help lines.
    public static func helpSections() -> String {
        let entries = rows.compactMap { row in row.help.map { (short: row.short, help: $0) } }
            + helpOnly.map { (short: nil, help: $0) }
        var out = ""
        for section in HelpSection.allCases {
            let lines = entries.filter { $0.help.section == section }
            guard !lines.isEmpty else { continue }
            out += section == .closing ? "\n" : "\n\(section.rawValue)\n"
            for (short, help) in lines { out += helpLine(short: short, help) }
        }
        return out
    }

    /// `  -q, --query=QUERY       start with this query`, its explanation in column 27.
    private static func helpLine(short: String?, _ help: OptionHelp) -> String {
        let indent = String(repeating: " ", count: 26)
        var left = "  " + (short.map { "\($0), " } ?? "    ") + help.usage
        var text = help.text
        if text.hasPrefix("\n") {
            text.removeFirst()
            left += "\n" + indent
        } else if left.count < 26 {
            left += String(repeating: " ", count: 26 - left.count)
        } else {
            left += "  "
        }
        return left + text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n" + indent) + "\n"
    }
}
