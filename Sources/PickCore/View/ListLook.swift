/// How the list draws a line too long for its row, as fzf's options set it and its
/// toggle actions change it (`toggle-hscroll`): the session keeps it (`PickSession.look`),
/// every frame is built with it.
public struct ListLook: Equatable, Sendable {
    /// `--hscroll` (fzf's default): a line whose last match lies past the row's end is
    /// shown from further right, an ellipsis at its start; `--no-hscroll` cuts at the end.
    public var hscroll = true
    /// `--hscroll-off`: columns kept in view after the last match (fzf's 10).
    public var hscrollOff = 10
    /// `--keep-right`: a line with no match shown is cut at its start, not its end.
    public var keepRight = false
    /// `--freeze-left=N`, `--freeze-right=N`: fields (cut by `--delimiter`) that stay in
    /// view at a long line's start and end while its middle is cut or scrolled.
    public var freezeLeft = 0
    public var freezeRight = 0

    public init(hscroll: Bool = true, hscrollOff: Int = 10, keepRight: Bool = false,
                freezeLeft: Int = 0, freezeRight: Int = 0) {
        self.hscroll = hscroll
        self.hscrollOff = hscrollOff
        self.keepRight = keepRight
        self.freezeLeft = freezeLeft
        self.freezeRight = freezeRight
    }

    /// Whether a line is cut in three parts (only where the list scrolls sideways).
    public var freezes: Bool { hscroll && (freezeLeft > 0 || freezeRight > 0) }
}
