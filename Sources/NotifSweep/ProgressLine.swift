import NotifJSON
import NotifModel

/// The progress line a long sweep keeps on standard error (notif-expire, notif-mark):
/// `\rPROG: text` and erase-to-end-of-line, from a `ProgressMeter`, so each line replaces the
/// last. Any other message first clears the line; the tool clears it at the end.
///
/// Time is a parameter, in seconds on a monotonic clock, read only when needed. Output goes
/// only to the writer the tool passes in.
public struct ProgressLine: Sendable {
  /// The program name that starts the line.
  public let program: String
  /// The form the diagnostics are written in (`--format`).
  public let format: DiagnosticFormat
  private var meter: ProgressMeter? = nil

  /// A progress line for `program`, not started: until `start`, `update` shows nothing.
  public init(program: String, format: DiagnosticFormat = .text) {
    self.program = program
    self.format = format
  }

  /// Whether `start` was called: the tool skips computing what to show when not.
  public var isStarted: Bool { meter != nil }

  /// Starts measuring at `now`.
  public mutating func start(now: Double) {
    meter = ProgressMeter(start: now)
  }

  /// Shows how far the sweep has come, when the meter says it is time to.
  public mutating func update(
    records: Int, bytes: Int64, now: () -> Double, _ stderr: inout OutputWriter
  ) {
    guard var meter, let text = meter.update(records: records, bytes: bytes, now: now()) else {
      return
    }
    self.meter = meter
    try? stderr.write("\r\(program): \(text)\u{1B}[K")
    try? stderr.flush()
  }

  /// Clears the line if one is shown (and measures afresh from `now`).
  public mutating func clear(now: () -> Double, _ stderr: inout OutputWriter) {
    guard let meter, meter.shown else { return }
    self.meter = ProgressMeter(start: now())
    try? stderr.write("\r\u{1B}[K")
    try? stderr.flush()
  }

  /// Clears the line, then writes `diagnostic` in `format`.
  public mutating func report(
    _ diagnostic: Diagnostic, now: () -> Double, _ stderr: inout OutputWriter
  ) {
    clear(now: now, &stderr)
    try? stderr.write(format.render(diagnostic, program: program))
    try? stderr.flush()
  }
}
