// What the built-in path previewer (`pick --preview-builtin PATH`, which `--preview builtin`
// runs) shows, apart from the file system it reads (Sources/Pick/Commands/BuiltinPreview.swift).
//
// - A text file: its first lines, bytes as they are (control bytes included: the preview
//   pane sanitises them as it does candidate lines).
// - A binary file: one line, `binary file, N bytes`. Binary means a NUL byte in the first
//   `Tunables.PathPreview.readBytes`, or more than `binaryInvalidPercent` of them in invalid
//   UTF-8; a Latin-1 text's few accented letters stay text.
// - A directory: its entries, sorted by bytes, the visible ones first and then the hidden
//   (so that a home directory's dot files do not push everything else out of the pane, yet
//   none is left out); directories end with `/`, symbolic links with `@` (as `ls -F`);
//   beyond the line limit, a `… N more` line.
// - Anything else is a one-line note, and the preview still succeeds, so the pane shows it.

/// The built-in path previewer's decisions: how many lines, text or binary, what a line says.
public enum PathPreview {
    /// Whether a file's first bytes are text to show.
    public enum Content: Equatable, Sendable {
        case empty
        case text
        case binary
    }

    /// What a directory entry is, as far as its mark goes.
    public enum EntryKind: Equatable, Sendable {
        case directory
        case symbolicLink
        case other
        /// Not known from the directory alone (`DT_UNKNOWN`): the reader asks the file system.
        case unknown
    }

    /// One directory entry: its name's bytes, and what it is.
    public struct Entry: Equatable, Sendable {
        /// The name's bytes, as the directory holds them.
        public var name: [UInt8]
        public var kind: EntryKind

        public init(name: [UInt8], kind: EntryKind) {
            self.name = name
            self.kind = kind
        }

        /// Hidden entries (`.name`) sort after the visible ones.
        var isHidden: Bool { name.first == UInt8(ascii: ".") }

        static func precedes(_ a: Entry, _ b: Entry) -> Bool {
            if a.isHidden != b.isHidden { return !a.isHidden }
            return a.name.lexicographicallyPrecedes(b.name)
        }
    }

    /// How many lines a preview shows: `PICK_PREVIEW_LINES` (the pane's height) when it asks
    /// for more than `Tunables.PathPreview.leastLines`, so that the pane scrolls, but never
    /// more than `mostLines`.
    public static func lineLimit(environment value: String?) -> Int {
        let asked = value.flatMap { Int($0) } ?? 0
        return min(max(asked, Tunables.PathPreview.leastLines), Tunables.PathPreview.mostLines)
    }

    /// Text, binary or empty, from a file's first bytes. `isWholeFile` says whether the
    /// sample is all of the file: if not, a character cut at its end is not invalid.
    public static func classify(_ sample: UnsafeBufferPointer<UInt8>, isWholeFile: Bool) -> Content {
        if sample.isEmpty { return .empty }
        if sample.contains(0) { return .binary }
        let invalid = invalidUTF8Bytes(sample, isWholeFile: isWholeFile)
        return invalid * 100 > sample.count * Tunables.PathPreview.binaryInvalidPercent ? .binary : .text
    }

    /// How many bytes of `sample` are not part of a well-formed UTF-8 sequence.
    static func invalidUTF8Bytes(_ s: UnsafeBufferPointer<UInt8>, isWholeFile: Bool) -> Int {
        var invalid = 0
        var i = 0
        let n = s.count
        while i < n {
            let b = s[i]
            if b < 0x80 { i += 1; continue }
            // The length the lead byte announces, and the range its second byte must be in
            // (which rules out overlong forms, surrogates and scalars past U+10FFFF).
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: invalid += 1; i += 1; continue
            }
            var k = 1
            while k < length, i + k < n {
                let c = s[i + k]
                let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
                guard c >= lo, c <= hi else { break }
                k += 1
            }
            if k == length {
                i += length
            } else if i + k == n && !isWholeFile {
                break  // cut by the end of the sample, not known to be invalid
            } else {
                invalid += 1
                i += 1
            }
        }
        return invalid
    }

    /// The number of leading bytes of `text` that make up its first `lines` lines.
    public static func firstLinesLength(_ text: UnsafeBufferPointer<UInt8>, lines: Int) -> Int {
        var seen = 0
        for (i, b) in text.enumerated() where b == 0x0A {
            seen += 1
            if seen == lines { return i + 1 }
        }
        return text.count
    }

    /// The note for a file that is not shown as text.
    public static func binaryNote(bytes: Int) -> String {
        "binary file, \(bytes) byte\(bytes == 1 ? "" : "s")"
    }

    /// A name or link target as one line: a newline in it is drawn as `␊` (any other control
    /// byte is left to the pane, which draws each as a visible symbol).
    public static func oneLine(_ name: [UInt8]) -> [UInt8] {
        guard name.contains(0x0A) else { return name }
        var out: [UInt8] = []
        out.reserveCapacity(name.count + 8)
        for b in name {
            if b == 0x0A { out += [0xE2, 0x90, 0x8A] } else { out.append(b) }
        }
        return out
    }

    /// The first entries of a directory in display order, however many it has: it keeps
    /// the `limit` first seen so far (sorting now and then), and counts the rest.
    public struct Listing {
        /// The lines the listing may take.
        public let limit: Int
        private var kept: [Entry] = []
        /// Every entry added.
        public private(set) var total = 0

        /// `lines`: the lines the listing may take, the `… N more` line included.
        public init(lines: Int) {
            limit = max(lines, 1)
        }

        /// Counts `entry`, and keeps it while it may still be among the first shown.
        public mutating func add(_ entry: Entry) {
            total += 1
            kept.append(entry)
            if kept.count >= 2 * limit + 64 { trim(to: limit) }
        }

        private mutating func trim(to count: Int) {
            kept.sort(by: Entry.precedes)
            if kept.count > count { kept.removeLast(kept.count - count) }
        }

        /// The entries shown, in order: all of them if they fit in `limit` lines, else one
        /// line fewer, for the `… N more` line.
        public mutating func shown() -> [Entry] {
            trim(to: total <= limit ? limit : limit - 1)
            return kept
        }

        /// The lines of the listing: each entry with its mark, then `… N more` if some did
        /// not fit. `shown` is what `shown()` gave, its unknown kinds resolved by the caller.
        public func render(_ shown: [Entry]) -> [UInt8] {
            if total == 0 { return Array("empty directory\n".utf8) }
            var out: [UInt8] = []
            for entry in shown {
                out += PathPreview.oneLine(entry.name)
                switch entry.kind {
                case .directory: out.append(UInt8(ascii: "/"))
                case .symbolicLink: out.append(UInt8(ascii: "@"))
                case .other, .unknown: break
                }
                out.append(0x0A)
            }
            if total > shown.count { out += Array("… \(total - shown.count) more\n".utf8) }
            return out
        }
    }
}
