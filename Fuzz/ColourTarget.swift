import PickCore

// MARK: Colour codes (`--ansi`, and the preview's colours)

/// SGR parameters and whole lines of escape-laden text: `AnsiStyle` agrees with a reference
/// terminal model written plainly (strings split at `;` and `:`, a dictionary of
/// attributes); a style written back (`sgr`) is at most 60 bytes and parses to itself;
/// `AnsiText.strip` keeps a subsequence of the line's bytes, the text itself when the line
/// has no ESC (but for shift-out and shift-in bytes, dropped as fzf drops them), and its last style is the style `style(after:)` finds and the reference's
/// over the line's SGR sequences; `AnsiFilter` fed in random chunks gives the same lines
/// and styles as the lines stripped one by one, the style carried over.
///
/// Input: a seed, then the bytes. The first line (up to a newline) is also read as bare
/// SGR parameters.
enum ColourTarget {
    static func run(_ input: [UInt8]) {
        var header = Header(input)
        var dice = Dice(header.byte())
        let body = header.rest

        // Bare parameters against the reference.
        let first = Array(body.prefix { $0 != 0x0A }.prefix(200))
        if first.allSatisfy({ $0 >= 0x30 && $0 <= 0x3B }) {
            var style = AnsiStyle.plain
            style.apply(first)
            var reference = ReferenceStyle()
            reference.apply(String(decoding: first, as: UTF8.self))
            check(style.sgr == reference.sgr, "\(String(decoding: first, as: UTF8.self)): \(style.sgr), reference \(reference.sgr)")
            checkBounded(style)
        }

        // Whole lines.
        let lines = referenceLines(body, separator: 0x0A)
        var carried = AnsiStyle.plain
        var reference = ReferenceStyle()
        var expectedText: [UInt8] = []
        var expectedRuns: [[StyleRun]] = []
        for line in lines {
            let (visible, runs) = AnsiText.strip(line, style: carried)
            check(isSubsequence(visible, of: line), "visible text \(visible) is not from the line \(Array(line))")
            if !line.contains(0x1B) {
                let kept = line.filter { $0 != 0x0E && $0 != 0x0F }
                check(visible.elementsEqual(kept), "a line without ESC changed: \(Array(line)) to \(visible)")
            }
            for run in runs {
                check(run.offset >= 0 && run.offset <= visible.count, "run at \(run.offset) of \(visible.count)")
                checkBounded(run.style)
            }
            let last = runs.last?.style ?? .plain  // no run: the line is drawn plain
            check(zip(runs, runs.dropFirst()).allSatisfy { $0.offset < $1.offset && $0.style != $1.style },
                  "runs out of order or repeated: \(runs)")
            let after = AnsiText.style(after: line, from: carried)
            check(last == after, "the last run \(last.sgr), style(after:) \(after.sgr)")
            for parameters in sgrSequences(Array(line)) { reference.apply(parameters) }
            check(after.sgr == reference.sgr, "line \(Array(line)): style \(after.sgr), reference \(reference.sgr)")
            carried = after
            expectedText += visible + [0x0A]
            expectedRuns.append(runs)
        }

        // The filter, fed in chunks, holds the same.
        let styles = AnsiStyles()
        var filter = AnsiFilter(separator: 0x0A, styles: styles)
        var out: [UInt8] = []
        var at = 0
        while at < body.count {
            let n = min(body.count - at, 1 + dice.below(48))
            out += Array(body[at..<(at + n)]).withUnsafeBytes { filter.feed($0) }
            at += n
        }
        out += filter.finish()
        if body.last != 0x0A && !expectedText.isEmpty { expectedText.removeLast() }
        check(out == expectedText, "the filter's text \(out), lines stripped \(expectedText)")
        for (i, runs) in expectedRuns.enumerated() {
            check(styles.runs(of: i) == runs, "line \(i): filter runs \(styles.runs(of: i)), stripped \(runs)")
        }
    }

    static func checkBounded(_ style: AnsiStyle) {
        check(style.sgr.utf8.count <= 60, "a style of \(style.sgr.utf8.count) bytes: \(style.sgr)")
        check(AnsiStyle(style.sgr) == style, "\(style.sgr) parses to \(AnsiStyle(style.sgr).sgr)")
    }

    static func isSubsequence(_ small: [UInt8], of big: ArraySlice<UInt8>) -> Bool {
        var it = big.makeIterator()
        return small.allSatisfy { b in
            while let next = it.next() { if next == b { return true } }
            return false
        }
    }

    /// The parameters of every SGR sequence in `line`.
    static func sgrSequences(_ line: [UInt8]) -> [String] {
        referenceTokens(line).compactMap { token in
            guard case .csi(let parameters, false, UInt8(ascii: "m")) = token, parameters.allSatisfy({ $0 <= 0x3B })
            else { return nil }
            return String(decoding: parameters, as: UTF8.self)
        }
    }
}

/// A piece of a line, as the reference tokenizer finds it.
enum ReferenceToken {
    case byte(UInt8)
    case csi([UInt8], intermediates: Bool, final: UInt8)
    case other
}

