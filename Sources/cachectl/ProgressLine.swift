import CacheKit
import Dispatch

/// Live progress on stderr for long walks: only on a terminal, only after about a second.
final class ProgressLine: @unchecked Sendable {
    // @unchecked Sendable: `timer` and `shown` are only touched on `queue` (the timer's handler runs there).
    private let text: @Sendable () -> String
    private let queue = DispatchQueue(label: "cachectl.progress")
    private var timer: DispatchSourceTimer?
    private var shown = false

    /// A walk's counters as "N files, N directories, SIZE so far".
    convenience init?(_ counters: WalkProgress) {
        self.init(every: 0.2) {
            let now = counters.snapshot
            return "\(now.files) files, \(now.directories) directories, \(ByteCount.human(now.allocatedBytes)) so far"
        }
    }

    /// Nil when stderr is not a terminal: then nothing is ever drawn. Draws `text()` after
    /// a second, then every `interval` seconds.
    init?(every interval: Double, _ text: @escaping @Sendable () -> String) {
        guard Output.stderrIsTerminal else { return nil }
        self.text = text
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1.0, repeating: interval)
        timer.setEventHandler { [weak self] in self?.draw() }
        self.timer = timer
        timer.resume()
    }

    private func draw() {
        shown = true
        Output.stderr("\r\u{1B}[K" + text())
    }

    /// Stops drawing and erases the line.
    func finish() {
        queue.sync {
            timer?.cancel()
            timer = nil
            if shown { Output.stderr("\r\u{1B}[K") }
            shown = false
        }
    }
}
