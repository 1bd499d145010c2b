// The query grammar, fzf's extended search syntax:
//
//   query   := term (' '+ term)*        terms are ANDed; ' | ' between terms ORs them
//   term    := '!'? ( "'" text | '^' text | text '$' | '^' text '$' | text )
//   fuzzy   text     letters in order, gaps allowed (exact with -e)
//   exact   'text    substring (fuzzy with -e)        negated: !text is exact, !'text fuzzy
//   word    'text'   substring at word boundaries (fzf 0.56+; more than two bytes in all)
//   prefix  ^text    starts with, leading spaces of the line ignored
//   suffix  text$    ends with, trailing spaces ignored;  ^text$ equals
//   escape  '\ '     a literal space inside a term
// Smart case per term: a term with an upper-case letter is case-sensitive. A term that
// carries diacritics matches them as typed; other terms ignore diacritics (unless --literal).

/// How a query's letter case is compared.
public enum CaseMode: Sendable {
    case smart, ignore, respect
}

/// The kind of comparison one term makes.
public enum TermKind: Sendable, Equatable {
    case fuzzy, exact, prefix, suffix, equal
}

/// One term of a query, with the text it looks for already folded as needed.
public struct Term: Sendable, Equatable {
    public var kind: TermKind
    public var inverse: Bool
    public var caseSensitive: Bool
    /// Whether the line's diacritics are stripped for this term.
    public var stripsDiacritics: Bool
    /// UTF-8 bytes to look for (lower-cased unless case-sensitive, diacritics stripped if so).
    public var text: [UInt8]
    /// An exact term written `'word'`: it matches only where the text has no letter or
    /// digit right before and right after it (fzf's exact-boundary match).
    public var boundary: Bool = false
}

/// A parsed query: every group must match; a group matches when any of its terms does.
public struct Query: Sendable, Equatable {
    public var groups: [[Term]]
    /// `--scheme`: how `'word'` terms score what stands around the word.
    public var scheme: Scheme = .default

    /// Whether the query matches every line (no terms).
    public var isEmpty: Bool { groups.isEmpty }

    /// Whether every term is a negation (`!foo !bar`): every line it keeps scores alike, so,
    /// as in fzf, the list keeps input order.
    public var hasOnlyNegations: Bool { !groups.isEmpty && groups.allSatisfy { $0.allSatisfy(\.inverse) } }

