@testable import PickCore
import XCTest

/// fzf's spellings, PICK_DEFAULT_OPTS first, and errors that name the problem.
final class OptionsTests: XCTestCase {
    private func parse(_ args: [String], defaults: String? = nil) throws -> Options {
        try Options.parse(arguments: args, defaults: defaults)
    }

    private func error(_ args: [String], defaults: String? = nil) -> String? {
        do {
            _ = try parse(args, defaults: defaults)
            return nil
        } catch let e as OptionError {
            return e.message
        } catch {
            return "unexpected \(error)"
        }
    }

    func testDefaults() throws {
        let o = try parse([])
        XCTAssertEqual(o.query, "")
        XCTAssertNil(o.filter)
        XCTAssertEqual(o.limit, 6)
        XCTAssertEqual(o.matching, MatchingOptions())
        XCTAssertEqual(o.ranking, RankingOptions())
        XCTAssertEqual(o.layout, .top)
        XCTAssertEqual(o.height, .full)
        XCTAssertEqual(o.prompt, "> ")
    }

    func testWrapMultiLineAndGapTakeFzfsValues() throws {
        XCTAssertEqual(try parse(["--wrap"]).look, ListLook(wrap: true))
        XCTAssertEqual(try parse(["--wrap", "word"]).look, ListLook(wrap: true, wrapWord: true), "the next word, as fzf")
        XCTAssertEqual(try parse(["--wrap-word", "--no-wrap-word"]).look, ListLook(wrap: true))
        XCTAssertThrowsError(try parse(["--wrap=line"]))
        XCTAssertEqual(try parse(["--gap"]).look.gap, 1)
        XCTAssertEqual(try parse(["--gap", "3"]).look.gap, 3)
        XCTAssertEqual(try parse(["--gap-line"]).gapLineShown, "┈", "no value: fzf's")
        XCTAssertEqual(try parse(["--no-gap-line"]).gapLineShown, "")
        XCTAssertEqual(try parse(["--no-unicode"]).wrapSignShown, "> ")
        XCTAssertEqual(try parse(["--wrap-sign", "\t>"]).wrapSignShown, "        >", "a tab as blanks")
        XCTAssertEqual(try parse(["--preview-wrap-sign", "+"]).previewWrapSignShown, "+")
        XCTAssertEqual(try parse(["--wrap-sign", "~"]).previewWrapSignShown, "~", "the list's when not given")
        XCTAssertFalse(try parse(["--no-multi-line"]).multiLine)
        XCTAssertEqual(try parse([]).markerMultiLineShown, ["╻", "┃", "╹"])
        XCTAssertEqual(try parse(["--marker-multi-line", "abcdef"]).markerMultiLineShown, ["ab", "cd", "ef"])
        XCTAssertEqual(try parse(["--marker-multi-line="]).markerMultiLineShown, ["", "", ""])
        XCTAssertThrowsError(try parse(["--marker-multi-line", "ab"]), "fzf's: 3 or 6 columns in all")
    }

    func testTheSeparatorIsFzfsRuleUnlessToldOtherwise() throws {
        XCTAssertEqual(try parse([]).separatorRule, "─")
        XCTAssertEqual(try parse(["--no-unicode"]).separatorRule, "-", "fzf's ASCII rule")
        XCTAssertEqual(try parse(["--separator=-=", "--no-unicode"]).separatorRule, "-=")
        XCTAssertNil(try parse(["--no-separator"]).separatorRule)
        XCTAssertNil(try parse(["--separator="]).separatorRule, "empty: none, as fzf")
        XCTAssertEqual(try parse(["--no-separator", "--separator=x"]).separatorRule, "x", "the last one wins")
        XCTAssertEqual(try parse(["--separator=\u{1B}[33ma\tb"]).separatorRule, "\u{1B}[33ma\tb", "kept as given; drawn safe")
    }

    func testThePreviewsScrollbarIsFzfsUnlessToldOtherwise() throws {
        XCTAssertEqual(try parse([]).previewScrollbar, "│")
        XCTAssertEqual(try parse(["--no-unicode"]).previewScrollbar, "|", "fzf's ASCII bar")
        XCTAssertEqual(try parse(["--scrollbar=▐"]).previewScrollbar, "▐", "one glyph: the list's and the preview's")
        XCTAssertEqual(try parse(["--scrollbar=▌▐"]).previewScrollbar, "▐", "two: the second is the preview's")
        XCTAssertEqual(try parse(["--no-scrollbar"]).previewScrollbar, "")
        XCTAssertEqual(try parse(["--no-scrollbar", "--scrollbar"]).previewScrollbar, "│", "no value: the default again")
        XCTAssertThrowsError(try parse(["--scrollbar=abc"])) { error in
            XCTAssertTrue("\(error)".contains("--scrollbar"), "\(error)")
        }
        XCTAssertThrowsError(try parse(["--scrollbar=中"]), "a glyph two columns wide")
    }

