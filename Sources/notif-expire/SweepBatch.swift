import NotifJSON
import NotifModel
import NotifSweep

/// What a worker does with the lines of a batch: a survey pass, or the sweep.
enum SweepTask {
  /// The key and mark of each record with a collapse_id (`SweepBatch.collapseMarks`).
  case collapseKeys
  /// The key and mark of each record whose collapse key may repeat (`SweepBatch.collapseMarks`):
  /// the second pass when the first could not keep its findings.
  case collapseWinners(FingerprintSet)
  /// The mark of each record that counts towards a cap (`SweepBatch.capMarks`).
  case capGroups
  /// Each line kept or removed, and what to report; with `archiving`, the archive line of each
  /// removed record (`SweepBatch.gone`); `quarantining`, lines that are not records are
  /// removed too, as quarantine lines (`SweepBatch.quarantined`).
  case sweep(archiving: Bool, quarantining: Bool)
}

/// A run of whole lines of one input, done by a worker: in the sweep, what to keep, what to
/// archive, and what to report; in a survey pass, what the lines add to its tables. The main
/// thread reads batches in order and takes their results in order, so the output is the same
/// whatever the number of workers and however they are scheduled.
final class SweepBatch: @unchecked Sendable {
  let task: SweepTask
  /// The lines, each with its newline (one is added to a last line without it).
  private(set) var bytes: UnsafeMutableRawPointer
  private(set) var capacity: Int
  private(set) var count = 0
  /// The ordinal of the first line in the whole input, and its line number in its file.
  var firstOrdinal = 0
  var firstLine = 0
  /// The offset in `bytes` of each line's line feed, in order (`findLines`): the reading
  /// thread finds them once, to count the lines, and the worker walks them.
  private(set) var lineEnds: [Int] = []
  var lineCount: Int { lineEnds.count }
  /// Where the batch starts in its file, and how many of the file's bytes it holds.
  var fileOffset: Int64 = 0
  var fileBytes = 0
  /// The file's name in diagnostics.
  var fileName = ""
  /// 3 if a byte order mark was dropped before the batch (the first of its file), else 0.
  var byteOrderMark: Int64 = 0
  /// `--max-record-bytes`: a longer line is no record (`RecordTooLarge`).
  var maxLineBytes = Int.max

  // Results.
  /// The kept lines, as runs of whole lines in `bytes`: written from there, not copied.
  private(set) var keptRuns: [Range<Int>] = []
  /// The archive lines of the removed records (only when the task says `archiving`).
  var gone = ByteBuffer(capacity: 16 * 1024)
  /// The quarantine lines of the lines that are not records (only when quarantining).
  var quarantined = ByteBuffer(capacity: 0)
  var findings: [(line: Int, finding: LineFinding)] = []
  var removed = 0
  /// What the sweep did with the batch's lines, for the report (`SweepTally`).
  var tally = SweepTally()
  /// The offset in `bytes` of the first removed line.
  var firstRemoval: Int?

  // Survey results: one entry per line that adds to a table, in input order.
  var collapseMarks: [(key: KeyHash, mark: Mark)] = []
  var capMarks: [(group: KeyHash, mark: Mark, keep: Int)] = []

  init(capacity: Int, task: SweepTask) {
    self.task = task
    self.capacity = capacity
    bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    bytes.deallocate()
  }

  /// Empties the batch for reuse, keeping its storage: no new pages to fault in per batch.
  func reset() {
    count = 0
    lineEnds.removeAll(keepingCapacity: true)
    keptRuns.removeAll(keepingCapacity: true)
    gone.removeAll()
    quarantined.removeAll()
    findings.removeAll(keepingCapacity: true)
    removed = 0
    tally = SweepTally()
    firstRemoval = nil
    byteOrderMark = 0
    collapseMarks.removeAll(keepingCapacity: true)
    capMarks.removeAll(keepingCapacity: true)
  }

