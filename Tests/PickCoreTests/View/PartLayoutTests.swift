@testable import PickCore
import XCTest

/// How the parts stack in the area, as fzf 0.74 stacks them (test_layout.rb's screens).
final class PartLayoutTests: XCTestCase {
    private func place(_ spec: PartsSpec, _ layout: Layout = .bottom, input: Int = 2, header: Int = 0,
                       lines: Int = 0, footer: Int = 0, height: Int = 20) -> PartLayout {
        PartLayout(spec, layout: layout, rows: .init(input: input, header: header, headerLines: lines, footer: footer),
                   height: height, width: 30, gutter: 2)
    }

    private func order(_ p: PartLayout) -> [PickerPart] { p.boxes.filter { $0.box.height > 0 }.map(\.part) }

    func testAListBorderKeepsTheInputAndHeadersInTheListsBox() {
        var spec = PartsSpec()
        spec.list.style = .double
        let p = place(spec, header: 1, lines: 3)
        XCTAssertFalse(p.separate)
        XCTAssertEqual(order(p), [.list])
        let list = p.box(.list)!
        XCTAssertEqual(list.content, PartRect(top: 1, left: 2, height: 18, width: 27), "a line each way, two columns left, one right")
    }

    func testAHeaderBorderGivesEveryPartItsBoxInFzfsOrder() {
        var spec = PartsSpec()
        spec.header.style = .sharp
        XCTAssertEqual(order(place(spec, header: 0, lines: 3)), [.list, .header, .input])
        XCTAssertEqual(order(place(spec, .top, header: 0, lines: 3)), [.input, .header, .list])
        spec.headerFirst = true
        XCTAssertEqual(order(place(spec, header: 0, lines: 3)), [.list, .input, .header])
        XCTAssertEqual(order(place(spec, .top, header: 0, lines: 3)), [.header, .input, .list])
    }

    func testAnInlineSectionSitsInsideTheListsBorderNextToTheList() {
        var spec = PartsSpec()
        spec.list.style = .rounded
        spec.input.style = .rounded
        spec.header.style = .inline
        spec.footer.style = .inline
        spec.headerFirst = true
        let p = place(spec, header: 2, footer: 1)
        XCTAssertEqual(order(p), [.footer, .list, .header, .input], "--header-first does not take it from the list")
        let list = p.box(.list)!, header = p.box(.header)!, footer = p.box(.footer)!
        XCTAssertEqual(list.sides, Sides(right: true, left: true), "the list's top and bottom are the sections'")
        XCTAssertEqual(header.sides, Sides(top: true, right: true, bottom: true, left: true))
        XCTAssertEqual(footer.sides, Sides(top: true, right: true, bottom: true, left: true))
        XCTAssertTrue(header.inline && footer.inline && !list.inline)
        XCTAssertEqual(header.style, .rounded, "drawn with the list's border")
        XCTAssertEqual(header.box.height, 4, "the joining line, two rows of text, the list's bottom")
        XCTAssertEqual(header.box.top, list.box.top + list.box.height)
        XCTAssertEqual(header.indent, 2, "text lines up with the list's")
    }

    func testAnInlineSectionIsALineWhenTheListHasNoBorder() {
        var spec = PartsSpec()
        spec.header.style = .inline
        let header = place(spec, header: 1).box(.header)!
        XCTAssertFalse(header.inline)
        XCTAssertEqual(header.sides, Sides(top: true))
    }

    func testHeaderFirstWithBothKindsOfHeaderPutsTheLinesNextToTheList() {
        var spec = PartsSpec()
        spec.headerFirst = true
        XCTAssertEqual(order(place(spec, header: 1, lines: 3)), [.list, .headerLines, .input, .header])
        XCTAssertEqual(order(place(spec, .top, header: 1, lines: 3)), [.header, .input, .headerLines, .list])
    }

    func testReverseListGivesTheHeaderLinesABoxAboveTheList() {
        let p = place(PartsSpec(), .reverseList, header: 1, lines: 2)
        XCTAssertTrue(p.separate)
        XCTAssertEqual(order(p), [.headerLines, .list, .header, .input])
    }

    func testTheFooterIsBeyondTheListWithALineTowardIt() {
        let bottom = place(PartsSpec(), footer: 1)
        XCTAssertEqual(order(bottom), [.footer, .list])
        XCTAssertEqual(bottom.box(.footer)!.sides, Sides(bottom: true))
        let top = place(PartsSpec(), .top, footer: 1)
        XCTAssertEqual(order(top), [.list, .footer])
        XCTAssertEqual(top.box(.footer)!.sides, Sides(top: true))
        XCTAssertEqual(top.box(.footer)!.box.height, 2)
    }

