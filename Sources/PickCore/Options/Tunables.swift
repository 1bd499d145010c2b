// pick's tunables: every threshold, limit and size that a decision depends on, named for
// what it means, in one place (as fzy keeps its own in config.h). A figure that means two
// things is two constants, even when they are equal today.
//
// One nested enum per part of pick. Each constant says what it governs and why it has the
// value it has; measurements behind a value are in bench/NOTES.md, not here.

/// pick's tunables, grouped by the part of pick they govern.
public enum Tunables {
    /// The search engine: how a search splits its work, what it keeps for the next one.
    public enum Search {
        /// Inputs with at least this many lines keep `LineBounds` (6 bytes a line), which
        /// let a keystroke rank its first screen without scoring every line. Below it a
        /// search is quick anyway.
        public static let boundsFromLines = 1 << 18

        /// Bounds of at least this many lines note each line's rest while idle (8 bytes a
        /// line more), from which a key that adds a letter checks and bounds lines without
        /// reading them. Below it (a million lines: 4-12 ms a key) it buys nothing to see.
        public static let restsFromLines = 1 << 22

        /// The most lines a worker claims at once. Each worker sorts its chunk's hits, and
        /// the sorted chunks are merged at the end.
        static let chunkLines = 1 << 15
        /// A search over fewer lines is cut in about this many chunks (but no smaller than
        /// `leastChunkLines`), so that the last chunk claimed leaves the other cores idle
        /// only briefly. More chunks cost more in merging their runs than they win in balance
        /// (bench/NOTES.md).
        static let chunksPerSearch = 16
        static let leastChunkLines = 1 << 11

        /// A chunk's lines go through `OrderFilter` in samples of this many: once half of
        /// a sample passes, the scorer's own check (or the bounds') is the cheaper and the
        /// chunk stops asking. Small beside a chunk, large enough not to stop on one folder
        /// of matching paths.
        static let orderFilterSample = 1 << 9

        /// Hits from which the merge of the sorted chunks runs in two halves at once (on
        /// two cores), split at a pivot.
        static let halvedMergeFromHits = 1 << 16

        /// The idle refinement of bounds (`SearchEngine.refineBounds`) claims this many words
        /// of 64 lines at a time, and checks between them whether to stop: a few
        /// milliseconds of one core, so a keystroke waits no longer than that.
        static let refinedWords = 1 << 10

        /// How many earlier searches are remembered (for a backspace, and for narrowing).
        static let rememberedSearches = 8
        /// The most line indexes (4 bytes each) all remembered searches may hold together,
        /// and the least: the budget is one index per input line between the two.
        static let memoryBudget = 1_500_000
        static let leastMemoryBudget = 1 << 16
        /// On an input of at least `trimsFromLines` lines, a remembered search over the
        /// budget first keeps only its first `trimmedRows` rows (answering a repeated
        /// query's first screen at once) before it is forgotten. On smaller inputs, searching
        /// again takes a few milliseconds, and old searches are simply forgotten.
        static let trimsFromLines = 1 << 18
        static let trimmedRows = 512
    }

    /// The line store: how input is held in memory.
    public enum Store {
        /// Input is read into blocks of this size, the first `smallBlocks` of them; later
        /// blocks are `largeBlockBytes`, on huge pages, which cuts the page faults of
        /// loading a large input.
        static let blockBytes = 1 << 20
        static let largeBlockBytes = 1 << 23
        static let smallBlocks = 4
        /// The least free space a read is given (`LineStore.writableSpace`).
        static let leastFreeBytes = 1 << 16

        /// `PagedArray` (the records of lines, among others): elements per page, as a
        /// power of two. A page is the unit of growth: growth never copies.
        static let pageShift = 14
        /// The most pages an array can have: its directory, mapped and filled on demand,
        /// has a slot for each. With `pageShift` this caps an array, and so an input, at
        /// 2^32 lines.
        static let maxPages = 1 << 18
        /// The first pages of an array are allocated alone, so that small inputs stay
        /// small; the rest are carved from regions of `regionBytes`.
        static let smallPages = 8
        static let regionBytes = 1 << 23
    }

