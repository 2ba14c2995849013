import ArgumentParser
import CacheKit
import Foundation

/// Runs a fetch, with a progress line on a terminal.
enum FetchRun {
    /// Proxies come from the environment (`http_proxy`, `https_proxy`, `no_proxy`).
    static func run(_ urls: [String], store: NativeStore, options given: FetchOptions) async -> [FetchResult] {
        var options = given
        options.proxies = ProxySettings.fromEnvironment()
        let state = ProgressState()
        let line = ProgressLine(every: 0.2) { state.text }
        let fetcher = Fetcher(store: store, options: options)
        // Ctrl-C cancels: each download in flight stops and removes its temporary file, and
        // the run reports what finished (exit 130).
        let task = Task { await fetcher.fetch(urls) { progress in state.update(progress) } }
        Interrupt.requested = 0
        signal(SIGINT) { _ in Interrupt.requested = 1 }
        let watcher = Task {
            while !Task.isCancelled {
                if Interrupt.requested != 0 {
                    task.cancel()
                    return
                }
                try? await Task.sleep(nanoseconds: 50_000_000)
            }
        }
        let results = await task.value
        await fetcher.shutdown()
        watcher.cancel()
        signal(SIGINT, SIG_DFL)
        line?.finish()
        return results
    }

    private final class ProgressState: Sendable {
        private let state = Locked(
            (progress: FetchProgress(), samples: [(time: Double, bytes: Int64)]())
        )
        func update(_ p: FetchProgress) { state.withLock { $0.progress = p } }
        /// The line: items, bytes, and the rate over the last five seconds (with an ETA).
        var text: String {
            let now = Double(FileTime.now.timeInterval)
            let (p, rate): (FetchProgress, Double) = state.withLock { state in
                let p = state.progress
                state.samples.append((now, p.bytesReceived))
                state.samples.removeAll { $0.time < now - 5 }
                guard let first = state.samples.first, now - first.time > 0.1 else { return (p, 0) }
                return (p, Double(p.bytesReceived - first.bytes) / (now - first.time))
            }
            var text =
                "\(p.itemsDone)/\(p.itemsTotal) items, " + ByteCount.human(p.bytesReceived)
                + (p.bytesExpected.map { " of " + ByteCount.human($0) } ?? "")
            if rate > 0 {
                text += ", " + ByteCount.human(Int64(saturating: rate)) + "/s"
                if let expected = p.bytesExpected, expected > p.bytesReceived {
                    let eta = Int(Int64(saturating: Double(expected - p.bytesReceived) / rate))
                    text +=
                        ", ETA "
                        + (eta >= 3600
                            ? "\(eta / 3600)h\(eta % 3600 / 60)m" : "\(eta / 60):" + String(format: "%02d", eta % 60))
                }
            }
            return text
        }
    }
}
