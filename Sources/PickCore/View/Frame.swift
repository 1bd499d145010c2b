// What one frame of the picker shows, computed without a terminal.
//
// The terminal layer hands in the search result, the selection and the size, and gets
// back rows to paint: section headers, lines cut to the width with their matched
// characters marked, the shortcut chip when it fits, the info line, and the message that
// takes the list's place when there is nothing to list. Rows are in flow order: the first
// row is next to the prompt (below it with the prompt on top, above it at the bottom).

/// A run of glyphs drawn the same way.
public struct Span: Equatable, Sendable {
    public var text: String
    public var isHighlighted: Bool
    public var isSymbol: Bool
    /// SGR parameters from the input (`--ansi`), or "".
    public var style: String
}

/// A candidate line as it appears in the list.
public struct LineRow: Equatable, Sendable {
    /// The line's index in the store.
    public var line: Int32
    /// Its position in the result list (what the selection counts).
    public var position: Int
    public var isSelected: Bool
    public var isMarked: Bool
    /// Raw mode: the query does not match the line (it is drawn dimmed, unhighlighted).
    public var isUnmatched = false
    /// Jump mode: the key that goes to this row, drawn in the pointer's place.
    public var jumpLabel: Character? = nil
    /// The title, cut to fit (an ellipsis marks a cut).
    public var spans: [Span]
    /// Columns the spans take.
    public var titleColumns: Int
    /// The shortcut chip's text, or nil when the line has none or the row is too narrow.
    public var chip: String?
    /// Whether pressing the key the chip names picks the line; a chip that names no key,
    /// or a key the query editor or pick uses, is drawn as a hint, not as a key.
    public var chipFires = false
    /// Which of its item's rows this is (an item wrapped or of several lines takes more
    /// than one): a marked item's marker is drawn for its place, as fzf's.
    public var part = ItemPart.single
}

/// A row's place in its item, for the marker (`--marker-multi-line`'s three glyphs).
public enum ItemPart: Hashable, Sendable {
    /// The item's only row: `--marker`.
    case single
    case first, middle, last
}

/// One row of the list area.
public enum FrameRow: Equatable, Sendable {
    /// A section header above its group.
    case section(String)
    case line(LineRow)
    /// A row of the gap after an item (`--gap`); `rule`: the gap's last row, with the gap
    /// line.
    case gap(rule: Bool)
}

/// The info line: counts, busy spinner, marks and scopes.
public struct InfoLine: Equatable, Sendable {
    public var matches: Int
    public var total: Int
    /// Input is still arriving or a search is running.
    public var isBusy: Bool
    /// Marked lines (nil without `--multi`).
    public var marked: Int?
    /// The most lines that may be marked (`--multi=N`; 0: no limit).
    public var markLimit = 0
    /// The highlight follows its line as the query changes (`--track`), or one line only
    /// (track-current: `tracksCurrent`).
    public var tracks = false
    public var tracksCurrent = false
    /// A reload's tracking holds the picker (`PickSession.trackBlocked`): said `+T*` (`+t*`).
    public var trackBlocked = false
    /// Whether the list is sorted, said (`+S`, `-S`) when a key toggles it, as fzf does;
    /// nil when none does.
    public var sorts: Bool? = nil
    /// "All" and the section names, empty when no line has a section.
    public var scopes: [String]
    public var scope: Int
    /// `--accessible`: the counts are said in words ("42 matches"), with no spinner glyph.
    public var inWords = false
    /// Close matches listed after the real ones (`matches` counts real ones only).
    public var closeMatches = 0
    /// The current query's count is not known yet (an older query's list is shown): the
    /// count is said as in progress, not as `matches`.
    public var countPending = false
    /// A `wait` holds the chain until the search ends: said ` (..)` after the counts, as fzf.
    public var waits = false
    /// `--info-command`'s last output, drawn in the counts' place (nil: the counts).
    public var commandOutput: StyledText? = nil
    /// The command that listed the input (FZF_DEFAULT_COMMAND), when it failed.
    public var failedCommand: String? = nil

