import PickCore

// MARK: The preview's text

/// A preview command's output, as the pane keeps and shows it.
/// - `PreviewText` fed in random chunks (with small line and byte limits, with and without
///   `follow`) keeps the output's first lines (or its last), byte for byte, a CRLF read as
///   a line end, within its bounds; each line's starting style is the reference terminal
///   model's over the lines before it.
/// - `AnsiText.terminalLine` on ASCII lines agrees with a plain terminal line model (cells,
///   a cursor; CR, BS, `ESC[K`, `ESC[nC`, `ESC[nD`, `ESC[nG`; other sequences dropped).
/// - The pane's frame fits its width and height and no span holds a control character;
///   painted, it holds no escape sequence but SGR and cursor moves inside the pane's box.
///
/// Input: flags (bit 0 follow, bit 1 wrap, bits 2-3 the border), the line limit, the byte
/// limit, width and height, a seed, then the output's bytes.
enum PreviewTarget {
    static func run(_ input: [UInt8]) {
        var header = Header(input)
        let flags = header.byte()
        let follows = flags & 1 != 0
        let lineLimit = 1 + Int(header.byte() % 32)
        let byteLimit = 1 + Int(header.byte()) * 8
        let width = 1 + Int(header.byte() % 90)
        let height = 1 + Int(header.byte() % 24)
        var dice = Dice(header.byte())
        let body = header.rest

        var text = PreviewText(follows: follows, lineLimit: lineLimit, byteLimit: byteLimit)
        var at = 0
        while at < body.count && !text.isFull {
            let n = min(body.count - at, 1 + dice.below(64))
            text.append(Array(body[at..<(at + n)]))
            at += n
        }
        // (A body that clears the screen, `ESC[2J`, starts the text again after it, as fzf:
        // the reference model of lines kept does not follow that; the end-to-end preview tests
        // check it. Such a text is still painted and checked below.)
        let clears = body.count >= 4 && (0...(body.count - 4)).contains { k in
            body[k] == 0x1B && body[k + 1] == 0x5B && body[k + 2] == 0x32 && body[k + 3] == 0x4A
        }
        if !clears {
            checkText(text, body: body, follows: follows, lineLimit: lineLimit, byteLimit: byteLimit)
        }

        for k in 0..<text.count where text.line(k).allSatisfy({ $0 < 0x80 }) {
            let columns = 1 + dice.below(120)
            let (visible, runs) = AnsiText.terminalLine(text.line(k), style: text.style(k), columns: columns)
            let expected = referenceTerminalLine(text.line(k), columns: columns)
            check(visible == expected, "terminal line \(text.line(k)): \(visible), reference \(expected)")
            check(zip(runs, runs.dropFirst()).allSatisfy { $0.offset < $1.offset && $0.style != $1.style },
                  "runs out of order or repeated: \(runs)")
            check(runs.allSatisfy { $0.offset <= visible.count }, "a run past the text: \(runs)")
        }

        var window = PreviewWindow()
        let specs = ["", "wrap", "border-none", "border-sharp", "~2", "wrap,border-bottom", "follow", "noinfo"]
        window = (try? window.applying(specs[Int(flags >> 1) % specs.count])) ?? window
        let first = dice.below(max(1, text.count))
        let frame = PreviewFrameBuilder.build(count: text.count, line: text.line, style: text.style, first: first,
                                              window: window, width: width, height: height, cut: text.isFull,
                                              loading: dice.below(4) == 0)
        check(frame.rows.count <= height, "\(frame.rows.count) rows in a pane \(height) high")
        for row in frame.rows {
            let used = row.reduce(0) { $0 + TerminalText.width($1.text) }
            check(used <= width, "a row of \(used) columns in a pane \(width) wide: \(row)")
            for span in row {
                check(!span.text.unicodeScalars.contains { isControl($0.value) }, "a control character in \(span.text.unicodeScalars.map(\.value))")
            }
        }
        let rect = PaneRect(top: 1 + dice.below(5), left: 1 + dice.below(40), height: height + 2, width: width + 4,
                            position: .right, window: window)
        for theme in [Theme(), Theme.plain] {
            checkPainted(Painter.pane(frame, in: rect, theme: theme), rect: rect)
        }
    }

    static func isControl(_ s: UInt32) -> Bool { s < 0x20 || s == 0x7F || (0x80...0x9F).contains(s) }

