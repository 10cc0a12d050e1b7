import NotifModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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

/// What the sweep does with one record.
enum Verdict: Equatable {
  case keep
  case remove(RemovalReason)
}

/// One run of notif-expire: the passes over the input, the decisions, the output.
struct ExpireRun: ~Copyable {
  let configuration: ExpireCommand.Configuration
  let policy: ExpirePolicy
  let environment: ExpireCommand.Environment
  private var parser = RecordLineParser()
  private var status = ExitStatus.success
  private var warnedCategories: Set<[UInt8]> = []
  /// The fingerprints of every (app, collapse_id), to find those with more than one record.
  private var repeatedCollapseKeys = FingerprintSet()
  /// Per (app, collapse_id) with more than one record: the record that stays.
  private(set) var collapseWinners: [KeyHash: Mark] = [:]
  /// Per cap group with more than `keep` records: the oldest record that stays.
  private(set) var capThresholds: [KeyHash: Mark] = [:]
  private var key: [UInt8] = []
  private(set) var removed = 0
  private(set) var records = 0
  private var meter: ProgressMeter? = nil

  init(
    configuration: ExpireCommand.Configuration, policy: ExpirePolicy,
    environment: ExpireCommand.Environment
  ) {
    self.configuration = configuration
    self.policy = policy
    self.environment = environment
    key.reserveCapacity(256)
  }

