// Where the highlight goes when the list changes under it: the one tracker, run by the
// session each time it takes a new list for the query (a result, close matches).
//
// - While the person has moved, the highlight stays on its line in the same query's new
//   list (found by number: input streaming in reorders the list).
// - It may follow an anchor set before the list changed:
//   - with `--track`, the line highlighted when the query changed, found by number in the
//     new query's list; gone from a whole list, the highlight keeps its position (fzf's);
//   - after a reload or change-nth, the line's text as read, looked for in the lines of the
//     new store until the input is read whole; gone (the line just deleted), the highlight
//     keeps its place when the query is the same, as fzf's cursor does;
//   - a row (first/last/pos right after a reload, counted over the old list; the row
//     exclude leaves), taken once the list has lines.
// Otherwise a new query's list is highlighted from its first line.

/// Where the highlight goes when the list changes under it.
public struct HighlightTracker {
    /// What the highlight follows until a list shows where it went.
    public enum Anchor {
        /// `--track`: the line highlighted when the query changed (the same store's number).
        case line(Int32)
        /// A reload or change-nth: the line's text as read, looked for in `lines` (the lines
        /// as read of the list to come), and where it was for which query.
        case text([UInt8], lines: LineStore, row: Int, query: String)
        /// This row, once the list has lines (clamped to it).
        case row(Int)
    }

    public var anchor: Anchor? = nil

    public init() {}

    /// Where the highlight is in the new list `lines` (`complete`: the whole ranking, of all
    /// the input once `loading` is over), from where it was (`selection`, and `moved`: the
    /// person moved it). `previous`: the line it was on in the list before, when that was
    /// the same query's (`sameQuery`) and the person had moved.
    public mutating func place(in lines: [Int32], complete: Bool, loading: Bool, query: String, sameQuery: Bool,
                               previous: Int32?, selection: Int, moved: Bool) -> (selection: Int, moved: Bool) {
        var selection = selection
        var moved = moved
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
            } else if !moved || !sameQuery {
                selection = 0
                moved = false
            }
            switch anchor {
            case .row(let row)? where !lines.isEmpty:
                anchor = nil
                selection = min(row, lines.count - 1)
                moved = true
            case .text(let wanted, let store, let row, let then)?:
                if let at = lines.firstIndex(where: { Int($0) < store.count && store.bytes(of: Int($0)).elementsEqual(wanted) }) {
                    anchor = nil
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
