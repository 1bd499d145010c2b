import Dispatch
import XCTest
@testable import PickCore

/// The engine searches on every core and while input is still arriving; these scenarios
/// check that doing so gives exactly what one plain search over the whole input gives.
final class EngineConcurrencyTests: XCTestCase {
    /// 200,000 lines: enough for several 32K-line chunks on several workers.
    private func manyLines() -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<200_000 {
            let dir = ["src", "lib", "docs", "Tests"][i % 4]
            out += Array("\(dir)/module\(i % 97)/file_\(i).swift\n".utf8)
        }
        return out
    }

    func testSearchingWhileInputArrivesGivesTheSameLinesAsSearchingAfterwards() {
        let bytes = manyLines()
        let whole = SearchEngine(store: makeStore(bytes: bytes)).search("mod1fi")!.lines

        let streaming = LineStore()
        let engine = SearchEngine(store: streaming)
        let writer = DispatchQueue(label: "writer")
        writer.async {
            // Uneven pieces, split mid-line, with pauses, as a slow producer writes.
            var offset = 0
            var size = 1
            while offset < bytes.count {
                let end = min(offset + size, bytes.count)
                streaming.append(bytes[offset..<end])
                offset = end
                size = size * 3 + 7
                if size > 500_000 { size = 4093 }
                usleep(100)
            }
            streaming.finish()
        }
        let result = engine.searchAllInput("mod1fi")
        XCTAssertEqual(streaming.count, 200_000, "no line lost or duplicated")
        XCTAssertEqual(result.lines, whole)
    }

    func testSearchingWhileAMappedFileLoadsInHalvesAndThenGrowsGivesTheSameLines() {
        // A mapped file: two halves adopted on two threads (compact records), handed over,
        // then more input read after it (full records), all while searches run.
        let bytes = manyLines()
        let whole = SearchEngine(store: makeStore(bytes: bytes)).search("mod1fi")!.lines
        let mapped = bytes.count * 3 / 4
        let middle = bytes[(mapped / 2)...].firstIndex(of: 0x0A)! + 1
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: mapped, alignment: 16)
        memory.copyBytes(from: bytes.prefix(mapped))
        let loading = LineStore()
        let engine = SearchEngine(store: loading)
        let writer = DispatchQueue(label: "writer")
        writer.async {
            let second = LineStore()
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                second.adopt(UnsafeRawBufferPointer(rebasing: memory[middle...]), chunk: 65536, release: {})
                done.signal()
            }
            loading.adopt(UnsafeRawBufferPointer(rebasing: memory[0..<middle]), chunk: 65536,
                          onChunk: { usleep(50) }, release: { memory.deallocate() })
            done.wait()
            loading.appendLines(of: second)
            var offset = mapped
            while offset < bytes.count {
                let end = min(offset + 50_000, bytes.count)
                loading.append(bytes[offset..<end])
                offset = end
                usleep(100)
            }
            loading.finish()
        }
        var searches = 0
        while !loading.isFinished {
            _ = engine.search("mod1fi")
            searches += 1
        }
        let result = engine.searchAllInput("mod1fi")
        XCTAssertEqual(loading.count, 200_000, "no line lost or duplicated")
        XCTAssertGreaterThan(loading.compact.count, 0)
        XCTAssertGreaterThan(loading.records.count, 0)
        XCTAssertEqual(result.lines, whole)
        XCTAssertGreaterThan(searches, 0)
    }

    func testStreamedStoreHoldsEveryLineOnceAndByteExact() {
        let lines = (0..<50_000).map { "line \($0)\r\t\u{1}é" }
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let streaming = LineStore()
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + 777, bytes.count)
            streaming.append(bytes[offset..<end])
            offset = end
        }
        streaming.finish()
        XCTAssertEqual(streaming.count, lines.count)
        for i in stride(from: 0, to: lines.count, by: 997) {
            XCTAssertEqual(Array(streaming.bytes(of: i)), Array(lines[i].utf8))
        }
    }

    func testACancelledSearchReturnsNothingAndTheNextSearchIsComplete() {
        let s = makeStore(bytes: manyLines())
        let engine = SearchEngine(store: s)
        let cancellation = Cancellation()
        cancellation.cancel()
        XCTAssertNil(engine.search("file", cancellation: cancellation))
        XCTAssertEqual(engine.search("file")!.lines.count, 200_000)
    }

    func testEveryLineRankedAcrossChunksMatchesAndAppearsOnce() {
        let bytes = manyLines()
        let big = SearchEngine(store: makeStore(bytes: bytes)).search("docs file_1")!.lines
        XCTAssertFalse(big.isEmpty)
        let scores = big.prefix(50).map { Int($0) }
        // Every ranked line must really match, and no line may appear twice.
        XCTAssertEqual(Set(big).count, big.count)
        let s = makeStore(bytes: bytes)
        for index in scores {
            let text = String(decoding: s.bytes(of: index), as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("docs/"), text)
        }
    }

    func testAResultOfHundredsOfThousandsOfLinesIsInRankOrderThroughout() {
        // So many hits are merged in two halves at once, split at a pivot: every line must
        // still rank after the one above it, across the split too.
        let s = makeStore(bytes: manyLines())
        let engine = SearchEngine(store: s)
        let matcher = LineMatcher(store: s, query: engine.parse("file"))
        let keys = CompactKeyMaker(engine.ranking)!
        for text in ["file", "fi"] {
            let lines = engine.search(text)!.lines
            XCTAssertEqual(lines.count, 200_000)
            let matcher = text == "file" ? matcher : LineMatcher(store: s, query: engine.parse(text))
            let hits = lines.map {
                keys.hit(index: Int($0), match: matcher.match(Int($0), matcher.lookAhead(Int($0)), next: nil)!,
                         shape: s.titleShape(of: Int($0), record: s.record(Int($0))))
            }
            let outOfOrder = zip(hits, hits.dropFirst()).filter { !($0 < $1) }.count
            XCTAssertEqual(outOfOrder, 0, "\(text): lines ranked above a better one")
        }
    }

    func testNarrowingAfterMoreLinesArrivedLooksAtTheNewLinesToo() {
        // A search remembers the lines it matched (as bits, up to the lines there were);
        // one that narrows it later looks at those and at every line read since, header
        // lines (a count that is no multiple of 64) never.
        let lines = (0..<150_000).map { "src/module\($0 % 97)/file_\($0).swift" }
        let growing = LineStore()
        for line in lines.prefix(70_001) { growing.append(Array(line.utf8) + [0x0A]) }
        let engine = SearchEngine(store: growing, skippedLines: 37)
        _ = engine.search("fi")!
        _ = engine.search("file_1")!
        for line in lines.dropFirst(70_001) { growing.append(Array(line.utf8) + [0x0A]) }
        growing.finish()
        let all = makeStore(lines)
        for text in ["file_12", "file_129", "file_1", "fi"] {
            let narrowed = engine.search(text)!.lines
            let fresh = SearchEngine(store: all, skippedLines: 37).search(text)!.lines
            XCTAssertEqual(narrowed, fresh, "after \(text)")
            XCTAssertFalse(narrowed.contains { $0 < 37 }, "a header line among the results")
        }
    }

    func testTypingAndDeletingGiveWhatAFreshSearchGives() {
        // One engine remembers its searches and narrows; a fresh engine each time does not.
        let s = makeStore(bytes: manyLines())
        let typing = SearchEngine(store: s)
        let keys = ["f", "fi", "fil", "file_1", "file_12", "file_1", "fil", "fi le", "fi le_9", "'le_9", "mod", "mod !docs"]
        for text in keys {
            let incremental = typing.search(text)!.lines
            let fresh = SearchEngine(store: s).search(text)!.lines
            XCTAssertEqual(incremental, fresh, "after typing \(text)")
        }
    }

    func testNarrowingStillSeesLinesThatArrivedAfterTheEarlierSearch() {
        let s = LineStore()
        s.append(Array("apple\nbanana\n".utf8))
        let engine = SearchEngine(store: s)
        XCTAssertEqual(engine.search("a")!.lines.count, 2)
        s.append(Array("avocado\napricot\n".utf8))
        s.finish()
        let lines = engine.search("ap")!.lines.map { String(decoding: s.bytes(of: Int($0)), as: UTF8.self) }
        XCTAssertEqual(Set(lines), ["apple", "apricot"])
    }

    func testASearchCancelledMidwayIsNotRememberedAsComplete() {
        let s = makeStore(bytes: manyLines())
        let engine = SearchEngine(store: s)
        let cancellation = Cancellation()
        cancellation.cancel()
        XCTAssertNil(engine.search("file", cancellation: cancellation))
        // A narrower query afterwards must not narrow from the cancelled (empty) search.
        XCTAssertEqual(engine.search("file_1")!.lines, SearchEngine(store: s).search("file_1")!.lines)
    }

    func testSearchingWhileAnotherThreadNotesCharactersGivesTheSameLines() {
        // The picker's search thread notes lines' characters between searches, while the
        // interface thread may search for the line Return picks: searches then see part of
        // the lines noted, and must answer as if none were.
        let bytes = manyLines()
        let reference = makeStore(bytes: bytes)
        let queries = ["zz", "mod9", "Tests/m", "file_19", "docs swift", "qq"]
        let want = queries.map { SearchEngine(store: reference).search($0)!.lines }
        let s = makeStore(bytes: bytes)
        let noting = DispatchQueue(label: "noting")
        let done = DispatchSemaphore(value: 0)
        noting.async {
            while !s.noteCharacters(limit: 997) {}
            done.signal()
        }
        var rounds = 0
        repeat {
            for (q, lines) in zip(queries, want) {
                XCTAssertEqual(SearchEngine(store: s).search(q)!.lines, lines, q)
            }
            rounds += 1
        } while s.characterSetCount < s.count
        done.wait()
        for (q, lines) in zip(queries, want) { XCTAssertEqual(SearchEngine(store: s).search(q)!.lines, lines, q) }
        XCTAssertGreaterThan(rounds, 0)
    }

    func testSearchesOnSeveralThreadsAtOnceEachGiveWhatOneSearchGives() {
        // The worker threads take one search at a time; a search that finds them busy
        // (the picker's search thread and the interface's, or a suggestion pass) does its
        // chunks itself, and must lose or repeat none.
        let bytes = manyLines()
        let store = makeStore(bytes: bytes)
        let queries = ["zz", "mod9", "Tests/m", "file_19", "docs swift", "src 7"]
        let want = queries.map { SearchEngine(store: store).search($0)!.lines }
        let results = Locked<[Int: [Int32]]>([:])
        DispatchQueue.concurrentPerform(iterations: 4 * queries.count) { k in
            let lines = SearchEngine(store: store).search(queries[k % queries.count])!.lines
            results.withLock { $0[k] = lines }
        }
        let got = results.withLock { $0 }
        for k in 0..<4 * queries.count {
            XCTAssertEqual(got[k], want[k % queries.count], queries[k % queries.count])
        }
    }

    func testParallelRunsEveryPartOnceAndReturnsWhenAllAreDone() {
        for parts in [1, 2, 3, 7, 64, 1000] {
            let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: parts)
            counts.initialize(repeating: 0)
            defer { counts.deallocate() }
            Parallel.run(parts) { part in
                // Uneven parts, and a nested call, which runs its parts on this thread.
                if part % 5 == 0 { usleep(200) }
                var inner = 0
                Parallel.run(3) { _ in inner += 1 }
                XCTAssertEqual(inner, 3)
                counts[part] += 1
            }
            XCTAssertEqual(Array(counts), Array(repeating: 1, count: parts), "parts: \(parts)")
        }
    }
}