    /// What the info line says in the counts' place when the input's command failed and
    /// nothing was read (fzf's); nil otherwise.
    public var failure: String? {
        guard let failedCommand, total == 0 else { return nil }
        return "[Command failed: \(failedCommand)]"
    }

    /// The counts as fzf writes them, for `--info-command` (`FZF_INFO`): matches/total,
    /// the marks under --multi, `+S`/`-S`, `+T`/`+t`, ` (..)` while a `wait` holds.
    public var fzfText: String {
        if let failure { return failure }
        var out = "\(matches)/\(max(total, matches))"
        if let marked { out += markLimit > 0 ? " (\(marked)/\(markLimit))" : " (\(marked))" }
        if let sorts { out += sorts ? " +S" : " -S" }
        if tracks { out += trackBlocked ? " +T*" : " +T" } else if tracksCurrent { out += trackBlocked ? " +t*" : " +t" }
        if waits { out += " (..)" }
        return out
    }
}

/// Everything the painter needs for one frame.
public struct Frame: Equatable, Sendable {
    /// Header text (`--header`, `--header-lines`), one entry per row.
    public var headers: [[Span]]
    /// List rows in flow order, at most the list height.
    public var rows: [FrameRow]
    public var info: InfoLine
    /// Said in the list's place when there is nothing to list (no input, no matches).
    public var message: [String]
    /// The first list row shown (keep it for the next frame).
    public var scroll: Int
    /// How many of `headers` are `--header`'s text (the rest are header lines).
    public var headerTextRows = 0

    /// The list positions of the items the rows show, in list order, each once (an item
    /// may take several rows): what jump's labels name, in this order.
    public var positionsListed: [Int] {
        var out: [Int] = []
        for case .line(let row) in rows where out.last != row.position { out.append(row.position) }
        return out
    }
    /// The list rows (in flow order) the scrollbar's thumb spans, or nil when the whole
    /// list fits (`Scrollbar.thumb`, as fzf's).
    public var scrollbar: Range<Int>? = nil
}

/// What the frame is built from.
public struct FrameInput {
    public var width: Int
    /// Rows for the list (section headers included).
    public var listHeight: Int
    /// The result, already narrowed to the scope (nil before the first search ends).
    public var result: SearchResult?
    public var query: Query
    public var queryText: String
    /// Position of the selected line in `result.lines`.
    public var selection: Int
    /// The previous frame's scroll.
    public var scroll: Int
    public var marked: Set<Int32>
    public var multi: Bool
    /// The input's colours (`--ansi`), or nil.
    public var styles: AnsiStyles?
    /// Candidate lines (store lines minus header lines).
    public var total: Int
    public var isLoading: Bool
    public var isSearching: Bool
    public var scopes: [String]
    public var scope: Int
    public var headerText: [String]
    public var headerLines: Int
    /// Section headers come after their group in flow order (prompt at the bottom: the
    /// list grows upward, and a header still reads above its group).
    public var headersFollowGroups = false
    /// Columns before a title (`--pointer` and `--marker`).
    public var gutterWidth = FrameBuilder.gutter
    /// What marks a title cut short (`--ellipsis`).
    public var ellipsis = "··"
    /// `--tabstop`: a tab is blank to the next multiple of this many columns.
    public var tabStop = TerminalText.tabStop
    /// How a line too long for its row is cut (`--hscroll`, `--keep-right`…).
    public var look = ListLook()
    /// `--delimiter`: how `--freeze-left` and `--freeze-right` count fields.
    public var delimiter = FieldDelimiter.blanks
    /// `--scroll-off`: rows kept in view before and after the highlight.
    public var scrollOff = 0
    public var markLimit = 0
    public var tracks = false
    /// `--nth`/`--with-nth`: the store holds derived lines; rows show `FieldView.shown`.
    public var fieldView: FieldView? = nil
    /// Close matches may yet fill the list (CloseMatches.swift): no "no matches" yet.
    public var awaitsCloseMatches = false
    /// The selection points at its line (PickSession.pointsAtLine): the pointer is drawn.
    public var pointsAtSelection = true
    /// `result` is an older query's (PickSession.showsOlderQuery): only its rows that match
    /// `query` are listed, the count is in progress and no "no matches" is said.
    public var showsOlderQuery = false
    /// Jump mode: the labels of the rows, in order from the first one shown.
    public var jumpLabels: [Character]? = nil
    public var tracksCurrent = false
    public var trackBlocked = false
    /// What starts a row a wrapped line goes on over (`--wrap-sign`), safe to draw.
    public var wrapSign = "\u{21B3} "
    /// The list grows upward from the prompt (fzf's default layout): an item's rows are in
    /// flow order from its last, and one cut at the list's far end loses its first rows.
    public var rowsReadUpward = false

