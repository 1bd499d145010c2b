// A command with fzf's placeholders (`--preview`, `execute`, …), expanded for the shell.
//
// Placeholders, as fzf spells them (its pattern: `{[+*sfr]*[0-9,-.]*}`, `{q}`,
// `{q:[s]RANGES}`, `{fzf:query|action|prompt}`, `{[+*]?f?nf?}`):
//   {}        the focused line                {n}      its 0-based index in the input
//   {q}       the query (also {fzf:query})    {q:N}    fields of the query (split at blanks)
//   {N} {-N} {N..M} {N..} {..M} {1,3}         fields of the line, trimmed of blanks
//   {fzf:action}  the name of the last action that ran no command (raw, as fzf's)
//   {fzf:prompt}  the prompt
// Flags before the body, in any order and combination:
//   +  the marked lines, or the focused one when none is marked
//   *  every matching line, in the list's order
//   s  fields keep their white space          n  the indexes instead of the lines
//   r  raw in fzf (unquoted); pick quotes it all the same: no byte of a line or the
//      query ever runs as shell code (docs/fzf-differences.md)
//   f  the values, one a line (NUL with --print0), in a temporary file whose path
//      replaces the placeholder; pick removes its temporary files when it exits
// Several values are joined by spaces, each quoted. `\{…}` is the text `{…}` itself; a
// brace that matches none of the patterns stays as written (`{x}`, `${HOME}`, `{sn}`), and
// one whose fields do not parse stays as written without its flags, as in fzf.
//
// Quoting: every byte that comes from a line or the query is inside single quotes, with
// `'` written `'\''` (for fish, `\'`, and `\\` for a backslash, as fzf quotes for it), so
// no byte of it ever runs as shell code: quotes, `$( )`, backticks, `;`, newlines, leading
// dashes and invalid UTF-8 all arrive as they were; `r` too. A NUL byte cannot travel in an argument (the kernel ends every
// argument at one), so a line or the query is cut at its first NUL, as C would read it,
// before a value is taken from it. With no focused line (an empty list), a line or field
// placeholder gives `''`, an empty argument; `{*}` of no match gives nothing.

/// How a shell reads single quotes.
public enum ShellQuoting: Sendable {
    /// sh, bash, zsh, dash, ksh…: nothing escapes inside single quotes.
    case posix
    /// fish: `\'` and `\\` are escapes inside single quotes.
    case fish

    /// The quoting of the shell `path` (a command name or path) names.
    public init(shell path: String) {
        self = path.split(separator: "/").last == "fish" ? .fish : .posix
    }
}

/// What a command's placeholders are filled from.
public struct TemplateContext: Sendable {
    /// The focused line as printed; nil when there is none (an empty list).
    public var current: [UInt8]?
    /// `{n}`: the focused line's 0-based input index.
    public var currentIndex: Int?
    /// `{+}`: the marked lines (when none is marked, the focused line stands in).
    public var marked: [[UInt8]]
    public var markedIndices: [Int]
    /// `{*}`: every matching line, in the list's order (filled only for a template that
    /// uses it: `CommandTemplate.usesMatches`).
    public var matched: [[UInt8]]
    public var matchedIndices: [Int]
    public var query: [UInt8]
    public var delimiter: FieldDelimiter
    /// `{fzf:action}`: the last action that ran no command (`start` before any).
    public var action: String
    /// `{fzf:prompt}`.
    public var prompt: [UInt8]
    /// What ends each value in an `f` placeholder's file (`--print0`: NUL).
    public var separator: UInt8
    /// How values are quoted: for the shell the command runs in.
    public var quoting: ShellQuoting = .posix

    public init(current: [UInt8]? = nil, currentIndex: Int? = nil, marked: [[UInt8]] = [],
                markedIndices: [Int] = [], matched: [[UInt8]] = [], matchedIndices: [Int] = [],
                query: [UInt8] = [], delimiter: FieldDelimiter = .blanks,
                action: String = "start", prompt: [UInt8] = [], separator: UInt8 = 0x0A) {
        self.current = current
        self.currentIndex = currentIndex
        self.marked = marked
        self.markedIndices = markedIndices
        self.matched = matched
        self.matchedIndices = matchedIndices
        self.query = query
        self.delimiter = delimiter
        self.action = action
        self.prompt = prompt
        self.separator = separator
    }
}