    static func checkText(_ text: PreviewText, body: [UInt8], follows: Bool, lineLimit: Int, byteLimit: Int) {
        var raw = referenceLines(body, separator: 0x0A).map { Array($0) }
        let tail: [UInt8] = !body.isEmpty && body.last != 0x0A ? raw.removeLast() : []
        let lines = raw.map { $0.last == 0x0D ? Array($0.dropLast()) : $0 }
        check(text.count <= lineLimit + 1, "\(text.count) lines kept of a limit of \(lineLimit)")
        // The style in force where each line starts, by the reference model.
        var styleBefore: [String] = []
        var reference = ReferenceStyle()
        for line in lines {
            styleBefore.append(reference.sgr)
            for parameters in ColourTarget.sgrSequences(line) { reference.apply(parameters) }
        }
        styleBefore.append(reference.sgr)
        if follows {
            check(!text.isFull, "follow never stops reading")
            let complete = text.count - (tail.isEmpty ? 0 : 1)
            check(complete <= lineLimit, "\(complete) lines kept with follow, of a limit of \(lineLimit)")
            check(text.dropped + complete == lines.count, "\(text.dropped) dropped and \(complete) kept of \(lines.count)")
            for k in 0..<text.count {
                let want = k < complete ? lines[text.dropped + k] : tail
                check(text.line(k) == want, "follow: line \(k) is \(text.line(k)), expected \(want)")
                check(text.style(k).sgr == styleBefore[text.dropped + k], "follow: line \(k)'s style \(text.style(k).sgr)")
            }
        } else {
            check(text.dropped == 0, "lines dropped without follow")
            for k in 0..<text.count {
                let line = text.line(k)
                if k < text.count - 1 {
                    check(line == lines[k], "line \(k) is \(line), expected \(lines[k])")
                } else {
                    // The last: a whole line, or what was read of it when reading stopped.
                    let whole = k < raw.count ? raw[k] : tail
                    check((k < lines.count && line == lines[k]) || whole.starts(with: line),
                          "the last line \(line) is not the start of \(whole)")
                }
                check(text.style(k).sgr == styleBefore[min(k, styleBefore.count - 1)],
                      "line \(k)'s style \(text.style(k).sgr), expected \(styleBefore[min(k, styleBefore.count - 1)])")
            }
            if text.isFull {
                check(body.count >= byteLimit || lines.count >= lineLimit,
                      "full after \(body.count) bytes and \(lines.count) lines")
            } else {
                check(text.count == lines.count + (tail.isEmpty ? 0 : 1), "\(text.count) lines of \(lines.count)")
            }
        }
    }

    /// One ASCII line as a plain terminal shows it, at most `columns` wide.
    static func referenceTerminalLine(_ line: [UInt8], columns: Int) -> [UInt8] {
        var cells: [UInt8?] = []
        var cursor = 0
        func number(_ parameters: [UInt8], _ value: Int) -> Int? {
            guard parameters.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            var n = 0
            for d in parameters { n = min(n * 10 + Int(d - 0x30), 1 << 20) }
            return n == 0 ? value : n
        }
        for token in referenceTokens(line) {
            switch token {
            case .byte(0x0D): cursor = 0
            case .byte(0x08): cursor = max(0, cursor - 1)
            case .byte(let b):
                guard cursor < columns else { continue }
                while cells.count < cursor { cells.append(nil) }
                if cursor == cells.count { cells.append(b) } else { cells[cursor] = b }
                cursor += 1
            case .csi(let parameters, false, let final):
                switch final {
                case UInt8(ascii: "K"):
                    switch number(parameters, 0) {
                    case 0: cells = Array(cells.prefix(cursor))
                    case 1: for k in 0..<min(cells.count, cursor + 1) { cells[k] = nil }
                    case 2: cells = []
                    default: break
                    }
                case UInt8(ascii: "C"): if let n = number(parameters, 1) { cursor = min(columns, cursor + n) }
                case UInt8(ascii: "D"): if let n = number(parameters, 1) { cursor = max(0, cursor - n) }
                case UInt8(ascii: "G"), UInt8(ascii: "`"): if let n = number(parameters, 1) { cursor = min(columns, n - 1) }
                default: break
                }
            case .csi, .other: break
            }
        }
        return cells.map { $0 ?? 0x20 }
    }

    /// Every escape sequence in `painted` is SGR or a cursor move into `rect`; no other
    /// control character is written.
    static func checkPainted(_ painted: String, rect: PaneRect) {
        let bytes = Array(painted.utf8)
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                check(i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "["), "an ESC not starting a CSI")
                var k = i + 2
                while k < bytes.count && (bytes[k] == 0x3B || (0x30...0x39).contains(bytes[k])) { k += 1 }
                check(k < bytes.count, "a sequence cut short")
                let parameters = String(decoding: bytes[(i + 2)..<k], as: UTF8.self)
                switch bytes[k] {
                case UInt8(ascii: "m"): break
                case UInt8(ascii: "H"):
                    let parts = parameters.split(separator: ";").compactMap { Int($0) }
                    check(parts.count == 2, "a cursor move \(parameters)")
                    check(parts[0] >= rect.top && parts[0] < rect.top + rect.height
                          && parts[1] >= rect.left && parts[1] < rect.left + rect.width,
                          "a move to \(parameters), outside the pane \(rect)")
                default:
                    check(false, "a sequence ending \(bytes[k]) in the pane")
                }
                i = k + 1
            } else {
                check(b >= 0x20 && b != 0x7F, "control byte \(b) painted")
                i += 1
            }
        }
        for s in painted.unicodeScalars { check(!(0x80...0x9F).contains(s.value), "a C1 control painted") }
    }
}
