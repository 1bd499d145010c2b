// Bytes from the terminal into keys. Pure: the event loop appends what it read to `buffer`
// and takes keys out with `next(final:)`; the clock stays with the caller, who asks again
// with `final` once `pendingDelay` milliseconds pass with nothing more.
//
// What terminals send (xterm and those that follow it, tmux among them):
// - characters as UTF-8; ctrl-a … ctrl-z as 1 … 26, ctrl-space 0, Backspace 127;
// - alt-x as Escape and x (ctrl-alt-x as Escape and ctrl-x);
// - named keys as `ESC [ … final` (CSI) or `ESC O letter` (SS3): `ESC [ A` or `ESC O A` up,
//   `ESC [ 5 ~` page up, `ESC O P` F1, `ESC [ 15 ~` F5, `ESC [ Z` shift-tab;
// - a modified named key with a second parameter m = 1 + shift + 2·alt + 4·ctrl (8, meta,
//   is read as alt): `ESC [ 1 ; 3 A` alt-up, `ESC [ 5 ; 5 ~` ctrl-page-up; or, from older
//   terminals, Escape before the plain sequence: `ESC ESC [ A` is alt-up too.

/// Turns bytes from the terminal into keys: UTF-8, CSI and SS3 sequences, alt prefixes,
/// bracketed pastes. A lone Escape is told from the start of a sequence by waiting
/// `escapeDelay` ms for the rest.
public struct KeyDecoder: Sendable {
    /// How long Escape may wait for the rest of a sequence before it counts alone.
    public static let escapeDelay = Tunables.Keys.escapeDelayMillis
    /// How long a paste may fall silent before it is taken as ended (its end marker lost).
    public static let pasteDelay = Tunables.Keys.pasteDelayMillis
    static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

    /// Bytes read and not yet decoded.
    public var buffer: [UInt8] = []
    /// A cursor-position query is still unanswered: its answer is dropped when it comes
    /// (`ESC [ 1 ; 5 R` would otherwise read as ctrl-F3).
    public var awaitingCursorReport = false
    /// Text of a paste whose end marker has not arrived yet.
    var pasted: [UInt8]? = nil

    public init(buffer: [UInt8] = []) {
        self.buffer = buffer
    }

    /// Whether bytes wait for more: the start of a sequence or character, or an open paste.
    public var isPending: Bool { !buffer.isEmpty || pasted != nil }

    /// How long to wait for the rest of what is pending before giving it up as it is.
    public var pendingDelay: Int { pasted != nil ? Self.pasteDelay : Self.escapeDelay }

    /// The next complete key; with `final`, a pending lone Escape or broken byte is given up.
    public mutating func next(final: Bool) -> Key? {
        if pasted != nil { return pasteText(final: final) }
        guard let b0 = buffer.first else { return nil }
        guard b0 == 0x1B else { return utf8(final: final).map(Key.char) }
        guard buffer.count > 1 else {
            if final { buffer.removeFirst(); return .escape }
            return nil
        }
        switch buffer[1] {
        case UInt8(ascii: "["): return csi(final: final)
        case UInt8(ascii: "O"): return ss3(final: final)
        case 0x1B: return escapeBeforeSequence(final: final)
        default:
            // Alt and a character (possibly several bytes).
            var rest = KeyDecoder(buffer: Array(buffer.dropFirst()))
            guard let c = rest.utf8(final: final) else { return nil }
            buffer = rest.buffer
            return .alt(c)
        }
    }

