import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One run of notif-mark: reads each line once, changes or deletes the selected records;
/// `SweepDriver` runs it as a filter or in place, and says where the lines go.
///
/// The reading thread gathers lines into batches (`MarkBatch`); two workers, or none on one
/// core, decide them (`MarkDecider`), and the reading thread writes each batch's results in
/// input order. Lines longer than `--max-record-bytes` are no records: the reading thread
/// streams them itself, after every batch before them is written.
struct MarkRun: ToolRun, SweepPasses {
  let configuration: MarkCommand.Configuration
  let environment: ToolEnvironment

  /// The size of a batch of lines; `Configuration.batchSize` by default (tests set a smaller
  /// one, to spread a few lines over many batches).
  static let batchSize = 512 * 1024
  /// Batches in flight at once: memory stays a few batches.
  static let batchesInFlight = 4

  init(configuration: MarkCommand.Configuration, environment: ToolEnvironment) {
    self.configuration = configuration
    self.environment = environment
  }

  /// The most ids the warning about those no record has names; the others are counted.
  static let unmatchedIDsNamed = 5

  /// The warning about the ids of `--id` and `--ids-from` that no record has: a typo selects
  /// nothing, and the run would otherwise succeed saying nothing (`UnmatchedID`).
  static func unmatchedIDsWarning(_ unmatched: [[UInt8]]) -> Diagnostic? {
    guard !unmatched.isEmpty else { return nil }
    let named = unmatched.prefix(unmatchedIDsNamed).map {
      "'\(String(decoding: $0, as: UTF8.self))'"
    }
    let message: String
    if unmatched.count == 1 {
      message = "no record has the id \(named[0])"
    } else if unmatched.count <= unmatchedIDsNamed {
      message =
        "no record has the ids \(named.dropLast().joined(separator: ", ")) and \(named[named.count - 1])"
    } else {
      message =
        "no record has \(unmatched.count) of the ids: \(named.joined(separator: ", ")) "
        + "and \(unmatched.count - named.count) more"
    }
    return Diagnostic(.warning, "UnmatchedID", message, file: "<command line>")
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    SweepDriver.run(
      &self, program: MarkCommand.name, options: configuration.sweep, environment: environment,
      stdout: &stdout, stderr: &stderr)
  }

  // MARK: - Inputs

  /// A file operand, opened when the pass reaches it (`SweepDriver.open(operand:)`), or the
  /// store.
  typealias Input = OperandOrStore

  /// The deciders: batches of lines in, decided batches back in input order.
  typealias Jobs = OrderedJobs<MarkBatch, MarkDecider>

  /// One pass over each input in turn; an operand that cannot be opened is reported when its
  /// turn comes.
  mutating func sweep(_ inputs: [Input], _ driver: inout SweepDriver) throws(SystemError) {
    let configuration = configuration
    let dryRun = driver.dryRun
    let quarantineNote = driver.quarantining ? driver.quarantineNote : nil
    let jobs = Jobs(
      threads: sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 2 : 0,
      depth: Self.batchesInFlight,
      makeWorker: { _ in
        MarkDecider(configuration, dryRun: dryRun, quarantineNote: quarantineNote)
      },
      work: { batch, decider in batch.process(with: &decider) })
    // For each place of `--id`'s and `--ids-from`'s ids (`IDSet.slot(of:)`), whether a record
    // has that id: those none has are warned about at the end.
    var foundIDs = Array(repeating: false, count: configuration.selection.ids?.slotCount ?? 0)
    for input in inputs {
      switch input {
      case .store(let fd, let name, let length):
        try pass(fd: fd, name: name, length: length, jobs, &driver, found: &foundIDs)
      case .operand(let file):
        guard let opened = driver.open(operand: file) else { continue }
        let name = opened.name
        do {
          try pass(fd: opened.fd, name: name, jobs, &driver, found: &foundIDs)
        } catch  where error.isReadError && error.path == name {
          // What was read before the failure is written; the next operand is read.
          driver.raiseStatus(to: .failure)
          driver.report(Diagnostic(.error, "Unreadable", error.message, file: error.path))
        }
      }
    }
    // Every input was read: an id no record has is a typo, or a record gone already.
    if let ids = configuration.selection.ids,
      let warning = Self.unmatchedIDsWarning(ids.ids(notIn: foundIDs))
    {
      driver.report(warning)
    }
  }

