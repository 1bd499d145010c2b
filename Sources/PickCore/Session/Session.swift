// A picking session: what the person at the picker has — the query, the result that
// answers it, the scope, the highlighted line, the marks — and the policy that decides,
// from that state and the clock, when to search, when to draw and when to ask for the
// rest of a ranking.
//
// Plain data and pure functions. The picker feeds it events (the query was edited, input
// arrived, the worker answered, a frame was drawn, a key moved the selection) together
// with the time, and runs the actions it returns: hand a job to the search worker, run
// one at once, draw. It reads no clock, no terminal and no store, so every decision here
// is unit-tested by replaying events.
//
// The policy, in short:
// - A keystroke searches at once; while input streams in, the search is repeated for the
//   lines read since, at most every `refreshInterval`.
// - For the first `firstListHold` after start, while input still loads, nothing but the
//   prompt is drawn: a file that loads in a few milliseconds shows whole, not in pieces.
// - A frame is drawn at most every `frameInterval`, except the frames that complete a
//   keystroke's answer and the one that first shows all the input: those go out at once.
//   An edited query's first frame goes out at once too, with only the rows of the older
//   query's list that match it and the count in progress (`showsOlderQuery`): the rows on
//   screen always match the query on screen. A frame of the same query's stale result (the
//   sort toggled) waits up to `staleFrameHold` for the new one.
// - A large input answers a keystroke with the first screen of its ranking; once that is
//   drawn, the rest is asked for, and once the whole is drawn, the suggestions: from the
//   lines the list shows (the current scope's), what each would add to the query. From
//   `defersRankingFromMatches` matches the rest waits until something needs it
//   (`defersWholeRanking`): the suggestions come from the first lines matched, then the
//   engine's bounds are made exact while idle.
// - Close matches (CloseMatches.swift): when a query that may carry a typo leaves rows of
//   the list empty, the lines one typo away are asked for once the whole is drawn, before
//   the suggestions, to fill those rows. A keystroke's answer never waits for them; until
//   they come the list does not say "no matches", and Return waits for them.

/// Work for the search worker (or for the event loop, when it is quick).
public struct SearchJob: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// Rank enough lines to fill `rows` rows first (the rest may follow).
        case firstRows(Int)
        /// Rank every line.
        case whole
        /// What would extend the text (Tab, the ghost text), from `matches`: the lines the
        /// list shows, the whole result narrowed to scope `scope`. Nil: the first
        /// `Tunables.Picker.suggestionsFromMatches` lines the query matched, in input order,
        /// which the engine keeps (`SearchEngine.matchedLines`): a large list's lines are
        /// not copied for it, nor ranked whole (`PickSession.defersWholeRanking`).
        case suggestions(matches: [Int32]?, scope: Int)
        /// Makes the engine's bounds exact while nothing else is to do
        /// (`SearchEngine.refineBounds`): no answer. After a first screen whose whole ranking
        /// waits, the next key goes on from exact values, not from bounds of bounds; on a
        /// large input, also after a whole ranking, from the rests it notes.
        case refineBounds
        /// The best `limit` close matches in scope `scope`, lines of `excluding` (the
        /// matches) left out.
        case closeMatches(excluding: [Int32], scope: Int, limit: Int)
    }

    /// The query generation the answer is for.
    public var generation: Int
    public var text: String
    public var kind: Kind
    /// Raw mode: a result lists every line in input order, the matches among them
    /// (`SearchEngine.rawList`).
    public var raw = false

    public init(generation: Int, text: String, kind: Kind, raw: Bool = false) {
        self.generation = generation
        self.text = text
        self.kind = kind
        self.raw = raw
    }
}

/// What a job gave back.
public enum SearchAnswer: Sendable {
    case result(generation: Int, SearchResult)
    /// What each suggestion adds to the query, best first, for the query of `generation`
    /// in scope `scope`.
    case suggestions(generation: Int, scope: Int, [String])
    /// The close matches, best first, for the query of `generation` in scope `scope`.
    case closeMatches(generation: Int, scope: Int, [Int32])
}

/// Something that happened to the session.
public enum SessionEvent {
    /// The query's text is now this (sent every turn; only a change counts).
    case queryEdited(String)
    /// The store holds `lines` lines; `loading` while more may come.
    case inputRead(lines: Int, loading: Bool)
    /// A job finished.
    case answered(SearchAnswer)
    /// A frame showing the current state went out.
    case drawn
    /// Moves the highlight by `delta` rows in list order (`wraps` with `--cycle`).
    case move(by: Int, wraps: Bool)
    /// The person pointed at the line at this position of the list (a click): it is
    /// highlighted, and Return prints it even if it is the first.
    case select(Int)
    /// Marks or unmarks the highlighted line (`--multi`).
    case toggleMark
    /// Shows only scope `index` (0 is All).
    case scope(Int)
    /// Marks every line the list shows, unmarks every line, or inverts the marks of the
    /// lines the list shows (`--multi`; the list must be the whole ranking: see
    /// `wholeResultJob`).
    case marks(MarkChange)
    /// A reload's command started: until its lines replace the input (reload-sync: until
    /// it ends), the list shows the old lines and the spinner turns, as fzf's.
    case reloadStarted
    /// The store was replaced (a reload): what was read, searched and marked is gone.
    case inputReplaced
    /// The same query must be searched again (the sort or the search was turned on or off).
    case searchAgain
    /// The list area now has this many rows.
    case listHeight(Int)
    /// Something else on screen changed (the help, the spinner, the prompt): draw again.
    case redraw
    /// The list draws its lines so now (toggle-hscroll).
    case look(ListLook)
    /// Time passed.
    case tick
    /// The ranking changed for the same query (a remembered line was forgotten): search
    /// again, the highlight back on the first line.
    case rankingChanged
    /// Moves by `delta` (one row up or down) to the next line the query matches: in raw
    /// mode past the dimmed ones (staying put when there is none), else as `move`.
    case moveToMatch(by: Int, wraps: Bool)
    /// Moves to the next marked line in direction `delta` (±1), around the ends.
    case moveToMarked(by: Int)
    /// The best match: the first line, or in raw mode the line ranked first.
    case best
    /// Raw mode on or off (fzf's --raw): every line listed, those not matching dimmed.
    case raw(Bool)
    /// Marking on with a limit (0: none), or off (nil); the marks go when it changes.
    case multi(limit: Int?)
    /// What the highlight follows as the query changes.
    case track(TrackChange)
    /// Unmarks every line, listed or not (clear-multi).
    case clearMarks
}

