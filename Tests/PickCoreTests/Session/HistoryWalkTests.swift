@testable import PickCore
import XCTest

final class HistoryWalkTests: XCTestCase {
    func testWalkingBackAndForthReturnsToTheQueryBeingTyped() {
        var walk = HistoryWalk(entries: ["11", "22"])
        XCTAssertEqual(walk.walk(older: true, from: "typed"), "22")
        XCTAssertEqual(walk.walk(older: true, from: "22"), "11")
        XCTAssertNil(walk.walk(older: true, from: "11"), "nothing older: the query stays")
        XCTAssertEqual(walk.walk(older: false, from: "11"), "22")
        XCTAssertEqual(walk.walk(older: false, from: "22"), "typed")
    }

    func testAnEditedRecalledQueryKeepsItsEditWhenWalkedBackTo() {
        // fzf's test_history: 33 recalled, edited to 31, 22 walked to and back.
        var walk = HistoryWalk(entries: ["22", "33", "44"])
        XCTAssertEqual(walk.walk(older: true, from: ""), "44")
        XCTAssertEqual(walk.walk(older: true, from: "44"), "33")
        XCTAssertEqual(walk.walk(older: true, from: "31"), "22")
        XCTAssertEqual(walk.walk(older: false, from: "22"), "31", "the edit is kept, as fzf's")
        XCTAssertEqual(walk.walk(older: false, from: "31"), "44")
        XCTAssertEqual(walk.walk(older: true, from: "44"), "31")
        XCTAssertEqual(walk.walk(older: false, from: "33"), "44")
        XCTAssertEqual(walk.walk(older: true, from: "44"), "33", "edited back to what it was: nothing kept")
        XCTAssertEqual(walk.entries, ["22", "33", "44"], "the entries are what the file holds")
    }
}