  // MARK: - The pass

  /// Reads every line of `fd` once, in batches that the workers decide, and hands the driver
  /// each batch's results in input order: the lines to keep (changed or not), the changed and
  /// deleted ones only (for --dry-run), the archive lines of the deleted ones, and the
  /// quarantine entries.
  ///
  /// While the driver awaits the first change (in place), lines are not written: at the first
  /// change the driver copies the bytes before it as they are; so a store where nothing
  /// changes is read and never written.
  private func pass(
    fd: Int32, name: String, length: Int64 = .max, _ jobs: Jobs,
    _ driver: inout SweepDriver, found: inout [Bool]
  ) throws(SystemError) {
    let batchSize = max(configuration.batchSize, 1)
    var reader = LineReader(
      fd: fd, name: name, announcesIdle: true, length: length,
      maxLineBytes: configuration.sweep.maxRecordBytes)
    driver.startProgress(totalBytes: length != .max ? length : InputFile.bytesLeft(in: fd))
    var output = MarkOutput(pending: driver.awaitsFirstChange, foundIDs: found)
    found = []  // the output's for the pass, not copied
    defer { found = output.foundIDs }
    var batch = Self.fresh(jobs, file: name, batchSize: batchSize)
    func emit(_ done: MarkBatch) throws(SystemError) { try output.emit(done, &driver) }
    /// Hands the batch being filled to the workers (writing out the oldest if too many are in
    /// flight), and starts another.
    func submit() throws(SystemError) {
      try jobs.submit(batch, then: emit)
      batch = Self.fresh(jobs, file: name, batchSize: batchSize)
    }
    /// Hands the batch being filled to the workers, then writes out every batch in flight.
    func handOverAll() throws(SystemError) {
      if batch.lineCount > 0 { try submit() }
      try jobs.finish(then: emit)
    }
    // Where the input has nothing more yet (a pipe), what is ready goes out before the wait.
    // A failed read hands on what was read before it, then stops the pass.
    while true {
      let line: UnsafeRawBufferPointer
      do {
        guard
          let next = try reader.next(whenIdle: { () throws(SystemError) in
            try handOverAll()
            try driver.flushStandardOutput()
          })
        else { break }
        line = next
      } catch  where error.isReadError {
        try handOverAll()
        throw error
      }
      // A compressed input (a pipe's: a file's was looked at when it was opened) is reported,
      // and none of it is read further or written.
      if reader.lineNumber == 1 && driver.refusesCompressed(firstLine: line, file: name) {
        break
      }
      output.byteOrderMark = reader.byteOrderMarkLength
      if reader.isOverlong {
        // Not a record, and too long to hold: reported, then kept or quarantined part by part,
        // after every line before it.
        try handOverAll()
        output.records += 1
        let quarantine = Self.report(
          "RecordTooLarge", configuration.sweep.tooLongMessage, column: 1, reader.lineNumber,
          name, &driver)
        if quarantine { driver.tally.quarantined += 1 } else { driver.tally.kept += 1 }
        if output.pending && !quarantine {
          while try reader.nextPart() != nil {}
          output.prefixEnd = reader.bytesRead
          continue
        }
        if output.pending {
          output.pending = false
          let start = reader.byteOrderMarkLength
          try driver.copyPrefix(start..<max(start, output.prefixEnd))
        }
        try Self.passOverlong(
          line, &reader, quarantine: quarantine ? configuration.sweep.tooLongMessage : nil,
          &driver)
        continue
      }
      if batch.lineCount == 0 { batch.firstLine = reader.lineNumber }
      batch.append(line, end: reader.bytesRead)
      if batch.lines.count >= batchSize { try submit() }
    }
    try handOverAll()
  }

  /// An empty batch for the lines of `file`: a done one again, unless a long line made it
  /// grow, or a new one.
  private static func fresh(_ jobs: Jobs, file: String, batchSize: Int) -> MarkBatch {
    while let batch = jobs.reusable() {
      guard !batch.isOversized(batchSize: batchSize) else { continue }
      batch.reset(file: file)
      return batch
    }
    let batch = MarkBatch(capacity: batchSize + 64 * 1024)
    batch.reset(file: file)
    return batch
  }

