import NotifJSON

/// What a tool takes from its process, read once where it starts (`current()`, from the
/// tool's `main()`): the arguments, `SOURCE_DATE_EPOCH`, the clocks, whether standard error is
/// a terminal, the process id and the temporary directory.
///
/// Every tool gets the same value, and takes only what it needs from it; nothing below a
/// tool's `main()` reads the process's environment, so that tests can fix all of it.
public struct ToolEnvironment {
  /// The command-line arguments, without the program name.
  public var arguments: [String]
  /// `SOURCE_DATE_EPOCH`, if set: the reference time when `--now` is not given.
  public var sourceDateEpoch: String?
  /// The real-time clock: the reference time when neither `--now` nor `SOURCE_DATE_EPOCH` is.
  public var clock: () -> Timestamp
  /// Seconds on a monotonic clock, for waiting and for progress.
  public var monotonicClock: () -> Double
  /// Whether standard error is a terminal: the default of `--progress`.
  public var stderrIsTerminal: Bool
  /// The process id, which names temporary files.
  public var pid: Int32
  /// `TMPDIR`, else `/tmp`: where spooled input goes.
  public var temporaryDirectory: String

  /// An environment with the given values; the defaults are a fixed one, for tests: no
  /// arguments and no `SOURCE_DATE_EPOCH`, both clocks stopped at 0, standard error not a
  /// terminal, process id 0, `/tmp`.
  public init(
    arguments: [String] = [], sourceDateEpoch: String? = nil,
    clock: @escaping () -> Timestamp = { Timestamp(seconds: 0) },
    monotonicClock: @escaping () -> Double = { 0 }, stderrIsTerminal: Bool = false,
    pid: Int32 = 0, temporaryDirectory: String = "/tmp"
  ) {
    self.arguments = arguments
    self.sourceDateEpoch = sourceDateEpoch
    self.clock = clock
    self.monotonicClock = monotonicClock
    self.stderrIsTerminal = stderrIsTerminal
    self.pid = pid
    self.temporaryDirectory = temporaryDirectory
  }

  /// This process's environment, read now.
  public static func current() -> ToolEnvironment {
    func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    return ToolEnvironment(
      arguments: Array(CommandLine.arguments.dropFirst()),
      sourceDateEpoch: variable("SOURCE_DATE_EPOCH"), clock: realTime, monotonicClock: monotonic,
      stderrIsTerminal: isatty(STDERR_FILENO) == 1, pid: getpid(),
      temporaryDirectory: variable("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp")
  }

  /// The reference time: `--now` (RFC 3339 or `@epoch`), else `SOURCE_DATE_EPOCH`, else
  /// `clock`, as `Timestamp.reference` chooses; its errors become usage errors.
  public func now(_ scanned: ScannedArguments) throws(UsageError) -> Timestamp {
    do {
      return try Timestamp.reference(
        option: scanned.last("now"), sourceDateEpoch: sourceDateEpoch, clock: clock)
    } catch {
      throw UsageError(error.message)
    }
  }

  /// The real-time clock: now.
  static func realTime() -> Timestamp {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    return Timestamp(seconds: Int64(now.tv_sec), nanoseconds: Int32(now.tv_nsec))
  }

  /// Seconds on the monotonic clock.
  static func monotonic() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
