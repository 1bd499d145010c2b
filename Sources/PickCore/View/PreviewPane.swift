// The preview pane's policy, as data: which command runs when, and which line of its output
// the pane starts at. The picker tells it what is focused and when; it answers with what to
// stop and start. Nothing here runs a process or draws.
//
// - A focus change stops the running command at once: its output, stale from then on, is
//   never shown (each start has a new generation, and output of an older one is dropped).
// - Starts are paced: after a quiet spell the next line's preview starts at once; while
//   the focus keeps moving (a held Down key) at most one command starts every
//   `Tunables.Preview.startIntervalMillis`, for the line focused when it starts.
// - Until the new command writes something (or ends) the pane keeps the last text, so
//   moving does not blank it between lines; once `staleTextMillis` pass without output,
//   that text is marked as loading (a slow command's pane never just goes blank).
// - A hidden pane runs nothing. With nothing focused (an empty list, no match) the command
//   runs only when it does not need a line, as fzf decides: it has no placeholder, or it
//   has `{q}`, or it has `{+…}` and lines are marked (`PreviewSubject.line` is then nil).
// - Showing the same line's preview again (ctrl-/ twice, a resize) keeps the place the
//   person scrolled to, as fzf does; another line's starts at its top.
// - With `follow` the view keeps to the end of the output as it grows; scrolling away from
//   the end stops that, scrolling back to it (or change-preview-window) follows again, as fzf.

/// What a preview is of: the focused line (nil: none), and the query when the command uses `{q}`.
public struct PreviewSubject: Equatable, Sendable {
    public var line: Int32?
    public var query: String?
    /// The marked lines when the command uses `{+}`.
    public var marked: [Int32]

    public init(line: Int32?, query: String? = nil, marked: [Int32] = []) {
        self.line = line
        self.query = query
        self.marked = marked
    }
}

/// What the picker does for the pane.
public enum PreviewAction: Equatable, Sendable {
    /// Kill the running command's process group; its output is stale.
    case stop
    /// Run the preview command for `subject`, tagging its output with `generation`.
    case start(PreviewSubject, generation: Int)
}

/// The preview's state: the command running, the start pacing, and the scroll.
public struct PreviewPane: Sendable {
    /// The generation of the command last started: output of any other is stale.
    public private(set) var generation = 0
    /// What the last command started was for (nil: none, or stopped).
    public private(set) var started: PreviewSubject? = nil
    /// What is focused now (nil: nothing, or the pane is hidden).
    public private(set) var wanted: PreviewSubject? = nil
    private var lastStart = Int.min / 2
    private var lastChange = Int.min / 2
    /// The first output line shown below the header lines.
    public private(set) var scroll = 0
    /// The person scrolled since the last start (a `+SCROLL` offset then leaves it alone).
    public private(set) var scrolled = false
    /// The person scrolled away from the end: `follow` leaves the view where it is.
    public private(set) var leftTheEnd = false
    /// What `scroll` is a place in: the subject of the last start.
    private var scrollSubject: PreviewSubject? = nil

    public init() {}

    /// The focus (or whether the pane shows) changed, or time passed: what to stop and start.
    public mutating func focus(_ subject: PreviewSubject?, at now: Int) -> [PreviewAction] {
        var actions: [PreviewAction] = []
        if subject != wanted {
            wanted = subject
            lastChange = now
            if started != nil {
                started = nil
                actions.append(.stop)
            }
        }
        guard let wanted, started != wanted, wait(at: now) == nil else { return actions }
        generation += 1
        started = wanted
        lastStart = now
        if wanted != scrollSubject {
            scrollSubject = wanted
            scroll = 0
            scrolled = false
            leftTheEnd = false
        }
        actions.append(.start(wanted, generation: generation))
        return actions
    }

    /// The next turn starts the command again. The pane changed size (the command may draw
    /// for it): the place scrolled to is kept. `fromTheTop`: the command or its run is new
    /// (refresh-preview, change-preview), and its output starts at its top.
    public mutating func restart(fromTheTop: Bool = false) {
        started = nil
        if fromTheTop { scrollSubject = nil }
    }

    /// Milliseconds until a start that waits for the pacing (nil: none waits).
    public func wait(at now: Int) -> Int? {
        guard wanted != nil, started != wanted else { return nil }
        let due = lastStart + Tunables.Preview.startIntervalMillis
        return due > now ? due - now : nil
    }

    /// Whether the new command's text replaces the last one yet.
    public static func showsNewText(hasOutput: Bool, finished: Bool) -> Bool {
        hasOutput || finished
    }

    /// Whether the pane, still showing the last text, marks it as loading: the command
    /// started at `startedAt` has written nothing for `staleTextMillis`.
    public static func isLoading(hasOutput: Bool, finished: Bool, startedAt: Int, at now: Int) -> Bool {
        !showsNewText(hasOutput: hasOutput, finished: finished) && now - startedAt >= Tunables.Preview.staleTextMillis
    }

    /// Sets where the text starts: the `+SCROLL` offset of a new command's line.
    public mutating func startScroll(at line: Int) {
        if !scrolled { scroll = max(0, line) }
    }

    /// Scrolls by `delta` lines through `lines` lines of output (less `headerLines`), a pane
    /// of `height` rows; `cycle` wraps past either end.
    /// `wrappedLast`: with wrapping, the last line to scroll to (`lastFirstLine`).
    public mutating func scroll(by delta: Int, lines: Int, headerLines: Int, height: Int, cycle: Bool,
                                wrappedLast: Int? = nil) {
        let body = max(0, lines - headerLines)
        let last = wrappedLast ?? max(0, body - max(1, height - headerLines))
        var next = scroll + delta
        if cycle && last > 0 {
            if scroll == last && delta > 0 { next = 0 } else if scroll == 0 && delta < 0 { next = last }
        }
        scroll = min(max(0, next), last)
        scrolled = true
    }

    /// After a scroll, with `lines` lines of output come so far: whether the view left the
    /// end (`follow` stops) or came back to it (`follow` resumes).
    /// `wrappedLast`: with wrapping, the last line to scroll to (`lastFirstLine`).
    public mutating func noteEnd(lines: Int, headerLines: Int, height: Int, wrappedLast: Int? = nil) {
        let body = max(0, lines - headerLines)
        leftTheEnd = scroll < (wrappedLast ?? max(0, body - max(1, height - headerLines)))
    }

    /// The view stays at body line `first` (where it shows now), scrolled or not.
    public mutating func hold(at first: Int) {
        scroll = max(0, first)
    }

    /// change-preview-window: `follow` keeps to the end again, wherever the view was.
    public mutating func followAgain() {
        leftTheEnd = false
    }

    /// The first body line to show: with `follow` (and no scrolling since), the end.
    public func firstLine(lines: Int, headerLines: Int, height: Int, follow: Bool, wrappedLast: Int? = nil) -> Int {
        let body = max(0, lines - headerLines)
        let last = wrappedLast ?? max(0, body - max(1, height - headerLines))
        return follow && !leftTheEnd ? last : min(scroll, last)
    }
}
