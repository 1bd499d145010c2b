import PickCore

// The picker's part of `--remember NAME` (Remember.swift): a key forgets a wrong pick.

extension Picker {
    /// shift-Delete (`forget`): the line is forgotten, in the store and in this session's
    /// ranking, which is searched again (the highlight goes back to the first line).
    func forget(_ line: Int32) {
        guard Remember.name(options) != nil, Int(line) < linesAsRead.count else { return }
        let text = Array(linesAsRead.bytes(of: Int(line)))
        // (A store that fails was reported as pick started; the screen is not the place.)
        _ = Remember.forget(text, options: options)
        worker.engine.forgetRemembered(text)
        perform(.rankingChanged)
    }
}
