#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system's clocks, read where a tool starts: the tools themselves take time as a value or
/// a function (from `--now`, `SOURCE_DATE_EPOCH` or these), so that tests can fix it.
public enum SystemClock {
  /// The real-time clock: now.
  public static func now() -> Timestamp {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Timestamp(seconds: Int64(now.tv_sec), nanoseconds: Int32(now.tv_nsec))
  }

  /// Seconds on the monotonic clock, for measuring how long something takes.
  public static func monotonicSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
