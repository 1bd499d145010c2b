// The list's window, as fzf keeps it (its `constrain`): which item is first on screen (the
// offset, `PickSession.scroll`) so that the highlighted item (the cursor) shows, with
// `--scroll-off` rows kept before and after it, and no room left at the end while items
// before could fill it. The items are the list's logical rows: its lines and, with
// sections, their header rows (the cursor never rests on one; the header of the cursor's
// group stays in view with it). Where items take more than one row (`--wrap`, multi-line
// `--read0` items, `--gap`), the window is counted in rows: an item cut at the window's
// end counts only when it is the first.
//
// The moves that depend on the window are decided here too, as fzf's: page-up and
// page-down move the cursor a page less one row (half-page: half the rows), and over tall
// items stop before an item would be skipped unseen; offset-up and offset-down scroll by
// one item, the cursor kept in view (at the list's end the cursor moves instead);
// offset-middle puts the cursor in the middle. Jump's labels name the items on screen.
// Directions are in list order: +1 toward later items.

/// The list's window over its items (FrameBuilder builds the frame from it; the bound
/// actions that scroll or page decide with it).
public struct ListWindow {
    /// Rows the list has on screen.
    public let rows: Int
    /// Logical rows: lines and section headers.
    public let count: Int
    /// `--scroll-off`.
    public let scrollOff: Int
    /// Whether an item may take more than one row (then the window is counted in rows).
    public let spans: Bool
    /// Rows item `row` takes, its gap included.
    private let itemHeight: (Int) -> Int
    private let heights = HeightCache()
    /// The list's groups and which have a header row, and whether it follows them.
    private let groups: [SectionGroup]
    private let headed: [Bool]
    private let headersFollow: Bool

    /// A window over `count` items of `height(i)` rows each (nil: one row each, no gap).
    public init(count: Int, rows: Int, scrollOff: Int = 0, height: ((Int) -> Int)? = nil) {
        self.count = max(0, count)
        self.rows = max(1, rows)
        self.scrollOff = scrollOff
        spans = height != nil
        itemHeight = height ?? { _ in 1 }
        groups = [SectionGroup(section: 0, range: 0..<max(0, count))]
        headed = [false]
        headersFollow = false
    }

    /// The window of a frame's list: its result's lines and section headers, each line
    /// taking the rows `input` draws it in.
    public init(_ input: FrameInput, store: LineStore) {
        let lines = input.result?.lines ?? []
        let given = input.result?.groups ?? []
        // Groups that do not cover the lines (a result built by hand): one group of them all.
        groups = given.reduce(0) { $0 + $1.range.count } == lines.count && !given.isEmpty
            ? given : [SectionGroup(section: 0, range: 0..<lines.count)]
        headed = groups.map { $0.section != 0 }
        headersFollow = input.headersFollowGroups
        count = lines.count + headed.filter { $0 }.count
        rows = max(1, input.listHeight)
        scrollOff = input.scrollOff
        spans = input.look.spansRows
        let (groups, headed, after, width) = (groups, headed, headersFollow, max(input.width, 1))
        itemHeight = { r in
            Self.position(ofRow: r, groups: groups, headed: headed, after: after)
                .map { FrameBuilder.rowCount(Int(lines[$0]), input: input, store: store, width: width) } ?? 1
        }
    }

    /// Rows item `row` takes (at most the window's, its gap past it).
    public func height(_ row: Int) -> Int {
        guard spans else { return 1 }
        if let h = heights.rows[row] { return h }
        let h = max(1, itemHeight(row))
        heights.rows[row] = h
        return h
    }

    // MARK: Rows and positions

    /// The logical row of the line at `position` of the list.
    public func row(of position: Int) -> Int {
        var n = 0
        for (g, group) in groups.enumerated() where headed[g] {
            if headersFollow ? group.range.upperBound <= position : group.range.lowerBound <= position { n += 1 }
        }
        return position + n
    }

    /// The line position of logical row `row`, nil for a header.
    public func position(at row: Int) -> Int? {
        Self.position(ofRow: row, groups: groups, headed: headed, after: headersFollow)
    }

