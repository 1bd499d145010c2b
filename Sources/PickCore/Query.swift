// The query grammar, fzf's extended search syntax:
//
//   query   := term (' '+ term)*        terms are ANDed; ' | ' between terms ORs them
//   term    := '!'? ( "'" text | '^' text | text '$' | '^' text '$' | text )
//   fuzzy   text     letters in order, gaps allowed (exact with -e)
//   exact   'text    substring (fuzzy with -e)        negated: !text is exact, !'text fuzzy
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
}

/// A parsed query: every group must match; a group matches when any of its terms does.
public struct Query: Sendable, Equatable {
    public var groups: [[Term]]

    /// Whether the query matches every line (no terms).
    public var isEmpty: Bool { groups.isEmpty }

    /// Parses `text` as fzf's extended syntax.
    public init(_ text: String, fuzzy: Bool = true, caseMode: CaseMode = .smart, normalize: Bool = true) {
        var trimmed = Substring(text)
        while trimmed.first == " " { trimmed = trimmed.dropFirst() }
        while trimmed.hasSuffix(" ") && !trimmed.hasSuffix("\\ ") { trimmed = trimmed.dropLast() }
        let tokens = trimmed.replacingEscapedSpaces().split(separator: " ", omittingEmptySubsequences: true)

        var groups: [[Term]] = []
        var group: [Term] = []
        var startsNewGroup = false
        var afterBar = false
        for token in tokens {
            var text = String(token.map { $0 == "\t" ? " " : $0 })
            let lowered = String(String.UnicodeScalarView(text.unicodeScalars.map {
                Unicode.Scalar(Folding.fold($0.value, caseFold: true, stripDiacritics: false))!
            }))
            let caseSensitive = caseMode == .respect || (caseMode == .smart && lowered != text)
            let strips = normalize && !Folding.hasDiacritics(lowered.unicodeScalars)
            if !caseSensitive { text = lowered }
            var kind: TermKind = fuzzy ? .fuzzy : .exact
            var inverse = false

            if !group.isEmpty && !afterBar && text == "|" {
                startsNewGroup = false
                afterBar = true
                continue
            }
            afterBar = false
            if text.hasPrefix("!") {
                inverse = true
                kind = .exact
                text.removeFirst()
            }
            if text != "$" && text.hasSuffix("$") {
                kind = .suffix
                text.removeLast()
            }
            if text.hasPrefix("'") {
                kind = fuzzy && !inverse ? .exact : .fuzzy
                text.removeFirst()
            } else if text.hasPrefix("^") {
                kind = kind == .suffix ? .equal : .prefix
                text.removeFirst()
            }
            guard !text.isEmpty else { continue }
            if startsNewGroup {
                groups.append(group)
                group = []
            }
            var bytes: [UInt8] = []
            for scalar in text.unicodeScalars {
                let folded = Folding.fold(scalar.value, caseFold: false, stripDiacritics: strips)
                bytes.append(contentsOf: String(Unicode.Scalar(folded)!).utf8)
            }
            group.append(Term(kind: kind, inverse: inverse, caseSensitive: caseSensitive,
                              stripsDiacritics: strips, text: bytes))
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
              stripsDiacritics == other.stripsDiacritics else { return false }
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

extension Substring {
    /// `\ ` becomes a tab, which no term can otherwise contain, then back to a space.
    fileprivate func replacingEscapedSpaces() -> String {
        var out = ""
        var iterator = makeIterator()
        while let c = iterator.next() {
            if c == "\\" {
                if let next = iterator.next() {
                    if next == " " { out.append("\t") } else { out.append(c); out.append(next) }
                } else {
                    out.append(c)
                }
            } else {
                out.append(c)
            }
        }
        return out
    }
}
