import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep

/// A record's place in the sort of its group: its `created_at`, then its line number in the
/// whole input (the ordinal), which makes every mark distinct. 16 bytes, as one is kept per
/// collapse key and `keep` per cap group: ordinals count lines modulo 2^32.
struct Mark: Equatable {
  var seconds: Int64
  var nanoseconds: Int32
  var ordinal: UInt32

  init(time: Timestamp, ordinal: Int) {
    seconds = time.seconds
    nanoseconds = time.nanoseconds
    self.ordinal = UInt32(truncatingIfNeeded: ordinal)
  }

  /// Newer, or as new and read later: the record APNs keeps when collapsing.
  func replaces(_ other: Mark) -> Bool {
    (seconds, nanoseconds, ordinal) > (other.seconds, other.nanoseconds, other.ordinal)
  }

  /// Older, or as new and read later: the record a cap drops first.
  func isWorse(than other: Mark) -> Bool {
    if (seconds, nanoseconds) != (other.seconds, other.nanoseconds) {
      return (seconds, nanoseconds) < (other.seconds, other.nanoseconds)
    }
    return ordinal > other.ordinal
  }
}

/// The newest `keep` marks of one cap group (a min-heap on "worse") and how many there were.
struct CapGroup {
  var heap: [Mark] = []
  var total = 0

  mutating func insert(_ mark: Mark, keep: Int) {
    total += 1
    if heap.count < keep {
      heap.append(mark)
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard heap[child].isWorse(than: heap[parent]) else { break }
        heap.swapAt(child, parent)
        child = parent
      }
    } else if heap[0].isWorse(than: mark) {
      heap[0] = mark
      var parent = 0
      while true {
        var worst = parent
        for child in [2 * parent + 1, 2 * parent + 2]
        where child < heap.count && heap[child].isWorse(than: heap[worst]) {
          worst = child
        }
        if worst == parent { break }
        heap.swapAt(parent, worst)
        parent = worst
      }
    }
  }
}

/// One run of notif-expire: the passes over the input and the decisions; `SweepDriver` runs
/// them as a filter or in place, and says where the lines go.
struct ExpireRun: ~Copyable, SweepPasses {
  let configuration: ExpireCommand.Configuration
  let policy: ExpirePolicy
  let environment: ToolEnvironment
  let rules: ExpireRules
  private var warnedCategories: Set<[UInt8]> = []
  private var records = 0
  private var bytesDone: Int64 = 0
  /// The quarantine entry of the line longer than `--max-record-bytes` being read, if any,
  /// and its bytes not yet written.
  private var longEntry: QuarantineEntry.Streamed?
  private var longEntryBytes = ByteBuffer(capacity: 0)

  /// The size of a batch of lines handed to a worker; `Configuration.batchSize` by default
  /// (tests set a smaller one, to spread a few lines over many batches).
  static let batchSize = 512 * 1024
  /// Batches read ahead of the one being written: memory stays a few batches.
  static let batchesInFlight = 3

  init(
    configuration: ExpireCommand.Configuration, policy: ExpirePolicy,
    environment: ToolEnvironment
  ) {
    self.configuration = configuration
    self.policy = policy
    self.environment = environment
    rules = ExpireRules(policy: policy, now: configuration.now)
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    SweepDriver.run(
      &self, program: ExpireCommand.name, options: configuration.sweep, environment: environment,
      stdout: &stdout, stderr: &stderr)
  }

  // MARK: - Inputs

  /// Opens every operand before the first pass: each is read once per pass (a pipe is
  /// spooled to a temporary file). A compressed one is reported (`Compressed`, status 2) and
  /// left out, as one that cannot be opened is.
  mutating func open(_ files: [String], _ driver: inout SweepDriver) -> [SweepInput] {
    var inputs: [SweepInput] = []
    for file in files {
      var opened: SweepInput? = nil
      do {
        let input = try SweepInput.open(
          file, temporaryDirectory: environment.temporaryDirectory,
          memoryLimit: configuration.pipeMemoryLimit)
        opened = input
        if let compression = try input.compression() {
          input.close()
          driver.refuse(compression, file: input.name)
          continue
        }
        inputs.append(input)
      } catch {
        opened?.close()
        driver.raiseStatus(to: .failure)
        driver.report(Diagnostic(.error, "Unreadable", error.message, file: error.path))
      }
    }
    return inputs
  }

  func input(store fd: Int32, name: String, length: Int64) -> SweepInput {
    .file(fd, name: name, length: length)
  }

  func close(_ inputs: [SweepInput]) {
    for input in inputs { input.close() }
  }