    static func position(ofRow r: Int, groups: [SectionGroup], headed: [Bool], after: Bool) -> Int? {
        var row = 0
        for (g, group) in groups.enumerated() {
            let n = group.range.count + (headed[g] ? 1 : 0)
            if r < row + n {
                var k = r - row
                if headed[g] && !after {
                    if k == 0 { return nil }
                    k -= 1
                }
                return k < group.range.count ? group.range.lowerBound + k : nil
            }
            row += n
        }
        return nil
    }

    /// The row a move of one item from `row` in `direction` lands on: the next line's, past
    /// a header; `row` itself at the end of the list.
    func step(from row: Int, _ direction: Int) -> Int {
        var next = row + direction
        while next >= 0 && next < count {
            if position(at: next) != nil { return next }
            next += direction
        }
        return row
    }

    // MARK: The window

    /// How many items show from `offset` (at least one): as many as fit, an item cut at the
    /// end counted only when it is the first; with room left, the items before it too.
    func fitting(from offset: Int) -> Int {
        guard spans else { return rows }
        var found = 0, sum = 0
        func add(_ r: Int) -> Bool {
            let h = height(r)
            let overflow = h > rows - sum
            sum += min(h, rows - sum)
            if sum >= rows {
                if found == 0 || !overflow { found += 1 }
                return false
            }
            found += 1
            return true
        }
        var r = offset
        while r < count && add(r) { r += 1 }
        if sum < rows {
            r = offset - 1
            while r >= 0 && add(r) { r -= 1 }
        }
        return max(found, 1)
    }

    /// The first item shown for the cursor (a row) to show, starting from `offset`: fzf's
    /// `constrain`, with the cursor's section header kept in view.
    public func constrain(offset: Int, cursor: Int) -> Int {
        guard count > 0 else { return 0 }
        let cursor = min(max(cursor, 0), count - 1)
        // Its group's header shows with it: above it, or below when headers follow groups.
        let first = cursor > 0 && !headersFollow && position(at: cursor - 1) == nil ? cursor - 1 : cursor
        let last = cursor + 1 < count && headersFollow && position(at: cursor + 1) == nil ? cursor + 1 : cursor
        var offset = min(max(offset, 0), count)
        for _ in 0..<rows {
            let shown = fitting(from: offset)
            let lowest = max(last - shown + 1, 0)
            let highest = max(min(count - shown, first), 0)
            let before = offset
            offset = max(lowest, min(offset, highest))
            if scrollOff > 0 { offset = keepingScrollOff(offset, cursor: cursor, lowest: lowest, highest: highest) }
            if offset == before { break }
        }
        return offset
    }

    /// `--scroll-off`: the offset moved (within `lowest...highest`) until that many rows
    /// (at most half the window) show before the cursor, then after it; never alternating.
    private func keepingScrollOff(_ offset: Int, cursor: Int, lowest: Int, highest: Int) -> Int {
        let off = min(rows / 2, scrollOff)
        let own = min(height(cursor), rows)
        func rowsBefore(_ offset: Int) -> Int {
            guard spans else { return cursor - offset }
            var sum = 0
            for r in offset..<max(offset, cursor) { sum += min(height(r), max(0, rows - sum - own)) }
            return sum
        }
        var offset = offset
        for phase in 0..<2 {
            while true {
                let was = offset
                let before = rowsBefore(offset)
                let after = rows - (before + own)
                if before < off && after < off { break }
                if phase == 0 && before < off { offset = max(lowest, offset - 1) }
                else if phase == 1 && after < off { offset = min(highest, offset + 1) }
                if offset == was { break }
            }
        }
        return offset
    }

    // MARK: Moves

