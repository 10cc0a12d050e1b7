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
}

/// One run of notif-mark: reads each line once, changes or deletes the selected records.
struct MarkRun: ~Copyable {
  let configuration: MarkCommand.Configuration
  let environment: ToolEnvironment
  private var parser = RecordLineParser()
  private var status = ExitStatus.success
  /// The edited line of the last `.edited` verdict, with its newline.
  private(set) var edited = ByteBuffer(capacity: 64 * 1024)
  private var nowText = ByteBuffer(capacity: 32)
  private(set) var changed = 0
  private var progressLine = ProgressLine(program: MarkCommand.name)

  init(configuration: MarkCommand.Configuration, environment: ToolEnvironment) {
    self.configuration = configuration
    self.environment = environment
    nowText.append(UInt8(ascii: "\""))
    configuration.now.write(into: &nowText)
    nowText.append(UInt8(ascii: "\""))
  }

  struct Stop: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    do throws(Stop) {
      if let store = configuration.sweep.store {
        try markStore(store, stdout: &stdout, stderr: &stderr)
      } else {
        try markStream(stdout: &stdout, stderr: &stderr)
      }
    } catch {
      endProgress(&stderr)
      report(Diagnostic(.error, "Failed", error.error.message, file: error.error.path), &stderr)
      return .failure
    }
    endProgress(&stderr)
    return status
  }

  // MARK: - Modes

  private mutating func markStream(stdout: inout OutputWriter, stderr: inout OutputWriter)
    throws(Stop)
  {
    var archive: StreamArchive
    do {
      archive = try StreamArchive(options: configuration.sweep)
    } catch {
      throw Stop(error: error)
    }
    let dryRun = configuration.sweep.dryRun
    for file in configuration.sweep.files {
      let input: InputFile
      do {
        input = try InputFile(operand: file)
      } catch {
        status = max(status, .failure)
        report(Diagnostic(.error, "Unreadable", error.message, file: error.path), &stderr)
        continue
      }
      try pass(fd: input.fd, name: input.name, &stderr) {
        kept, changedOrGone, gone throws(SystemError) in
        if dryRun {
          try stdout.write(changedOrGone)
        } else {
          try stdout.write(kept)
          try archive.write(gone)
        }
      }
    }
    do throws(SystemError) {
      try stdout.flush()
      try archive.sync()
    } catch {
      throw Stop(error: error)
    }
  }

  /// In place: under the store's lock (released when `session` drops, on every path), after
  /// recovering an interrupted sweep.
  private mutating func markStore(
    _ store: String, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(Stop) {
    let opened: StoreSession?
    do {
      opened = try StoreSession.acquire(
        store: store, options: configuration.sweep, monotonicClock: environment.monotonicClock
      ) { diagnostic in report(diagnostic, &stderr) }
    } catch {
      throw Stop(error: error)
    }
    guard let session = opened else {
      status = .locked
      return
    }
    let fd = session.fd
    if configuration.sweep.dryRun {
      try pass(fd: fd, name: store, &stderr) { _, changedOrGone, _ throws(SystemError) in
        try stdout.write(changedOrGone)
      }
      do {
        try stdout.flush()
      } catch {
        throw Stop(error: error)
      }
      return
    }
    var rewrite = StoreRewrite(
      store: store, storeStatus: session.status, archive: configuration.sweep.archive,
      pid: environment.pid)
    do throws(Stop) {
      try pass(fd: fd, name: store, &stderr) { prefix throws(SystemError) in
        try rewrite.start(copying: prefix, from: fd)
      } flush: { kept, _, gone throws(SystemError) in
        guard rewrite.isStarted else { return }
        try rewrite.writeKept(kept)
        try rewrite.writeArchived(gone)
      }
      guard changed > 0 else { return }
      do {
        try rewrite.commit()
      } catch {
        throw Stop(error: error)
      }
    } catch {
      rewrite.abandon()
      throw error
    }
  }

  // MARK: - The pass

  /// Reads every line of `fd` once. `flush` gets three buffers when they fill up: the lines to
  /// keep (changed or not), the changed and deleted ones only (for --dry-run), and the archive
  /// lines of the deleted ones.
  ///
  /// With `begin`, lines before the first change are not written: `begin` gets their byte
  /// range at the first change, to copy them as they are; so a store where nothing changes is
  /// read and never written.
  private mutating func pass(
    fd: Int32, name: String, _ stderr: inout OutputWriter,
    begin: ((_ prefix: Range<Int64>) throws(SystemError) -> Void)? = nil,
    flush: (_ kept: ByteBuffer, _ changedOrGone: ByteBuffer, _ gone: ByteBuffer) throws(SystemError)
      -> Void
  ) throws(Stop) {
    var kept = ByteBuffer(capacity: 160 * 1024)
    var changes = ByteBuffer(capacity: 16 * 1024)
    var gone = ByteBuffer(capacity: 16 * 1024)
    var reader = LineReader(fd: fd, name: name)
    if configuration.sweep.progress { progressLine.start(now: environment.monotonicClock()) }
    var count = 0
    var pending = begin != nil
    var prefixEnd: Int64 = 0
    while true {
      let next: UnsafeRawBufferPointer?
      do {
        next = try reader.next()
      } catch {
        throw Stop(error: error)
      }
      guard let line = next else { break }
      count += 1
      let verdict = decide(line, reader.lineNumber, name, &stderr)
      if pending, let begin {
        if verdict == .unchanged {
          prefixEnd = reader.bytesRead
          continue
        }
        pending = false
        let start = reader.byteOrderMarkLength
        do {
          try begin(start..<max(start, prefixEnd))
        } catch {
          throw Stop(error: error)
        }
      }
      switch verdict {
      case .unchanged:
        kept.append(line)
        kept.append(UInt8(ascii: "\n"))
      case .edited:
        changed += 1
        kept.append(edited)
        if configuration.sweep.dryRun { changes.append(edited) }
      case .deleted:
        changed += 1
        let start = gone.count
        ArchiveEntry.write(
          record: UnsafeRawBufferPointer(rebasing: line[parser.textRange]),
          isEmptyObject: parser.record.json.tokens[0].count == 0, removedAt: configuration.now,
          reason: .deleted, into: &gone)
        if configuration.sweep.dryRun {
          gone.withUnsafeBytes { changes.append(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        }
      }
      if kept.count + changes.count + gone.count >= 128 * 1024 {
        do {
          try flush(kept, changes, gone)
        } catch {
          throw Stop(error: error)
        }
        kept.removeAll()
        changes.removeAll()
        gone.removeAll()
      }
      if count & 0xFFFF == 0, progressLine.isStarted {
        progressLine.update(
          records: count, bytes: reader.bytesRead, now: environment.monotonicClock, &stderr)
      }
    }
    do {
      try flush(kept, changes, gone)
    } catch {
      throw Stop(error: error)
    }
  }

  // MARK: - Decisions

  /// What to do with one line; for `.edited`, `edited` holds the new line.
  mutating func decide(
    _ line: UnsafeRawBufferPointer, _ lineNumber: Int, _ file: String,
    _ stderr: inout OutputWriter
  ) -> MarkVerdict {
    switch parser.parse(line) {
    case .blank:
      return .unchanged
    case .failed(let error):
      reject(error.code.rawValue, error.message, line, at: error.offset, lineNumber, file, &stderr)
      return .unchanged
    case .record:
      break
    }
    let record = parser.record
    let selection = configuration.selection
    guard Self.matches(record, selection) else { return .unchanged }
    if let before = selection.before {
      guard case .time(let created) = record.time(.createdAt) else {
        let at = record.index(.createdAt).map { Int(record.json.tokens[$0].start) } ?? 0
        reject(
          "BadRecord", "created_at is missing or not an RFC 3339 time", line,
          at: record.textOffset + at, lineNumber, file, &stderr)
        return .unchanged
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
      let id =
        record.json.tokens[index].flag
        ? Array(record.json.string(index).utf8) : Array(record.json.rawString(index))
      guard ids.contains(id) else { return false }
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

  private mutating func reject(
    _ code: String, _ message: String, _ line: UnsafeRawBufferPointer, at offset: Int,
    _ lineNumber: Int, _ file: String, _ stderr: inout OutputWriter
  ) {
    status = max(status, .rejected)
    var column = 1
    for i in 0..<min(offset, line.count) where line[i] & 0xC0 != 0x80 { column += 1 }
    report(
      Diagnostic(
        .error, code, message + " (kept as it is)", file: file, line: lineNumber, column: column),
      &stderr)
  }

  private mutating func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    progressLine.report(diagnostic, now: environment.monotonicClock, &stderr)
  }

  private mutating func endProgress(_ stderr: inout OutputWriter) {
    progressLine.clear(now: environment.monotonicClock, &stderr)
  }
}
