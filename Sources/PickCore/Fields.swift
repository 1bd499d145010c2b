// TEMPORARY stand-in with the shared API (helper `fields` writes the real one): replaced
// by main's on merge. Blank-separated fields, a single index only.

public struct FieldDelimiter: Sendable {
    public init(_ spec: String?) throws(OptionError) {}
}

public struct FieldRanges: Sendable, Equatable {
    let index: Int
    public init(parsing: String) throws(OptionError) {
        guard let n = Int(parsing) else { throw OptionError(message: "bad field") }
        index = n
    }
}

public enum Fields {
    public static func select(_ r: FieldRanges, of line: [UInt8], _ d: FieldDelimiter) -> [UInt8] {
        let words = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        let i = r.index > 0 ? r.index - 1 : words.count + r.index
        return i >= 0 && i < words.count ? Array(words[i]) : []
    }
}