    public init(width: Int, listHeight: Int, result: SearchResult?, query: Query, queryText: String,
                selection: Int = 0, scroll: Int = 0, marked: Set<Int32> = [], multi: Bool = false,
                styles: AnsiStyles? = nil, total: Int, isLoading: Bool = false, isSearching: Bool = false,
                scopes: [String] = [], scope: Int = 0, headerText: [String] = [], headerLines: Int = 0) {
        self.width = width
        self.listHeight = listHeight
        self.result = result
        self.query = query
        self.queryText = queryText
        self.selection = selection
        self.scroll = scroll
        self.marked = marked
        self.multi = multi
        self.styles = styles
        self.total = total
        self.isLoading = isLoading
        self.isSearching = isSearching
        self.scopes = scopes
        self.scope = scope
        self.headerText = headerText
        self.headerLines = headerLines
    }
}

extension FrameInput {
    /// The frame of `session` as it stands, drawn as `options` say, for a list of
    /// `listHeight` rows.
    public init(session: PickSession, options: Options, width: Int, listHeight: Int, query: Query,
                scopes: [String], headerText: [String], styles: AnsiStyles?, gutterWidth: Int) {
        self.init(width: width, listHeight: listHeight, result: session.shown, query: query,
                  queryText: session.queryText ?? "", selection: session.selection, scroll: session.scroll,
                  marked: session.markSet, multi: session.settings.multi, styles: styles, total: session.candidates,
                  isLoading: session.isLoading || session.isReloading, isSearching: session.isSearching, scopes: scopes,
                  scope: session.scope, headerText: headerText, headerLines: options.headerLines)
        headersFollowGroups = options.layout == .bottom
        rowsReadUpward = options.layout == .bottom
        wrapSign = options.wrapSignShown
        self.gutterWidth = gutterWidth
        ellipsis = options.ellipsisShown
        tabStop = options.tabStop
        look = session.look
        scrollOff = options.scrollOff
        markLimit = session.settings.multiLimit
        tracks = session.tracksAll
        tracksCurrent = session.tracksCurrent
        trackBlocked = session.trackBlocked
        awaitsCloseMatches = session.awaitsCloseMatches
        pointsAtSelection = session.pointsAtLine
        showsOlderQuery = session.showsOlderQuery
    }
}

/// Builds frames.
public enum FrameBuilder {
    /// Columns before a title by default: the pointer and the mark.
    public static let gutter = 2
    /// A chip is shown only if the title keeps at least this many columns (or all it needs).
    public static let titleColumnsBeforeChip = 16

