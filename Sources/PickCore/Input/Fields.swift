// Fields of a line, with fzf's semantics (its src/tokenizer.go), for `--nth`, `--with-nth`,
// `--accept-nth` and the field placeholders of a command (`{2}`, `{-1}`, `{1..3}`).
//
// A line is cut into tokens, each keeping its trailing delimiter:
// - no `-d` (AWK style): a token is a run of non-blanks and the blanks after it; blanks are
//   space, tab and newline; blanks before the first token belong to no token;
// - `-d STR` of one character, or without a regular-expression metacharacter, or not a valid
//   regular expression: split after each occurrence of STR, as Go's strings.SplitAfter, so a
//   line ending in STR has an empty last token;
// - otherwise STR is a regular expression: each token ends where a match ends; the text after
//   the last match, if any, is a last token.
// `\t` in STR means a tab, as in fzf.
//
// Field index expressions (`FieldRanges`): `N` (1-based), `-N` (from the end), `N..M`, `N..`,
// `..M`, `..`, comma lists. An index past the fields gives nothing.
//
// Regular expressions are POSIX extended ones (the C library's, which also knows `\s`, `\S`,
// `\w`, `\W`, `\b`) with Go's `\d`, `\D`, `\t`, `\n`, `\r` translated, so the expressions people
// give fzf as delimiters (`[:,]`, `\s+`, `\t+`, ` *\| *`) read the same; Go's non-greedy and
// Perl-only forms do not. They match bytes as the locale reads them when pick starts.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a line is cut into fields: `-d/--delimiter`, or runs of blanks without it.
public struct FieldDelimiter: Sendable {
    enum Kind: Sendable {
        case blanks
        case literal([UInt8])
        case pattern(DelimiterPattern)
    }
    let kind: Kind

    /// fzf's default: runs of blanks (AWK style).
    public static let blanks = FieldDelimiter(kind: .blanks)

    init(kind: Kind) { self.kind = kind }

    /// `spec` as fzf reads `--delimiter`: a literal string, or a regular expression when it
    /// is one (see the top of Fields.swift); nil means runs of blanks.
    public init(_ spec: String?) throws(OptionError) {
        guard let spec else { self.kind = .blanks; return }
        var bytes = Array(spec.utf8)
        bytes = FieldDelimiter.replacingTabEscapes(bytes)
        guard !bytes.isEmpty else {
            throw OptionError(message: "invalid value for --delimiter: empty delimiter")
        }
        let metacharacters = Set("\\.+*?()|[]{}^$".utf8)
        if spec.unicodeScalars.count == 1 || !bytes.contains(where: { metacharacters.contains($0) }) {
            self.kind = .literal(bytes)
        } else if let literal = FieldDelimiter.goLiteral(bytes, metacharacters) {
            // Go's escapes of single bytes (`\x00`, `\x1f\x1e`, `\.`): the bytes themselves,
            // which a regular expression could not hold (a NUL) or would only slow down.
            self.kind = .literal(literal)
        } else if let pattern = DelimiterPattern(bytes) {
            self.kind = .pattern(pattern)
        } else {
            self.kind = .literal(bytes)
        }
    }

    /// Whether this is the default AWK style.
    public var isBlanks: Bool {
        if case .blanks = kind { return true }
        return false
    }