  /// Makes room for `extra` more bytes: doubling, or, for a line longer than a batch, straight
  /// to what a line of `maxLineBytes` and a read after it need. That is one copy of the line so
  /// far, not one per doubling, and the pages past it are not touched until a read fills them.
  func reserve(_ extra: Int) {
    guard count + extra > capacity else { return }
    let (ceiling, overflow) = maxLineBytes.addingReportingOverflow(2 * extra + 4096)
    let longLine = count >= extra && !overflow
    let bigger = max(longLine ? ceiling : capacity * 2, count + extra)
    let fresh = UnsafeMutableRawPointer.allocate(byteCount: bigger, alignment: 16)
    fresh.copyMemory(from: bytes, byteCount: count)
    bytes.deallocate()
    bytes = fresh
    capacity = bigger
  }

  /// Reads up to `limit` more bytes from `fd`; returns how many came (0 at the end).
  func read(from fd: Int32, name: String, limit: Int) throws(SystemError) -> Int {
    reserve(limit)
    while true {
      let got = systemRead(fd, bytes + count, limit)
      if got >= 0 {
        count += got
        return got
      }
      if errno != EINTR { throw SystemError(path: name, doing: "read error", errno: errno) }
    }
  }

  func append(_ raw: UnsafeRawBufferPointer) {
    guard let base = raw.baseAddress, !raw.isEmpty else { return }
    reserve(raw.count)
    (bytes + count).copyMemory(from: base, byteCount: raw.count)
    count += raw.count
  }

  /// Keeps the first `length` bytes.
  func truncate(to length: Int) { count = length }

  /// Drops the first `length` bytes.
  func dropFirst(_ length: Int) {
    bytes.copyMemory(from: bytes + length, byteCount: count - length)
    count -= length
  }

  /// Does the batch's task on every line.
  func process(with decider: inout ExpireDecider) {
    switch task {
    case .sweep(let archiving, let quarantining):
      decide(with: &decider, archiving: archiving, quarantining: quarantining)
    case .collapseKeys: findCollapseMarks(of: nil, with: &decider)
    case .collapseWinners(let keys): findCollapseMarks(of: keys, with: &decider)
    case .capGroups: findCapMarks(with: &decider)
    }
  }

  /// Finds the lines, once the bytes are all in and before a worker takes the batch.
  func findLines() {
    // Appended to a local array, not to the property: each append to a class's property is a
    // dynamic exclusivity check.
    var ends: [Int] = []
    swap(&ends, &lineEnds)
    ends.removeAll(keepingCapacity: true)
    var start = 0
    while start < count, let hit = memchr(bytes + start, 0x0A, count - start) {
      let stop = bytes.distance(to: hit)
      ends.append(stop)
      start = stop + 1
    }
    lineEnds = ends
  }

  /// Calls `body` with every line (without its newline) and its ordinal, but those longer
  /// than `maxLineBytes`, which are no records.
  private func forEachLine(_ body: (UnsafeRawBufferPointer, Range<Int>, Int) -> Void) {
    var start = 0
    var ordinal = firstOrdinal
    for stop in lineEnds {
      if stop - start <= maxLineBytes {
        body(
          UnsafeRawBufferPointer(start: bytes + start, count: stop - start), start..<stop, ordinal)
      }
      start = stop + 1
      ordinal += 1
    }
  }

  /// Collapse: the key and mark of each record with a collapse_id; in the second pass over the
  /// input (when the log of the first failed, `keys` given), only of those whose key's
  /// fingerprint repeats.
  private func findCollapseMarks(of keys: FingerprintSet?, with decider: inout ExpireDecider) {
    var candidates = ExpireDecider.CollapseCandidates(bytes, count: count)
    forEachLine { line, place, ordinal in
      guard candidates.mayHaveCollapseID(place), decider.parser.parse(line) == .record else {
        return
      }
      let record = decider.parser.record
      guard !record.isNull(.collapseID), case .time(let created) = record.time(.createdAt)
      else { return }
      let key = KeyHash(decider.collapseKey(record))
      if let keys, !keys.isRepeated(key.fingerprint) { return }
      collapseMarks.append((key, Mark(time: created, ordinal: ordinal)))
    }
  }

