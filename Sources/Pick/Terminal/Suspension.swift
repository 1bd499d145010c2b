#if canImport(Glibc)
import Glibc
#endif
import PickCore

/// ctrl-z and `fg`: pick stops as a job does and comes back in the terminal mode it had.
///
/// libedit sets its raw mode when it starts reading; pick notes the mode then, and a stop
/// asked for before that waits for it. After `fg`, the shell may still set the terminal's
/// modes as it resumes the job: for a while pick checks its mode on every turn and puts
/// it back.
struct Suspension {
    /// The terminal mode while the picker runs (libedit's raw mode, adjusted).
    private var editorMode: termios? = nil
    /// Until when the mode is watched after a resume.
    private var watchUntil: Int? = nil
    /// A stop that came before the editor set its mode.
    private var pending = false


    /// libedit has set its mode: notes it, and returns whether a stop waited for it.
    mutating func editorStarted(_ terminal: Terminal) -> Bool {
        var mode = termios()
        if tcgetattr(terminal.fd, &mode) == 0 { editorMode = mode }
        defer { pending = false }
        return pending
    }

    /// Stops the job (after `leave` gives the screen back) and returns once continued, in
    /// pick's mode again; false when the stop must wait for the editor. A stop that came
    /// as a key (pick reads ctrl-z itself) stops the whole job, as the terminal would.
    mutating func stop(_ terminal: Terminal, viaKey: Bool, leave: () -> Void) -> Bool {
        // libedit's raw mode as pick last set it: by now the shell may have put its own back.
        guard var raw = editorMode else { pending = true; return false }
        continuedFlag = 0
        leave()
        // The shell may have seen the job stop and taken the terminal already: restoring
        // the modes must not stop pick (SIGTTOU) before it stops itself.
        signal(SIGTTOU, SIG_IGN)
        terminal.restoreMode()
        signal(SIGTTOU, SIG_DFL)
        signal(SIGTSTP, SIG_DFL)
        if continuedFlag == 0 {
            if viaKey { kill(0, SIGTSTP) } else { raise(SIGTSTP) }
        }
        // Continued.
        terminal.catchSignals()
        _ = tcsetattr(terminal.fd, TCSANOW, &raw)
        watchUntil = monotonicMillis() + Tunables.Picker.resumeWatchMillis
        return true
    }

    /// Puts pick's mode back if the shell changed it since a resume; returns how long the
    /// loop may wait before looking again (nil: nothing to watch).
    mutating func watch(_ terminal: Terminal, now: Int) -> Int? {
        guard let until = watchUntil, var raw = editorMode else { return nil }
        guard now <= until else { watchUntil = nil; return nil }
        var current = termios()
        if tcgetattr(terminal.fd, &current) == 0, current.c_lflag != raw.c_lflag || current.c_iflag != raw.c_iflag {
            _ = tcsetattr(terminal.fd, TCSANOW, &raw)
        }
        return Tunables.Picker.resumeWatchIntervalMillis
    }
}