    /// The bytes `spec` stands for when it is a literal written with Go's escapes (`\xHH`,
    /// `\x{H…}`, octal `\NNN`, `\t \n \r \f \v \a`, a backslash before punctuation); nil
    /// when it needs a regular expression (an unescaped metacharacter, `\d`, `\s`…).
    static func goLiteral(_ spec: [UInt8], _ metacharacters: Set<UInt8>) -> [UInt8]? {
        func hex(_ b: UInt8) -> UInt32? { UInt32(String(UnicodeScalar(b)), radix: 16) }
        var out: [UInt8] = []
        var i = 0
        while i < spec.count {
            let c = spec[i]
            guard c == UInt8(ascii: "\\") else {
                if metacharacters.contains(c) { return nil }
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < spec.count else { return nil }
            let e = spec[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "v"): out.append(0x0B)
            case UInt8(ascii: "a"): out.append(0x07)
            case UInt8(ascii: "x") where i < spec.count && spec[i] == UInt8(ascii: "{"):
                guard let close = spec[i...].firstIndex(of: UInt8(ascii: "}")), close > i + 1,
                      let value = UInt32(String(decoding: spec[(i + 1)..<close], as: UTF8.self), radix: 16),
                      let scalar = Unicode.Scalar(value) else { return nil }
                out += Array(String(Character(scalar)).utf8)
                i = close + 1
            case UInt8(ascii: "x"):
                guard i + 1 < spec.count, let high = hex(spec[i]), let low = hex(spec[i + 1]) else { return nil }
                let value = high * 16 + low
                // Go reads \x80 and above as a code point, as UTF-8.
                if value < 0x80 { out.append(UInt8(value)) } else { out += Array(String(Character(Unicode.Scalar(value)!)).utf8) }
                i += 2
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                guard i + 1 < spec.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(spec[i]),
                      (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(spec[i + 1]) else { return nil }
                let value = UInt32(e - 0x30) * 64 + UInt32(spec[i] - 0x30) * 8 + UInt32(spec[i + 1] - 0x30)
                if value < 0x80 { out.append(UInt8(value)) } else { out += Array(String(Character(Unicode.Scalar(value)!)).utf8) }
                i += 2
            default:
                // A backslash before punctuation is the character; before a letter or a
                // digit it is a class or an assertion (\d, \b): a regular expression.
                let isAlnum = (0x30...0x39).contains(e) || (0x41...0x5A).contains(e) || (0x61...0x7A).contains(e)
                guard !isAlnum, e < 0x80 else { return nil }
                out.append(e)
            }
        }
        return out.isEmpty ? nil : out
    }

    private static func replacingTabEscapes(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "\\"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "t") {
                out.append(0x09)
                i += 2
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }
}

/// A compiled POSIX regular expression used as a delimiter. The C library's `regexec` may be
/// called from several threads on one compiled expression.
final class DelimiterPattern: @unchecked Sendable {
    private var regex = regex_t()

    /// nil when `source` (Go syntax) is not a valid expression.
    init?(_ source: [UInt8]) {
        let translated = DelimiterPattern.posixSyntax(source)
        let status = translated.withUnsafeBufferPointer { buffer -> Int32 in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                regcomp(&regex, $0, REG_EXTENDED)
            }
        }
        if status != 0 { return nil }
    }

    deinit { regfree(&regex) }

    /// The first match in `line` starting at or after `from`, as fzf's Go regexp finds it
    /// (the text before `from` is context for `^` and `\b`). `line` must be followed by a
    /// NUL byte: the C library is given its length, but sanitizers read up to a NUL.
    func firstMatch(in line: UnsafeBufferPointer<UInt8>, from: Int) -> Range<Int>? {
        guard from <= line.count, let base = line.baseAddress else { return nil }
        var match = regmatch_t()
        match.rm_so = regoff_t(from)
        match.rm_eo = regoff_t(line.count)
        let status = UnsafeRawPointer(base).withMemoryRebound(to: CChar.self, capacity: line.count + 1) {
            regexec(&regex, $0, 1, &match, REG_STARTEND)
        }
        guard status == 0, match.rm_so >= 0 else { return nil }
        return Int(match.rm_so)..<Int(match.rm_eo)
    }

