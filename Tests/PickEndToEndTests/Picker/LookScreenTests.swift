import Foundation
import XCTest

/// fzf's look, drawn by pick as fzf 0.74 draws it: the list's scrollbar, the glyphs with
/// and without Unicode, bold or not, and popular themes from FZF_DEFAULT_OPTS. Each case
/// runs the real fzf and pick side by side and compares their screens.
final class LookScreenTests: InteractiveTestCase {
    /// fzf's gutter and pointer as its suite sets them, so that only the case's part differs.
    private let plain = "--gutter ' ' --pointer '>' --marker '>'"

    func testTheListsScrollbarShowsTheShareInViewWhereTheViewIs() throws {
        try assertScreenAsFzf("seq 100", plain, ready: "100/100", keys: ["PageUp", "PageUp", "Up"])
        tmux.close()
        tmux = try TmuxPick(test: name + "reverse")
        try assertScreenAsFzf("seq 100", plain + " --layout=reverse --scrollbar=▐ --header-lines=2", ready: "98/98",
                              keys: ["PageDown"])
    }

    func testLongLinesStopAColumnShortOfTheScrollbarUnlessThereIsNone() throws {
        let input = "for i in 1 2 3; do printf '%080d\\n' $i; done"
        try assertScreenAsFzf(input, plain, ready: "3/3")
        tmux.close()
        tmux = try TmuxPick(test: name + "none")
        try assertScreenAsFzf(input, plain + " --no-scrollbar", ready: "3/3")
    }

    func testTheScrollbarSitsBesideTheListsBorderAndThePreview() throws {
        try assertScreenAsFzf("seq 100", plain + " --list-border", ready: "100/100", keys: ["PageUp"])
        tmux.close()
        tmux = try TmuxPick(test: name + "preview")
        try assertScreenAsFzf("seq 100", plain + " --no-separator --preview 'echo {}'", ready: "100/100", keys: ["PageUp"])
    }

    func testTheScrollbarTakesItsColour() throws {
        try assertScreenAsFzf("seq 100", plain + " --color=scrollbar:#27a1b9", ready: "100/100", styled: true)
    }

    func testWithoutUnicodeEveryGlyphIsAsciiAsFzfs() throws {
        // fzf's own glyphs (pick invoked as `fzf`), borders, rule, scrollbar, marker, gutter.
        try assertScreenAsFzf("seq 100", "--no-unicode --multi --border --list-border --header-lines 1 --header-border",
                              ready: "99/99", height: 16, keys: ["Tab", "Tab"], styled: true)
    }

    func testFzfsOwnGlyphsAndTheirColoursWithUnicode() throws {
        try assertScreenAsFzf("seq 100", "--multi", ready: "100/100", keys: ["Tab", "Tab"], styled: true)
    }

    func testAmbiguousCharactersTakeTwoColumnsWithAmbidouble() throws {
        let input = "printf '%s\\n' \"$(printf 'é%.0s' $(seq 60))\" abc"
        try assertScreenAsFzf(input, "--ambidouble --no-scrollbar", ready: "2/2")
        tmux.close()
        tmux = try TmuxPick(test: name + "environment")
        try assertScreenAsFzf(input, "--no-scrollbar", ready: "2/2", environment: ["RUNEWIDTH_EASTASIAN": "1"])
    }

    func testNoBoldAndBlackAsFzfs() throws {
        try assertScreenAsFzf("seq 100", "--no-bold --black --query 1", ready: "20/100", styled: true)
        tmux.close()
        tmux = try TmuxPick(test: name + "bold")
        try assertScreenAsFzf("seq 100", "--query 1 --color=prompt:regular,pointer:#ff007c", ready: "20/100", styled: true)
    }
}
