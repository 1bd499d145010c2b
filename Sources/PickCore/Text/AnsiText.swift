// `--ansi`: colour codes in the input are drawn as colours, and everything else about a
// line — matching, completion, what is printed — sees only its visible text, as fzf does
// (`ls --color=always | pick --ansi | xargs …` gets plain names).
//
// Lines are cleaned as they are read (`AnsiFilter`): the store holds the visible text, and
// `AnsiStyles` the SGR style each stretch of it had. Every escape sequence is taken out —
// CSI (colours, and cursor moves, which are dropped), OSC, DCS, SOS, PM and APC strings
// (titles, clipboard writes; a hyperlink's text stays), charset designations and the
// other two-byte escapes; only SGR colours are
// kept, as styles (`AnsiStyle`: a few fields, whatever the codes sent). A lone ESC that
// starts no sequence stays, and is drawn as a symbol. The preview pane reads its command's
// lines as a terminal would (`terminalLine`): carriage returns, erases and moves along
// the line are applied, other sequences dropped.

/// The style in force from a byte of a line's visible text on.
public struct StyleRun: Equatable, Sendable {
    /// Offset in the visible text.
    public var offset: Int
    /// The colours and attributes from there on.
    public var style: AnsiStyle

    public init(offset: Int, style: AnsiStyle) {
        self.offset = offset
        self.style = style
    }

    /// A run whose style is what the SGR parameters `sgr` set from the default.
    public init(offset: Int, sgr: String) {
        self.init(offset: offset, style: AnsiStyle(sgr))
    }

    /// The style as SGR parameters (`1;31`), "" for the default.
    public var sgr: String { style.sgr }
}

public enum AnsiText {
    /// The visible bytes of `line`, and where its SGR styles change; every other escape
    /// sequence is dropped (`--ansi`). `style`: the style in force where the line starts (a
    /// colour carried over from the line before).
    public static func strip<C: Collection>(_ line: C, style start: AnsiStyle = .plain)
    -> (visible: [UInt8], runs: [StyleRun])
    where C.Element == UInt8, C.Index == Int {
        var visible: [UInt8] = []
        visible.reserveCapacity(line.count)
        var runs: [StyleRun] = start.isPlain ? [] : [StyleRun(offset: 0, style: start)]
        var style = start
        scan(line) { piece in
            switch piece {
            case .text(let range):
                visible.append(contentsOf: line[range])
            case .sgr(let parameters):
                var updated = style
                updated.apply(line[parameters])
                guard updated != style else { return }
                style = updated
                if runs.last?.offset == visible.count { runs.removeLast() }
                if (runs.last?.style ?? .plain) != style { runs.append(StyleRun(offset: visible.count, style: style)) }
            case .control, .other:
                break
            }
        }
        return (visible, runs)
    }

    /// The style in force after `line`, which starts in `style`.
    public static func style<C: Collection>(after line: C, from style: AnsiStyle) -> AnsiStyle
    where C.Element == UInt8, C.Index == Int {
        var style = style
        scan(line) { if case .sgr(let parameters) = $0 { style.apply(line[parameters]) } }
        return style
    }

