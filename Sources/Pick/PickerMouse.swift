import PickCore

extension Picker {
    /// A click highlights the line under it, a second click on it soon after picks it, and
    /// the wheel moves as Up and Down do.
    func mouse(_ event: MouseEvent) {
        let up = options.layout.listReadsDown ? -1 : 1
        switch event.action {
        case .wheelUp: move(up, wraps: false)
        case .wheelDown: move(-up, wraps: false)
        case .press(0):
            guard let clicked = painted.flatMap({ $0.geometry.line(atRow: event.row, of: $0.frame) }) else { return }
            perform(.select(clicked.position))
            let now = monotonicMillis()
            if let last = lastClick, last.line == clicked.line, now - last.at <= Tunables.Picker.doubleClickMillis {
                outcome = .accept(key: nil)
            }
            lastClick = (clicked.line, now)
        default: break
        }
    }
}
