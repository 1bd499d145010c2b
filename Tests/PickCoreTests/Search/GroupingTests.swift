@testable import PickCore
import XCTest

/// Results are grouped by section, groups in first-appearance order of the ranked list.
final class GroupingTests: XCTestCase {
    private func sectionNames(_ query: String, _ lines: [String]) -> [String] {
        let store = makeStore(lines)
        let result = SearchEngine(store: store).search(query)!
        return result.groups.map {
            $0.section == 0 ? "" : String(decoding: store.sectionName($0.section), as: UTF8.self)
        }
    }

    // Ranked by length for '^alpha: "alpha"(A), "alpha x"(none), "alpha mid"(B), "alpha long title"(B).
    private let lines = ["alpha long title\tB", "alpha\tA", "alpha mid\tB", "alpha x"]

    func testGroupsAppearInTheOrderOfTheirBestLine() {
        XCTAssertEqual(sectionNames("^alpha", lines), ["A", "", "B"])
    }

    func testLinesKeepTheirRankInsideAGroup() {
        XCTAssertEqual(search("^alpha", in: lines),
                       ["alpha\tA", "alpha x", "alpha mid\tB", "alpha long title\tB"])
    }

    func testGroupRangesCoverTheLines() {
        let store = makeStore(lines)
        let result = SearchEngine(store: store).search("^alpha")!
        XCTAssertEqual(result.groups.map(\.range), [0..<1, 1..<2, 2..<4])
    }

    func testLinesWithoutSectionFormOneGroupWithoutHeader() {
        let lines = ["one", "two\tS", "three"]
        XCTAssertEqual(search("", in: lines), ["one", "three", "two\tS"])
        XCTAssertEqual(sectionNames("", lines), ["", "S"])
    }

    func testEmptyQueryIsInputOrderGrouped() {
        let lines = ["a\tX", "b\tY", "c\tX", "d", "e\tY"]
        XCTAssertEqual(search("", in: lines), ["a\tX", "c\tX", "b\tY", "e\tY", "d"])
        XCTAssertEqual(sectionNames("", lines), ["X", "Y", ""])
    }

    func testInputWithoutSectionsIsOneGroup() {
        XCTAssertEqual(sectionNames("", ["a", "b"]), [""])
        XCTAssertEqual(search("", in: ["b", "a"]), ["b", "a"])
    }

    func testNoMatchesHasNoGroups() {
        XCTAssertEqual(sectionNames("zzz", lines), [])
    }

    func testSectionsWithTheSameNameAreOneGroup() {
        let lines = ["Go to Line\tGo to", "Save\tActions", "Go to File\tGo to"]
        XCTAssertEqual(sectionNames("", lines), ["Go to", "Actions"])
    }

    func testGroupingUnit() {
        // Ranked 5, 1, 2, 3, 4 with sections 5→B, 1→A, 2→B, 3→none, 4→A.
        let section = [0, 1, 2, 0, 1, 2]
        let (out, groups) = SectionGrouping.group([5, 1, 2, 3, 4], sectionCount: 2) { section[$0] }
        XCTAssertEqual(out, [5, 2, 1, 4, 3])
        XCTAssertEqual(groups, [SectionGroup(section: 2, range: 0..<2), SectionGroup(section: 1, range: 2..<4),
                                SectionGroup(section: 0, range: 4..<5)])
    }

    func testALongListGroupedInPartsOnEveryCoreIsAStablePartition() {
        // Past 200,000 lines the grouping runs in parts on every core: groups must still
        // come in order of first appearance, lines in ranked order inside each.
        var generator = SystemRandomNumberGenerator()
        for sectionCount in [3, 300] {
            let count = 250_000
            let ranked = (0..<Int32(count)).shuffled(using: &generator)
            var section = (0..<count).map { i in i % 11 == 0 ? 0 : Int.random(in: 1..<sectionCount, using: &generator) }
            // A section only the last lines have: first seen in the second part.
            for line in ranked.suffix(1000) { section[Int(line)] = sectionCount }
            let (out, groups) = SectionGrouping.group(ranked, sectionCount: sectionCount) { section[$0] }
            var order: [Int] = [], members: [Int: [Int32]] = [:]
            for line in ranked {
                let s = section[Int(line)]
                if members[s] == nil { order.append(s) }
                members[s, default: []].append(line)
            }
            XCTAssertEqual(out, order.flatMap { members[$0]! })
            XCTAssertEqual(groups.map(\.section), order)
            XCTAssertEqual(groups.map(\.range.count), order.map { members[$0]!.count })
        }
    }
}
