// With stdin a terminal (nothing piped), the candidates are the output of the default
// command (PICK_DEFAULT_COMMAND or FZF_DEFAULT_COMMAND, Invocation.swift), run as any
// command pick runs, or, with none set, the file walker (`--walker`, `--walker-root`, `--walker-skip`).

#if canImport(Glibc)
import Glibc
#endif
import PickCore

enum DefaultCommand {
    /// Fills `store` from the default command's output, or from the file walker;
    /// `onFailure` is told the command when it exits with a status other than 0.
    static func list(_ walker: WalkerOptions, into store: LineStore, onChunk: @escaping () -> Void,
                     onFailure: (String) -> Void = { _ in }) {
        guard let command = Invocation.current.defaultCommand else {
            FileWalker.walk(walker, into: store, onChunk: onChunk)
            return
        }
        guard let child = try? ChildProcess.spawn(Array(command.utf8), output: .outputPipe) else {
            fail("cannot run the default command: \(ChildProcess.shell)")
        }
        // The reader blocks: this is the input thread's whole work.
        _ = fcntl(child.output, F_SETFL, fcntl(child.output, F_GETFL) & ~O_NONBLOCK)
        InputReader.readAll(fd: child.output, into: store, mapsFile: false, helpAtOnce: false, onChunk: onChunk)
        if child.wait() != 0 { onFailure(command) }
        child.terminate()
    }
}
