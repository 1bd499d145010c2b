// A strict parser of the HTTP/1.x subset that `--listen` serves (fzf's protocol): a GET of
// `/` (with `?limit=N&offset=M`) or a POST of `/` with a body of actions, both closed after
// one answer. Pure: the bytes received so far in, a request, "more please", or the HTTP
// error to answer out. The server calls it again as bytes arrive (a request is small).
//
//     request  := request-line *( header-line ) line-end [ body ]
//     request-line := ( "GET" | "POST" ) SP target SP "HTTP/1." DIGIT line-end
//     target   := "/" [ "?" query ]             query: name=value pairs joined by "&"
//     header-line := token ":" OWS value OWS line-end     (no folding, no control bytes)
//     line-end := CRLF | LF                      (a CR anywhere else is refused)
//
// Only `Content-Length` frames a body (a `Transfer-Encoding` is refused: 411, or 400 beside
// a length, which is how requests are smuggled); `Expect: 100-continue` is answered once the
// headers are read and accepted, so a client gets a 401 or 413 before it sends the body.
// Everything that is not understood is refused rather than guessed at: this is a control
// socket, and a client that is not curl-shaped has no business with it.

/// The bounds a request must keep (`Tunables.Listen` in the server).
public struct HTTPLimits: Sendable, Equatable {
    public var headerBytes: Int
    public var headerFields: Int
    public var bodyBytes: Int
    public var stateRows: Int

    public init(headerBytes: Int = Tunables.Listen.headerBytes, headerFields: Int = Tunables.Listen.headerFields,
                bodyBytes: Int = Tunables.Listen.bodyBytes, stateRows: Int = Tunables.Listen.stateRows) {
        self.headerBytes = headerBytes
        self.headerFields = headerFields
        self.bodyBytes = bodyBytes
        self.stateRows = stateRows
    }
}

/// A request `--listen` serves.
public struct HTTPRequest: Equatable, Sendable {
    public enum Method: String, Sendable { case get = "GET", post = "POST" }
    public var method: Method
    /// GET's `limit` and `offset` (fzf's defaults 100 and 0).
    public var limit: Int
    public var offset: Int
    /// POST's body, exactly Content-Length bytes.
    public var body: [UInt8]

    public init(method: Method, limit: Int, offset: Int, body: [UInt8]) {
        self.method = method
        self.limit = limit
        self.offset = offset
        self.body = body
    }
}

/// An HTTP error answer: the status, its reason phrase, and a one-line message for the body.
public struct HTTPFailure: Error, Equatable, Sendable {
    public var status: Int
    public var message: String

    public init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    public var reason: String { HTTPResponse.reason(status) }
}

/// What the bytes received so far amount to.
public enum HTTPParse: Equatable, Sendable {
    /// More bytes are needed. `sendContinue`: the headers are in and accepted, and the
    /// client asked to be told so (`Expect: 100-continue`) before it sends the body.
    case incomplete(sendContinue: Bool)
    case complete(HTTPRequest)
    case failed(HTTPFailure)
}

/// The parser: its limits, and the API key every request must carry (nil: none asked).
public struct HTTPRequestParser: Sendable {
    public var limits: HTTPLimits
    public var apiKey: [UInt8]?