/// How `SessionEvent.track` changes what the highlight follows (fzf's --track,
/// track-current).
public enum TrackChange: Equatable, Sendable {
    /// toggle-track: `--track` on or off.
    case toggleAll
    /// track-current: this line, until the highlight moves (not while `--track` is on).
    case current
    /// untrack-current.
    case noCurrent
    /// toggle-track-current.
    case toggleCurrent
    /// abort or cancel while a reload's tracking holds the picker (`trackBlocked`): the hold
    /// ends, the highlight staying where it is.
    case unblock
}

/// How `SessionEvent.marks` changes the marks: the lines the list shows (the matches, in
/// raw mode) marked, unmarked, or their marks inverted.
public enum MarkChange: Equatable, Sendable {
    case all, none, invert
}

/// What the picker is to do next, in order.
public enum SessionAction: Equatable {
    /// Hand the job to the worker, replacing the one it runs.
    case search(SearchJob)
    /// Run the job now, on the event loop, and send its answer back at once.
    case searchNow(SearchJob)
    /// Draw a frame.
    case draw
}

/// What Return prints.
public enum AcceptDecision: Equatable {
    /// These lines, in this order.
    case lines([Int32])
    /// Nothing matched: exit 1.
    case nothing
    /// The answer on screen is not the whole ranking of all the input read: run this job
    /// now, send its answer, and ask again.
    case searchFirst(SearchJob)
}

/// The state of one picking session and the policy over it.
public struct PickSession {
    /// What the options say about the session.
    public struct Settings {
        public var multi = false
        /// The most lines that can be marked (0: no limit).
        public var multiLimit = 0
        /// Up and Down wrap around the ends.
        public var cycle = false
        /// Lines at the start of the store that are headers, not candidates.
        public var headerLines = 0
        /// The highlight stays on its line when the query changes, as long as the line
        /// still matches (`--track`, as fzf).
        public var track = false
        /// Inputs up to this many lines are listed for an empty query on the event loop.
        public var listedAtOnce = Tunables.Session.listedAtOnceLines
        /// Close matches fill the rows matches leave empty, for queries read with these
        /// options (nil: `--no-typos`, none).
        public var typos: MatchingOptions? = nil
        /// The first close match is highlighted, and Return picks it, as where real matches
        /// are (`--palette`: a palette forgives a typo). Otherwise nothing acts on a close
        /// match until the person points at it (`pointsAtLine`).
        public var forgivesTypos = false
        /// The list is sorted by score (`--no-sort`: not), until toggle-sort turns it.
        public var sorts = true
        /// A first screen of at least this many matches is not followed by the whole
        /// ranking until something needs it (`defersWholeRanking`).
        public var defersRankingFromMatches = Tunables.Session.defersRankingFromMatches
        /// From this many lines a complete result is followed by the refinement too, which
        /// notes the next key's rests (`SearchEngine.restsFromLines`).
        public var notesRestsFromLines = Tunables.Search.restsFromLines
        /// `--nth` and `--with-nth` as given: what change-nth's empty choice goes back to.
        public var nth: FieldRanges? = nil
        public var withNth: FieldTemplate? = nil
        /// The highlight keeps its row of the list when the query changes (as fzf, whose
        /// cursor keeps its index); otherwise the new list is highlighted from its first line.
        public var keepsRow = false
        /// `--tail N`: only the last N lines read are candidates.
        public var keepsLast: Int? = nil

        public init(multi: Bool = false, multiLimit: Int = 0, cycle: Bool = false, headerLines: Int = 0,
                    track: Bool = false, typos: MatchingOptions? = nil, forgivesTypos: Bool = false,
                    sorts: Bool = true, nth: FieldRanges? = nil, withNth: FieldTemplate? = nil, keepsRow: Bool = false,
                    keepsLast: Int? = nil) {
            self.keepsRow = keepsRow
            self.keepsLast = keepsLast
            self.sorts = sorts
            self.nth = nth
            self.withNth = withNth
            self.typos = typos
            self.forgivesTypos = forgivesTypos
            self.multi = multi
            self.multiLimit = multiLimit
            self.cycle = cycle
            self.headerLines = headerLines
            self.track = track
        }
    }

    /// What the options say (change-multi changes `multi` and `multiLimit`).
    public private(set) var settings: Settings
    /// What `--bind`'s actions and events keep between keys (BoundState.swift).
    public var bound = BoundState()
    /// Whether the query filters the list (fzf's enable-search and disable-search). Off, the
    /// list keeps the filtering of the query typed when it went off, whatever is typed since,
    /// until the input is replaced (a reload lists every line), as in fzf.
    public var filters = true {
        didSet { if oldValue && !filters { frozenText = queryText ?? "" } }
    }
    /// How long lines are drawn (`--hscroll`, `--keep-right`…; toggle-hscroll changes it).
    public var look = ListLook()
    /// What the list is filtered by while the query does not filter.
    public private(set) var frozenText = ""
    /// search(…): the text searched for instead of the query, until the query changes
    /// (fzf's: it searches even while search is disabled).
    public var searchOverride: String? = nil
    /// The text searched for: search(…)'s, the query, or while it does not filter,
    /// `frozenText`.
    public var searchedText: String { searchOverride ?? (filters ? (queryText ?? "") : frozenText) }

    // The query.
    /// The query's text; nil until the editor first reports it.
    public private(set) var queryText: String? = nil
    /// Counts query edits: an answer is for the query of its generation.
    public private(set) var generation = 0

    // The answer.
    /// The newest result for any query (an older query's, until the current one answers).
    public private(set) var result: SearchResult? = nil
    /// Whether a list has been shown yet (a result with lines, or any once the input is
    /// read whole): the preview waits for it, so that its first run is of the first line,
    /// as fzf's.
    public private(set) var listedOnce = false
    public private(set) var resultGeneration = -1
    /// The text `result` was searched for.
    private var resultText = ""
    /// `result` narrowed to the scope: what the list shows.
    public private(set) var shown: SearchResult? = nil
    /// What each suggestion adds to the query, best first (for `suggestionGeneration`).
    public private(set) var suggestions: [String] = []
    public private(set) var suggestionGeneration = -1
    /// The close matches (for `closeGeneration`), and whether the query may have them.
    public private(set) var closeMatches: [Int32] = []
    public private(set) var closeGeneration = -1
    private var mayHaveTypo = false

