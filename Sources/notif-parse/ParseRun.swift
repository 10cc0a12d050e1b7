import NotifCLI
import NotifCategories
import NotifJSON
import NotifLocalization
import NotifModel
import NotifSweep

/// One run of notif-parse over its inputs: reads, checks, writes, counts.
///
/// A regular file larger than one chunk, or a pipe, is read in chunks cut after line feeds
/// (`FileChunks`), which worker threads (`--jobs`) turn into records while the next are read;
/// their results are written in input order, so the output is the same as from one thread. A
/// pipe's chunk also ends where the pipe pauses, and what is ready is then written out. A chunk
/// that does not end between texts (a pretty-printed text cut in two, an error at the cut)
/// shows that the guess was wrong: the rest of that input is then read by one reader, from that
/// chunk on.
///
/// Every diagnostic goes through one `Reporter`, on this thread, in input order: the workers
/// keep theirs as values (`FoundDiagnostics`), so `--max-errors` shows the same ones whatever
/// `--jobs` is. The progress line (`--progress`) is shown from here too: after each chunk
/// written, and with one reader every few thousand records, where the input pauses and at
/// its end.
struct ParseRun: ToolRun {
  let configuration: ParseCommand.Configuration
  /// The size of a chunk: the bytes read at once and handed to a worker. Tests make it small.
  let chunkSize: Int
  private var registry: CategoryRegistry?
  private var processor: RecordProcessor?  // made once the registry is loaded
  /// The rules checked: `--select`, `--ignore` and the configuration file's.
  private var selection = RuleSelection()
  private var workers: ChunkWorkers?  // started with the first file split in chunks
  private var chunks: [FileChunk<ChunkResults>] = []
  /// With `--store`: where the records go instead of standard output (not in a dry run).
  private var store: StoreAppender?
  /// What the run writes on standard error, and with `--check` the diagnostics on standard
  /// output.
  private var reporter: Reporter
  private var out = ByteBuffer(capacity: 16 * 1024)
  /// The diagnostics of the text one reader just read.
  private var found = FoundDiagnostics()
  /// The lines written to standard error at once, for the diagnostics of a text or a chunk.
  private var err = ByteBuffer(capacity: 1024)
  private var tally = Tally()
  private var files = 0
  /// For progress: the bytes of the inputs read before the current one, and of the current
  /// one before the reader that reads it now (the chunks taken before one reader took over).
  private var bytesBefore: Int64 = 0
  private var inputBytes = 0
  /// For progress with one reader: the record count at which it is shown next; never when
  /// progress is off, so the loop over texts pays one comparison.
  private var progressDue = Int.max
  private let monotonicClock: () -> Double
  private let started: Double
  /// Chunks whose results were written, and times one reader took over: for tests.
  private(set) var chunkCounts = (written: 0, fallBacks: 0)

  static let defaultChunkSize = 128 * 1024

  /// How many records one reader reads between two looks at the progress line.
  static let progressRecords = 4096

  /// A run as `configuration` says, in chunks of the default size.
  init(configuration: ParseCommand.Configuration, environment: ToolEnvironment) {
    self.init(
      configuration: configuration, chunkSize: ParseRun.defaultChunkSize,
      environment: environment)
  }

  /// A run as `configuration` says; `environment` gives the monotonic clock (for the store's
  /// batches, progress and `--verbose`) and what `Reporter` needs of standard error.
  init(
    configuration: ParseCommand.Configuration, chunkSize: Int = ParseRun.defaultChunkSize,
    environment: ToolEnvironment = ToolEnvironment()
  ) {
    self.configuration = configuration
    self.chunkSize = max(chunkSize, 1)
    monotonicClock = environment.monotonicClock
    started = monotonicClock()
    reporter = Reporter(
      program: ParseCommand.name, options: configuration.reporting, environment: environment)
    if let path = configuration.storePath, !configuration.dryRun {
      store = StoreAppender(store: path, monotonicClock: monotonicClock)
    }
  }

