import NotifCLI
import NotifJSON
import NotifModel
import NotifPush
import NotifSweep

/// `--fix`, `--unsafe-fixes` and `--diff`: what notif-parse repairs in the files it checks,
/// as ruff's `--fix` does, with ruff's two tiers. A rule whose row of the book has a `fix`
/// offers a repair with each finding (`Finding.Fix`): `safe` where it keeps what the device
/// does, `unsafe` where it changes it toward what the author evidently meant.
///
/// Each repair is the smallest edit at the finding's place; every other byte of the file is
/// kept (formatting, key order, line endings). A file changed is replaced as a sweep replaces
/// a store (`StoreRewrite`): a new file beside it with its mode (and for root its owner),
/// synced, renamed over it, its links followed; a file that changed while it was read is left
/// alone. Standard input goes to standard output, changed or not. Then the diagnostics of
/// what remains are reported, as `--check` would give them, on standard error.
struct FixRun {
  enum Mode: Equatable, Sendable {
    /// `--fix`: rewrite the files.
    case write
    /// `--diff`: write a unified diff of the repairs to standard output; change nothing.
    case diff
  }

  let configuration: ParseCommand.Configuration
  /// A processor made with the run's registry and rules, copied for each pass.
  let processor: RecordProcessor
  private var tally = Tally()
  private var repaired = 0
  private var filesChanged = 0

  init(configuration: ParseCommand.Configuration, processor: RecordProcessor) {
    self.configuration = configuration
    self.processor = processor
  }

  /// The safeties the command line asks to repair.
  var safeties: Set<FixSafety> { configuration.unsafeFixes ? [.safe, .unsafe] : [.safe] }

  mutating func execute(
    reporter: inout Reporter, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    let mode = configuration.fix ?? .write
    var status = ExitStatus.success
    for file in configuration.files {
      guard let input = InputFile.openOrReport(file, reporter: &reporter, &stderr) else {
        status = max(status, .failure)
        continue
      }
      do throws(SystemError) {
        let bytes: [UInt8]
        do throws(WholeFileError) {
          bytes = try readWhole(fd: input.fd, path: input.name, limit: .max)
        } catch {
          throw error.systemError
        }
        var gathering = processor
        gathering.fixing = safeties
        _ = Self.check(bytes, name: input.name, with: &gathering, configuration)
        let edits = Self.edits(gathering.fixes)
        let fixed = Self.apply(edits, to: bytes)
        repaired += edits.count
        if !edits.isEmpty { filesChanged += 1 }
        switch mode {
        case .diff:
          if !edits.isEmpty {
            try stdout.write(Self.unifiedDiff(bytes, fixed, name: input.name))
            status = max(status, .rejected)
          }
        case .write:
          if file == "-" {
            try stdout.write(ByteBuffer(fixed))
          } else if !edits.isEmpty {
            try Self.replace(file, opened: input.fd, read: bytes.count, with: fixed)
          }
          var remaining = processor
          let (found, counted) = Self.check(
            fixed, name: input.name, with: &remaining, configuration)
          if let unread = found.unreadInput { reporter.report(unread, &stderr) }
          for diagnostic in found.list { reporter.report(diagnostic, &stderr) }
          tally.add(counted)
        }
      } catch {
        status = max(status, reporter.reportFailedWrite(error, &stderr))
      }
    }
    do {
      try stdout.flush()
    } catch {
      status = max(status, reporter.reportFailedWrite(error, &stderr))
    }
    if mode == .write {
      if configuration.reporting.verbose {
        let remain = tally.errors + tally.warnings
        reporter.say(
          "fixed \(repaired) \(repaired == 1 ? "problem" : "problems") in \(filesChanged) "
            + "\(filesChanged == 1 ? "file" : "files"); \(remain) "
            + "\(remain == 1 ? "remains" : "remain")", &stderr)
      }
      status = max(status, tally.status)
    }
    reporter.finish(&stderr)
    return status
  }

  // MARK: - The passes

  /// Reads `bytes` as the input `name` through `processor`, as `--check` reads it: its
  /// diagnostics and counts (and, when the processor is `fixing`, its repairs, in it).
  static func check(
    _ bytes: [UInt8], name: String, with processor: inout RecordProcessor,
    _ configuration: ParseCommand.Configuration
  ) -> (FoundDiagnostics, Tally) {
    var results = ChunkResults(out: ByteBuffer(capacity: 64))
    bytes.withUnsafeBytes { raw in
      var reader = RecordReader(
        borrowing: raw, name: name, maxRecordBytes: configuration.maxRecordBytes, line: 1,
        atStreamStart: true)
      RecordProcessor.readAll(&reader, with: &processor, into: &results)
    }
    return (results.found, results.tally)
  }

