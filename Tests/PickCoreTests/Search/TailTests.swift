import XCTest
@testable import PickCore

/// `--tail N`: only the last N lines read are candidates, after the header lines, as the
/// input grows (fzf's log-stream use: `tail -f app.log | fzf --tail 1000`).
final class TailTests: XCTestCase {
    private func text(_ store: LineStore, _ result: SearchResult) -> [String] {
        result.lines.map { String(decoding: store.bytes(of: Int($0)), as: UTF8.self) }
    }

    func testOnlyTheLastLinesAreListedSearchedAndCounted() throws {
        let store = makeStore((1...10).map { "line \($0)" }, plain: true)
        let engine = SearchEngine(store: store, keepsLast: 3)
        let all = try XCTUnwrap(engine.search(""))
        XCTAssertEqual(text(store, all), ["line 8", "line 9", "line 10"])
        XCTAssertEqual(all.searched, 3, "the count is of the lines kept")
        XCTAssertEqual(text(store, try XCTUnwrap(engine.search("1"))), ["line 10"], "line 1 has left")
        XCTAssertEqual(engine.searchAllInput("line").lines.count, 3)
    }

    func testHeaderLinesStayAndTheWindowFollowsTheInput() throws {
        let store = LineStore(separator: 0x0A, parsesFields: false)
        store.append(Array("header\n".utf8) + (1...5).flatMap { Array("item \($0)\n".utf8) })
        let engine = SearchEngine(store: store, skippedLines: 1, keepsLast: 2)
        XCTAssertEqual(text(store, try XCTUnwrap(engine.search("item"))), ["item 4", "item 5"])
        XCTAssertEqual(text(store, try XCTUnwrap(engine.search("item 4"))), ["item 4"])
        // Two more lines arrive: a narrower query does not go on from the window before.
        store.append(Array("item 6\nitem 7\n".utf8))
        store.finish()
        XCTAssertEqual(text(store, try XCTUnwrap(engine.search("item"))), ["item 6", "item 7"])
        XCTAssertEqual(try XCTUnwrap(engine.search("item 4")).lines, [], "item 4 has left the window")
        XCTAssertEqual(text(store, try XCTUnwrap(engine.search(""))), ["item 6", "item 7"])
        XCTAssertEqual(engine.firstCandidate(store.count), 6)
        let few = SearchEngine(store: store, skippedLines: 1, keepsLast: 100)
        XCTAssertEqual(few.firstCandidate(store.count), 1, "fewer lines than N: all but the header")
    }
}