    func testLongOptionWithEqualsOrNextWord() throws {
        XCTAssertEqual(try parse(["--query=foo bar"]).query, "foo bar")
        XCTAssertEqual(try parse(["--query", "foo bar"]).query, "foo bar")
        XCTAssertEqual(try parse(["--filter=x"]).filter, "x")
        XCTAssertEqual(try parse(["--query="]).query, "")
    }

    func testValueMayStartWithADash() throws {
        XCTAssertEqual(try parse(["--query", "-x"]).query, "-x")
        XCTAssertEqual(try parse(["-f", "--tac"]).filter, "--tac")
    }

    func testShortOptionWithAttachedOrNextValue() throws {
        XCTAssertEqual(try parse(["-qfoo"]).query, "foo")
        XCTAssertEqual(try parse(["-q", "foo"]).query, "foo")
        XCTAssertEqual(try parse(["-fbar"]).filter, "bar")
    }

    func testBundledShortFlags() throws {
        let o = try parse(["-ei1"])
        XCTAssertFalse(o.matching.fuzzy)
        XCTAssertEqual(o.matching.caseMode, .ignore)
        XCTAssertTrue(o.selectOne)
        let m = try parse(["-mi"])
        XCTAssertTrue(m.multi)
        XCTAssertEqual(m.multiLimit, 0)
        XCTAssertEqual(m.matching.caseMode, .ignore)
        XCTAssertEqual(try parse(["-m5"]).multiLimit, 5)
        let q = try parse(["-eqfoo"])
        XCTAssertFalse(q.matching.fuzzy)
        XCTAssertEqual(q.query, "foo")
    }

    func testPlusITurnsIgnoreCaseOff() throws {
        XCTAssertEqual(try parse(["+i"]).matching.caseMode, .respect)
        XCTAssertEqual(try parse(["-i", "+i"]).matching.caseMode, .respect)
        XCTAssertEqual(try parse(["+i", "-i"]).matching.caseMode, .ignore)
        XCTAssertEqual(try parse(["+i", "--smart-case"]).matching.caseMode, .smart)
    }

    func testLaterOptionWins() throws {
        XCTAssertTrue(try parse(["--no-sort", "--sort"]).ranking.sorts)
        XCTAssertFalse(try parse(["--sort", "+s"]).ranking.sorts)
        XCTAssertTrue(try parse(["-e", "+e"]).matching.fuzzy)
        XCTAssertFalse(try parse(["--tac", "--no-tac"]).ranking.reversesInput)
    }

    func testMatchingAndRankingFlags() throws {
        let o = try parse(["--exact", "--ignore-case", "--literal", "--no-sort", "--tac", "--tiebreak=begin,length,index"])
        XCTAssertEqual(o.matching, MatchingOptions(fuzzy: false, caseMode: .ignore, normalize: false))
        XCTAssertEqual(o.ranking, RankingOptions(sorts: false, reversesInput: true, tiebreaks: [.begin, .length, .index]))
    }

    func testModesAndOutputFlags() throws {
        let o = try parse(["--complete", "sa", "--limit=3", "--read0", "--print0", "--print-query",
                           "--header-lines=2", "--demo", "--expect=ctrl-x,f1"])
        XCTAssertEqual(o.complete, "sa")
        XCTAssertEqual(o.limit, 3)
        XCTAssertTrue(o.read0 && o.print0 && o.printQuery && o.demo)
        XCTAssertEqual(o.headerLines, 2)
        XCTAssertEqual(o.expect.map(\.written), ["ctrl-x", "f1"])
    }