    public static func build(_ input: FrameInput, store: LineStore) -> Frame {
        let width = max(input.width, 1)
        var headers: [[Span]] = input.headerText.map {
            [Span(text: TerminalText.truncate(TerminalText.sanitize($0), to: width), isHighlighted: false,
                  isSymbol: false, style: "")]
        }
        for line in 0..<min(input.headerLines, store.count) {
            let shown = ShownLine(line, store: store, input: input)
            let glyphs = shown.withBytes(store) {
                TerminalText.glyphs($0, range: shown.fields.title, styles: shown.styles, tabStop: input.tabStop)
            }
            headers.append(fit(glyphs, highlighted: [], columns: width, ellipsis: input.ellipsis).spans)
        }
        let lines = input.result?.lines ?? []
        let groups = input.result?.groups ?? []
        let matches = input.result?.matchCount ?? 0
        var info = InfoLine(matches: matches, total: input.total,
                            isBusy: input.isLoading || input.isSearching || input.result == nil || input.showsOlderQuery,
                            marked: input.multi ? input.marked.count : nil,
                            markLimit: input.multi ? input.markLimit : 0, tracks: input.tracks, tracksCurrent: input.tracksCurrent,
                            scopes: input.scopes, scope: input.scope, closeMatches: input.result?.closeMatches ?? 0)
        info.trackBlocked = input.trackBlocked
        if input.showsOlderQuery {
            info.countPending = true
            info.closeMatches = 0
        }
        let message = self.message(input, matches: matches)
        guard !lines.isEmpty, input.listHeight > 0 else {
            return Frame(headers: headers, rows: [], info: info, message: message, scroll: 0,
                         headerTextRows: input.headerText.count)
        }

        // Logical rows: each group with a section gets a header row before its lines in
        // reading order (after them in flow order when the list grows upward).
        let after = input.headersFollowGroups
        let headed = groups.map { $0.section != 0 }
        let window = ListWindow(input, store: store)
        let selection = min(max(input.selection, 0), lines.count - 1)
        let selectedRow = window.row(of: selection)
        // The first row shown: the highlighted line in view, as fzf's window keeps it.
        let scroll = window.constrain(offset: input.scroll, cursor: selectedRow)

        // Walk the logical rows in the window. An older query's rows are listed only where
        // they match the query on screen, as far as `staleRowsChecked` screens of them.
        let stale = input.showsOlderQuery && !input.query.isEmpty
        let matcher = stale ? LineMatcher(store: store, query: input.query) : nil
        var checksLeft = input.listHeight * Tunables.Session.staleRowsChecked
        func listed(_ line: Int32) -> Bool {
            guard let matcher else { return true }
            checksLeft -= 1
            let i = Int(line)
            return i < store.count && matcher.match(i, matcher.lookAhead(i), next: nil) != nil
        }
        var rows: [FrameRow] = []
        var row = 0
        var itemsListed = 0
        func header(_ group: SectionGroup) -> FrameRow {
            if group.section == SectionGroup.closeMatches { return .section(TerminalText.truncate(CloseMatches.header, to: width)) }
            let name = TerminalText.sanitize(String(decoding: store.sectionName(group.section), as: UTF8.self))
            return .section(TerminalText.truncate(name, to: width))
        }
        outer: for (g, group) in groups.enumerated() {
            let groupRows = group.range.count + (headed[g] ? 1 : 0)
            if row + groupRows <= scroll { row += groupRows; continue }
            let headerAt = rows.count
            var headerDue = false
            if headed[g] && !after {
                if row >= scroll {
                    headerDue = true
                    if rows.count + 1 == input.listHeight && !stale { rows.append(header(group)); break outer }
                }
                row += 1
            }
            let firstPosition = min(group.range.upperBound, group.range.lowerBound + max(0, scroll - row))
            row += firstPosition - group.range.lowerBound
            var listedInGroup = 0
            for position in firstPosition..<group.range.upperBound {
                let line = lines[position]
                if stale && checksLeft <= 0 { break outer }
                guard listed(line) else { row += 1; continue }
                if headerDue {
                    headerDue = false
                    rows.insert(header(group), at: headerAt)
                    if rows.count >= input.listHeight { break outer }
                }
                listedInGroup += 1
                var label: Character? = nil
                if let labels = input.jumpLabels {
                    // fzf's: the items on screen, labelled in order from the first.
                    let index = itemsListed
                    label = index < labels.count ? labels[index] : nil
                }
                itemsListed += 1
                let selected = position == selection && input.pointsAtSelection
                if input.look.spansRows {
                    let itemRows = self.itemRows(Int(line), position: position, selected: selected,
                                                 marked: input.marked.contains(line), current: position == selection,
                                                 input: input, store: store, width: width,
                                                 room: input.listHeight - rows.count)
                    for var itemRow in input.rowsReadUpward ? itemRows.reversed() : itemRows {
                        itemRow.jumpLabel = label
                        rows.append(.line(itemRow))
                    }
                    for k in 0..<input.look.gap where rows.count < input.listHeight {
                        rows.append(.gap(rule: k == input.look.gap - 1))
                    }
                } else {
                    var lineRow = lineRow(Int(line), position: position, selected: selected,
                                          marked: input.marked.contains(line), input: input, store: store, width: width)
                    lineRow.jumpLabel = label
                    rows.append(.line(lineRow))
                }
                row += 1
                if rows.count >= input.listHeight { break outer }
            }
            if headed[g] && after && (!stale || listedInGroup > 0) {
                if row >= scroll {
                    rows.append(header(group))
                    if rows.count >= input.listHeight { break outer }
                }
                row += 1
            }
        }
        if rows.count > input.listHeight { rows.removeLast(rows.count - input.listHeight) }
        // As fzf: items of several rows count as the rows they take on average in view.
        let items = rows.reduce(0) { n, row in
            if case .line(let line) = row, line.part != .single && line.part != .first { return n }
            if case .gap = row { return n }
            return n + 1
        }
        let perLine = input.look.spansRows ? max(1, rows.count / max(1, items)) : 1
        // A first screen holds its best rows only; the thumb is sized for every match, as the
        // whole ranking's will be (which then repaints nothing).
        let unranked = input.result.map { $0.isComplete ? 0 : max(0, $0.matchCount - ($0.lines.count - $0.closeMatches)) } ?? 0
        return Frame(headers: headers, rows: rows, info: info, message: [], scroll: scroll,
                     headerTextRows: input.headerText.count,
                     scrollbar: Scrollbar.thumb(lines: window.count + unranked, height: input.listHeight, first: scroll,
                                                perLine: perLine))
    }

