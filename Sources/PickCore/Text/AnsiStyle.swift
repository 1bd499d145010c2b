// A terminal's colour state, as a terminal keeps it: a foreground, a background and a set of
// attributes. Each SGR code a line sends changes these few fields; it is never remembered
// as such. Input is untrusted, and a state that kept every code it was sent grew with the
// square of the lines (`\e[1m` on each of 40,000 lines made the 40,000th line's style
// 80 KB long). Drawn, the state is written back as one canonical SGR sequence of at most
// a few dozen bytes (`sgr`).

/// The colours and attributes in force, after the SGR codes seen so far.
public struct AnsiStyle: Hashable, Sendable {
    /// A foreground or background colour.
    public enum Color: Hashable, Sendable {
        /// The terminal's default.
        case none
        /// One of the 16 named colours: 0-7 (`30`-`37`), 8-15 the bright ones (`90`-`97`).
        case basic(UInt8)
        /// One of the 256-colour palette (`38;5;N`).
        case indexed(UInt8)
        /// A direct colour (`38;2;R;G;B`).
        case rgb(UInt8, UInt8, UInt8)
    }

    public var foreground: Color = .none
    public var background: Color = .none
    /// Bit `n` set: attribute SGR `n` is on (1 bold, 2 dim, 3 italic, 4 underline, 5 blink,
    /// 6 rapid blink, 7 reverse, 8 hidden, 9 strike-through).
    public var attributes: UInt16 = 0

    /// The default: no colour, no attribute.
    public static let plain = AnsiStyle()

    public init() {}

    /// The style `parameters` (an SGR sequence's, `1;38;5;208`) set from the default.
    public init(_ parameters: String) {
        apply(Array(parameters.utf8))
    }

    public var isPlain: Bool { self == .plain }

    /// Applies one SGR sequence's parameters (the bytes between `ESC [` and `m`): numbers
    /// separated by `;`, a colour's parts also by `:` (`38:2::R:G:B`). An empty parameter
    /// reads as 0; codes pick does not draw are ignored. On the `--ansi` input's hot path:
    /// one pass, no allocation.
    public mutating func apply<C: Collection>(_ parameters: C) where C.Element == UInt8 {
        var code = 0
        var subs = SIMD8<Int32>()  // a parameter's sub-parameters (after `:`), the first 8
        var subCount = 0
        var number = 0
        var inSubs = false
        var pending = Pending.none
        func endNumber() {
            if inSubs {
                if subCount < 8 { subs[subCount] = Int32(number) }
                subCount += 1
            } else {
                code = number
            }
            number = 0
        }
        for byte in parameters {
            switch byte {
            case 0x30...0x39: number = min(number &* 10 &+ Int(byte &- 0x30), 1 << 20)
            case 0x3A:
                endNumber()
                inSubs = true
            default:  // `;`: the next parameter
                endNumber()
                apply(code: code, subs: subs, subCount: subCount, pending: &pending)
                code = 0
                subCount = 0
                inSubs = false
            }
        }
        endNumber()
        apply(code: code, subs: subs, subCount: subCount, pending: &pending)
    }

    /// What the parameters after a `38` or `48` without sub-parameters are read as.
    private enum Pending {
        case none
        /// The colour's kind: 5 (an index follows) or 2 (red, green, blue follow).
        case kind(foreground: Bool)
        case index(foreground: Bool)
        case rgb(foreground: Bool, got: Int, red: Int, green: Int)
    }

    /// One parameter: `code` with its first sub-parameters.
    private mutating func apply(code: Int, subs: SIMD8<Int32>, subCount: Int, pending: inout Pending) {
        func byte(_ n: Int) -> UInt8? { n >= 0 && n <= 255 ? UInt8(n) : nil }
        func set(_ color: Color?, foreground: Bool) {
            guard let color else { return }
            if foreground { self.foreground = color } else { background = color }
        }
        switch pending {
        case .none: break
        case .kind(let fg):
            pending = code == 5 ? .index(foreground: fg) : code == 2 ? .rgb(foreground: fg, got: 0, red: 0, green: 0) : .none
            return
        case .index(let fg):
            set(byte(code).map { .indexed($0) }, foreground: fg)
            pending = .none
            return
        case .rgb(let fg, let got, let red, let green):
            switch got {
            case 0: pending = .rgb(foreground: fg, got: 1, red: code, green: 0)
            case 1: pending = .rgb(foreground: fg, got: 2, red: red, green: code)
            default:
                if let r = byte(red), let g = byte(green), let b = byte(code) { set(.rgb(r, g, b), foreground: fg) }
                pending = .none
            }
            return
        }
        switch code {
        case 0: self = .plain
        case 4 where subCount > 0 && subs[0] == 0: attributes &= ~(1 << 4)  // `4:0`: no underline
        case 1...9: attributes |= 1 << code
        case 21, 22: attributes &= ~(1 << 1 | 1 << 2)
        case 23: attributes &= ~(1 << 3)
        case 24: attributes &= ~(1 << 4)
        case 25: attributes &= ~(1 << 5 | 1 << 6)
        case 27: attributes &= ~(1 << 7)
        case 28: attributes &= ~(1 << 8)
        case 29: attributes &= ~(1 << 9)
        case 30...37: foreground = .basic(UInt8(code - 30))
        case 90...97: foreground = .basic(UInt8(code - 90 + 8))
        case 39: foreground = .none
        case 40...47: background = .basic(UInt8(code - 40))
        case 100...107: background = .basic(UInt8(code - 100 + 8))
        case 49: background = .none
        case 38, 48:
            if subCount == 0 {  // `38;5;N`, `38;2;R;G;B`: the next parameters are the colour's
                pending = .kind(foreground: code == 38)
            } else {  // `38:5:N`, `38:2:R:G:B` or `38:2:ID:R:G:B`
                let n = min(subCount, 8)
                set(Self.color((0..<n).map { Int(subs[$0]) }), foreground: code == 38)
            }
        default: break
        }
    }

    /// The colour `5, N` or `2, [ID,] R, G, B` names, nil when it names none.
    private static func color(_ parts: [Int]) -> Color? {
        func byte(_ n: Int) -> UInt8? { n >= 0 && n <= 255 ? UInt8(n) : nil }
        switch parts.first {
        case 5 where parts.count >= 2:
            return byte(parts[1]).map { .indexed($0) }
        case 2 where parts.count >= 4:
            let rgb = parts.count >= 5 ? parts[2...4] : parts[1...3]
            guard let r = byte(rgb[rgb.startIndex]), let g = byte(rgb[rgb.startIndex + 1]),
                  let b = byte(rgb[rgb.startIndex + 2]) else { return nil }
            return .rgb(r, g, b)
        default:
            return nil
        }
    }

    /// The style as one SGR sequence's parameters ("" for the default): attributes, then
    /// the foreground and the background. At most 9 attributes and two direct colours.
    public var sgr: String {
        var parts: [String] = []
        for code in 1...9 where attributes & (1 << code) != 0 { parts.append(String(code)) }
        func add(_ color: Color, base: Int) {
            switch color {
            case .none: break
            case .basic(let n): parts.append(String(n < 8 ? base + Int(n) : base + 60 + Int(n) - 8))
            case .indexed(let n): parts.append("\(base + 8);5;\(n)")
            case .rgb(let r, let g, let b): parts.append("\(base + 8);2;\(r);\(g);\(b)")
            }
        }
        add(foreground, base: 30)
        add(background, base: 40)
        return parts.joined(separator: ";")
    }
}
