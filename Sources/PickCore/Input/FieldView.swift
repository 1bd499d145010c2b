// `--nth`, `--with-nth` and `--accept-nth` over the input (fzf's semantics; Fields.swift cuts
// the lines).
//
// The engine is not told about fields. With `--nth` or `--with-nth`, each line read gets a
// derived line in a second store, at the same index: the text the engine searches and ranks.
// It is made once, on the thread that loads input, right after the line arrives; without these
// options there is no second store and nothing on the search path changes.
//
//   shown    = the `--with-nth` fields of the title, or the text its template makes of them,
//              trailing white space dropped (else the title)
//   searched = the `--nth` fields of `shown`, the last delimiter dropped (else `shown`)
//   derived line = searched + what follows the title (with `--palette`: the section, keywords
//                  and shortcut, which are searched as usual)
//
// The title is the whole line, or with `--palette` what precedes its first tab. The list shows
// `shown`; with `--nth` the matched characters, found in `searched`, are mapped back onto it.
// Return prints the line as read, or its `--accept-nth` fields.
//
// Unlike fzf, the ranges of a comma list (`--nth 1,3`) are searched as one text: a term may
// match across them (fzf matches a term inside one range). A range that overlaps those
// before it adds only the text they did not cover (Fields.searchedSpans): no text is
// searched twice, and the first range's text comes first.

/// The field options over a store of lines as read.
public final class FieldView: @unchecked Sendable {
    /// The lines as read: what is printed, and what placeholders get.
    public let original: LineStore
    /// The lines the engine searches: the derived lines (or `original` when no option
    /// changes them).
    public let searched: LineStore
    public let delimiter: FieldDelimiter
    public let nth: FieldRanges?
    public let withNth: FieldTemplate?
    public let acceptNth: FieldTemplate?
    /// `--palette`: the fields are the title's.
    public let palette: Bool

    /// Lines of `original` derived so far.
    private var derivedCount = 0
    private let lock = Lock()
    private var tokens: [Range<Int>] = []
    private var shownScratch: [UInt8] = []
    private var batch: [UInt8] = []

    /// nil when no field option is given: everything reads the store as it is.
    public convenience init?(options: Options, store: LineStore) throws(OptionError) {
        guard options.nth != nil || options.withNth != nil || options.acceptNth != nil else { return nil }
        self.init(store: store, delimiter: try FieldDelimiter(options.delimiter), nth: options.nth,
                  withNth: options.withNth, acceptNth: options.acceptNth, palette: options.palette)
    }

    public init(store: LineStore, delimiter: FieldDelimiter, nth: FieldRanges? = nil, withNth: FieldTemplate? = nil,
                acceptNth: FieldTemplate? = nil, palette: Bool = false) {
        original = store
        self.delimiter = delimiter
        self.nth = nth
        self.withNth = withNth
        self.acceptNth = acceptNth
        self.palette = palette
        searched = nth != nil || withNth != nil
            ? LineStore(separator: store.separator, parsesFields: store.parsesFields) : store
        // (With --with-nth too, the line as read stands in for the line shown.)
        if nth != nil { searched.lengthsFrom = store }
    }

    /// Whether the engine searches derived lines (else the lines as read).
    public var derives: Bool { searched !== original }

    /// Whether the list shows the matched characters through a mapping (`--nth`): the text
    /// searched is not the text shown.
    public var mapsHighlights: Bool { nth != nil }

    // MARK: Loading

    /// Derives the lines `original` has and `searched` lacks; with `finishing`, after
    /// `original` has ended, ends `searched` too. Called by the thread that loads input (any
    /// thread; calls are serialised).
    public func catchUp(finishing: Bool = false) {
        guard derives else { return }
        lock.locked {
            let available = original.count
            while derivedCount < available {
                batch.removeAll(keepingCapacity: true)
                let end = min(available, derivedCount + 4096)
                for i in derivedCount..<end {
                    appendDerived(of: original.bytes(of: i), index: i, to: &batch)
                    batch.append(original.separator)
                }
                searched.append(batch)
                derivedCount = end
            }
            if finishing && original.isFinished { searched.finish() }
        }
    }

    /// The title of `line`: the whole line, or with `--palette` what precedes its first tab.
    private func titleEnd(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        guard palette else { return line.count }
        return line.firstIndex(of: 0x09) ?? line.count
    }

    /// Appends the derived line of `line`, the `index`th (see the top of this file). Allocates
    /// nothing once the buffers have grown for plain `--with-nth` indexes: it runs for every
    /// line read.
    private func appendDerived(of line: UnsafeBufferPointer<UInt8>, index: Int, to out: inout [UInt8]) {
        let end = titleEnd(line)
        let title = UnsafeBufferPointer(rebasing: line[..<end])
        if let withNth {
            shownScratch.removeAll(keepingCapacity: true)
            Fields.split(title, delimiter, into: &tokens)
            if let ranges = withNth.ranges {
                Self.appendFields(ranges, of: title, tokens: tokens, to: &shownScratch)
            } else {
                Self.append(withNth.pieces(of: title, tokens: tokens, index: index, delimiter), of: title,
                            to: &shownScratch)
            }
            shownScratch.removeSubrange(Fields.endTrimmingSpace(shownScratch)...)
            shownScratch.withUnsafeBufferPointer { appendSearched($0, to: &out) }
        } else {
            appendSearched(title, to: &out)
        }
        out += line[end...]
    }