    static func message(_ input: FrameInput, matches: Int) -> [String] {
        guard matches == 0 else { return [] }
        if input.total == 0 {
            return input.isLoading ? ["Reading input…"] : ["No input: nothing was read to choose from."]
        }
        if input.result == nil || input.isSearching || input.awaitsCloseMatches || input.showsOlderQuery { return [] }
        let shown = TerminalText.truncate(TerminalText.sanitize(input.queryText), to: max(8, input.width - 20))
        var lines = ["No matches for \u{201C}\(shown)\u{201D}."]
        if input.scope > 0 && input.scope < input.scopes.count {
            lines.append("Only \u{201C}\(input.scopes[input.scope])\u{201D} is searched: ctrl-s cycles to All.")
        }
        if input.queryText.split(separator: " ").count > 1 {
            lines.append("Every word must match: try fewer words.")
        }
        lines.append("Try fewer letters, or ctrl-u to clear the query.")
        return lines
    }

    static func lineRow(_ line: Int, position: Int, selected: Bool, marked: Bool, input: FrameInput,
                        store: LineStore, width: Int) -> LineRow {
        let shown = ShownLine(line, store: store, input: input)
        return shown.withBytes(store) { bytes in
            lineRow(line, bytes: bytes, shown: shown, position: position, selected: selected, marked: marked,
                    input: input, store: store, width: width)
        }
    }

