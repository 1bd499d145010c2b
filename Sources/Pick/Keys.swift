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
        case .unknown: return nil
        }
    }
}

/// Turns bytes from the terminal into keys: UTF-8, CSI and SS3 sequences, alt prefixes.
/// A lone Escape is told from the start of a sequence by waiting `escapeDelay` ms.
struct KeyDecoder {
    static let escapeDelay = 25
    var buffer: [UInt8] = []

    /// Whether the buffer holds only the start of a sequence or character.
    var isIncomplete: Bool {
        guard !buffer.isEmpty else { return false }
        var copy = self
        return copy.decode(final: false) == nil
    }

    /// The next complete key; with `final`, a pending lone Escape or broken byte is given up.
    mutating func next(final: Bool) -> Key? {
        decode(final: final)
    }

    private mutating func decode(final: Bool) -> Key? {
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
