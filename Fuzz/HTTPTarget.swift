import PickCore

// MARK: --listen's HTTP parser

/// `HTTPRequestParser` on arbitrary bytes and on requests built to be good, with small
/// limits so that every bound is reached.
///
/// Input: a mode byte, then either raw bytes (mode even) or the parts of a good request
/// (mode odd: method and line-end choices, limit, offset, header names and values, a body,
/// split at 0xFE), which the target writes out as a client would.
///
/// Properties, for any bytes:
/// - the answer is the same when the bytes come in pieces: each proper prefix of a complete
///   request is `incomplete` (the server waits rather than refusing early), each longer one
///   gives the same request (bytes after it are not read); a refusal stays a refusal however
///   much follows;
/// - a request read is within the limits, a POST's body is its Content-Length bytes of the
///   input, and a wrong API key never gets a request through;
/// - a failure's status is a 4xx or 505 and its message one printable line.
/// For a good request: it is read back exactly (method, limit, offset, body), whatever the
/// case of the header names and the line ends.
enum HTTPTarget {
    static let limits = HTTPLimits(headerBytes: 300, headerFields: 6, bodyBytes: 120, stateRows: 500)

    static func run(_ input: [UInt8]) {
        var header = Header(input)
        let mode = header.byte()
        let parser = HTTPRequestParser(limits: limits)
        if mode & 1 == 0 {
            let bytes = header.rest
            checkPieces(bytes, parser)
            // With a key: nothing passes without it (the raw bytes rarely carry it).
            let keyed = HTTPRequestParser(limits: limits, apiKey: Array("k3y".utf8))
            if case .complete = keyed.parse(bytes) {
                check(containsKeyHeader(bytes), "a request without the key got through")
            }
            return
        }
        good(mode: mode, header.rest, parser)
    }

    /// The properties every input keeps.
    static func checkPieces(_ bytes: [UInt8], _ parser: HTTPRequestParser) {
        let whole = parser.parse(bytes)
        checkAnswer(whole, bytes)
        // Where the answer first settles: a complete request, or a refusal.
        var settled: Int? = nil
        let cuts = bytes.count <= 400 ? Array(0...bytes.count) : Array(stride(from: 0, through: bytes.count, by: 7)) + [bytes.count]
        for cut in cuts {
            let answer = parser.parse(Array(bytes[0..<cut]))
            switch answer {
            case .incomplete:
                // A refusal stays one; a request read stays read.
                if let s = settled { check(false, "a prefix of \(cut) bytes is incomplete after one of \(s) settled") }
            case .failed:
                if settled == nil { settled = cut }
                if case .complete = whole { check(false, "a prefix of \(cut) bytes is refused; the whole is read") }
                if case .incomplete = whole { check(false, "a prefix of \(cut) bytes is refused; the whole is incomplete") }
            case .complete(let r):
                if settled == nil { settled = cut }
                check(answer == whole, "a prefix of \(cut) bytes reads \(r), the whole \(whole)")
            }
        }
    }

    static func checkAnswer(_ answer: HTTPParse, _ bytes: [UInt8]) {
        switch answer {
        case .incomplete:
            check(bytes.count < limits.headerBytes + limits.bodyBytes, "\(bytes.count) bytes and still incomplete")
        case .failed(let f):
            check((400..<500).contains(f.status) || f.status == 505, "status \(f.status)")
            check(!f.message.isEmpty && f.message.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F },
                  "message \(f.message.debugDescription)")
            check(f.reason != "Error", "no reason phrase for \(f.status)")
        case .complete(let r):
            check(r.limit <= limits.stateRows && r.offset <= limits.stateRows, "limit \(r.limit) offset \(r.offset)")
            check(r.body.count <= limits.bodyBytes, "a body of \(r.body.count) bytes")
            if r.method == .post {
                check(!r.body.isEmpty, "an empty POST read")
                check(bytes.count >= r.body.count && containsSlice(bytes, r.body), "a body that was not sent")
            } else {
                check(r.body.isEmpty, "a GET with a body")
            }
        }
    }

    /// A request written from the input's parts, read back exactly.
    static func good(mode: UInt8, _ rest: [UInt8], _ parser: HTTPRequestParser) {
        var dice = Dice(mode)
        let parts = rest.split(separator: 0xFE, omittingEmptySubsequences: false).map(Array.init)
        let post = mode & 2 != 0
        let end = mode & 4 != 0 ? "\n" : "\r\n"
        let limit = dice.below(limits.stateRows + 1), offset = dice.below(limits.stateRows + 1)
        var body = parts.first ?? []
        if body.isEmpty { body = Array("up".utf8) }
        body = Array(body.prefix(limits.bodyBytes))
        var text = post ? "POST / HTTP/1.\(dice.below(2))" + end
                        : "GET /?limit=\(limit)&x=1&offset=\(offset) HTTP/1.1" + end
        var fields = 0
        for part in parts.dropFirst().prefix(limits.headerFields - 2) where !part.isEmpty {
            // (A field name is one token byte at least: an empty part gives no field.)
            // A name of token bytes, a value of visible bytes (both from the input).
            let name = String(decoding: part.prefix(8).map { tokenByte($0) }, as: UTF8.self)
            let value = String(decoding: part.dropFirst(8).prefix(40).map { $0 < 0x21 || $0 > 0x7E ? 0x61 : $0 }, as: UTF8.self)
            let lower = name.lowercased()
            guard !["content-length", "transfer-encoding", "x-api-key", "expect"].contains(lower) else { continue }
            text += name + ":" + (dice.below(2) == 0 ? " " : "") + value + end
            fields += 1
        }
        let lengthName = ["Content-Length", "content-length", "CONTENT-LENGTH"][dice.below(3)]
        if post || dice.below(2) == 0 { text += "\(lengthName): \(post ? body.count : 0)" + end }
        var bytes = Array((text + end).utf8)
        if post { bytes += body }
        let expected = post ? HTTPRequest(method: .post, limit: 0, offset: 0, body: body)
                            : HTTPRequest(method: .get, limit: limit, offset: offset, body: [])
        let answer = parser.parse(bytes)
        check(answer == .complete(expected), "a good request read as \(answer); sent \(bytes)")
        checkPieces(bytes, parser)
        // The same with the key, right and wrong.
        let keyed = HTTPRequestParser(limits: limits, apiKey: Array("k3y".utf8))
        let keyLine = Array("x-api-key: k3y".utf8) + (end == "\n" ? [0x0A] : [0x0D, 0x0A])
        let requestLine = bytes.firstIndex(of: 0x0A)! + 1
        let withKey = Array(bytes[0..<requestLine]) + keyLine + bytes[requestLine...]
        if withKey.count - body.count <= limits.headerBytes {
            check(keyed.parse(withKey) == .complete(expected), "the right key refused")
        }
        if case .failed(let f) = keyed.parse(bytes) { check(f.status == 401, "no key: \(f.status)") } else {
            check(false, "a request without the key got through")
        }
    }

    static func tokenByte(_ b: UInt8) -> UInt8 {
        let tokens = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~".utf8)
        return tokens[Int(b) % tokens.count]
    }

    static func containsKeyHeader(_ bytes: [UInt8]) -> Bool {
        let lower = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return containsSlice(lower, Array("x-api-key".utf8)) && containsSlice(bytes, Array("k3y".utf8))
    }

    static func containsSlice(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard bytes.count >= needle.count else { return false }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
