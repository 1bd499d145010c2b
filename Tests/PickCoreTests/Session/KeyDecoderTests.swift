import PickCore
import XCTest

/// The decoder beyond one key at a time: other spellings terminals use, sequences that
/// arrive in pieces, Escape alone, pastes and cursor reports.
final class KeyDecoderTests: XCTestCase {
    private func keys(_ text: String) -> [Key] { decodeAll(Array(text.utf8)) }

    func testMouseReportsAreReadAsClicksAndWheel() {
        XCTAssertEqual(keys("\u{1B}[<0;12;5M\u{1B}[<0;12;5m"),
                       [.mouse(MouseEvent(action: .press(0), column: 12, row: 5)),
                        .mouse(MouseEvent(action: .release, column: 12, row: 5))])
        XCTAssertEqual(keys("\u{1B}[<64;1;1M\u{1B}[<65;1;1M"),
                       [.mouse(MouseEvent(action: .wheelUp, column: 1, row: 1)),
                        .mouse(MouseEvent(action: .wheelDown, column: 1, row: 1))])
        XCTAssertEqual(keys("\u{1B}[<16;3;4M"), [.mouse(MouseEvent(action: .press(0), column: 3, row: 4, modified: true))],
                       "ctrl held on a click is still a click, a modified one")
        XCTAssertEqual(keys("\u{1B}[<68;3;4M"), [.mouse(MouseEvent(action: .wheelUp, column: 3, row: 4, modified: true))],
                       "shift on the wheel")
        XCTAssertEqual(keys("\u{1B}[<0;3M"), [.unknown], "a report missing its row is no click")
    }

    func testMouseReportsGetFzfsMouseEventNames() {
        let click = MouseEvent(action: .press(0), column: 1, row: 1)
        var shifted = click
        shifted.modified = true
        XCTAssertEqual(MouseKey.named(click, overPreview: false), .leftClick)
        XCTAssertEqual(MouseKey.named(click, overPreview: false, double: true), .doubleClick)
        XCTAssertEqual(MouseKey.named(shifted, overPreview: false), .shiftLeftClick)
        XCTAssertEqual(MouseKey.named(MouseEvent(action: .press(2), column: 1, row: 1), overPreview: false), .rightClick)
        XCTAssertNil(MouseKey.named(click, overPreview: true), "a click on the preview is none of them")
        XCTAssertEqual(MouseKey.named(MouseEvent(action: .wheelDown, column: 1, row: 1), overPreview: true),
                       .previewScrollDown)
        XCTAssertEqual(MouseKey.named(MouseEvent(action: .wheelUp, column: 1, row: 1, modified: true), overPreview: false),
                       .shiftScrollUp)
        XCTAssertNil(MouseKey.named(MouseEvent(action: .release, column: 1, row: 1), overPreview: false))
    }

    func testOtherSpellingsOfTheSameKeys() {
        XCTAssertEqual(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD\u{1B}OH\u{1B}OF"), [.up, .down, .right, .left, .home, .end],
                       "application cursor mode")
        XCTAssertEqual(keys("\u{1B}[1~\u{1B}[7~\u{1B}[4~\u{1B}[8~"), [.home, .home, .end, .end], "rxvt and the VT220 keypad")
        XCTAssertEqual(keys("\u{1B}[11~\u{1B}[14~"), [.function(1), .function(4)], "F1-F4 as the VT220 sends them")
        XCTAssertEqual(keys("\u{1B}[1;1A"), [.up], "modifier 1 is none")
    }

    func testEscapeBeforeASequenceIsAlt() {
        XCTAssertEqual(keys("\u{1B}\u{1B}[A"), [.modified(.up, .alt)])
        XCTAssertEqual(keys("\u{1B}\u{1B}OD"), [.modified(.left, .alt)])
        XCTAssertEqual(keys("\u{1B}\u{1B}[5~"), [.modified(.pageUp, .alt)])
        XCTAssertEqual(keys("\u{1B}\u{1B}[1;5A"), [.modified(.up, [.ctrl, .alt])])
        XCTAssertEqual(keys("\u{1B}\u{1B}[A").first?.name, "alt-up")
    }

