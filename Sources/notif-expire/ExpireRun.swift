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

/// One run of notif-expire: the passes over the input, the decisions, the output.
struct ExpireRun: ~Copyable {
  let configuration: ExpireCommand.Configuration
  let policy: ExpirePolicy
  let environment: ToolEnvironment
  let rules: ExpireRules
  private var status = ExitStatus.success
  private var warnedCategories: Set<[UInt8]> = []
  private(set) var removed = 0
  private(set) var records = 0
  private var bytesDone: Int64 = 0
  private var progressLine = ProgressLine(program: ExpireCommand.name)

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

  /// Stops the run: a failed read or write, reported by `execute`.
  struct Stop: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    do throws(Stop) {
      if let store = configuration.sweep.store {
        try sweepStore(store, stdout: &stdout, stderr: &stderr)
      } else {
        try sweepStream(stdout: &stdout, stderr: &stderr)
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

  private mutating func sweepStream(stdout: inout OutputWriter, stderr: inout OutputWriter)
    throws(Stop)
  {
    var inputs: [SweepInput] = []
    defer { for input in inputs { input.close() } }
    for file in configuration.sweep.files {
      do {
        inputs.append(
          try SweepInput.open(file, temporaryDirectory: environment.temporaryDirectory))
      } catch {
        status = max(status, .failure)
        report(Diagnostic(.error, "Unreadable", error.message, file: error.path), &stderr)
      }
    }
    var archive: StreamArchive
    do {
      archive = try StreamArchive(options: configuration.sweep)
    } catch {
      throw Stop(error: error)
    }
    try survey(inputs, &stderr)
    let dryRun = configuration.sweep.dryRun
    try sweep(inputs, &stderr, archiving: dryRun || archive.isOpen) {
      batch, _ throws(SystemError) in
      if dryRun {
        try stdout.write(batch.gone)
      } else {
        try batch.forEachKeptRun { run throws(SystemError) in try stdout.write(run) }
        try archive.write(batch.gone)
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
  private mutating func sweepStore(
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
    let inputs = [SweepInput.file(fd, name: store)]
    try survey(inputs, &stderr)
    if configuration.sweep.dryRun {
      try sweep(inputs, &stderr, archiving: true) { batch, _ throws(SystemError) in
        try stdout.write(batch.gone)
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
      try sweep(inputs, &stderr, archiving: configuration.sweep.archive != nil) {
        prefix throws(SystemError) in
        try rewrite.start(copying: prefix, from: fd)
      } flush: { batch, keptFrom throws(SystemError) in
        guard rewrite.isStarted else { return }
        try batch.forEachKeptRun(from: keptFrom) { run throws(SystemError) in
          try rewrite.writeKept(run, newline: false)
        }
        try rewrite.writeArchived(batch.gone)
      }
      guard removed > 0 else { return }
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
  private mutating func survey(_ inputs: [SweepInput], _ stderr: inout OutputWriter) throws(Stop) {
    var keys = FingerprintSet()
    var log = CollapseLog(
      temporaryDirectory: environment.temporaryDirectory,
      memoryLimit: configuration.collapseLogMemoryLimit)
    try Self.forEachBatch(
      inputs, task: .collapseKeys, rules: rules, batchSize: configuration.batchSize
    ) { batch throws(Stop) in
      for entry in batch.collapseMarks {
        keys.insert(entry.key.fingerprint)
        log.append(entry)
      }
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
        do {
          try log.forEach(consider)
        } catch {
          throw Stop(error: error)
        }
      } else {
        try Self.forEachBatch(
          inputs, task: .collapseWinners(keys), rules: rules, batchSize: configuration.batchSize
        ) { batch throws(Stop) in
          for entry in batch.collapseMarks { consider(entry) }
        }
      }
      rules.collapseWinners = winners
    }
    guard policy.hasKeep else { return }
    var groups: [KeyHash: CapGroup] = [:]
    try Self.forEachBatch(
      inputs, task: .capGroups, rules: rules, batchSize: configuration.batchSize
    ) { batch throws(Stop) in
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

  /// The sweep: every line is kept (a run of the batch's bytes, written as it was) or removed
  /// (with `archiving`, its archive line goes to the batch's `gone`); `flush` takes each batch,
  /// in the order of the input, and the offset in it from which its kept runs are to be
  /// written. Batches of lines are decided by worker threads (two, or none on one
  /// core) and written in order.
  ///
  /// With `begin`, kept lines before the first removal are not written: `begin` gets their
  /// byte range in the (single) input at the first removal, to copy them as they are; so a
  /// store where nothing is removed is read and never written.
  private mutating func sweep(
    _ inputs: [SweepInput], _ stderr: inout OutputWriter, archiving: Bool,
    begin: ((_ prefix: Range<Int64>) throws(SystemError) -> Void)? = nil,
    flush: (_ batch: SweepBatch, _ keptFrom: Int) throws(SystemError) -> Void
  ) throws(Stop) {
    var progress = SweepProgress(pending: begin != nil)
    if configuration.sweep.progress { progressLine.start(now: environment.monotonicClock()) }
    try Self.forEachBatch(
      inputs, task: .sweep(archiving: archiving), rules: rules, batchSize: configuration.batchSize
    ) { batch throws(Stop) in
      if batch.byteOrderMark > 0 { progress.byteOrderMark = batch.byteOrderMark }
      try emit(batch, &progress, &stderr, begin: begin, flush: flush)
    }
  }

  /// Reads the inputs in batches of whole lines, has the workers (two, or none on one core:
  /// then this thread) do `task` on each, and calls `body` with each done batch, in the order
  /// of the input. Memory stays a few batches.
  private static func forEachBatch(
    _ inputs: [SweepInput], task: SweepTask, rules: ExpireRules, batchSize: Int,
    _ body: (SweepBatch) throws(Stop) -> Void
  ) throws(Stop) {
    let processors = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    let pool = SweepPool(workers: processors > 1 ? 2 : 0, rules: rules)
    defer { pool.shutdown() }
    var inline = ExpireDecider(rules: rules)
    var inFlight: [SweepBatch] = []
    var spare: [SweepBatch] = []
    func fresh() -> SweepBatch {
      guard let batch = spare.popLast() else {
        return SweepBatch(capacity: batchSize + 4096, task: task)
      }
      batch.reset()
      return batch
    }
    var ordinal = 1
    for input in inputs {
      do {
        try input.rewind()
      } catch {
        throw Stop(error: error)
      }
      var fileOffset: Int64 = 0
      var lineNumber = 1
      var atStart = true
      var eof = false
      var next = fresh()
      while true {
        do {
          while !eof && next.count < batchSize {
            if try next.read(from: input.fd, name: input.name, limit: batchSize) == 0 {
              eof = true
            }
          }
        } catch {
          throw Stop(error: error)
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
          }
        }
        if next.count == 0 && eof { break }
        var cut = next.count
        while cut > 0 && next.bytes.load(fromByteOffset: cut - 1, as: UInt8.self) != 0x0A {
          cut -= 1
        }
        var fileBytes = cut
        let rest = fresh()
        if cut == 0 || (eof && cut < next.count) {
          if !eof {
            // One line longer than a batch: read on until it ends.
            do {
              if try next.read(from: input.fd, name: input.name, limit: batchSize) == 0 {
                eof = true
              }
            } catch {
              throw Stop(error: error)
            }
            continue
          }
          // The last line has no newline: it gets one.
          fileBytes = next.count
          let newline: [UInt8] = [0x0A]
          newline.withUnsafeBytes { next.append($0) }
        } else {
          rest.append(UnsafeRawBufferPointer(start: next.bytes + cut, count: next.count - cut))
          next.truncate(to: cut)
        }
        next.fileOffset = fileOffset
        next.fileBytes = fileBytes
        next.fileName = input.name
        fileOffset += Int64(fileBytes)
        next.lineCount = Self.countLines(next)
        next.firstOrdinal = ordinal
        next.firstLine = lineNumber
        ordinal += next.lineCount
        lineNumber += next.lineCount
        if pool.hasWorkers {
          pool.submit(next)
          inFlight.append(next)
          if inFlight.count >= Self.batchesInFlight {
            let batch = inFlight.removeFirst()
            pool.wait(for: batch)
            try body(batch)
            spare.append(batch)
          }
        } else {
          next.process(with: &inline)
          try body(next)
          spare.append(next)
        }
        if rest.count == 0 && eof {
          spare.append(rest)
          break
        }
        next = rest
      }
    }
    for batch in inFlight {
      pool.wait(for: batch)
      try body(batch)
    }
  }

  /// Where the sweep is, between batches.
  struct SweepProgress {
    /// Nothing removed yet, and the caller copies the unchanged prefix itself.
    var pending: Bool
    var byteOrderMark: Int64 = 0
  }

  static func countLines(_ batch: SweepBatch) -> Int {
    var lines = 0
    var start = 0
    while start < batch.count, let hit = memchr(batch.bytes + start, 0x0A, batch.count - start) {
      lines += 1
      start = batch.bytes.distance(to: hit) + 1
    }
    return lines
  }

  /// Reports a decided batch's findings and hands its output on.
  private mutating func emit(
    _ batch: SweepBatch, _ progress: inout SweepProgress, _ stderr: inout OutputWriter,
    begin: ((_ prefix: Range<Int64>) throws(SystemError) -> Void)?,
    flush: (_ batch: SweepBatch, _ keptFrom: Int) throws(SystemError) -> Void
  ) throws(Stop) {
    for (line, finding) in batch.findings {
      if let category = finding.category, !warnedCategories.insert(category).inserted { continue }
      if finding.severity == .error { status = max(status, .rejected) }
      report(
        Diagnostic(
          finding.severity, finding.code, finding.message, file: batch.fileName, line: line,
          column: finding.column), &stderr)
    }
    removed += batch.removed
    records += batch.lineCount
    bytesDone += Int64(batch.fileBytes)
    do {
      if progress.pending {
        if let first = batch.firstRemoval, let begin {
          progress.pending = false
          let start = progress.byteOrderMark
          try begin(start..<max(start, batch.fileOffset + Int64(first)))
          // The kept lines before the first removal are in the prefix `begin` copied.
          try flush(batch, first)
        }
      } else {
        try flush(batch, 0)
      }
    } catch {
      throw Stop(error: error)
    }
    if progressLine.isStarted {
      progressLine.update(
        records: records, bytes: bytesDone, now: environment.monotonicClock, &stderr)
    }
  }

  // MARK: - Reports

  private mutating func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    progressLine.report(diagnostic, now: environment.monotonicClock, &stderr)
  }

  private mutating func endProgress(_ stderr: inout OutputWriter) {
    progressLine.clear(now: environment.monotonicClock, &stderr)
  }
}