  /// Caps: the mark of each record under a rule with `keep` that neither collapses nor expires.
  private func findCapMarks(with decider: inout ExpireDecider) {
    let policy = decider.policy
    forEachLine { line, _, ordinal in
      guard decider.parser.parse(line) == .record else { return }
      let record = decider.parser.record
      guard let rule = policy.rule(for: record), let keep = rule.keep,
        case .time(let created) = record.time(.createdAt)
      else { return }
      let mark = Mark(time: created, ordinal: ordinal)
      guard !decider.isCollapsed(record, mark),
        decider.expiry(record, rule: rule, created: created) == nil
      else {
        return
      }
      capMarks.append((KeyHash(decider.capKey(record, rule)), mark, keep))
    }
  }

  /// Calls `body` with each run of kept lines that starts at or after `offset`, in order.
  func forEachKeptRun<E: Error>(
    from offset: Int = 0, _ body: (UnsafeRawBufferPointer) throws(E) -> Void
  ) throws(E) {
    for run in keptRuns where run.lowerBound >= offset {
      try body(UnsafeRawBufferPointer(start: bytes + run.lowerBound, count: run.count))
    }
  }

  /// Decides every line.
  private func decide(with decider: inout ExpireDecider, archiving: Bool, quarantining: Bool) {
    // What the loop counts and collects, in locals written back at the end: each write to a
    // class's property in the loop was a dynamic exclusivity check (2% of the instructions).
    var tally = self.tally
    var removed = self.removed
    var firstRemoval = self.firstRemoval
    var keptRuns: [Range<Int>] = []
    swap(&keptRuns, &self.keptRuns)
    var findings: [(line: Int, finding: LineFinding)] = []
    swap(&findings, &self.findings)
    defer {
      self.tally = tally
      self.removed = removed
      self.firstRemoval = firstRemoval
      self.keptRuns = keptRuns
      self.findings = findings
    }
    var start = 0
    var index = 0
    var runStart = 0
    for stop in lineEnds {
      let line = UnsafeRawBufferPointer(start: bytes + start, count: stop - start)
      var finding: LineFinding? = nil
      let verdict: Verdict
      if line.count > maxLineBytes {
        verdict = .keep
        finding = LineFinding(
          severity: .error, code: "RecordTooLarge",
          message: SweepOptions.tooLongMessage(limit: maxLineBytes),
          column: 1)
      } else {
        verdict = decider.decide(line, ordinal: firstOrdinal + index, finding: &finding)
      }
      if quarantining, let error = finding, error.severity == .error {
        // Not a record: moved out of the input, reported once as a warning.
        if firstRemoval == nil { firstRemoval = start }
        if runStart < start { keptRuns.append(runStart..<start) }
        runStart = stop + 1
        let reason = error.message
        if line.count > maxLineBytes {
          // In base64, as every line longer than the limit, however many batches it spans.
          var entry = QuarantineEntry.Streamed(
            number: firstLine + index, code: error.code, reason: reason, into: &quarantined)
          entry.append(line, into: &quarantined)
          entry.finish(into: &quarantined)
        } else {
          QuarantineEntry.write(
            line: line, number: firstLine + index, code: error.code, reason: reason,
            into: &quarantined)
        }
        finding?.quarantined = true
        tally.quarantined += 1
      } else if case .remove(let reason) = verdict {
        if firstRemoval == nil { firstRemoval = start }
        if runStart < start { keptRuns.append(runStart..<start) }
        runStart = stop + 1
        removed += 1
        tally.remove(for: reason)
        if archiving { decider.writeArchiveEntry(of: line, reason: reason, into: &gone) }
      } else {
        tally.kept += 1
      }
      if let finding { findings.append((firstLine + index, finding)) }
      start = stop + 1
      index += 1
    }
    if runStart < start { keptRuns.append(runStart..<start) }
  }
}
