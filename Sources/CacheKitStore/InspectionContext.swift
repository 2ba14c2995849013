/// What inspecting a cache needs to know besides its files.
public struct InspectionContext: Sendable {
    /// "Now" for every age decision.
    public var now: FileTime
    /// Incomplete and orphan items younger than this many seconds are left alone (a live
    /// writer may still be producing them). Default 1 hour.
    public var graceSeconds: Double
    /// Rehash bodies against recorded checksums (native store). Default false.
    public var verify: Bool

    /// As of `now` (default: now), a grace period of one hour, bodies not rehashed.
    public init(now: FileTime = .now, graceSeconds: Double = 3600, verify: Bool = false) {
        self.now = now
        self.graceSeconds = graceSeconds
        self.verify = verify
    }

    func isOlderThanGrace(_ time: FileTime?) -> Bool {
        guard let time else { return true }
        return now.timeInterval - time.timeInterval >= graceSeconds
    }
}