    /// Where page-up or page-down (`half`: half-page) takes the cursor from `cursor` (a
    /// row), the window at `offset`, in `direction`: the cursor and the window's offset.
    /// One item at a time, the window following, stopping before the window would pass the
    /// items that filled it (a page of tall items moves less than a page of rows, never
    /// past an item unseen).
    public func page(cursor: Int, offset: Int, direction: Int, half: Bool) -> (cursor: Int, offset: Int) {
        guard count > 0 else { return (cursor, offset) }
        let steps = max(1, half ? rows / 2 : rows - 1)
        var cursor = min(max(cursor, 0), count - 1)
        var offset = constrain(offset: offset, cursor: cursor)
        guard spans else {
            for _ in 0..<steps {
                let next = step(from: cursor, direction)
                if next == cursor { break }
                cursor = next
            }
            return (cursor, constrain(offset: offset, cursor: cursor))
        }
        // The farthest the offset may go: down, to the last item the window shows now; up,
        // to the first of the items that would fill a window ending at the offset.
        var bound = offset, sum = 0
        if direction > 0 {
            while bound < count {
                sum += height(bound)
                if sum >= rows { break }
                bound += 1
            }
        } else {
            while bound >= 0 && bound < count {
                sum += height(bound)
                if sum >= rows {
                    if sum > rows { bound += 1 }
                    break
                }
                bound -= 1
            }
        }
        for i in 0..<steps {
            let was = (cursor, offset)
            cursor = step(from: cursor, direction)
            offset = constrain(offset: offset, cursor: cursor)
            if cursor == was.0 { break }
            if i > 0 && (direction > 0 ? offset > bound : offset < bound) {
                (cursor, offset) = was
                break
            }
        }
        return (cursor, offset)
    }

    /// offset-up and offset-down: the window scrolled one item in `direction`, the cursor
    /// kept in view; where it cannot scroll so (the list's end, or the cursor would leave
    /// the window), the cursor moves one item that way instead.
    public func scroll(cursor: Int, offset: Int, direction: Int) -> (cursor: Int, offset: Int) {
        guard count > 0 else { return (cursor, offset) }
        let target = offset + direction
        if constrain(offset: target, cursor: cursor) == target { return (cursor, target) }
        let moved = step(from: cursor, direction)
        return (moved, constrain(offset: target, cursor: moved))
    }

    /// offset-middle: the offset that puts the cursor in the middle of the window (as far
    /// as the list's ends allow).
    public func middle(cursor: Int, offset: Int) -> Int {
        ListWindow(copying: self, scrollOff: rows).constrain(offset: offset, cursor: cursor)
    }

    private init(copying other: ListWindow, scrollOff: Int) {
        rows = other.rows
        count = other.count
        self.scrollOff = scrollOff
        spans = other.spans
        itemHeight = other.itemHeight
        groups = other.groups
        headed = other.headed
        headersFollow = other.headersFollow
    }

    /// The line positions of the items shown from `offset`, in list order (jump's labels
    /// name them in this order).
    public func positionsShown(from offset: Int) -> [Int] {
        var out: [Int] = []
        var sum = 0
        var r = max(0, offset)
        while r < count && sum < rows {
            sum += height(r)
            if let p = position(at: r) { out.append(p) }
            r += 1
        }
        return out
    }

    // MARK: Session positions

    /// page-up and friends over the session's positions: the line position the cursor goes
    /// to and the window's new offset.
    public func page(selection: Int, scroll: Int, direction: Int, half: Bool) -> (selection: Int, scroll: Int) {
        let moved = page(cursor: row(of: selection), offset: scroll, direction: direction, half: half)
        return (position(at: moved.cursor) ?? selection, moved.offset)
    }

    public func scroll(selection: Int, scroll: Int, direction: Int) -> (selection: Int, scroll: Int) {
        let moved = self.scroll(cursor: row(of: selection), offset: scroll, direction: direction)
        return (position(at: moved.cursor) ?? selection, moved.offset)
    }

    public func middle(selection: Int, scroll: Int) -> Int {
        middle(cursor: row(of: selection), offset: scroll)
    }
}

/// Item heights already measured (shared by a window's copies: measuring wraps text).
private final class HeightCache {
    var rows: [Int: Int] = [:]
}
