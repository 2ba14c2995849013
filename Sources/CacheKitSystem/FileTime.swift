#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A point in time as the file system records it (seconds and nanoseconds since the epoch).
public struct FileTime: Comparable, Hashable, Sendable {
    /// Whole seconds since 1970 (UTC).
    public var seconds: Int64
    /// Nanoseconds past `seconds` (0 to 999,999,999).
    public var nanoseconds: Int32

    /// A time from its parts; `nanoseconds` defaults to 0.
    public init(seconds: Int64, nanoseconds: Int32 = 0) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Earlier.
    public static func < (a: FileTime, b: FileTime) -> Bool {
        (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
    }

    /// Seconds since the epoch as a floating-point number.
    public var timeInterval: Double { Double(seconds) + Double(nanoseconds) / 1e9 }

    /// The current wall-clock time.
    public static var now: FileTime {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return FileTime(seconds: Int64(ts.tv_sec), nanoseconds: Int32(ts.tv_nsec))
    }

    /// From seconds since the epoch; values beyond what `Int64` seconds hold are clamped, and
    /// NaN is the epoch (no input may trap).
    public init(timeInterval: Double) {
        guard timeInterval.isFinite else {
            self.init(seconds: timeInterval.isNaN ? 0 : (timeInterval > 0 ? Int64.max : Int64.min))
            return
        }
        let whole = timeInterval.rounded(.down)
        guard whole < 9.2e18, whole > -9.2e18 else {
            self.init(seconds: whole > 0 ? Int64.max : Int64.min)
            return
        }
        self.init(
            seconds: Int64(whole),
            nanoseconds: Int32(min(999_999_999, max(0, ((timeInterval - whole) * 1e9).rounded(.down)))))
    }

    /// This time plus `seconds`.
    public func adding(_ seconds: Double) -> FileTime { FileTime(timeInterval: timeInterval + seconds) }
}
