@testable import PickCore
import XCTest

/// `--listen`'s HTTP parser: what curl and fzf's clients send is read, anything else is
/// answered with the error a client can act on, and nothing is read past the bounds.
final class HTTPRequestTests: XCTestCase {
    private let parser = HTTPRequestParser(limits: HTTPLimits(headerBytes: 512, headerFields: 8, bodyBytes: 64,
                                                              stateRows: 1000))

    private func parse(_ text: String, key: String? = nil) -> HTTPParse {
        HTTPRequestParser(limits: parser.limits, apiKey: key.map { Array($0.utf8) }).parse(Array(text.utf8))
    }

    private func status(_ text: String, key: String? = nil) -> Int? {
        if case .failed(let f) = parse(text, key: key) { return f.status }
        return nil
    }

    func testCurlsGetIsReadWithFzfsDefaultLimitAndOffset() {
        let request = "GET / HTTP/1.1\r\nHost: localhost:6266\r\nUser-Agent: curl/7.88.1\r\nAccept: */*\r\n\r\n"
        XCTAssertEqual(parse(request), .complete(HTTPRequest(method: .get, limit: 100, offset: 0, body: [])))
    }

    func testGetTakesLimitAndOffsetAndIgnoresOtherParameters() {
        XCTAssertEqual(parse("GET /?limit=5&offset=20&x=y HTTP/1.0\r\n\r\n"),
                       .complete(HTTPRequest(method: .get, limit: 5, offset: 20, body: [])))
    }

    func testANegativeOrHugeLimitIsRefused() {
        XCTAssertEqual(status("GET /?limit=-1 HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /?offset=1001 HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET /?limit=abc HTTP/1.1\r\n\r\n"), 400)
    }

    func testAPostBodyIsExactlyContentLengthBytes() {
        let request = "POST / HTTP/1.1\r\nContent-Length: 15\r\n\r\nchange-query(a)trailing"
        XCTAssertEqual(parse(request), .complete(HTTPRequest(method: .post, limit: 0, offset: 0,
                                                             body: Array("change-query(a)".utf8))))
    }

    func testAPostWaitsForItsWholeBody() {
        XCTAssertEqual(parse("POST / HTTP/1.1\r\nContent-Length: 15\r\n\r\nchange"), .incomplete(sendContinue: false))
        XCTAssertEqual(parse("POST / HTTP/1.1\r\nContent-Len"), .incomplete(sendContinue: false))
    }

    func testExpectContinueIsAnsweredOnceTheHeadersAreAccepted() {
        let head = "POST / HTTP/1.1\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n"
        XCTAssertEqual(parse(head), .incomplete(sendContinue: true))
        // Not before a wrong key: the client is refused without sending its body.
        XCTAssertEqual(status(head, key: "secret"), 401)
    }

    func testBareLineFeedsAreLineEnds() {
        XCTAssertEqual(parse("POST / HTTP/1.1\nContent-Length: 2\n\nup"),
                       .complete(HTTPRequest(method: .post, limit: 0, offset: 0, body: Array("up".utf8))))
    }

