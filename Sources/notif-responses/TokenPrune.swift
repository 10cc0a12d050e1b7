import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep

/// The tokens the answers said to prune, each with the latest time a service knew it gone
/// (APNs's timestamp, else the run's `--now`).
struct PruneCandidates {
  private(set) var goneAt: [[UInt8]: Timestamp] = [:]

  mutating func add(_ token: [UInt8], goneAt time: Timestamp) {
    if let known = goneAt[token], known >= time { return }
    goneAt[token] = time
  }
}

/// `--prune FILE`: the sweep of a token file that removes the tokens the push services said
/// are gone, in place, under the same lock, journal and atomic rewrite as notif-expire's and
/// notif-mark's (`SweepDriver`), each removed line appended to the archive.
///
/// The decision is taken under the lock, from the registrations as they are then, not as
/// they were when the answers were read: a first pass reads the token file (and the `--tokens`
/// file, when it is another one, under its own lock, taken second and held until the new
/// token file is in place). A token is pruned only when no line registers it after the
/// service knew it gone, and no line of it has a registration time that cannot be read; the
/// second pass removes every line of each pruned token, and keeps every other line as it is.
///
/// A token file holds one token a line, in either form `TokenLine` reads. Blank lines, and
/// lines that are neither form, are kept as they are: a token file is the sender's, and only
/// what is surely a pruned token leaves it.
struct TokenPrune: ~Copyable, SweepPasses {
  private let candidates: PruneCandidates
  /// `--tokens`, when it names another file than `--prune`.
  private let tokensFile: String?
  private let now: Timestamp
  private let monotonicClock: () -> Double
  private var parser = JSONParser()
  /// The tokens decided at the first pass.
  private var pruned: Set<[UInt8]> = []
  /// How many candidates were kept, and why.
  private(set) var keptRegistered = 0
  private(set) var keptUnreadable = 0
  /// The `--tokens` file's lock, held from the first pass until the prune is done.
  private var tokensLock: StoreLock?

  init(
    candidates: PruneCandidates, tokensFile: String?, now: Timestamp,
    monotonicClock: @escaping () -> Double
  ) {
    self.candidates = candidates
    self.tokensFile = tokensFile
    self.now = now
    self.monotonicClock = monotonicClock
  }

  typealias Input = (fd: Int32, name: String, length: Int64)

  mutating func open(_ files: [String], _ driver: inout SweepDriver) -> [Input] { [] }

  func input(store fd: Int32, name: String, length: Int64) -> Input { (fd, name, length) }

  func close(_ inputs: [Input]) {}

  mutating func sweep(_ inputs: [Input], _ driver: inout SweepDriver) throws(SystemError) {
    for input in inputs {
      let start = lseek(input.fd, 0, SEEK_CUR)
      guard start >= 0 else {
        throw SystemError(path: input.name, doing: "cannot read", errno: errno)
      }
      guard try decide(input, &driver) else { continue }
      guard lseek(input.fd, start, SEEK_SET) == start else {
        throw SystemError(path: input.name, doing: "cannot read again", errno: errno)
      }
      try pass(input, &driver)
    }
  }

  mutating func afterCommit(_ driver: inout SweepDriver) throws(SystemError) {
    tokensLock = nil
  }

  // MARK: - The decision

  /// The first pass: reads the registrations of the candidates as they are under the locks
  /// and decides which are pruned; says which are kept and why. Returns whether any line may
  /// go (else the file is not read again).
  private mutating func decide(_ input: Input, _ driver: inout SweepDriver)
    throws(SystemError) -> Bool
  {
    guard !candidates.goneAt.isEmpty else {
      // Nothing to prune: the file is read only for the count of --verbose.
      if driver.options.verbose { driver.tally.kept = try Self.countLines(input, &driver) }
      return false
    }
    var registry = TokenRegistry()
    // Every line stays unless the second pass removes it, which counts them again.
    driver.tally.kept = try readRegistrations(
      fd: input.fd, name: input.name, length: input.length, into: &registry, &driver)
    if let tokensFile {
      do throws(StoreLockError) {
        tokensLock = try StoreLock(
          store: tokensFile, wait: driver.options.wait, monotonicClock: monotonicClock)
      } catch {
        switch error {
        case .held(let path):
          // As for the token file's own lock: status 75, and cron tries again later.
          driver.report(StoreSession.lockedDiagnostic(lockPath: path))
          driver.raiseStatus(to: .locked)
          return false
        case .system(let error): throw error
        }
      }
      let input = try InputFile(operand: tokensFile)
      _ = try readRegistrations(
        fd: input.fd, name: input.name, length: .max, into: &registry, &driver)
    }
    for (token, goneAt) in candidates.goneAt {
      if registry.hasUnreadableTime(token) {
        keptUnreadable += 1
      } else if let registered = registry.registeredAt(token), registered > goneAt {
        keptRegistered += 1
      } else {
        pruned.insert(token)
      }
    }
    reportKept(input.name, &driver)
    if !pruned.isEmpty { driver.tally.kept = 0 }
    return !pruned.isEmpty
  }

  /// The lines of the token file, read to their end.
  private static func countLines(_ input: Input, _ driver: inout SweepDriver)
    throws(SystemError) -> Int
  {
    var reader = LineReader(
      fd: input.fd, name: input.name, length: input.length,
      maxLineBytes: driver.options.maxRecordBytes)
    driver.startProgress(totalBytes: input.length)
    while try reader.next() != nil { showProgress(reader, &driver) }
    return reader.lineNumber
  }

  /// Shows how far a pass has come, every 4096 lines.
  private static func showProgress(_ reader: borrowing LineReader, _ driver: inout SweepDriver) {
    if reader.lineNumber & 4095 == 0 {
      driver.showProgress(records: reader.lineNumber, bytes: reader.bytesRead)
    }
  }

