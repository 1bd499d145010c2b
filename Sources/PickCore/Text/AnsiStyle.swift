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
    /// reads as 0; codes pick does not draw are ignored.
    public mutating func apply<C: Collection>(_ parameters: C) where C.Element == UInt8 {
        // Every parameter with its sub-parameters (after `:`), as numbers.
        var codes: [Int] = []
        var subs: [[Int]] = []
        var number = 0
        var current: [Int] = []
        func push() {
            current.append(number)
            number = 0
        }
        for byte in parameters {
            switch byte {
            case 0x30...0x39: number = min(number * 10 + Int(byte - 0x30), 1 << 20)
            case 0x3A: push()
            default:  // `;`: the next parameter
                push()
                codes.append(current[0])
                subs.append(Array(current.dropFirst()))
                current = []
            }
        }
        push()
        codes.append(current[0])
        subs.append(Array(current.dropFirst()))

        var i = 0
        while i < codes.count {
            let code = codes[i]
            switch code {
            case 0: self = .plain
            case 4 where subs[i].first == 0: attributes &= ~(1 << 4)  // `4:0`: no underline
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
                let color: Color?
                if !subs[i].isEmpty {  // `38:5:N`, `38:2:R:G:B` or `38:2:ID:R:G:B`
                    color = Self.color(subs[i])
                } else {  // `38;5;N`, `38;2;R;G;B`: the next parameters are the colour's
                    let kind = i + 1 < codes.count ? codes[i + 1] : -1
                    let parts = kind == 5 ? 2 : kind == 2 ? 4 : 1
                    color = i + parts < codes.count ? Self.color(Array(codes[(i + 1)...(i + parts)])) : nil
                    i += min(parts, codes.count - 1 - i)
                }
                if let color {
                    if code == 38 { foreground = color } else { background = color }
                }
            default: break
            }
            i += 1
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