    private static func lineRow(_ line: Int, bytes: UnsafeBufferPointer<UInt8>, shown: ShownLine, position: Int,
                                selected: Bool, marked: Bool, input: FrameInput, store: LineStore,
                                width: Int) -> LineRow {
        let fields = shown.fields
        let (highlightOffsets, isUnmatched) = highlights(line, shown: shown, position: position, input: input, store: store)
        let highlighted = Set(highlightOffsets)
        // A huge title (a minified file, a log line) is decoded only as far as can show.
        var title = fields.title
        let decoded = max(highlightOffsets.last ?? title.lowerBound, title.lowerBound) + width * 4 + 16
        if input.look.keepRight && input.look.hscroll && highlightOffsets.isEmpty {
            // --keep-right shows the end: decoded from there, from a character's first byte.
            var from = max(title.lowerBound, title.upperBound - width * 4 - 16)
            while from > title.lowerBound && from < title.upperBound && bytes[from] & 0xC0 == 0x80 { from += 1 }
            title = from..<title.upperBound
        } else if decoded < title.upperBound {
            title = title.lowerBound..<decoded
        }
        var frozen: FrozenGlyphs? = nil
        if input.look.freezes {
            frozen = FrozenGlyphs(bytes, title: fields.title, highlights: highlightOffsets, styles: shown.styles,
                                  input: input, width: width)
        }
        let glyphs = frozen.map { $0.left + $0.middle + $0.right }
            ?? TerminalText.glyphs(bytes, range: title, styles: shown.styles, tabStop: input.tabStop)
        let available = width - input.gutterWidth
        var chip: String? = nil
        var chipFires = false
        var titleColumns = available
        if let range = fields.shortcut {
            let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            chipFires = ShortcutKey.firingKey(raw) != nil
            let text = TerminalText.sanitize(raw)
            let chipWidth = TerminalText.width(text) + 2
            let titleWidth = glyphs.reduce(0) { $0 + $1.width }
            if chipWidth + 1 + min(titleWidth, titleColumnsBeforeChip) <= available {
                chip = text
                titleColumns = available - chipWidth - 1
            }
        }
        let fitted = frozen.map { fitFrozen($0, highlighted: highlighted, columns: titleColumns,
                                            ellipsis: input.ellipsis, look: input.look) }
            ?? fit(glyphs, highlighted: highlighted, columns: titleColumns, ellipsis: input.ellipsis,
                   look: input.look)
        var row = LineRow(line: Int32(line), position: position, isSelected: selected, isMarked: marked,
                          spans: fitted.spans, titleColumns: fitted.columns, chip: chip, chipFires: chipFires)
        row.isUnmatched = isUnmatched
        return row
    }

    /// The offsets of the matched characters in the row's text, and whether the query does
    /// not match the line (raw mode: drawn dimmed, nothing highlighted).
    static func highlights(_ line: Int, shown: ShownLine, position: Int, input: FrameInput,
                           store: LineStore) -> (offsets: [Int], isUnmatched: Bool) {
        let isClose = position >= (input.result.map { $0.lines.count - $0.closeMatches } ?? .max)
        let isUnmatched = input.result?.matched.map { !$0.contains(Int32(line)) } ?? false
        var offsets = isUnmatched ? []
            : isClose ? CloseMatches.positions(inTitleOf: line, store: store, query: input.query)
            : MatchPositions.inTitle(of: line, store: store, query: input.query)
        if let map = shown.searchedToShown {
            offsets = offsets.compactMap { $0 < map.count ? map[$0] : nil }
        }
        return (offsets, isUnmatched)
    }

    /// A line cut by `--freeze-left`/`--freeze-right` fitted as fzf fits it: the frozen
    /// start first, cut at its end if it must be; then the frozen end, cut at its start;
    /// each leaves room for a mark. The middle gets the columns left and is cut as any line.
    static func fitFrozen(_ parts: FrozenGlyphs, highlighted: Set<Int>, columns: Int,
                          ellipsis: String, look: ListLook) -> (spans: [Span], columns: Int) {
        var room = columns
        var left: (spans: [Span], columns: Int) = ([], 0)
        var right: (spans: [Span], columns: Int) = ([], 0)
        if !parts.left.isEmpty && room > 0 {
            left = fit(parts.left, highlighted: highlighted, columns: room, ellipsis: ellipsis, cut: .end)
            room -= left.columns
        }
        if !parts.right.isEmpty && room > 0 {
            right = fit(parts.right, highlighted: highlighted, columns: room, ellipsis: ellipsis, cut: .start)
            room -= right.columns
        }
        // --keep-right holds for the middle only while nothing matches (fzf's).
        var look = look
        look.keepRight = look.keepRight && highlighted.isEmpty
        let middle: (spans: [Span], columns: Int) = room > 0 && !parts.middle.isEmpty
            ? fit(parts.middle, highlighted: highlighted, columns: room, ellipsis: ellipsis, look: look)
            : ([], 0)
        return (left.spans + middle.spans + right.spans, left.columns + middle.columns + right.columns)
    }