    // Searching.
    /// A search for the current query is running (the spinner turns).
    public private(set) var isSearching = false
    private var searchStarted = 0
    /// Store lines the last search covered.
    private var searchedLines = -1
    /// A search waits for the first list hold to end.
    private var searchDeferred = false
    /// The generation whose rest (whole ranking) or suggestions were asked for.
    private var restAsked = -1
    private var suggestionsAsked = -1
    private var closeAsked = -1
    private var refineAsked = -1
    /// Moves (and marks) that wait for the current query's whole ranking, in order: the
    /// first went past the rows of a list not complete (a first screen, the current query's
    /// or, while its list is still to come, an older query's), the others came after it
    /// (`makePendingMoves`).
    private var pendingMoves: [MoveAhead] = []
    /// Moves typed while the highlight's line is looked for in a list still to come (toggle-raw,
    /// `--track`): made from where the line lands once that list says, in order, as fzf
    /// makes them on its new list (made at once on the old list, the line found would undo them).
    /// A mark typed among them (toggle, Tab) is made there too, on the line the moves before
    /// it reach.
    private var movesAhead: [MoveAhead] = []
    private enum MoveAhead {
        case move(delta: Int, wraps: Bool, toMatch: Bool)
        case toggleMark
    }
    /// Whether moves typed ahead wait for the list to come (toggle-raw makes them first).
    var movesWait: Bool { !movesAhead.isEmpty || !pendingMoves.isEmpty }
    /// Whether the highlight waits for a list to come to say where its line went.
    private var awaitsLine: Bool { if case .line? = tracker.anchor { true } else { false } }

    // The input.
    public private(set) var inputLines = 0
    public private(set) var isLoading = true
    /// A reload runs whose lines have not replaced the input yet (`reloadStarted`).
    public private(set) var isReloading = false
    private let startedAt: Int

    // The view.
    /// Raw mode (fzf's --raw, toggle-raw): the list shows every line in input order, the
    /// ones the query does not match dimmed (`SearchResult.matched`).
    public private(set) var raw = false
    /// The prompt's row and the info line are hidden (`--no-input`, hide-input): the query
    /// stays as it is, never typed into.
    public var inputHidden = false
    /// The highlight follows its line as the query changes: `--track` (toggle-track), or
    /// track-current for one line until the highlight moves.
    public private(set) var tracksAll = false
    public private(set) var tracksCurrent = false
    public var tracks: Bool { tracksAll || tracksCurrent }
    /// The line track-current follows: once the list no longer highlights it, it ends.
    private var currentTracked: Int32? = nil
    /// The row of the screen the tracked line was on when the query changed: it stays on it
    /// in the new list (fzf's).
    private var trackedRow = 0
    /// A reload with `--track` and `--id-nth` looks for the highlighted line in its lines:
    /// until it is found (reload-sync: until the lines are all in) or the input read whole,
    /// the info line says `+T*` and the actions wait, but for abort and cancel (which end
    /// the hold) and the ones that turn tracking off (fzf's).
    public private(set) var trackBlocked = false
    /// Counts changes of the marks (the `multi` event).
    public private(set) var marksVersion = 0
    /// change-with-nth: the marks of lines the list searched again no longer matches go once
    /// it is whole (fzf's).
    private var marksMustMatch = false
    /// The highlighted line's position in `shown.lines`.
    public private(set) var selection = 0
    /// Whether the person moved the highlight since the query last changed (or, with
    /// `--track`, whether it follows a line rather than the first match).
    public private(set) var moved = false
    /// Where the highlight goes when the list changes under it (HighlightTracker.swift).
    private var tracker = HighlightTracker()
    /// The first list row on screen (the frame keeps it in view).
    public var scroll = 0
    /// Marked lines, in the order marked.
    public private(set) var marks: [Int32] = []
    public private(set) var markSet = Set<Int32>()
    public private(set) var scope = 0
    /// Rows the list shows: a large input ranks that many lines first.
    public private(set) var listHeight = 64

    // Drawing.
    public private(set) var needsDraw = true
    private var lastDraw = Int.min / 2
    private var drawnResult = -1
    /// The generation of the last frame drawn.
    private var drawnGeneration = -1
    private var drawnSuggestions = -1
    private var drawnClose = -1
    /// Whether a frame with all the input searched has been drawn.
    private var drewLoaded = false

    public init(settings: Settings = Settings(), raw: Bool = false, startedAt now: Int) {
        self.settings = settings
        self.raw = raw
        tracksAll = settings.track
        startedAt = now
    }

    /// Candidate lines read so far (header lines not counted).
    public var candidates: Int { min(max(0, inputLines - settings.headerLines), settings.keepsLast ?? .max) }

    /// Whether the list shown is an older query's, until the current one's search answers:
    /// its rows need not match the query on screen, nor its count be the query's. A frame
    /// then lists only the rows that match (FrameInput.showsOlderQuery) and the count as
    /// in progress.
    public var showsOlderQuery: Bool {
        shown != nil && resultGeneration != generation && resultText != searchedText && !raw
    }

    /// Whether the line at `position` of the list is one the query matches (in raw mode
    /// the list shows others, dimmed).
    public func matches(at position: Int) -> Bool {
        guard let shown, position >= 0, position < shown.lines.count else { return false }
        return shown.matched.map { $0.contains(shown.lines[position]) } ?? true
    }

    /// The highlighted line, if any: none while the selection rests on a close match the
    /// person has not pointed at (`pointsAtLine`).
    public var highlighted: Int32? {
        guard let lines = shown?.lines, selection < lines.count, pointsAtLine else { return nil }
        return lines[selection]
    }

    /// Whether the selection is on a line that may be acted on: a real match, or a close
    /// match the person moved onto or clicked (with `forgivesTypos`, any). Return, a
    /// mark, a preview act on no line the query did not match unless the person chose it.
    public var pointsAtLine: Bool {
        guard let shown, !moved, !settings.forgivesTypos else { return true }
        return selection < shown.lines.count - shown.closeMatches
    }

