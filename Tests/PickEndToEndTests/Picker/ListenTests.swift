import Foundation
import XCTest

/// `--listen`: the real binary in tmux, driven over loopback with curl as fzf's users do.
final class ListenTests: InteractiveTestCase {
    override func setUpWithError() throws {
        try super.setUpWithError()
        guard (try? TmuxPick.shell(["curl", "--version"]))?.status == 0 else { throw XCTSkip("curl is not installed") }
    }

    /// Runs curl; returns the HTTP status (0: no connection) and the body.
    @discardableResult
    private func curl(_ args: String...) throws -> (status: Int, body: String) {
        let out = try TmuxPick.shell(["curl", "-s", "-m", "10", "-w", "\n%{http_code}"] + args).output
        var lines = out.components(separatedBy: "\n")
        let status = Int(lines.removeLast()) ?? -1
        return (status, lines.joined(separator: "\n"))
    }

    /// curl's own exit status for a GET (7: the connection was refused).
    private func refusal(_ url: String) throws -> Int32 {
        try TmuxPick.shell(["curl", "-s", "-m", "3", url]).status
    }

    /// Starts pick with a port chosen for it, which a start binding writes to a file (the
    /// environment variable fzf exports); returns the server's URL.
    /// `onStart`: actions to run first.
    private func startListening(_ input: String = "seq 20", args: String = "", environment: [String: String] = [:],
                                onStart: String = "") throws -> String {
        try tmux.start(input: input, args: "--listen \(args) --bind 'start:\(onStart)execute-silent:echo $FZF_PORT > port'",
                       environment: environment)
        let port = waitForFile("port")
        XCTAssertNotNil(Int(port), "FZF_PORT: \(port)")
        return "http://127.0.0.1:\(port)/"
    }

    private func waitForFile(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        let path = tmux.dir.appendingPathComponent(name)
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        while Date() < end {
            if let text = try? String(contentsOf: path, encoding: .utf8), text.hasSuffix("\n") {
                return text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            usleep(20_000)
        }
        XCTFail("no \(name); screen:\n" + tmux.screen().joined(separator: "\n") + "\n" + tmux.stderr, file: file, line: line)
        return ""
    }

    private func state(_ url: String) throws -> [String: Any] {
        let (status, body) = try curl(url)
        XCTAssertEqual(status, 200, body)
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
    }

    func testPostedActionsChangeTheScreenAndGetReadsTheState() throws {
        let url = try startListening(args: "--multi")
        tmux.waitFor(text: "20/20")
        var s = try state(url)
        XCTAssertEqual(s["totalCount"] as? Int, 20)
        XCTAssertEqual(s["matchCount"] as? Int, 20)
        XCTAssertEqual(s["query"] as? String, "")
        XCTAssertEqual((s["current"] as? [String: Any])?["text"] as? String, "1")
        XCTAssertEqual((s["matches"] as? [Any])?.count, 20)

        let posted = try curl("-X", "POST", url, "-d", "change-query(1)+select+change-prompt(remote> )")
        XCTAssertEqual(posted.status, 200)
        tmux.waitFor(text: "remote> 1")
        tmux.waitFor(text: "11/20")
        s = try state(url + "?limit=2&offset=1")
        XCTAssertEqual(s["query"] as? String, "1")
        XCTAssertEqual(s["matchCount"] as? Int, 11)
        let current = s["current"] as? [String: Any]
        XCTAssertEqual(current?["text"] as? String, "1")
        XCTAssertEqual(current?["positions"] as? [Int], [0])
        let matches = (s["matches"] as? [[String: Any]])?.map { $0["text"] as? String }
        XCTAssertEqual(matches, ["10", "11"])
        XCTAssertEqual((s["selected"] as? [[String: Any]])?.count, 0, "offset 1 skips the one marked line")
        XCTAssertEqual(((try state(url))["selected"] as? [[String: Any]])?.map { $0["index"] as? Int }, [0])

        // An action pick does not know: 400, and nothing in the chain ran.
        let bad = try curl("-X", "POST", url, "-d", "change-query(zzz)+frobnicate")
        XCTAssertEqual(bad.status, 400)
        XCTAssertTrue(bad.body.contains("frobnicate"), bad.body)
        XCTAssertEqual(try state(url)["query"] as? String, "1")

        XCTAssertEqual(try curl("-X", "POST", url, "-d", "accept").status, 200)
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "1\n")
    }

