@testable import PickCore
import XCTest

/// How margin, border and padding divide a region, as fzf divides it.
final class BorderTests: XCTestCase {
    private func surround(_ border: BorderStyle, margin: String = "0", padding: String = "0") -> Surround {
        var s = Surround()
        s.border = border
        s.margin = Spacing.parse(margin)!
        s.padding = Spacing.parse(padding)!
        return s
    }

    func testNothingAroundTheRowsByDefault() {
        XCTAssertTrue(BoxLayout(Surround(), rows: 24, columns: 80, inline: false).isNone)
        XCTAssertTrue(BoxLayout(surround(.none), rows: 24, columns: 80, inline: false).isNone)
    }

    func testARoundedBorderTakesARowEachWayAndTwoColumnsEachSide() {
        // The line, then the column fzf leaves between it and the text.
        let box = BoxLayout(surround(.rounded), rows: 10, columns: 40, inline: false)
        XCTAssertEqual(box.total, Insets(top: 1, right: 2, bottom: 1, left: 2))
        XCTAssertEqual(box.sides, Sides(top: true, right: true, bottom: true, left: true))
    }

    func testSidesOfEachStyle() {
        let sides: [BorderStyle: Sides] = [
            .horizontal: Sides(top: true, bottom: true), .vertical: Sides(right: true, left: true),
            .top: Sides(top: true), .bottom: Sides(bottom: true), .left: Sides(left: true), .right: Sides(right: true),
        ]
        for (style, expected) in sides {
            XCTAssertEqual(BoxLayout(surround(style), rows: 10, columns: 40, inline: false).sides, expected, "\(style)")
        }
        XCTAssertEqual(BoxLayout(surround(.horizontal), rows: 10, columns: 40, inline: false).total,
                       Insets(top: 1, bottom: 1), "no padding column without a vertical line")
    }

    func testALineIsDrawnOnlyInline() {
        XCTAssertEqual(BoxLayout(surround(.line), rows: 10, columns: 40, inline: true).sides, Sides(top: true))
        XCTAssertTrue(BoxLayout(surround(.line), rows: 10, columns: 40, inline: false).isNone)
    }

    func testMarginOutsideAndPaddingInside() {
        let box = BoxLayout(surround(.sharp, margin: "1,10%", padding: "1,2"), rows: 20, columns: 30, inline: false)
        XCTAssertEqual(box.margin, Insets(top: 1, right: 3, bottom: 1, left: 3))
        XCTAssertEqual(box.padding, Insets(top: 1, right: 3, bottom: 1, left: 3))
        XCTAssertEqual(box.total, Insets(top: 3, right: 7, bottom: 3, left: 7))
    }

    func testTooSmallARegionKeepsItsRows() {
        XCTAssertTrue(BoxLayout(surround(.rounded, padding: "2"), rows: 5, columns: 40, inline: true).isNone)
        XCTAssertTrue(BoxLayout(surround(.rounded), rows: 10, columns: 4, inline: false).isNone)
        XCTAssertFalse(BoxLayout(surround(.rounded), rows: 3, columns: 5, inline: true).isNone)
    }

    func testLabelPositionsAsFzfPlacesThem() {
        // On a line 30 wide, a label 3 wide: centred, from the left, from the right.
        XCTAssertEqual(LabelPosition().start(labelWidth: 3, lineWidth: 30), 13)
        XCTAssertEqual(LabelPosition(column: 3).start(labelWidth: 3, lineWidth: 30), 2)
        XCTAssertEqual(LabelPosition(column: 1).start(labelWidth: 3, lineWidth: 30), 0)
        XCTAssertEqual(LabelPosition(column: -3).start(labelWidth: 3, lineWidth: 30), 25)
        XCTAssertEqual(LabelPosition(column: 40).start(labelWidth: 3, lineWidth: 30), 27, "kept on the line")
        XCTAssertEqual(LabelPosition(column: -40).start(labelWidth: 3, lineWidth: 30), 0)
        XCTAssertEqual(LabelPosition.parse("2:bottom"), LabelPosition(column: 2, bottom: true))
        XCTAssertEqual(LabelPosition.parse("bottom:-2"), LabelPosition(column: -2, bottom: true))
        XCTAssertNil(LabelPosition.parse("left"))
    }

    func testEveryGlyphIsOneColumn() {
        for style in BorderStyle.allCases {
            let g = style.glyphs
            for glyph in [g.topLeft, g.top, g.topRight, g.left, g.right, g.bottomLeft, g.bottom, g.bottomRight] {
                XCTAssertEqual(TerminalText.width(glyph), 1, "\(style) \(glyph)")
            }
        }
    }
}
