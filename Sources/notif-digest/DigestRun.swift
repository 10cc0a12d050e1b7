import NotifCLI
import NotifJSON
import NotifListing
import NotifModel
import NotifSweep

/// One run of notif-digest over records, which `SweepDriver` runs as a filter or in place on a
/// store (`--store`).
///
/// As a filter, the digests go to standard output as they close. In place, under the store's
/// lock, it reads the store twice: the first pass gathers the digests, the second writes the
/// store again with `digested_at` set on every record that went into one. The digests go,
/// before the new store replaces the old one, to `--out` (appended and synced) or, without it,
/// to the store's outbox `STORE.digests`, from which they go to standard output once the store
/// is replaced, and which is emptied then. Both are appended as `StoreRewrite` appends an
/// archive: journaled first, synced before the rename, and cut back by the next run's recovery
/// when the store was not replaced. So a kill at any point leaves every record in exactly one
/// digest of `--out` (and marked) or in none (and not marked); without `--out`, a digest that
/// reached the outbox but perhaps not standard output is written again by the next run, the
/// same bytes, so that the sender can drop the repeat by its `digest_id`.
struct DigestRun: ~Copyable, SweepPasses {
  let configuration: DigestCommand.Configuration
  private var digester: Digester
  /// The second pass's parser, in place.
  private var parser = RecordLineParser()
  private let texts: DigestTexts
  private let digesting: [UInt8]
  /// The digests written since the last hand-over to the driver.
  private var written = ByteBuffer(capacity: 64 * 1024)
  private var records = 0
  /// The digests that closed and are not written yet.
  private var closed: [Digest] = []
  /// In place: the store's lines that went into a digest (bit n - 1 for line n).
  private var marked: [UInt64] = []
  /// In place: whether any digest was written (and so the store changes).
  private var wroteAny = false
  private var nowText = ByteBuffer(capacity: 32)
  /// The warnings of preparing the texts, reported first, through the driver.
  private var warnings: [Diagnostic]
  /// The lines read and the bytes of the inputs before the current one, for the progress line.
  private var linesRead = 0
  private var bytesBefore: Int64 = 0

  init(configuration: DigestCommand.Configuration, texts: DigestTexts, warnings: [Diagnostic]) {
    self.configuration = configuration
    self.texts = texts
    self.warnings = warnings
    digester = Digester(
      options: configuration.digest,
      keepsLines: configuration.sweep.store != nil && !configuration.sweep.dryRun)
    digesting = configuration.digest.digesting.bytes
    nowText.append(UInt8(ascii: "\""))
    configuration.digest.now.write(into: &nowText)
    nowText.append(UInt8(ascii: "\""))
  }

  mutating func execute(
    environment: ToolEnvironment, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    SweepDriver.run(
      &self, program: DigestCommand.name, options: configuration.sweep,
      environment: environment, stdout: &stdout, stderr: &stderr)
  }

  private var inPlace: Bool { configuration.sweep.store != nil }

  // MARK: - Inputs

  /// A file operand, opened when the pass reaches it (`SweepDriver.open(operand:)`), or the
  /// store.
  typealias Input = OperandOrStore

  mutating func sweep(_ inputs: [Input], _ driver: inout SweepDriver) throws(SystemError) {
    for warning in warnings { driver.report(warning) }
    warnings = []
    if !inPlace {
      driver.startProgress(totalBytes: InputFile.totalBytes(of: configuration.sweep.files))
    }
    var last: String? = nil
    for input in inputs {
      switch input {
      case .store(let fd, let name, let length):
        driver.tally.changedWord = "digested"
        driver.tally.writtenWhat = "digest"
        try sweepStore(fd: fd, name: name, length: length, &driver)
        return
      case .operand(let file):
        guard let opened = driver.open(operand: file) else { continue }
        let name = opened.name
        last = name
        do {
          try gather(fd: opened.fd, name: name, &driver)
        } catch  where error.isReadError && error.path == name {
          try hand(&driver)
          driver.raiseStatus(to: .failure)
          driver.report(Diagnostic(.error, "Unreadable", error.message, file: error.path))
        }
      }
    }
    try finish(&driver)
    // What is not written is said: a filter forgets the records of windows still open.
    if let last, let note = waitingNote(file: last) { driver.report(note) }
  }

  /// As a filter, at the end of the input: the note of the records that wait in windows still
  /// open at `--now`, which this run does not write (a later run over them, or `--flush`,
  /// does), and when the first of those windows ends; nil when none waits. In place they wait
  /// in the store, unmarked, for the next run.
  func waitingNote(file: String) -> Diagnostic? {
    guard let (records, firstEnd) = digester.waiting else { return nil }
    let message =
      records == 1
      ? "1 record waits in a window still open, which closes at \(firstEnd); "
        + "--flush writes it"
      : "\(records) records wait in windows still open, the first of which closes at "
        + "\(firstEnd); --flush writes them"
    return Diagnostic(.note, Self.waitingCode, message, file: file)
  }