    func testTabsAreTextUnlessPaletteIsAskedFor() throws {
        XCTAssertFalse(try parse([]).palette, "a line is one title, tabs and all, as fzf reads it")
        XCTAssertTrue(try parse(["--palette"]).palette)
        XCTAssertFalse(try parse(["--palette", "--plain"]).palette, "--plain undoes --palette")
        XCTAssertFalse(try parse(["--palette", "--no-palette"]).palette)
        XCTAssertTrue(try Options.parse(arguments: [], defaults: "--palette").palette)
        XCTAssertFalse(try Options.parse(arguments: ["--plain"], defaults: "--palette").palette,
                       "the command line's --plain wins over PICK_DEFAULT_OPTS")
        XCTAssertTrue(try parse(["--demo"]).palette, "the demo is a palette")
        XCTAssertFalse(try parse(["--demo", "--plain"]).palette, "the last word wins")
    }

    func testInterfaceOptions() throws {
        let o = try parse(["--height=40%", "--layout=bottom", "--prompt", "? ", "--header=Hi",
                           "--scope=Go to", "--cycle", "--history=/tmp/h", "--color=dark,hl:red", "-m3"])
        XCTAssertEqual(o.height, .percent(40))
        XCTAssertEqual(o.layout, .bottom)
        XCTAssertEqual(o.prompt, "? ")
        XCTAssertEqual(o.header, "Hi")
        XCTAssertEqual(o.scope, "Go to")
        XCTAssertTrue(o.cycle)
        XCTAssertEqual(o.history, "/tmp/h")
        XCTAssertEqual(o.color, ColorSpec(steps: [.scheme(.dark), .style(.hl, ColorStyle(words: [.basic(1, bright: false)]))]))
        XCTAssertTrue(o.multi)
        XCTAssertEqual(o.multiLimit, 3)
        XCTAssertEqual(try parse(["--height", "10"]).height, .rows(10))
        XCTAssertEqual(try parse(["--height=100%"]).height, .full)
        XCTAssertTrue(try parse(["--no-color"]).noColor)
        XCTAssertEqual(try parse(["--color=bw"]).color?.isPlain, true)
        XCTAssertEqual(try parse(["--color=hl:red", "--color=fg:blue"]).color?.steps.count, 2, "--color options merge")
        XCTAssertTrue(try parse(["--no-color", "--color=hl:red"]).noColor, "a later --color does not undo --no-color")
    }

    // MARK: What fzf users keep in FZF_DEFAULT_OPTS

    func testLayoutsHaveFzfsMeanings() throws {
        XCTAssertEqual(try parse(["--layout=reverse"]).layout, .top, "pick's default is fzf's reverse")
        XCTAssertEqual(try parse(["--reverse"]).layout, .top)
        XCTAssertEqual(try parse(["--layout=default"]).layout, .bottom, "fzf's default: prompt at the bottom")
        XCTAssertEqual(try parse(["--layout=reverse-list"]).layout, .reverseList)
        XCTAssertEqual(try parse(["--reverse", "--no-reverse"]).layout, .bottom)
        XCTAssertEqual(try parse(["--layout=top"]).layout, .top)
        XCTAssertEqual(try parse(["--layout=bottom"]).layout, .bottom)
    }

    func testBorderStylesAndLabel() throws {
        XCTAssertEqual(try parse([]).surround, Surround())
        XCTAssertEqual(try parse(["--border"]).surround.border, .rounded)
        for style in BorderStyle.allCases where style != .inline {
            XCTAssertEqual(try parse(["--border=\(style.rawValue)"]).surround.border, style)
        }
        XCTAssertEqual(try parse(["--border", "--no-border"]).surround.border, BorderStyle.none)
        let labelled = try parse(["--border", "--border-label", " Files ", "--border-label-pos=-3:bottom"])
        XCTAssertEqual(labelled.surround.label, " Files ")
        XCTAssertEqual(labelled.surround.labelPosition, LabelPosition(column: -3, bottom: true))
        XCTAssertEqual(try parse(["--border-label-pos=bottom"]).surround.labelPosition, LabelPosition(column: 0, bottom: true))
        XCTAssertEqual(try parse(["--border-label-pos=center"]).surround.labelPosition, LabelPosition())
        XCTAssertEqual(try parse(["--border-label=x", "--no-border-label"]).surround.label, "")
    }

