import Foundation
import XCTest

/// Orders of `--filter` that fzf's suite checks, as fzf prints them.
final class FilterFzfOrderTests: XCTestCase {
    /// A query made only of negations scores every line alike: input order, as fzf.
    func testAQueryOfOnlyNegationsKeepsInputOrder() throws {
        let lines = ["bbb", "a", "cc", "ab", "xyz"]
        XCTAssertEqual(try runPick(["--filter", "!x"], lines: lines).lines, ["bbb", "a", "cc", "ab"])
        XCTAssertEqual(try runPick(["--filter", "!x !^c"], lines: lines).lines, ["bbb", "a", "ab"])
        // A positive term sorts again.
        XCTAssertEqual(try runPick(["--filter", "!x b"], lines: lines).lines, ["bbb", "ab"])
        XCTAssertEqual(try runPick(["--filter", "!x a"], lines: lines).lines, ["a", "ab"])
    }

    /// `--filter` run as fzf (a link named `fzf`) and by the real fzf, on the same lines.
    private func bothOrders(_ arguments: [String], _ lines: [String]) throws -> (pick: [String], fzf: [String]) {
        let link = FileManager.default.temporaryDirectory.appendingPathComponent("pick-as-fzf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: link, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: link) }
        let fzfLink = link.appendingPathComponent("fzf").path
        try FileManager.default.createSymbolicLink(atPath: fzfLink, withDestinationPath: pickBinaryPath())
        return (try runPick(arguments, lines: lines, binary: fzfLink).lines,
                try runPick(arguments, lines: lines, binary: try fzfPath()).lines)
    }

    /// Lines that look alike but for an accent or the case keep input order: an accented
    /// letter is one character, as long as the plain one.
    func testAccentedAndPlainLettersTieAsFzfOrdersThem() throws {
        let lines = ["a", "á", "A", "Á"]
        let orders = try bothOrders(["--filter", "a"], lines)
        XCTAssertEqual(orders.pick, lines)
        XCTAssertEqual(orders.pick, orders.fzf)
        XCTAssertEqual(try bothOrders(["--filter", "á"], lines).pick, ["á", "Á"])
    }

    /// The length tiebreak leaves out white space at either end, and reads the whole line
    /// even when `--nth` searches a field of it.
    func testLengthLeavesOutEdgeSpaceAndIgnoresNth() throws {
        let spaced = ["xoxxxxxxxx", "xxoxxxxxxx", "xxxxoxxxx", "  xxxxoxxx"]
        var orders = try bothOrders(["--filter", "o"], spaced)
        XCTAssertEqual(orders.pick, ["  xxxxoxxx", "xxxxoxxxx", "xoxxxxxxxx", "xxoxxxxxxx"])
        XCTAssertEqual(orders.pick, orders.fzf)
        let fields = ["1:hell", "123:hello", "12345:he", "1234567:h"]
        orders = try bothOrders(["--filter", "h", "-n2", "-d:"], fields)
        XCTAssertEqual(orders.pick, ["1:hell", "12345:he", "123:hello", "1234567:h"])
        XCTAssertEqual(orders.pick, orders.fzf)
    }

    /// `begin`, `end`, `chunk` and three criteria, as fzf orders them.
    func testTiebreaksOrderAsFzfs() throws {
        let spaced = ["xoxxxxxxxx", "xxoxxxxxxx", "xxxoxxxxxx", "xxxxoxxxx", "xxxxxoxxx", "  xxxxoxxx"]
        for tiebreak in ["end", "end,length,begin", "begin", "begin,length"] {
            let orders = try bothOrders(["--filter", "o", "--tiebreak", tiebreak], spaced)
            XCTAssertEqual(orders.pick, orders.fzf, tiebreak)
        }
        var orders = try bothOrders(["--filter", "baz", "--tiebreak=end"], ["/bar/baz", "/foo/bar/baz"])
        XCTAssertEqual(orders.pick, ["/foo/bar/baz", "/bar/baz"], "at the very end, the longer path's match ends nearer")
        XCTAssertEqual(orders.pick, orders.fzf)
        orders = try bothOrders(["--filter", "bar", "--tiebreak=begin"], ["baz foo bar", "foo bar baz"])
        XCTAssertEqual(orders.pick, ["foo bar baz", "baz foo bar"])
        XCTAssertEqual(orders.pick, orders.fzf)
        orders = try bothOrders(["--filter", "o", "--tiebreak=chunk"], ["1 foobarbaz ba", "2 foobar baz", "3 foo barbaz"])
        XCTAssertEqual(orders.pick, ["3 foo barbaz", "2 foobar baz", "1 foobarbaz ba"], "the shortest word around the match")
        XCTAssertEqual(orders.pick, orders.fzf)
        orders = try bothOrders(["--filter", "ba", "--tiebreak=chunk"], ["1 foobarbaz ba", "2 foobar baz", "3 foo barbaz"])
        XCTAssertEqual(orders.pick, ["1 foobarbaz ba", "2 foobar baz", "3 foo barbaz"],
                       "the word around the best match (` ba`), not around the first `b`")
        XCTAssertEqual(orders.pick, orders.fzf)
    }

    /// `'word'` ranks by what stands around the word, as each of fzf's schemes does.
    func testWordTermsRankByTheirBoundaryUnderEachScheme() throws {
        let lines = ["xxyzx", "-xxyz", "xyzx-", "_xyz_", "_xyz-", "-xyz_", "[xyz]", "-xyz-", " xyz ", "/xyz/"]
        let expected = [
            "default": [" xyz ", "/xyz/", "[xyz]", "-xyz-", "-xyz_", "_xyz-", "_xyz_"],
            "path": ["/xyz/", " xyz ", "[xyz]", "-xyz-", "-xyz_", "_xyz-", "_xyz_"],
            "history": ["[xyz]", "-xyz-", " xyz ", "/xyz/", "-xyz_", "_xyz-", "_xyz_"],
        ]
        for (scheme, order) in expected {
            let orders = try bothOrders(["--filter", "'xyz'", "--scheme=\(scheme)"], lines)
            XCTAssertEqual(orders.pick, order, scheme)
            XCTAssertEqual(orders.pick, orders.fzf, scheme)
        }
    }

    /// `+x`: the query is one term, its spaces and `$` literal.
    func testNoExtendedTakesTheQueryAsOneTerm() throws {
        let numbers = (1...100).map(String.init)
        XCTAssertEqual(try bothOrders(["--filter", "1 00$"], numbers).pick, ["100"])
        XCTAssertEqual(try bothOrders(["--filter", "1 00$", "+x"], numbers).pick, [])
        let orders = try bothOrders(["--filter", "a b", "+x"], ["ab", "a b", "a  b"])
        XCTAssertEqual(orders.pick, ["a b", "a  b"], "the space is a character to match")
        XCTAssertEqual(orders.pick, orders.fzf)
    }
}