  /// A write to standard output failed: processing stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    defer { workers?.shutdown() }
    if let topic = configuration.explain {
      return explain(topic, stdout: &stdout, stderr: &stderr)
    }
    if configuration.reporting.progress {
      reporter.startProgress(totalBytes: InputFile.totalBytes(of: configuration.files))
      if reporter.showsProgress { progressDue = Self.progressRecords }
    }
    do throws(OutputFailed) {
      guard try loadSelection(stdout: &stdout, stderr: &stderr),
        try configuration.categoriesPath.map({ path throws(OutputFailed) in
          try loadRegistry(path, stdout: &stdout, stderr: &stderr)
        }) ?? true
      else {
        // With --check the last words are output too (the SARIF log, say).
        if configuration.check {
          try emit(reporter.closing(), stdout: &stdout)
          try flushOutput(&stdout)
        }
        reporter.finish(&stderr)
        return .failure
      }
      if configuration.fix != nil {
        // Every finding of every text, as --check reads them, and no record.
        var checking = configuration
        checking.check = true
        var run = FixRun(
          configuration: configuration,
          processor: RecordProcessor(
            configuration: checking, registry: registry, selection: selection))
        return run.execute(reporter: &reporter, stdout: &stdout, stderr: &stderr)
      }
      processor = RecordProcessor(
        configuration: configuration, registry: registry, selection: selection)
      for file in configuration.files {
        try read(file, stdout: &stdout, stderr: &stderr)
      }
      if configuration.check {
        // The diagnostics are the output: so is the line of those not shown, before the count,
        // or the SARIF log, which is the whole of it.
        try emit(reporter.closing(), stdout: &stdout)
        try emit(summaryLine(), stdout: &stdout)
      }
      try flushOutput(&stdout)
    } catch {
      let status = reporter.reportFailedWrite(error.error, &stderr)
      reporter.finish(&stderr)
      return status
    }
    if configuration.verbose, let path = configuration.storePath {
      reporter.say("\(Diagnostic.visible(path)): \(storeReport())", &stderr)
    }
    reporter.finish(&stderr)
    return tally.status
  }

  /// What `--verbose` says of the store: `appended 120 records (3 rejected), in 0.04 s`, or in
  /// a dry run `would append ...`; no rejected part when none was.
  private func storeReport() -> String {
    let appended = tally.records - tally.rejected
    let verb = configuration.dryRun ? "would append" : "appended"
    return "\(verb) \(appended) record\(appended == 1 ? "" : "s")"
      + (tally.rejected > 0 ? " (\(tally.rejected) rejected)" : "")
      + ", in \(SweepTally.duration(monotonicClock() - started))"
  }

  // MARK: - Inputs

  private mutating func read(_ file: String, stdout: inout OutputWriter, stderr: inout OutputWriter)
    throws(OutputFailed)
  {
    inputBytes = 0
    try readInput(file, stdout: &stdout, stderr: &stderr)
    bytesBefore += Int64(inputBytes)
    // Push services' answers were read as payloads: said once per input, naming the tool that
    // reads them. A warning that rejects nothing, even under --strict: each text is read as
    // the payload it also is.
    let name = file == "-" ? "<stdin>" : file
    let warnings = tally.wrongStage.diagnostics(
      file: name, severity: .warning, wanted: "a push message"
    ) { kind in kind == .pushResponse ? kind.readerAdvice(file: name) : nil }
    tally.wrongStage = WrongStageTally()
    for warning in warnings {
      try report(warning, stdout: &stdout, stderr: &stderr)
    }
  }

  private mutating func readInput(
    _ file: String, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) {
    guard let input = InputFile.openOrReport(file, reporter: &reporter, &stderr) else {
      // Reported on standard error even with --check, as every input that cannot be read.
      tally.status = max(tally.status, .failure)
      tally.errors += 1
      return
    }
    let (name, fd) = (input.name, input.fd)
    files += 1
    // A pipe's chunks end where the input pauses, so each record still comes out as its
    // payload arrives. --lint remembers every record seen, so one processor must see them all.
    let (worthChunks, isPipe) = FileChunks.suits(fd, chunkSize: chunkSize)
    guard configuration.jobs > 1 && !configuration.lint && worthChunks else {
      let reader = RecordReader(
        fd: fd, name: name, maxRecordBytes: configuration.maxRecordBytes, announcesIdle: true)
      return try read(reader, stdout: &stdout, stderr: &stderr)
    }
    // A pipe's first chunk is read before any thread starts: a pipe that ends within it is
    // read by one reader.
    let start = UnsafeMutableRawPointer.allocate(byteCount: isPipe ? chunkSize : 1, alignment: 16)
    defer { start.deallocate() }
    var (count, ended) = (0, false)
    if isPipe {
      (count, ended) = try FileChunks.readStart(fd, into: start, capacity: chunkSize) {
        () throws(OutputFailed) in try flushOutput(&stdout)
      }
    }
    let initial = UnsafeRawBufferPointer(start: start, count: count)
    if !ended, let workers = startWorkers() {
      return try readInChunks(
        fd, name: name, initial: initial, workers: workers, stdout: &stdout, stderr: &stderr)
    }
    let reader = RecordReader(
      fd: ended ? nil : fd, name: name, maxRecordBytes: configuration.maxRecordBytes,
      pending: initial, line: 1, atStreamStart: true, announcesIdle: true)
    try read(reader, stdout: &stdout, stderr: &stderr)
  }

  /// Reads the rest of an input with one reader.
  private mutating func read(
    _ reader: consuming RecordReader, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) {
    // Moved out and back, not copied: with --lint a copy would duplicate the memory of every
    // event seen at its first write.
    guard var processor else { return }
    self.processor = nil
    defer { self.processor = processor }
    while true {
      let event: RecordEvent
      do {
        event = try reader.next()
      } catch {
        try report(
          Diagnostic(.error, "Unreadable", error.message, file: reader.name), fatal: true,
          stdout: &stdout, stderr: &stderr)
        return
      }
      switch event {
      case .end:
        inputBytes += reader.recordOffset
        if reporter.showsProgress {
          reporter.showProgress(
            records: tally.records, bytes: bytesBefore + Int64(inputBytes), &stderr)
        }
        return
      case .idle:
        // Nothing more to read for now (a pipe, `tail -f`): what is ready goes out before the
        // wait, so each record comes out (or reaches the store) as its payload arrives.
        try flushOutput(&stdout)
        if reporter.showsProgress {
          reporter.showProgress(
            records: tally.records,
            bytes: bytesBefore + Int64(inputBytes + reader.recordOffset), &stderr)
        }
      default:
        processor.handle(event, of: reader, out: &out, found: &found, tally: &tally)
        if out.count > 0 {
          try Self.write(out, store: &store, stdout: &stdout)
          out.removeAll()
        }
        if !found.isEmpty {
          try report(found, stdout: &stdout, stderr: &stderr)
          found.removeAll()
        }
        if tally.records >= progressDue {
          progressDue = tally.records + Self.progressRecords
          reporter.showProgress(
            records: tally.records,
            bytes: bytesBefore + Int64(inputBytes + reader.recordOffset), &stderr)
        }
      }
    }
  }

  /// Writes out record lines: to standard output, or with `--store` to the store's batch.
  private static func write(
    _ out: ByteBuffer, store: inout StoreAppender?, stdout: inout OutputWriter
  ) throws(OutputFailed) {
    do {
      if store != nil {
        try store?.append(out)
      } else {
        try stdout.write(out)
      }
    } catch {
      throw OutputFailed(error: error)
    }
  }

  /// Reports the diagnostics a processor found, in order, through the reporter: those it
  /// admits (`--max-errors`) are written, with `--check` to standard output, where they are
  /// the output; else, and an input not read, to standard error at once, so they show while
  /// the run goes on.
  private mutating func report(
    _ found: FoundDiagnostics, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) {
    if let unread = found.unreadInput, reporter.admit(unread) {
      err.append(utf8: reporter.output(unread))
    }
    for diagnostic in found.list where reporter.admit(diagnostic) {
      if configuration.check {
        try emit(reporter.output(diagnostic), stdout: &stdout)
      } else {
        err.append(utf8: reporter.output(diagnostic))
      }
    }
    writeErr(&stderr)
  }

  /// Writes the lines gathered in `err` to standard error, the progress line cleared first,
  /// and empties it. A failed write to standard error cannot be reported anywhere: it does
  /// not stop the run.
  private mutating func writeErr(_ stderr: inout OutputWriter) {
    guard err.count > 0 else { return }
    reporter.clearProgress(&stderr)
    try? stderr.write(err)
    try? stderr.flush()
    err.removeAll()
  }

  // MARK: - Chunks

  /// Reads a regular file or a pipe in chunks that worker threads process (`FileChunks.read`),
  /// from the bytes `initial` already read, writing their results in input order, and
  /// flushing them where a pipe pauses. One reader takes over for the rest of the file from the
  /// first chunk that did not end between texts, or at a line longer than a chunk.
  private mutating func readInChunks(
    _ fd: Int32, name: String, initial: UnsafeRawBufferPointer, workers: ChunkWorkers,
    stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) {
    var number = 0  // the chunks' numbers, which notif-parse has no use for
    let outcome = try FileChunks.read(
      fd, name: name, maxRecordBytes: configuration.maxRecordBytes, ring: chunks,
      workers: workers, nextNumber: &number, initial: initial, announcesIdle: true,
      accept: { (chunk) throws(OutputFailed) in
        tally.add(chunk.results.tally)
        if chunk.results.out.count > 0 {
          try Self.write(chunk.results.out, store: &store, stdout: &stdout)
        }
        if !chunk.results.found.isEmpty {
          try report(chunk.results.found, stdout: &stdout, stderr: &stderr)
        }
        inputBytes = chunk.offset + chunk.count
        if reporter.showsProgress {
          reporter.showProgress(
            records: tally.records, bytes: bytesBefore + Int64(inputBytes), &stderr)
        }
      },
      idle: { () throws(OutputFailed) in try flushOutput(&stdout) },
      rest: { (reader, _) throws(OutputFailed) in
        try read(reader, stdout: &stdout, stderr: &stderr)
      })
    chunkCounts.written += outcome.accepted
    if outcome.fellBack { chunkCounts.fallBacks += 1 }
  }

  /// Starts the workers and their chunks, once; nil if no thread could be started.
  private mutating func startWorkers() -> ChunkWorkers? {
    if let workers { return workers.count > 0 ? workers : nil }
    guard let processor else { return nil }
    let started = ChunkWorkers(
      processors: Array(repeating: processor, count: configuration.jobs))
    workers = started
    // Each worker has one chunk in hand and one waiting; the reader fills one more.
    chunks = (0..<2 * started.count + 1).map { _ in
      FileChunk(capacity: chunkSize, results: ChunkResults())
    }
    return started.count > 0 ? started : nil
  }

  // MARK: - The rules and the registry

  /// Reads the configuration file (`--config`, else the nearest `.notif-parse.json`, unless
  /// `--no-config`) and makes the run's selection of rules with `--select` and `--ignore`;
  /// returns whether the file, if there is one, could be read.
  private mutating func loadSelection(
    stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) -> Bool {
    var file = ParseConfigFile()
    let path =
      configuration.noConfig
      ? nil
      : configuration.configPath
        ?? ParseConfigFile.currentFolder().flatMap(ParseConfigFile.discover(from:))
    if let path {
      do {
        file = try ParseConfigFile.load(path)
      } catch {
        try report(error.diagnostic, fatal: true, stdout: &stdout, stderr: &stderr)
        return false
      }
    }
    selection = RuleSelection(
      select: configuration.select ?? file.select, ignore: file.ignore + configuration.ignore)
    return true
  }

  /// Loads the registry (`CategoryRegistry.load`, as notif-summarize does) and reports its
  /// findings; returns whether it could be loaded.
  private mutating func loadRegistry(
    _ path: String, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) -> Bool {
    let loaded: (registry: CategoryRegistry, file: ConfigFile)
    do {
      loaded = try CategoryRegistry.load(path)
    } catch {
      try report(error.diagnostic, fatal: true, stdout: &stdout, stderr: &stderr)
      return false
    }
    registry = loaded.registry
    var findings = CopyLint.check(loaded.registry)
    // The plural forms of its formats, localized through --strings as notif-summarize would.
    let strings: LocalizedStrings
    do {
      strings = try LocalizedStrings(
        paths: configuration.stringsPaths, locale: configuration.pluralLocale)
    } catch {
      try report(
        Diagnostic(
          .error, error.code, error.message, file: error.file, line: error.line,
          column: error.column), fatal: true, stdout: &stdout, stderr: &stderr)
      return false
    }
    for warning in strings.warnings {
      try report(warning, stdout: &stdout, stderr: &stderr)
    }
    let book = FormatBook(
      locale: configuration.pluralLocale, strings: strings,
      stringsGiven: !configuration.stringsPaths.isEmpty)
    do {
      findings += try CopyLint.checkPlurals(loaded.registry, book: book)
    } catch {
      try report(error, fatal: true, stdout: &stdout, stderr: &stderr)
      return false
    }
    selection.filter(&findings)
    for finding in findings {
      let at = loaded.file.position(of: finding.offset)
      try report(
        finding.diagnostic(file: path, line: at.line, column: at.column),
        stdout: &stdout, stderr: &stderr)
    }
    return true
  }

  // MARK: - Output

  /// Counts a diagnostic and reports it through the reporter: with --check to standard
  /// output, where the report is the output, unless it is `fatal`; else to standard error,
  /// flushed at once so it shows while the run goes on.
  private mutating func report(
    _ diagnostic: Diagnostic, fatal: Bool = false, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) throws(OutputFailed) {
    if fatal { tally.status = max(tally.status, .failure) }
    switch diagnostic.severity {
    case .error: tally.errors += 1
    case .warning: tally.warnings += 1
    case .note: break  // notif-parse writes none: a note is counted nowhere
    }
    if configuration.check && !fatal {
      if reporter.admit(diagnostic) { try emit(reporter.output(diagnostic), stdout: &stdout) }
    } else {
      reporter.report(diagnostic, &stderr)
    }
  }

  /// Writes out what is ready: standard output's buffer, and with `--store` the batch.
  /// `--explain`: the rules `topic` names on standard output (`configure` has made sure it
  /// names some).
  private mutating func explain(
    _ topic: String, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    let text = Explain.text(topic) ?? ""
    do throws(OutputFailed) {
      try emit(text, stdout: &stdout)
      try flushOutput(&stdout)
    } catch {
      return reporter.reportFailedWrite(error.error, &stderr)
    }
    return .success
  }

  private mutating func flushOutput(_ stdout: inout OutputWriter) throws(OutputFailed) {
    do {
      try store?.flush()
      try stdout.flush()
    } catch {
      throw OutputFailed(error: error)
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
    let counts = (
      files: files, records: tally.records, rejected: tally.rejected, errors: tally.errors,
      warnings: tally.warnings
    )
    let accepted = counts.records - counts.rejected
    // Under --strict a record with warnings only is rejected: the line says how many were.
    let strict = configuration.strict
    switch configuration.format {
    case .json:
      return "{\"files\":\(counts.files),\"records\":\(counts.records),\"accepted\":\(accepted),"
        + "\"rejected\":\(counts.rejected),"
        + (strict ? "\"rejected_for_warnings\":\(tally.rejectedForWarnings)," : "")
        + "\"errors\":\(counts.errors),\"warnings\":\(counts.warnings)}\n"
    case .sarif:
      return ""  // the log is the output: the exit status gives the verdict
    case .text, .github:
      return
        "\(ParseCommand.name): \(plural(counts.records, "record")) in \(plural(counts.files, "file")): "
        + "\(accepted) accepted, \(counts.rejected) rejected"
        + (strict ? " (\(tally.rejectedForWarnings) for warnings under --strict)" : "")
        + "; \(plural(counts.errors, "error")), "
        + "\(plural(counts.warnings, "warning"))\n"
    }
  }
}
