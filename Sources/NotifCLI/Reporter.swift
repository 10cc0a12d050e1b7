import NotifJSON
import NotifModel

/// How a tool talks on standard error, as the command line says it in every tool:
/// `--format`, `--quiet`, `--max-errors`, `--color` and `--progress`/`--no-progress`, and
/// in the tools that change a file `--verbose`.
public struct ReportOptions: Sendable, Equatable {
  /// `--format text|github|json|sarif`: the form of the diagnostics.
  public var format = DiagnosticFormat.text
  /// `--quiet`: no notes (what a run did that its output does not show); warnings, errors and
  /// the line of what `--max-errors` left out are still written.
  public var quiet = false
  /// `--max-errors N`: at most N errors and N warnings are written; the rest are counted, in
  /// one line at the end. Nil: all of them.
  public var maxErrors: Int? = nil
  /// Whether text diagnostics show their severity in color: `--color always`, or `auto` (the
  /// default) when standard error is a terminal and `NO_COLOR` is not set.
  public var color = false
  /// Whether to keep a progress line on standard error: `--progress`, or by default when
  /// standard error is a terminal; never with `--quiet` unless asked for.
  public var progress = false
  /// Whether a run that changes a file ends with one line of what it did (`--verbose`): asked
  /// for, or by default when standard error is a terminal and `--quiet` is not given; never
  /// from cron.
  public var verbose = false

  /// Diagnostics in text, all of them, uncolored, without progress.
  public init() {}

  /// Reads the options from `scanned`; the defaults of `--color` and `--progress` follow
  /// `environment`'s standard error.
  ///
  /// - Throws: `UsageError` for a `--format`, `--max-errors` or `--color` value it does not
  ///   take.
  public init(_ scanned: ScannedArguments, environment: ToolEnvironment) throws(UsageError) {
    format = try CommandLineTool.diagnosticFormat(scanned) ?? .text
    quiet = scanned.has("quiet")
    if let text = scanned.last("max-errors") {
      guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(text) else {
        throw UsageError("--max-errors: '\(text)' is not a number from 0 up")
      }
      maxErrors = count
    }
    color = try ColorChoice(scanned).resolve(
      isTerminal: environment.stderrIsTerminal, noColor: environment.noColor)
    let last = scanned.options.last { $0.name == "progress" || $0.name == "no-progress" }
    progress = last.map { $0.name == "progress" } ?? (environment.stderrIsTerminal && !quiet)
    verbose = scanned.has("verbose") || (environment.stderrIsTerminal && !quiet)
  }
}

/// `--color auto|always|never`: whether a stream is colored.
public enum ColorChoice: String, Sendable {
  case auto, always, never

  /// The choice `scanned` gives (the last `--color`), `auto` when none.
  public init(_ scanned: ScannedArguments) throws(UsageError) {
    let text = scanned.last("color") ?? "auto"
    guard let choice = ColorChoice(rawValue: text) else {
      throw UsageError("--color: '\(text)' is not auto, always or never")
    }
    self = choice
  }

  /// Whether a stream is colored: `auto` colors a terminal when `NO_COLOR` is not set
  /// (no-color.org).
  public func resolve(isTerminal: Bool, noColor: Bool) -> Bool {
    switch self {
    case .always: true
    case .never: false
    case .auto: isTerminal && !noColor
    }
  }
}

/// What every tool writes on standard error, in one place: the diagnostics (notes left out
/// with `--quiet`, errors and warnings past `--max-errors` counted and not written), the
/// progress line, and at the end the line of what was not shown.
///
/// A tool makes one where its run starts and hands every diagnostic to `report` (or, where the
/// diagnostics are its output, as with `notif-parse --check`, asks `admit` and writes what
/// `output` and `closing` give itself), then calls `finish`. With `--format sarif` the
/// diagnostics go into one `SarifLog`, written whole by `finish` (or `closing`). Output goes
/// only to the writers it is given; time is the monotonic clock of the tool's environment,
/// read only for progress.
public struct Reporter {
  /// The program name, the prefix of every line.
  public let program: String
  /// What the command line asked for.
  public let options: ReportOptions
  private let clock: () -> Double
  private var meter: ProgressMeter? = nil
  private var shownErrors = 0
  private var shownWarnings = 0
  private var hiddenErrors = 0
  private var hiddenWarnings = 0
  /// The file of the first diagnostic not written, which the closing line names.
  private var firstHiddenFile: String? = nil
  /// With `--format sarif`, the log of the run's diagnostics.
  private var sarif: SarifLog? = nil
  /// Whether `closing` has given the run's last words, which `finish` then does not repeat.
  private var closed = false

