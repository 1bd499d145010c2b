// Where the highlight goes when the list changes under it: the one tracker, run by the
// session each time it takes a new list for the query (a result, close matches).
//
// - While the person has moved, the highlight stays on its line in the same query's new
//   list (found by number: input streaming in reorders the list).
// - It may follow an anchor set before the list changed:
//   - with `--track`, the line highlighted when the query changed, found by number in the
//     new query's list (the session keeps it on its row of the screen); gone from a whole
//     list, the highlight keeps its position (fzf's);
//   - after a reload or change-nth, the line's text as read (with `--id-nth`, its key:
//     those fields), looked for in the lines of the new store until the input is read
//     whole; gone (the line just deleted), the highlight keeps its place when the query is
//     the same, as fzf's cursor does;
//   - a row (first/last/pos right after a reload, counted over the old list; the row
//     exclude leaves), taken once the list has lines.
// Otherwise a new query's list is highlighted from its first line (as fzf, `keepsRow`: on
// the row it was on, as fzf's cursor keeps its index).

/// What says which line is which across a reload (`--id-nth`): those fields of the line as
/// read, joined, the last delimiter dropped (fzf's tracking key).
public struct LineIdentity: Sendable {
    public var fields: FieldRanges
    public var delimiter: FieldDelimiter

    public init(fields: FieldRanges, delimiter: FieldDelimiter) {
        self.fields = fields
        self.delimiter = delimiter
    }

    /// The key of `line` (as read, without its terminator).
    public func key<Bytes: Collection>(of line: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        Array(line).withUnsafeBufferPointer { Fields.accepted(fields, of: $0, delimiter) }
    }
}

/// Where the highlight goes when the list changes under it.
public struct HighlightTracker {
    /// What the highlight follows until a list shows where it went.
    public enum Anchor {
        /// `--track`: the line highlighted when the query changed (the same store's number).
        case line(Int32)
        /// A reload or change-nth: the line's text as read (with `identity`, those fields of
        /// it), looked for in `lines` (the lines as read of the list to come), and where it
        /// was for which query.
        case text([UInt8], lines: LineStore, row: Int, query: String, identity: LineIdentity?)
        /// This row, once the list has lines (clamped to it).
        case row(Int)
    }

    public var anchor: Anchor? = nil
    /// The last `place` found the line a `.text` anchor looked for.
    public private(set) var foundText = false

    public init() {}

    /// Where the highlight is in the new list `lines` (`complete`: the whole ranking, of all
    /// the input once `loading` is over), from where it was (`selection`, and `moved`: the
    /// person moved it). `previous`: the line it was on in the list before, when that was
    /// the same query's (`sameQuery`) and the person had moved.
    public mutating func place(in lines: [Int32], complete: Bool, loading: Bool, query: String, sameQuery: Bool,
                               previous: Int32?, selection: Int, moved: Bool,
                               keepsRow: Bool = false) -> (selection: Int, moved: Bool) {
        var selection = selection
        var moved = moved
        foundText = false
        if case .line(let line)? = anchor {
            if let at = lines.firstIndex(of: line) {
                selection = at
                moved = moved || at != 0
                anchor = nil
            } else if complete {
                anchor = nil  // gone: the position stays
            }
        } else {
            if let previous, let at = lines.firstIndex(of: previous) {
                selection = at
            } else if (!moved || !sameQuery) && !keepsRow {
                selection = 0
                moved = false
            }
            switch anchor {
            case .row(let row)? where !lines.isEmpty:
                anchor = nil
                selection = min(row, lines.count - 1)
                moved = true
            case .text(let wanted, let store, let row, let then, let identity)?:
                if let at = lines.firstIndex(where: {
                    guard Int($0) < store.count else { return false }
                    let line = store.bytes(of: Int($0))
                    return identity.map { $0.key(of: line) == wanted } ?? line.elementsEqual(wanted)
                }) {
                    anchor = nil
                    foundText = true
                    if at != selection {
                        selection = at
                        moved = true
                    }
                } else if !loading && complete {
                    anchor = nil
                    let place = min(row, lines.count - 1)
                    if selection == 0 && place > 0 && query == then {
                        selection = place
                        moved = true
                    }
                }
            default: break
            }
        }
        return (min(selection, max(0, lines.count - 1)), moved)
    }
}
