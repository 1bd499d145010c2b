@testable import PickCore
import XCTest

/// Where `--freeze-left` and `--freeze-right` cut a line, and `--accept-nth` templates, as
/// fzf 0.74.5 does them (the cases of fzf's suite, test_freeze_* and test_accept_nth_*).
final class FrozenFieldsTests: XCTestCase {
    /// The line in its three parts: frozen start | middle | frozen end.
    private func parts(_ line: String, _ d: String? = nil, left: Int = 0, right: Int = 0) throws -> [String] {
        let bytes = Array(line.utf8)
        let delimiter = try FieldDelimiter(d)
        let cut = bytes.withUnsafeBufferPointer { Fields.frozenParts($0, delimiter, left: left, right: right) }
        let rightStart = cut.rightStart ?? bytes.count
        return [bytes[..<cut.leftEnd], bytes[cut.leftEnd..<rightStart], bytes[rightStart...]]
            .map { String(decoding: $0, as: UTF8.self) }
    }

    func testTheFrozenStartEndsAfterItsLastFieldWithoutTheBlanksAfterIt() throws {
        XCTAssertEqual(try parts("1 2 3 4 5 ", left: 3), ["1 2 3", " 4 5 ", ""])
        XCTAssertEqual(try parts("1 , 2 , 3 , 4 , ", " , ", left: 3), ["1 , 2 , 3 ,", " 4 , ", ""])
        XCTAssertEqual(try parts("1 2", left: 5), ["1 2", "", ""], "more fields than the line has: all of it")
    }

    func testTheFrozenEndBeginsWithTheDelimiterBeforeItsFields() throws {
        XCTAssertEqual(try parts("1 2 3 4 5 ", right: 2), ["", "1 2 3 ", "4 5 "])
        XCTAssertEqual(try parts("1 , 2 , 3 , 4 , ", " , ", right: 2), ["", "1 , 2 , 3 ", ", 4 , "],
                       "the delimiter's leading blanks stay in the middle")
        XCTAssertEqual(try parts("1 2 3 4 5 ", left: 2, right: 2), ["1 2", " 3 ", "4 5 "])
    }

    func testAFrozenEndBeyondTheLinesFieldsFreezesAllAfterTheStart() throws {
        XCTAssertEqual(try parts("1 2 3 4 ", right: 100), ["", "", "1 2 3 4 "])
        XCTAssertEqual(try parts("1 2 3 4 ", left: 3, right: 100), ["1 2 3", "", " 4 "])
        XCTAssertEqual(try parts("gggg", right: 1), ["", "", "gggg"], "one field is all frozen")
    }

    private func accepted(_ template: String, _ line: String, index: Int = 0, _ d: String? = nil) throws -> String? {
        guard let t = FieldTemplate(parsing: template) else { return nil }
        let delimiter = try FieldDelimiter(d)
        return String(decoding: Array(line.utf8).withUnsafeBufferPointer { t.text(of: $0, index: index, delimiter) },
                      as: UTF8.self)
    }

    func testAnAcceptNthTemplatePutsFieldsAndTheIndexInItsText() throws {
        XCTAssertEqual(try accepted("[{n}] 1st: {1}, 3rd: {3}, 2nd: {2}", "foo  ,bar,baz", " *, *"),
                       "[0] 1st: foo, 3rd: baz, 2nd: bar")
        XCTAssertEqual(try accepted("{1} // {1}", "55 55", index: 54), "55 // 55")
        XCTAssertEqual(try accepted("{n}:{2}", "a b", index: 7), "7:b")
        XCTAssertEqual(try accepted("{x} {1}", "a b"), "{x} a", "a brace that is no placeholder is text")
    }

    func testFieldIndexesStillPrintTheFieldsJoined() throws {
        XCTAssertEqual(try accepted("2,2,1,3,1", "foo  ,bar,baz", ","), "bar,bar,foo  ,bazfoo  ")
    }

    func testATemplateWithoutAPlaceholderIsRefused() {
        XCTAssertNil(FieldTemplate(parsing: "foo"))
        XCTAssertNil(FieldTemplate(parsing: "1..x"))
        XCTAssertThrowsError(try Options.parse(arguments: ["--accept-nth", "foo"]))
    }
}
