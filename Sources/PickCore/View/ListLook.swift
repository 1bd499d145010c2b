/// How the list draws a line too long for its row, as fzf's options set it and its
/// toggle actions change it (`toggle-hscroll`, `toggle-wrap`, `toggle-multi-line`): the
/// session keeps it (`PickSession.look`), every frame is built with it.
public struct ListLook: Equatable, Sendable {
    /// `--hscroll` (fzf's default): a line whose last match lies past the row's end is
    /// shown from further right, an ellipsis at its start; `--no-hscroll` cuts at the end.
    public var hscroll = true
    /// `--hscroll-off`: columns kept in view after the last match (fzf's 10).
    public var hscrollOff = 10
    /// `--keep-right`: a line with no match shown is cut at its start, not its end.
    public var keepRight = false
    /// `--wrap`: a line too long for its row goes on over the rows below it, each after
    /// the wrap sign; `wrapWord` (`--wrap=word`) breaks it after a blank where one is.
    public var wrap = false
    public var wrapWord = false
    /// An item with newlines (`--read0`) takes a row for each of its lines, as fzf's
    /// multi-line items (`--no-multi-line`: one row, a newline drawn `␊`).
    public var multiLine = false
    /// `--gap=N`: blank rows after each item, the last one with the gap line.
    public var gap = 0

    public init(hscroll: Bool = true, hscrollOff: Int = 10, keepRight: Bool = false, wrap: Bool = false,
                wrapWord: Bool = false, multiLine: Bool = false, gap: Int = 0) {
        self.hscroll = hscroll
        self.hscrollOff = hscrollOff
        self.keepRight = keepRight
        self.wrap = wrap
        self.wrapWord = wrapWord
        self.multiLine = multiLine
        self.gap = gap
    }

    /// Whether an item may take more than one row (or a row and its gap).
    public var spansRows: Bool { wrap || multiLine || gap > 0 }

    /// toggle-wrap and toggle-wrap-word, as fzf's: `word` turns word wrapping on or off
    /// (wrapping with it), otherwise wrapping turns, word wrapping going off with it.
    public mutating func toggleWrap(word: Bool) {
        if word {
            wrapWord.toggle()
            wrap = wrapWord
        } else {
            wrap.toggle()
            if !wrap { wrapWord = false }
        }
    }
}
