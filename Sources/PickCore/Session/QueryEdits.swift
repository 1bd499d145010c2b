/// The query-editing keys fzf and readline give (ctrl-u, ctrl-w, ctrl-y, alt-b, alt-f,
/// alt-d, alt-backspace), as pure functions of the line and cursor: libedit runs them as
/// functions of its own (LineEditor), where its defaults differ (its ctrl-u kills the whole
/// line, its words take `_-.` and more as letters, its kill buffer is not fzf's).
///
/// A word is a run of letters and digits (Unicode's L and N categories), as fzf's default,
/// or with `--filepath-word` a run of anything but `/` (a path's parts); ctrl-w's "word" is
/// a run of anything but white space, as readline's unix-word-rubout.
/// Every kill replaces what ctrl-y puts back.
public enum QueryEdit: Sendable, Equatable {
    /// ctrl-u: kill from the start of the line to the cursor (fzf's unix-line-discard).
    case killToStart
    /// ctrl-k as an action (kill-line): kill from the cursor to the end.
    case killToEnd
    /// ctrl-w: kill the white-space-separated word before the cursor.
    case killBlankWordBefore
    /// alt-backspace: kill back to the start of the word before the cursor.
    case killWordBefore
    /// alt-d: kill to the end of the next word.
    case killWordAfter
    /// alt-b, alt-f: to the start of the word before, to the end of the next one.
    case wordBefore, wordAfter
    /// ctrl-y: put back what the last kill took.
    case yank
    /// fzf's subword moves and kills: a word, or a camelCase hump of one (`fooBar` is two).
    case subwordBefore, subwordAfter, killSubwordBefore, killSubwordAfter

    /// The line being edited, its cursor (an index into `text`), and the text ctrl-y puts back.
    public struct Line: Sendable, Equatable {
        public var text: [Unicode.Scalar]
        public var cursor: Int
        public var yanked: [Unicode.Scalar]

        public init(text: [Unicode.Scalar], cursor: Int, yanked: [Unicode.Scalar] = []) {
            self.text = text
            self.cursor = max(0, min(cursor, text.count))
            self.yanked = yanked
        }
    }

    /// What the word moves and kills (alt-b, alt-f, alt-d, alt-backspace) take as a word.
    public enum Words: Sendable {
        /// Letters and digits (fzf's default).
        case lettersAndDigits
        /// Anything but the path separator (`--filepath-word`).
        case pathParts

        func contains(_ c: Unicode.Scalar) -> Bool {
            switch self {
            case .lettersAndDigits: QueryEdit.isWord(c)
            case .pathParts: c != "/"
            }
        }
    }

    static func isWord(_ c: Unicode.Scalar) -> Bool {
        switch c.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber: return true
        default: return false
        }
    }

    /// Where the word before `cursor` starts: after the last non-word character that a word
    /// character follows (0 if none), as fzf finds it.
    static func wordStart(_ text: [Unicode.Scalar], before cursor: Int, isWord: (Unicode.Scalar) -> Bool) -> Int {
        var i = cursor - 1
        while i > 0 {
            if !isWord(text[i - 1]) && isWord(text[i]) { return i }
            i -= 1
        }
        return 0
    }

    /// Where the next word after `cursor` ends: after the first word character that a
    /// non-word one follows, or the end of the line.
    static func wordEnd(_ text: [Unicode.Scalar], after cursor: Int,
                        isWord: (Unicode.Scalar) -> Bool = QueryEdit.isWord) -> Int {
        guard cursor < text.count else { return cursor }
        var i = cursor
        while i + 1 < text.count {
            if isWord(text[i]) && !isWord(text[i + 1]) { return i + 1 }
            i += 1
        }
        return text.count
    }

    static func isASCIILower(_ c: Unicode.Scalar) -> Bool { ("a"..."z").contains(c) }
    static func isASCIIUpper(_ c: Unicode.Scalar) -> Bool { ("A"..."Z").contains(c) }

    /// Where the subword before `cursor` starts, as fzf finds it: after the last hump
    /// (`[a-z][A-Z]`) or word start (`[^\pL\pN][\pL\pN]`) before the cursor, the pairs
    /// taken left to right without overlapping (0 if none).
    static func subwordStart(_ text: [Unicode.Scalar], before cursor: Int) -> Int {
        var last = -1
        var i = 0
        while i + 1 < cursor {
            let (a, b) = (text[i], text[i + 1])
            if isASCIILower(a) && isASCIIUpper(b) || !isWord(a) && isWord(b) {
                last = i
                i += 2
            } else {
                i += 1
            }
        }
        return last + 1
    }

    /// Where the subword after `cursor` ends, as fzf finds it: after the first character
    /// of a hump (`[a-z][A-Z]`) or word end (`[\pL\pN][^\pL\pN]`), or the end of the line.
    static func subwordEnd(_ text: [Unicode.Scalar], after cursor: Int) -> Int {
        guard cursor < text.count else { return cursor }
        var i = cursor
        while i + 1 < text.count {
            let (a, b) = (text[i], text[i + 1])
            if isASCIILower(a) && isASCIIUpper(b) || isWord(a) && !isWord(b) { return i + 1 }
            i += 1
        }
        return text.count
    }

    /// The line after this edit, `words` taken as words.
    public func applied(to line: Line, words: Words = .lettersAndDigits) -> Line {
        var l = line
        func kill(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            l.yanked = Array(l.text[range])
            l.text.removeSubrange(range)
            l.cursor = range.lowerBound
        }
        switch self {
        case .killToStart: kill(0..<l.cursor)
        case .killToEnd: kill(l.cursor..<l.text.count)
        case .killBlankWordBefore:
            let blank = { (c: Unicode.Scalar) in c.properties.isWhitespace }
            kill(Self.wordStart(l.text, before: l.cursor, isWord: { !blank($0) })..<l.cursor)
        case .killWordBefore: kill(Self.wordStart(l.text, before: l.cursor, isWord: words.contains)..<l.cursor)
        case .killWordAfter: kill(l.cursor..<Self.wordEnd(l.text, after: l.cursor, isWord: words.contains))
        case .wordBefore: l.cursor = Self.wordStart(l.text, before: l.cursor, isWord: words.contains)
        case .wordAfter: l.cursor = Self.wordEnd(l.text, after: l.cursor, isWord: words.contains)
        case .yank:
            l.text.insert(contentsOf: l.yanked, at: l.cursor)
            l.cursor += l.yanked.count
        case .subwordBefore: l.cursor = Self.subwordStart(l.text, before: l.cursor)
        case .subwordAfter: l.cursor = Self.subwordEnd(l.text, after: l.cursor)
        case .killSubwordBefore: kill(Self.subwordStart(l.text, before: l.cursor)..<l.cursor)
        case .killSubwordAfter: kill(l.cursor..<Self.subwordEnd(l.text, after: l.cursor))
        }
        return l
    }
}
