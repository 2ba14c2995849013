import Dispatch
import CacheKit

/// Live progress on stderr for long walks: only on a terminal, only after about a second.
final class ProgressLine: @unchecked Sendable {
    private let counters: WalkProgress
    private let queue = DispatchQueue(label: "cachectl.progress")
    private var timer: DispatchSourceTimer?
    private var shown = false

    /// Nil when stderr is not a terminal: then nothing is ever drawn.
    init?(_ counters: WalkProgress) {
        guard Output.stderrIsTerminal else { return nil }
        self.counters = counters
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + 1.0, repeating: 0.2)
        timer.setEventHandler { [weak self] in self?.draw() }
        self.timer = timer
        timer.resume()
    }

    private func draw() {
        let now = counters.snapshot
        shown = true
        Output.stderr("\r\u{1B}[K\(now.files) files, \(now.directories) directories, \(ByteCount.human(now.allocatedBytes)) so far")
    }

    /// Stops drawing and erases the line.
    func finish() {
        queue.sync {
            timer?.cancel()
            timer = nil
            if shown { Output.stderr("\r\u{1B}[K") }
        }
    }
}
