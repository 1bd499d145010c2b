import PickCore

// `--info-command`: fzf runs it each time it draws the info line and waits for it; pick
// runs it in the background when what it could print changes (the counts, the focus, the
// query), draws its last output meanwhile (the counts until the first one comes), and
// drops a run that a newer one replaces (its group killed), so a slow command never holds
// a key back.

/// The info command's run and what it printed last.
struct InfoCommand {
    /// The run going on, and what it was started for.
    var running: (run: CommandRun, key: String)? = nil
    /// What the last run was started for, finished or not.
    var startedFor: String? = nil
    /// Its last output's first line.
    var output: StyledText? = nil
}

extension Picker {
    /// What to draw in the counts' place for `info`: the command's last output; starts the
    /// command again when its inputs changed.
    func infoCommandOutput(for info: InfoLine) -> StyledText? {
        guard let template = options.infoCommand else { return nil }
        let counts = info.fzfText
        let key = counts + "\u{0}" + String(session.highlighted.map { Int($0) } ?? -1) + "\u{0}" + query
        if infoCommand.startedFor != key {
            infoCommand.startedFor = key
            infoCommand.running?.run.cancel()
            infoCommand.running = nil
            let environment = [("FZF_INFO", counts), ("PICK_INFO", counts)] + sessionEnvironment()
            if let child = try? ChildProcess.spawn(commandLine(CommandTemplate(template)), environment: environment, output: .outputPipe) {
                infoCommand.running = (CommandRun(child), key)
            }
        }
        return infoCommand.output
    }

    /// Takes in the info command's output once it ended, and draws it.
    func takeInfoCommandOutput() {
        guard let (run, _) = infoCommand.running, run.isFinished else { return }
        infoCommand.running = nil
        let line = String(decoding: run.output.prefix { $0 != 0x0A }, as: UTF8.self)
        let output = StyledText(ansi: line, tabStop: options.tabStop)
        guard output != infoCommand.output else { return }
        infoCommand.output = output
        perform(.redraw)
    }
}
