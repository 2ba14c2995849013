/// Marks for speed work: with `CACHECTL_TRACE` set in the environment, each `mark` writes a
/// line to stderr with the wall-clock milliseconds since the first mark, the calling thread's CPU
/// milliseconds and page faults so far, and a label, so a run's phases can be timed (and their
/// memory first touched counted) thread by thread
/// (README, "Performance"). Unset, a mark costs one branch.
package enum Trace {
    package static let enabled = Sys.environment("CACHECTL_TRACE") != nil

    /// The first mark's time: later ones count from it.
    private static let origin = Sys.traceClocks().wall

    package static func mark(_ label: @autoclosure () -> String) {
        guard enabled else { return }
        let origin = Self.origin
        var (wall, cpu, thread, faults) = Sys.traceClocks()
        wall -= origin
        let line =
            "trace \(String(oneDecimal: wall)) ms, thread \(thread) cpu \(String(oneDecimal: cpu)) ms "
            + "faults \(faults): \(label())\n"
        Sys.writeDiagnostic(line)
    }
}

extension String {
    /// `value` with one decimal.
    fileprivate init(oneDecimal value: Double) {
        let tenths = Int((value * 10).rounded())
        self = "\(tenths / 10).\(tenths % 10)"
    }
}