    // MARK: Events

    /// Takes in `event` at time `now` (ms) and returns what to do, in order.
    public mutating func handle(_ event: SessionEvent, at now: Int) -> [SessionAction] {
        var actions: [SessionAction] = []
        switch event {
        case .queryEdited(let text):
            guard text != queryText else { break }
            queryText = text
            searchOverride = nil
            mayHaveTypo = settings.typos.map {
                CloseMatches.apply(to: Query(text, fuzzy: $0.fuzzy, caseMode: $0.caseMode, normalize: $0.normalize,
                                                  extended: $0.extended))
            } ?? false
            // With --track, the highlight stays where it is until the answer says where its
            // line went; in raw mode, where every line stays listed, on its line too (fzf
            // keeps its cursor's place).
            actions += beginGeneration(.queryEdited(tracking: tracks || raw ? highlighted : nil), at: now)
        case .inputRead(let lines, let loading):
            if lines != inputLines || loading != isLoading { needsDraw = true }
            inputLines = lines
            isLoading = loading
            noteListed()
        case .answered(let answer):
            actions += take(answer)
        case .drawn:
            lastDraw = now
            drawnResult = resultGeneration
            drawnGeneration = generation
            drawnSuggestions = suggestionGeneration
            drawnClose = closeGeneration
            needsDraw = false
            actions += askForMore()
        case .move(let delta, let wraps) where awaitsLine:
            movesAhead.append(.move(delta: delta, wraps: wraps, toMatch: false))
            needsDraw = true
        case .move(let delta, let wraps):
            pendingMoves.append(.move(delta: delta, wraps: wraps, toMatch: false))
            actions += makePendingMoves()
        case .select(let position):
            guard let count = shown?.lines.count, position >= 0, position < count else { break }
            if awaitsLine, let line = shown?.lines[position] {
                // A click on the list on screen while the highlight's line is looked for in
                // the one to come: that line is looked for instead, the moves before it undone.
                movesAhead = []
                tracker.anchor = .line(line)
            }
            if position != selection { tracksCurrent = false }
            pendingMoves = []
            selection = position
            moved = true
            needsDraw = true
        case .toggleMark where !movesAhead.isEmpty:
            movesAhead.append(.toggleMark)
            needsDraw = true
        case .toggleMark where !pendingMoves.isEmpty:
            pendingMoves.append(.toggleMark)
            needsDraw = true
        case .toggleMark:
            toggleMark()
        case .scope(let index):
            if index != scope && !(queryText ?? "").isEmpty {
                // Completion follows the scope: the suggestions are asked for again.
                suggestions = []
                suggestionGeneration = -1
                suggestionsAsked = -1
            }
            if index != scope {
                closeMatches = []
                closeGeneration = -1
                closeAsked = -1
            }
            scope = index
            if result != nil { show() }
            pendingMoves = []
            selection = 0
            moved = false
            scroll = 0
            needsDraw = true
        case .marks(let change):
            changeMarks(change)
        case .reloadStarted:
            isReloading = true
            needsDraw = true
        case .inputReplaced:
            isReloading = false
            actions += beginGeneration(.inputReplaced, at: now)
        case .searchAgain:
            actions += beginGeneration(.searchAgain, at: now)
        case .listHeight(let rows):
            listHeight = max(rows, 16)
        case .redraw:
            needsDraw = true
        case .look(let look):
            self.look = look
            needsDraw = true
        case .tick:
            break
        case .rankingChanged:
            actions += beginGeneration(.queryEdited(tracking: nil), at: now)
        case .moveToMatch(let delta, let wraps) where awaitsLine:
            movesAhead.append(.move(delta: delta, wraps: wraps, toMatch: true))
            needsDraw = true
        case .moveToMatch(let delta, let wraps):
            guard raw, let shown, shown.matched != nil, !shown.lines.isEmpty else {
                return handle(.move(by: delta, wraps: wraps), at: now)
            }
            moveToMatch(by: delta, wraps: wraps)
        case .moveToMarked(let delta):
            guard !marks.isEmpty, let lines = shown?.lines, !lines.isEmpty else { break }
            let total = lines.count
            for i in 1..<max(total, 1) {
                let y = ((selection + delta * i) % total + total) % total
                if markSet.contains(lines[y]) {
                    actions += handle(.select(y), at: now)
                    break
                }
            }
        case .best:
            if raw, let shown, let best = shown.best, let at = shown.lines.firstIndex(of: best) {
                actions += handle(.select(at), at: now)
            } else {
                return handle(.move(by: -Int(Int32.max), wraps: false), at: now)
            }
        case .raw(let on):
            guard on != raw else { break }
            var line = highlighted
            if !on, let shown, shown.matched != nil, !matches(at: selection) {
                // Leaving raw mode on a dimmed line: the highlight goes to the nearest match
                // (below first), as fzf's.
                line = nil
                for distance in 1..<max(shown.lines.count, 1) {
                    if let at = [selection + distance, selection - distance].first(where: { matches(at: $0) }) {
                        line = shown.lines[at]
                        break
                    }
                }
            }
            if !on, let matched = shown?.matched {
                // A mark on a line not matching goes with raw mode.
                let kept = marks.filter { matched.contains($0) }
                if kept.count != marks.count {
                    marks = kept
                    markSet = Set(kept)
                    marksVersion += 1
                }
            }
            raw = on
            actions += beginGeneration(.queryEdited(tracking: line), at: now)
        case .multi(let limit):
            let wanted = (multi: limit != 0, limit: limit ?? 0)
            if settings.multi && (wanted.multi, wanted.limit) != (settings.multi, settings.multiLimit) {
                marks = []
                markSet = []
                marksVersion += 1
            }
            settings.multi = wanted.multi
            settings.multiLimit = wanted.limit
            needsDraw = true
        case .track(let change):
            switch change {
            case .toggleAll: if !tracksCurrent { tracksAll.toggle() }
            case .current: if !tracksAll { tracksCurrent = true }
            case .noCurrent: tracksCurrent = false
            case .toggleCurrent: if !tracksAll { tracksCurrent.toggle() }
            case .unblock: break
            }
            if change != .current { unblockTracking() }
            currentTracked = highlighted
            needsDraw = true
        case .clearMarks:
            if !marks.isEmpty {
                marks = []
                markSet = []
                marksVersion += 1
            }
            needsDraw = true
        }
        // A job run at once answers before anything is drawn; its answer schedules.
        if actions.contains(where: { if case .searchNow = $0 { return true } else { return false } }) {
            return actions
        }
        return actions + schedule(at: now)
    }