  /// The repairs of `findings` in the order of the input, without those that overlap one
  /// before them or would add a line (a repair changes values, never lines).
  static func edits(_ findings: [Finding]) -> [Finding.Fix] {
    var edits: [Finding.Fix] = []
    for fix in findings.compactMap(\.fix).sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) })
    where fix.start >= (edits.last?.end ?? 0) && fix.start <= fix.end
      && !fix.replacement.utf8.contains(0x0A)
    {
      edits.append(fix)
    }
    return edits
  }

  /// `bytes` with `edits` (sorted, apart, inside them) made.
  static func apply(_ edits: [Finding.Fix], to bytes: [UInt8]) -> [UInt8] {
    guard !edits.isEmpty else { return bytes }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var copied = 0
    for edit in edits where edit.end <= bytes.count {
      out += bytes[copied..<edit.start]
      out += Array(edit.replacement.utf8)
      copied = edit.end
    }
    out += bytes[copied...]
    return out
  }

  // MARK: - Files

  /// Replaces the file `path` (its links followed), which `fd` has open and of which `read`
  /// bytes were read, with `bytes`, as a sweep replaces a store.
  ///
  /// - Throws: `SystemError` when it is not a regular file, changed since it was read, or the
  ///   new file cannot be made, written or renamed over it (which then is left as it was).
  static func replace(_ path: String, opened fd: Int32, read: Int, with bytes: [UInt8])
    throws(SystemError)
  {
    let target = FileIdentity.followingLinks(path) ?? path
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw SystemError(path: path, message: "cannot fix in place: not a regular file")
    }
    var rewrite = StoreRewrite(
      store: target, storeStatus: status, archive: nil, pid: getpid())
    do throws(SystemError) {
      try rewrite.start(copying: 0..<0, from: fd)
      try rewrite.writeKept(ByteBuffer(bytes))
      // A writer that changed the file since it was read would lose its change.
      var now = stat()
      guard fstat(fd, &now) == 0, Int(now.st_size) == read,
        now.st_mtim.tv_sec == status.st_mtim.tv_sec,
        now.st_mtim.tv_nsec == status.st_mtim.tv_nsec,
        stat(target, &now) == 0, now.st_ino == status.st_ino
      else {
        throw SystemError(
          path: path, message: "changed while it was being fixed: left as it is; run again")
      }
      try rewrite.commit()
    } catch {
      rewrite.abandon()
      throw error
    }
  }

  // MARK: - The diff

  /// A unified diff (as `diff -u` writes one, three lines of context) from `old` to `new`,
  /// which have the same lines but for the repaired ones, for `patch -p0`.
  static func unifiedDiff(_ old: [UInt8], _ new: [UInt8], name: String) -> String {
    let before = lines(old)
    let after = lines(new)
    guard before.count == after.count else { return "" }
    let changed = before.indices.filter { before[$0] != after[$0] }
    guard !changed.isEmpty else { return "" }
    var out = "--- \(name)\n+++ \(name)\n"
    var index = 0
    while index < changed.count {
      // A hunk: the changed lines closer than twice the context, with the context around.
      var last = index
      while last + 1 < changed.count && changed[last + 1] - changed[last] <= 6 { last += 1 }
      let first = max(0, changed[index] - 3)
      let end = min(before.count, changed[last] + 4)
      out += "@@ -\(range(first, end)) +\(range(first, end)) @@\n"
      var line = first
      while line < end {
        guard before[line] != after[line] else {
          out += " " + text(before[line])
          line += 1
          continue
        }
        // A run of changed lines: the old ones, then the new ones, as diff -u writes them.
        var runEnd = line
        while runEnd < end && before[runEnd] != after[runEnd] { runEnd += 1 }
        for changed in line..<runEnd { out += "-" + text(before[changed]) }
        for changed in line..<runEnd { out += "+" + text(after[changed]) }
        line = runEnd
      }
      index = last + 1
    }
    return out
  }

  /// The lines of `bytes`, each with its line feed (the last may have none).
  private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
    var lines: [ArraySlice<UInt8>] = []
    var start = 0
    for (offset, byte) in bytes.enumerated() where byte == 0x0A {
      lines.append(bytes[start...offset])
      start = offset + 1
    }
    if start < bytes.count { lines.append(bytes[start...]) }
    return lines
  }

  /// A line of the diff: its bytes, and where the file ends without a line feed the marker
  /// `diff` writes.
  private static func text(_ line: ArraySlice<UInt8>) -> String {
    let body = String(decoding: line, as: UTF8.self)
    return line.last == 0x0A ? body : body + "\n\\ No newline at end of file\n"
  }

  /// `L,N` of a hunk of lines `first..<end` (0-based), as `diff -u` numbers them.
  private static func range(_ first: Int, _ end: Int) -> String {
    end - first == 1 ? "\(first + 1)" : "\(first + 1),\(end - first)"
  }
}
