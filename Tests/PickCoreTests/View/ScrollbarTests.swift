@testable import PickCore
import XCTest

/// The scrollbar's thumb, the list's and the preview's, sized and placed as fzf's.
final class ScrollbarTests: XCTestCase {
    func testItemsOfSeveralRowsCountAsTheRowsTheyTake() {
        XCTAssertNil(Scrollbar.thumb(lines: 5, height: 10, first: 0, perLine: 2), "ten rows fit in ten")
        XCTAssertEqual(Scrollbar.thumb(lines: 10, height: 10, first: 0, perLine: 2), 0..<5, "half in view")
        XCTAssertEqual(Scrollbar.thumb(lines: 12, height: 10, first: 7, perLine: 2), 6..<10, "at the far end")
    }

    private func frame(lines: Int, height: Int, selection: Int, scroll: Int = 0) -> Frame {
        let store = LineStore(separator: 10, parsesFields: false)
        for i in 1...lines { store.append(Array("\(i)\n".utf8)) }
        store.finish()
        let engine = SearchEngine(store: store, matching: MatchingOptions(), ranking: RankingOptions(), skippedLines: 0)
        let input = FrameInput(width: 20, listHeight: height, result: engine.search("")!, query: Query(""), queryText: "",
                               selection: selection, scroll: scroll, total: store.count)
        return FrameBuilder.build(input, store: store)
    }

    func testTheListsThumbShowsTheShareInViewAndWhereTheViewIs() {
        XCTAssertNil(frame(lines: 8, height: 8, selection: 0).scrollbar, "the whole list fits: no scrollbar")
        XCTAssertEqual(frame(lines: 20, height: 10, selection: 0).scrollbar, 0..<5, "from the first row, half of it")
        XCTAssertEqual(frame(lines: 20, height: 10, selection: 19).scrollbar, 5..<10, "at the far end with the view")
        XCTAssertEqual(frame(lines: 1000, height: 10, selection: 500).scrollbar?.count, 1, "one row at least")
    }
}