  /// The code of the line that says how many diagnostics `--max-errors` left out.
  public static let notShownCode = "NotShown"

  /// A reporter for `program`, reading the monotonic clock of `environment` for progress.
  public init(program: String, options: ReportOptions, environment: ToolEnvironment) {
    self.program = program
    self.options = options
    clock = environment.monotonicClock
    if options.format == .sarif {
      sarif = SarifLog(tool: program, version: CommandLineTool.toolkitVersion)
    }
  }

  /// A reporter for `program` without progress, as a test or a short step uses one.
  public init(program: String, options: ReportOptions = ReportOptions()) {
    self.program = program
    self.options = options
    clock = { 0 }
    if options.format == .sarif {
      sarif = SarifLog(tool: program, version: CommandLineTool.toolkitVersion)
    }
  }

  // MARK: - Diagnostics

  /// Whether `diagnostic` is to be written, counting it either way: a note unless `--quiet`;
  /// an error or a warning while fewer than `--max-errors` of its kind were written. A failed
  /// write (`WriteFailed`), which stops the run, is always written.
  public mutating func admit(_ diagnostic: Diagnostic) -> Bool {
    if diagnostic.code == CommandLineTool.writeFailed { return true }
    switch diagnostic.severity {
    case .note:
      return !options.quiet
    case .warning:
      guard let limit = options.maxErrors, shownWarnings >= limit else {
        shownWarnings += 1
        return true
      }
      hiddenWarnings += 1
    case .error:
      guard let limit = options.maxErrors, shownErrors >= limit else {
        shownErrors += 1
        return true
      }
      hiddenErrors += 1
    }
    if firstHiddenFile == nil { firstHiddenFile = diagnostic.file }
    return false
  }

  /// What to write for `diagnostic` now: its line in `--format` (and color, in text); with
  /// SARIF nothing, the diagnostic kept for the log that `closing` gives.
  public mutating func output(_ diagnostic: Diagnostic) -> String {
    if sarif != nil {
      sarif?.add(diagnostic)
      return ""
    }
    return options.format.render(diagnostic, program: program, color: options.color)
  }