    func testMarginAndPaddingTakeOneToFourSizes() throws {
        let one = try parse(["--margin=2"]).surround.margin
        XCTAssertEqual(one.resolve(rows: 10, columns: 10), Insets(top: 2, right: 2, bottom: 2, left: 2))
        let two = try parse(["--margin=1,10%"]).surround.margin
        XCTAssertEqual(two.resolve(rows: 20, columns: 80), Insets(top: 1, right: 8, bottom: 1, left: 8))
        let three = try parse(["--padding", "1,2,3"]).surround.padding
        XCTAssertEqual(three.resolve(rows: 20, columns: 80), Insets(top: 1, right: 2, bottom: 3, left: 2))
        let four = try parse(["--padding=1,2,3,4"]).surround.padding
        XCTAssertEqual(four.resolve(rows: 20, columns: 80), Insets(top: 1, right: 2, bottom: 3, left: 4))
        XCTAssertEqual(try parse(["--margin=2.5%"]).surround.margin.left, .percent(2.5))
        XCTAssertEqual(try parse(["--margin=1", "--no-margin"]).surround.margin, .zero)
        XCTAssertEqual(try parse(["--padding=1", "--no-padding"]).surround.padding, .zero)
    }

    func testInfoStylesAndTheirLegacySpellings() throws {
        XCTAssertEqual(try parse([]).info, .default)
        XCTAssertEqual(try parse(["--info=right"]).info, .right)
        XCTAssertEqual(try parse(["--info=hidden"]).info, .hidden)
        XCTAssertEqual(try parse(["--info=inline"]).info, .inline(prefix: " < "))
        XCTAssertEqual(try parse(["--info=inline:: "]).info, .inline(prefix: ": "))
        XCTAssertEqual(try parse(["--info=inline-right"]).info, .inlineRight(prefix: ""))
        XCTAssertEqual(try parse(["--info", "inline-right:["]).info, .inlineRight(prefix: "["))
        XCTAssertEqual(try parse(["--no-info"]).info, .hidden)
        XCTAssertEqual(try parse(["--inline-info"]).info, .inline(prefix: " < "))
        XCTAssertEqual(try parse(["--inline-info", "--no-inline-info"]).info, .default)
        XCTAssertFalse(InfoStyle.inline(prefix: "").hasOwnRow)
        XCTAssertTrue(InfoStyle.right.hasOwnRow)
    }

    func testAdaptiveHeight() throws {
        let rows = try parse(["--height=~10"])
        XCTAssertEqual(rows.height, .rows(10))
        XCTAssertTrue(rows.heightAdapts)
        let percent = try parse(["--height", "~40%"])
        XCTAssertEqual(percent.height, .percent(40))
        XCTAssertTrue(percent.heightAdapts)
        XCTAssertEqual(try parse(["--height=~100%"]).height, .percent(100), "~100% stays inline")
        XCTAssertFalse(try parse(["--height=~10", "--height=10"]).heightAdapts)
        XCTAssertFalse(try parse(["--height=~10", "--no-height"]).heightAdapts)
    }

    func testTrackPointerMarkerEllipsis() throws {
        let o = try parse(["--track", "--pointer=▶", "--marker", "✓ ", "--ellipsis=.."])
        XCTAssertTrue(o.track)
        XCTAssertEqual(o.pointer, "▶")
        XCTAssertEqual(o.marker, "✓ ")
        XCTAssertEqual(o.ellipsis, "..")
        XCTAssertFalse(try parse(["--track", "--no-track"]).track)
        XCTAssertEqual(try parse(["--pointer="]).pointer, "")
        XCTAssertEqual(try parse(["--pointer=世"]).pointer, "世", "one wide character is two columns")
        XCTAssertEqual(error(["--pointer=->>"]), "invalid value for --pointer: '->>' (at most 2 columns wide)")
        XCTAssertEqual(error(["--marker=世界"]), "invalid value for --marker: '世界' (at most 2 columns wide)")
        XCTAssertEqual(try parse(["--pointer=\u{1B}"]).pointer, "\u{241B}", "a control character shows as its symbol")
    }

    func testSchemeSetsTheTiebreakAsFzfDoesTheLaterWinning() throws {
        XCTAssertEqual(try parse(["--scheme=history"]).ranking.tiebreaks, [.index])
        XCTAssertEqual(try parse(["--scheme=history"]).scheme, .history)
        XCTAssertEqual(try parse(["--scheme=path"]).ranking.tiebreaks, [.length])
        XCTAssertEqual(try parse(["--scheme=default"]).ranking.tiebreaks, [.length])
        XCTAssertEqual(try parse(["--scheme=HISTORY"]).scheme, .history)
        XCTAssertEqual(try parse(["--scheme=history", "--tiebreak=begin"]).ranking.tiebreaks, [.begin])
        XCTAssertEqual(try parse(["--tiebreak=begin", "--scheme=history"]).ranking.tiebreaks, [.index])
    }

