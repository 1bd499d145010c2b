// The picker's state as a `GET` to `--listen` answers it: fzf's JSON, its fields in fzf's
// order, so that a script written against fzf (`jq .matches[].text`) reads pick's.

/// One line in the state: its index in the input, its text as read, and the characters
/// (Unicode scalars, counted from 0) the query matched, as fzf's `positions`.
public struct RemoteItem: Equatable, Sendable {
    public var index: Int
    public var text: [UInt8]
    public var positions: [Int]

    public init(index: Int, text: [UInt8], positions: [Int] = []) {
        self.index = index
        self.text = text
        self.positions = positions
    }

    /// Scalar positions for the byte offsets of `text` that MatchPositions gives.
    public static func scalarPositions(ofBytes offsets: [Int], in text: [UInt8]) -> [Int] {
        guard !offsets.isEmpty else { return [] }
        var result: [Int] = []
        var scalar = 0
        var next = 0
        for (k, b) in text.enumerated() {
            // A scalar starts at every byte that is not a UTF-8 continuation byte.
            if b & 0xC0 == 0x80 { continue }
            while next < offsets.count && offsets[next] < k { next += 1 }
            if next < offsets.count && offsets[next] == k { result.append(scalar) }
            scalar += 1
        }
        return result
    }
}

/// fzf's `Status`.
public struct RemoteState: Equatable, Sendable {
    public var reading = false
    /// How much of the list for the query is ready, in percent.
    public var progress = 100
    public var query = ""
    /// The highlighted row's place in the list (0: the first match).
    public var position = 0
    public var sort = true
    public var totalCount = 0
    public var matchCount = 0
    public var current: RemoteItem? = nil
    public var matches: [RemoteItem] = []
    public var selected: [RemoteItem] = []

    public init() {}

    /// The state as fzf's JSON (one line).
    public var json: String {
        var out = "{\"reading\":\(reading),\"progress\":\(progress),\"query\":"
        Self.appendString(Array(query.utf8), to: &out)
        out += ",\"position\":\(position),\"sort\":\(sort),\"totalCount\":\(totalCount),\"matchCount\":\(matchCount)"
        out += ",\"current\":"
        if let current { Self.append(current, to: &out) } else { out += "null" }
        for (name, items) in [("matches", matches), ("selected", selected)] {
            out += ",\"\(name)\":["
            for (k, item) in items.enumerated() {
                if k > 0 { out += "," }
                Self.append(item, to: &out)
            }
            out += "]"
        }
        return out + "}"
    }

    static func append(_ item: RemoteItem, to out: inout String) {
        out += "{\"index\":\(item.index),\"text\":"
        appendString(item.text, to: &out)
        if !item.positions.isEmpty {
            out += ",\"positions\":[" + item.positions.map(String.init).joined(separator: ",") + "]"
        }
        out += "}"
    }

    /// A JSON string of `bytes`: invalid UTF-8 becomes U+FFFD (as Go's encoder does),
    /// control characters and U+2028/U+2029 are escaped.
    public static func appendString(_ bytes: [UInt8], to out: inout String) {
        out += "\""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}", "\u{2029}", "\u{7F}", "\u{0}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