    /// The picking session (`PickSession`): when it searches and draws. Milliseconds.
    public enum Session {
        /// The shortest time between two frames (about 60 a second).
        public static let frameInterval = 16
        /// After start, while input still loads, how long the list waits for it: a file
        /// that loads within a frame's time shows whole, not in pieces.
        public static let firstListHold = 16
        /// How long a frame of an older query's result waits for the new one (longer, and
        /// the typed character itself would seem slow to appear).
        public static let staleFrameHold = 60
        /// A frame of an older query's result lists only its rows that match the current
        /// query, checking at most this many screens of them (a bounded check per frame).
        public static let staleRowsChecked = 4
        /// A wrapped line at the list's far end (the bottom layout) shows its last rows, so
        /// it is wrapped from its start: as far as this many bytes, a frame's worth of work
        /// (a longer one, a minified file, shows as if it ended there).
        public static let wrappedLineBytes = 1 << 18
        /// While input streams in, how often the query is searched again.
        public static let refreshInterval = 100
        /// How often the spinner turns while something is busy.
        public static let spinnerInterval = 100
        /// Inputs up to this many lines are listed for an empty query on the event loop
        /// (a few milliseconds), quicker than a round trip through the search thread.
        public static let listedAtOnceLines = 1 << 20
        /// A first screen of at least this many matches stands without its whole ranking
        /// until something needs it (`PickSession.defersWholeRanking`): at ten million lines
        /// the whole ranking after every key cost more than the key itself and set the peak
        /// RSS (bench/NOTES.md); below this it is quick enough to follow every key. (The
        /// environment's `PICK_DEFER_RANKING_FROM` sets it, for the end-to-end tests.)
        public static let defersRankingFromMatches = 2_000_000
    }

    /// Close matches (CloseMatches.swift).
    public enum Typos {
        /// The fewest characters a term must have to carry a typo: a shorter term less one
        /// character (two letters) is in nearly every line.
        public static let leastTermCharacters = 4
        /// The most bytes a term may have to carry a typo: a pasted line is no typed word,
        /// and a longer term would try as many variants on every line.
        public static let longestTermBytes = 64
        /// Two characters this far apart or less, exchanged, are one typo (`ramdon` for
        /// `random`: 3); adjacent ones are a character left out (CloseMatches.swift).
        /// Farther, a word of six letters has a dozen readings more.
        public static let farthestSwap = 3
        /// Lines a worker claims at once while looking for close matches: small enough
        /// for both cores to finish together, large enough that claiming costs nothing.
        static let chunkLines = 1 << 12
    }

    /// The interactive picker around the session.
    public enum Picker {
        /// Suggestions offered for the query (Tab, the ghost text) and printed by
        /// `--complete` unless `--limit` says otherwise.
        public static let suggestions = 6
        /// Suggestions the ranker is asked for to find the picker's completions: several
        /// may complete alike (files under one folder all give `Sources/`).
        public static let suggestionsLookedAt = 32
        /// Suggestions for a large list come from the first this many lines the query
        /// matched, in input order (`SearchEngine.matchedLines`), not from all of them: ten
        /// million matches, copied and put in order, took longer than the keystroke.
        public static let suggestionsFromMatches = 1 << 17
        /// Queries a `--history` file keeps.
        public static let historyEntries = 1000
        /// Two clicks on a line within this many milliseconds pick it.
        public static let doubleClickMillis = 500
        /// With `--height=~N`, how long the picker waits for the input to end or outgrow N
        /// before it takes all N rows (fzf waits as long as it takes).
        public static let adaptiveHeightWaitMillis = 150
        /// After `fg`, how long pick watches the terminal's mode for the shell changing it,
        /// and how often it looks meanwhile.
        public static let resumeWatchMillis = 1000
        public static let resumeWatchIntervalMillis = 20
        /// How long pick waits for the terminal to say where its cursor is, at start, and
        /// at exit for an answer still on its way.
        public static let cursorReportMillis = 150
        public static let lateCursorReportMillis = 100
    }

