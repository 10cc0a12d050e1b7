import NotifCLI
import NotifJSON
import NotifModel

/// A sweeping tool's passes over its input (notif-expire, notif-mark), which `SweepDriver`
/// runs as a filter or in place: the tool reads the lines and decides each one; the driver
/// says where the lines go.
public protocol SweepPasses: ~Copyable {
  /// One input of the passes: a file operand, or the store.
  associatedtype Input

  /// Stream mode, before the archive opens: the inputs of the file operands (`-` is standard
  /// input). One that cannot be opened is reported through `driver` (status 2) and left out;
  /// a tool that opens each as it reads it does so in `sweep` instead.
  mutating func open(_ files: [String], _ driver: inout SweepDriver) -> [Input]

  /// In place: the store, open for reading at `fd` under its lock; the passes read its first
  /// `length` bytes (`StoreSession.length`), whatever is appended meanwhile.
  func input(store fd: Int32, name: String, length: Int64) -> Input

  /// Reads `inputs` (once or more), decides every line, and hands the lines to `driver` in
  /// input order: the kept ones to `writeKept`, the changed and removed ones as `--dry-run`
  /// shows them to `writeChanges`, the archive lines of removed records to `writeArchived`.
  /// While `driver.awaitsFirstChange`, nothing is written: at the first change,
  /// `copyPrefix` takes the bytes before it as they are.
  ///
  /// - Throws: `SystemError` for a failed read or write: the run stops (status 2).
  mutating func sweep(_ inputs: [Input], _ driver: inout SweepDriver) throws(SystemError)

  /// Closes what `open` opened, once the run is over.
  func close(_ inputs: [Input])

  /// In place, once the sweep is durable (the new store has replaced the old one, or nothing
  /// changed), still under the store's lock: notif-digest writes out there the digests it
  /// kept beside the store until then. Not called in a dry run. Does nothing by default.
  ///
  /// - Throws: `SystemError` for a failed read or write: the run stops (status 2); the sweep
  ///   stays done.
  mutating func afterCommit(_ driver: inout SweepDriver) throws(SystemError)
}

extension SweepPasses where Self: ~Copyable {
  public mutating func afterCommit(_ driver: inout SweepDriver) throws(SystemError) {}
}

/// One run of a sweeping tool (notif-expire, notif-mark), as a filter or in place on a store:
/// the order of its steps, where its lines go, its progress line and its exit status.
///
/// As a filter: the tool opens its operands, then the archive opens (`StreamArchive`), the
/// passes run, kept lines go to standard output and removed ones to the archive, which is
/// synced before the run succeeds. In place (with `--missing-ok`, a missing store ends the run
/// at once, with status 0): the store's session is taken (its lock, an
/// interrupted sweep recovered; status 75 when another holds the lock), the passes run, and
/// at the first change `StoreRewrite` starts the new store with the bytes before it; at the
/// end it commits, or abandons on any failure. A store where nothing changes is read and
/// never written. With `--dry-run` only the changes go to standard output.
///
/// The driver holds the tool's standard output and standard error for the run: the tool
/// reports through `report` (which clears the progress line first) and writes through
/// `writeKept`, `writeChanges` and `writeArchived`.
public struct SweepDriver: ~Copyable {
  /// The options of the sweep.
  public let options: SweepOptions
  /// The exit status so far.
  public private(set) var status = ExitStatus.success
  /// What the passes did with the lines, for the report at the end (`SweepOptions.report`):
  /// the tool counts into it.
  public var tally = SweepTally()
  /// When the run started, on the monotonic clock.
  private let started: Double
  /// Whether the passes ran to their end: there is something to report.
  private var ran = false
  private let monotonicClock: () -> Double
  private let pid: Int32
  private var stdout: OutputWriter
  private var stderr: OutputWriter
  private var reporter: Reporter
  private var destination = Destination.stream
  private var archive: StreamArchive?
  private var quarantine: StreamArchive?
  private var rewrite: StoreRewrite?
  private var storeFD: Int32 = -1