  // MARK: - Passes

  /// The passes before the sweep: which records collapse, then, when a rule has `keep`, the
  /// newest records of each cap group.
  ///
  /// Collapse takes one pass over the input: a byte search finds the records with a
  /// collapse_id, and only those are parsed. Each one's key goes into a `FingerprintSet`, to
  /// find the keys that repeat, and its key and mark into a `CollapseLog`; the winners of the
  /// keys that repeat are then found in the log. Should the log fail (no room for its
  /// temporary file), a second pass over the input finds them instead.
  ///
  /// The workers parse the batches and list what each line adds (a collapse mark, a cap
  /// mark); this thread adds the lists to the tables in input order, so the tables are exactly
  /// those of one thread reading every line in turn.
  private mutating func survey(
    _ inputs: [SweepInput], _ driver: inout SweepDriver
  ) throws(SystemError) {
    var keys = FingerprintSet()
    var log = CollapseLog(
      temporaryDirectory: environment.temporaryDirectory,
      memoryLimit: configuration.collapseLogMemoryLimit)
    // The first pass reads a pipe as it comes, and may be most of the run: it shows progress.
    let sizes = inputs.map(\.byteCount)
    driver.startProgress(
      totalBytes: sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) })
    var lines = 0
    var bytes: Int64 = 0
    try Self.forEachBatch(
      inputs, task: .collapseKeys, rules: rules, batchSize: configuration.batchSize,
      maxLineBytes: configuration.sweep.maxRecordBytes
    ) { batch throws(SystemError) in
      for entry in batch.collapseMarks {
        keys.insert(entry.key.fingerprint)
        log.append(entry)
      }
      lines += batch.lineCount
      bytes += Int64(batch.fileBytes)
      driver.showProgress(records: lines, bytes: bytes)
    }
    if keys.repeatedCount > 0 {
      var winners: [KeyHash: Mark] = [:]
      // Sized once: a table that doubles holds both sizes at its peak.
      winners.reserveCapacity(keys.repeatedCount)
      func consider(_ entry: CollapseLog.Entry) {
        guard keys.isRepeated(entry.key.fingerprint) else { return }
        if let winner = winners[entry.key], !entry.mark.replaces(winner) { return }
        winners[entry.key] = entry.mark
      }
      if log.isComplete {
        try log.forEach(consider)
      } else {
        try Self.forEachBatch(
          inputs, task: .collapseWinners(keys), rules: rules,
          batchSize: configuration.batchSize, maxLineBytes: configuration.sweep.maxRecordBytes
        ) { batch throws(SystemError) in
          for entry in batch.collapseMarks { consider(entry) }
        }
      }
      rules.collapseWinners = winners
    }
    guard policy.hasKeep else { return }
    var groups: [KeyHash: CapGroup] = [:]
    try Self.forEachBatch(
      inputs, task: .capGroups, rules: rules, batchSize: configuration.batchSize,
      maxLineBytes: configuration.sweep.maxRecordBytes
    ) { batch throws(SystemError) in
      for (group, mark, keep) in batch.capMarks {
        groups[group, default: CapGroup()].insert(mark, keep: keep)
      }
    }
    var thresholds: [KeyHash: Mark] = [:]
    for (group, cap) in groups where cap.total > cap.heap.count {
      thresholds[group] = cap.heap[0]
    }
    rules.capThresholds = thresholds
  }

  /// The survey, then the sweep: every line is kept (a run of the batch's bytes, written as it
  /// was) or removed (its archive line, when the driver is archiving, to the batch's `gone`).
  /// Batches of lines are decided by worker threads (two, or none on one core) and handed to
  /// the driver in the order of the input.
  ///
  /// From a pipe, when no rule has `keep`, the lines before the first that may have a
  /// `collapse_id` are swept first, as they come (`sweepPrefixes`): no later record can
  /// change their fate, and they are neither surveyed nor copied.
  mutating func sweep(_ inputs: [SweepInput], _ driver: inout SweepDriver) throws(SystemError) {
    let streamed = policy.hasKeep ? 0 : try sweepPrefixes(inputs, &driver)
    try survey(inputs, &driver)
    try sweepPass(inputs, &driver)
    for (index, input) in inputs.enumerated() where input.isPipe {
      driver.sayIfVerbose(pipeNote(input, streamed: index < streamed))
    }
  }

  /// Sweeps the first lines of the inputs that are pipes, in order, as they come: those before
  /// the first line that may have a `collapse_id`, or that is longer than
  /// `--max-record-bytes`. A record without a `collapse_id` is decided by its own times and
  /// its category's rule alone, when no rule has `keep`. Stops at the first input that is no
  /// pipe, or whose prefix stopped before its end; returns the number of inputs it read.
  private mutating func sweepPrefixes(
    _ inputs: [SweepInput], _ driver: inout SweepDriver
  ) throws(SystemError) -> Int {
    var read = 0
    for input in inputs {
      guard input.isPipe else { break }
      input.beginPrefix(
        maxLineBytes: configuration.sweep.maxRecordBytes,
        stop: ExpireDecider.firstLineThatMayHaveCollapseID)
      try sweepPass([input], &driver)
      read += 1
      if input.prefixStopped { break }
    }
    // What was decided goes on now, not when the rest of the pipe has come.
    if read > 0 { try driver.flushStandardOutput() }
    return read
  }

  /// The `--verbose` line of a pipe: what was written as it came, and where the rest waited
  /// for the end of the input.
  private func pipeNote(_ input: SweepInput, streamed: Bool) -> String {
    func lines(_ first: Int, _ last: Int) -> String {
      first == last ? "line \(first)" : "lines \(first)-\(last)"
    }
    let total = input.lineCount
    let first = input.resume.line
    let place: String
    if let copied = input.copied {
      place =
        "\(copied.bytes) bytes in \(copied.inMemory ? "memory" : "a temporary file")"
    } else {
      place = "nothing kept"
    }
    let name = Diagnostic.visible(input.name)
    if streamed && !input.prefixStopped {
      return "\(name): wrote its \(total) lines as they came: none has a collapse_id"
    }
    let waited = first > total ? "no line" : lines(first, total)
    let why: String
    if policy.hasKeep {
      why = "a keep rule weighs every record"
    } else if streamed {
      why = "line \(first) may have a collapse_id"
    } else {
      why = "an input before it waited"
    }
    let wrote = streamed && first > 1 ? "wrote \(lines(1, first - 1)) as they came; " : ""
    return "\(name): \(wrote)\(waited) waited for the end (\(why)), \(place)"
  }

  /// One sweep pass over `inputs`, each from where the passes begin.
  private mutating func sweepPass(
    _ inputs: [SweepInput], _ driver: inout SweepDriver
  ) throws(SystemError) {
    var byteOrderMark: Int64 = 0
    let sizes = inputs.map(\.byteCount)
    driver.startProgress(
      totalBytes: sizes.contains(nil) ? nil : sizes.reduce(0) { $0 + ($1 ?? 0) })
    try Self.forEachBatch(
      inputs,
      task: .sweep(
        archiving: driver.archiving,
        quarantining: driver.quarantining),
      rules: rules,
      batchSize: configuration.batchSize, maxLineBytes: configuration.sweep.maxRecordBytes
    ) { batch throws(SystemError) in
      if batch.byteOrderMark > 0 { byteOrderMark = batch.byteOrderMark }
      try emit(batch, byteOrderMark: byteOrderMark, &driver)
    } longLine: { part throws(SystemError) in
      if part.byteOrderMark > 0 { byteOrderMark = part.byteOrderMark }
      try emit(part, byteOrderMark: byteOrderMark, &driver)
    }
  }

  /// Reads the inputs in batches of whole lines, has the workers (two, or none on one core:
  /// then this thread) do `task` on each, and calls `body` with each done batch, in the order
  /// of the input. Memory stays a few batches, and a line longer than `maxLineBytes`: such a
  /// line is no record, and goes to `longLine` in parts as it is read (after every batch
  /// before it went to `body`), never held whole.
  ///
  /// - Complexity: O(n) in the bytes read, whatever the length of the lines.
  private static func forEachBatch(
    _ inputs: [SweepInput], task: SweepTask, rules: ExpireRules, batchSize: Int,
    maxLineBytes: Int = .max, _ body: (SweepBatch) throws(SystemError) -> Void,
    longLine: (LongLinePart) throws(SystemError) -> Void = { _ in }
  ) throws(SystemError) {
    let jobs = OrderedJobs<SweepBatch, ExpireDecider>(
      threads: sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 ? 2 : 0, depth: Self.batchesInFlight,
      makeWorker: { _ in ExpireDecider(rules: rules) },
      work: { batch, decider in batch.process(with: &decider) })
    func fresh() -> SweepBatch {
      guard let batch = jobs.reusable() else {
        return SweepBatch(capacity: batchSize + 4096, task: task)
      }
      batch.reset()
      return batch
    }
    var ordinal = 1
    for input in inputs {
      try input.rewind()
      var unread = input.length
      var fileOffset = input.resume.offset
      var lineNumber = input.resume.line
      var atStart = fileOffset == 0
      var eof = false
      var byteOrderMark: Int64 = 0
      var next = fresh()
      next.maxLineBytes = maxLineBytes
      // The first bytes of `next` known to hold no line feed: searched once, not again.
      var searched = 0
      while true {
        while !eof && next.count < batchSize {
          if try input.read(into: next, limit: batchSize, unread: &unread) == 0 {
            eof = true
          }
        }
        if atStart && (next.count >= 3 || eof) {
          atStart = false
          if next.count >= 3 && next.bytes.load(as: UInt8.self) == 0xEF
            && next.bytes.load(fromByteOffset: 1, as: UInt8.self) == 0xBB
            && next.bytes.load(fromByteOffset: 2, as: UInt8.self) == 0xBF
          {
            next.dropFirst(3)
            fileOffset = 3
            next.byteOrderMark = 3
            byteOrderMark = 3
          }
        }
        if next.count == 0 && eof { break }
        var cut = next.count
        while cut > searched && next.bytes.load(fromByteOffset: cut - 1, as: UInt8.self) != 0x0A {
          cut -= 1
        }
        if cut == searched { cut = 0 }
        if cut == 0 && next.count > maxLineBytes {
          // A line too long to hold: the batches before it first, then the line in parts.
          try jobs.finish(then: body)
          let (length, endsWithLineFeed) = try streamLongLine(
            next, input, &unread, &eof, batchSize: batchSize,
            LongLinePart(
              fileName: input.name, line: lineNumber, fileOffset: fileOffset,
              ordinal: ordinal, byteOrderMark: byteOrderMark,
              bytes: UnsafeRawBufferPointer(start: nil, count: 0),
              isFirst: true, isLast: false), longLine)
          fileOffset += length + (endsWithLineFeed ? 1 : 0)
          lineNumber += 1
          ordinal += 1
          searched = 0
          continue
        }
        var fileBytes = cut
        if cut == 0 || (eof && cut < next.count) {
          if !eof {
            // One line longer than a batch: read on until it ends.
            searched = next.count
            if try input.read(into: next, limit: batchSize, unread: &unread) == 0 {
              eof = true
            }
            continue
          }
          // The last line has no newline: it gets one.
          fileBytes = next.count
          let newline: [UInt8] = [0x0A]
          newline.withUnsafeBytes { next.append($0) }
        }
        let rest = fresh()
        rest.maxLineBytes = maxLineBytes
        searched = 0
        if fileBytes == cut {
          rest.append(UnsafeRawBufferPointer(start: next.bytes + cut, count: next.count - cut))
          next.truncate(to: cut)
        }
        next.fileOffset = fileOffset
        next.fileBytes = fileBytes
        next.fileName = input.name
        fileOffset += Int64(fileBytes)
        next.findLines()
        next.firstOrdinal = ordinal
        next.firstLine = lineNumber
        ordinal += next.lineCount
        lineNumber += next.lineCount
        try jobs.submit(next, then: body)
        if rest.count == 0 && eof {
          jobs.putBack(rest)
          break
        }
        next = rest
      }
      input.passEnded(line: lineNumber, offset: fileOffset)
    }
    try jobs.finish(then: body)
  }

  /// A part of a line longer than `--max-record-bytes`, as `forEachBatch` reads it.
  struct LongLinePart {
    /// The input's name, the line's number in it, where it starts there, and its ordinal in
    /// the whole input.
    var fileName: String
    var line: Int
    var fileOffset: Int64
    var ordinal: Int
    /// 3 if a byte order mark was dropped at the start of the input, else 0.
    var byteOrderMark: Int64
    /// The part's bytes (never the line feed), valid during the call.
    var bytes: UnsafeRawBufferPointer
    /// Whether this is the line's first part, and its last.
    var isFirst: Bool
    var isLast: Bool
  }

  /// Hands the long line that `batch` begins (all of it so far, no line feed) to `longLine`
  /// part by part, reading on until the line ends; leaves in `batch` what follows the line.
  /// Returns the line's length and whether a line feed ended it (else the input did).
  private static func streamLongLine(
    _ batch: SweepBatch, _ input: SweepInput, _ unread: inout Int64, _ eof: inout Bool,
    batchSize: Int, _ start: LongLinePart, _ longLine: (LongLinePart) throws(SystemError) -> Void
  ) throws(SystemError) -> (length: Int64, endsWithLineFeed: Bool) {
    var part = start
    var length: Int64 = 0
    while true {
      let hit = memchr(batch.bytes, 0x0A, batch.count)
      let count = hit.map { batch.bytes.distance(to: $0) } ?? batch.count
      part.bytes = UnsafeRawBufferPointer(start: batch.bytes, count: count)
      part.isLast = hit != nil || eof
      try longLine(part)
      part.isFirst = false
      length += Int64(count)
      if hit != nil {
        batch.dropFirst(count + 1)
        return (length, true)
      }
      batch.truncate(to: 0)
      if eof { return (length, false) }
      if try input.read(into: batch, limit: batchSize, unread: &unread) == 0 {
        eof = true
      }
    }
  }

  /// Reports a line longer than `--max-record-bytes` at its first part, and hands its parts to
  /// the driver as they come: as they are where kept lines go (in place, before the first
  /// change, nothing: the prefix copy takes them), or with `--quarantine` as its quarantine
  /// entry, in base64.
  private mutating func emit(
    _ part: LongLinePart, byteOrderMark: Int64, _ driver: inout SweepDriver
  ) throws(SystemError) {
    if part.isFirst {
      records += 1
      let message = configuration.sweep.tooLongMessage
      driver.report(
        SweepDriver.notARecord(
          "RecordTooLarge", message, file: part.fileName, line: part.line, column: 1,
          quarantineNote: driver.quarantining ? driver.quarantineNote : nil))
      if driver.quarantining {
        driver.tally.quarantined += 1
        if driver.awaitsFirstChange {
          try driver.copyPrefix(byteOrderMark..<max(byteOrderMark, part.fileOffset))
        }
        longEntry = QuarantineEntry.Streamed(
          number: part.line, code: "RecordTooLarge", reason: message, into: &longEntryBytes)
      } else {
        driver.tally.kept += 1
        driver.raiseStatus(to: .rejected)
      }
    }
    bytesDone += Int64(part.bytes.count)
    if longEntry != nil {
      var from = 0
      while from < part.bytes.count {
        let to = min(part.bytes.count, from + 96 * 1024)
        longEntry?.append(
          UnsafeRawBufferPointer(rebasing: part.bytes[from..<to]), into: &longEntryBytes)
        if longEntryBytes.count >= 128 * 1024 {
          try driver.writeQuarantined(longEntryBytes)
          longEntryBytes.removeAll()
        }
        from = to
      }
      if part.isLast {
        longEntry?.finish(into: &longEntryBytes)
        longEntry = nil
        try driver.writeQuarantined(longEntryBytes)
        longEntryBytes.removeAll()
      }
    } else if !driver.awaitsFirstChange {
      try driver.writeKept(part.bytes)
      if part.isLast {
        var newline = ByteBuffer(capacity: 1)
        newline.append(UInt8(ascii: "\n"))
        try driver.writeKept(newline)
      }
    }
    driver.showProgress(records: records, bytes: bytesDone)
  }

  /// Reports a decided batch's findings and hands its lines to the driver. In place, before
  /// the first removal, its kept lines are not written: the driver copies them at the first
  /// removal, as the prefix of the store before it.
  private mutating func emit(
    _ batch: SweepBatch, byteOrderMark: Int64, _ driver: inout SweepDriver
  ) throws(SystemError) {
    for (line, finding) in batch.findings {
      if let category = finding.category, !warnedCategories.insert(category).inserted { continue }
      guard finding.severity == .error else {
        driver.report(
          Diagnostic(
            finding.severity, finding.code, finding.message, file: batch.fileName, line: line,
            column: finding.column))
        continue
      }
      // A line that is not a record: kept (status 1), or moved to the quarantine file.
      if !finding.quarantined { driver.raiseStatus(to: .rejected) }
      driver.report(
        SweepDriver.notARecord(
          finding.code, finding.message, file: batch.fileName, line: line,
          column: finding.column, quarantineNote: finding.quarantined ? driver.quarantineNote : nil)
      )
    }
    records += batch.lineCount
    bytesDone += Int64(batch.fileBytes)
    driver.tally.add(batch.tally)
    var keptFrom = 0
    if driver.awaitsFirstChange, let first = batch.firstRemoval {
      try driver.copyPrefix(byteOrderMark..<max(byteOrderMark, batch.fileOffset + Int64(first)))
      keptFrom = first
    }
    if !driver.awaitsFirstChange {
      try batch.forEachKeptRun(from: keptFrom) { run throws(SystemError) in
        try driver.writeKept(run)
      }
      try driver.writeChanges(batch.gone)
      try driver.writeArchived(batch.gone)
      try driver.writeQuarantined(batch.quarantined)
    }
    driver.showProgress(records: records, bytes: bytesDone)
  }
}