  /// The code of the note of `waitingNote`.
  static let waitingCode = "OpenWindows"

  /// In place: a pending outbox first, then the two passes.
  private mutating func sweepStore(
    fd: Int32, name: String, length: Int64, _ driver: inout SweepDriver
  ) throws(SystemError) {
    if let outbox = configuration.outbox {
      if driver.dryRun {
        if Self.size(of: outbox) > 0 {
          driver.report(
            Diagnostic(
              .warning, "PendingDigests",
              "digests of an earlier run are waiting in '\(outbox)': the next run writes them out",
              file: name))
        }
      } else {
        try writeOut(outbox, &driver)
      }
    }
    driver.startProgress(totalBytes: length)
    try gather(fd: fd, name: name, length: length, &driver)
    try finish(&driver)
    guard wroteAny, !driver.dryRun else { return }
    driver.startProgress(totalBytes: length)
    try mark(fd: fd, name: name, length: length, &driver)
  }

  // MARK: - Gathering

  /// Reads every line of `fd` once and gathers its records. A thread of its own reads and
  /// parses the lines ahead (`DigestLineFiller`) while this one digests them, in order.
  private mutating func gather(
    fd: Int32, name: String, length: Int64 = .max, _ driver: inout SweepDriver
  ) throws(SystemError) {
    let filler = DigestLineFiller(
      fd: fd, name: name, length: length, announcesIdle: !inPlace,
      options: configuration.digest, sweep: configuration.sweep)
    let threaded = filler.mayReadAhead && ReadAhead<DigestLineFiller>.hasSpareCore
    let ahead = ReadAhead(
      filler, batches: (0..<(threaded ? 3 : 1)).map { _ in DigestBatch() }, threaded: threaded)
    defer {
      ahead.stop()
      // What the device does not list was left out: said once per input, never silently.
      if let note = digester.takeUnlisted().note(file: name) { driver.report(note) }
    }
    var read: Int64 = 0
    defer { bytesBefore += read }
    while let batch = ahead.next() {
      for line in batch.lines {
        switch line.kind {
        case .record(let facts):
          records += 1
          digester.add(facts, in: batch, line: line.number, input: records, closed: &closed)
          if !closed.isEmpty { try emitClosed(&driver) }
        case .unlisted(let reason, let digested):
          digester.leaveOut(reason, digested: digested)
        case .rejected(let code, let message, let column):
          report(code, message, column: column, line.number, name, &driver)
        case .overlong:
          report(
            "RecordTooLarge", configuration.sweep.tooLongMessage, column: 1, line.number, name,
            &driver)
        case .compressed(let compression):
          // A pipe's (a file's was looked at when it was opened): nothing of it is digested.
          driver.refuse(compression, file: name)
        }
      }
      linesRead += batch.lines.count
      read = batch.bytesRead
      driver.showProgress(records: linesRead, bytes: bytesBefore + read)
      // In place every line of the store stays, those of digested records marked.
      if inPlace { driver.tally.kept = batch.lineNumber }
      if let error = batch.error {
        try hand(&driver)
        throw error
      }
      if batch.paused {
        try hand(&driver)
        try driver.flushStandardOutput()
      }
    }
  }

  /// At the end of the input: the digests that close there.
  private mutating func finish(_ driver: inout SweepDriver) throws(SystemError) {
    digester.finish(closed: &closed)
    try emitClosed(&driver)
    try hand(&driver)
  }

  /// Writes the digests that closed: their objects, and in place the marks of their records.
  private mutating func emitClosed(_ driver: inout SweepDriver) throws(SystemError) {
    for index in closed.indices {
      DigestObjectWriter.write(&closed[index], texts: texts, digesting: digesting, into: &written)
      for line in closed[index].lines { setMark(line) }
      if inPlace {
        driver.tally.changed += Int(closed[index].count)
        driver.tally.written += 1
      }
      wroteAny = true
      if written.count >= 128 * 1024 { try hand(&driver) }
    }
    closed.removeAll(keepingCapacity: true)
  }

  /// Hands the digests written so far to the driver: to standard output as a filter or in a
  /// dry run; in place, to `--out` or the outbox, once the new store is started (which the
  /// first digest starts: the store's bytes are all written again by the second pass).
  private mutating func hand(_ driver: inout SweepDriver) throws(SystemError) {
    guard written.count > 0 else { return }
    if !inPlace {
      try driver.writeKept(written)
    } else if driver.dryRun {
      try driver.writeChanges(written)
    } else {
      if driver.awaitsFirstChange { try driver.copyPrefix(0..<0) }
      try driver.writeArchived(written)
    }
    written.removeAll()
    if written.capacity > 1 << 20 { written = ByteBuffer(capacity: 64 * 1024) }
  }