  /// Where the lines go.
  private enum Destination {
    /// Kept lines to standard output, archive lines to the archive.
    case stream
    /// The changes to standard output; nothing else.
    case dryRun
    /// In place, before the first change: nothing is written yet.
    case storeBeforeFirstChange
    /// In place: kept lines to the new store, archive lines to the archive.
    case store
  }

  /// A driver for `program` (the prefix of its messages), writing to `stdout` and `stderr`.
  public init(
    program: String, options: SweepOptions, environment: ToolEnvironment,
    stdout: consuming OutputWriter, stderr: consuming OutputWriter
  ) {
    self.options = options
    monotonicClock = environment.monotonicClock
    started = environment.monotonicClock()
    pid = environment.pid
    self.stdout = stdout
    self.stderr = stderr
    reporter = Reporter(program: program, options: options.reporting, environment: environment)
  }

  /// Runs `passes` as `options` say, in stream mode or in place, and returns the exit status.
  public static func run<Passes: SweepPasses & ~Copyable>(
    _ passes: inout Passes, program: String, options: SweepOptions,
    environment: ToolEnvironment, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    // The writers are the driver's for the run, and the caller's again after it.
    var driver = SweepDriver(
      program: program, options: options, environment: environment, stdout: stdout,
      stderr: stderr)
    let status = driver.run(&passes)
    driver.reporter.finish(&driver.stderr)
    stdout = driver.stdout
    stderr = driver.stderr
    return status
  }

