import NotifModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of notif-parse over its inputs: reads, checks, writes, counts.
struct ParseRun {
  let configuration: ParseCommand.Configuration
  private var normalizer: APNsNormalizer
  private var lint: CopyLint?
  private var registry: CategoryRegistry?
  private var record = ByteBuffer(capacity: 16 * 1024)
  private var status = ExitStatus.success
  private var counts = (files: 0, records: 0, rejected: 0, errors: 0, warnings: 0)

  init(configuration: ParseCommand.Configuration) {
    self.configuration = configuration
    normalizer = APNsNormalizer(defaults: configuration.defaults)
    lint = configuration.lint ? CopyLint(appName: configuration.appName) : nil
  }

  /// A write to standard output failed: processing stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    do throws(OutputFailed) {
      if let path = configuration.categoriesPath {
        guard try loadRegistry(path, stdout: &stdout, stderr: &stderr) else { return .failure }
      }
      for file in configuration.files {
        try read(file, stdout: &stdout, stderr: &stderr)
      }
      if configuration.check {
        try emit(summaryLine(), stdout: &stdout)
      }
      do {
        try stdout.flush()
      } catch {
        throw OutputFailed(error: error)
      }
    } catch {
      try? stderr.write("\(ParseCommand.name): \(error.error)\n")
      try? stderr.flush()
      return .failure
    }
    return status
  }

  // MARK: - Inputs

  private mutating func read(_ file: String, stdout: inout OutputWriter, stderr: inout OutputWriter)
    throws(OutputFailed)
  {
    let name = file == "-" ? "<stdin>" : file
    let fd = file == "-" ? STDIN_FILENO : open(file, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      let failure = SystemError(path: name, doing: "cannot open", errno: errno)
      try report(
        Diagnostic(.error, "Unreadable", failure.message, file: name), fatal: true, stdout: &stdout,
        stderr: &stderr)
      return
    }
    defer { if fd != STDIN_FILENO { close(fd) } }
    counts.files += 1
    var reader = RecordReader(fd: fd, name: name, maxRecordBytes: configuration.maxRecordBytes)
    while true {
      let event: RecordEvent
      do {
        event = try reader.next()
      } catch {
        try report(
          Diagnostic(.error, "Unreadable", error.message, file: name), fatal: true, stdout: &stdout,
          stderr: &stderr)
        return
      }
      switch event {
      case .end:
        return
      case .failure(let error, let line, let column):
        counts.records += 1
        counts.rejected += 1
        status = max(status, .rejected)
        try report(
          Diagnostic(
            .error, error.code.rawValue, error.message, file: name, line: line, column: column),
          stdout: &stdout, stderr: &stderr)
      case .record:
        counts.records += 1
        try process(&reader, stdout: &stdout, stderr: &stderr)
      }
    }
  }

  private mutating func process(
    _ reader: inout RecordReader, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) {
    let isCompact = reader.recordIsCompact
    let findings = reader.withRecord { view in
      normalizer.normalize(view, isCompact: isCompact)
      var findings = normalizer.findings
      guard !normalizer.rejected || configuration.check else { return findings }
      if let registry, case .input(let index) = normalizer.values[.category],
        let category = view.stringValue(index), registry[category] == nil
      {
        findings.append(
          .warning(
            "UnknownCategory",
            "category '\(category)' is not in the registry: iOS shows no actions and no custom summary",
            at: Int(view.tokens[index].start)))
      }
      if lint != nil {
        // Optional chaining mutates the lint in place: a copy would duplicate its memory of
        // every event seen, once per record.
        let values = normalizer.values
        let line = reader.recordLine
        findings +=
          lint?.check(values, view, file: reader.name, line: line) { field in
            if case .input(let index) = values[field] { return Int(view.tokens[index].start) }
            return 0
          } ?? []
      }
      let rejected = findings.contains { $0.severity == .error || configuration.strict }
      if !rejected && !configuration.check {
        record.removeAll()
        normalizer.writeRecord(view, into: &record)
      }
      return findings
    }
    let rejected = findings.contains { $0.severity == .error || configuration.strict }
    for finding in findings.sorted(by: { $0.offset < $1.offset }) {
      let at = reader.position(ofRecordOffset: finding.offset)
      try report(
        Diagnostic(
          finding.severity, finding.code, finding.message, file: reader.name, line: at.line,
          column: at.column),
        stdout: &stdout, stderr: &stderr)
    }
    if rejected {
      counts.rejected += 1
      status = max(status, .rejected)
    } else if !configuration.check {
      do {
        try stdout.write(record)
      } catch {
        throw OutputFailed(error: error)
      }
    }
  }

  // MARK: - The registry

  private mutating func loadRegistry(
    _ path: String, stdout: inout OutputWriter, stderr: inout OutputWriter
  )
    throws(OutputFailed) -> Bool
  {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      let failure = SystemError(path: path, doing: "cannot open", errno: errno)
      try report(
        Diagnostic(.error, "BadRegistry", failure.message, file: path), fatal: true,
        stdout: &stdout, stderr: &stderr)
      return false
    }
    defer { close(fd) }
    var reader = RecordReader(fd: fd, name: path, maxRecordBytes: 64 << 20)
    var problem: Diagnostic? = nil
    do {
      switch try reader.next() {
      case .end:
        problem = Diagnostic(.error, "BadRegistry", "the category registry is empty", file: path)
      case .failure(let error, let line, let column):
        problem = Diagnostic(
          .error, error.code.rawValue, error.message, file: path, line: line, column: column)
      case .record:
        let loaded: Result<CategoryRegistry, CategoryRegistry.FormatError> = reader.withRecord {
          view in
          do throws(CategoryRegistry.FormatError) {
            return .success(try CategoryRegistry(view))
          } catch {
            return .failure(error)
          }
        }
        switch loaded {
        case .success(let registry):
          self.registry = registry
          if try reader.next() != .end {
            problem = Diagnostic(
              .error, "BadRegistry", "a category registry is one JSON object; more text follows it",
              file: path, line: reader.recordLine)
          }
        case .failure(let error):
          let at = reader.position(ofRecordOffset: error.offset)
          problem = Diagnostic(
            .error, "BadRegistry", error.message, file: path, line: at.line, column: at.column)
        }
      }
    } catch {
      problem = Diagnostic(.error, "BadRegistry", error.message, file: path)
    }
    if let problem {
      try report(problem, fatal: true, stdout: &stdout, stderr: &stderr)
      return false
    }
    if let registry {
      for finding in CopyLint.check(registry) {
        let at = reader.position(ofRecordOffset: finding.offset)
        try report(
          Diagnostic(
            finding.severity, finding.code, finding.message, file: path, line: at.line,
            column: at.column),
          stdout: &stdout, stderr: &stderr)
      }
    }
    return true
  }

  // MARK: - Output

  /// Writes a diagnostic: with --check to standard output, where the report is the output;
  /// else to standard error, flushed at once so it shows while the run goes on.
  private mutating func report(
    _ diagnostic: Diagnostic, fatal: Bool = false, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) throws(OutputFailed) {
    if fatal { status = max(status, .failure) }
    switch diagnostic.severity {
    case .error: counts.errors += 1
    case .warning: counts.warnings += 1
    }
    let line = configuration.format.render(diagnostic, program: ParseCommand.name)
    if configuration.check && !fatal {
      try emit(line, stdout: &stdout)
    } else {
      // A failed write to standard error cannot be reported anywhere: it does not stop the run.
      try? stderr.write(line)
      try? stderr.flush()
    }
  }

  private func emit(_ text: String, stdout: inout OutputWriter) throws(OutputFailed) {
    do {
      try stdout.write(text)
    } catch {
      throw OutputFailed(error: error)
    }
  }

  private func summaryLine() -> String {
    func plural(_ count: Int, _ word: String) -> String {
      "\(count) \(word)\(count == 1 ? "" : "s")"
    }
    let accepted = counts.records - counts.rejected
    switch configuration.format {
    case .json:
      return "{\"files\":\(counts.files),\"records\":\(counts.records),\"accepted\":\(accepted),"
        + "\"rejected\":\(counts.rejected),\"errors\":\(counts.errors),\"warnings\":\(counts.warnings)}\n"
    case .text, .github:
      return
        "\(ParseCommand.name): \(plural(counts.records, "record")) in \(plural(counts.files, "file")): "
        + "\(accepted) accepted, \(counts.rejected) rejected; \(plural(counts.errors, "error")), "
        + "\(plural(counts.warnings, "warning"))\n"
    }
  }
}
