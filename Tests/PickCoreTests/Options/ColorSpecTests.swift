import PickCore
import XCTest

/// `--color` is parsed once, into the value the theme is built from.
final class ColorSpecTests: XCTestCase {
    func testSchemesAndPairsAreKeptInOrder() throws {
        let spec = try ColorSpec.parse("16,hl:red:bold,light,fg:#87af87,bg+:-1")
        XCTAssertEqual(spec.steps, [
            .scheme(.basic),
            .style(.hl, ColorStyle(words: [.basic(1, bright: false), .bold])),
            .scheme(.light),
            .style(.fg, ColorStyle(words: [.rgb(0x87, 0xAF, 0x87)])),
            .style(.selectedBg, ColorStyle(words: [.terminalDefault])),
        ])
        XCTAssertFalse(spec.isPlain || spec.isForced)
    }

    func testStylesBecomeSGRParameters() throws {
        XCTAssertEqual(ColorStyle("108")?.sgr(background: false), "38;5;108")
        XCTAssertEqual(ColorStyle("108")?.sgr(background: true), "48;5;108")
        XCTAssertEqual(ColorStyle("#87af87:underline")?.sgr(background: false), "38;2;135;175;135;4")
        XCTAssertEqual(ColorStyle("bright-cyan:bold:italic")?.sgr(background: false), "96;1;3")
        XCTAssertEqual(ColorStyle("green")?.sgr(background: true), "42")
        XCTAssertEqual(ColorStyle("default")?.sgr(background: true), "49")
        XCTAssertEqual(ColorStyle("-1:dim:reverse")?.sgr(background: false), "39;2;7")
        XCTAssertEqual(ColorStyle("regular")?.sgr(background: false), "")
        // As fzf: an empty word adds nothing (`hl:`, `red:`).
        XCTAssertEqual(ColorStyle("red:")?.sgr(background: false), "31")
        XCTAssertEqual(ColorStyle("strong:grey")?.sgr(background: false), "1;90")
        for bad in ["256", "-2", "#12345", "#12345g", "nocolor", "+5", "red:bogus"] {
            XCTAssertNil(ColorStyle(bad), bad)
        }
    }

    func testBwAndNeverStandAloneAndAlwaysGoesAnywhere() throws {
        XCTAssertTrue(try ColorSpec.parse("bw").isPlain)
        XCTAssertTrue(try ColorSpec.parse("never").isPlain)
        XCTAssertTrue(try ColorSpec.parse("hl:red,always").isForced)
        XCTAssertEqual(try ColorSpec.parse("auto"), ColorSpec())
        XCTAssertThrowsError(try ColorSpec.parse("bw,hl:red")) { error in
            XCTAssertEqual("\(error)", "invalid value for --color: 'bw' (it draws no colours at all, so it stands alone)")
        }
    }

    /// fzf's names for parts pick does not colour yet are accepted (their colours checked)
    /// and change nothing, as on a terminal that cannot draw them; a name fzf does not
    /// have is refused.
    func testFzfsNamesPickDoesNotColourYetAreAcceptedAndChangeNothing() throws {
        for item in ["prompt:red", "query:#c0caf5:regular", "bg:#1e1e2e", "selected-bg:#45475a", "gutter:-1",
                     "scrollbar:#ff0000", "separator:#ff0000", "nth:regular", "preview-bg:#000000"] {
            XCTAssertEqual(try ColorSpec.parse("dark," + item).steps, [.scheme(.dark)], item)
        }
        XCTAssertEqual(try ColorSpec.parse("current-fg:red").steps, [.style(.selectedFg, ColorStyle("red")!)])
        XCTAssertEqual(try ColorSpec.parse("border:red,label:bold").steps.count, 2, "pick draws a border now")
        XCTAssertThrowsError(try ColorSpec.parse("gutter:nocolor"))
        XCTAssertThrowsError(try ColorSpec.parse("nothing:red")) { error in
            XCTAssertTrue("\(error)".contains("with name one of fg hl hl+ fg+ bg+ info"), "\(error)")
        }
    }
}
