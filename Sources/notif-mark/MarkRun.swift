import NotifJSON
import NotifModel
import NotifSweep

/// What notif-mark does with one line.
enum MarkVerdict: Equatable, Sendable {
  /// Write the line as it was: not selected, blank, not a record, or nothing to change.
  case unchanged
  /// Write the line with some values replaced (in `MarkRun.edited`).
  case edited
  /// Remove the record.
  case deleted
  /// Move the line, not a record, to the quarantine file (its entry is in
  /// `MarkRun.quarantined`).
  case quarantined
}

/// One run of notif-mark: reads each line once, changes or deletes the selected records;
/// `SweepDriver` runs it as a filter or in place, and says where the lines go.
struct MarkRun: ~Copyable, SweepPasses {
  let configuration: MarkCommand.Configuration
  let environment: ToolEnvironment
  private var parser = RecordLineParser()
  /// The edited line of the last `.edited` verdict, with its newline.
  private(set) var edited = ByteBuffer(capacity: 64 * 1024)
  private var nowText = ByteBuffer(capacity: 32)
  /// The quarantine lines of the lines that are not records, with `--quarantine`.
  private var quarantined = ByteBuffer(capacity: 0)

  init(configuration: MarkCommand.Configuration, environment: ToolEnvironment) {
    self.configuration = configuration
    self.environment = environment
    nowText.append(UInt8(ascii: "\""))
    configuration.now.write(into: &nowText)
    nowText.append(UInt8(ascii: "\""))
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

  /// One pass over each input in turn; an operand that cannot be opened is reported when its
  /// turn comes.
  mutating func sweep(_ inputs: [Input], _ driver: inout SweepDriver) throws(SystemError) {
    for input in inputs {
      switch input {
      case .store(let fd, let name, let length):
        try pass(fd: fd, name: name, length: length, &driver)
      case .operand(let file):
        guard let opened = driver.open(operand: file) else { continue }
        let name = opened.name
        do {
          try pass(fd: opened.fd, name: name, &driver)
        } catch  where error.isReadError && error.path == name {
          // What was read before the failure is written; the next operand is read.
          driver.raiseStatus(to: .failure)
          driver.report(Diagnostic(.error, "Unreadable", error.message, file: error.path))
        }
      }
    }
  }

  // MARK: - The pass

  /// Reads every line of `fd` once, and hands the driver three buffers when they fill up: the
  /// lines to keep (changed or not), the changed and deleted ones only (for --dry-run), and
  /// the archive lines of the deleted ones.
  ///
  /// While the driver awaits the first change (in place), lines are not written: at the first
  /// change the driver copies the bytes before it as they are; so a store where nothing
  /// changes is read and never written.
  private mutating func pass(
    fd: Int32, name: String, length: Int64 = .max, _ driver: inout SweepDriver
  ) throws(SystemError) {
    var kept = ByteBuffer(capacity: 160 * 1024)
    var changes = ByteBuffer(capacity: 16 * 1024)
    var gone = ByteBuffer(capacity: 16 * 1024)
    var reader = LineReader(
      fd: fd, name: name, announcesIdle: true, length: length,
      maxLineBytes: configuration.sweep.maxRecordBytes)
    driver.startProgress()
    var count = 0
    var pending = driver.awaitsFirstChange
    var prefixEnd: Int64 = 0
    // Where the input has nothing more yet (a pipe), what is ready goes out before the wait.
    // A failed read hands on what was read before it, then stops the pass.
    while true {
      let line: UnsafeRawBufferPointer
      do {
        guard
          let next = try reader.next(whenIdle: { () throws(SystemError) in
            try Self.flush(&kept, &changes, &gone, &quarantined, &driver)
            try driver.flushStandardOutput()
          })
        else { break }
        line = next
      } catch  where error.isReadError {
        try Self.flush(&kept, &changes, &gone, &quarantined, &driver)
        throw error
      }
      count += 1
      if reader.isOverlong {
        // Not a record, and too long to hold: reported, then kept or quarantined part by part.
        let quarantine = report(
          "RecordTooLarge", configuration.sweep.tooLongMessage, column: 1, reader.lineNumber,
          name, &driver)
        if quarantine { driver.tally.quarantined += 1 } else { driver.tally.kept += 1 }
        if pending && !quarantine {
          while try reader.nextPart() != nil {}
          prefixEnd = reader.bytesRead
          continue
        }
        if pending {
          pending = false
          let start = reader.byteOrderMarkLength
          try driver.copyPrefix(start..<max(start, prefixEnd))
        }
        try Self.flush(&kept, &changes, &gone, &quarantined, &driver)
        try Self.passOverlong(
          line, &reader, quarantine: quarantine ? configuration.sweep.tooLongMessage : nil,
          &driver)
        continue
      }
      let verdict = decide(line, reader.lineNumber, name, &driver)
      switch verdict {
      case .unchanged: driver.tally.kept += 1
      case .edited:
        driver.tally.kept += 1
        driver.tally.changed += 1
      case .deleted: driver.tally.remove(for: .deleted)
      case .quarantined: driver.tally.quarantined += 1
      }
      if pending {
        if verdict == .unchanged {
          prefixEnd = reader.bytesRead
          continue
        }
        pending = false
        let start = reader.byteOrderMarkLength
        try driver.copyPrefix(start..<max(start, prefixEnd))
      }
      switch verdict {
      case .unchanged:
        kept.append(line)
        kept.append(UInt8(ascii: "\n"))
      case .edited:
        kept.append(edited)
        if configuration.sweep.dryRun { changes.append(edited) }
      case .quarantined:
        break
      case .deleted:
        let start = gone.count
        ArchiveEntry.write(
          record: UnsafeRawBufferPointer(rebasing: line[parser.textRange]),
          isEmptyObject: parser.record.json.tokens[0].count == 0, removedAt: configuration.now,
          reason: .deleted, into: &gone)
        if configuration.sweep.dryRun {
          gone.withUnsafeBytes { changes.append(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        }
      }
      if kept.count + changes.count + gone.count + quarantined.count >= 128 * 1024 {
        try Self.flush(&kept, &changes, &gone, &quarantined, &driver)
      }
      if count & 0xFFFF == 0 {
        driver.showProgress(records: count, bytes: reader.bytesRead)
      }
    }
    try Self.flush(&kept, &changes, &gone, &quarantined, &driver)
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

  /// Hands the buffers to the driver and empties them.
  private static func flush(
    _ kept: inout ByteBuffer, _ changes: inout ByteBuffer, _ gone: inout ByteBuffer,
    _ quarantined: inout ByteBuffer, _ driver: inout SweepDriver
  ) throws(SystemError) {
    try driver.writeKept(kept)
    try driver.writeChanges(changes)
    try driver.writeArchived(gone)
    try driver.writeQuarantined(quarantined)
    kept.removeAll()
    changes.removeAll()
    gone.removeAll()
    quarantined.removeAll()
  }

  // MARK: - Decisions

  /// What to do with one line; for `.edited`, `edited` holds the new line.
  mutating func decide(
    _ line: UnsafeRawBufferPointer, _ lineNumber: Int, _ file: String,
    _ driver: inout SweepDriver
  ) -> MarkVerdict {
    switch parser.parse(line) {
    case .blank:
      return .unchanged
    case .failed(let error):
      return reject(
        error.code.rawValue, error.message, line, at: error.offset, lineNumber, file, &driver)
    case .record:
      break
    }
    let record = parser.record
    let selection = configuration.selection
    guard Self.matches(record, selection) else { return .unchanged }
    if let before = selection.before {
      guard case .time(let created) = record.time(.createdAt) else {
        let at = record.index(.createdAt).map { Int(record.json.tokens[$0].start) } ?? 0
        return reject(
          "BadRecord", "created_at is missing or not an RFC 3339 time", line,
          at: record.textOffset + at, lineNumber, file, &driver)
      }
      guard created < before else { return .unchanged }
    }
    let actions = configuration.actions
    if actions.delete { return .deleted }
    // The edits, as (field, new value or nil for null), in the order the fields come.
    var edits: [(RecordField, Bool)] = []
    if actions.read {
      if record.isNull(.readAt) { edits.append((.readAt, true)) }
      if record.isNull(.seenAt) { edits.append((.seenAt, true)) }
    }
    if actions.unread && !record.isNull(.readAt) { edits.append((.readAt, false)) }
    if actions.seen && record.isNull(.seenAt) && !edits.contains(where: { $0.0 == .seenAt }) {
      edits.append((.seenAt, true))
    }
    guard !edits.isEmpty else { return .unchanged }
    splice(line, record, edits)
    return .edited
  }

  /// Whether a record matches every selector given (within one selector, any of its values).
  static func matches(_ record: RecordView, _ selection: MarkCommand.Selection) -> Bool {
    if selection.all { return true }
    if let ids = selection.ids {
      guard let index = record.index(.id), record.json.kind(index) == .string else { return false }
      let found =
        record.json.tokens[index].flag
        ? ids.contains(Array(record.json.string(index).utf8))
        : ids.contains(record.json.rawString(index))
      guard found else { return false }
    }
    for (values, field) in [
      (selection.apps, RecordField.app), (selection.threads, .threadID),
      (selection.categories, .category),
    ] where !values.isEmpty {
      guard values.contains(where: { record.stringEquals(field, $0) }) else { return false }
    }
    return true
  }

  /// Writes `line` with the edited values into `edited`: each value's bytes are replaced where
  /// they are; a missing key is added before the final `}`. Every other byte stays.
  private mutating func splice(
    _ line: UnsafeRawBufferPointer, _ record: RecordView, _ edits: [(RecordField, Bool)]
  ) {
    edited.removeAll()
    var replacements: [(start: Int, end: Int, field: RecordField, set: Bool)] = []
    var additions: [(RecordField, Bool)] = []
    for (field, set) in edits {
      if let index = record.index(field) {
        let token = record.json.tokens[index]
        replacements.append(
          (record.textOffset + Int(token.start), record.textOffset + Int(token.end), field, set))
      } else {
        additions.append((field, set))
      }
    }
    replacements.sort { $0.start < $1.start }
    var from = 0
    for replacement in replacements {
      edited.append(UnsafeRawBufferPointer(rebasing: line[from..<replacement.start]))
      if replacement.set { edited.append(nowText) } else { edited.append("null") }
      from = replacement.end
    }
    if additions.isEmpty {
      edited.append(UnsafeRawBufferPointer(rebasing: line[from...]))
    } else {
      let close = record.textOffset + record.json.bytes.count - 1
      edited.append(UnsafeRawBufferPointer(rebasing: line[from..<close]))
      var first = record.json.tokens[0].count == 0
      for (field, set) in additions {
        edited.append(first ? "\"" : ",\"")
        first = false
        edited.append(utf8: field.key)
        edited.append("\":")
        if set { edited.append(nowText) } else { edited.append("null") }
      }
      edited.append(UnsafeRawBufferPointer(rebasing: line[close...]))
    }
    edited.append(UInt8(ascii: "\n"))
  }

  // MARK: - Reports

  /// Reports a line that is not a record: kept (an error, status 1), or with `--quarantine`
  /// moved to the quarantine file (a warning: the line is handled).
  private mutating func reject(
    _ code: String, _ message: String, _ line: UnsafeRawBufferPointer, at offset: Int,
    _ lineNumber: Int, _ file: String, _ driver: inout SweepDriver
  ) -> MarkVerdict {
    let column = RecordLineParser.column(line, offset)
    guard report(code, message, column: column, lineNumber, file, &driver) else {
      return .unchanged
    }
    QuarantineEntry.write(
      line: line, number: lineNumber, code: code, reason: message, into: &quarantined)
    return .quarantined
  }

  /// Reports a line that is not a record as `reject` says; returns whether it goes to the
  /// quarantine file.
  private func report(
    _ code: String, _ message: String, column: Int, _ lineNumber: Int, _ file: String,
    _ driver: inout SweepDriver
  ) -> Bool {
    if driver.quarantining {
      driver.report(
        Diagnostic(
          .warning, code, message + driver.quarantineNote, file: file,
          line: lineNumber, column: column))
      return true
    }
    driver.raiseStatus(to: .rejected)
    driver.report(
      Diagnostic(
        .error, code, message + " (kept as it is)", file: file, line: lineNumber, column: column))
    return false
  }
}