    /// Go's regular-expression syntax, as far as delimiters use it, in POSIX extended syntax.
    static func posixSyntax(_ go: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var inBracket = false
        var i = 0
        func ascii(_ s: String) -> [UInt8] { Array(s.utf8) }
        while i < go.count {
            let c = go[i]
            if c == UInt8(ascii: "\\"), i + 1 < go.count {
                let e = go[i + 1]
                i += 2
                switch (inBracket, e) {
                case (_, UInt8(ascii: "t")): out.append(0x09)
                case (_, UInt8(ascii: "n")): out.append(0x0A)
                case (_, UInt8(ascii: "r")): out.append(0x0D)
                case (false, UInt8(ascii: "d")): out += ascii("[0-9]")
                case (false, UInt8(ascii: "D")): out += ascii("[^0-9]")
                case (true, UInt8(ascii: "d")): out += ascii("0-9")
                case (true, UInt8(ascii: "s")): out += ascii("[:space:]")
                case (true, UInt8(ascii: "w")): out += ascii("[:alnum:]_")
                case (true, _): out.append(e)    // inside brackets a backslash is literal in POSIX
                default: out += [c, e]
                }
                continue
            }
            if inBracket {
                if c == UInt8(ascii: "]") { inBracket = false }
                out.append(c)
                i += 1
                continue
            }
            if c == UInt8(ascii: "[") {
                inBracket = true
                out.append(c)
                i += 1
                // A `]` (after an optional `^`) first in a bracket is a member, not its end.
                if i < go.count, go[i] == UInt8(ascii: "^") { out.append(go[i]); i += 1 }
                if i < go.count, go[i] == UInt8(ascii: "]") { out.append(go[i]); i += 1 }
                continue
            }
            out.append(c)
            i += 1
        }
        out.append(0)
        return out
    }
}

/// One field index expression of fzf's: `N`, `-N`, `N..M`, `N..`, `..M` or `..`. Indexes
/// are 1-based, negative ones count from the end; nil is "the first" (begin) or "the last"
/// (end).
public struct FieldRange: Sendable, Equatable {
    public var begin: Int?
    public var end: Int?

    /// The tokens (0-based, `lowerBound..<upperBound`) it selects from `count` tokens; empty
    /// when it selects none.
    public func tokens(of count: Int) -> Range<Int> {
        func resolve(_ i: Int) -> Int { i < 0 ? i + count + 1 : i }
        let first = begin.map(resolve) ?? 1
        let last = end.map(resolve) ?? count
        let lower = max(first, 1), upper = min(last, count)
        return lower <= upper ? (lower - 1)..<upper : 0..<0
    }
}

/// A comma list of field index expressions: `--nth`, `--with-nth`, `--accept-nth`, and the
/// field placeholders of a command.
public struct FieldRanges: Sendable, Equatable {
    public var ranges: [FieldRange]

    /// Parses fzf's syntax (`1`, `-1`, `2..`, `..3`, `1,3..-1`); anything else is an error
    /// naming the text.
    public init(parsing text: String) throws(OptionError) {
        guard let ranges = FieldRanges.parse(text) else {
            throw OptionError(message: "invalid field index expression: \(OptionError.quote(text))")
        }
        self.ranges = ranges
    }

    public init(_ ranges: [FieldRange]) { self.ranges = ranges }

    /// The expression as fzf writes it back (`FZF_NTH`): `1`, `2..`, `..-2`, `1..3`, comma-separated.
    public var expression: String {
        ranges.map { r in
            switch (r.begin, r.end) {
            case let (b?, e?) where b == e: return "\(b)"
            case let (b?, e?): return "\(b)..\(e)"
            case let (b?, nil): return "\(b).."
            case let (nil, e?): return "..\(e)"
            case (nil, nil): return ".."
            }
        }.joined(separator: ",")
    }

    /// nil when `text` is not a valid expression (as fzf's splitNth decides).
    static func parse(_ text: String) -> [FieldRange]? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2C || $0 == 0x2D || $0 == 0x2E })
        else { return nil }
        var result: [FieldRange] = []
        for piece in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let range = parseOne(Substring(piece)) else { return nil }
            result.append(range)
        }
        return result
    }

    private static func parseOne(_ s: Substring) -> FieldRange? {
        func number(_ t: Substring) -> Int? {
            guard let n = Int(t), n != 0 else { return nil }
            return n
        }
        if s == ".." { return FieldRange(begin: nil, end: nil) }
        if s.hasPrefix("..") {
            guard let end = number(s.dropFirst(2)) else { return nil }
            return FieldRange(begin: nil, end: end)
        }
        if s.hasSuffix("..") {
            guard let begin = number(s.dropLast(2)) else { return nil }
            return FieldRange(begin: begin, end: nil)
        }
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count > 1 {
            // `N..M`: exactly one pair of dots between two numbers.
            guard parts.count == 3, parts[1].isEmpty, let begin = number(parts[0]), let end = number(parts[2]),
                  !(begin < 0 && end > 0)
            else { return nil }
            return FieldRange(begin: begin, end: end)
        }
        guard let n = number(s) else { return nil }
        return FieldRange(begin: n, end: n)
    }
}

