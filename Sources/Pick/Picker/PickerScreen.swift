#if canImport(Glibc)
import Glibc
#endif
import PickCore

// The picker's rows on the terminal: entering them, the prompt's place, a resize, ctrl-l
// and ctrl-z.

extension Picker {
    /// The rows were laid out anew (the prompt, the header or the preview pane changed):
    /// libedit's prompt, the list's height and a whole frame follow.
    func layoutChanged() {
        placePrompt()
        editor.refresh()
        lastFrame = []
        perform(.listHeight(geometry.listHeight(headers: headerCount)))
        perform(.redraw)
    }

    func enterScreen() {
        if options.heightAdapts {
            let counts = { (candidates: max(0, self.store.count - self.options.headerLines), headers: self.headerCount,
                            sections: max(0, Scopes.names(in: self.store).count - 1), loading: self.input.isLoading) }
            region.fit(terminal, info: options.info, separator: options.separatorRule.map { StyledText(ansi: $0) },
                       separatorIsDefault: options.separator == nil,
                       surround: options.surround, preview: preview.map(\.shownWindow), listRows: { g, headers in
                // --no-input: the prompt's and the info line's rows are the list's.
                var g = g
                if self.session.inputHidden { g.promptRows = 0 }
                return g.withParts(self.options.parts, headerText: self.headerText.count, headerLines: self.boxedHeaderLines,
                                   footer: self.footerText, gutter: self.gutter.width, input: !self.session.inputHidden)
                    .listHeight(headers: headers)
            }, content: counts)
        }
        region.enter(terminal, decoder: &decoder, clearing: options.clear)
        placePrompt()
        perform(.listHeight(geometry.listHeight(headers: headerCount)))
        lastFrame = []
        perform(.redraw)
    }

    /// Tells libedit where the query goes: its prompt starts with what is drawn left of the
    /// rows, and its lines end where the rows do (so a long query wraps before a right
    /// border); and puts the cursor on the prompt's row.
    func placePrompt() {
        let g = geometry
        if let editor {
            editor.setPrompt(prefix: g.promptPrefix, prompt)
            if g.inputRight < terminal.size().cols { editor.limitColumns(g.inputRight) }
        }
        terminal.write("\u{1B}[\(g.promptRow);1H")
        cursorOnSelection = false
    }

    func resized() {
        cursorBackToEditor()
        editor.resized()
        // The prompt's row in the region, and how far into the query the cursor is (the
        // closure must not read the region, which is being changed).
        let before = geometry
        let rowInRegion = before.promptRow - region.geometry.top
        let rightInset = (before.surrounding?.width ?? before.right) - before.right
        let line = editor.line
        let beforeCursor = promptWidth + TerminalText.width(String(line.text.prefix(line.cursor)))
        region.resize(terminal, decoder: &decoder) { columns in
            rowInRegion + beforeCursor / max(1, columns - rightInset)
        }
        placePrompt()
        editor.refresh()
        lastFrame = []
        perform(.listHeight(geometry.listHeight(headers: headerCount)))
        perform(.redraw)
        draw()
        fire(.event(.resize))
    }

    /// ctrl-l: paints pick's own rows again where they are; the shell's text above a
    /// `--height` region stays (libedit's own ctrl-l would clear the whole terminal).
    func redrawInPlace() {
        cursorBackToEditor()
        region.clear(terminal)
        placePrompt()
        editor.refresh()
        lastFrame = []
        perform(.redraw)
        draw()
    }

    /// ctrl-z: leaves the screen, stops, and comes back on SIGCONT. A ctrl-z that arrived
    /// as a key (libedit turned the terminal's own off) stops the whole job, as the
    /// terminal would have, so the shell sees the job stop.
    func suspend(viaKey: Bool = false) {
        cursorBackToEditor()
        guard suspension.stop(terminal, viaKey: viaKey, leave: { region.leave(terminal) }) else { return }
        enterScreen()
        editor.resized()
        placePrompt()
        editor.refresh()
        draw()
    }
}
