@testable import PickCore
import XCTest

/// The list's window as fzf keeps it: which item is first on screen, and the moves that
/// page and scroll it, over items of one row and of many (--wrap, multi-line, --gap).
final class ListWindowTests: XCTestCase {
    /// 100 items of one row in a window of 10.
    let plain = ListWindow(count: 100, rows: 10)
    /// 20 items of 3 rows each (a wrapped line, or one with a gap of 2) in a window of 10:
    /// three show whole, the fourth cut.
    let tall = ListWindow(count: 20, rows: 10, height: { _ in 3 })

    func testTheCursorStaysInViewAndTheEndLeavesNoRoom() {
        XCTAssertEqual(plain.constrain(offset: 0, cursor: 9), 0)
        XCTAssertEqual(plain.constrain(offset: 0, cursor: 10), 1, "one below the window: it scrolls one")
        XCTAssertEqual(plain.constrain(offset: 50, cursor: 40), 40)
        XCTAssertEqual(plain.constrain(offset: 95, cursor: 99), 90, "no room left at the end")
        XCTAssertEqual(tall.constrain(offset: 0, cursor: 3), 1, "the item cut at the end does not count as shown")
        XCTAssertEqual(tall.constrain(offset: 19, cursor: 19), 17, "the last three fill the window")
    }

    func testScrollOffKeepsRowsBeforeAndAfterTheCursor() {
        let window = ListWindow(count: 100, rows: 10, scrollOff: 2)
        XCTAssertEqual(window.constrain(offset: 0, cursor: 8), 1, "two rows stay after it")
        XCTAssertEqual(window.constrain(offset: 10, cursor: 11), 9, "two rows stay before it")
        XCTAssertEqual(window.constrain(offset: 0, cursor: 1), 0, "not above the first item")
        let tallOff = ListWindow(count: 20, rows: 10, scrollOff: 2, height: { _ in 3 })
        XCTAssertEqual(tallOff.constrain(offset: 0, cursor: 2), 1, "counted in rows: one row after it is too few")
        XCTAssertEqual(tallOff.constrain(offset: 0, cursor: 1), 0)
    }

    func testAPageMovesTheRowsLessOneAndHalfAPageHalfTheRows() {
        XCTAssertEqual(plain.page(cursor: 0, offset: 0, direction: 1, half: false).cursor, 9)
        let twice = plain.page(cursor: 9, offset: 0, direction: 1, half: false)
        XCTAssertEqual(twice.cursor, 18)
        XCTAssertEqual(twice.offset, 9)
        XCTAssertEqual(plain.page(cursor: 0, offset: 0, direction: 1, half: true).cursor, 5, "half of 10 rows")
        XCTAssertEqual(plain.page(cursor: 95, offset: 90, direction: 1, half: false).cursor, 99, "no further than the end")
        XCTAssertEqual(plain.page(cursor: 3, offset: 0, direction: -1, half: false).cursor, 0)
    }

    func testAPageOfTallItemsStopsBeforePassingAnItemUnseen() {
        // Items 0, 1, 2 show whole and 3 in part: a page goes on to show 3 whole, no further.
        let down = tall.page(cursor: 0, offset: 0, direction: 1, half: false)
        XCTAssertEqual(down.cursor, 5)
        XCTAssertEqual(down.offset, 3, "the item cut at the end is now the first shown")
        let back = tall.page(cursor: down.cursor, offset: down.offset, direction: -1, half: false)
        XCTAssertEqual(back.cursor, 1, "back as far as the items that fill a window ending at 3")
        XCTAssertEqual(back.offset, 1)
        let half = tall.page(cursor: 0, offset: 0, direction: 1, half: true)
        XCTAssertEqual(half.cursor, 5, "5 steps of half the rows, the window following")
        XCTAssertEqual(half.offset, 3)
    }

    func testAPageOverAnItemTallerThanTheWindowMovesOneItem() {
        let window = ListWindow(count: 5, rows: 4, height: { $0 == 1 ? 9 : 1 })
        let moved = window.page(cursor: 0, offset: 0, direction: 1, half: false)
        XCTAssertEqual(moved.cursor, 1, "onto the tall item, not past it")
        XCTAssertEqual(moved.offset, 1)
        XCTAssertEqual(window.page(cursor: 1, offset: 1, direction: 1, half: false).cursor, 2)
    }

    func testOffsetScrollsAnItemAndTheCursorMovesAtTheEnds() {
        var moved = plain.scroll(cursor: 5, offset: 0, direction: 1)
        XCTAssertEqual(moved.cursor, 5)
        XCTAssertEqual(moved.offset, 1)
        moved = plain.scroll(cursor: 0, offset: 0, direction: 1)
        XCTAssertEqual(moved.cursor, 1, "the cursor would leave the window: it moves with it")
        XCTAssertEqual(moved.offset, 1)
        moved = plain.scroll(cursor: 3, offset: 0, direction: -1)
        XCTAssertEqual(moved.cursor, 2, "nothing before the first item: the cursor moves instead")
        XCTAssertEqual(moved.offset, 0)
        moved = tall.scroll(cursor: 1, offset: 0, direction: 1)
        XCTAssertEqual(moved.offset, 1, "a tall item scrolls as one")
        XCTAssertEqual(moved.cursor, 1)
    }

    func testOffsetMiddlePutsTheCursorInTheMiddle() {
        XCTAssertEqual(plain.middle(cursor: 20, offset: 0), 16, "four rows before it, five after")
        XCTAssertEqual(plain.middle(cursor: 2, offset: 0), 0, "as far as the start allows")
        XCTAssertEqual(plain.middle(cursor: 98, offset: 90), 90, "and the end")
        XCTAssertEqual(tall.middle(cursor: 10, offset: 0), 9, "over tall items: the item before it shows")
    }

    func testTheItemsShownAreWhatJumpLabels() {
        XCTAssertEqual(plain.positionsShown(from: 3), Array(3..<13))
        XCTAssertEqual(tall.positionsShown(from: 2), [2, 3, 4, 5], "the fourth in part")
    }
}