/// `--with-nth`'s and `--accept-nth`'s value, as fzf reads it: field indexes (`2,1`), or a
/// template of text with `{INDEXES}` and `{n}` (the line's index in the input, from 0) in
/// it, each field placeholder giving its fields with their last delimiter dropped.
public struct FieldTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case text([UInt8])
        case fields(FieldRanges)
        case index
    }
    /// nil for plain field indexes (`ranges` then).
    let parts: [Part]?
    public let ranges: FieldRanges?
    /// The value as written (`FZF_WITH_NTH`); two templates that make the same text of
    /// every line are equal however they are written.
    public let expression: String

    public static func == (a: FieldTemplate, b: FieldTemplate) -> Bool { a.parts == b.parts && a.ranges == b.ranges }

    public init(_ ranges: FieldRanges) {
        self.init(parts: nil, ranges: ranges, expression: ranges.expression)
    }

    private init(parts: [Part]?, ranges: FieldRanges?, expression: String) {
        self.parts = parts
        self.ranges = ranges
        self.expression = expression
    }

    /// A piece of the text a template makes of a line: bytes of the line where they are,
    /// or text of the template's own (and `{n}`'s digits).
    public enum Piece: Equatable {
        case line(Range<Int>)
        case text([UInt8])
    }

    /// The text the template makes of `line` (cut into `tokens`), the `index`th line of the
    /// input, in pieces: what `--with-nth` shows, and where each shown byte comes from (for
    /// the `--ansi` colours). Plain indexes join the fields as they are; a placeholder of a
    /// template drops its fields' last delimiter, as fzf's. Empty pieces are left out.
    public func pieces(of line: UnsafeBufferPointer<UInt8>, tokens: [Range<Int>], index: Int,
                       _ d: FieldDelimiter) -> [Piece] {
        guard let parts else { return Fields.spans(ranges!, tokens: tokens).filter { !$0.isEmpty }.map { .line($0) } }
        var out: [Piece] = []
        for part in parts {
            switch part {
            case .text(let bytes): if !bytes.isEmpty { out.append(.text(bytes)) }
            case .index: out.append(.text(Array(String(index).utf8)))
            case .fields(let r):
                let spans = Fields.spans(r, tokens: tokens)
                var joined: [UInt8] = []
                for span in spans { joined += line[span] }
                // The spans cut to the bytes left once the last delimiter is dropped.
                var kept = Fields.strippingLastDelimiter(joined, d).count
                for span in spans where kept > 0 && !span.isEmpty {
                    let piece = span.lowerBound..<min(span.upperBound, span.lowerBound + kept)
                    out.append(.line(piece))
                    kept -= piece.count
                }
            }
        }
        return out
    }

    /// Parses fzf's syntax; nil when `text` is neither field indexes nor a template with
    /// at least one placeholder.
    public init?(parsing text: String) {
        let indexCharacters = Set("0123456789,-.")
        if !text.isEmpty && text.allSatisfy(indexCharacters.contains) {
            guard let ranges = FieldRanges.parse(text) else { return nil }
            self.init(parts: nil, ranges: FieldRanges(ranges), expression: text)
            return
        }
        var parts: [Part] = []
        var placeholders = 0
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            let inside = rest[rest.index(after: open)...]
            guard let close = inside.firstIndex(of: "}") else { break }
            let expression = inside[..<close]
            let isIndex = expression == "n"
            let isFields = !expression.isEmpty && expression.allSatisfy(indexCharacters.contains)
            guard isIndex || isFields else {
                // Not a placeholder: the brace is text.
                parts.append(.text(Array(rest[...open].utf8)))
                rest = inside
                continue
            }
            if open > rest.startIndex { parts.append(.text(Array(rest[..<open].utf8))) }
            placeholders += 1
            // An index expression fzf cannot read is dropped from the template, as fzf drops it.
            if isIndex {
                parts.append(.index)
            } else if let ranges = FieldRanges.parse(String(expression)) {
                parts.append(.fields(FieldRanges(ranges)))
            }
            rest = inside[inside.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(Array(rest.utf8))) }
        guard placeholders > 0 else { return nil }
        self.init(parts: parts, ranges: nil, expression: text)
    }

    /// What is printed for `line`, the `index`th line of the input.
    public func text(of line: UnsafeBufferPointer<UInt8>, index: Int, _ d: FieldDelimiter) -> [UInt8] {
        guard let parts else { return Fields.accepted(ranges!, of: line, d) }
        var out: [UInt8] = []
        for part in parts {
            switch part {
            case .text(let bytes): out += bytes
            case .index: out += Array(String(index).utf8)
            case .fields(let r): out += Fields.strippingLastDelimiter(Fields.joined(r, of: line, d), d)
            }
        }
        return Fields.strippingLastDelimiter(out, d)
    }
}