    func testAnotherMethodIsRefusedFromItsFirstBytes() {
        XCTAssertEqual(status("PUT"), 405)
        XCTAssertEqual(status("DELETE / HTTP/1.1\r\n\r\n"), 405)
        XCTAssertEqual(status("get / HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("\u{16}\u{3}\u{1}"), 400)  // a TLS hello
        XCTAssertEqual(parse("GE"), .incomplete(sendContinue: false))
    }

    func testAnotherPathIsNotFound() {
        XCTAssertEqual(status("GET /state HTTP/1.1\r\n\r\n"), 404)
        XCTAssertEqual(status("POST /x HTTP/1.1\r\nContent-Length: 2\r\n\r\nup"), 404)
    }

    func testAMalformedRequestLineIsRefused() {
        XCTAssertEqual(status("GET /  HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1 x\r\n\r\n"), 400)
        XCTAssertEqual(status("GET http://x/ HTTP/1.1\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/2.0\r\n\r\n"), 505)
        XCTAssertEqual(status("GET / HTTP/1.10\r\n\r\n"), 400)
        XCTAssertEqual(status("\r\nGET / HTTP/1.1\r\n\r\n"), 400)
    }

    func testARequestLineIsRefusedOnceWholeAndNotBeforeItsLineEnd() {
        // (The fuzz target's finding: `GET\r` was refused, `GET\r\n` then waited for more.)
        guard case .incomplete = parse("GET\r"), case .incomplete = parse("GET / HTTP/1.1\r") else {
            return XCTFail("a CR last may be the start of the line end")
        }
        XCTAssertEqual(status("GET\r\n"), 400, "a method alone is no request line, refused at its end")
        XCTAssertEqual(status("GET / HTTP/1.1 x\n"), 400, "before the headers come")
        guard case .incomplete = parse("GET / HTTP/1.1\r\n") else { return XCTFail("a good line waits for the headers") }
    }

    func testMalformedHeadersAreRefused() {
        XCTAssertEqual(status("GET / HTTP/1.1\r\nNoColon\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nBad Name: x\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost : x\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\n folded: x\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: a\u{0}b\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n"), 400)
    }

    func testContentLengthMustBeOneNumberWithinTheLimit() {
        XCTAssertEqual(status("POST / HTTP/1.1\r\n\r\n"), 411)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"), 400)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"), 400)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n"), 400)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nup"), 400)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nContent-Length: 65\r\n\r\n"), 413)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n"), 400)
        XCTAssertEqual(status("GET / HTTP/1.1\r\nContent-Length: 2\r\n\r\nup"), 400)
    }

    func testAChunkedBodyIsRefused() {
        XCTAssertEqual(status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nup\r\n0\r\n\r\n"), 411)
        XCTAssertEqual(status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\nup"), 400)
    }

    func testTooManyOrTooLargeHeadersAreRefusedBeforeTheyEnd() {
        let many = "GET / HTTP/1.1\r\n" + String(repeating: "A: b\r\n", count: 9)
        XCTAssertEqual(status(many), 431)
        let large = "GET / HTTP/1.1\r\nCookie: " + String(repeating: "x", count: 600)
        XCTAssertEqual(status(large), 431)
        XCTAssertEqual(status("GET /" + String(repeating: "x", count: 600)), 414)
    }

    func testTheApiKeyMustMatchExactly() {
        let get = "GET / HTTP/1.1\r\n%@\r\n"
        func with(_ header: String) -> String { get.replacingOccurrences(of: "%@", with: header) }
        XCTAssertEqual(status(with(""), key: "123abc"), 401)
        XCTAssertEqual(status(with("x-api-key: \r\n"), key: "123abc"), 401)
        XCTAssertEqual(status(with("x-api-key: 124abc\r\n"), key: "123abc"), 401)
        XCTAssertEqual(status(with("x-api-key: 123abc4\r\n"), key: "123abc"), 401)
        XCTAssertEqual(status(with("x-api-key: 123ab\r\n"), key: "123abc"), 401)
        XCTAssertNil(status(with("X-API-Key:  123abc \r\n"), key: "123abc"))
        XCTAssertEqual(status(with("x-api-key: 123abc\r\nx-api-key: 123abc\r\n"), key: "123abc"), 400)
        // No key set: none needed, and an empty one is none.
        XCTAssertNil(status(with("")))
        XCTAssertNil(status(with(""), key: ""))
    }

    func testAnswersCarryTheirLengthAndCloseTheConnection() {
        let bytes = HTTPResponse.failure(HTTPFailure(401, "invalid api key"))
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self),
                       "HTTP/1.1 401 Unauthorized\r\nContent-Length: 16\r\nConnection: close\r\n\r\ninvalid api key\n")
    }
}

/// What a request asks of the picker, and the state's JSON.
final class RemoteCommandTests: XCTestCase {
    private func post(_ body: String, runsCommands: Bool = true) -> Result<RemoteCommand, HTTPFailure> {
        RemoteCommand.decode(HTTPRequest(method: .post, limit: 0, offset: 0, body: Array(body.utf8)),
                             runsCommands: runsCommands)
    }

    func testAPostBodyIsAChainInBindSyntax() {
        XCTAssertEqual(try post("change-query(foo)+first\r\n").get(),
                       .actions([BoundAction(.changeQuery, "foo"), BoundAction(.first)]))
        XCTAssertEqual(try post("change-prompt:hundred> ").get(), .actions([BoundAction(.changePrompt, "hundred> ")]))
    }

