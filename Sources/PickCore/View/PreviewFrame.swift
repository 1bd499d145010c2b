// What the preview pane shows, computed without a terminal: its text rows cut (or, with
// `wrap`, folded) to the pane's width, and the scroll position. The output's colour SGR
// codes are kept as span styles; a line's carriage returns, erases and moves along it are
// applied as a terminal would, inside the pane, and every other escape sequence dropped
// (`AnsiText.terminalLine`); other control bytes are drawn as visible symbols, as candidate
// text is (`TerminalText`): a preview can never set the title, clear the screen or move
// the cursor outside its pane.

/// The preview pane of one frame.
public struct PreviewFrame: Equatable, Sendable {
    /// Text rows from the top, each at most the pane's width.
    public var rows: [[Span]]
    /// The scroll position (`first/total`, lines of the whole output) when the output is
    /// longer than the pane, `loading…` while the text shown is the last line's and the
    /// new command has written nothing yet, else "":
    /// drawn at the first row's right end, which leaves room for it (as fzf).
    public var info: String
    /// The pane's border.
    public var sides: Sides
    public var glyphs: BorderGlyphs
    /// The text rows the scrollbar's thumb spans (below the header lines), or nil when the
    /// output fits: fzf's proportions (`--scrollbar` draws it).
    public var scrollbar: Range<Int>? = nil
}

/// Builds the preview pane's frame.
public enum PreviewFrameBuilder {
    /// `count` output lines (`line(i)` gives one, raw), shown from body line `first` below
    /// `window.headerLines` header lines, in a text area `width` by `height`.
    /// `style(i)`: the SGR style in force where line `i` starts. `cut`: the command wrote
    /// more than pick keeps, so the count is marked (`1/10000+`) rather than looking whole.
    /// `loading`: the text is the last line's, kept while a slow command has written nothing.
    public static func build(count: Int, line: (Int) -> [UInt8], style: (Int) -> AnsiStyle = { _ in .plain }, first: Int,
                             window: PreviewWindow, width: Int, height: Int, cut isCut: Bool = false,
                             loading: Bool = false, wrapSign: String = "\u{21B3} ",
                             showsEnd: Bool = false) -> PreviewFrame {
        var rows: [[Span]] = []
        let width = max(1, width)
        let headers = min(window.headerLines, count, height)
        // Whether the text takes more rows than the pane has (wrapped lines).
        var overflows = false
        func add(_ index: Int, limit: Int = height) {
            for row in self.rows(of: line(index), style: style(index), width: width, wrap: window.wrap,
                                 words: window.wrapWord, sign: wrapSign) {
                guard rows.count < limit else { overflows = true; return }
                rows.append(row)
            }
        }
        for i in 0..<headers { add(i) }
        var i = window.headerLines + max(0, first)
        if showsEnd && window.wrap {
            // Following the end: the last rows of the output, the first line's top cut.
            var body: [[Span]] = []
            swap(&rows, &body)
            while i < count {
                add(i, limit: .max)
                i += 1
            }
            let tail = rows.suffix(height - headers)
            overflows = overflows || tail.count < rows.count
            rows = body + tail
        }
        while rows.count < height && i < count {
            add(i)
            i += 1
        }
        if i < count { overflows = true }
        let body = count - window.headerLines
        // As fzf: the first line shown and the total, counted over the whole output.
        let info = loading ? loadingMark : window.info && (body > height - headers || overflows || first > 0)
            ? "\(window.headerLines + first + 1)/\(count)" + (isCut ? "+" : "") : ""
        if !info.isEmpty, !rows.isEmpty {
            rows[0] = cut(rows[0], to: max(0, width - info.count - 1))
        }
        let sides = window.borderSides
        let bar = Scrollbar.thumb(lines: body, height: height - headers, first: first)
            .map { (headers + $0.lowerBound)..<(headers + $0.upperBound) }
        return PreviewFrame(rows: rows, info: info, sides: sides, glyphs: window.border.glyphs, scrollbar: bar)
    }

    /// With `wrap`: the first body line from which the rest of the output fills the pane's
    /// `height` rows (its last place to scroll to, where `follow` keeps it).
    public static func lastFirstLine(count: Int, line: (Int) -> [UInt8], style: (Int) -> AnsiStyle = { _ in .plain },
                                     window: PreviewWindow, width: Int, height: Int,
                                     wrapSign: String = "\u{21B3} ") -> Int {
        let room = max(1, height - min(window.headerLines, count, height))
        var rows = 0
        var i = count - 1
        while i >= window.headerLines {
            rows += self.rows(of: line(i), style: style(i), width: max(1, width), wrap: true, words: window.wrapWord,
                              sign: wrapSign).count
            if rows >= room { return i - window.headerLines }
            i -= 1
        }
        return 0
    }

    /// What the pane says while a slow command has written nothing yet.
    public static let loadingMark = "loading…"

    /// `spans` cut to `columns` columns.
    static func cut(_ spans: [Span], to columns: Int) -> [Span] {
        var out: [Span] = []
        var used = 0
        for var span in spans {
            var text = String.UnicodeScalarView()
            for u in span.text.unicodeScalars {
                let w = TerminalText.width(of: u.value)
                if used + w > columns { break }
                used += w
                text.append(u)
            }
            span.text = String(text)
            if !span.text.isEmpty { out.append(span) }
            if used >= columns { break }
        }
        return out
    }

    /// The rows one output line takes: one, cut to `width`, or with `wrap` as many as its
    /// text needs (`words`: broken at a blank, fzf's preview `wrap-word`), each after the
    /// first starting with `sign` (dim), as fzf's.
    static func rows(of bytes: [UInt8], style: AnsiStyle = .plain, width: Int, wrap: Bool, words: Bool = false,
                     sign: String = "\u{21B3} ") -> [[Span]] {
        // A very long line shows only as far as the pane can (wrapped, a screenful or so).
        let limit = wrap ? width * 256 : width * 4 + 64
        let (visible, runs) = AnsiText.terminalLine(bytes.prefix(limit), style: style, columns: limit)
        let glyphs = visible.withUnsafeBufferPointer {
            TerminalText.glyphs($0, range: 0..<$0.count, styles: runs)
        }
        // Cut at the pane's edge with no ellipsis, as fzf's (a command's text is not a title).
        guard wrap else { return [FrameBuilder.fit(glyphs, highlighted: [], columns: width, ellipsis: "").spans] }
        let signWidth = TerminalText.width(sign)
        let shownSign = signWidth <= width ? sign : TerminalText.truncate(sign, to: width)
        let pieces = LineWrap.rows(glyphs, columns: width, signWidth: signWidth, words: words ? .dropBlank : .off,
                                   maxRows: width * 256)
        return pieces.rows.enumerated().map { k, range in
            let room = k == 0 ? width : max(0, width - signWidth)
            let text = FrameBuilder.fit(Array(glyphs[range]), highlighted: [], columns: max(1, room)).spans
            guard k > 0 else { return text }
            return [Span(text: shownSign, isHighlighted: false, isSymbol: false, style: "2")] + (room > 0 ? text : [])
        }
    }
}