    public init(limits: HTTPLimits = HTTPLimits(), apiKey: [UInt8]? = nil) {
        self.limits = limits
        self.apiKey = apiKey.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Parses the bytes of one connection received so far.
    public func parse(_ bytes: [UInt8]) -> HTTPParse {
        // The header section: up to the empty line, within the limit.
        var lines: [Range<Int>] = []
        var start = 0
        var end: Int? = nil
        var i = 0
        let scanEnd = min(bytes.count, limits.headerBytes)
        while i < scanEnd {
            let b = bytes[i]
            if b == 0x0A {
                let lineEnd = i > start && bytes[i - 1] == 0x0D ? i - 1 : i
                if lineEnd == start {
                    // An empty line before the request line is tolerated by RFC 9112 (2.2);
                    // here it is refused like any other oddity.
                    if lines.isEmpty { return .failed(HTTPFailure(400, "invalid request line")) }
                    end = i + 1
                    break
                }
                lines.append(start..<lineEnd)
                if lines.count > limits.headerFields + 1 {
                    return .failed(HTTPFailure(431, "too many header fields"))
                }
                start = i + 1
            } else if b == 0x0D {
                if i + 1 < bytes.count && bytes[i + 1] != 0x0A { return .failed(HTTPFailure(400, "stray carriage return")) }
            } else if b == 0 || (b < 0x20 && b != 0x09) || b == 0x7F {
                return .failed(HTTPFailure(400, "control character in the request header"))
            }
            i += 1
        }
        // The request line can be judged before the rest arrives.
        var firstLine = lines.first ?? start..<(bytes.firstIndex(of: 0x0A) ?? bytes.count)
        // A CR last of what came may be the start of the line's CRLF: not judged yet.
        if lines.isEmpty, firstLine.upperBound == bytes.count, bytes.last == 0x0D {
            firstLine = firstLine.lowerBound..<(firstLine.upperBound - 1)
        }
        if let failure = checkRequestLineStart(bytes[firstLine], complete: !lines.isEmpty) { return .failed(failure) }
        guard let headerEnd = end else {
            if bytes.count >= limits.headerBytes {
                return .failed(lines.isEmpty ? HTTPFailure(414, "request line too long")
                                             : HTTPFailure(431, "request header too large"))
            }
            return .incomplete(sendContinue: false)
        }

        // The request line.
        let (method, target) : (HTTPRequest.Method, ArraySlice<UInt8>)
        switch requestLine(bytes[lines[0]]) {
        case .failure(let f): return .failed(f)
        case .success(let r): (method, target) = r
        }

        // The header fields.
        var contentLength: Int? = nil
        var key: ArraySlice<UInt8>? = nil
        var transferEncoding = false
        var expectsContinue = false
        for range in lines.dropFirst() {
            let line = bytes[range]
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex else {
                return .failed(HTTPFailure(400, "invalid header field"))
            }
            let name = line[line.startIndex..<colon]
            guard name.allSatisfy(Self.isTokenByte) else { return .failed(HTTPFailure(400, "invalid header field name")) }
            var value = line[(colon + 1)...]
            while let f = value.first, f == 0x20 || f == 0x09 { value = value.dropFirst() }
            while let l = value.last, l == 0x20 || l == 0x09 { value = value.dropLast() }
            switch Self.lowercased(name) {
            case Array("content-length".utf8):
                guard !value.isEmpty, value.count <= 19, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                      let n = Int(String(decoding: value, as: UTF8.self)) else {
                    return .failed(HTTPFailure(400, "invalid content length"))
                }
                if let earlier = contentLength, earlier != n { return .failed(HTTPFailure(400, "invalid content length")) }
                contentLength = n
            case Array("transfer-encoding".utf8):
                transferEncoding = true
            case Array("x-api-key".utf8):
                if key != nil { return .failed(HTTPFailure(400, "x-api-key given twice")) }
                key = value
            case Array("expect".utf8):
                guard Self.lowercased(value) == Array("100-continue".utf8) else {
                    return .failed(HTTPFailure(417, "only 100-continue is expected"))
                }
                expectsContinue = true
            default:
                break
            }
        }
        if transferEncoding {
            return .failed(contentLength == nil ? HTTPFailure(411, "content-length header missing")
                                                : HTTPFailure(400, "both transfer-encoding and content-length"))
        }
        // The key before anything about the body: a client without it learns nothing more.
        if let apiKey, !Self.constantTimeEqual(key ?? [], apiKey) {
            return .failed(HTTPFailure(401, "invalid api key"))
        }

        switch method {
        case .get:
            if let n = contentLength, n > 0 { return .failed(HTTPFailure(400, "a GET takes no body")) }
            switch query(target) {
            case .failure(let f): return .failed(f)
            case .success(let q): return .complete(HTTPRequest(method: .get, limit: q.limit, offset: q.offset, body: []))
            }
        case .post:
            guard target.elementsEqual([0x2F]) else { return .failed(HTTPFailure(404, "not found")) }
            guard let length = contentLength else { return .failed(HTTPFailure(411, "content-length header missing")) }
            if length == 0 { return .failed(HTTPFailure(400, "no action specified")) }
            if length > limits.bodyBytes { return .failed(HTTPFailure(413, "request body too large")) }
            guard bytes.count - headerEnd >= length else { return .incomplete(sendContinue: expectsContinue) }
            let body = Array(bytes[headerEnd..<(headerEnd + length)])
            return .complete(HTTPRequest(method: .post, limit: 0, offset: 0, body: body))
        }
    }

    // MARK: The request line

    /// Refuses a request line that cannot become a good one, from its first bytes on (so a
    /// client sending anything but GET or POST is answered at once).
    private func checkRequestLineStart(_ line: ArraySlice<UInt8>, complete: Bool) -> HTTPFailure? {
        // A whole line is judged whole at once (`GET` alone is no request line), so that no
        // longer prefix waits for more where a shorter one was refused.
        let space = line.firstIndex(of: 0x20) ?? line.endIndex
        let method = line[line.startIndex..<space]
        let known = [Array("GET".utf8), Array("POST".utf8)]
        if space == line.endIndex && !complete {
            return known.contains { $0.starts(with: method) } ? nil : methodFailure(method)
        }
        guard known.contains(where: { $0.elementsEqual(method) }) else { return methodFailure(method) }
        if complete, case .failure(let failure) = requestLine(line) { return failure }
        return nil
    }

    private func methodFailure(_ method: ArraySlice<UInt8>) -> HTTPFailure {
        !method.isEmpty && method.allSatisfy(Self.isTokenByte) && method.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A })
            ? HTTPFailure(405, "invalid request method") : HTTPFailure(400, "invalid request method")
    }

    private func requestLine(_ line: ArraySlice<UInt8>) -> Result<(HTTPRequest.Method, ArraySlice<UInt8>), HTTPFailure> {
        let parts = line.split(separator: 0x20, maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 3, let method = HTTPRequest.Method(rawValue: String(decoding: parts[0], as: UTF8.self)) else {
            return .failure(HTTPFailure(400, "invalid request line"))
        }
        let version = parts[2]
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
              let major = version.dropFirst(5).first, major >= 0x30 && major <= 0x39,
              version[version.startIndex + 6] == 0x2E,
              let minor = version.last, minor >= 0x30 && minor <= 0x39 else {
            return .failure(HTTPFailure(400, "invalid request line"))
        }
        guard major == 0x31 else { return .failure(HTTPFailure(505, "only HTTP/1.x is served")) }
        let target = parts[1]
        guard target.first == 0x2F, target.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return .failure(HTTPFailure(400, "invalid request target"))
        }
        return .success((method, target))
    }

    /// GET's target: `/`, then `limit` and `offset` (others are ignored, as fzf ignores them).
    private func query(_ target: ArraySlice<UInt8>) -> Result<(limit: Int, offset: Int), HTTPFailure> {
        let question = target.firstIndex(of: 0x3F) ?? target.endIndex
        guard target[target.startIndex..<question].elementsEqual([0x2F]) else {
            return .failure(HTTPFailure(404, "not found"))
        }
        var limit = 100, offset = 0
        guard question < target.endIndex else { return .success((limit, offset)) }
        for pair in target[(question + 1)...].split(separator: 0x26, omittingEmptySubsequences: true) {
            guard let eq = pair.firstIndex(of: 0x3D) else { continue }
            let name = String(decoding: pair[pair.startIndex..<eq], as: UTF8.self)
            guard name == "limit" || name == "offset" else { continue }
            let value = pair[(eq + 1)...]
            guard !value.isEmpty, value.count <= 9, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let n = Int(String(decoding: value, as: UTF8.self)), n <= limits.stateRows else {
                return .failure(HTTPFailure(400, "invalid \(name): expected a whole number up to \(limits.stateRows)"))
            }
            if name == "limit" { limit = n } else { offset = n }
        }
        return .success((limit, offset))
    }

    // MARK: Bytes

    /// RFC 9110's tchar.
    static func isTokenByte(_ b: UInt8) -> Bool {
        switch b {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(b)
        }
    }

    static func lowercased(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// Compares without stopping at the first difference, so that the time taken tells
    /// nothing of how much of a guessed key was right.
    static func constantTimeEqual(_ a: ArraySlice<UInt8>, _ b: [UInt8]) -> Bool {
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for k in 0..<b.count {
            let x = k < a.count ? a[a.startIndex + k] : 0
            difference |= x ^ b[k]
        }
        return difference == 0
    }
}

/// The answers the server writes: fzf's, plus `Connection: close` (one request a connection).
public enum HTTPResponse {
    public static func reason(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 417: return "Expectation Failed"
        case 431: return "Request Header Fields Too Large"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Error"
        }
    }

    /// `HTTP/1.1 100 Continue`, for a client that waits for it before sending the body.
    public static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// An answer with `body` (a line: fzf ends every body with a newline).
    public static func bytes(status: Int, json: Bool = false, body: String) -> [UInt8] {
        let text = body.isEmpty ? "" : body + "\n"
        var head = "HTTP/1.1 \(status) \(reason(status))\r\n"
        if json { head += "Content-Type: application/json\r\n" }
        if status == 405 { head += "Allow: GET, POST\r\n" }
        head += "Content-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + text).utf8)
    }

    public static func failure(_ f: HTTPFailure) -> [UInt8] { bytes(status: f.status, body: f.message) }
}