    /// What one line of a command's output shows in a terminal (the preview pane): text is
    /// written at a cursor, a carriage return goes back to the line's start and a backspace
    /// back one character (a progress line shows its last state), `ESC[K` erases (to the
    /// line's end, its start, or the whole line), `ESC[nC`, `ESC[nD` and `ESC[nG` move along
    /// the line, SGR sets colours; every other escape sequence (clearing the screen, moving
    /// to another row, titles, OSC strings) is dropped, as the pane is no terminal. At most
    /// `columns` characters are kept. Other control characters stay (drawn as symbols).
    public static func terminalLine<C: Collection>(_ line: C, style start: AnsiStyle = .plain, columns: Int)
    -> (visible: [UInt8], runs: [StyleRun])
    where C.Element == UInt8, C.Index == Int {
        let columns = max(0, columns)
        var cells: [Cell] = []
        var cursor = 0
        var style = start
        var lastEnd = -1  // where the character written last ends in `line` (it may go on)
        func put(_ range: Range<Int>) {
            guard cursor < columns else { return }
            while cells.count < cursor { cells.append(Cell(start: -1, end: -1, style: .plain)) }
            let cell = Cell(start: range.lowerBound, end: range.upperBound, style: style)
            if cursor == cells.count { cells.append(cell) } else { cells[cursor] = cell }
            cursor += 1
            lastEnd = range.upperBound
        }
        func number(_ range: Range<Int>, default value: Int) -> Int? {
            var n = 0
            for byte in line[range] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                n = min(n * 10 + Int(byte - 0x30), 1 << 20)
            }
            return range.isEmpty || n == 0 ? value : n
        }
        scan(line) { piece in
            switch piece {
            case .text(let range):
                var i = range.lowerBound
                while i < range.upperBound {
                    let byte = line[i]
                    if byte == 0x0D {
                        cursor = 0
                        lastEnd = -1
                    } else if byte == 0x08 {
                        cursor = max(0, cursor - 1)
                        lastEnd = -1
                    } else if byte & 0xC0 == 0x80 && lastEnd == i && cursor > 0 && cursor <= cells.count {
                        cells[cursor - 1].end = i + 1  // a UTF-8 continuation byte: the same character
                        lastEnd = i + 1
                    } else {
                        put(i..<(i + 1))
                    }
                    i += 1
                }
            case .sgr(let parameters):
                style.apply(line[parameters])
                lastEnd = -1
            case .control(let parameters, let final):
                lastEnd = -1
                switch final {
                case 0x4B:  // K: erase in line
                    switch number(parameters, default: 0) {
                    case 0: if cursor < cells.count { cells.removeSubrange(cursor...) }
                    case 1:
                        for k in 0..<min(cells.count, cursor + 1) { cells[k] = Cell(start: -1, end: -1, style: .plain) }
                    case 2: cells.removeAll()
                    default: break
                    }
                case 0x43: if let n = number(parameters, default: 1) { cursor = min(columns, cursor + n) }
                case 0x44: if let n = number(parameters, default: 1) { cursor = max(0, cursor - n) }
                case 0x47, 0x60: if let n = number(parameters, default: 1) { cursor = min(columns, n - 1) }
                default: break
                }
            case .other:
                lastEnd = -1
            }
        }
        var visible: [UInt8] = []
        visible.reserveCapacity(cells.count)
        var runs: [StyleRun] = []
        var shown = AnsiStyle.plain
        for cell in cells {
            if cell.style != shown {
                shown = cell.style
                runs.append(StyleRun(offset: visible.count, style: shown))
            }
            if cell.start < 0 { visible.append(0x20) } else { visible.append(contentsOf: line[cell.start..<cell.end]) }
        }
        return (visible, runs)
    }

    /// One character of a terminal line: its bytes in the line (`start < 0`: a blank) and
    /// its style.
    private struct Cell {
        var start: Int
        var end: Int
        var style: AnsiStyle
    }

    /// One piece of a line, as `scan` finds it.
    enum Piece {
        /// Bytes that are no escape sequence (a lone ESC among them).
        case text(Range<Int>)
        /// The parameters of an SGR sequence (`ESC[…m`).
        case sgr(Range<Int>)
        /// Another CSI sequence without intermediates: its parameters and final byte.
        case control(Range<Int>, UInt8)
        /// Any other escape sequence (OSC, DCS, SOS, PM and APC strings, charset
        /// designations, two-byte escapes, a CSI sequence cut short by the line's end), and
        /// the shift-out and shift-in bytes.
        case other
    }

    /// The pieces of `line`, in order.
    static func scan<C: Collection>(_ line: C, _ body: (Piece) -> Void) where C.Element == UInt8, C.Index == Int {
        var i = line.startIndex
        var textStart = i
        let end = line.endIndex
        func flush() { if textStart < i { body(.text(textStart..<i)) } }
        while i < end {
            if line[i] == 0x0E || line[i] == 0x0F {  // shift out/in (tput sgr0 on screen/tmux): dropped, as fzf
                flush()
                body(.other)
                i += 1
                textStart = i
                continue
            }
            guard line[i] == 0x1B, i + 1 < end else {
                i += 1
                continue
            }
            var next = i + 2
            let piece: Piece
            switch line[i + 1] {
            case 0x5B:  // CSI: parameters, intermediates, a final byte
                var k = i + 2
                while k < end, line[k] >= 0x30 && line[k] <= 0x3F { k += 1 }
                let parametersEnd = k
                while k < end, line[k] >= 0x20 && line[k] <= 0x2F { k += 1 }
                if k < end, line[k] >= 0x40 && line[k] <= 0x7E {
                    next = k + 1
                    if parametersEnd != k {
                        piece = .other
                    } else if line[k] == 0x6D && line[(i + 2)..<k].allSatisfy({ $0 <= 0x3B }) {
                        piece = .sgr((i + 2)..<k)
                    } else {
                        piece = .control((i + 2)..<k, line[k])
                    }
                } else {
                    next = k  // cut short by the line's end (or by a byte no CSI holds): dropped
                    piece = .other
                }
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F:  // OSC, DCS, SOS, PM, APC strings: up to BEL or ESC \
                var k = i + 2
                while k < end, line[k] != 0x07, !(line[k] == 0x1B && k + 1 < end && line[k + 1] == 0x5C) { k += 1 }
                next = k >= end ? end : line[k] == 0x07 ? k + 1 : k + 2
                piece = .other
            case 0x20...0x2F:  // intermediates, then a final byte (charset designations)
                var k = i + 1
                while k < end, line[k] >= 0x20 && line[k] <= 0x2F { k += 1 }
                next = min(end, k + 1)
                piece = .other
            case 0x30...0x7E:
                piece = .other
            default:  // a lone ESC: text
                i += 1
                continue
            }
            flush()
            body(piece)
            i = next
            textStart = i
        }
        flush()
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
    private var style = AnsiStyle.plain

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
        style = runs.last?.style ?? .plain
        out += visible
        partial.removeAll(keepingCapacity: true)
        nextLine += 1
    }
}