  /// Takes in the registrations of the candidates that the file at `fd` gives; says where a
  /// candidate's registration time cannot be read. Returns the number of lines read.
  private mutating func readRegistrations(
    fd: Int32, name: String, length: Int64, into registry: inout TokenRegistry,
    _ driver: inout SweepDriver
  ) throws(SystemError) -> Int {
    var reader = LineReader(
      fd: fd, name: name, length: length, maxLineBytes: driver.options.maxRecordBytes)
    driver.startProgress(totalBytes: length != .max ? length : InputFile.bytesLeft(in: fd))
    while let line = try reader.next() {
      Self.showProgress(reader, &driver)
      guard !reader.isOverlong else { continue }  // too long to be a token
      let read = TokenLine.read(line, parser: &parser)
      switch read {
      case .token(let token, _):
        guard candidates.goneAt[token] != nil else { continue }
        registry.add(read)
      case .unreadableTime(let token, let why):
        guard candidates.goneAt[token] != nil else { continue }
        registry.add(read)
        driver.report(
          Diagnostic(
            .warning, "BadToken", "\(why): the token is kept", file: name,
            line: reader.lineNumber))
      case .blank, .other: continue
      }
    }
    return reader.lineNumber
  }

  /// The note that answers the records that said `prune_token` for a token kept here.
  private func reportKept(_ file: String, _ driver: inout SweepDriver) {
    let kept = keptRegistered + keptUnreadable
    guard kept > 0 else { return }
    var why: [String] = []
    if keptRegistered > 0 { why.append("\(keptRegistered) registered again since the answer") }
    if keptUnreadable > 0 {
      why.append("\(keptUnreadable) with a registration time that cannot be read")
    }
    driver.report(
      Diagnostic(
        .note, "TokensKept",
        "kept \(kept) token\(kept == 1 ? "" : "s") the records say to prune: "
          + why.joined(separator: ", "), file: file))
  }

  // MARK: - The rewrite

  /// Whether `line` is a line of a pruned token.
  private mutating func prunes(_ line: UnsafeRawBufferPointer) -> Bool {
    switch TokenLine.read(line, parser: &parser) {
    case .token(let token, _), .unreadableTime(let token, _): return pruned.contains(token)
    case .blank, .other: return false
    }
  }

  /// Reads every line of the token file once: a kept line goes where kept lines go; a pruned
  /// one to the archive, as its JSON object with `removed_at` and `removed_reason` (a line of
  /// the plain form as `{"token":...}`, with `registered_at` where it has a time). Nothing is
  /// written before the first pruned line: a file where nothing is pruned is read and never
  /// written.
  private mutating func pass(_ input: Input, _ driver: inout SweepDriver) throws(SystemError) {
    var kept = ByteBuffer(capacity: 160 * 1024)
    var gone = ByteBuffer(capacity: 16 * 1024)
    var reader = LineReader(
      fd: input.fd, name: input.name, length: input.length,
      maxLineBytes: driver.options.maxRecordBytes)
    var pending = driver.awaitsFirstChange
    var prefixEnd: Int64 = 0
    driver.startProgress(totalBytes: input.length)
    while let line = try reader.next() {
      Self.showProgress(reader, &driver)
      if reader.isOverlong {
        // Too long to be a token: kept as it is, part by part.
        driver.tally.kept += 1
        if pending {
          while try reader.nextPart() != nil {}
          prefixEnd = reader.bytesRead
          continue
        }
        try driver.keepOverlong(line, rest: &reader, after: &kept)
        continue
      }
      guard prunes(line) else {
        driver.tally.kept += 1
        if pending {
          prefixEnd = reader.bytesRead
        } else {
          kept.append(line)
          kept.append(UInt8(ascii: "\n"))
        }
        continue
      }
      driver.tally.remove(for: .pruned)
      if pending {
        pending = false
        let start = reader.byteOrderMarkLength
        try driver.copyPrefix(start..<max(start, prefixEnd))
      }
      let text = LineReader.trimmed(line)
      var entry = ByteBuffer(capacity: 256)
      if text[0] == UInt8(ascii: "{") {
        ArchiveEntry.write(
          record: text, isEmptyObject: false, removedAt: now, reason: .pruned, into: &entry)
      } else {
        var record = ByteBuffer(capacity: text.count + 32)
        let fields = text.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
        record.append("{\"token\":\"")
        JSONEscapes.appendEscaped(UnsafeRawBufferPointer(rebasing: fields[0]), into: &record)
        record.append(UInt8(ascii: "\""))
        if fields.count > 1 {
          // Whole seconds as a JSON number, an RFC 3339 time as a string.
          let time = UnsafeRawBufferPointer(rebasing: fields[1])
          record.append(",\"registered_at\":")
          if time.allSatisfy({ $0 &- UInt8(ascii: "0") <= 9 }) {
            record.append(time)
          } else {
            record.append(UInt8(ascii: "\""))
            JSONEscapes.appendEscaped(time, into: &record)
            record.append(UInt8(ascii: "\""))
          }
        }
        record.append(UInt8(ascii: "}"))
        record.withUnsafeBytes {
          ArchiveEntry.write(
            record: $0, isEmptyObject: false, removedAt: now, reason: .pruned, into: &entry)
        }
      }
      if driver.dryRun {
        try driver.writeChanges(entry)
      } else {
        entry.withUnsafeBytes { gone.append($0) }
      }
      if kept.count + gone.count >= 128 * 1024 {
        try driver.writeKept(kept)
        try driver.writeArchived(gone)
        kept.removeAll()
        gone.removeAll()
      }
    }
    try driver.writeKept(kept)
    try driver.writeArchived(gone)
  }
}