  // MARK: - Marking

  private mutating func setMark(_ line: Int) {
    let index = (line - 1) >> 6
    if index >= marked.count { marked += [UInt64](repeating: 0, count: index + 1 - marked.count) }
    marked[index] |= 1 << UInt64((line - 1) & 63)
  }

  private func isMarked(_ line: Int) -> Bool {
    let index = (line - 1) >> 6
    return index < marked.count && marked[index] & (1 << UInt64((line - 1) & 63)) != 0
  }

  /// The second pass in place: every line of the store again, those of the records that went
  /// into a digest with `digested_at` set to `--now`, every other byte as it was.
  private mutating func mark(fd: Int32, name: String, length: Int64, _ driver: inout SweepDriver)
    throws(SystemError)
  {
    guard lseek(fd, 0, SEEK_SET) == 0 else {
      throw SystemError(path: name, doing: "cannot read again", errno: errno)
    }
    var reader = LineReader(
      fd: fd, name: name, length: length, maxLineBytes: configuration.sweep.maxRecordBytes)
    var kept = ByteBuffer(capacity: 160 * 1024)
    while let line = try reader.next() {
      if reader.isOverlong {
        try driver.keepOverlong(line, rest: &reader, after: &kept)
        continue
      }
      if isMarked(reader.lineNumber), case .record = parser.parse(line) {
        splice(line, parser.record, into: &kept)
      } else {
        kept.append(line)
      }
      kept.append(UInt8(ascii: "\n"))
      if kept.count >= 128 * 1024 {
        try driver.writeKept(kept)
        kept.removeAll()
        driver.showProgress(records: reader.lineNumber, bytes: reader.bytesRead)
      }
    }
    try driver.writeKept(kept)
  }

  /// Appends `line` with `digested_at` set to `--now`: its value replaced where it is (null),
  /// else the key added before the final `}`.
  private func splice(
    _ line: UnsafeRawBufferPointer, _ record: RecordView, into out: inout ByteBuffer
  ) {
    if let index = record.index(.digestedAt) {
      let token = record.json.tokens[index]
      out.append(UnsafeRawBufferPointer(rebasing: line[..<(record.textOffset + Int(token.start))]))
      out.append(nowText)
      out.append(UnsafeRawBufferPointer(rebasing: line[(record.textOffset + Int(token.end))...]))
      return
    }
    let close = record.textOffset + record.json.bytes.count - 1
    out.append(UnsafeRawBufferPointer(rebasing: line[..<close]))
    out.append(record.json.tokens[0].count == 0 ? "\"" : ",\"")
    out.append(utf8: RecordField.digestedAt.key)
    out.append("\":")
    out.append(nowText)
    out.append(UnsafeRawBufferPointer(rebasing: line[close...]))
  }

  // MARK: - The outbox

  /// Once the new store has replaced the old one: the digests of the outbox go to standard
  /// output (with `--out` they are already there).
  mutating func afterCommit(_ driver: inout SweepDriver) throws(SystemError) {
    guard configuration.out == nil, let outbox = configuration.outbox else { return }
    try writeOut(outbox, &driver)
  }

  /// Writes what the outbox holds to standard output, then removes it.
  private func writeOut(_ outbox: String, _ driver: inout SweepDriver) throws(SystemError) {
    let fd = systemOpen(outbox, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard fd >= 0 else {
      if errno == ENOENT { return }
      throw SystemError(path: outbox, doing: "cannot open the outbox", errno: errno)
    }
    defer { systemClose(fd) }
    let size = 256 * 1024
    let chunk = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { chunk.deallocate() }
    while true {
      let count = systemRead(fd, chunk, size)
      if count < 0 && errno == EINTR { continue }
      guard count >= 0 else { throw SystemError(path: outbox, doing: "read error", errno: errno) }
      if count == 0 { break }
      try driver.writeStandardOutput(UnsafeRawBufferPointer(start: chunk, count: count))
    }
    try driver.flushAllStandardOutput()
    guard unlink(outbox) == 0 || errno == ENOENT else {
      throw SystemError(path: outbox, doing: "cannot remove the outbox", errno: errno)
    }
  }

  private static func size(of path: String) -> Int64 {
    var status = stat()
    return stat(path, &status) == 0 ? Int64(status.st_size) : 0
  }

  // MARK: - Reports

  /// Reports a line that is not a record, or a record that cannot be digested: not digested,
  /// and, in place, kept as it is (status 1).
  private func report(
    _ code: String, _ message: String, column: Int, _ lineNumber: Int, _ file: String,
    _ driver: inout SweepDriver
  ) {
    driver.raiseStatus(to: .rejected)
    driver.report(
      Diagnostic(
        .error, code, message + (inPlace ? " (kept as it is, not digested)" : ""), file: file,
        line: lineNumber, column: column))
  }
}