  /// Stops the run: a failed read or write, reported by `execute`.
  struct Stop: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    do throws(Stop) {
      if let store = configuration.store {
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
    for file in configuration.files {
      do {
        inputs.append(
          try SweepInput.open(file, temporaryDirectory: environment.temporaryDirectory))
      } catch {
        status = max(status, .failure)
        report(Diagnostic(.error, "Unreadable", error.message, file: error.path), &stderr)
      }
    }
    var archiveFD: Int32 = -1
    if let archive = configuration.archive, !configuration.dryRun {
      archiveFD = open(archive, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
      guard archiveFD >= 0 else {
        throw Stop(
          error: SystemError(path: archive, doing: "cannot open the archive", errno: errno))
      }
    }
    defer { if archiveFD >= 0 { close(archiveFD) } }
    var archive = OutputWriter(fd: archiveFD, name: configuration.archive ?? "")
    try survey(inputs, &stderr)
    let dryRun = configuration.dryRun
    let archiving = archiveFD >= 0
    try sweep(inputs, &stderr) { kept, gone throws(SystemError) in
      if dryRun {
        try stdout.write(gone)
      } else {
        try stdout.write(kept)
        if archiving { try archive.write(gone) }
      }
    }
    do {
      try stdout.flush()
    } catch {
      throw Stop(error: error)
    }
    if archiving {
      do {
        try archive.flush()
      } catch {
        throw Stop(error: error)
      }
      if fsync(archiveFD) != 0 && errno != EINVAL {
        throw Stop(
          error: SystemError(
            path: configuration.archive ?? "", doing: "cannot sync the archive", errno: errno))
      }
    }
  }

  private mutating func sweepStore(
    _ store: String, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(Stop) {
    let lock: StoreLock
    do {
      lock = try StoreLock(
        store: store, wait: configuration.wait, monotonicClock: environment.monotonicClock)
    } catch {
      switch error {
      case .held(let path):
        report(
          Diagnostic(.error, "Locked", "another sweep or appender holds the lock", file: path),
          &stderr)
        status = .locked
        return
      case .system(let failure):
        throw Stop(error: failure)
      }
    }
    do throws(Stop) {
      try sweepLocked(store, stdout: &stdout, stderr: &stderr)
    } catch {
      lock.release()
      throw error
    }
    lock.release()
  }

  private mutating func sweepLocked(
    _ store: String, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(Stop) {
    if !configuration.dryRun {
      do {
        for warning in try StoreRewrite.recover(store: store) {
          report(Diagnostic(.warning, "Recovered", warning, file: store), &stderr)
        }
      } catch {
        throw Stop(error: error)
      }
    }
    let fd = open(store, O_RDONLY | O_CLOEXEC)
    var storeStatus = stat()
    guard fd >= 0, fstat(fd, &storeStatus) == 0 else {
      throw Stop(error: SystemError(path: store, doing: "cannot open the store", errno: errno))
    }
    defer { close(fd) }
    let inputs = [SweepInput.file(fd, name: store)]
    try survey(inputs, &stderr)
    if configuration.dryRun {
      try sweep(inputs, &stderr) { _, gone throws(SystemError) in try stdout.write(gone) }
      do {
        try stdout.flush()
      } catch {
        throw Stop(error: error)
      }
      return
    }
    var rewrite = StoreRewrite(
      store: store, storeStatus: storeStatus, archive: configuration.archive, pid: environment.pid)
    do throws(Stop) {
      try sweep(inputs, &stderr) { prefix throws(SystemError) in
        try rewrite.start(copying: prefix, from: fd)
      } flush: { kept, gone throws(SystemError) in
        guard rewrite.isStarted else { return }
        try rewrite.writeKept(kept)
        try rewrite.writeArchived(gone)
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

  /// The passes before the sweep: which records collapse (a byte search finds the records
  /// with a collapse_id, and only those are parsed; a second such pass runs only when some
  /// collapse key repeats), then, when a rule has `keep`, the newest records of each cap group.
  private mutating func survey(_ inputs: [SweepInput], _ stderr: inout OutputWriter) throws(Stop) {
    // Collapse, first pass: a fingerprint per (app, collapse_id), to find those that repeat.
    try Self.forEachLine(inputs) { line, _ in
      guard Self.mayHaveCollapseID(line), parser.parse(line) == .record else { return }
      let record = parser.record
      guard !record.isNull(.collapseID), case .time = record.time(.createdAt) else { return }
      setCollapseKey(record)
      repeatedCollapseKeys.insert(FingerprintSet.fingerprint(key))
    }
    // Second pass, only if some repeat: the record that stays, for each key that repeats.
    if repeatedCollapseKeys.repeatedCount > 0 {
      // Sized once: a table that doubles holds both sizes at its peak.
      collapseWinners.reserveCapacity(repeatedCollapseKeys.repeatedCount)
      try Self.forEachLine(inputs) { line, ordinal in
        guard Self.mayHaveCollapseID(line), parser.parse(line) == .record else { return }
        let record = parser.record
        guard !record.isNull(.collapseID), case .time(let created) = record.time(.createdAt)
        else { return }
        setCollapseKey(record)
        guard repeatedCollapseKeys.isRepeated(FingerprintSet.fingerprint(key)) else { return }
        let mark = Mark(time: created, ordinal: ordinal)
        let hash = KeyHash(key)
        if let winner = collapseWinners[hash], !mark.replaces(winner) { return }
        collapseWinners[hash] = mark
      }
    }
    guard policy.hasKeep else { return }
    var groups: [KeyHash: CapGroup] = [:]
    try Self.forEachLine(inputs) { line, ordinal in
      guard parser.parse(line) == .record else { return }
      let record = parser.record
      guard let rule = policy.rule(for: record), let keep = rule.keep,
        case .time(let created) = record.time(.createdAt)
      else { return }
      let mark = Mark(time: created, ordinal: ordinal)
      guard !isCollapsed(record, mark), expiry(record, rule: rule, created: created) == nil else {
        return
      }
      setCapKey(record, rule)
      groups[KeyHash(key), default: CapGroup()].insert(mark, keep: keep)
    }
    for (group, cap) in groups where cap.total > cap.heap.count {
      capThresholds[group] = cap.heap[0]
    }
  }

  /// Calls `body` with every line of every input and its ordinal (counted across inputs).
  private static func forEachLine(
    _ inputs: [SweepInput],
    _ body: (UnsafeRawBufferPointer, Int) throws(Stop) -> Void
  ) throws(Stop) {
    var ordinal = 0
    for input in inputs {
      var reader = LineReader(fd: input.fd, name: input.name)
      do {
        try input.rewind()
      } catch {
        throw Stop(error: error)
      }
      while true {
        let next: UnsafeRawBufferPointer?
        do {
          next = try reader.next()
        } catch {
          throw Stop(error: error)
        }
        guard let line = next else { break }
        ordinal += 1
        try body(line, ordinal)
      }
    }
  }

  /// The sweep: every line is kept (written to the first buffer as it was) or removed (its
  /// archive line written to the second); `flush` takes both buffers when they fill up.
  ///
  /// With `begin`, kept lines before the first removal are not written: `begin` gets their
  /// byte range in the (single) input at the first removal, to copy them as they are; so a
  /// store where nothing is removed is read and never written.
  private mutating func sweep(
    _ inputs: [SweepInput], _ stderr: inout OutputWriter,
    begin: ((_ prefix: Range<Int64>) throws(SystemError) -> Void)? = nil,
    flush: (_ kept: ByteBuffer, _ removed: ByteBuffer) throws(SystemError) -> Void
  ) throws(Stop) {
    var pending = begin != nil
    var prefixEnd: Int64 = 0
    var kept = ByteBuffer(capacity: 160 * 1024)
    var gone = ByteBuffer(capacity: 160 * 1024)
    var ordinal = 0
    var bytesBefore: Int64 = 0
    if configuration.progress { meter = ProgressMeter(start: environment.monotonicClock()) }
    for input in inputs {
      var reader = LineReader(fd: input.fd, name: input.name)
      do {
        try input.rewind()
      } catch {
        throw Stop(error: error)
      }
      while true {
        let next: UnsafeRawBufferPointer?
        do {
          next = try reader.next()
        } catch {
          throw Stop(error: error)
        }
        guard let line = next else { break }
        ordinal += 1
        do {
          switch decide(line, ordinal: ordinal, reader.lineNumber, input.name, &stderr) {
          case .keep:
            if pending {
              prefixEnd = reader.bytesRead
            } else {
              kept.append(line)
              kept.append(UInt8(ascii: "\n"))
            }
          case .remove(let reason):
            if pending, let begin {
              pending = false
              let start = reader.byteOrderMarkLength
              try begin(start..<max(start, prefixEnd))
            }
            removed += 1
            let text = UnsafeRawBufferPointer(rebasing: line[parser.textRange])
            ArchiveEntry.write(
              record: text, isEmptyObject: parser.record.json.tokens[0].count == 0,
              removedAt: configuration.now, reason: reason, into: &gone)
          }
          if kept.count + gone.count >= 128 * 1024 {
            try flush(kept, gone)
            kept.removeAll()
            gone.removeAll()
          }
        } catch {
          throw Stop(error: error)
        }
        if ordinal & 0xFFFF == 0, meter != nil {
          showProgress(records: ordinal, bytes: bytesBefore + reader.bytesRead, &stderr)
        }
      }
      bytesBefore += reader.bytesRead
    }
    do {
      try flush(kept, gone)
    } catch {
      throw Stop(error: error)
    }
    records = ordinal
  }

  // MARK: - Decisions

  /// What to do with one line: keep it (blank lines too) or remove it. A line that is not a
  /// valid record is reported and kept.
  private mutating func decide(
    _ line: UnsafeRawBufferPointer, ordinal: Int, _ lineNumber: Int, _ file: String,
    _ stderr: inout OutputWriter
  ) -> Verdict {
    switch parser.parse(line) {
    case .blank:
      return .keep
    case .failed(let error):
      reject(error.code.rawValue, error.message, line, at: error.offset, lineNumber, file, &stderr)
      return .keep
    case .record:
      break
    }
    let record = parser.record
    let problem: (String, Int)? = {
      guard case .time = record.time(.createdAt) else {
        let at = record.index(.createdAt).map {
          record.textOffset + Int(record.json.tokens[$0].start)
        }
        return ("created_at is missing or not an RFC 3339 time", at ?? record.textOffset)
      }
      for field in Self.ownTimes where record.isInvalidTime(field) {
        let index = record.index(field) ?? 0
        return (
          "\(field.key) is not an RFC 3339 time or null",
          record.textOffset + Int(record.json.tokens[index].start)
        )
      }
      if record.isInvalidTime(.readAt) {
        let index = record.index(.readAt) ?? 0
        return (
          "read_at is not an RFC 3339 time or null",
          record.textOffset + Int(record.json.tokens[index].start)
        )
      }
      return nil
    }()
    if let (message, offset) = problem {
      reject("BadRecord", message, line, at: offset, lineNumber, file, &stderr)
      return .keep
    }
    guard case .time(let created) = record.time(.createdAt) else { return .keep }
    let rule = policy.rule(for: record)
    if rule == nil {
      warnNoRule(record, line, lineNumber, file, &stderr)
    }
    let mark = Mark(time: created, ordinal: ordinal)
    if isCollapsed(record, mark) { return .remove(.collapsed) }
    if let reason = expiry(record, rule: rule, created: created) { return .remove(reason) }
    if let rule, rule.keep != nil, !capThresholds.isEmpty {
      setCapKey(record, rule)
      if let threshold = capThresholds[KeyHash(key)], mark.isWorse(than: threshold) {
        return .remove(.overCap)
      }
    }
    return .keep
  }

  /// Sets `key` to the cap group of a record: its app, its thread and its rule.
  private mutating func setCapKey(_ record: RecordView, _ rule: ExpireRule) {
    key.removeAll(keepingCapacity: true)
    record.appendKeyPart(.app, to: &key)
    record.appendKeyPart(.threadID, to: &key)
    key.append(UInt8(truncatingIfNeeded: rule.number))
    key.append(UInt8(truncatingIfNeeded: rule.number >> 8))
    key.append(UInt8(truncatingIfNeeded: rule.number >> 16))
  }

  private mutating func isCollapsed(_ record: RecordView, _ mark: Mark) -> Bool {
    guard !collapseWinners.isEmpty, !record.isNull(.collapseID) else { return false }
    setCollapseKey(record)
    guard let winner = collapseWinners[KeyHash(key)] else { return false }
    return winner != mark
  }

  /// Sets `key` to the collapse key of a record: its app and its collapse_id.
  private mutating func setCollapseKey(_ record: RecordView) {
    key.removeAll(keepingCapacity: true)
    record.appendKeyPart(.app, to: &key)
    record.appendKeyPart(.collapseID, to: &key)
  }

  /// Why the record has expired at `now`, or nil: its deadline is the earliest of
  /// created_at + ttl, read_at + read_ttl (once read), expires_at, stale_at and dismiss_at,
  /// and it has expired when now is at or after the deadline.
  func expiry(_ record: RecordView, rule: ExpireRule?, created: Timestamp) -> RemovalReason? {
    let now = configuration.now
    var deadline = Timestamp.maximum
    var reason = RemovalReason.expired
    if let ttl = rule?.ttl {
      deadline = Self.adding(ttl, to: created)
    }
    if let readTTL = rule?.readTTL, case .time(let read) = record.time(.readAt) {
      let readDeadline = Self.adding(readTTL, to: read)
      if readDeadline < deadline {
        deadline = readDeadline
        reason = .readExpired
      }
    }
    for field in Self.ownTimes {
      if case .time(let own) = record.time(field), own < deadline {
        deadline = own
        reason = .expired
      }
    }
    return now >= deadline ? reason : nil
  }

  /// A record's own deadlines: APNs expiration, Live Activity stale and dismissal dates.
  static let ownTimes: [RecordField] = [.expiresAt, .staleAt, .dismissAt]

  static func adding(_ seconds: Int64, to time: Timestamp) -> Timestamp {
    let (sum, overflow) = time.seconds.addingReportingOverflow(seconds)
    return overflow ? .maximum : Timestamp(seconds: sum, nanoseconds: time.nanoseconds)
  }

  /// Whether a line may hold a non-null `collapse_id`: it has the bytes `collapse_id"` other
  /// than as `"collapse_id":null`. Only such lines are parsed by the collapse survey.
  static func mayHaveCollapseID(_ line: UnsafeRawBufferPointer) -> Bool {
    guard let base = line.baseAddress else { return false }
    let needle: StaticString = "collapse_id\""
    let null: StaticString = ":null"
    let length = needle.utf8CodeUnitCount
    var from = 0
    // memchr for the rarer last letter's neighbour would be faster; 'c' is rare enough in keys.
    while from + length <= line.count, let hit = memchr(base + from, 0x63, line.count - from) {
      let at = base.distance(to: UnsafeRawPointer(hit))
      from = at + 1
      guard at + length <= line.count, memcmp(base + at, needle.utf8Start, length) == 0 else {
        continue
      }
      let after = at + length
      if after + 5 > line.count || memcmp(base + after, null.utf8Start, 5) != 0 {
        return true
      }
      from = after + 5
    }
    return false
  }

  // MARK: - Reports

  private mutating func warnNoRule(
    _ record: RecordView, _ line: UnsafeRawBufferPointer, _ lineNumber: Int, _ file: String,
    _ stderr: inout OutputWriter
  ) {
    var name: [UInt8] = []
    record.appendKeyPart(.category, to: &name)
    guard warnedCategories.insert(name).inserted else { return }
    let category = record.index(.category).flatMap { record.json.stringValue($0) }
    let message =
      category.map { "category '\($0)' has no rule and the policy no default: kept" }
      ?? "records without a category have no rule and the policy no default: kept"
    let offset = record.index(.category).map {
      record.textOffset + Int(record.json.tokens[$0].start)
    }
    let column = Self.column(line, offset ?? record.textOffset)
    report(
      Diagnostic(.warning, "NoRule", message, file: file, line: lineNumber, column: column), &stderr
    )
  }

  private mutating func reject(
    _ code: String, _ message: String, _ line: UnsafeRawBufferPointer, at offset: Int,
    _ lineNumber: Int, _ file: String, _ stderr: inout OutputWriter
  ) {
    status = max(status, .rejected)
    report(
      Diagnostic(
        .error, code, message + " (kept as it is)", file: file, line: lineNumber,
        column: Self.column(line, offset)), &stderr)
  }

  /// The 1-based column, in Unicode scalars, of a byte offset within a line.
  static func column(_ line: UnsafeRawBufferPointer, _ offset: Int) -> Int {
    var column = 1
    for i in 0..<min(offset, line.count) where line[i] & 0xC0 != 0x80 {
      column += 1
    }
    return column
  }

  private mutating func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    endProgress(&stderr)
    try? stderr.write(DiagnosticFormat.text.render(diagnostic, program: ExpireCommand.name))
    try? stderr.flush()
  }

  private mutating func showProgress(records: Int, bytes: Int64, _ stderr: inout OutputWriter) {
    guard var meter,
      let text = meter.update(records: records, bytes: bytes, now: environment.monotonicClock())
    else { return }
    self.meter = meter
    try? stderr.write("\r\(ExpireCommand.name): \(text)\u{1B}[K")
    try? stderr.flush()
  }

  private mutating func endProgress(_ stderr: inout OutputWriter) {
    guard let meter, meter.shown else { return }
    self.meter = ProgressMeter(start: environment.monotonicClock())
    try? stderr.write("\r\u{1B}[K")
    try? stderr.flush()
  }
}