extension TemplateContext {
    /// The context for the picker's state, the one way every command (preview, execute,
    /// become, reload, transform) gets it: `current`, `marked` and `matched` are indexes
    /// into `lines`, the lines as read (never the `--with-nth` text the engine searches).
    /// `{n}` is the line's index in the input, header lines counted, as fzf's is (fzf 0.74:
    /// with `--header-lines 1`, the first line below the header is `{n}` = 1).
    public init(lines: LineStore, current: Int32?, marked: [Int32], matched: [Int32] = [], query: String,
                delimiter: FieldDelimiter, action: String = "start", prompt: String = "",
                separator: UInt8 = 0x0A, quoting: ShellQuoting = .posix) {
        self.init(current: current.map { Array(lines.bytes(of: Int($0))) },
                  currentIndex: current.map { Int($0) },
                  marked: marked.map { Array(lines.bytes(of: Int($0))) },
                  markedIndices: marked.map { Int($0) },
                  matched: matched.map { Array(lines.bytes(of: Int($0))) },
                  matchedIndices: matched.map { Int($0) },
                  query: Array(query.utf8), delimiter: delimiter, action: action,
                  prompt: Array(prompt.utf8), separator: separator)
        self.quoting = quoting
    }
}

/// A command template, its placeholders parsed once.
public struct CommandTemplate: Sendable, Equatable {
    enum Subject: Sendable, Equatable {
        case line, fields(FieldRanges), query, queryFields(FieldRanges), action, prompt
    }
    struct Placeholder: Sendable, Equatable {
        var subject: Subject
        /// `+`: the marked lines. `*`: every match.
        var plus = false
        var all = false
        var preservesSpace = false
        /// `r`: unquoted. `f`: the values in a temporary file. `n`: indexes.
        var raw = false
        var file = false
        var number = false
    }
    enum Piece: Sendable, Equatable {
        case text([UInt8])
        case placeholder(Placeholder)
    }

    let pieces: [Piece]

    /// Whether there is no command at all (a preview pane only preview(…) fills).
    public var isEmpty: Bool { pieces.allSatisfy { if case .text(let t) = $0 { return t.allSatisfy { $0 == 0x20 } } else { return false } } }
    /// The template as written.
    public let text: String

    private func any(_ test: (Placeholder) -> Bool) -> Bool {
        pieces.contains { if case .placeholder(let p) = $0 { return test(p) } else { return false } }
    }

    /// `{q}` present: the command's output changes with the query.
    public var usesQuery: Bool {
        any {
            switch $0.subject {
            case .query, .queryFields: return true
            default: return false
            }
        }
    }

    /// `{+…}` present: the command's output changes with the marks.
    public var usesMarked: Bool { any { $0.plus } }

    /// `{*…}` present: the context must hold every matching line.
    public var usesMatches: Bool { any { $0.all } }

    /// Whether execute, become or reload runs with no line focused (an empty list, no
    /// match), as fzf decides: when the template needs no line (no placeholder, or the
    /// query's, the prompt's, the action's, every match's), or takes the marked lines and
    /// some are (`marked`). Otherwise the action does nothing.
    public func runsWithoutFocus(marked: Bool) -> Bool {
        !hasPlaceholders || any {
            switch $0.subject {
            case .query, .queryFields, .action, .prompt: return true
            case .line, .fields: return $0.all || ($0.plus && marked)
            }
        }
    }

    /// Whether the template has any placeholder at all.
    public var hasPlaceholders: Bool { any { _ in true } }

