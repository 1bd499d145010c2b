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

    // MARK: Popular themes in FZF_DEFAULT_OPTS, every cell's colours as fzf's

    /// catppuccin/fzf's mocha theme (themes/catppuccin-fzf-mocha.sh), as its README says to use it.
    static let catppuccinMocha = """
        --color=bg+:#313244,bg:#1E1E2E,spinner:#F5E0DC,hl:#F38BA8 \
        --color=fg:#CDD6F4,header:#F38BA8,info:#CBA6F7,pointer:#F5E0DC \
        --color=marker:#B4BEFE,fg+:#CDD6F4,prompt:#CBA6F7,hl+:#F38BA8 \
        --color=selected-bg:#45475A \
        --color=border:#6C7086,label:#CDD6F4
        """

    /// folke/tokyonight.nvim's extras/fzf/tokyonight_night.sh.
    static let tokyonightNight = """
        --highlight-line --info=inline-right --ansi --layout=reverse --border=none \
        --color=bg+:#283457 --color=bg:#16161e --color=border:#27a1b9 --color=fg:#c0caf5 \
        --color=gutter:#16161e --color=header:#ff9e64 --color=hl+:#2ac3de --color=hl:#2ac3de \
        --color=info:#545c7e --color=marker:#ff007c --color=pointer:#ff007c --color=prompt:#2ac3de \
        --color=query:#c0caf5:regular --color=scrollbar:#27a1b9 --color=separator:#ff9e64 \
        --color=spinner:#ff007c
        """

    private func assertThemeAsFzfs(_ theme: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let environment = ["FZF_DEFAULT_OPTS": theme]
        try assertScreenAsFzf("seq 100", "--multi", ready: "100/100", width: 60, height: 14, keys: ["Up", "Tab", "Tab", "1"],
                              environment: environment, styled: true, file: file, line: line)
        tmux.close()
        tmux = try TmuxPick(test: name + "full")
        try assertScreenAsFzf("seq 100", "--multi --style full --preview 'seq {}' --header hello --footer foot "
                              + "--border-label=BL", ready: "100/100", width: 60, height: 16, keys: ["Up", "Tab", "Tab", "1"],
                              environment: environment, styled: true, file: file, line: line)
    }

    func testCatppuccinMochaColoursEveryPartAsFzfs() throws {
        try assertThemeAsFzfs(Self.catppuccinMocha)
    }

    func testTokyonightColoursEveryPartAsFzfs() throws {
        try assertThemeAsFzfs(Self.tokyonightNight)
    }
}
