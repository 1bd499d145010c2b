@testable import PickCore
import XCTest

/// Fields as fzf cuts and picks them (its tokenizer's semantics).
final class FieldsTests: XCTestCase {
    private func tokens(_ line: String, _ d: String?) throws -> [String] {
        let bytes = Array(line.utf8)
        let delimiter = try FieldDelimiter(d)
        return bytes.withUnsafeBufferPointer { buffer in
            Fields.split(buffer, delimiter).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    private func select(_ ranges: String, _ line: String, _ d: String? = nil) throws -> String {
        String(decoding: Fields.select(try FieldRanges(parsing: ranges), of: Array(line.utf8), try FieldDelimiter(d)),
               as: UTF8.self)
    }

    private func accepted(_ ranges: String, _ line: String, _ d: String? = nil) throws -> String {
        let bytes = Array(line.utf8)
        let r = try FieldRanges(parsing: ranges), delimiter = try FieldDelimiter(d)
        return String(decoding: bytes.withUnsafeBufferPointer { Fields.accepted(r, of: $0, delimiter) }, as: UTF8.self)
    }

    func testWithoutADelimiterFieldsAreRunsOfNonBlanksKeepingTheirTrailingBlanks() throws {
        XCTAssertEqual(try tokens("  one two\t\tthree  ", nil), ["one ", "two\t\t", "three  "])
        XCTAssertEqual(try tokens("", nil), [])
        XCTAssertEqual(try tokens("   ", nil), [])
    }

    func testALiteralDelimiterSplitsAfterEachOccurrenceLeavingAnEmptyLastField() throws {
        XCTAssertEqual(try tokens("a:b::c:", ":"), ["a:", "b:", ":", "c:", ""])
        XCTAssertEqual(try tokens("", ":"), [""])
        XCTAssertEqual(try tokens("a--b-c", "--"), ["a--", "b-c"])
        XCTAssertEqual(try tokens("a\tb", "\\t"), ["a\t", "b"], "\\t is a tab, as in fzf")
    }

    func testARegularExpressionDelimiterEndsEachFieldAtAMatch() throws {
        XCTAssertEqual(try tokens("a, b,c ,d", " *, *"), ["a, ", "b,", "c ,", "d"])
        XCTAssertEqual(try tokens("x1y22z", "\\d+"), ["x1", "y22", "z"])
        XCTAssertEqual(try tokens("a:b;c", "[:;]"), ["a:", "b;", "c"])
        XCTAssertEqual(try tokens("a  b\tc", "\\s+"), ["a  ", "b\t", "c"])
        XCTAssertEqual(try tokens("a:b:", "[:]"), ["a:", "b:"], "no empty last field after a pattern")
    }

    func testADelimiterThatIsNoValidExpressionIsTakenLiterally() throws {
        XCTAssertEqual(try tokens("a[b[c", "["), ["a[", "b[", "c"])
        XCTAssertEqual(try tokens("a(|b(|c", "(|"), ["a(|", "b(|", "c"])
        XCTAssertEqual(try tokens("a.b.c", "."), ["a.", "b.", "c"], "one character is always literal")
    }

    func testADelimiterWithGosEscapesIsTheBytesTheyName() throws {
        XCTAssertEqual(try tokens("a\u{1F}\u{1E}b\u{1F}\u{1E}c", #"\x1f\x1e"#), ["a\u{1F}\u{1E}", "b\u{1F}\u{1E}", "c"])
        XCTAssertEqual(try tokens("a\u{0}b", #"\x00"#), ["a\u{0}", "b"])
        XCTAssertEqual(try tokens("a\tb", #"\t"#), ["a\t", "b"])
        XCTAssertEqual(try tokens("a.b", #"\."#), ["a.", "b"])
        XCTAssertEqual(try tokens("a\u{1}b", #"\001"#), ["a\u{1}", "b"])
        XCTAssertEqual(try tokens("aéb", #"\x{e9}"#), ["aé", "b"])
        XCTAssertEqual(try tokens("a1b22c", #"\d+"#), ["a1", "b22", "c"], "a class is still a regular expression")
    }

    func testAnEmptyDelimiterIsRefused() {
        XCTAssertThrowsError(try FieldDelimiter(""))
    }

    func testIndexExpressionsParseAsFzfs() throws {
        for good in ["1", "-1", "2..", "..3", "1,3..-1", "..", "-3..-1", "2..5,1", "3..1"] {
            XCTAssertNoThrow(try FieldRanges(parsing: good), good)
        }
        for bad in ["", "0", "a", "1..0", "..0", "0..", "-1..2", "1...2", "1..2..3", ",", "1,", "+1", "-", "1 2"] {
            XCTAssertThrowsError(try FieldRanges(parsing: bad), bad)
        }
    }

    func testPlaceholderFieldsAreTrimmedAndLoseTheirLastDelimiter() throws {
        XCTAssertEqual(try select("2", "a:b:c", ":"), "b")
        XCTAssertEqual(try select("-1", "a:b:c", ":"), "c")
        XCTAssertEqual(try select("-1", "a:b:", ":"), "", "the empty field after a trailing delimiter")
        XCTAssertEqual(try select("1..2", "a:b:c", ":"), "a:b")
        XCTAssertEqual(try select("2..", "a:b:c", ":"), "b:c")
        XCTAssertEqual(try select("..2", "a:b:c", ":"), "a:b")
        XCTAssertEqual(try select("1,3", "a:b:c", ":"), "a:c")
        XCTAssertEqual(try select("7", "a:b:c", ":"), "")
        XCTAssertEqual(try select("-7", "a:b:c", ":"), "")
        XCTAssertEqual(try select("2", "  lead  b  c  "), "b")
        XCTAssertEqual(try select("..", "  lead  b  c  "), "lead  b  c")
        XCTAssertEqual(try select("2", "a: b :c", ":"), "b", "white space trimmed")
        XCTAssertEqual(try select("2", "a:\u{00A0}b\u{3000}:c", ":"), "b", "Unicode spaces trimmed as Go does")
    }

    func testAcceptedFieldsKeepInnerDelimitersAndDropTheLastOne() throws {
        XCTAssertEqual(try accepted("1,3", "a:b:c:d", ":"), "a:c")
        XCTAssertEqual(try accepted("2..3", "a:b:c:d", ":"), "b:c")
        XCTAssertEqual(try accepted("2", "one two   three", nil), "two")
        XCTAssertEqual(try accepted("1", " x :y", ":"), " x ")
    }
}