    /// Parses `text`; unknown braces stay literal; a NUL ends it.
    public init(_ text: String) {
        self.text = text
        // A command line cannot hold a NUL: the template ends at one, as C reads it.
        let bytes = CommandTemplate.cutAtNul(Array(text.utf8))
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var i = 0
        while i < bytes.count {
            let escaped = bytes[i] == UInt8(ascii: "\\") && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "{")
            let open = escaped ? i + 1 : i
            if bytes[open] == UInt8(ascii: "{"),
               let close = bytes[(open + 1)...].firstIndex(of: UInt8(ascii: "}")),
               let parsed = CommandTemplate.placeholder(bytes[(open + 1)..<close]) {
                if escaped {
                    literal += bytes[open...close]   // `\{}` is the text `{}`
                } else if case .success(let placeholder) = parsed {
                    if !literal.isEmpty { pieces.append(.text(literal)); literal = [] }
                    pieces.append(.placeholder(placeholder))
                } else if case .failure(let written) = parsed {
                    literal += written.bytes
                }
                i = close + 1
                continue
            }
            literal.append(bytes[i])
            i += 1
        }
        if !literal.isEmpty { pieces.append(.text(literal)) }
        self.pieces = pieces
    }

    private init(_ text: String, pieces: [Piece]) {
        self.text = text
        self.pieces = pieces
    }

    /// The template with every line placeholder taking the marked lines, as `{+…}` does
    /// (fzf's execute-multi, which it keeps for old recipes).
    public var forcingMarked: CommandTemplate {
        CommandTemplate(text, pieces: pieces.map { piece in
            guard case .placeholder(var p) = piece, !p.all else { return piece }
            switch p.subject {
            case .line, .fields: p.plus = true
            default: break
            }
            return .placeholder(p)
        })
    }

    /// A brace fzf's pattern matches whose fields do not parse: fzf leaves it as the text
    /// with its flags taken out (`{+1..x}` cannot occur, but `{+1-}` becomes `{1-}`).
    struct Unparsed: Error, Equatable { var bytes: [UInt8] }

    /// The placeholder between braces; nil when `inner` is not one fzf's pattern matches.
    static func placeholder(_ inner: ArraySlice<UInt8>) -> Result<Placeholder, Unparsed>? {
        let text = String(decoding: inner, as: UTF8.self)
        switch text {
        case "q", "fzf:query": return .success(Placeholder(subject: .query))
        case "fzf:action": return .success(Placeholder(subject: .action))
        case "fzf:prompt": return .success(Placeholder(subject: .prompt))
        default: break
        }
        let rangeBytes = Set("0123456789,-.".utf8)
        if text.hasPrefix("q:") {
            var rest = inner.dropFirst(2)
            let keeps = rest.first == UInt8(ascii: "s")
            if keeps { rest = rest.dropFirst() }
            guard !rest.isEmpty, rest.allSatisfy(rangeBytes.contains) else { return nil }
            guard let ranges = FieldRanges.parse(String(decoding: rest, as: UTF8.self)) else {
                return .failure(Unparsed(bytes: Array("{q:".utf8) + rest + [UInt8(ascii: "}")]))
            }
            return .success(Placeholder(subject: .queryFields(FieldRanges(ranges)), preservesSpace: keeps))
        }
        var p = Placeholder(subject: .line)
        // `{[+*]?f?nf?}`: indexes.
        var flags = inner[...]
        if let c = flags.first, c == UInt8(ascii: "+") || c == UInt8(ascii: "*") { flags = flags.dropFirst() }
        if flags.first == UInt8(ascii: "f") { flags = flags.dropFirst() }
        if flags.first == UInt8(ascii: "n") {
            flags = flags.dropFirst()
            if flags.first == UInt8(ascii: "f") { flags = flags.dropFirst() }
            if flags.isEmpty {
                p.number = true
                for c in inner {
                    if c == UInt8(ascii: "+") { p.plus = true }
                    if c == UInt8(ascii: "*") { p.all = true }
                    if c == UInt8(ascii: "f") { p.file = true }
                }
                return .success(p)
            }
        }
        // `{[+*sfr]*[0-9,-.]*}`: the line or its fields.
        var body = inner[...]
        while let c = body.first, "+*sfr".utf8.contains(c) {
            switch c {
            case UInt8(ascii: "+"): p.plus = true
            case UInt8(ascii: "*"): p.all = true
            case UInt8(ascii: "s"): p.preservesSpace = true
            case UInt8(ascii: "f"): p.file = true
            default: p.raw = true
            }
            body = body.dropFirst()
        }
        guard body.allSatisfy(rangeBytes.contains) else { return nil }
        if body.isEmpty { return .success(p) }
        guard let ranges = FieldRanges.parse(String(decoding: body, as: UTF8.self)) else {
            return .failure(Unparsed(bytes: [UInt8(ascii: "{")] + body + [UInt8(ascii: "}")]))
        }
        p.subject = .fields(FieldRanges(ranges))
        return .success(p)
    }

    /// The command line for the shell, every placeholder shell-quoted: raw
    /// bytes, since a line need not be UTF-8. An `f` placeholder's values go to
    /// `writeFile`, which stores them and answers the file's path (nil: no placeholder
    /// with `f` can be filled, and it gives `''`).
    public func expand(_ c: TemplateContext, writeFile: (([UInt8]) -> [UInt8])? = nil) -> [UInt8] {
        var out: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .text(let bytes):
                out += bytes
            case .placeholder(let p):
                out += value(p, c, writeFile)
            }
        }
        return out
    }

    private func value(_ p: Placeholder, _ c: TemplateContext, _ writeFile: (([UInt8]) -> [UInt8])?) -> [UInt8] {
        let quote = { CommandTemplate.quote($0, c.quoting) }, cut = CommandTemplate.cutAtNul
        switch p.subject {
        case .query:
            return quote(c.query)
        case .queryFields(let ranges):
            return quote(Fields.select(ranges, of: cut(c.query), .blanks, preservingSpace: p.preservesSpace))
        case .action:
            return Array(c.action.utf8)
        case .prompt:
            return quote(c.prompt)
        case .line, .fields:
            break
        }
        // Which lines: every match (*), the marked ones or the focused one (+), the focused one.
        var values: [[UInt8]]
        if p.number {
            let indexes: [Int]
            if p.all { indexes = c.matchedIndices }
            else if p.plus && !c.markedIndices.isEmpty { indexes = c.markedIndices }
            else if let i = c.currentIndex { indexes = [i] }
            else { indexes = [] }
            values = indexes.map { Array(String($0).utf8) }
            if values.isEmpty && !p.all { values = [quote([])] }
        } else {
            let lines: [[UInt8]]
            if p.all { lines = c.matched }
            else if p.plus && !c.marked.isEmpty { lines = c.marked }
            else { lines = [c.current ?? []] }
            values = lines.map { line in
                let value: [UInt8]
                if case .fields(let ranges) = p.subject {
                    value = Fields.select(ranges, of: cut(line), c.delimiter, preservingSpace: p.preservesSpace)
                } else {
                    value = cut(line)
                }
                return p.file ? value : quote(value)
            }
        }
        if p.file {
            guard let writeFile else { return quote([]) }
            // As fzf writes it: the values joined by the separator, and one more after them
            // (so a file of no values holds one empty line).
            var contents = Array(values.joined(separator: [c.separator]))
            contents.append(c.separator)
            return writeFile(contents)
        }
        return Array(values.joined(separator: [0x20]))
    }

    /// `bytes` up to its first NUL (an argument cannot hold one).
    public static func cutAtNul(_ bytes: [UInt8]) -> [UInt8] {
        guard let nul = bytes.firstIndex(of: 0) else { return bytes }
        return Array(bytes[..<nul])
    }

    /// `bytes` as one shell word, cut at the first NUL: in single quotes, each `'` written
    /// `'\''` (POSIX shells), or `\'` and each backslash `\\` (fish, where a backslash
    /// escapes inside single quotes: fzf quotes for it so).
    public static func quote(_ bytes: [UInt8], _ quoting: ShellQuoting = .posix) -> [UInt8] {
        var out: [UInt8] = [0x27]
        out.reserveCapacity(bytes.count + 2)
        for b in bytes {
            if b == 0 { break }
            switch (b, quoting) {
            case (0x27, .posix): out += [0x27, 0x5C, 0x27, 0x27]
            case (0x27, .fish): out += [0x5C, 0x27]
            case (0x5C, .fish): out += [0x5C, 0x5C]
            default: out.append(b)
            }
        }
        out.append(0x27)
        return out
    }
}