    /// How long the event loop may wait for a key before the session has something to do
    /// (ms; nil: until something happens).
    public func wait(at now: Int) -> Int? {
        var timeout: Int? = nil
        func soonest(_ ms: Int) {
            let ms = max(1, ms)
            timeout = min(timeout ?? ms, ms)
        }
        let held = holdsFirstList(at: now) || waitsForSearch(at: now)
        if needsDraw && !held { soonest(Tunables.Session.frameInterval - (now - lastDraw)) }
        if waitsForSearch(at: now) { soonest(Tunables.Session.staleFrameHold - (now - searchStarted)) }
        if isBusy { soonest(Tunables.Session.spinnerInterval) }
        if holdsFirstList(at: now) { soonest(startedAt + Tunables.Session.firstListHold - now) }
        return timeout
    }

    /// Whether the spinner has something to show: input loading (a reload's too) or a
    /// search running.
    public var isBusy: Bool { isSearching || isLoading || isReloading }

    /// Whether close matches are due for the list and have not come yet (the list does
    /// not say "no matches" meanwhile; no spinner: they come within a frame or two).
    public var awaitsCloseMatches: Bool { wantsCloseMatches && closeGeneration != generation }

    /// Whether the current query's complete result leaves rows of the list empty that
    /// close matches could fill. Not while input loads: each search of the lines that
    /// arrived would stop them, and they would take the cores from loading.
    private var wantsCloseMatches: Bool {
        guard mayHaveTypo, !raw, !isLoading, resultGeneration == generation, let shown, shown.isComplete else { return false }
        return shown.lines.count - shown.closeMatches < listHeight
    }

    private func closeMatchesJob() -> SearchJob {
        let real = Array((shown?.lines ?? []).dropLast(shown?.closeMatches ?? 0))
        return SearchJob(generation: generation, text: queryText ?? "",
                         kind: .closeMatches(excluding: real, scope: scope, limit: max(1, listHeight - real.count)))
    }

    // MARK: Accepting

    /// What Return prints: the marked lines; the highlighted line once the person moved;
    /// otherwise the first line of the whole ranking of every line read — the line
    /// `pick --filter` prints first for the same input.
    public func accept() -> AcceptDecision {
        // Moves (and marks) typed ahead of the list the highlight's line is looked for in are
        // made on it; moves waiting for the whole ranking, on it.
        if !movesAhead.isEmpty || !pendingMoves.isEmpty {
            return .searchFirst(SearchJob(generation: generation, text: searchedText, kind: .whole, raw: raw))
        }
        if settings.multi && !marks.isEmpty { return .lines(marks) }
        if moved && !raw { return highlighted.map { .lines([$0]) } ?? .nothing }
        let current = resultGeneration == generation && result.map { $0.isComplete && $0.searched >= candidates } == true
        guard current else {
            return .searchFirst(SearchJob(generation: generation, text: searchedText, kind: .whole, raw: raw))
        }
        // Raw mode: the line under the highlight, matching or not, as fzf's.
        if raw { return highlighted.map { .lines([$0]) } ?? .nothing }
        if awaitsCloseMatches && settings.forgivesTypos { return .searchFirst(closeMatchesJob()) }
        return highlighted.map { .lines([$0]) } ?? .nothing
    }

    /// The job that ranks every line read, when the list does not show that yet (nil once
    /// it does): marking all the matches needs them all.
    public func wholeResultJob() -> SearchJob? {
        let current = resultGeneration == generation && result.map { $0.isComplete && $0.searched >= candidates } == true
        return current ? nil : SearchJob(generation: generation, text: searchedText, kind: .whole, raw: raw)
    }

    /// What Tab needs run first when the suggestions for the query as it is now have not
    /// come yet: the whole ranking, if the list does not show it, else the suggestions.
    /// Nil once they are in. The picker runs each job at once and sends its answer.
    public func completionJob() -> SearchJob? {
        guard suggestionGeneration != generation else { return nil }
        guard resultGeneration == generation, result?.isComplete == true else {
            return SearchJob(generation: generation, text: searchedText, kind: .whole, raw: raw)
        }
        return suggestionsJob()
    }

    private func suggestionsJob() -> SearchJob {
        // A large list's matches, or a first screen's whose rest waits, are the engine's to
        // give (every line the list would show: scope All, no close matches among so many).
        let large = shown.map { !$0.isComplete || $0.lines.count >= Tunables.Picker.suggestionsFromMatches } ?? false
        if large && scope == 0 && !raw {
            return SearchJob(generation: generation, text: searchedText, kind: .suggestions(matches: nil, scope: scope))
        }
        return SearchJob(generation: generation, text: searchedText,
                         kind: .suggestions(matches: (shown?.lines ?? []).filter { shown?.matched?.contains($0) ?? true },
                                            scope: scope))
    }

    // MARK: Policy

    private func holdsFirstList(at now: Int) -> Bool {
        isLoading && now - startedAt < Tunables.Session.firstListHold
    }

    /// Whether a frame would show an older query's result while the current one's search
    /// has only just started.
    /// (An older query's list does not wait: the editor has already shown the new query,
    /// and the frame lists only the rows that match it, FrameInput.showsOlderQuery.)
    private func waitsForSearch(at now: Int) -> Bool {
        isSearching && resultGeneration != generation && !showsOlderQuery
            && now - searchStarted < Tunables.Session.staleFrameHold
    }

