import NotifJSON
import NotifModel
import NotifSweep

/// What notif-mark does with one line.
enum MarkVerdict: Equatable, Sendable {
  /// Write the line as it was: not selected, blank, not a record, or nothing to change.
  case unchanged
  /// Write the line with some values replaced (appended to the batch's `edited`).
  case edited
  /// Remove the record (its archive line appended to the batch's `gone`).
  case deleted
  /// Move the line, not a record, to the quarantine file (its entry appended to the batch's
  /// `quarantined`).
  case quarantined
}

/// Decides, line by line, what notif-mark does with each line, and writes the result into the
/// line's batch. One per thread: it owns its parser.
struct MarkDecider: ~Copyable {
  let actions: MarkCommand.Actions
  let selection: MarkCommand.Selection
  let now: Timestamp
  /// `--dry-run`: each changed line also goes to the batch's `changes`.
  let dryRun: Bool
  /// With `--quarantine`, what a quarantined line's warning ends with; nil without.
  let quarantineNote: String?
  private var parser = RecordLineParser()
  /// `now` as a JSON string.
  private var nowText = ByteBuffer(capacity: 32)
  /// The edits of the line being decided, as (field, set to now (else null)), in the order of
  /// the actions.
  private var edits: [(RecordField, Bool)] = []
  /// The values the edits replace: where they are in the line, and the edit.
  /// The spans of the line to write anew, from `start` to `end`, with the time (`set`) or
  /// null; a field the record lacks is an empty span, at its place, that gets its key too.
  private var replacements: [(start: Int, end: Int, set: Bool, added: RecordField?)] = []

  init(
    _ configuration: MarkCommand.Configuration, dryRun: Bool, quarantineNote: String?
  ) {
    actions = configuration.actions
    selection = configuration.selection
    now = configuration.now
    self.dryRun = dryRun
    self.quarantineNote = quarantineNote
    nowText.append(UInt8(ascii: "\""))
    now.write(into: &nowText)
    nowText.append(UInt8(ascii: "\""))
    edits.reserveCapacity(4)
    replacements.reserveCapacity(4)
  }

  /// What to do with `line`, line `lineNumber` of `file`; writes the new line, the archive
  /// line, the quarantine entry and the diagnostic, as the verdict has it, into `batch`.
  mutating func decide(
    _ line: UnsafeRawBufferPointer, _ lineNumber: Int, _ file: String, into batch: MarkBatch
  ) -> MarkVerdict {
    switch parser.parse(line) {
    case .blank:
      return .unchanged
    case .failed(let error):
      return reject(
        error.code.rawValue, error.message, line, at: error.offset, lineNumber, file, batch)
    case .record:
      break
    }
    let record = parser.record
    var idSlot: Int? = nil
    let matched = Self.matches(record, selection, idSlot: &idSlot)
    // An id that selects a record is found, whatever the other selectors say of it: for the
    // warning about the ids no record has.
    if let idSlot { batch.foundIDs.append(idSlot) }
    guard matched else { return .unchanged }
    if let before = selection.before {
      guard case .time(let created) = record.time(.createdAt) else {
        let at = record.index(.createdAt).map { Int(record.json.tokens[$0].start) } ?? 0
        return reject(
          "BadRecord", "created_at is missing or not an RFC 3339 time", line,
          at: record.textOffset + at, lineNumber, file, batch)
      }
      guard created < before else { return .unchanged }
    }
    if actions.delete {
      let start = batch.gone.count
      ArchiveEntry.write(
        record: UnsafeRawBufferPointer(rebasing: line[parser.textRange]),
        isEmptyObject: record.json.tokens[0].count == 0, removedAt: now, reason: .deleted,
        into: &batch.gone)
      if dryRun {
        batch.gone.withUnsafeBytes {
          batch.changes.append(UnsafeRawBufferPointer(rebasing: $0[start...]))
        }
      }
      return .deleted
    }
    edits.removeAll(keepingCapacity: true)
    if actions.read {
      if record.isNull(.readAt) { edits.append((.readAt, true)) }
      if record.isNull(.seenAt) { edits.append((.seenAt, true)) }
    }
    if actions.unread && !record.isNull(.readAt) { edits.append((.readAt, false)) }
    if actions.seen && record.isNull(.seenAt) && !edits.contains(where: { $0.0 == .seenAt }) {
      edits.append((.seenAt, true))
    }
    guard !edits.isEmpty else { return .unchanged }
    let start = batch.edited.count
    splice(line, record, into: &batch.edited)
    if dryRun {
      batch.edited.withUnsafeBytes {
        batch.changes.append(UnsafeRawBufferPointer(rebasing: $0[start...]))
      }
    }
    return .edited
  }

  /// Whether a record matches every selector given (within one selector, any of its values).
  static func matches(_ record: RecordView, _ selection: MarkCommand.Selection) -> Bool {
    var idSlot: Int? = nil
    return matches(record, selection, idSlot: &idSlot)
  }