    /// Glyphs cut to `columns` as fzf cuts them, `ellipsis` (a few columns of safe text)
    /// marking each cut: at the end, unless the last matched character and `hscrollOff`
    /// columns after it would not show, then at the start too (the line shown from further
    /// right); with `--no-hscroll` always at the end; with `--keep-right`, a line with no
    /// match shown is cut at its start.
    static func fit(_ glyphs: [Glyph], highlighted: Set<Int>, columns: Int,
                    ellipsis: String = "…", look: ListLook = ListLook(),
                    cut: FrozenCut? = nil) -> (spans: [Span], columns: Int) {
        guard columns > 0 else { return ([], 0) }
        let total = glyphs.reduce(0) { $0 + $1.width }
        var ellipsis = ellipsis
        var mark = TerminalText.width(ellipsis)
        if mark > 1 && mark * 2 >= columns {
            // A wide ellipsis would leave no room for the title: the plain one does.
            ellipsis = "…"
            mark = 1
        }
        func width(_ range: Range<Int>) -> Int { glyphs[range].reduce(0) { $0 + $1.width } }
        // The most glyphs from `start` that fit `room` columns; from the end backward, the
        // first of the fewest glyphs before `end` that fit.
        func fitting(from start: Int, _ room: Int) -> Int {
            var used = 0, end = start
            while end < glyphs.count && used + glyphs[end].width <= room { used += glyphs[end].width; end += 1 }
            return end
        }
        func fittingBack(to end: Int, _ room: Int) -> Int {
            var used = 0, start = end
            while start > 0 && used + glyphs[start - 1].width <= room { used += glyphs[start - 1].width; start -= 1 }
            return start
        }
        var start = 0
        var end = glyphs.count
        var leading = false, trailing = false
        // A frozen part leaves room for the middle's mark: cut when it would not.
        if total > columns || (cut != nil && total > columns - mark) {
            let last = glyphs.lastIndex { highlighted.contains($0.offset) }
            // fzf's: the last match and hscroll-off glyphs after it (at most half the row).
            let keep = min(glyphs.count, (last.map { $0 + 1 } ?? 0) + max(0, min(columns / 2 - mark, look.hscrollOff)))
            if cut == .start || (cut == nil && look.hscroll && look.keepRight && last == nil) {
                leading = true
                start = fittingBack(to: glyphs.count, columns - mark)
            } else if cut == .end || !look.hscroll || width(0..<keep) <= columns - mark {
                trailing = true
                end = fitting(from: 0, columns - mark)
            } else {
                // The line up to `keep` (and a mark after it if more follows), its start cut.
                trailing = width(keep..<glyphs.count) > mark
                end = trailing ? keep : glyphs.count
                leading = true
                start = fittingBack(to: end, columns - mark - (trailing ? mark : 0))
            }
        }
        var spans: [Span] = []
        var used = 0
        func add(_ text: String, _ hl: Bool, _ sym: Bool, _ style: String) {
            if let last = spans.last, last.isHighlighted == hl, last.isSymbol == sym, last.style == style {
                spans[spans.count - 1].text += text
            } else {
                spans.append(Span(text: text, isHighlighted: hl, isSymbol: sym, style: style))
            }
        }
        if leading && mark > 0 { add(ellipsis, false, false, ""); used += mark }
        for g in glyphs[start..<end] {
            add(g.text, highlighted.contains(g.offset), g.isSymbol, g.style)
            used += g.width
        }
        if trailing && mark > 0 { add(ellipsis, false, false, ""); used += mark }
        return (spans, used)
    }
}