    /// Searches again when the input grew, and draws when a frame is due.
    private mutating func schedule(at now: Int) -> [SessionAction] {
        var actions: [SessionAction] = []
        if searchDeferred {
            if !holdsFirstList(at: now) { actions += startSearch(at: now) }
        } else if queryText != nil, !isSearching, inputLines != searchedLines,
                  !(isLoading && now - searchStarted < Tunables.Session.refreshInterval) {
            actions += startSearch(at: now)
        }
        if actions.contains(where: { if case .searchNow = $0 { return true } else { return false } }) {
            return actions
        }
        // Nothing is drawn before the editor has told the query.
        guard queryText != nil else { return actions }
        let loadedFrameDue = !drewLoaded && !isLoading && !isSearching && searchedLines == inputLines
        // A query's first frame goes out at once, with the old list's rows that match it.
        let queryDue = showsOlderQuery && drawnGeneration != generation
        let answerDue = queryDue || resultGeneration == generation
            && (drawnResult != generation || (suggestionGeneration == generation && drawnSuggestions != generation)
                || (closeGeneration == generation && drawnClose != generation))
        if needsDraw && !holdsFirstList(at: now) && !waitsForSearch(at: now)
            && (now - lastDraw >= Tunables.Session.frameInterval || loadedFrameDue || answerDue) {
            if loadedFrameDue { drewLoaded = true }
            actions.append(.draw)
        }
        return actions
    }

    /// What ends a generation of the list: the one reason `beginGeneration` takes.
    enum GenerationChange {
        /// The query was edited (or the ranking changed under it); with `--track`, the line
        /// whose new place the answer says.
        case queryEdited(tracking: Int32?)
        /// The same query searched again: sort or search toggled, lines excluded, the
        /// searched fields changed (change-nth).
        case searchAgain
        /// The store was replaced (a reload): its line numbers are not the old store's.
        case inputReplaced
    }

    /// The one reset: a new generation, and everything derived from the old one cleared —
    /// close matches, a move waiting for the whole ranking, the scroll, the highlight
    /// (unless `--track` follows a line), and for a new store every line number of the old
    /// one (result, marks, suggestions). Searches for the new generation unless the input
    /// was replaced (the store's lines come first).
    private mutating func beginGeneration(_ change: GenerationChange, at now: Int) -> [SessionAction] {
        generation += 1
        closeMatches = []
        closeGeneration = -1
        closeAsked = -1
        needsDraw = true
        // A line number of the old list is followed no further (a text or a row is), but
        // for the line moves typed ahead are to start from: the highlight has not left it.
        let awaited: Int32? = if case .line(let line)? = tracker.anchor, !movesAhead.isEmpty { line } else { nil }
        if awaitsLine { tracker.anchor = nil }
        if case .queryEdited(_?) = change {} else if !movesAhead.isEmpty {
            // No line to follow into the new list: the moves are made where the highlight is
            // (as far as the list shown holds them: the old query's rest is not ranked now).
            makeMovesAhead()
        }
        pendingMoves = []
        switch change {
        case .queryEdited(let line?):
            let line = awaited ?? line
            trackedRow = max(0, selection - scroll)
            tracker.anchor = .line(line)
            scroll = 0
        case .queryEdited(nil) where settings.keepsRow:
            // The row stays, and the list's scroll (the frame keeps the highlight in view).
            break
        default:
            scroll = 0
            selection = 0
            moved = false
        }
        guard case .inputReplaced = change else { return startSearch(at: now) }
        frozenText = ""
        inputLines = 0
        isLoading = true
        searchedLines = -1
        result = nil
        shown = nil
        resultGeneration = -1
        marks = []
        markSet = []
        isSearching = false
        drewLoaded = false
        suggestions = []
        suggestionGeneration = -1
        suggestionsAsked = -1
        restAsked = -1
        refineAsked = -1
        return []
    }

    private mutating func startSearch(at now: Int) -> [SessionAction] {
        if holdsFirstList(at: now) {
            searchDeferred = true
            return []
        }
        searchDeferred = false
        searchStarted = now
        searchedLines = inputLines
        let text = searchedText
        if text.isEmpty && !isLoading && inputLines <= settings.listedAtOnce {
            // No query, all input in: the lines in input order, listed here.
            return [.searchNow(SearchJob(generation: generation, text: text, kind: .whole))]
        }
        isSearching = true
        // Raw mode lists every line: its first screen needs every match found.
        return [.search(SearchJob(generation: generation, text: text, kind: raw ? .whole : .firstRows(listHeight), raw: raw))]
    }

    /// After a frame: the rest of a first-rows ranking, then the suggestions.
    private mutating func askForMore() -> [SessionAction] {
        guard resultGeneration == generation, let result, !isSearching else { return [] }
        let text = searchedText
        if !result.isComplete && !defersWholeRanking {
            guard restAsked != generation else { return [] }
            restAsked = generation
            return [.search(SearchJob(generation: generation, text: text, kind: .whole, raw: raw))]
        }
        if awaitsCloseMatches {
            guard closeAsked != generation else { return [] }
            closeAsked = generation
            return [.search(closeMatchesJob())]
        }
        if suggestionGeneration != generation {
            guard suggestionsAsked != generation else { return [] }
            suggestionsAsked = generation
            return [.search(suggestionsJob())]
        }
        // (On a large input a whole ranking's values are exact, and the refinement notes the
        // next key's rests: `LineBounds.rests`.)
        // (Not for the empty query: its list of every line takes as much memory as the rests.)
        guard defersWholeRanking
                || result.isComplete && !text.isEmpty && inputLines >= settings.notesRestsFromLines,
              refineAsked != generation else { return [] }
        refineAsked = generation
        return [.search(SearchJob(generation: generation, text: text, kind: .refineBounds))]
    }

    /// Lets first screens of `matches` matches or more stand without their rest
    /// (`Settings.defersRankingFromMatches`).
    public mutating func defersRankingFrom(_ matches: Int) { settings.defersRankingFromMatches = matches }

    /// Whether the current query's first screen stands without its whole ranking: at ten
    /// million lines ranking every match costs about a second of both cores and more memory
    /// than the bounds (bench/NOTES.md), for rows nobody may look at. The first screen's
    /// rows are the whole ranking's first (`SearchEngine.search(_:firstRows:)`) and the count
    /// is every match's; the whole ranking is run when something needs it: a move past the
    /// rows shown, Return (what `--filter` prints first), select-all, Tab before the
    /// suggestions came. Not while the highlight waits to find its line in the list
    /// (`--track`, a reload's), nor in raw mode, nor when marks must match the whole list.
    public var defersWholeRanking: Bool {
        guard resultGeneration == generation, let result, !result.isComplete, !raw, !marksMustMatch,
              tracker.anchor == nil, pendingMoves.isEmpty else { return false }
        return result.matchCount >= settings.defersRankingFromMatches
    }