    func testAnUnknownActionOrAnEmptyBodyIsABadRequest() {
        XCTAssertEqual(post("frob").failureStatus, 400)
        XCTAssertEqual(post("\r\n").failureStatus, 400)
        XCTAssertEqual(post("up\u{0}").failureStatus, 400)
        XCTAssertEqual(RemoteCommand.decode(HTTPRequest(method: .post, limit: 0, offset: 0, body: [0xFF, 0x75, 0x70]),
                                            runsCommands: true).failureStatus, 400)
    }

    func testCommandsFromAnotherAddressAreForbiddenUnlessUnsafe() {
        XCTAssertEqual(post("up+reload(seq 3)", runsCommands: false).failureStatus, 403)
        XCTAssertEqual(post("execute-silent(touch x)", runsCommands: false).failureStatus, 403)
        for spec in ["bg-transform(touch x)", "transform-search(touch x)", "bg-transform-list-label(touch x)",
                     "execute-multi(touch x)", "preview(touch x)"] {
            XCTAssertEqual(post(spec, runsCommands: false).failureStatus, 403, spec)
        }
        XCTAssertEqual(try post("up+change-query(x)", runsCommands: false).get(),
                       .actions([BoundAction(.up), BoundAction(.changeQuery, "x")]))
        XCTAssertEqual(try post("reload(seq 3)", runsCommands: true).get(), .actions([BoundAction(.reload, "seq 3")]))
    }

    func testListenAddressesAreReadAsFzfReadsThem() throws {
        XCTAssertEqual(try ListenAddress.parse("6266"), .tcp(host: "localhost", port: 6266))
        XCTAssertEqual(try ListenAddress.parse(":6266"), .tcp(host: "localhost", port: 6266))
        XCTAssertEqual(try ListenAddress.parse("0.0.0.0:0"), .tcp(host: "0.0.0.0", port: 0))
        XCTAssertEqual(try ListenAddress.parse("/tmp/fzf.sock"), .socket(path: "/tmp/fzf.sock"))
        XCTAssertEqual(try ListenAddress.parse("fzf.sock"), .socket(path: "fzf.sock"))
        for bad in ["65536", "x", "a:b:1", "", "-1", "+1"] {
            XCTAssertThrowsError(try ListenAddress.parse(bad), bad)
        }
    }

    func testListenOptionsParse() throws {
        var options = try Options.parse(arguments: ["--listen"])
        XCTAssertEqual(options.listen, .automatic)
        options = try Options.parse(arguments: ["--listen", "6266", "--multi"])
        XCTAssertEqual(options.listen, .tcp(host: "localhost", port: 6266))
        XCTAssertTrue(options.multi)
        options = try Options.parse(arguments: ["--listen-unsafe=0.0.0.0:1234"])
        XCTAssertEqual(options.listen, .tcp(host: "0.0.0.0", port: 1234))
        XCTAssertTrue(options.listenUnsafe)
        options = try Options.parse(arguments: ["--listen-unsafe", "--no-listen"])
        XCTAssertNil(options.listen)
        XCTAssertFalse(options.listenUnsafe)
        XCTAssertThrowsError(try Options.parse(arguments: ["--listen=99999"]))
    }

    func testTheStateIsFzfsJson() {
        var state = RemoteState()
        state.query = "1"
        state.totalCount = 20
        state.matchCount = 11
        state.current = RemoteItem(index: 0, text: Array("1".utf8), positions: [0])
        state.matches = [RemoteItem(index: 0, text: Array("1".utf8), positions: [0]),
                         RemoteItem(index: 9, text: Array("a\"\\\n\u{1}\u{2028}".utf8) + [0xFF])]
        XCTAssertEqual(state.json, """
            {"reading":false,"progress":100,"query":"1","position":0,"sort":true,"totalCount":20,"matchCount":11,\
            "current":{"index":0,"text":"1","positions":[0]},"matches":[{"index":0,"text":"1","positions":[0]},\
            {"index":9,"text":"a\\"\\\\\\n\\u0001\\u2028\u{FFFD}"}],"selected":[]}
            """)
    }

    func testPositionsCountCharactersNotBytes() {
        let text = Array("éaé b".utf8)  // é is two bytes
        XCTAssertEqual(RemoteItem.scalarPositions(ofBytes: [2, 3, 6], in: text), [1, 2, 4])
    }
}

private extension Result where Failure == HTTPFailure {
    var failureStatus: Int? {
        if case .failure(let f) = self { return f.status }
        return nil
    }
}
