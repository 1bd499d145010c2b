#if canImport(Glibc)
import Glibc
#endif
import PickCore

// What a command started from the picker is given for its placeholders (CommandTemplate):
// lines as read, not the --nth/--with-nth text the picker searches and shows.

extension Picker {
    /// Line `index` as read (as `{}` gives it): with --nth or --with-nth, `store` holds the
    /// derived text, and this the original.
    func lineAsRead(_ index: Int32) -> [UInt8] {
        Array((fieldView?.original ?? store).bytes(of: Int(index)))
    }

    /// The placeholders' values as the session stands: the highlighted line, the marked
    /// lines (in the order marked), the query, and -d's delimiter for field placeholders.
    func templateContext() -> TemplateContext {
        let current = session.highlighted
        let delimiter = fieldView?.delimiter ?? (try? FieldDelimiter(options.delimiter)) ?? .blanks
        return TemplateContext(current: current.map(lineAsRead), currentIndex: current.map(Int.init),
                               marked: session.marks.map(lineAsRead), markedIndices: session.marks.map(Int.init),
                               query: Array(query.utf8), delimiter: delimiter)
    }
}