/// Cutting lines into fields and picking fields out of them.
public enum Fields {
    /// fzf's tokens: each field's byte range INCLUDING its trailing delimiter.
    public static func split(_ line: UnsafeBufferPointer<UInt8>, _ d: FieldDelimiter) -> [Range<Int>] {
        var tokens: [Range<Int>] = []
        split(line, d, into: &tokens)
        return tokens
    }

    /// `split` into `tokens` (emptied first), so that a loop over many lines reuses one array.
    public static func split(_ line: UnsafeBufferPointer<UInt8>, _ d: FieldDelimiter, into tokens: inout [Range<Int>]) {
        tokens.removeAll(keepingCapacity: true)
        switch d.kind {
        case .blanks:
            func blank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A }
            var i = 0
            while i < line.count && blank(line[i]) { i += 1 }
            while i < line.count {
                let start = i
                while i < line.count && !blank(line[i]) { i += 1 }
                while i < line.count && blank(line[i]) { i += 1 }
                tokens.append(start..<i)
            }
        case .literal(let delimiter) where delimiter.count == 1:
            // Fields are short: a plain loop beats a memchr call per field.
            let d = delimiter[0]
            var start = 0
            for i in 0..<line.count where line[i] == d {
                tokens.append(start..<(i + 1))
                start = i + 1
            }
            tokens.append(start..<line.count)
        case .literal(let delimiter):
            var start = 0, i = 0
            let first = delimiter[0], n = delimiter.count
            while i + n <= line.count {
                if line[i] == first && (n == 1 || (1..<n).allSatisfy { line[i + $0] == delimiter[$0] }) {
                    tokens.append(start..<(i + n))
                    i += n
                    start = i
                } else {
                    i += 1
                }
            }
            tokens.append(start..<line.count)
        case .pattern(let pattern):
            var start = 0
            for match in matches(of: pattern, in: line) {
                tokens.append(start..<match.upperBound)
                start = match.upperBound
            }
            if start < line.count { tokens.append(start..<line.count) }
        }
    }

    /// Every match of `pattern` in `line`, as Go's FindAllIndex gives them: an empty match
    /// right after the previous match is skipped.
    static func matches(of pattern: DelimiterPattern, in line: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var terminated = [UInt8](repeating: 0, count: line.count + 1)
        terminated.withUnsafeMutableBufferPointer { _ = $0.initialize(from: line) }
        return terminated.withUnsafeBufferPointer {
            matches(of: pattern, inTerminated: UnsafeBufferPointer(rebasing: $0.dropLast()))
        }
    }

    private static func matches(of pattern: DelimiterPattern, inTerminated line: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        var position = 0, previousEnd = -1
        while position <= line.count, let match = pattern.firstMatch(in: line, from: position) {
            if match.isEmpty {
                if match.lowerBound != previousEnd { result.append(match) }
                position = match.upperBound + max(1, utf8Width(line, at: match.upperBound))
            } else {
                result.append(match)
                position = match.upperBound
            }
            previousEnd = match.upperBound
        }
        return result
    }

    private static func utf8Width(_ line: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        guard i < line.count else { return 1 }
        let b = line[i]
        let width = b < 0xC0 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        return min(width, line.count - i)
    }

    /// The byte ranges of `line` each expression of `r` selects, in order: one range each
    /// (fields are adjacent), empty when it selects no field. The whole-line expression `..`
    /// gives the tokens joined (for AWK style, without the leading blanks).
    public static func spans(_ r: FieldRanges, tokens: [Range<Int>]) -> [Range<Int>] {
        r.ranges.map { range in
            let t = range.tokens(of: tokens.count)
            guard !t.isEmpty else { return 0..<0 }
            return tokens[t.lowerBound].lowerBound..<tokens[t.upperBound - 1].upperBound
        }
    }

    /// The byte ranges `--nth` searches: `spans`, each byte once. A range that overlaps those
    /// before it adds only what they did not cover (fzf's own fish and zsh ctrl-r pass
    /// `--nth 2..,..`: the command, then what is left of the line). Searched twice, a fuzzy
    /// term would match across the repeated text (`e3d` in `echo 2nd 1733…3 echo 2nd`); in
    /// line order instead, `^cmd` would no longer find the command at the start.
    public static func searchedSpans(_ r: FieldRanges, tokens: [Range<Int>]) -> [Range<Int>] {
        let given = spans(r, tokens: tokens).filter { !$0.isEmpty }
        var covered: [Range<Int>] = []
        var out: [Range<Int>] = []
        for span in given {
            var pieces = [span]
            for c in covered {
                pieces = pieces.flatMap { p -> [Range<Int>] in
                    guard p.overlaps(c) else { return [p] }
                    let before = p.lowerBound..<max(p.lowerBound, c.lowerBound)
                    let after = min(p.upperBound, c.upperBound)..<p.upperBound
                    return [before, after].filter { !$0.isEmpty }
                }
            }
            out += pieces
            covered.append(span)
        }
        return out
    }

    /// The selected fields joined, as fzf's Transform then JoinTokens give them.
    public static func joined(_ r: FieldRanges, of line: UnsafeBufferPointer<UInt8>, _ d: FieldDelimiter) -> [UInt8] {
        var out: [UInt8] = []
        for span in spans(r, tokens: split(line, d)) { out += line[span] }
        return out
    }

    /// The bytes fzf's placeholder {RANGES} gives for a line: the fields joined, the last
    /// delimiter dropped, then (unless `preservingSpace`, fzf's `{s…}`) white space trimmed
    /// at both ends.
    public static func select(_ r: FieldRanges, of line: [UInt8], _ d: FieldDelimiter,
                              preservingSpace: Bool = false) -> [UInt8] {
        var text = line.withUnsafeBufferPointer { joined(r, of: $0, d) }
        text = droppingLastDelimiter(text, d)
        return preservingSpace ? text : trimmingSpace(text)
    }

    /// What `--accept-nth` prints for a line: the fields joined, the last delimiter dropped
    /// (for AWK style, trailing white space), as fzf's acceptNth.
    public static func accepted(_ r: FieldRanges, of line: UnsafeBufferPointer<UInt8>, _ d: FieldDelimiter) -> [UInt8] {
        strippingLastDelimiter(joined(r, of: line, d), d)
    }

    /// `text` without its last delimiter (AWK style: its trailing white space), as fzf's
    /// StripLastDelimiter.
    static func strippingLastDelimiter(_ text: [UInt8], _ d: FieldDelimiter) -> [UInt8] {
        if d.isBlanks { return Array(text[..<endTrimmingSpace(text)]) }
        return droppingLastDelimiter(text, d)
    }

    /// `text` without a delimiter at its very end (literal or pattern; AWK style keeps it).
    public static func droppingLastDelimiter(_ text: [UInt8], _ d: FieldDelimiter) -> [UInt8] {
        switch d.kind {
        case .blanks:
            return text
        case .literal(let delimiter):
            return text.count >= delimiter.count && text.suffix(delimiter.count).elementsEqual(delimiter)
                ? Array(text.dropLast(delimiter.count)) : text
        case .pattern(let pattern):
            let last = text.withUnsafeBufferPointer { matches(of: pattern, in: $0).last }
            if let last, last.upperBound == text.count { return Array(text[..<last.lowerBound]) }
            return text
        }
    }

    /// Where `--freeze-left=left` and `--freeze-right=right` cut `line`, as fzf cuts it:
    /// the frozen start ends after the `left`th field (its trailing blanks not included),
    /// the frozen end begins with the delimiter before the last `right` fields (its leading
    /// blanks not included; AWK style, at the field). A `right` beyond the line's fields
    /// freezes all of it, or all after the frozen start. `rightStart` is nil when no frozen
    /// end shows; it is never before `leftEnd`.
    public static func frozenParts(_ line: UnsafeBufferPointer<UInt8>, _ d: FieldDelimiter, left: Int,
                                   right: Int) -> (leftEnd: Int, rightStart: Int?) {
        let tokens = split(line, d)
        func text(_ r: Range<Int>) -> [UInt8] { Array(UnsafeBufferPointer(rebasing: line[r])) }
        var leftEnd = 0
        if left > 0, !tokens.isEmpty {
            let token = tokens[min(left, tokens.count) - 1]
            leftEnd = token.lowerBound + endTrimmingSpace(text(token))
        }
        guard right > 0 else { return (leftEnd, nil) }
        let index = max(left - 1, tokens.count - right - 1)
        var rightStart = leftEnd
        if index < 0 {
            rightStart = 0
        } else if index >= left {
            let token = tokens[index]
            let bytes = text(token)
            var delimiter = Array(bytes[droppingLastDelimiter(bytes, d).count...])
            while let width = delimiter.isEmpty ? nil : spaceWidth(delimiter, at: 0) { delimiter.removeFirst(width) }
            rightStart = max(leftEnd, token.upperBound - delimiter.count)
        }
        return (leftEnd, rightStart < line.count ? rightStart : nil)
    }

    /// `text` without white space at either end, as Go's strings.TrimSpace (Unicode spaces
    /// included).
    public static func trimmingSpace(_ text: [UInt8]) -> [UInt8] {
        let end = endTrimmingSpace(text)
        var start = 0
        while start < end, let width = spaceWidth(text, at: start), start + width <= end { start += width }
        return Array(text[start..<end])
    }

    /// Where `text` ends once white space at its end is dropped.
    static func endTrimmingSpace(_ text: [UInt8]) -> Int {
        var end = text.count
        outer: while end > 0 {
            for width in 1...min(3, end) where spaceWidth(text, at: end - width) == width {
                end -= width
                continue outer
            }
            break
        }
        return end
    }

    /// The length of the white-space character (Unicode White_Space, as Go's unicode.IsSpace)
    /// at `i`, or nil.
    static func spaceWidth(_ t: [UInt8], at i: Int) -> Int? {
        let b = t[i]
        if b == 0x20 || (b >= 0x09 && b <= 0x0D) { return 1 }
        func at(_ k: Int) -> UInt8? { i + k < t.count ? t[i + k] : nil }
        if b == 0xC2, let c = at(1), c == 0x85 || c == 0xA0 { return 2 }
        if b == 0xE1, at(1) == 0x9A, at(2) == 0x80 { return 3 }                       // U+1680
        if b == 0xE2, let c = at(1), let d = at(2) {
            if c == 0x80 && ((d >= 0x80 && d <= 0x8A) || d == 0xA8 || d == 0xA9 || d == 0xAF) { return 3 }
            if c == 0x81 && d == 0x9F { return 3 }                                       // U+205F
        }
        if b == 0xE3, at(1) == 0x80, at(2) == 0x80 { return 3 }                         // U+3000
        return nil
    }
}