    /// Appends the `--nth` fields of `shown` (all of it without `--nth`).
    private func appendSearched(_ shown: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        guard let nth else { out += shown; return }
        let start = out.count
        Fields.split(shown, delimiter, into: &tokens)
        for span in Fields.searchedSpans(nth, tokens: tokens) { out += shown[span] }
        switch delimiter.kind {
        case .blanks:
            break
        case .literal(let d):
            if out.count - start >= d.count && out.suffix(d.count).elementsEqual(d) { out.removeLast(d.count) }
        case .pattern:
            let dropped = Fields.droppingLastDelimiter(Array(out[start...]), delimiter)
            out.removeSubrange((start + dropped.count)...)
        }
    }

    /// Appends the fields `r` selects of `text` (cut into `tokens`), as fzf joins them.
    private static func appendFields(_ r: FieldRanges, of text: UnsafeBufferPointer<UInt8>, tokens: [Range<Int>],
                                     to out: inout [UInt8]) {
        for range in r.ranges {
            let t = range.tokens(of: tokens.count)
            if t.isEmpty { continue }
            out += text[tokens[t.lowerBound].lowerBound..<tokens[t.upperBound - 1].upperBound]
        }
    }

    /// Appends the bytes `pieces` (of `text`) stand for.
    private static func append(_ pieces: [FieldTemplate.Piece], of text: UnsafeBufferPointer<UInt8>,
                               to out: inout [UInt8]) {
        for piece in pieces {
            switch piece {
            case .line(let span): out += text[span]
            case .text(let bytes): out += bytes
            }
        }
    }

    /// What `--with-nth` makes of the title of line `index`, in pieces.
    private func shownPieces(_ title: UnsafeBufferPointer<UInt8>, index: Int, _ withNth: FieldTemplate) -> [FieldTemplate.Piece] {
        withNth.pieces(of: title, tokens: Fields.split(title, delimiter), index: index, delimiter)
    }

    // MARK: Showing and printing

    /// What line `index` shows, the byte ranges of its title among those bytes, and for each
    /// byte of the searched title the offset of the shown byte it is (`--nth`; else empty).
    public struct Shown {
        public var bytes: [UInt8]
        public var title: Range<Int>
        public var searchedToShown: [Int]
    }

    /// The text line `index` shows in the list (`--with-nth`), and where each searched byte
    /// of it lies (`--nth`).
    public func shown(_ index: Int) -> Shown {
        let line = original.bytes(of: index)
        let end = titleEnd(line)
        let title = UnsafeBufferPointer(rebasing: line[..<end])
        var bytes: [UInt8] = []
        if let withNth {
            Self.append(shownPieces(title, index: index, withNth), of: title, to: &bytes)
            bytes.removeSubrange(Fields.endTrimmingSpace(bytes)...)
        } else {
            bytes = Array(title)
        }
        let titleRange = 0..<bytes.count
        var map: [Int] = []
        if let nth {
            let tokens = bytes.withUnsafeBufferPointer { Fields.split($0, delimiter) }
            for span in Fields.searchedSpans(nth, tokens: tokens) { map += span }
        }
        bytes += line[end...]
        return Shown(bytes: bytes, title: titleRange, searchedToShown: map)
    }

    /// The `--ansi` colours of line `index` as shown: runs of the line as read, moved onto
    /// the `--with-nth` fields (the colour in force where a field starts comes along).
    public func shownStyles(_ index: Int, _ runs: [StyleRun]) -> [StyleRun] {
        guard let withNth, !runs.isEmpty else { return runs }
        let line = original.bytes(of: index)
        let title = UnsafeBufferPointer(rebasing: line[..<titleEnd(line)])
        var result: [StyleRun] = []
        var at = 0
        for piece in shownPieces(title, index: index, withNth) {
            guard case .line(let span) = piece else {
                // A template's own text is drawn plain.
                if case .text(let bytes) = piece {
                    result.append(StyleRun(offset: at, style: .plain))
                    at += bytes.count
                }
                continue
            }
            let inForce = runs.last { $0.offset <= span.lowerBound }
            result.append(StyleRun(offset: at, style: inForce?.style ?? .plain))
            for run in runs where run.offset > span.lowerBound && run.offset < span.upperBound {
                result.append(StyleRun(offset: at + run.offset - span.lowerBound, style: run.style))
            }
            at += span.count
        }
        return result
    }

    /// What Return prints for line `index`: the line as read, or its `--accept-nth` fields
    /// (of the title, with `--palette`).
    public func printed(_ index: Int) -> [UInt8] {
        let line = original.bytes(of: index)
        guard let acceptNth else { return Array(line) }
        return acceptNth.text(of: UnsafeBufferPointer(rebasing: line[..<titleEnd(line)]), index: index, delimiter)
    }
}

extension Options {
    /// The value of `--nth`, `--with-nth` or `--accept-nth` (named `name`), parsed.
    static func fieldRanges(_ text: String, _ name: String) throws -> FieldRanges {
        guard let ranges = FieldRanges.parse(text) else {
            throw OptionError(message: "invalid value for \(name): \(OptionError.quote(text)) "
                                  + "(expected field indexes such as 2, -1, 2.., ..3, 1,3)")
        }
        return FieldRanges(ranges)
    }

    /// The value of `--with-nth` or `--accept-nth` (named `name`): field indexes or a
    /// template of them.
    static func fieldTemplate(_ text: String, _ name: String) throws(OptionError) -> FieldTemplate {
        guard let template = FieldTemplate(parsing: text) else {
            throw OptionError(message: "invalid value for \(name): \(OptionError.quote(text)) "
                                  + "(expected field indexes such as 2, -1, 2.., 1,3, or a template with {2} or {n} in it)")
        }
        return template
    }
}