  /// Runs `passes` as the other `run` does, reporting through the tool's `reporter`, which
  /// has reported what came before (notif-responses' answers, then its `--prune`): one
  /// `--max-errors` budget and one `NotShown` line for the whole run, which the tool's
  /// `finish` writes.
  public static func run<Passes: SweepPasses & ~Copyable>(
    _ passes: inout Passes, program: String, options: SweepOptions,
    environment: ToolEnvironment, reporter: inout Reporter, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus {
    var driver = SweepDriver(
      program: program, options: options, environment: environment, stdout: stdout,
      stderr: stderr)
    driver.reporter = reporter
    let status = driver.run(&passes)
    reporter = driver.reporter
    stdout = driver.stdout
    stderr = driver.stderr
    return status
  }

  private mutating func run<Passes: SweepPasses & ~Copyable>(_ passes: inout Passes)
    -> ExitStatus
  {
    do throws(SystemError) {
      if let store = options.store {
        try runInPlace(store, &passes)
      } else {
        try runStream(&passes)
      }
    } catch {
      // Unreadable and WriteFailed as in every tool; Failed for the store and the archive.
      let code =
        error.isReadError ? "Unreadable" : error.path == "<stdout>" ? "WriteFailed" : "Failed"
      report(Diagnostic(.error, code, error.message, file: error.path))
      return .failure
    }
    reporter.clearProgress(&stderr)
    if options.verbose && ran { writeReport() }
    return status
  }

  /// Writes the one line that says what the sweep did: `PROG: STORE: kept 1204, removed 37
  /// (30 expired, 7 collapsed), archived 37, in 0.21 s` (without the store as a filter).
  private mutating func writeReport() {
    let text = tally.text(
      archived: options.archive != nil,
      seconds: monotonicClock() - started, dryRun: options.dryRun)
    let place = options.store.map { Diagnostic.visible($0) + ": " } ?? ""
    reporter.say(place + text, &stderr)
  }

  private mutating func runStream<Passes: SweepPasses & ~Copyable>(_ passes: inout Passes)
    throws(SystemError)
  {
    let inputs = passes.open(options.files, &self)
    defer { passes.close(inputs) }
    archive = try StreamArchive(options: options)
    quarantine = try StreamArchive(
      path: options.quarantine, dryRun: options.dryRun, what: "quarantine file")
    destination = options.dryRun ? .dryRun : .stream
    try passes.sweep(inputs, &self)
    try stdout.flush()
    try archive?.sync()
    try quarantine?.sync()
    ran = true
  }

  /// In place: under the store's lock (released when `session` drops, on every path), after
  /// recovering an interrupted sweep.
  private mutating func runInPlace<Passes: SweepPasses & ~Copyable>(
    _ store: String, _ passes: inout Passes
  ) throws(SystemError) {
    // Checked before the lock, whose file would otherwise be made beside a store that is not
    // there: a store a sweep from cron finds missing has not been written yet.
    // A symbolic link is followed: its target is locked, journaled and replaced, beside it.
    let target = options.storeTarget ?? store
    if options.missingOK && StoreSession.isMissing(target) { return }
    guard
      let session = try StoreSession.acquire(
        store: target, options: options, monotonicClock: monotonicClock,
        report: { diagnostic in report(diagnostic) })
    else {
      status = .locked
      return
    }
    // A compressed store is no store of records: swept, every line of it would be kept as
    // not a record, or quarantined, and the store rewritten. It is reported, and left as it is.
    if let compression = InputFile.compression(ofRegularFile: session.fd) {
      raiseStatus(to: .failure)
      report(compression.diagnostic(file: store))
      return
    }
    storeFD = session.fd
    let inputs = [passes.input(store: session.fd, name: store, length: session.length)]
    if options.dryRun {
      destination = .dryRun
      try passes.sweep(inputs, &self)
      try stdout.flush()
      ran = true
      return
    }
    rewrite = StoreRewrite(
      store: target, storeStatus: session.status, sweptLength: session.length,
      archive: options.archive, archiveName: options.archiveName, quarantine: options.quarantine,
      pid: pid)
    destination = .storeBeforeFirstChange
    do throws(SystemError) {
      try passes.sweep(inputs, &self)
      if destination == .store { try rewrite?.commit() }
      ran = true
      try passes.afterCommit(&self)
    } catch {
      rewrite?.abandon()
      reportTakenIn(store)
      throw error
    }
    reportTakenIn(store)
  }

  /// Warns about the lines that a process appended to the store without its lock during the
  /// sweep, which the new store took in (see `StoreRewrite.commit`).
  private mutating func reportTakenIn(_ store: String) {
    if rewrite?.heldOpenAfterReplacing == true {
      report(
        Diagnostic(
          .warning, "StoreHeldOpen",
          "a process still has the replaced store open for writing: what it writes there is "
            + "lost; writers must open the store for each batch under '\(store).lock'",
          file: store))
    }
    if let unfinished = rewrite?.unfinishedLines, unfinished > 0 {
      report(
        Diagnostic(
          .warning, "UnfinishedAppend",
          "a line appended without the lock was still unfinished when the sweep ended: taken "
            + "in as a line of its own, which is not a record; appenders must hold "
            + "'\(store).lock'",
          file: store))
    }
    guard let taken = rewrite?.takenIn, taken.lines > 0 else { return }
    let lines = taken.lines == 1 ? "1 line" : "\(taken.lines) lines"
    report(
      Diagnostic(
        .warning, "AppendedWithoutLock",
        "\(lines) appended without the lock during the sweep, taken into the new store; "
          + "appenders must hold '\(store).lock'",
        file: store))
  }

  // MARK: - Output

  /// Whether `--dry-run` was given: only the changes are written.
  public var dryRun: Bool { options.dryRun }

  /// Whether removed records' archive lines are wanted: written to an archive, or shown by
  /// `--dry-run`.
  public var archiving: Bool { options.dryRun || options.archive != nil }

  /// In place, before the first change: lines are not written, and the first change calls
  /// `copyPrefix`.
  public var awaitsFirstChange: Bool { destination == .storeBeforeFirstChange }

  /// At the first change in place: starts the new store (and the journal), copying into it
  /// `prefix`, the store's bytes before the change, as they are.
  public mutating func copyPrefix(_ prefix: Range<Int64>) throws(SystemError) {
    precondition(awaitsFirstChange)
    destination = .store
    try rewrite?.start(copying: prefix, from: storeFD)
  }

  /// Writes kept lines (whole lines with their newlines), unless they are not written.
  public mutating func writeKept(_ lines: UnsafeRawBufferPointer) throws(SystemError) {
    switch destination {
    case .stream: try stdout.write(lines)
    case .store: try rewrite?.writeKept(lines, newline: false)
    case .dryRun, .storeBeforeFirstChange: break
    }
  }

  /// Writes kept lines (whole lines with their newlines), unless they are not written.
  public mutating func writeKept(_ lines: ByteBuffer) throws(SystemError) {
    switch destination {
    case .stream: try stdout.write(lines)
    case .store: try rewrite?.writeKept(lines)
    case .dryRun, .storeBeforeFirstChange: break
    }
  }

  /// Keeps a line longer than a record may be, as it is: the kept lines before it in `kept`
  /// first (emptied), then `line`, the first part `reader` gave, and the rest of it part by
  /// part; its newline goes to `kept`, ahead of the lines that follow.
  public mutating func keepOverlong(
    _ line: UnsafeRawBufferPointer, rest reader: inout LineReader, after kept: inout ByteBuffer
  ) throws(SystemError) {
    try writeKept(kept)
    kept.removeAll()
    try writeKept(line)
    while let part = try reader.nextPart() { try writeKept(part) }
    kept.append(UInt8(ascii: "\n"))
  }

  /// Writes `bytes` to standard output, whatever the mode: what a tool writes there besides the
  /// lines of the sweep (notif-digest's digests, in place).
  public mutating func writeStandardOutput(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    try stdout.write(bytes)
  }

  /// Writes out what standard output holds, whatever the mode.
  public mutating func flushAllStandardOutput() throws(SystemError) {
    try stdout.flush()
  }

  /// Says `text` on the standard error, as `PROG: text`, with `--verbose` only: how the
  /// tool read an input, before the line that says what the sweep did.
  public mutating func sayIfVerbose(_ text: String) {
    if options.verbose { reporter.say(text, &stderr) }
  }

  /// Writes out what standard output holds: where the input has nothing more yet (a pipe), so
  /// that each line's result comes out as it arrives. In place there is nothing to write.
  public mutating func flushStandardOutput() throws(SystemError) {
    if destination == .stream || destination == .dryRun { try stdout.flush() }
  }

  /// Writes changed and removed lines as `--dry-run` shows them; only with `--dry-run`.
  public mutating func writeChanges(_ lines: ByteBuffer) throws(SystemError) {
    if destination == .dryRun { try stdout.write(lines) }
  }

  /// Appends removed records' archive lines to the archive, if there is one (not with
  /// `--dry-run`).
  public mutating func writeArchived(_ lines: ByteBuffer) throws(SystemError) {
    switch destination {
    case .stream: try archive?.write(lines)
    case .store: try rewrite?.writeArchived(lines)
    case .dryRun, .storeBeforeFirstChange: break
    }
  }

  /// Whether lines that are not records move to a quarantine file (`--quarantine`), or (with
  /// `--dry-run`) would.
  public var quarantining: Bool { options.quarantine != nil }

  /// What a diagnostic of a quarantined line ends with: what happened to the line.
  public var quarantineNote: String {
    options.dryRun ? " (would move to the quarantine file)" : " (moved to the quarantine file)"
  }

  /// What a diagnostic of a line that is not a record ends with when the line stays.
  public static let keptNote = " (kept as it is)"

  /// The diagnostic of a line that is not a record: with `quarantineNote` (what happens to a
  /// quarantined line), a warning, as the line moves to the quarantine file; without, an
  /// error, as the line is kept.
  public static func notARecord(
    _ code: String, _ reason: String, file: String, line: Int, column: Int,
    quarantineNote: String?
  ) -> Diagnostic {
    guard let quarantineNote else {
      return Diagnostic(.error, code, reason + keptNote, file: file, line: line, column: column)
    }
    return Diagnostic(
      .warning, code, reason + quarantineNote, file: file, line: line, column: column)
  }

  /// Appends quarantine lines (`QuarantineEntry`) to the quarantine file (not with
  /// `--dry-run`).
  public mutating func writeQuarantined(_ lines: ByteBuffer) throws(SystemError) {
    switch destination {
    case .stream: try quarantine?.write(lines)
    case .store: try rewrite?.writeQuarantined(lines)
    case .dryRun, .storeBeforeFirstChange: break
    }
  }

  // MARK: - Reports

  /// Raises the exit status to `status`, if that is worse.
  public mutating func raiseStatus(to status: ExitStatus) {
    self.status = max(self.status, status)
  }

  /// Writes `diagnostic` on standard error through the run's `Reporter` (which clears the
  /// progress line first, and leaves out what `--quiet` and `--max-errors` say to).
  public mutating func report(_ diagnostic: Diagnostic) {
    reporter.report(diagnostic, &stderr)
  }

  /// Starts the progress line of a pass, when `--progress` (or a terminal) asks for one, for
  /// an input of `totalBytes` if that is known.
  public mutating func startProgress(totalBytes: Int64? = nil) {
    reporter.startProgress(totalBytes: totalBytes)
  }

  /// Shows how far the pass has come, when the line is started and it is time to.
  public mutating func showProgress(records: Int, bytes: Int64) {
    if reporter.showsProgress {
      reporter.showProgress(records: records, bytes: bytes, &stderr)
    }
  }
}

/// The input of a sweep that opens each file operand when its pass reaches it (notif-mark,
/// notif-digest): the operand's name, or the store.
public enum OperandOrStore: Sendable {
  case operand(String)
  case store(fd: Int32, name: String, length: Int64)
}

extension SweepPasses where Self: ~Copyable, Input == OperandOrStore {
  public mutating func open(_ files: [String], _ driver: inout SweepDriver) -> [Input] {
    files.map { .operand($0) }
  }