    /// The built-in path previewer (`pick --preview-builtin PATH`), started on every focus
    /// change: it reads little and stops early.
    public enum PathPreview {
        /// The most bytes read from the start of a file: its first lines, and the sample that
        /// tells text from binary.
        public static let readBytes = 64 << 10
        /// Lines of a file (or entries of a directory) shown when `PICK_PREVIEW_LINES` asks
        /// for fewer or is not set: enough to scroll through in a pane of any height.
        public static let leastLines = 100
        /// The most lines shown, whatever `PICK_PREVIEW_LINES` says.
        public static let mostLines = 10_000
        /// A sample with more than this percentage of its bytes in invalid UTF-8 is binary
        /// (a NUL byte alone makes it so). Random bytes have about 40% invalid; a Latin-1
        /// text's accented letters stay well below, even in a short line like `café`.
        public static let binaryInvalidPercent = 30
    }

    /// The preview pane (`--preview`): when its command runs, what of its output is kept.
    public enum Preview {
        /// While the focus keeps moving, at most one preview command starts in this many
        /// milliseconds (for the line focused then); after a quiet spell the next starts at once.
        public static let startIntervalMillis = 40
        /// How long the new command may write nothing before the pane, which keeps the last
        /// line's text until the new one comes, marks that text as loading (sooner, and
        /// every quick command's pane would flicker with the mark).
        public static let staleTextMillis = 200
        /// Output lines kept (the first ones, or the last with `follow`): what the pane can
        /// scroll through. A command that has written this many is ended, its pipe closed.
        public static let keptLines = 10_000
        /// Output bytes read (a command that has written this many is ended, as above), and
        /// the most kept of any one line.
        public static let keptBytes = 4 << 20
        public static let lineBytes = 64 << 10
        /// How often a preview reader whose command is silent looks whether the command went
        /// stale: how long a replaced command may linger.
        public static let readerPollMillis = 50
        /// A pane of size 0 runs its command for what it does, not for its output: once the
        /// focus moves on, that command may still finish for this long before it is ended
        /// (fzf, slower to answer keys, lets it; a command that never ends is still ended).
        public static let unseenGraceMillis = 2_000
    }

    /// Reading keys from the terminal.
    public enum Keys {
        /// How long a lone Escape waits for the rest of a sequence (fzy's choice too).
        public static let escapeDelayMillis = 25
        /// How long a paste may fall silent before it is taken as ended (its end marker lost).
        public static let pasteDelayMillis = 500
    }

    /// `--remember NAME`: how memory weighs picks (MemoryRanking.swift), and how its
    /// store stays small and out of the way (Sources/Pick/Memory/MemoryStore.swift).
    public enum Memory {
        /// A pick's weight halves every 30 days (in seconds): a habit fades within a few
        /// months of disuse, and a wrong pick soon counts for little.
        public static let halfLife: Double = 30 * 24 * 3600
        /// The weight at which memory counts half as much as it ever can: one fresh pick.
        public static let halfStrengthWeight: Double = 1
        /// How far above its score memory can lift a remembered line, in score points,
        /// at full strength: for every query (`lineBand`), and for queries it was picked
        /// with, per typed character up to `queryBandCharacters` (the reasons are at the
        /// top of MemoryRanking.swift).
        public static let lineBand: Int32 = 4
        public static let queryBandPerCharacter: Int32 = 8
        public static let queryBandCharacters = 3
        /// A search lifts at most this many remembered lines, those memory lifts most for
        /// its query; others rank as if not remembered. Placing each costs a score and a
        /// binary search by score, on every keystroke (figures: bench/NOTES.md, memory);
        /// a screen shows a few dozen lines.
        public static let liftedLinesPerSearch = 128

        /// A name keeps at most `rowsPerName` rows (a line and a query it was picked
        /// with); past that, the lightest go until `rowsAfterPruning` are left, so that
        /// pruning runs once in a while rather than on every pick. Rows whose weight fell
        /// below `forgottenWeight` (about seven half-lives after a single pick) go then too.
        public static let rowsPerName = 10_000
        public static let rowsAfterPruning = 9_000
        public static let forgottenWeight = 0.01
        /// The picker records an accept of at most this many lines: more (a select-all,
        /// a marked screenful) are no choice of each line, and would crowd out what was
        /// learned; writing them would also hold the exit (seconds for a million).
        public static let linesPerPick = 100
        /// Longer lines are not remembered (they would make the store large), and a
        /// longer query is remembered cut to this many characters.
        public static let longestLine = 4096
        public static let longestQuery = 256

