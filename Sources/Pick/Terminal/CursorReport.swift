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
