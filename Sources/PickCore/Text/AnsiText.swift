// `--ansi`: colour codes in the input are drawn as colours, and everything else about a
// line — matching, completion, what is printed — sees only its visible text, as fzf does
// (`ls --color=always | pick --ansi | xargs …` gets plain names).
//
// Lines are cleaned as they are read (`AnsiFilter`): the store holds the visible text, and
// `AnsiStyles` the SGR style each stretch of it had. Every escape sequence is taken out —
// CSI (colours, and cursor moves, which are dropped), OSC, DCS, SOS, PM and APC strings
// (titles, clipboard writes; a hyperlink's text stays), charset designations and the
// other two-byte escapes; only SGR colours are
// kept, as styles. A lone ESC that starts no sequence stays, and is drawn as a symbol.

/// The style in force from a byte of a line's visible text on.
public struct StyleRun: Equatable, Sendable {
    /// Offset in the visible text.
    public var offset: Int
    /// SGR parameters (`31`, `1;38;5;208`), "" for the default.
    public var sgr: String

    public init(offset: Int, sgr: String) {
        self.offset = offset
        self.sgr = sgr
    }
}

public enum AnsiText {
    /// The visible bytes of `line`, and where its SGR styles change. `showingOthers`: every
    /// escape sequence but SGR stays in the text (its ESC is then drawn as a symbol, the rest
    /// as text), as the preview pane shows a command's output; else it is dropped (`--ansi`).
    /// `style`: the SGR style in force where the line starts (a preview's colour carried
    /// over from the line before).
    public static func strip<C: Collection>(_ line: C, showingOthers: Bool = false, style start: String = "")
    -> (visible: [UInt8], runs: [StyleRun])
    where C.Element == UInt8, C.Index == Int {
        var visible: [UInt8] = []
        visible.reserveCapacity(line.count)
        var runs: [StyleRun] = start.isEmpty ? [] : [StyleRun(offset: 0, sgr: start)]
        var style = start
        var i = line.startIndex
        let end = line.endIndex
        while i < end {
            guard line[i] == 0x1B, i + 1 < end else {
                visible.append(line[i])
                i += 1
                continue
            }
            let next = line[i + 1]
            switch next {
            case 0x5B:  // CSI: parameters, intermediates, a final byte
                var k = i + 2
                while k < end, line[k] >= 0x30 && line[k] <= 0x3F { k += 1 }
                let parametersEnd = k
                while k < end, line[k] >= 0x20 && line[k] <= 0x2F { k += 1 }
                guard k < end, line[k] >= 0x40 && line[k] <= 0x7E else {
                    if showingOthers { visible.append(contentsOf: line[i..<k]) }
                    i = k  // cut short by the line's end: dropped
                    continue
                }
                if line[k] == 0x6D && parametersEnd == k && line[(i + 2)..<k].allSatisfy({ $0 <= 0x3B }) {
                    let parameters = String(decoding: line[(i + 2)..<k], as: UTF8.self)
                    let updated = parameters.isEmpty || parameters == "0" ? ""
                        : style.isEmpty ? parameters : style + ";" + parameters
                    if updated != style {
                        style = updated
                        if runs.last?.offset == visible.count { runs.removeLast() }
                        if (runs.last?.sgr ?? "") != style { runs.append(StyleRun(offset: visible.count, sgr: style)) }
                    }
                } else if showingOthers {
                    visible.append(contentsOf: line[i...k])
                }
                i = k + 1
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // OSC, DCS, SOS, PM, APC strings: up to BEL or ESC \
                var k = i + 2
                while k < end, line[k] != 0x07, !(line[k] == 0x1B && k + 1 < end && line[k + 1] == 0x5C) { k += 1 }
                let next = k >= end ? end : line[k] == 0x07 ? k + 1 : k + 2
                if showingOthers { visible.append(contentsOf: line[i..<next]) }
                i = next
            case 0x20...0x2F:  // intermediates, then a final byte (charset designations)
                var k = i + 1
                while k < end, line[k] >= 0x20 && line[k] <= 0x2F { k += 1 }
                if showingOthers { visible.append(contentsOf: line[i..<min(end, k + 1)]) }
                i = min(end, k + 1)
            case 0x30...0x7E:
                if showingOthers { visible.append(contentsOf: line[i...(i + 1)]) }
                i += 2
            default:
                visible.append(line[i])
                i += 1
            }
        }
        return (visible, runs)
    }
}

/// The styles of the lines `AnsiFilter` cleaned, by line index. Written by the thread that
/// reads input, read by the one that draws.
public final class AnsiStyles: @unchecked Sendable {
    private let lock = Lock()
    private var runs: [Int32: [StyleRun]] = [:]

    public init() {}

    func set(_ line: Int, _ lineRuns: [StyleRun]) {
        lock.locked { runs[Int32(line)] = lineRuns }
    }

    /// Where line `line`'s style changes (empty: drawn plain).
    public func runs(of line: Int) -> [StyleRun] {
        lock.locked { runs[Int32(line)] ?? [] }
    }
}

/// Cleans input for a store a line at a time: what it gives back is the lines' visible text,
/// each ended by the separator.
public struct AnsiFilter {
    public let separator: UInt8
    public let styles: AnsiStyles
    private var partial: [UInt8] = []
    private var nextLine = 0
    /// The style the last line ended in: as fzf, a colour holds on the next lines until reset.
    private var style = ""

    public init(separator: UInt8, styles: AnsiStyles) {
        self.separator = separator
        self.styles = styles
    }

    /// The cleaned complete lines of `chunk` (and of what an earlier chunk left open).
    public mutating func feed(_ chunk: UnsafeRawBufferPointer) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(chunk.count)
        var start = 0
        for (k, byte) in chunk.enumerated() where byte == separator {
            partial.append(contentsOf: chunk[start..<k])
            emit(into: &out)
            out.append(separator)
            start = k + 1
        }
        partial.append(contentsOf: chunk[start...])
        return out
    }

    /// The last line, when the input did not end with a separator.
    public mutating func finish() -> [UInt8] {
        guard !partial.isEmpty else { return [] }
        var out: [UInt8] = []
        emit(into: &out)
        return out
    }

    private mutating func emit(into out: inout [UInt8]) {
        let (visible, runs) = AnsiText.strip(partial, style: style)
        if !runs.isEmpty { styles.set(nextLine, runs) }
        style = runs.last?.sgr ?? ""
        out += visible
        partial.removeAll(keepingCapacity: true)
        nextLine += 1
    }
}
