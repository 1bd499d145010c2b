import XCTest
@testable import PickCore

/// Which remembered search a keystroke narrows (`SearchMemory.narrowest`). Typed quickly on
/// a large input, each first screen is cancelled by the next key, and `u` and `us` both
/// match every line of a file list: the engine's bounds are of `us`, and `usr` must go on
/// from them (taking `u` made it score every line again, as slowly as a first key).
final class SearchMemoryTests: XCTestCase {
    private let options = SearchMemory.Options(matching: MatchingOptions(), ranking: RankingOptions(), skippedLines: 0)

    private func entry(_ text: String, matching lines: Range<Int>, of count: Int) -> SearchMemory.Entry {
        let matches = LineBits(lines: count)
        for i in lines { LineBits.insert(i, into: matches.words) }
        matches.count = lines.count
        let result = SearchResult(query: text, lines: [], groups: [], searched: count, matchCount: lines.count)
        return SearchMemory.Entry(text: text, query: Query(text), count: count, options: options, result: result,
                                  matches: matches)
    }

    func testAKeyNarrowsTheSearchTheBoundsAreOfWhenItMatchedAsMany() {
        let memory = SearchMemory()
        memory.remember(entry("u", matching: 0..<1000, of: 1000))
        memory.remember(entry("us", matching: 0..<1000, of: 1000))
        XCTAssertEqual(memory.narrowest(for: Query("usr"), count: 1000, options: options, preferring: "us")?.text, "us")
        XCTAssertEqual(memory.narrowest(for: Query("usr"), count: 1000, options: options, preferring: "u")?.text, "u")
    }

    func testAKeyNarrowsTheFewestLinesWhenTheBoundsAreOfAFarBroaderSearch() {
        let memory = SearchMemory()
        memory.remember(entry("u", matching: 0..<1000, of: 1000))
        memory.remember(entry("us", matching: 0..<300, of: 1000))
        XCTAssertEqual(memory.narrowest(for: Query("usr"), count: 1000, options: options, preferring: "u")?.text, "us")
        // Bounds of a search the key does not narrow are no reason either.
        XCTAssertEqual(memory.narrowest(for: Query("usr"), count: 1000, options: options, preferring: "x")?.text, "us")
        XCTAssertNil(memory.narrowest(for: Query("zzz"), count: 1000, options: options, preferring: "u"))
    }
}
