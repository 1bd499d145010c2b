#if canImport(Glibc)
import Glibc
#endif

/// A key as decoded from the terminal's bytes.
enum Key: Equatable {
    /// A character, control characters included (ctrl-a is 1, Return 13, ctrl-j 10).
    case char(UInt32)
    /// Escape followed by a character (alt-x, and ⌘x where the terminal sends it so).
    case alt(UInt32)
    case up, down, left, right, home, end, pageUp, pageDown, delete, insert, shiftTab
    case function(Int)
    /// Escape alone.
    case escape
    /// Text pasted while bracketed paste is on (between `ESC [ 200 ~` and `ESC [ 201 ~`).
    case paste([UInt8])
    /// The terminal's answer to a cursor-position query that came too late; ignored.
    case cursorReport
    /// A sequence pick does not know; ignored.
    case unknown

    /// The key's name in `--expect` spelling, when it has one.
    var name: String? {
        switch self {
        case .char(let c):
            switch c {
            case 9: return "tab"
            case 13: return "enter"
            case 32: return "space"
            case 127, 8: return "bspace"
            case 0: return "ctrl-space"
            case 1...26: return "ctrl-" + String(UnicodeScalar(UInt8(c + 96)))
            default:
                guard let s = Unicode.Scalar(c) else { return nil }
                return String(Character(s))
            }
        case .alt(let c):
            switch c {
            case 13: return "alt-enter"
            case 32: return "alt-space"
            case 127, 8: return "alt-bspace"
            default:
                guard c > 32, let s = Unicode.Scalar(c) else { return nil }
                return "alt-" + String(Character(s))
            }
        case .up: return "up"
        case .down: return "down"
        case .left: return "left"
        case .right: return "right"
        case .home: return "home"
        case .end: return "end"
        case .pageUp: return "pgup"
        case .pageDown: return "pgdn"
        case .delete: return "del"
        case .insert: return "insert"
        case .shiftTab: return "btab"
        case .function(let n): return "f\(n)"
        case .escape: return "esc"
        case .paste, .cursorReport, .unknown: return nil
        }
    }
}

/// Finds a cursor-position report (`ESC [ row ; col R`) in bytes read from the terminal.
enum CursorReport {
    static func find(in bytes: [UInt8]) -> (range: Range<Int>, row: Int, col: Int)? {
        var i = 0
        while i + 5 < bytes.count {
            if bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "[") {
                var k = i + 2
                var numbers = [0, 0]
                var which = 0
                var digits = [0, 0]
                while k < bytes.count {
                    let b = bytes[k]
                    if b >= 0x30 && b <= 0x39 {
                        numbers[which] = min(numbers[which] * 10 + Int(b - 0x30), 1_000_000)
                        digits[which] += 1
                    } else if b == UInt8(ascii: ";") && which == 0 {
                        which = 1
                    } else {
                        break
                    }
                    k += 1
                }
                if k < bytes.count, bytes[k] == UInt8(ascii: "R"), which == 1, digits[0] > 0, digits[1] > 0 {
                    return (i..<(k + 1), numbers[0], numbers[1])
                }
            }
            i += 1
        }
        return nil
    }
}

/// Turns bytes from the terminal into keys: UTF-8, CSI and SS3 sequences, alt prefixes.
/// A lone Escape is told from the start of a sequence by waiting `escapeDelay` ms.
struct KeyDecoder {
    static let escapeDelay = 25
    var buffer: [UInt8] = []
    /// A cursor-position query is still unanswered: its answer is dropped when it comes
    /// (`ESC [ 1 ; 5 R` would otherwise read as ctrl-F3).
    var awaitingCursorReport = false
    /// Text of a paste whose end marker has not arrived yet.
    var pasted: [UInt8]? = nil
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// How long a paste may fall silent before it is taken as ended (its end marker lost).
    static let pasteDelay = 500

    /// Whether bytes wait for more: the start of a sequence or character, or an open paste.
    var isPending: Bool { !buffer.isEmpty || pasted != nil }

    /// How long to wait for the rest of what is pending before giving it up as it is.
    var pendingDelay: Int { pasted != nil ? Self.pasteDelay : Self.escapeDelay }

    /// The next complete key; with `final`, a pending lone Escape or broken byte is given up.
    mutating func next(final: Bool) -> Key? {
        decode(final: final)
    }