  /// Writes the over-long line that `first` begins and `reader` goes on with, without holding
  /// it whole: as it is where kept lines go, or (with the `quarantine` reason) as its
  /// quarantine entry, in base64, to the quarantine file.
  private static func passOverlong(
    _ first: UnsafeRawBufferPointer, _ reader: inout LineReader, quarantine reason: String?,
    _ driver: inout SweepDriver
  ) throws(SystemError) {
    var entry = ByteBuffer(capacity: reason == nil ? 0 : 192 * 1024)
    var streamed: QuarantineEntry.Streamed? = nil
    if let reason {
      streamed = QuarantineEntry.Streamed(
        number: reader.lineNumber, code: "RecordTooLarge", reason: reason, into: &entry)
    }
    func write(_ part: UnsafeRawBufferPointer) throws(SystemError) {
      guard streamed != nil else { return try driver.writeKept(part) }
      var from = 0
      while from < part.count {
        let to = min(part.count, from + 96 * 1024)
        streamed?.append(UnsafeRawBufferPointer(rebasing: part[from..<to]), into: &entry)
        if entry.count >= 128 * 1024 {
          try driver.writeQuarantined(entry)
          entry.removeAll()
        }
        from = to
      }
    }
    try write(first)
    while let part = try reader.nextPart(whenIdle: { () throws(SystemError) in
      try driver.flushStandardOutput()
    }) {
      try write(part)
    }
    if streamed != nil {
      streamed?.finish(into: &entry)
      try driver.writeQuarantined(entry)
    } else {
      var newline = ByteBuffer(capacity: 1)
      newline.append(UInt8(ascii: "\n"))
      try driver.writeKept(newline)
    }
  }

  // MARK: - Reports

  /// Reports a line that is not a record, as `SweepDriver.notARecord` says; returns whether
  /// it goes to the quarantine file.
  private static func report(
    _ code: String, _ message: String, column: Int, _ lineNumber: Int, _ file: String,
    _ driver: inout SweepDriver
  ) -> Bool {
    let note = driver.quarantining ? driver.quarantineNote : nil
    if note == nil { driver.raiseStatus(to: .rejected) }
    driver.report(
      SweepDriver.notARecord(
        code, message, file: file, line: lineNumber, column: column, quarantineNote: note))
    return note != nil
  }
}

/// Where a pass stands in writing the batches out, in input order.
struct MarkOutput {
  /// In place, before the first change: nothing is written yet (`SweepDriver.awaitsFirstChange`).
  var pending: Bool
  /// While pending: where the store's prefix of lines kept as they are ends.
  var prefixEnd: Int64 = 0
  /// 3 if the input starts with a byte order mark, else 0: where the prefix starts.
  var byteOrderMark: Int64 = 0
  /// The run's ids found so far (see `MarkRun.sweep`), with those of the batches written.
  var foundIDs: [Bool]
  /// The lines, and the bytes, written out so far, for the progress line.
  var records = 0
  var bytes: Int64 = 0

  /// Reports a decided batch's diagnostics and hands its lines to the driver. In place, before
  /// the first change, the lines before it are not written: the driver copies them, as the
  /// prefix of the store.
  mutating func emit(_ batch: MarkBatch, _ driver: inout SweepDriver) throws(SystemError) {
    for diagnostic in batch.diagnostics { driver.report(diagnostic) }
    for slot in batch.foundIDs { foundIDs[slot] = true }
    if batch.rejected { driver.raiseStatus(to: .rejected) }
    driver.tally.add(batch.tally)
    records += batch.lineCount
    bytes = batch.ends.last ?? bytes
    defer { driver.showProgress(records: records, bytes: bytes) }
    var first = 0
    if pending {
      guard let change = batch.firstChange else {
        prefixEnd = bytes
        return
      }
      pending = false
      let before = change.line == 0 ? prefixEnd : batch.ends[change.line - 1]
      try driver.copyPrefix(byteOrderMark..<max(byteOrderMark, before))
      first = change.piece
    }
    try batch.forEachPiece(from: first) { lines throws(SystemError) in
      try driver.writeKept(lines)
    }
    try driver.writeChanges(batch.changes)
    try driver.writeArchived(batch.gone)
    try driver.writeQuarantined(batch.quarantined)
  }
}