    func testDelimiterAndFieldIndexesAreParsedAsFzfSpellsThem() throws {
        XCTAssertEqual(try parse(["-d", ":"]).delimiter, ":")
        XCTAssertEqual(try parse(["-d:"]).delimiter, ":")
        XCTAssertEqual(try parse(["--delimiter=\\t"]).delimiter, "\\t")
        XCTAssertNil(try parse([]).delimiter)
        XCTAssertEqual(error(["-d", ""]), "invalid value for -d: empty delimiter")
        XCTAssertEqual(try parse(["--nth=2"]).nth, FieldRanges([FieldRange(begin: 2, end: 2)]))
        XCTAssertEqual(try parse(["-n", "-1"]).nth, FieldRanges([FieldRange(begin: -1, end: -1)]))
        XCTAssertEqual(try parse(["-n2.."]).nth, FieldRanges([FieldRange(begin: 2, end: nil)]))
        XCTAssertEqual(try parse(["--with-nth", "..3,5"]).withNth,
                       FieldTemplate(FieldRanges([FieldRange(begin: nil, end: 3), FieldRange(begin: 5, end: 5)])))
        XCTAssertEqual(try parse(["--with-nth", "{2} {1}"]).withNth?.expression, "{2} {1}", "a template, as fzf's")
        XCTAssertEqual(try parse(["--accept-nth", "1"]).acceptNth, FieldTemplate(FieldRanges([FieldRange(begin: 1, end: 1)])))
        XCTAssertEqual(error(["--nth", "0"]),
                       "invalid value for --nth: '0' (expected field indexes such as 2, -1, 2.., ..3, 1,3)")
    }

    func testNoMouseAndCosmeticNoOps() throws {
        XCTAssertTrue(try parse([]).mouse)
        XCTAssertFalse(try parse(["--no-mouse"]).mouse)
        XCTAssertNoThrow(try parse(["--no-scrollbar", "--no-separator", "--highlight-line", "--no-multi-line"]))
    }

    func testStylePresetsAndThePartsBorders() throws {
        let full = try parse(["--style=full:double", "--border", "--list-border", "--no-header-border"])
        XCTAssertEqual(full.surround.border, .double, "--border alone takes the preset's style, as fzf")
        XCTAssertEqual(full.parts.list.style, .double)
        XCTAssertEqual(full.parts.input.style, .double)
        XCTAssertEqual(full.parts.header.style, BorderStyle.none)
        XCTAssertEqual(full.previewWindow.border, .double)
        XCTAssertEqual(full.info, .inlineRight(prefix: ""))
        let minimal = try parse(["--style", "minimal"])
        XCTAssertEqual(minimal.parts.footer.style, .line)
        XCTAssertEqual(minimal.separator, "")
        XCTAssertEqual(try parse(["--style=full:line", "--list-border"]).parts.list.style, .rounded)
        XCTAssertEqual(error(["--list-border=line"]), "invalid value for --list-border: 'line' (the list's border cannot be a line)")
        XCTAssertEqual(error(["--style=fancy"]), "invalid value for --style: 'fancy' (expected default, minimal or full[:BORDER])")
        let labelled = try parse(["--input-border", "bold", "--input-label", "in", "--input-label-pos", "2:bottom",
                                  "--header-lines-border", "--footer", "a\nb", "--header-first", "--min-height=5+"])
        XCTAssertEqual(labelled.parts.input, PartBorder(style: .bold, label: "in", labelPosition: LabelPosition(column: 2, bottom: true)))
        XCTAssertEqual(labelled.parts.headerLines?.style, .rounded)
        XCTAssertTrue(labelled.parts.headerFirst)
        XCTAssertEqual(labelled.minHeight, 5)
        XCTAssertTrue(labelled.minHeightAuto)
        // fzf's inline sections: only the header's, header lines' and footer's.
        XCTAssertEqual(try parse(["--header-border=inline", "--footer-border", "inline"]).parts.header.style, .inline)
        XCTAssertEqual(error(["--list-border=inline"]), "invalid value for --list-border: 'inline' (inline border is only "
                       + "supported for --header-border, --header-lines-border, and --footer-border)")
        XCTAssertEqual(error(["--header-border=inline", "--header-lines-border=sharp", "--header-lines=1"]),
                       "--header-border=inline requires --header-lines-border to be inline or unset")
        let preview = try parse(["--preview-border=sharp", "--preview-label", " p ", "--preview-label-pos=-2:bottom"])
        XCTAssertEqual(preview.previewWindow.border, .sharp)
        XCTAssertEqual(preview.previewLabel, PartBorder(label: " p ", labelPosition: LabelPosition(column: -2, bottom: true)))
    }