    private mutating func decode(final: Bool) -> Key? {
        if pasted != nil { return pasteText(final: final) }
        guard let b0 = buffer.first else { return nil }
        if b0 == 0x1B {
            guard buffer.count > 1 else {
                if final { buffer.removeFirst(); return .escape }
                return nil
            }
            let b1 = buffer[1]
            if b1 == UInt8(ascii: "[") { return csi(final: final) }
            if b1 == UInt8(ascii: "O") {
                guard buffer.count > 2 else {
                    if final { buffer.removeFirst(2); return .alt(UInt32(b1)) }
                    return nil
                }
                let b2 = buffer[2]
                buffer.removeFirst(3)
                return Self.letterKey(b2) ?? .unknown
            }
            if b1 == 0x1B {
                // Escape twice: the first is a lone Escape.
                buffer.removeFirst()
                return .escape
            }
            // Alt + a character (possibly multi-byte).
            var rest = KeyDecoder(buffer: Array(buffer.dropFirst()))
            guard let c = rest.utf8(final: final) else { return nil }
            buffer = rest.buffer
            return .alt(c)
        }
        guard let c = utf8(final: final) else { return nil }
        return .char(c)
    }

    private mutating func utf8(final: Bool) -> UInt32? {
        guard let b0 = buffer.first else { return nil }
        let need: Int
        switch b0 {
        case 0..<0x80: buffer.removeFirst(); return UInt32(b0)
        case 0xC2...0xDF: need = 2
        case 0xE0...0xEF: need = 3
        case 0xF0...0xF4: need = 4
        default: buffer.removeFirst(); return 0xFFFD
        }
        for k in 1..<min(need, buffer.count) where buffer[k] & 0xC0 != 0x80 {
            buffer.removeFirst(k)
            return 0xFFFD
        }
        guard buffer.count >= need else {
            if final { buffer.removeAll(); return 0xFFFD }
            return nil
        }
        var v = UInt32(b0) & (need == 2 ? 0x1F : need == 3 ? 0x0F : 0x07)
        for k in 1..<need { v = v << 6 | UInt32(buffer[k] & 0x3F) }
        buffer.removeFirst(need)
        return Unicode.Scalar(v) == nil ? 0xFFFD : v
    }

    /// The rest of a paste: everything up to the end marker is text, whatever it holds.
    /// A paste whose end never comes (a lost marker) ends when the terminal falls silent.
    private mutating func pasteText(final: Bool) -> Key? {
        let end = Self.pasteEnd
        if buffer.count >= end.count {
            for i in 0...(buffer.count - end.count) where buffer[i] == 0x1B && Array(buffer[i..<(i + end.count)]) == end {
                let text = pasted! + buffer[0..<i]
                buffer.removeFirst(i + end.count)
                pasted = nil
                return .paste(text)
            }
        }
        // Keep what may be the start of the end marker; the rest is text.
        var keep = 0
        for k in stride(from: min(end.count - 1, buffer.count), to: 0, by: -1)
        where Array(buffer.suffix(k)) == Array(end.prefix(k)) {
            keep = k
            break
        }
        pasted! += buffer.dropLast(keep)
        buffer.removeFirst(buffer.count - keep)
        if final {
            let text = pasted! + buffer
            buffer.removeAll()
            pasted = nil
            return .paste(text)
        }
        return nil
    }

    /// The keys both `ESC O x` and `ESC [ x` spell with a final letter.
    private static func letterKey(_ letter: UInt8) -> Key? {
        switch letter {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "P"): return .function(1)
        case UInt8(ascii: "Q"): return .function(2)
        case UInt8(ascii: "R"): return .function(3)
        case UInt8(ascii: "S"): return .function(4)
        default: return nil
        }
    }

    private mutating func csi(final: Bool) -> Key? {
        var k = 2
        while k < buffer.count, buffer[k] >= 0x20, buffer[k] < 0x40 { k += 1 }
        guard k < buffer.count else {
            if final { buffer.removeAll(); return .unknown }
            return nil
        }
        let params = String(decoding: buffer[2..<k], as: UTF8.self)
        let finalByte = buffer[k]
        buffer.removeFirst(k + 1)
        if finalByte == UInt8(ascii: "~") && params == "200" {
            pasted = []
            return pasteText(final: false)
        }
        if finalByte == UInt8(ascii: "R") && awaitingCursorReport && params.utf8.contains(UInt8(ascii: ";")) {
            awaitingCursorReport = false
            return .cursorReport
        }
        let first = Int(params.split(separator: ";").first ?? "") ?? 0
        if let key = Self.letterKey(finalByte) { return key }
        switch finalByte {
        case UInt8(ascii: "Z"): return .shiftTab
        case UInt8(ascii: "~"):
            switch first {
            case 1, 7: return .home
            case 4, 8: return .end
            case 2: return .insert
            case 3: return .delete
            case 5: return .pageUp
            case 6: return .pageDown
            case 11...15: return .function(first - 10)
            case 17...21: return .function(first - 11)
            case 23, 24: return .function(first - 12)
            default: return .unknown
            }
        default: return .unknown
        }
    }
}