/// A row's text: the store's line, or with `--nth` the line `FieldView` shows, with the
/// matched characters' offsets mapped onto it.
struct ShownLine {
    let line: Int
    /// The bytes shown when they are not the store's line.
    var owned: [UInt8]? = nil
    var fields: LineFields
    var styles: [StyleRun]
    /// Searched title offset → shown offset (`--nth`), else nil.
    var searchedToShown: [Int]? = nil

    init(_ line: Int, store: LineStore, input: FrameInput) {
        self.line = line
        let runs = input.styles?.runs(of: line) ?? []
        guard let view = input.fieldView, view.mapsHighlights else {
            fields = store.fields(of: line)
            styles = input.fieldView?.shownStyles(line, runs) ?? runs
            return
        }
        styles = view.shownStyles(line, runs)
        let shown = view.shown(line)
        owned = shown.bytes
        fields = store.parsesFields
            ? shown.bytes.withUnsafeBufferPointer { LineFields.parse($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: $0.count) }
            : LineFields(title: shown.title)
        searchedToShown = shown.searchedToShown
    }

    /// Calls `body` with the bytes shown (the store's own, uncopied, when they are those).
    func withBytes<R>(_ store: LineStore, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        guard let owned else { return body(store.bytes(of: line)) }
        return owned.withUnsafeBufferPointer(body)
    }
}

/// Where a frozen part of a line is cut when it does not fit: the start's at its end, the
/// end's at its start.
enum FrozenCut { case start, end }

/// A row's glyphs in the three parts `--freeze-left` and `--freeze-right` cut it into
/// (Fields.frozenParts), each decoded only as far as can show; the middle's tabs count from
/// the frozen start's last column, as fzf's do.
struct FrozenGlyphs {
    var left: [Glyph] = []
    var middle: [Glyph] = []
    var right: [Glyph] = []

    init(_ bytes: UnsafeBufferPointer<UInt8>, title: Range<Int>, highlights: [Int], styles: [StyleRun],
         input: FrameInput, width: Int) {
        let cut = Fields.frozenParts(UnsafeBufferPointer(rebasing: bytes[title]), input.delimiter,
                                     left: input.look.freezeLeft, right: input.look.freezeRight)
        let leftEnd = title.lowerBound + cut.leftEnd
        let rightStart = cut.rightStart.map { title.lowerBound + $0 } ?? title.upperBound
        let reach = width * 4 + 16
        func glyphs(_ range: Range<Int>, column: Int = 0) -> [Glyph] {
            TerminalText.glyphs(bytes, range: range, styles: styles, tabStop: input.tabStop, column: column)
        }
        // From a character's first byte.
        func start(_ i: Int, in range: Range<Int>) -> Int {
            var i = i
            while i > range.lowerBound && i < range.upperBound && bytes[i] & 0xC0 == 0x80 { i += 1 }
            return i
        }
        left = glyphs(title.lowerBound..<min(leftEnd, title.lowerBound + reach))
        let leftWidth = left.reduce(0) { $0 + $1.width }
        let middle = leftEnd..<rightStart
        let lastMatch = highlights.last { middle.contains($0) }
        if input.look.keepRight && lastMatch == nil && highlights.isEmpty {
            let from = start(max(middle.lowerBound, middle.upperBound - reach), in: middle)
            // Decoded from further right, its tabs cannot be placed as the full line's: any column.
            self.middle = glyphs(from..<middle.upperBound, column: from == middle.lowerBound ? leftWidth : 0)
        } else {
            self.middle = glyphs(middle.lowerBound..<min(middle.upperBound, (lastMatch ?? middle.lowerBound) + reach),
                                 column: leftWidth)
        }
        let right = rightStart..<title.upperBound
        if !right.isEmpty {
            self.right = glyphs(start(max(right.lowerBound, right.upperBound - reach), in: right)..<right.upperBound)
        }
    }
}