    func testEveryOptionFzfAcceptsIsAcceptedAndItsLookHonoured() throws {
        XCTAssertNoThrow(try parse(["--tabstop", "4", "--algo=v1", "--style=full", "--wrap", "word", "--gap", "2",
                                    "--list-border", "--input-label= x ", "--tail=100", "--sync", "--threads=2",
                                    "--no-tty-default", "--listen", "--walker=file,dir", "--with-nth=1", "+x", "--"]))
        XCTAssertNoThrow(try parse([], defaults: "--height=40% --scroll-off=3 --info-command='echo {}' --ghost=type"))
        XCTAssertEqual(OptionTable.byName["--style"]?.support, .honoured)
        XCTAssertEqual(OptionTable.byName["--wrap"]?.support, .honoured)
        XCTAssertEqual(OptionTable.byName["--freeze-left"]?.support, .honoured)
        XCTAssertEqual(OptionTable.byName["--scrollbar"]?.support, .honoured)
        XCTAssertEqual(OptionTable.byName["--black"]?.support, .honoured)
        let look = try parse(["--no-bold", "--black", "--no-unicode", "--ambidouble"])
        XCTAssertEqual([look.bold, look.black, look.unicode, look.ambidouble], [false, true, false, true])
        XCTAssertEqual([look.listScrollbar, look.separatorRule, look.ellipsisShown, look.gutterRawShown], ["|", "-", "..", ":"])
        XCTAssertNil(try parse([]).ambidouble, "RUNEWIDTH_EASTASIAN decides")
        let fzf = try Options.parse(arguments: [], start: .fzfDefaults)
        XCTAssertEqual([fzf.pointerShown, fzf.markerShown, fzf.gutterShown], ["▌", "┃", "▌"], "fzf's glyphs as fzf")
        let ascii = try Options.parse(arguments: ["--no-unicode"], start: .fzfDefaults)
        XCTAssertEqual([ascii.pointerShown, ascii.markerShown], [">", ">"])
        XCTAssertTrue(ascii.gutterIsReversed, "a blank in the gutter's colour")
        XCTAssertEqual([look.pointerShown, look.markerShown], [">", "*"], "pick's own")
        XCTAssertEqual(try parse(["--zsh"]).shell, "zsh")
        // Accepting an fzf value does not mean any value: fzf refuses these too.
        XCTAssertEqual(error(["--algo=v3"]), "invalid value for --algo: 'v3' (expected v1 or v2)")
        XCTAssertEqual(error(["--tail=0"]), "invalid value for --tail: '0' (expected a whole number from 1)")
    }

    func testTheFewFzfOptionsIgnoringWouldGetWrongAreRefusedSayingSo() {
        XCTAssertEqual(error(["--man"]), "--man is not implemented yet (fzf option)")
        let refused = OptionTable.rows.filter { $0.support == .notImplemented }
        XCTAssertFalse(refused.isEmpty)
        for row in refused {
            XCTAssertNil(Options.longOptions[row.name], "\(row.name) is both listed and refused")
            let args = row.argument == .required ? [row.name, "x"] : [row.name]
            XCTAssertEqual(error(args), "\(row.name) is not implemented yet (fzf option)")
        }
    }

    func testCommentLinesAndBlankLinesInTheDefaultsVariableAreSkippedAsFzfSkipsThem() throws {
        // forgit's FORGIT_FZF_DEFAULT_OPTS style: an option a line, comments between.
        let o = try parse([], defaults: "# a theme\n--exact   # plain terms match exactly\n\n  # --tac\n--prompt='# > '\n--cycle")
        XCTAssertFalse(o.matching.fuzzy)
        XCTAssertEqual(o.prompt, "# > ")
        XCTAssertTrue(o.cycle)
        XCTAssertFalse(o.ranking.reversesInput, "a commented-out option stays out")
        XCTAssertEqual(try ShellWords.split("a # b\nc", comments: true), ["a", "c"])
        XCTAssertEqual(try ShellWords.split("a#b", comments: true), ["a#b"])
    }

