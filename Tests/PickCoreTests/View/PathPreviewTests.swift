@testable import PickCore
import XCTest

/// The built-in previewer's decisions: text or binary, how many lines, a directory's order.
final class PathPreviewTests: XCTestCase {
    private func classify(_ bytes: [UInt8], whole: Bool = true) -> PathPreview.Content {
        bytes.withUnsafeBufferPointer { PathPreview.classify($0, isWholeFile: whole) }
    }

    func testTextInAnyScriptIsText() {
        XCTAssertEqual(classify(Array("hello\nwörld\n日本語 ✓ 🙂\n".utf8)), .text)
        XCTAssertEqual(classify(Array("\u{1B}[31mred\u{1B}[0m\r\n\t".utf8)), .text, "control bytes are the pane's to draw")
        XCTAssertEqual(classify([]), .empty)
    }

    func testANulByteMakesBinary() {
        XCTAssertEqual(classify(Array("text".utf8) + [0] + Array("more".utf8)), .binary)
    }

    func testLatin1TextStaysTextButRandomBytesAreBinary() {
        // "café\n" in Latin-1: one invalid byte in five.
        XCTAssertEqual(classify([0x63, 0x61, 0x66, 0xE9, 0x0A]), .text)
        var rng = SeededGenerator(seed: 20)
        let noise = (0..<4096).map { _ in UInt8.random(in: 1...255, using: &rng) }
        XCTAssertEqual(classify(noise), .binary)
    }

    func testACharacterCutByTheEndOfASampleIsNotInvalid() {
        let cut = Array(Array("ab€".utf8).dropLast())
        XCTAssertEqual(cut.withUnsafeBufferPointer { PathPreview.invalidUTF8Bytes($0, isWholeFile: false) }, 0)
        XCTAssertEqual(cut.withUnsafeBufferPointer { PathPreview.invalidUTF8Bytes($0, isWholeFile: true) }, 2)
        // Overlong forms and surrogates are invalid.
        XCTAssertEqual([UInt8]([0xC0, 0xAF, 0xED, 0xA0, 0x80]).withUnsafeBufferPointer {
            PathPreview.invalidUTF8Bytes($0, isWholeFile: true)
        }, 5)
    }

    func testFirstLinesStopsAfterTheLastWantedNewline() {
        let text = Array("one\ntwo\nthree\n".utf8)
        text.withUnsafeBufferPointer {
            XCTAssertEqual(PathPreview.firstLinesLength($0, lines: 2), 8)
            XCTAssertEqual(PathPreview.firstLinesLength($0, lines: 9), text.count)
        }
    }

    func testLineLimitFollowsTallPanesOnly() {
        XCTAssertEqual(PathPreview.lineLimit(environment: nil), Tunables.PathPreview.leastLines)
        XCTAssertEqual(PathPreview.lineLimit(environment: "20"), Tunables.PathPreview.leastLines, "a short pane still scrolls")
        XCTAssertEqual(PathPreview.lineLimit(environment: "150"), 150)
        XCTAssertEqual(PathPreview.lineLimit(environment: "x"), Tunables.PathPreview.leastLines)
        XCTAssertEqual(PathPreview.lineLimit(environment: "99999999"), Tunables.PathPreview.mostLines)
    }

    func testDirectoryListsVisibleEntriesFirstWithMarks() {
        var listing = PathPreview.Listing(lines: 10)
        for (name, kind) in [("zeta", PathPreview.EntryKind.other), (".git", .directory), ("Src", .directory),
                             ("alpha", .symbolicLink), ("new\nline", .other)] {
            listing.add(PathPreview.Entry(name: Array(name.utf8), kind: kind))
        }
        let text = String(decoding: listing.render(listing.shown()), as: UTF8.self)
        XCTAssertEqual(text, "Src/\nalpha@\nnew␊line\nzeta\n.git/\n")
    }

    func testALargeDirectoryShowsItsFirstEntriesAndHowManyMore() {
        var listing = PathPreview.Listing(lines: 5)
        for i in (0..<1000).reversed() {
            listing.add(PathPreview.Entry(name: Array(("f" + String(i + 10000).dropFirst()).utf8), kind: .other))
        }
        let text = String(decoding: listing.render(listing.shown()), as: UTF8.self)
        XCTAssertEqual(text, "f0000\nf0001\nf0002\nf0003\n… 996 more\n")
        var empty = PathPreview.Listing(lines: 5)
        XCTAssertEqual(String(decoding: empty.render(empty.shown()), as: UTF8.self), "empty directory\n")
    }

    func testBinaryNote() {
        XCTAssertEqual(PathPreview.binaryNote(bytes: 1), "binary file, 1 byte")
        XCTAssertEqual(PathPreview.binaryNote(bytes: 4096), "binary file, 4096 bytes")
    }
}