    private mutating func take(_ answer: SearchAnswer) -> [SessionAction] {
        switch answer {
        case .result(let answered, let new):
            guard answered == generation else { return [] }
            isSearching = false
            // Close matches are looked for again for the new result (the old ones show
            // until they come).
            closeAsked = -1
            if closeGeneration == generation { closeGeneration = -1 }
            adopt(new)
            if marksMustMatch && new.isComplete { dropMarksNotMatched(by: new) }
            if (queryText ?? "").isEmpty {
                suggestions = []
                suggestionGeneration = generation
            }
            needsDraw = true
            let ranksWhole = makePendingMoves()
            if !ranksWhole.isEmpty { return ranksWhole }
            // The whole ranking after a first screen already drawn looks the same on
            // screen: the suggestions need not wait for it to be drawn again.
            if new.isComplete && drawnResult == generation { return askForMore() }
        case .suggestions(let answered, let answeredScope, let list):
            guard answered == generation, answeredScope == scope else { return [] }
            suggestions = list
            suggestionGeneration = generation
            needsDraw = true
        case .closeMatches(let answered, let answeredScope, let lines):
            guard answered == generation, answeredScope == scope else { return [] }
            closeMatches = lines
            closeGeneration = generation
            let previous = moved ? highlighted : nil
            show()
            placeHighlight(previous: previous, sameQuery: true)
            needsDraw = true
        }
        return []
    }

    private mutating func noteListed() {
        if let result, !result.lines.isEmpty || !isLoading { listedOnce = true }
    }

    /// Takes a new result for the current query; the highlight goes where the tracker says.
    private mutating func adopt(_ new: SearchResult) {
        let sameQuery = resultGeneration == generation
        let previous = moved && sameQuery ? highlighted : nil
        // The row the person moved to on an older query's list, which this one's keeps.
        let rowKept = !sameQuery && moved && tracker.anchor == nil ? selection : nil
        result = new
        noteListed()
        resultGeneration = generation
        resultText = searchedText
        show()
        placeHighlight(previous: previous, sameQuery: sameQuery)
        // Past the rows of a first screen, the row waits for the whole ranking, as a move
        // past them does (clamped to the first screen, it would be its last row).
        if let rowKept, rowKept > selection, shown?.isComplete == false {
            pendingMoves.insert(.move(delta: rowKept - selection, wraps: false, toMatch: false), at: 0)
        }
    }

    /// Makes the moves that wait (`pendingMoves`), in order, as far as the list shown holds
    /// them. A move past the rows of a list not complete waits for the whole ranking, and
    /// the moves after it with it: a first screen's last row is not the list's (fzf moves
    /// over every match). The current query's whole ranking is run at once; while its list
    /// is still to come, an older query's shown, the moves wait for it to come first.
    private mutating func makePendingMoves() -> [SessionAction] {
        while let next = pendingMoves.first {
            if case .move(let delta, _, _) = next, let shown, !shown.isComplete,
               selection + delta < 0 || selection + delta >= shown.lines.count {
                guard resultGeneration == generation else { return [] }
                return [.searchNow(SearchJob(generation: generation, text: searchedText, kind: .whole, raw: raw))]
            }
            pendingMoves.removeFirst()
            switch next {
            case .move(let delta, let wraps, true): moveToMatch(by: delta, wraps: wraps)
            case .move(let delta, let wraps, false): move(by: delta, wraps: wraps)
            case .toggleMark: toggleMark()
            }
        }
        return []
    }

    /// The one place the highlight follows its line when the list changes (HighlightTracker).
    private mutating func placeHighlight(previous: Int32?, sameQuery: Bool) {
        guard let shown else { return }
        let followed: Int32? = if case .line(let line)? = tracker.anchor { line } else { nil }
        (selection, moved) = tracker.place(in: shown.lines, complete: shown.isComplete, loading: isLoading,
                                           query: queryText ?? "", sameQuery: sameQuery, previous: previous,
                                           selection: selection, moved: moved, keepsRow: settings.keepsRow)
        // A reload found track-current's line: it follows the line under its new number.
        if tracksCurrent, tracker.foundText { currentTracked = highlighted }
        if let followed, tracker.anchor == nil {
            if highlighted == followed {
                // Found: on the row of the screen it was on (the frame keeps it in view).
                scroll = max(0, selection - trackedRow)
            } else if tracksCurrent {
                // Gone: track-current ends, the highlight on the same row of the screen (fzf's).
                selection = min(trackedRow, max(0, shown.lines.count - 1))
                moved = selection != 0
                scroll = 0
            }
        }
        // track-current ends once its line is gone from the whole list, as fzf's.
        if tracksCurrent, shown.isComplete, highlighted != currentTracked { tracksCurrent = false }
        // A reload's tracking holds the picker until its line is found or known gone.
        if trackBlocked, tracker.anchor == nil { unblockTracking() }
        if !awaitsLine { makeMovesAhead() }
    }

    /// The moves typed while the highlight's line was looked for, made from where it is now
    /// (`makePendingMoves`: past a first screen's rows, once the whole ranking is in).
    private mutating func makeMovesAhead() {
        pendingMoves += movesAhead
        movesAhead = []
        _ = makePendingMoves()
    }

    /// up-match and down-match: in raw mode, past the dimmed lines to the next match (the
    /// highlight stays when there is none); otherwise as up and down.
    private mutating func moveToMatch(by delta: Int, wraps: Bool) {
        guard raw, let shown, shown.matched != nil, !shown.lines.isEmpty else { return move(by: delta, wraps: wraps) }
        let start = selection
        var steps = 0
        repeat {
            let before = selection
            move(by: delta, wraps: wraps)
            steps += 1
            if selection == before { break }
        } while !matches(at: selection) && steps < shown.lines.count
        if !matches(at: selection) { selection = start }
    }

