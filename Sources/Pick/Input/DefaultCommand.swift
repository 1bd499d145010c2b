// With stdin a terminal (nothing piped), the candidates are the output of the default
// command (PICK_DEFAULT_COMMAND or FZF_DEFAULT_COMMAND, Invocation.swift), run as any
// command pick runs, or, with none set, the file walker (`--walker`, `--walker-root`, `--walker-skip`).

#if canImport(Glibc)
import Glibc
#endif
import PickCore

enum DefaultCommand {
    /// Fills `store` from the default command's output, or from the file walker.
    static func list(_ walker: WalkerOptions, into store: LineStore, onChunk: @escaping () -> Void) {
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
        _ = child.wait()
        child.terminate()
    }
}
