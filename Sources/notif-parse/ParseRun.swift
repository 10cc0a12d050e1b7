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
struct ParseRun {
  let configuration: ParseCommand.Configuration
  /// The size of a chunk: the bytes read at once and handed to a worker. Tests make it small.
  let chunkSize: Int
  private var registry: CategoryRegistry?
  private var processor: RecordProcessor?  // made once the registry is loaded
  private var workers: ChunkWorkers?  // started with the first file split in chunks
  private var chunks: [FileChunk<ChunkResults>] = []
  /// With `--store`: where the records go instead of standard output.
  private var store: StoreAppender?
  private var out = ByteBuffer(capacity: 16 * 1024)
  private var err = ByteBuffer(capacity: 1024)
  private var tally = Tally()
  private var files = 0
  /// Chunks whose results were written, and times one reader took over: for tests.
  private(set) var chunkCounts = (written: 0, fallBacks: 0)

  static let defaultChunkSize = 128 * 1024

  init(
    configuration: ParseCommand.Configuration, chunkSize: Int = ParseRun.defaultChunkSize,
    monotonicClock: @escaping () -> Double = { 0 }
  ) {
    self.configuration = configuration
    self.chunkSize = max(chunkSize, 1)
    if let path = configuration.storePath {
      store = StoreAppender(store: path, monotonicClock: monotonicClock)
    }
  }

  /// A write to standard output failed: processing stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    defer { workers?.shutdown() }
    do throws(OutputFailed) {
      if let path = configuration.categoriesPath {
        guard try loadRegistry(path, stdout: &stdout, stderr: &stderr) else { return .failure }
      }
      processor = RecordProcessor(configuration: configuration, registry: registry)
      for file in configuration.files {
        try read(file, stdout: &stdout, stderr: &stderr)
      }
      if configuration.check {
        try emit(summaryLine(), stdout: &stdout)
      }
      try flushOutput(&stdout)
    } catch {
      return ParseCommand.tool.reportFailedWrite(
        error.error, format: configuration.format, stderr: &stderr)
    }
    return tally.status
  }

  // MARK: - Inputs

  private mutating func read(_ file: String, stdout: inout OutputWriter, stderr: inout OutputWriter)
    throws(OutputFailed)
  {
    try readInput(file, stdout: &stdout, stderr: &stderr)
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
    let input: InputFile
    do {
      input = try InputFile(operand: file)
    } catch {
      try report(
        Diagnostic(.error, "Unreadable", error.message, file: error.path), fatal: true,
        stdout: &stdout, stderr: &stderr)
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
        return
      case .idle:
        // Nothing more to read for now (a pipe, `tail -f`): what is ready goes out before the
        // wait, so each record comes out (or reaches the store) as its payload arrives.
        try flushOutput(&stdout)
      default:
        processor.handle(event, of: reader, out: &out, err: &err, tally: &tally)
        try Self.write(out, err, store: &store, stdout: &stdout, stderr: &stderr)
        out.removeAll()
        err.removeAll()
      }
    }
  }

  /// Writes out what processing left in `out` (records: to standard output, or with `--store`
  /// to the store's batch) and `err`; the caller empties them.
  private static func write(
    _ out: ByteBuffer, _ err: ByteBuffer, store: inout StoreAppender?,
    stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) {
    if out.count > 0 {
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
    if err.count > 0 {
      // Diagnostics go out at once, so they show while the run goes on. A failed write to
      // standard error cannot be reported anywhere: it does not stop the run.
      try? stderr.write(err)
      try? stderr.flush()
    }
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
        try Self.write(
          chunk.results.out, chunk.results.err, store: &store, stdout: &stdout, stderr: &stderr)
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

  // MARK: - The registry

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
      try report(warning.diagnostic, stdout: &stdout, stderr: &stderr)
    }
    let book = FormatBook(
      locale: configuration.pluralLocale, strings: strings,
      stringsGiven: !configuration.stringsPaths.isEmpty)
    do {
      findings += try CopyLint.checkPlurals(loaded.registry, book: book)
    } catch {
      try report(error.diagnostic, fatal: true, stdout: &stdout, stderr: &stderr)
      return false
    }
    for finding in findings {
      let at = loaded.file.position(of: finding.offset)
      try report(
        Diagnostic(
          finding.severity, finding.code, finding.message, file: path, line: at.line,
          column: at.column),
        stdout: &stdout, stderr: &stderr)
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
    if fatal { tally.status = max(tally.status, .failure) }
    switch diagnostic.severity {
    case .error: tally.errors += 1
    case .warning: tally.warnings += 1
    case .note: break  // notif-parse writes none: a note is counted nowhere
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

  /// Writes out what is ready: standard output's buffer, and with `--store` the batch.
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