    /// A reload starts while the highlight follows its line (`--track`, track-current) by
    /// the fields of `--id-nth`: the picker holds (`trackBlocked`) until the reload's lines
    /// say where the line went. False when nothing is followed.
    @discardableResult
    public mutating func blockTracking() -> Bool {
        guard tracks, highlighted != nil else { return false }
        trackBlocked = true
        needsDraw = true
        return true
    }

    /// The hold of a reload's tracking ends: its line is looked for no further.
    private mutating func unblockTracking() {
        guard trackBlocked else { return }
        trackBlocked = false
        if case .text? = tracker.anchor { tracker.anchor = nil }
        needsDraw = true
    }

    /// The list is about to change under the highlight (a reload, change-nth): its line's
    /// text (`text`, as read; with `identity`, those fields of it) is looked for in `lines`,
    /// the lines as read of the list to come; without it, the highlight keeps its place
    /// (HighlightTracker).
    public mutating func followHighlight(text: [UInt8]?, in lines: LineStore, identity: LineIdentity? = nil) {
        tracker.anchor = text.map { .text($0, lines: lines, row: selection, query: queryText ?? "", identity: identity) }
    }

    /// Highlights this row once the list has lines (clamped to it): a move right after a
    /// reload, the row exclude leaves (asked for once the list is searched again). When the
    /// current query's list is in already, at once.
    public mutating func highlightOnceListed(row: Int) {
        tracker.anchor = .row(row)
        guard resultGeneration == generation, shown?.lines.isEmpty == false else { return }
        placeHighlight(previous: moved ? highlighted : nil, sameQuery: true)
        needsDraw = true
    }

    /// Sets what the list shows: the result in the scope, and after a complete one the
    /// close matches that are not (or no longer) matches, as a group of their own.
    private mutating func show() {
        guard let result else { return }
        var list = Scopes.filter(result, to: scope)
        if list.isComplete && !closeMatches.isEmpty {
            let real = Set(list.lines)
            let close = closeMatches.filter { !real.contains($0) }
            if !close.isEmpty {
                list.groups.append(SectionGroup(section: SectionGroup.closeMatches,
                                                range: list.lines.count..<list.lines.count + close.count))
                list.lines += close
                list.closeMatches = close.count
            }
        }
        shown = list
    }

    private mutating func move(by delta: Int, wraps: Bool) {
        needsDraw = true
        let count = shown?.lines.count ?? 0
        guard count > 0 else { return }
        if !pointsAtLine {
            // The first key that moves points at the close match the selection rests on.
            moved = true
            return
        }
        var next = selection + delta
        if settings.cycle && wraps && abs(delta) == 1 {
            next = (next % count + count) % count
        } else {
            next = max(0, min(count - 1, next))
        }
        if next != selection {
            moved = true
            tracksCurrent = false
        }
        selection = next
    }

    private mutating func changeMarks(_ change: MarkChange) {
        needsDraw = true
        let before = marks.count
        defer { if marks.count != before || change == .invert { marksVersion += 1 } }
        // Real matches only: close matches are marked one by one, as the person points;
        // in raw mode, the dimmed lines likewise.
        var lines = Array((shown?.lines ?? []).dropLast(shown?.closeMatches ?? 0))
        if let matched = shown?.matched { lines = lines.filter { matched.contains($0) } }
        if change == .none {
            // deselect-all: the lines listed (clear-multi: every line).
            let listed = Set(lines)
            marks = marks.filter { !listed.contains($0) }
            markSet = Set(marks)
            return
        }
        var added = lines.filter { !markSet.contains($0) }
        if change == .invert {
            let listed = Set(lines)
            marks = marks.filter { !listed.contains($0) }
            markSet = Set(marks)
        }
        if settings.multiLimit > 0 { added = Array(added.prefix(max(0, settings.multiLimit - marks.count))) }
        marks += added
        markSet.formUnion(added)
    }

    /// A reload-sync read whole (with `--multi` and `--id-nth`): the lines of `lines` whose
    /// key is one of `keys` (the marked lines' when it started) are marked, in the order
    /// those were (fzf's), as many as `--multi=MAX` allows.
    public mutating func markAgain(keys: [[UInt8]], in lines: LineStore, identity: LineIdentity) {
        guard settings.multi, !keys.isEmpty else { return }
        var order: [[UInt8]: Int] = [:]
        for (k, key) in keys.enumerated() where order[key] == nil { order[key] = k }
        var found: [(order: Int, line: Int32)] = []
        var index = settings.headerLines
        while index < lines.count, !order.isEmpty {
            if let k = order.removeValue(forKey: identity.key(of: lines.bytes(of: index))) { found.append((k, Int32(index))) }
            index += 1
        }
        var again = found.sorted { $0.order < $1.order }.map(\.line)
        if settings.multiLimit > 0 { again = Array(again.prefix(settings.multiLimit)) }
        guard !again.isEmpty else { return }
        marks = again
        markSet = Set(again)
        marksVersion += 1
        needsDraw = true
    }

    /// change-with-nth changed what the lines show: once the list searched again is whole,
    /// a marked line it does not match is unmarked (fzf's; a query edit keeps such marks).
    public mutating func dropMarksNotMatchingOnceSearched() {
        if !marks.isEmpty { marksMustMatch = true }
    }

    private mutating func dropMarksNotMatched(by result: SearchResult) {
        marksMustMatch = false
        let matched = result.matched ?? Set(result.lines.dropLast(result.closeMatches))
        let kept = marks.filter { matched.contains($0) }
        guard kept.count != marks.count else { return }
        marks = kept
        markSet = Set(kept)
        marksVersion += 1
        needsDraw = true
    }

    /// change-header-lines: the first `count` lines are the header now (marks on them are
    /// dropped, as fzf drops them); the list is then searched again (`.searchAgain`).
    public mutating func changeHeaderLines(_ count: Int) {
        settings.headerLines = max(0, count)
        marks.removeAll { Int($0) < count }
        markSet = Set(marks)
    }

    private mutating func toggleMark() {
        needsDraw = true
        guard let line = highlighted else { return }
        if markSet.contains(line) {
            markSet.remove(line)
            marks.removeAll { $0 == line }
            marksVersion += 1
        } else if settings.multiLimit == 0 || marks.count < settings.multiLimit {
            markSet.insert(line)
            marks.append(line)
            marksVersion += 1
        }
    }
}