    /// As fzf's: GET says `reading` while a reload's command runs, the old list's lines
    /// still listed, and no longer once its lines are in.
    func testGetSaysReadingWhileAReloadRuns() throws {
        try tmux.file("go", "")
        let url = try startListening(args: "--bind 'ctrl-r:reload(while [ -e go ]; do sleep 0.05; done; seq 5)'")
        tmux.waitFor(text: "20/20")
        XCTAssertEqual(try state(url)["reading"] as? Bool, false)
        tmux.keys("C-r")
        let end = Date().addingTimeInterval(TmuxPick.deadline)
        var s = try state(url)
        while s["reading"] as? Bool != true && Date() < end { s = try state(url) }
        XCTAssertEqual(s["reading"] as? Bool, true)
        XCTAssertEqual(s["totalCount"] as? Int, 20, "the old list until the reload's lines come")
        try FileManager.default.removeItem(atPath: tmux.dir.appendingPathComponent("go").path)
        tmux.waitFor(text: "5/5")
        while s["reading"] as? Bool != false && Date() < end { s = try state(url) }
        XCTAssertEqual(s["reading"] as? Bool, false)
        XCTAssertEqual(s["totalCount"] as? Int, 5)
    }

    func testAWrongOrMissingApiKeyIsRefused() throws {
        let url = try startListening(environment: ["FZF_API_KEY": "123abc"])
        tmux.waitFor(text: "20/20")
        for header in [[], ["-H", "x-api-key: 124abc"], ["-H", "x-api-key:"]] {
            let get = try TmuxPick.shell(["curl", "-s", "-m", "10", "-w", "\n%{http_code}"] + header + [url]).output
            XCTAssertTrue(get.hasSuffix("invalid api key\n\n401"), get)
            let post = try TmuxPick.shell(["curl", "-s", "-m", "10", "-w", "\n%{http_code}", "-d", "change-query(yo)"]
                                          + header + [url]).output
            XCTAssertTrue(post.hasSuffix("\n401"), post)
        }
        XCTAssertFalse(tmux.screen().contains { $0.contains("yo") })
        XCTAssertEqual(try curl("-H", "X-API-Key: 123abc", "-d", "change-query(yo)", url).status, 200)
        tmux.waitFor(text: "> yo")
    }

    func testAnOversizedBodyIs413AndChangesNothing() throws {
        let url = try startListening()
        tmux.waitFor(text: "20/20")
        let big = try tmux.file("big", "change-query(" + String(repeating: "x", count: 2 << 20) + ")")
        // Without Expect (the whole body is sent at once) and with it (refused before it is sent).
        XCTAssertEqual(try curl("-H", "Expect:", "--data-binary", "@\(big)", url).status, 413)
        XCTAssertEqual(try curl("--data-binary", "@\(big)", url).status, 413)
        XCTAssertEqual(try state(url)["query"] as? String, "")
        tmux.waitFor(text: "20/20")
    }