  /// Whether a record matches every selector given; `idSlot` is where its id is among
  /// `--id`'s and `--ids-from`'s (`IDSet.slot(of:)`), when it is one of them.
  static func matches(
    _ record: RecordView, _ selection: MarkCommand.Selection, idSlot: inout Int?
  ) -> Bool {
    if selection.all { return true }
    if let ids = selection.ids {
      guard let index = record.index(.id), record.json.kind(index) == .string else { return false }
      idSlot =
        record.json.tokens[index].flag
        ? ids.slot(of: Array(record.json.string(index).utf8))
        : ids.slot(of: record.json.rawString(index))
      guard idSlot != nil else { return false }
    }
    for (values, field) in [
      (selection.apps, RecordField.app), (selection.threads, .threadID),
      (selection.categories, .category),
    ] where !values.isEmpty {
      guard values.contains(where: { record.stringEquals(field, $0) }) else { return false }
    }
    return true
  }

  /// Appends `line` with the edited values, and its newline, to `out`: each value's bytes are
  /// replaced where they are; a missing key is added before the final `}`. Every other byte
  /// stays.
  private mutating func splice(
    _ line: UnsafeRawBufferPointer, _ record: RecordView, into out: inout ByteBuffer
  ) {
    replacements.removeAll(keepingCapacity: true)
    var appended: [(field: RecordField, set: Bool)] = []
    for (field, set) in edits {
      if let index = record.index(field) {
        let token = record.json.tokens[index]
        replacements.append(
          (record.textOffset + Int(token.start), record.textOffset + Int(token.end), set, nil))
      } else if let key = Self.keyAfter(field, in: record) {
        // A record that leaves the field out (it is null): the field goes in its place, before
        // the first field the record has that comes after it in notif(5)'s order.
        let start = record.textOffset + Int(record.json.tokens[key].start)
        replacements.append((start, start, set, field))
      } else {
        appended.append((field, set))
      }
    }
    replacements.sort {
      ($0.start, $0.added?.rawValue ?? -1) < ($1.start, $1.added?.rawValue ?? -1)
    }
    var from = 0
    for replacement in replacements {
      out.append(UnsafeRawBufferPointer(rebasing: line[from..<replacement.start]))
      if let field = replacement.added {
        out.append(UInt8(ascii: "\""))
        out.append(utf8: field.key)
        out.append("\":")
      }
      if replacement.set { out.append(nowText) } else { out.append("null") }
      if replacement.added != nil { out.append(UInt8(ascii: ",")) }
      from = replacement.end
    }
    if appended.isEmpty {
      out.append(UnsafeRawBufferPointer(rebasing: line[from...]))
    } else {
      // No field after these: they end the object.
      let close = record.textOffset + record.json.bytes.count - 1
      out.append(UnsafeRawBufferPointer(rebasing: line[from..<close]))
      var first = record.json.tokens[0].count == 0
      for (field, set) in appended {
        out.append(first ? "\"" : ",\"")
        first = false
        out.append(utf8: field.key)
        out.append("\":")
        if set { out.append(nowText) } else { out.append("null") }
      }
      out.append(UnsafeRawBufferPointer(rebasing: line[close...]))
    }
    out.append(UInt8(ascii: "\n"))
  }

  /// The tape index of the key of the first member of `record` that is a field after `field`
  /// in `RecordField` order (`source` and `payload` follow `read_at` and `seen_at`); nil when
  /// it has none.
  private static func keyAfter(_ field: RecordField, in record: RecordView) -> Int? {
    var first: Int? = nil
    // By raw value, not `allCases`, which makes an array at each call: once per record that
    // leaves out the field set, that was most of what sparse records cost over dense ones.
    var raw = field.rawValue + 1
    while let later = RecordField(rawValue: raw) {
      raw += 1
      guard let value = record.index(later) else { continue }
      if first.map({ value - 1 < $0 }) ?? true { first = value - 1 }
    }
    return first
  }

  /// Reports a line that is not a record: kept (an error, status 1), or with `--quarantine`
  /// moved to the quarantine file (a warning: the line is handled).
  private func reject(
    _ code: String, _ message: String, _ line: UnsafeRawBufferPointer, at offset: Int,
    _ lineNumber: Int, _ file: String, _ batch: MarkBatch
  ) -> MarkVerdict {
    let column = RecordLineParser.column(line, offset)
    batch.diagnostics.append(
      SweepDriver.notARecord(
        code, message, file: file, line: lineNumber, column: column,
        quarantineNote: quarantineNote))
    guard quarantineNote != nil else {
      batch.rejected = true
      return .unchanged
    }
    QuarantineEntry.write(
      line: line, number: lineNumber, code: code, reason: message, into: &batch.quarantined)
    return .quarantined
  }
}