    /// `ESC ESC …`: alt and the sequence after the second Escape (older terminals' alt-up),
    /// or else a lone Escape followed by whatever comes next.
    private mutating func escapeBeforeSequence(final: Bool) -> Key? {
        if buffer.count == 2 && !final { return nil }
        if buffer.count > 2, buffer[2] == UInt8(ascii: "[") || buffer[2] == UInt8(ascii: "O") {
            var rest = KeyDecoder(buffer: Array(buffer.dropFirst()))
            guard let key = rest.next(final: final) else { return nil }
            if rest.pasted == nil, let alt = key.adding(.alt) {
                buffer = rest.buffer
                return alt
            }
        }
        buffer.removeFirst()
        return .escape
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

    /// The keys `ESC [ n ~` spells.
    private static func tildeKey(_ n: Int) -> Key? {
        switch n {
        case 1, 7: return .home
        case 4, 8: return .end
        case 2: return .insert
        case 3: return .delete
        case 5: return .pageUp
        case 6: return .pageDown
        case 11...15: return .function(n - 10)
        case 17...21: return .function(n - 11)
        case 23, 24: return .function(n - 12)
        default: return nil
        }
    }

    /// xterm's modifier parameter (1 + shift + 2·alt + 4·ctrl + 8·meta) as modifiers; nil
    /// for modifiers pick cannot name (super, hyper, caps lock…).
    private static func modifiers(_ parameter: Int) -> KeyModifiers? {
        guard parameter > 1 else { return [] }
        let bits = parameter - 1
        guard bits < 16 else { return nil }
        var held = KeyModifiers(rawValue: bits & 7)
        if bits & 8 != 0 { held.insert(.alt) }
        return held
    }

    /// `ESC O x`: a key with a final letter; `ESC O` alone is alt-O.
    private mutating func ss3(final: Bool) -> Key? {
        guard buffer.count > 2 else {
            if final { buffer.removeFirst(2); return .alt(UInt32(UInt8(ascii: "O"))) }
            return nil
        }
        let letter = buffer[2]
        buffer.removeFirst(3)
        return Self.letterKey(letter) ?? .unknown
    }

    /// A sequence's `;`-separated parameters as numbers; nil for one that is empty, not
    /// digits, or longer than six.
    private static func numbers(_ params: ArraySlice<UInt8>) -> [Int?] {
        params.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { digits in
            digits.isEmpty || digits.count > 6 || !digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
                ? nil : digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }

    /// An SGR mouse report's parameters (`b ; x ; y`) and final byte (`M` press, `m` release).
    private static func mouse(_ params: ArraySlice<UInt8>, final: UInt8) -> Key {
        let numbers = Self.numbers(params)
        guard numbers.count == 3, let code = numbers[0], let column = numbers[1], let row = numbers[2],
              final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return .unknown }
        return .mouse(.sgr(code: code, column: column, row: row, released: final == UInt8(ascii: "m")))
    }

    /// `ESC [ parameters final`; `ESC [` alone is alt-[.
    private mutating func csi(final: Bool) -> Key? {
        var k = 2
        while k < buffer.count, buffer[k] >= 0x20, buffer[k] < 0x40 { k += 1 }
        guard k < buffer.count else {
            guard final else { return nil }
            if buffer.count == 2 { buffer.removeAll(); return .alt(UInt32(UInt8(ascii: "["))) }
            buffer.removeAll()
            return .unknown
        }
        let finalByte = buffer[k]
        guard (0x40...0x7E).contains(finalByte) else {
            // Not a sequence: alt-[ and then whatever came, or a broken sequence dropped.
            if k == 2 { buffer.removeFirst(2); return .alt(UInt32(UInt8(ascii: "["))) }
            buffer.removeFirst(k)
            return .unknown
        }
        let params = buffer[2..<k]
        buffer.removeFirst(k + 1)
        if params.first == UInt8(ascii: "<") { return Self.mouse(params.dropFirst(), final: finalByte) }
        let numbers = Self.numbers(params)
        if finalByte == UInt8(ascii: "~") && numbers == [200] {
            pasted = []
            return pasteText(final: false)
        }
        if finalByte == UInt8(ascii: "R") && awaitingCursorReport && numbers.count == 2 {
            awaitingCursorReport = false
            return .cursorReport
        }
        // The modifier is the second parameter; more than two is nothing pick knows.
        guard numbers.count <= 2, numbers.allSatisfy({ $0 != nil }) || params.isEmpty else { return .unknown }
        guard let held = Self.modifiers(numbers.count == 2 ? numbers[1]! : 1) else { return .unknown }
        let key: Key?
        switch finalByte {
        case UInt8(ascii: "~"): key = numbers.first.flatMap { $0 }.flatMap(Self.tildeKey)
        case UInt8(ascii: "Z"): key = held.isEmpty ? .shiftTab : nil
        default:
            // `ESC [ A` and `ESC [ 1 ; 3 A`: a first parameter other than 1 is not a key.
            key = numbers.count == 2 && numbers[0] != 1 ? nil : Self.letterKey(finalByte)
        }
        return key?.adding(held) ?? .unknown
    }
}
