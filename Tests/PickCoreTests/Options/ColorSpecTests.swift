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

    func testBwAloneDrawsNothingAndAsABaseSchemeTakesLaterColours() throws {
        XCTAssertTrue(try ColorSpec.parse("bw").isPlain)
        XCTAssertTrue(try ColorSpec.parse("never").isPlain)
        XCTAssertTrue(try ColorSpec.parse("hl:red,always").isForced)
        XCTAssertEqual(try ColorSpec.parse("auto"), ColorSpec())
        XCTAssertEqual(try ColorSpec.parse("bw,hl:red").steps, [.scheme(.bw), .style(.hl, ColorStyle("red")!)])
        XCTAssertThrowsError(try ColorSpec.parse("never,hl:red")) { error in
            XCTAssertEqual("\(error)", "invalid value for --color: 'never' (it draws no colours at all, so it stands alone)")
        }
    }

    /// A theme in FZF_DEFAULT_OPTS is several `--color` options, and a command line adds
    /// one more: all of them hold, the later ones last.
    func testRepeatedColorOptionsMerge() throws {
        let theme = try ColorSpec.parse("bg+:#313244,bg:#1e1e2e")
        let merged = theme.merged(with: try ColorSpec.parse("hl:red,always"))
        XCTAssertEqual(merged.steps, [.style(.selectedBg, ColorStyle("#313244")!), .style(.bg, ColorStyle("#1e1e2e")!),
                                      .style(.hl, ColorStyle("red")!)])
        XCTAssertTrue(merged.isForced)
        XCTAssertTrue(theme.merged(with: try ColorSpec.parse("bw")).isPlain, "bw alone still draws nothing")
        XCTAssertEqual(try ColorSpec.parse("bw").merged(with: theme).steps.first, .scheme(.bw))
    }

    func testFzfsAttributesAreDrawn() throws {
        XCTAssertEqual(ColorStyle("red:blink:strikethrough")?.sgr(background: false), "31;5;9")
        XCTAssertEqual(ColorStyle("#c0caf5:regular")?.hasAttributes, true)
        XCTAssertEqual(ColorStyle("#c0caf5")?.hasAttributes, false)
    }

    /// Every colour of the two themes fzf users copy most (catppuccin's, tokyonight's) is a
    /// part pick draws: the background, the prompt, the query, marked rows, the gutter.
    func testThemesPartsArePartsPickDraws() throws {
        let spec = try ColorSpec.parse("bg:#1e1e2e,prompt:#cba6f7,query:#c0caf5:regular,selected-bg:#45475a,"
                                       + "selected-fg:#cdd6f4,selected-hl:#f38ba8,gutter:#16161e,list-bg:#000000,"
                                       + "input-fg:#ffffff,preview-fg:#ffffff,preview-bg:#000000")
        XCTAssertEqual(spec.steps.map { step -> String in
            guard case .style(let part, _) = step else { return "" }
            return part.rawValue
        }, ["bg", "prompt", "query", "selected-bg", "selected-fg", "selected-hl", "gutter", "list-bg", "query",
            "preview-fg", "preview-bg"])
        XCTAssertTrue(ColorPart.listBg.isBackground, "the list's own, no longer bg's other name")
        XCTAssertTrue(ColorPart.bg.isBackground && ColorPart.gutter.isBackground && ColorPart.markedBg.isBackground)
    }

    /// fzf's names for parts pick does not colour yet are accepted (their colours checked)
    /// and change nothing, as on a terminal that cannot draw them; a name fzf does not
    /// have is refused.
    func testFzfsNamesPickDoesNotColourYetAreAcceptedAndChangeNothing() throws {
        for item in ["alt-gutter:#ff0000", "nth:regular", "gap-line:red"] {
            XCTAssertEqual(try ColorSpec.parse("dark," + item).steps, [.scheme(.dark)], item)
        }
        XCTAssertEqual(try ColorSpec.parse("current-fg:red").steps, [.style(.selectedFg, ColorStyle("red")!)])
        XCTAssertEqual(try ColorSpec.parse("disabled:red").steps, [.style(.disabled, ColorStyle("red")!)], "drawn now")
        XCTAssertEqual(try ColorSpec.parse("preview-scrollbar:red,scrollbar:blue").steps,
                       [.style(.previewScrollbar, ColorStyle("red")!), .style(.scrollbar, ColorStyle("blue")!)],
                       "the preview's scrollbar is drawn")
        XCTAssertEqual(try ColorSpec.parse("border:red,label:bold").steps.count, 2, "pick draws a border now")
        XCTAssertThrowsError(try ColorSpec.parse("gutter:nocolor"))
        XCTAssertThrowsError(try ColorSpec.parse("nothing:red")) { error in
            XCTAssertTrue("\(error)".contains("with a part fzf names: fg, bg, hl"), "\(error)")
        }
    }
}