/// `line` cut plainly into bytes and escape sequences: `ESC [`, parameters (0x30-0x3F),
/// intermediates (0x20-0x2F), a final byte (0x40-0x7E; a CSI cut short before one is
/// dropped up to the byte that cut it); OSC, DCS, SOS, PM and APC strings to BEL or
/// `ESC \`; `ESC`, intermediates and one more byte; `ESC` and one byte of 0x30-0x7E; the
/// shift-out and shift-in bytes (0x0E, 0x0F) alone. Any other ESC is a byte.
func referenceTokens(_ line: [UInt8]) -> [ReferenceToken] {
    var tokens: [ReferenceToken] = []
    var i = 0
    while i < line.count {
        // Shift out and shift in (tput sgr0 under screen or tmux) are dropped, as fzf does.
        if line[i] == 0x0E || line[i] == 0x0F { tokens.append(.other); i += 1; continue }
        guard line[i] == 0x1B, i + 1 < line.count else { tokens.append(.byte(line[i])); i += 1; continue }
        let kind = line[i + 1]
        if kind == UInt8(ascii: "[") {
            var k = i + 2
            var parameters: [UInt8] = []
            while k < line.count && (0x30...0x3F).contains(line[k]) { parameters.append(line[k]); k += 1 }
            var intermediates = false
            while k < line.count && (0x20...0x2F).contains(line[k]) { intermediates = true; k += 1 }
            if k < line.count && (0x40...0x7E).contains(line[k]) {
                tokens.append(.csi(parameters, intermediates: intermediates, final: line[k]))
                i = k + 1
            } else {
                tokens.append(.other)
                i = k
            }
        } else if [0x5D, 0x50, 0x58, 0x5E, 0x5F].contains(kind) {
            var k = i + 2
            while k < line.count && line[k] != 0x07 && !(line[k] == 0x1B && k + 1 < line.count && line[k + 1] == 0x5C) {
                k += 1
            }
            tokens.append(.other)
            i = k >= line.count ? k : line[k] == 0x07 ? k + 1 : k + 2
        } else if (0x20...0x2F).contains(kind) {
            var k = i + 1
            while k < line.count && (0x20...0x2F).contains(line[k]) { k += 1 }
            tokens.append(.other)
            i = k + 1
        } else if (0x30...0x7E).contains(kind) {
            tokens.append(.other)
            i += 2
        } else {
            tokens.append(.byte(line[i]))
            i += 1
        }
    }
    return tokens
}

/// A terminal's colour state written plainly, for the fuzzer to compare `AnsiStyle` with.
struct ReferenceStyle {
    var attributes: Set<Int> = []
    var foreground: String? = nil
    var background: String? = nil

    mutating func apply(_ parameters: String) {
        let fields = parameters.split(separator: ";", omittingEmptySubsequences: false).map { field in
            // A number too large for Int is a large number (its first 7 digits past the
            // leading zeros), not 0: `ESC[000…018446744073709551614m` resets nothing.
            field.split(separator: ":", omittingEmptySubsequences: false).map {
                Int($0) ?? (Int($0.drop { $0 == "0" }.prefix(7)) ?? 0)
            }
        }
        var i = 0
        while i < fields.count {
            let code = fields[i][0]
            let subs = Array(fields[i].dropFirst())
            if code == 0 {
                self = ReferenceStyle()
            } else if code == 4 && subs.first == 0 {
                attributes.remove(4)
            } else if (1...9).contains(code) {
                attributes.insert(code)
            } else if code == 21 || code == 22 {
                attributes.subtract([1, 2])
            } else if code == 25 {
                attributes.subtract([5, 6])
            } else if [23, 24, 27, 28, 29].contains(code) {
                attributes.remove(code - 20)
            } else if (30...37).contains(code) || (90...97).contains(code) {
                foreground = String(code)
            } else if (40...47).contains(code) || (100...107).contains(code) {
                background = String(code)
            } else if code == 39 {
                foreground = nil
            } else if code == 49 {
                background = nil
            } else if code == 38 || code == 48 {
                var parts: [Int]
                if !subs.isEmpty {
                    parts = subs
                    if parts.first == 2 && parts.count >= 5 { parts = [2] + Array(parts[2...4]) }
                } else {
                    let kind = i + 1 < fields.count ? fields[i + 1][0] : -1
                    let n = kind == 5 ? 2 : kind == 2 ? 4 : 1
                    parts = i + n < fields.count ? fields[(i + 1)...(i + n)].map { $0[0] } : []
                    i += min(n, fields.count - 1 - i)
                }
                var value: String? = nil
                if parts.first == 5 && parts.count >= 2 && (0...255).contains(parts[1]) {
                    value = "\(code);5;\(parts[1])"
                } else if parts.first == 2 && parts.count >= 4 && parts[1...3].allSatisfy({ (0...255).contains($0) }) {
                    value = "\(code);2;\(parts[1]);\(parts[2]);\(parts[3])"
                }
                if let value {
                    if code == 38 { foreground = value } else { background = value }
                }
            }
            i += 1
        }
    }

    var sgr: String {
        (attributes.sorted().map(String.init) + [foreground, background].compactMap { $0 }).joined(separator: ";")
    }
}