    /// Parses `text` as fzf's extended syntax.
    ///
    /// Works on Unicode scalars, never on Swift's grapheme clusters: in `^\u{301}` or `!'ा`
    /// the operator and the combining mark after it form one `Character`, but fzf (and so
    /// pick) reads the operator and the mark as two runes.
    ///
    /// Not `extended` (fzf's `+x`): the whole text, without the spaces at either end, is one
    /// term, fuzzy (exact with -e), its characters all literal.
    public init(_ text: String, fuzzy: Bool = true, caseMode: CaseMode = .smart, normalize: Bool = true,
                extended: Bool = true, scheme: Scheme = .default) {
        self.scheme = scheme
        let space: Unicode.Scalar = " ", tab: Unicode.Scalar = "\t", backslash: Unicode.Scalar = "\\"
        var scalars = Array(text.unicodeScalars)
        // Leading spaces go; trailing ones too, unless escaped.
        var lo = 0
        while lo < scalars.count && scalars[lo] == space { lo += 1 }
        var hi = scalars.count
        while hi > lo && scalars[hi - 1] == space && !(hi - 2 >= lo && scalars[hi - 2] == backslash) { hi -= 1 }
        scalars = Array(scalars[lo..<hi])
        // `\ ` is a literal space: a tab while splitting (as fzf, every `\ ` pair, left to
        // right), then a space again, like any tab typed in the query.
        var parked: [Unicode.Scalar] = []
        var i = 0
        while i < scalars.count {
            if scalars[i] == backslash && i + 1 < scalars.count && scalars[i + 1] == space {
                parked.append(tab)
                i += 2
            } else {
                parked.append(scalars[i])
                i += 1
            }
        }
        let tokens = extended ? parked.split(separator: space, omittingEmptySubsequences: true)
                              : scalars.isEmpty ? [] : [scalars[...]]

        var groups: [[Term]] = []
        var group: [Term] = []
        var startsNewGroup = false
        var afterBar = false
        for token in tokens {
            var text = token.map { $0 == tab ? space : $0 }
            let lowered = text.map { Unicode.Scalar(Folding.fold($0.value, caseFold: true, stripDiacritics: false))! }
            let caseSensitive = caseMode == .respect || (caseMode == .smart && lowered != text)
            let strips = normalize && !Folding.hasDiacritics(lowered)
            if !caseSensitive { text = lowered }
            var kind: TermKind = fuzzy ? .fuzzy : .exact
            var inverse = false
            var boundary = false

            if !extended {
                var bytes: [UInt8] = []
                for scalar in text {
                    bytes.append(contentsOf: String(Unicode.Scalar(Folding.fold(scalar.value, caseFold: false, stripDiacritics: strips))!).utf8)
                }
                group.append(Term(kind: kind, inverse: false, caseSensitive: caseSensitive, stripsDiacritics: strips, text: bytes))
                break
            }
            if !group.isEmpty && !afterBar && text == ["|"] {
                startsNewGroup = false
                afterBar = true
                continue
            }
            afterBar = false
            if text.first == "!" {
                inverse = true
                kind = .exact
                text.removeFirst()
            }
            if text != ["$"] && text.last == "$" {
                kind = .suffix
                text.removeLast()
            }
            if text.count >= 2 && text.first == "'" && text.last == "'"
                && text.reduce(0, { $0 + UTF8.width($1) }) > 2 {
                // 'word' (fzf 0.56+): an exact match at word boundaries.
                kind = .exact
                boundary = true
                text = Array(text.dropFirst().dropLast())
            } else if text.first == "'" {
                kind = fuzzy && !inverse ? .exact : .fuzzy
                text.removeFirst()
            } else if text.first == "^" {
                kind = kind == .suffix ? .equal : .prefix
                text.removeFirst()
            }
            guard !text.isEmpty else { continue }
            if startsNewGroup {
                groups.append(group)
                group = []
            }
            var bytes: [UInt8] = []
            for scalar in text {
                let folded = Folding.fold(scalar.value, caseFold: false, stripDiacritics: strips)
                bytes.append(contentsOf: String(Unicode.Scalar(folded)!).utf8)
            }
            group.append(Term(kind: kind, inverse: inverse, caseSensitive: caseSensitive,
                              stripsDiacritics: strips, text: bytes, boundary: boundary))
            startsNewGroup = true
        }
        if !group.isEmpty { groups.append(group) }
        self.groups = groups
    }

    /// Whether every line this query matches is also matched by `previous`, so a search
    /// for it may look only at `previous`'s results. True when each group of `previous`
    /// (positive, single-term) is implied by a group of this query.
    public func narrows(_ previous: Query) -> Bool {
        for old in previous.groups {
            guard old.count == 1, !old[0].inverse else { return false }
            let implied = groups.contains { group in
                group.count == 1 && group[0].implies(old[0])
            }
            if !implied { return false }
        }
        return true
    }
}

extension Term {
    /// Whether a line matching this term surely matches `other`.
    func implies(_ other: Term) -> Bool {
        guard !inverse, !other.inverse, caseSensitive == other.caseSensitive,
              stripsDiacritics == other.stripsDiacritics, !other.boundary else { return false }
        if kind == other.kind && text == other.text { return true }
        switch other.kind {
        case .fuzzy:
            // Anything that contains a longer text as a subsequence contains a prefix of it.
            return kind == .fuzzy && text.starts(with: other.text)
        case .exact:
            return (kind == .exact || kind == .prefix || kind == .suffix || kind == .equal)
                && text.firstRange(of: other.text) != nil
        case .prefix:
            return (kind == .prefix || kind == .equal) && text.starts(with: other.text)
        case .suffix:
            return (kind == .suffix || kind == .equal) && text.reversed().starts(with: other.text.reversed())
        case .equal:
            return false
        }
    }
}