    func testMetaIsReadAsAlt() {
        XCTAssertEqual(keys("\u{1B}[1;9A").first?.name, "alt-up")
        XCTAssertEqual(keys("\u{1B}[1;10D").first?.name, "alt-shift-left")
        XCTAssertEqual(keys("\u{1B}[3;13~").first?.name, "ctrl-alt-delete")
    }

    func testModifiersPickCannotNameAreNotMistakenForThePlainKey() {
        XCTAssertEqual(keys("\u{1B}[1;17A"), [.unknown], "super")
        XCTAssertEqual(keys("\u{1B}[1;2;3A"), [.unknown])
        XCTAssertEqual(keys("\u{1B}[99~"), [.unknown])
        let shiftF5 = keys("\u{1B}[15;2~")
        XCTAssertEqual(shiftF5, [.modified(.function(5), .shift)])
        XCTAssertNil(shiftF5.first?.name, "decoded, but not a name --expect accepts")
    }

    func testEscapeWaitsForTheRestOfASequence() {
        var decoder = KeyDecoder(buffer: [0x1B])
        XCTAssertNil(decoder.next(final: false))
        decoder.buffer += Array("[1;".utf8)
        XCTAssertNil(decoder.next(final: false))
        decoder.buffer += Array("3B".utf8)
        XCTAssertEqual(decoder.next(final: false), .modified(.down, .alt))
        XCTAssertFalse(decoder.isPending)
    }

    func testEscapeAloneAndTwiceWhenNothingFollows() {
        var decoder = KeyDecoder(buffer: [0x1B])
        XCTAssertEqual(decoder.pendingDelay, KeyDecoder.escapeDelay)
        XCTAssertEqual(decoder.next(final: true), .escape)
        XCTAssertEqual(keys("\u{1B}\u{1B}"), [.escape, .escape])
        XCTAssertEqual(keys("\u{1B}\u{1B}x"), [.escape, .alt(0x78)])
    }

    func testAltBracketAndAltOWhenNothingFollows() {
        XCTAssertEqual(keys("\u{1B}["), [.alt(0x5B)])
        XCTAssertEqual(keys("\u{1B}O"), [.alt(0x4F)])
        XCTAssertEqual(keys("\u{1B}[").first?.name, "alt-[")
    }

    func testCharactersArriveInPieces() {
        var decoder = KeyDecoder(buffer: [0xC3])
        XCTAssertNil(decoder.next(final: false))
        decoder.buffer.append(0xA9)
        XCTAssertEqual(decoder.next(final: false), .char(0xE9))
        XCTAssertEqual(decodeAll([0xFF, 0x61]), [.char(0xFFFD), .char(0x61)], "a broken byte is a replacement")
        XCTAssertEqual(decodeAll([0xC3]), [.char(0xFFFD)], "cut short when nothing follows")
        XCTAssertEqual(decodeAll([0x1B, 0xC3, 0xA9]), [.alt(0xE9)])
    }

    func testABracketedPasteIsTextWhateverItHolds() {
        var decoder = KeyDecoder(buffer: Array("\u{1B}[200~a\u{1B}[Ab".utf8))
        XCTAssertNil(decoder.next(final: false))
        XCTAssertEqual(decoder.pendingDelay, KeyDecoder.pasteDelay)
        decoder.buffer += Array("c\u{1B}[20".utf8)
        XCTAssertNil(decoder.next(final: false))
        decoder.buffer += Array("1~x".utf8)
        XCTAssertEqual(decoder.next(final: false), .paste(Array("a\u{1B}[Abc".utf8)))
        XCTAssertEqual(decoder.next(final: false), .char(0x78))
        XCTAssertEqual(decodeAll(Array("\u{1B}[200~lost".utf8)), [.paste(Array("lost".utf8))], "its end marker lost")
    }

    func testALateCursorReportIsDroppedOnlyWhileOneIsAwaited() {
        XCTAssertEqual(decodeAll(Array("\u{1B}[12;40R".utf8), awaitingCursorReport: true), [.cursorReport])
        XCTAssertEqual(decodeAll(Array("\u{1B}[1;5R".utf8), awaitingCursorReport: true), [.cursorReport])
        XCTAssertEqual(decodeAll(Array("\u{1B}[1;5R".utf8)), [.modified(.function(3), .ctrl)], "xterm's ctrl-F3")
        XCTAssertEqual(decodeAll(Array("\u{1B}[12;40R".utf8)), [.unknown])
    }
}
