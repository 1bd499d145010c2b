// TEMPORARY stand-in with the shared API (helper `fields` writes the real one): replaced
// by main's on merge. Only `{}`, `{q}` and `{n}`.

public struct CommandTemplate: Sendable {
    let text: String
    public init(_ text: String) { self.text = text }
    public var usesQuery: Bool { text.contains("{q}") }
    public var usesMarked: Bool { text.contains("{+") }

    public func expand(_ c: TemplateContext) -> [UInt8] {
        var out: [UInt8] = []
        var rest = Substring(text)
        func quote(_ b: [UInt8]) -> [UInt8] {
            var q: [UInt8] = [0x27]
            for x in b { if x == 0x27 { q += Array("'\\''".utf8) } else { q.append(x) } }
            return q + [0x27]
        }
        while !rest.isEmpty {
            if rest.hasPrefix("{}") { out += quote(c.current ?? []); rest = rest.dropFirst(2) }
            else if rest.hasPrefix("{q}") { out += quote(c.query); rest = rest.dropFirst(3) }
            else if rest.hasPrefix("{n}") { out += Array(String(c.currentIndex ?? -1).utf8); rest = rest.dropFirst(3) }
            else { out += Array(String(rest.first!).utf8); rest = rest.dropFirst() }
        }
        return out
    }
}

public struct TemplateContext {
    public var current: [UInt8]?
    public var currentIndex: Int?
    public var marked: [[UInt8]]
    public var markedIndices: [Int]
    public var query: [UInt8]
    public var delimiter: FieldDelimiter
    public init(current: [UInt8]?, currentIndex: Int?, marked: [[UInt8]], markedIndices: [Int], query: [UInt8],
                delimiter: FieldDelimiter) {
        self.current = current; self.currentIndex = currentIndex; self.marked = marked
        self.markedIndices = markedIndices; self.query = query; self.delimiter = delimiter
    }
}
