// The output of one preview command, as lines, keeping only what the pane can scroll
// through: fzf keeps an endless preview's whole output (`--preview yes` grows it without
// bound); pick keeps its first `Tunables.Preview.keptLines` lines (or, with
// `follow`, its last ones) and an over-long line's first `lineBytes` bytes. Without
// `follow`, a full buffer says so (`isFull`): `keptLines` lines or `keptBytes` bytes read,
// whether kept or not (a line that never ends, `cat /dev/zero`, fills it too). The reader
// then closes the pipe and ends the command: nothing more is read, nothing polled.

/// A preview command's output, bounded.
public struct PreviewText: Sendable {
    /// Lines kept, raw bytes (escape sequences included), without their `\n`.
    private var kept: [[UInt8]] = []
    /// The SGR style in force where each kept line starts: as fzf, a colour set on one line
    /// holds on the next ones until it is reset (a line scrolled to first keeps its colour).
    private var keptStyles: [AnsiStyle] = []
    /// The style in force after the last kept line (where `partial` starts).
    private var style = AnsiStyle.plain
    /// `kept[head...]` are the lines; with `follow`, old ones are dropped from the front.
    private var head = 0
    /// The line still being written (no `\n` yet).
    private var partial: [UInt8] = []
    private var partialCut = false
    private var bytes = 0
    /// Bytes read, kept or not.
    private var received = 0
    public let follows: Bool
    /// The most lines kept, and bytes (lines past the byte budget are not kept).
    public let lineLimit: Int
    public let byteLimit: Int
    /// Output has come (the pane shows it rather than the last line's).
    public private(set) var hasOutput = false
    /// Lines dropped from the front (with `follow`): the first kept line's number.
    public private(set) var dropped = 0

    public init(follows: Bool = false, lineLimit: Int = Tunables.Preview.keptLines,
                byteLimit: Int = Tunables.Preview.keptBytes) {
        self.follows = follows
        self.lineLimit = max(1, lineLimit)
        self.byteLimit = max(1, byteLimit)
    }

    /// Lines held, the one still being written included.
    public var count: Int { kept.count - head + (partial.isEmpty ? 0 : 1) }

    /// Without `follow`: nothing more will be kept, so reading can stop.
    public var isFull: Bool { !follows && (keepsNoMore || received >= byteLimit) }

    /// No further line can be kept.
    private var keepsNoMore: Bool { kept.count >= lineLimit || bytes >= byteLimit }

    /// Line `i` (0 ..< count).
    public func line(_ i: Int) -> [UInt8] {
        i < kept.count - head ? kept[head + i] : partial
    }

    /// The style in force where line `i` starts.
    public func style(_ i: Int) -> AnsiStyle {
        i < kept.count - head ? keptStyles[head + i] : style
    }

    public mutating func append(_ chunk: UnsafeRawBufferPointer) {
        guard !chunk.isEmpty else { return }
        hasOutput = true
        var start = 0
        for (k, byte) in chunk.enumerated() where byte == 0x0A {
            addToPartial(UnsafeRawBufferPointer(rebasing: chunk[start..<k]))
            endLine()
            received += k + 1 - start
            start = k + 1
            if isFull { return }
        }
        addToPartial(UnsafeRawBufferPointer(rebasing: chunk[start...]))
        received += chunk.count - start
    }

    /// `ESC[2J` (clear the screen) in a line: as fzf, the lines before it are dropped and
    /// the text starts again with what follows it (a command that redraws, `watch`-like).
    private static let clearCode: [UInt8] = [0x1B, 0x5B, 0x32, 0x4A]

    /// Where the text after a line's last clear code starts (nil: it has none).
    private static func endOfLastClear(in line: [UInt8]) -> Int? {
        guard line.count >= clearCode.count, line.contains(0x1B) else { return nil }
        var i = line.count - clearCode.count
        while i >= 0 {
            if line[i] == 0x1B && line[i..<(i + clearCode.count)].elementsEqual(clearCode) { return i + clearCode.count }
            i -= 1
        }
        return nil
    }

    private mutating func clearScreen(keeping start: Int) {
        partial.removeFirst(start)
        kept = []
        keptStyles = []
        head = 0
        bytes = 0
        dropped = 0
    }

    public mutating func append(_ chunk: [UInt8]) {
        chunk.withUnsafeBytes { append($0) }
    }

    private mutating func addToPartial(_ piece: UnsafeRawBufferPointer) {
        guard !partialCut, !piece.isEmpty else { return }
        let room = Tunables.Preview.lineBytes - partial.count
        if piece.count > room { partialCut = true }
        partial.append(contentsOf: piece.prefix(room))
    }

    private mutating func endLine() {
        if partial.last == 0x0D { partial.removeLast() }  // CRLF output reads as lines
        if let end = Self.endOfLastClear(in: partial) { clearScreen(keeping: end) }
        guard follows || !keepsNoMore else { partial = []; partialCut = false; return }
        bytes += partial.count
        kept.append(partial)
        keptStyles.append(style)
        if partial.contains(0x1B) {
            style = AnsiText.style(after: partial, from: style)
        }
        partial = []
        partialCut = false
        guard follows else { return }
        while kept.count - head > lineLimit || (bytes > byteLimit && kept.count - head > 1) {
            bytes -= kept[head].count
            kept[head] = []
            keptStyles[head] = .plain
            head += 1
            dropped += 1
        }
        // Compact now and then: dropping from the front stays amortised O(1).
        if head > 1024 && head * 2 > kept.count {
            kept.removeFirst(head)
            keptStyles.removeFirst(head)
            head = 0
        }
    }
}