        /// How long pick waits for another process's write to the store: reading for a
        /// pick (never a noticeable delay: past it, pick goes on without memory),
        /// recording a pick as the picker exits, and `--record`, `--forget` (scripts,
        /// where losing a record is worse than waiting). Milliseconds.
        public static let readBusyMillis: Int32 = 100
        public static let pickerRecordBusyMillis: Int32 = 500
        public static let recordBusyMillis: Int32 = 10_000
    }
}

extension Tunables {
    /// Commands pick starts (`ChildProcess`). Milliseconds.
    public enum Children {
        /// How long a command's process group has after SIGTERM to end before SIGKILL: long
        /// enough for a shell to clean up, short enough that a focus change never waits on it.
        public static let terminateGraceMillis = 100
        /// The most of a transform's output pick keeps: actions, a query, a prompt or a
        /// header are short; a command that prints a file must not fill memory.
        public static let transformOutputLimit = 1 << 20
        /// bg-transform…: runs of one action at a time, and of all of them (fzf's 3 and 30):
        /// a key held down must not start a process per repeat.
        public static let backgroundPerAction = 3
        public static let backgroundRuns = 30
        /// How often pick looks whether an `execute-silent` command has ended, while it
        /// watches the keys for ctrl-c (which ends it).
        public static let exitPollMillis = 10
        /// How long keys typed while a key's transform runs wait for it: a quick one (most are)
        /// then acts before them, as fzf's do (ctrl-f and typing on at once in ADVANCED.md's
        /// ripgrep launcher kept the typing, then lost it to transform-query); a slow one
        /// holds the keys no longer than this.
        public static let transformHoldsKeysMillis = 500
        /// The most live commands a crash handler can kill (it reads a fixed table): far
        /// more than run at once (a preview, a reload, a transform).
        public static let crashTableSlots = 256
        /// The longest focused line passed to commands as FZF_CURRENT_ITEM: a huge line
        /// would push the environment past what exec takes, and no command could start
        /// (fzf's limit, the same).
        public static let currentItemBytes = 64 * 1024
    }
}

extension Tunables {
    /// `--tmux`'s popup.
    public enum Popup {
        /// How long pick waits for tmux to name the client the popup would show on before it
        /// opens the picker inline instead (a local tmux answers within milliseconds; a
        /// server that is stopped never does).
        public static let clientQueryMillis = 1000
    }
}

extension Tunables {
    /// `--listen`'s server: what one request may cost it. fzf's protocol is a line of
    /// actions or a GET: every bound is far above what a client of it sends, and low enough
    /// that no client can hold memory or the picker's attention for long.
    public enum Listen {
        /// The most bytes of a POST body: fzf's limit (1 MiB), far more than any chain of actions.
        public static let bodyBytes = 1 << 20
        /// The most bytes of the request line and headers together: curl, Ruby's Net::HTTP and
        /// Python's clients send a few hundred.
        public static let headerBytes = 8 << 10
        /// The most header fields: clients send about five.
        public static let headerFields = 32
        /// How long a client has to send its whole request (not each piece of it, so a
        /// client trickling a byte at a time is cut off too). fzf gives 10 s; a local
        /// client sends its request in well under a millisecond.
        public static let requestMillis = 5_000
        /// How long a response may take to be read by the client before it is dropped.
        public static let responseMillis = 5_000
        /// How long a request waits for the picker to take it (fzf's 2 s): a picker busy
        /// running `execute`'s command answers 503 and the request changes nothing.
        public static let pickerMillis = 2_000
        /// Connections served at once; one more is answered 503 and closed.
        public static let connections = 16
        /// The most rows a GET may ask for (`limit`), and the largest `offset`: bounds the
        /// answer the picker builds for one request.
        public static let stateRows = 100_000
        /// After answering an error before the request was read whole, how long the rest of
        /// it is read and dropped, so that the client gets the answer rather than a reset.
        public static let lingerMillis = 200
    }
}