    func testFzfsDefaultsPutThePromptAtTheBottom() throws {
        XCTAssertEqual(try Options.parse(arguments: [], start: .fzfDefaults).layout, .bottom)
        XCTAssertEqual(try Options.parse(arguments: ["--reverse"], start: .fzfDefaults).layout, .top)
        XCTAssertEqual(try Options.parse(arguments: []).layout, .top, "pick's own default stays")
        XCTAssertEqual(try Options.parse(arguments: [], start: .fzfDefaults).typos, false)
    }

    func testAnErrorInFzfsDefaultsNamesTheVariable() {
        XCTAssertThrowsError(try Options.parse(arguments: [], defaults: "--bogus", defaultsName: "FZF_DEFAULT_OPTS")) {
            XCTAssertEqual("\($0)", "FZF_DEFAULT_OPTS: unknown option: --bogus")
        }
    }

    func testValuesAsFzfReadsThem() throws {
        XCTAssertEqual(try parse(["--expect=/,alt-enter,"]).expect.map(\.written), ["/", "alt-enter"])
        XCTAssertEqual(try parse(["--expect=,"]).expect.map(\.written), [","])
        XCTAssertEqual(try parse(["--height=-3"]).height, .allBut(3))
        XCTAssertEqual(try parse(["--height=-30%"]).height, .percent(70))
        XCTAssertEqual(try parse(["--height=~-2"]).height, .allBut(2))
        XCTAssertEqual(try parse(["--min-height=20+"]).minHeight, 20)
        XCTAssertEqual(try parse([]).minHeight, 10)
        XCTAssertEqual(try parse(["--history-size=5"]).historySize, 5)
        XCTAssertEqual(try parse(["--with-shell", "bash --norc -c"]).withShell, ["bash", "--norc", "-c"])
        XCTAssertTrue(try parse(["--no-header", "--no-header-lines"]).header == nil)
        XCTAssertFalse(try parse(["--toggle-sort=ctrl-r"]).bindings.isEmpty)
    }

    func testATypicalFzfDefaultOptsIsAccepted() throws {
        let o = try parse([], defaults: "--height=~40% --layout=reverse --border --info=inline --no-mouse "
                                       + "--track --pointer='▶' --marker='✓' --margin=0,1 --padding=1 --scheme=history "
                                       + "--border-label=' pick ' --no-scrollbar --multi 3 --cycle")
        XCTAssertEqual(o.layout, .top)
        XCTAssertEqual(o.surround.border, .rounded)
        XCTAssertEqual(o.info, .inline(prefix: " < "))
        XCTAssertEqual(o.multiLimit, 3)
        XCTAssertTrue(o.heightAdapts && o.track && o.cycle && !o.mouse)
    }

    func testHelpAndVersion() throws {
        XCTAssertTrue(try parse(["-h"]).help)
        XCTAssertTrue(try parse(["--help"]).help)
        XCTAssertTrue(try parse(["--version"]).version)
    }

    func testUnknownOptionIsNamed() {
        XCTAssertEqual(error(["--bogus"]), "unknown option: --bogus")
        XCTAssertEqual(error(["-z"]), "unknown option: -z")
        XCTAssertEqual(error(["-ez"]), "unknown option: -z")
        XCTAssertEqual(error(["+z"]), "unknown option: +z")
        XCTAssertEqual(error(["--bogus=1"]), "unknown option: --bogus")
    }

    func testMissingValueIsNamed() {
        XCTAssertEqual(error(["--query"]), "option --query needs a value")
        XCTAssertEqual(error(["-q"]), "option -q needs a value")
        XCTAssertEqual(error(["--filter"]), "option --filter needs a value")
        XCTAssertEqual(error(["-i", "--limit"]), "option --limit needs a value")
    }

    func testBadValueIsNamed() throws {
        for (args, name) in [(["--limit=0"], "--limit"), (["--limit", "many"], "--limit"),
                             (["--tiebreak=random"], "--tiebreak"), (["--tiebreak=index,length"], "--tiebreak"),
                             (["--tiebreak=length,length"], "--tiebreak"), (["--height=1"], "--height"),
                             (["--height=0%"], "--height"), (["--layout=left"], "--layout"),
                             (["--color=hl:nocolor"], "--color"), (["--expect=ctrl-"], "--expect"),
                             (["--header-lines=-1"], "--header-lines"), (["-m5x"], "-m"),
                             (["--history="], "--history"), (["--scope="], "--scope")] {
            let message = try XCTUnwrap(error(args), "\(args) should be refused")
            XCTAssertTrue(message.hasPrefix("invalid value for \(name):"), "\(args): \(message)")
        }
    }

