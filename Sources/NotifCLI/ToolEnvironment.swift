import NotifJSON
import NotifModel

/// What a tool takes from its process, read once where it starts (`current()`, from the
/// tool's `main()`): the arguments, `SOURCE_DATE_EPOCH`, the clocks, whether standard error is
/// a terminal, the process id, the temporary directory, and what a tool that writes for a
/// person needs of its terminal (whether standard output is one, its width, `COLUMNS`,
/// `NO_COLOR`).
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
  public var monotonicClock: () -> Double = { 0 }
  /// Whether standard error is a terminal: the default of `--progress`.
  public var stderrIsTerminal = false
  /// The process id, which names temporary files.
  public var pid: Int32 = 0
  /// `TMPDIR`, else `/tmp`: where spooled input goes.
  public var temporaryDirectory = "/tmp"
  /// Whether standard output is a terminal: the default of `--color`.
  public var stdoutIsTerminal = false
  /// The width in columns of the terminal standard output is, if it is one that says.
  public var terminalColumns: Int? = nil
  /// `COLUMNS`, if set: the width when standard output is no terminal.
  public var columnsVariable: String? = nil
  /// Whether `NO_COLOR` is set to a non-empty value (no-color.org): no color unless asked for.
  public var noColor = false

  /// An environment with the given arguments, `SOURCE_DATE_EPOCH` and clock; the rest, and the
  /// defaults, are a fixed environment, for tests: the clocks stopped at 0, standard error not
  /// a terminal, process id 0, `/tmp`.
  public init(
    arguments: [String] = [], sourceDateEpoch: String? = nil,
    clock: @escaping () -> Timestamp = { Timestamp(seconds: 0) }
  ) {
    self.arguments = arguments
    self.sourceDateEpoch = sourceDateEpoch
    self.clock = clock
  }

  /// This process's environment, read now.
  public static func current() -> ToolEnvironment {
    func variable(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
    var environment = ToolEnvironment(
      arguments: Array(CommandLine.arguments.dropFirst()),
      sourceDateEpoch: variable("SOURCE_DATE_EPOCH"), clock: realTime)
    environment.monotonicClock = monotonic
    environment.stderrIsTerminal = isatty(STDERR_FILENO) == 1
    environment.pid = getpid()
    environment.temporaryDirectory = variable("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    environment.stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
    if environment.stdoutIsTerminal {
      var size = winsize()
      if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 {
        environment.terminalColumns = Int(size.ws_col)
      }
    }
    environment.columnsVariable = variable("COLUMNS")
    environment.noColor = !(variable("NO_COLOR") ?? "").isEmpty
    return environment
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