    func testABorderlessPartBesideABorderedListLinesUpWithIt() {
        var spec = PartsSpec()
        spec.list.style = .rounded
        spec.header.style = .rounded
        let p = place(spec, header: 1)
        XCTAssertEqual(p.box(.input)!.content.left, 2, "the input is shifted past the list's line and blank")
        XCTAssertEqual(p.box(.header)!.indent, 2, "inside its own border, the header is indented as far as the gutter")
        spec.header.style = .none
        spec.input.style = .bold
        let q = place(spec, header: 1)
        XCTAssertEqual(q.box(.header)!.indent, 4, "without a border of its own, past the list's two columns and the gutter")
    }

    func testTheDefaultRuleIsLeftOutWhereABorderFacesTheInfoLine() {
        var spec = PartsSpec()
        spec.input.style = .bold
        XCTAssertTrue(place(spec).separatedFromList, "the input's own top line")
        spec.input.style = .none
        spec.header.style = .sharp
        XCTAssertTrue(place(spec, lines: 3).separatedFromList, "the header's bottom line faces the input")
        spec.headerFirst = true
        XCTAssertFalse(place(spec, lines: 3).separatedFromList, "the header is on the prompt's far side")
        XCTAssertFalse(place(PartsSpec()).separatedFromList)
    }

    func testANextPaneSitsBetweenTheInputAndTheRestOnTheListsSide() {
        func placed(_ layout: Layout, header: Int = 0, preview: Int) -> PartLayout {
            PartLayout(PartsSpec(), layout: layout, rows: .init(input: 2, header: header, headerLines: 0, footer: 0, preview: preview),
                       height: 20, width: 30, gutter: 2)
        }
        XCTAssertEqual(order(placed(.bottom, preview: 5)), [.list, .preview, .input])
        XCTAssertEqual(order(placed(.top, header: 1, preview: 5)), [.input, .preview, .header, .list])
        XCTAssertEqual(placed(.bottom, preview: 5).box(.preview)!.box, PartRect(top: 13, left: 0, height: 5, width: 30),
                       "the whole width, right above the input")
        let hidden = placed(.bottom, preview: 0)
        XCTAssertTrue(hidden.separate, "the input has its box while the pane is hidden too")
        XCTAssertEqual(order(hidden), [.list, .input])
    }

    func testAHeaderWithoutARightSideEndsWhereTheListsTextDoes() {
        var spec = PartsSpec()
        spec.list.style = .rounded
        spec.header.style = .bottom
        let p = place(spec, header: 1)
        let list = p.box(.list)!.content, header = p.box(.header)!.content
        XCTAssertEqual(header.left + header.width, list.left + list.width)
        let input = p.box(.input)!.content
        XCTAssertEqual(input.left + input.width, 30, "the input keeps the whole width, as fzf's")
    }

    func testTheListsLabelGoesOnTheEdgeAnInlineSectionTook() {
        var spec = PartsSpec()
        spec.list = PartBorder(style: .rounded, label: "LL")
        spec.header.style = .inline
        let p = place(spec, .top, header: 1)
        XCTAssertEqual(p.box(.header)?.label, "LL")
        XCTAssertEqual(p.box(.header)?.labelIsList, true)
        XCTAssertEqual(p.box(.list)?.label, "", "not drawn twice")
        spec.list.labelPosition.bottom = true
        XCTAssertEqual(place(spec, .top, header: 1).box(.list)?.label, "LL", "the bottom edge is still the list's")
    }

    func testEachPartsLineIsOnTheSideFzfDrawsIt() {
        let line = PartBorder(style: .line)
        XCTAssertEqual(line.sides(.bottom, .input), Sides(top: true))
        XCTAssertEqual(line.sides(.top, .input), Sides(bottom: true))
        XCTAssertEqual(line.sides(.top, .header), Sides(bottom: true))
        XCTAssertEqual(line.sides(.reverseList, .headerLines), Sides(bottom: true))
        XCTAssertEqual(line.sides(.bottom, .headerLines), Sides(top: true))
        XCTAssertEqual(line.sides(.top, .footer), Sides(top: true))
    }

    func testATinyAreaNeverGivesAPartMoreRowsThanThereAre() {
        var spec = PartsSpec()
        spec.input.style = .rounded
        spec.header.style = .rounded
        let p = place(spec, header: 5, height: 6)
        XCTAssertEqual(p.boxes.map(\.box.height).reduce(0, +), 6)
        XCTAssertTrue(p.boxes.allSatisfy { $0.box.height >= 0 && $0.content.height >= 0 })
    }
}
