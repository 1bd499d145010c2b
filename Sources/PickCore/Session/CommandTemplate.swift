// A command with fzf's placeholders (`--preview`, `execute`, …), expanded for `$SHELL -c`.
//
// Placeholders, as fzf spells them:
//   {}        the focused line                {n}      its 0-based index in the input
//   {q}       the query                       {q:N}    fields of the query (split at blanks)
//   {+}       the marked lines, or the focused one when none is marked; {+n} their indexes
//   {N} {-N} {N..M} {N..} {..M} {1,3}         fields of the focused line ({+N}: of each marked)
//   {s…}      as {…} with fields' white space kept   \{…}     the text `{…}` itself
// `{+}` gives each line quoted, separated by spaces. A brace not spelled as one of these
// (`{x}`, `${HOME}`, `{*}`, fzf's `{f}` temporary file) stays as written.
//
// Quoting: every byte that comes from a line or the query is inside single quotes, with
// `'` written `'\''` (for fish, `\'`, and `\\` for a backslash, as fzf quotes for it), so
// no byte of it ever runs as shell code: quotes, `$( )`, backticks, `;`, newlines, leading
// dashes and invalid UTF-8 all arrive as they were. fzf's
// `{r}` (raw, unquoted) is quoted too. A NUL byte cannot travel in an argument (the kernel
// ends every argument at one), so a line or the query is cut at its first NUL, as C would
// read it, before a value is taken from it. With no
// focused line (an empty list), a line or field placeholder gives `''`, an empty argument.

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
    public var query: [UInt8]
    public var delimiter: FieldDelimiter
    /// How values are quoted: for the shell the command runs in.
    public var quoting: ShellQuoting = .posix

    public init(current: [UInt8]? = nil, currentIndex: Int? = nil, marked: [[UInt8]] = [],
                markedIndices: [Int] = [], query: [UInt8] = [], delimiter: FieldDelimiter = .blanks) {
        self.current = current
        self.currentIndex = currentIndex
        self.marked = marked
        self.markedIndices = markedIndices
        self.query = query
        self.delimiter = delimiter
    }
}

extension TemplateContext {
    /// The context for the picker's state, the one way every command (preview, execute,
    /// become, reload, transform) gets it: `current` and `marked` are indexes into `lines`,
    /// the lines as read (never the `--with-nth` text the engine searches). `{n}` is the
    /// line's index in the input, header lines counted, as fzf's is (fzf 0.74: with
    /// `--header-lines 1`, the first line below the header is `{n}` = 1).
    public init(lines: LineStore, current: Int32?, marked: [Int32], query: String,
                delimiter: FieldDelimiter, quoting: ShellQuoting = .posix) {
        self.init(current: current.map { Array(lines.bytes(of: Int($0))) },
                  currentIndex: current.map { Int($0) },
                  marked: marked.map { Array(lines.bytes(of: Int($0))) },
                  markedIndices: marked.map { Int($0) },
                  query: Array(query.utf8), delimiter: delimiter)
        self.quoting = quoting
    }
}

/// A command template, its placeholders parsed once.
public struct CommandTemplate: Sendable {
    enum Subject: Sendable, Equatable {
        case line, index, fields(FieldRanges), query, queryFields(FieldRanges)
    }
    struct Placeholder: Sendable, Equatable {
        var subject: Subject
        var plus = false
        var preservesSpace = false
    }
    enum Piece: Sendable, Equatable {
        case text([UInt8])
        case placeholder(Placeholder)
    }

    let pieces: [Piece]
    /// The template as written.
    public let text: String

    /// `{q}` present: the command's output changes with the query.
    public var usesQuery: Bool {
        pieces.contains {
            if case .placeholder(let p) = $0, case .query = p.subject { return true }
            if case .placeholder(let p) = $0, case .queryFields = p.subject { return true }
            return false
        }
    }

    /// `{+…}` present: the command's output changes with the marks.
    public var usesMarked: Bool {
        pieces.contains { if case .placeholder(let p) = $0 { return p.plus } else { return false } }
    }

    /// Whether the template has any placeholder at all.
    public var hasPlaceholders: Bool {
        pieces.contains { if case .placeholder = $0 { return true } else { return false } }
    }

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
               let placeholder = CommandTemplate.placeholder(bytes[(open + 1)..<close]) {
                if escaped {
                    literal += bytes[open...close]   // `\{}` is the text `{}`
                } else {
                    if !literal.isEmpty { pieces.append(.text(literal)); literal = [] }
                    pieces.append(.placeholder(placeholder))
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

    /// The placeholder between braces, or nil when `inner` is not one pick knows.
    static func placeholder(_ inner: ArraySlice<UInt8>) -> Placeholder? {
        let text = String(decoding: inner, as: UTF8.self)
        if text == "q" || text == "fzf:query" { return Placeholder(subject: .query) }
        if text.hasPrefix("q:") {
            var rest = text.dropFirst(2)
            let keeps = rest.hasPrefix("s")
            if keeps { rest = rest.dropFirst() }
            guard let ranges = FieldRanges.parse(String(rest)) else { return nil }
            return Placeholder(subject: .queryFields(FieldRanges(ranges)), preservesSpace: keeps)
        }
        var p = Placeholder(subject: .line)
        var body = Substring(text)
        // fzf's flags before the body: + (marked), s (keep spaces), r (raw: quoted anyway).
        while let c = body.first, c == "+" || c == "s" || c == "r" {
            if c == "+" { p.plus = true }
            if c == "s" { p.preservesSpace = true }
            body = body.dropFirst()
        }
        if body.isEmpty { return p }
        if body == "n" { p.subject = .index; return p }
        guard let ranges = FieldRanges.parse(String(body)) else { return nil }
        p.subject = .fields(FieldRanges(ranges))
        return p
    }

    /// The command line for `$SHELL -c`, every placeholder shell-quoted: raw bytes, since a
    /// line need not be UTF-8.
    public func expand(_ c: TemplateContext) -> [UInt8] {
        var out: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .text(let bytes):
                out += bytes
            case .placeholder(let p):
                out += value(p, c)
            }
        }
        return out
    }

    private func value(_ p: Placeholder, _ c: TemplateContext) -> [UInt8] {
        switch p.subject {
        case .query:
            return CommandTemplate.quote(c.query, c.quoting)
        case .queryFields(let ranges):
            return CommandTemplate.quote(Fields.select(ranges, of: CommandTemplate.cutAtNul(c.query), .blanks,
                                                               preservingSpace: p.preservesSpace), c.quoting)
        case .index:
            let indexes: [Int]
            if p.plus && !c.markedIndices.isEmpty { indexes = c.markedIndices }
            else if let i = c.currentIndex { indexes = [i] }
            else { return CommandTemplate.quote([], c.quoting) }
            return Array(indexes.map(String.init).joined(separator: " ").utf8)
        case .line, .fields:
            let lines: [[UInt8]]
            if p.plus && !c.marked.isEmpty { lines = c.marked }
            else if let current = c.current { lines = [current] }
            else { return CommandTemplate.quote([], c.quoting) }
            var out: [UInt8] = []
            for (k, line) in lines.enumerated() {
                if k > 0 { out.append(0x20) }
                if case .fields(let ranges) = p.subject {
                    out += CommandTemplate.quote(Fields.select(ranges, of: CommandTemplate.cutAtNul(line), c.delimiter,
                                                               preservingSpace: p.preservesSpace), c.quoting)
                } else {
                    out += CommandTemplate.quote(line, c.quoting)
                }
            }
            return out
        }
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