    func testASlowClientIsCutOffWhileOthersAreServed() throws {
        let url = try startListening()
        let port = UInt16(URL(string: url)!.port!)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let started = Date()
        let partial = Array("POST / HTTP/1.1\r\nContent-Length: 15\r\n\r\nchange-q".utf8)
        XCTAssertEqual(send(fd, partial, partial.count, 0), partial.count)
        // Meanwhile the server answers another client.
        XCTAssertEqual(try state(url)["query"] as? String, "")
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date().timeIntervalSince(started) < 15 {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 200) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            answer += buffer[0..<n]
        }
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).hasPrefix("HTTP/1.1 408 "),
                      String(decoding: answer, as: UTF8.self))
        XCTAssertEqual(try state(url)["query"] as? String, "", "the cut-off request changed nothing")
    }

    func testARequestThePickerCannotTakeInTimeIs503AndChangesNothing() throws {
        let url = try startListening()
        tmux.waitFor(text: "20/20")
        // execute's command holds the picker (the terminal is the command's) for 4 s.
        XCTAssertEqual(try curl("-d", "execute(sleep 4)", url).status, 200)
        let late = try curl("-d", "change-query(late)", url)
        XCTAssertEqual(late.status, 503, late.body)
        tmux.waitFor(text: "20/20")
        XCTAssertEqual(try state(url)["query"] as? String, "")
    }

    func testAUnixSocketIsTheOwnersOnlyAndGoesWithPick() throws {
        let path = tmux.dir.appendingPathComponent("pick.sock").path
        try tmux.start(input: "seq 5", args: "--listen '\(path)' --bind 'start:execute-silent:echo \"$FZF_SOCK\" > sock'")
        XCTAssertEqual(waitForFile("sock"), path)
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFSOCK)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let posted = try curl("--unix-socket", path, "-d", "change-query(3)", "http://pick/")
        XCTAssertEqual(posted.status, 200)
        tmux.waitFor(text: "1/5")
        XCTAssertTrue(try curl("--unix-socket", path, "http://pick/").body.contains("\"query\":\"3\""))
        tmux.keys("Enter")
        XCTAssertEqual(tmux.exitStatus(), 0)
        XCTAssertEqual(tmux.stdout, "3\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the socket file stays after pick")
    }

    func testNoPortIsLeftOpenAfterPickExitsOrBecomesAnotherProgram() throws {
        // A command that leaves pick's process group, and outlives pick, must not hold the port.
        var url = try startListening(onStart: "execute-silent(setsid sleep 15 </dev/null >/dev/null 2>&1 &)+")
        XCTAssertEqual(try curl(url).status, 200)
        tmux.keys("Escape")
        XCTAssertEqual(tmux.exitStatus(), 130)
        XCTAssertEqual(try refusal(url), 7, "curl's status connecting after pick exited (7: refused)")
        tmux.close()

        // become: the program in pick's place must not hold the port (close-on-exec).
        tmux = try TmuxPick(test: name)
        url = try startListening()
        XCTAssertEqual(try curl("-d", "become(echo became > became; exec sleep 30)", url).status, 200)
        XCTAssertEqual(waitForFile("became"), "became")
        XCTAssertEqual(try refusal(url), 7, "curl's status connecting after pick became another program (7: refused)")
    }

    func testAnotherAddressThanLoopbackNeedsAKeyAndKeepsCommandsForUnsafe() throws {
        try tmux.start(input: "seq 3", args: "--listen 0.0.0.0:0")
        XCTAssertEqual(tmux.exitStatus(), 2)
        XCTAssertTrue(tmux.stderr.contains("FZF_API_KEY"), tmux.stderr)
        tmux.close()

        tmux = try TmuxPick(test: name)
        let key = ["FZF_API_KEY": "k"]
        let url = try startListening(args: "0.0.0.0:0", environment: key)
        tmux.waitFor(text: "20/20")
        let forbidden = try curl("-H", "x-api-key: k", "-d", "change-query(5)+reload(seq 100)", url)
        XCTAssertEqual(forbidden.status, 403)
        XCTAssertEqual(try curl("-H", "x-api-key: k", "-d", "change-query(5)", url).status, 200)
        tmux.waitFor(text: "2/20")
        tmux.close()

        tmux = try TmuxPick(test: name)
        let unsafe = try startListening(args: "--listen-unsafe 0.0.0.0:0", environment: key)
        XCTAssertEqual(try curl("-H", "x-api-key: k", "-d", "reload(seq 100)", unsafe).status, 200)
        tmux.waitFor(text: "100/100")
    }
}