  public func input(store fd: Int32, name: String, length: Int64) -> Input {
    .store(fd: fd, name: name, length: length)
  }

  public func close(_ inputs: [Input]) {}
}

extension SweepDriver {
  /// Opens the file operand `file` when its pass reaches it; one that cannot be opened, or a
  /// regular file that is compressed, is reported (`Unreadable`, `Compressed`: status 2) and
  /// nil, and the next operand is read. (A pipe's first line is looked at by the pass:
  /// `refusesCompressed`.)
  public mutating func open(operand file: String) -> InputFile? {
    let input: InputFile
    do {
      input = try InputFile(operand: file)
    } catch {
      raiseStatus(to: .failure)
      report(Diagnostic(.error, "Unreadable", error.message, file: error.path))
      return nil
    }
    guard let compression = InputFile.compression(ofRegularFile: input.fd) else { return input }
    refuse(compression, file: input.name)
    return nil
  }

  /// Whether an input whose first bytes could not be looked at before it was read (a pipe)
  /// is compressed, by its first line, `line`: then it is reported (`Compressed`, status 2),
  /// and the pass reads no more of it and writes nothing of it.
  public mutating func refusesCompressed(firstLine line: UnsafeRawBufferPointer, file: String)
    -> Bool
  {
    guard let first = line.first, Compression.mayStart(with: first),
      let compression = Compression(startOf: line)
    else { return false }
    refuse(compression, file: file)
    return true
  }

  /// Reports `file` compressed with `compression`: not read (status 2).
  public mutating func refuse(_ compression: Compression, file: String) {
    raiseStatus(to: .failure)
    report(compression.diagnostic(file: file))
  }
}