    func testFlagGivenAValueIsRefused() {
        XCTAssertEqual(error(["--exact=yes"]), "option --exact takes no value (got 'yes')")
    }

    func testPositionalArgumentIsRefused() {
        XCTAssertTrue(error(["foo"])?.hasPrefix("unexpected argument: 'foo'") ?? false)
    }

    func testDefaultOptionsAreReadFirst() throws {
        let o = try parse([], defaults: "--layout=bottom -i --prompt='pick> '")
        XCTAssertEqual(o.layout, .bottom)
        XCTAssertEqual(o.matching.caseMode, .ignore)
        XCTAssertEqual(o.prompt, "pick> ")
    }

    func testCommandLineOverridesDefaultOptions() throws {
        let o = try parse(["--layout=top", "+i"], defaults: "--layout=bottom -i --tac")
        XCTAssertEqual(o.layout, .top)
        XCTAssertEqual(o.matching.caseMode, .respect)
        XCTAssertTrue(o.ranking.reversesInput, "what the command line does not mention stays")
    }

    func testBadDefaultOptionsAreNamedInTheError() {
        let unknown = error([], defaults: "--bogus")
        XCTAssertTrue(unknown?.contains("--bogus") ?? false, unknown ?? "no error")
        XCTAssertTrue(unknown?.contains("PICK_DEFAULT_OPTS") ?? false, unknown ?? "no error")
        let quote = error([], defaults: "--prompt='open")
        XCTAssertTrue(quote?.contains("PICK_DEFAULT_OPTS") ?? false, quote ?? "no error")
    }

    func testCommandLineErrorsDoNotBlameDefaultOptions() {
        let message = error(["--bogus"], defaults: "--tac")
        XCTAssertEqual(message, "unknown option: --bogus")
    }

    func testEmptyDefaultOptionsAreFine() throws {
        XCTAssertEqual(try parse([], defaults: "").query, "")
        XCTAssertEqual(try parse([], defaults: "   ").query, "")
    }

    func testShellWordsSplitLikeAShell() throws {
        XCTAssertEqual(try ShellWords.split(#"a 'b c' "d \" e" f\ g"#), ["a", "b c", #"d " e"#, "f g"])
        XCTAssertEqual(try ShellWords.split("''"), [""])
        // As in sh: inside double quotes a backslash before other characters stays.
        XCTAssertEqual(try ShellWords.split(#""C:\dir" "a\\b" 'x\y'"#), [#"C:\dir"#, #"a\b"#, #"x\y"#])
        XCTAssertThrowsError(try ShellWords.split("'open"))
    }

    func testExpectKeepsTheKeysAsWrittenAndTheKeysTheyName() throws {
        let o = try parse(["--expect=Return,ctrl-X,alt-up,alt-P"])
        XCTAssertEqual(o.expect.map(\.written), ["Return", "ctrl-X", "alt-up", "alt-P"])
        XCTAssertEqual(o.expect.map(\.key), [.char(13), .char(24), .modified(.up, .alt), .alt(0x50)])
        XCTAssertEqual(try parse(["--expect=enter,return"]).expect, [NamedKey(key: .char(13), written: "return")],
                       "a key named twice prints as written last, as in fzf")
        XCTAssertEqual(error(["--expect=ctrl-x,hyper-x"]), "invalid value for --expect: unknown key 'hyper-x'")
        XCTAssertEqual(try parse(["--expect=double-click"]).expect.map(\.key), [.mouseEvent(.doubleClick)],
                       "fzf's --expect takes its mouse events too")
    }

    func testAValueStartingWithACombiningMarkStaysAValue() throws {
        // "=" followed by U+0301 is one Character; the option parser must still split there.
        let options = try Options.parse(arguments: ["--filter=\u{301}x", "-q\u{301}y"])
        XCTAssertEqual(options.filter?.unicodeScalars.map(\.value), [0x301, 0x78])
        XCTAssertEqual(options.query.unicodeScalars.map(\.value), [0x301, 0x79])
    }
}