  /// Writes `diagnostic` on `stderr` at once, so it shows while the run goes on, if `admit`
  /// lets it through; a progress line is cleared first. A failed write to standard error
  /// cannot be reported anywhere: it does not stop the run.
  public mutating func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    guard admit(diagnostic) else { return }
    let text = output(diagnostic)
    guard !text.isEmpty else { return }
    clearProgress(&stderr)
    try? stderr.write(text)
    try? stderr.flush()
  }

  /// Reports a failed write (`PROG: FILE: error: write error: ... [WriteFailed]`), whatever
  /// `--max-errors` says, and returns `.failure` (exit 2): output that cannot be written stops
  /// the run.
  public mutating func reportFailedWrite(
    _ error: SystemError, _ stderr: inout OutputWriter
  ) -> ExitStatus {
    report(
      Diagnostic(.error, CommandLineTool.writeFailed, error.message, file: error.path), &stderr)
    return .failure
  }

  /// Writes a line of the run's own, not a diagnostic (`--verbose`'s account):
  /// `PROG: text`, the progress line cleared first.
  public mutating func say(_ text: String, _ stderr: inout OutputWriter) {
    clearProgress(&stderr)
    try? stderr.write("\(program): \(text)\n")
    try? stderr.flush()
  }

  /// The diagnostic that says how many errors and warnings `--max-errors` left out, or nil
  /// when it left out none: a note that `--quiet` does not silence, since it is about the
  /// errors.
  public var notShown: Diagnostic? {
    guard let file = firstHiddenFile, let limit = options.maxErrors else { return nil }
    func count(_ value: Int, _ noun: String) -> String? {
      value == 0 ? nil : "\(value) more \(noun)\(value == 1 ? "" : "s")"
    }
    let parts = [count(hiddenErrors, "error"), count(hiddenWarnings, "warning")].compactMap { $0 }
    let verb = hiddenErrors + hiddenWarnings == 1 ? "was" : "were"
    return Diagnostic(
      .note, Self.notShownCode,
      "\(parts.joined(separator: " and ")) \(verb) not shown (--max-errors \(limit))", file: file)
  }

  /// The run's last words, once: the line of what `--max-errors` left out, if it left out
  /// any; with SARIF, the whole log, that diagnostic in it. Empty when there is nothing to say
  /// or it was said.
  public mutating func closing() -> String {
    guard !closed else { return "" }
    closed = true
    // Its line, or with SARIF nothing: it joins the log.
    let line = notShown.map { output($0) } ?? ""
    return sarif?.document() ?? line
  }

  /// Ends the run's talk: clears the progress line, and writes `closing`'s words, unless the
  /// tool wrote them elsewhere.
  public mutating func finish(_ stderr: inout OutputWriter) {
    clearProgress(&stderr)
    let text = closing()
    guard !text.isEmpty else { return }
    try? stderr.write(text)
    try? stderr.flush()
  }

  // MARK: - Progress

  /// Whether progress is being measured: the tool skips computing what to show when not.
  public var showsProgress: Bool { meter != nil }

  /// Starts the progress line, when `--progress` (or a terminal) asks for one, for an input of
  /// `totalBytes` if that is known (see `InputFile.totalBytes`). Started again, for another
  /// pass, it measures the pass on the schedule it had (`ProgressMeter.continuing`).
  public mutating func startProgress(totalBytes: Int64? = nil) {
    guard options.progress else { return }
    let fresh = ProgressMeter(start: clock(), total: totalBytes)
    meter = meter.map { fresh.continuing($0) } ?? fresh
  }

  /// Shows how far the run has come, when the line is started and it is time to:
  /// `\rPROG: text` and erase-to-end-of-line, so each line replaces the last.
  public mutating func showProgress(records: Int, bytes: Int64, _ stderr: inout OutputWriter) {
    guard var meter, let text = meter.update(records: records, bytes: bytes, now: clock()) else {
      return
    }
    self.meter = meter
    try? stderr.write("\r\(program): \(Diagnostic.visible(text))\u{1B}[K")
    try? stderr.flush()
  }

  /// Clears the progress line if one is shown; the meter goes on measuring.
  public mutating func clearProgress(_ stderr: inout OutputWriter) {
    guard var meter, meter.shown else { return }
    meter.cleared()
    self.meter = meter
    try? stderr.write("\r\u{1B}[K")
    try? stderr.flush()
  }
}

/// How much of its inputs a run has read, for its progress line (notif-group and notif-show,
/// which read an input in chunks or with one reader): the texts read, the bytes of the inputs
/// done, and the bytes counted of the one being read.
public struct ReadProgress: Sendable {
  /// The texts read of every input so far.
  public var texts = 0
  /// The bytes of the inputs read to their end.
  public var bytesBefore: Int64 = 0
  /// The bytes counted of the input being read.
  public var fileBytes = 0

  /// Nothing read yet.
  public init() {}

  /// The input being read has been read to `texts` texts in all and `bytes` of its bytes:
  /// shows the line, if it is time to.
  public mutating func took(
    texts: Int, bytes: Int, _ reporter: inout Reporter, _ stderr: inout OutputWriter
  ) {
    self.texts = texts
    fileBytes = bytes
    if reporter.showsProgress {
      reporter.showProgress(records: texts, bytes: bytesBefore + Int64(bytes), &stderr)
    }
  }

  /// One reader of the input being read, which starts at its byte `skipped`, has read
  /// `texts` texts (after the `before` read in all when it started), up to its byte `offset`:
  /// shows the line, if it is time to.
  public mutating func read(
    texts: Int, after before: Int, to offset: Int, skipped: Int, _ reporter: inout Reporter,
    _ stderr: inout OutputWriter
  ) {
    fileBytes = max(fileBytes, skipped + offset)
    reporter.showProgress(
      records: before + texts, bytes: bytesBefore + Int64(skipped + offset), &stderr)
  }

  /// The input that started at `origin` of `fd` is done: its bytes (up to where `fd` stands
  /// now; for a pipe, those counted) join `bytesBefore`, and the line is shown, if it is time.
  public mutating func ended(
    _ fd: Int32, from origin: off_t, _ reporter: inout Reporter, _ stderr: inout OutputWriter
  ) {
    defer { fileBytes = 0 }
    guard reporter.showsProgress else { return }
    let end = lseek(fd, 0, SEEK_CUR)
    bytesBefore += origin >= 0 && end >= origin ? Int64(end - origin) : Int64(fileBytes)
    reporter.showProgress(records: texts, bytes: bytesBefore, &stderr)
  }
}
