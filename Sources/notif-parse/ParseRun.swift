import NotifCategories
import NotifJSON
import NotifModel
import NotifSweep

/// One run of notif-parse over its inputs: reads, checks, writes, counts.
///
/// A regular file larger than one chunk is read in chunks cut after line feeds, which worker
/// threads (`--jobs`) turn into records while the next are read; their results are written in
/// input order, so the output is the same as from one thread. A chunk that does not end
/// between texts (a pretty-printed text cut in two, an error at the cut) shows that the
/// guess was wrong: the rest of that file is then read by one reader, from that chunk on.
struct ParseRun {
  let configuration: ParseCommand.Configuration
  /// The size of a chunk: the bytes read at once and handed to a worker. Tests make it small.
  let chunkSize: Int
  private var registry: CategoryRegistry?
  private var processor: RecordProcessor?  // made once the registry is loaded
  private var workers: ChunkWorkers?  // started with the first file split in chunks
  private var chunks: [Chunk] = []
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
    // Chunks only pay for a regular file bigger than one: a pipe's reader would wait for a
    // whole chunk before showing anything, and a small file would pay for starting threads.
    // --lint remembers every record seen, so one processor must see them all.
    var status = stat()
    if configuration.jobs > 1 && !configuration.lint && fstat(fd, &status) == 0
      && status.st_mode & S_IFMT == S_IFREG && Int(status.st_size) > chunkSize
    {
      if let workers = startWorkers() {
        return try readInChunks(fd, name: name, workers: workers, stdout: &stdout, stderr: &stderr)
      }
    }
    do {
      let reader = RecordReader(
        fd: fd, name: name, maxRecordBytes: configuration.maxRecordBytes, announcesIdle: true)
      try read(reader, stdout: &stdout, stderr: &stderr)
    }
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
        try Self.write(&out, &err, store: &store, stdout: &stdout, stderr: &stderr)
      }
    }
  }

  /// Writes out and empties what processing left in `out` (records: to standard output, or
  /// with `--store` to the store's batch) and `err`.
  private static func write(
    _ out: inout ByteBuffer, _ err: inout ByteBuffer, store: inout StoreAppender?,
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
      out.removeAll()
    }
    if err.count > 0 {
      // Diagnostics go out at once, so they show while the run goes on. A failed write to
      // standard error cannot be reported anywhere: it does not stop the run.
      try? stderr.write(err)
      try? stderr.flush()
      err.removeAll()
    }
  }

  // MARK: - Chunks

  /// Reads a regular file in chunks that worker threads process, writing their results in
  /// input order. One reader takes over for the rest of the file from the first chunk that did
  /// not end between texts, or at a line longer than a chunk.
  private mutating func readInChunks(
    _ fd: Int32, name: String, workers: ChunkWorkers, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) throws(OutputFailed) {
    let ring = chunks.count
    var submitted = 0  // chunks handed to the workers; chunk i is chunks[i % ring]
    var written = 0  // chunks whose results are written
    var line = 1
    var eof = false
    while !eof {
      if submitted - written == ring {
        let wrote = try writeOrHandOver(
          written, of: submitted, fd, name: name, line: line, workers, &stdout, &stderr)
        guard wrote else { return }
        written += 1
      }
      let chunk = chunks[submitted % ring]
      chunk.filled = 0
      if submitted > 0 {  // the bytes after the last chunk's last line feed come first
        let previous = chunks[(submitted - 1) % ring]
        chunk.filled = previous.filled - previous.count
        chunk.bytes.copyMemory(from: previous.bytes + previous.count, byteCount: chunk.filled)
      }
      var failed = false
      while chunk.filled < chunk.capacity {
        let count = systemRead(fd, chunk.bytes + chunk.filled, chunk.capacity - chunk.filled)
        if count > 0 {
          chunk.filled += count
        } else if count == 0 {
          eof = true
          break
        } else if errno != EINTR {
          failed = true  // the reader that takes over reads again, and reports the error
          break
        }
      }
      if eof {
        chunk.count = chunk.filled
      } else if !failed, let last = Self.lastLineFeed(chunk.bytes, chunk.filled) {
        chunk.count = last + 1
      } else {
        // A line longer than a chunk, or a read error: write what the workers have, then one
        // reader goes on from this chunk's bytes.
        while written < submitted {
          let next: UInt8? =
            written + 1 < submitted
            ? chunks[(written + 1) % ring].bytes.load(as: UInt8.self)
            : chunk.filled > 0 ? chunk.bytes.load(as: UInt8.self) : nil
          guard
            try writeResults(of: written, workers, nextByte: next, stdout: &stdout, stderr: &stderr)
          else { break }
          written += 1
        }
        return try fallBack(
          from: written, to: submitted, then: chunk, 0, fd, name: name, line: line, workers,
          stdout: &stdout, stderr: &stderr)
      }
      if chunk.count == 0 { break }
      chunk.name = name
      chunk.line = line
      chunk.atStreamStart = submitted == 0
      line += Self.lineFeeds(in: UnsafeRawBufferPointer(start: chunk.bytes, count: chunk.count))
      workers.submit(chunk)
      submitted += 1
    }
    while written < submitted {
      let wrote = try writeOrHandOver(
        written, of: submitted, fd, name: name, line: line, workers, &stdout, &stderr)
      guard wrote else { return }
      written += 1
    }
  }

  /// Writes the results of chunk `index` of the `submitted` (`writeResults`); where they are
  /// not what one reader would have made, one reader goes on from there to the end of the
  /// input (`fallBack`, from the last chunk submitted), and it returns false.
  private mutating func writeOrHandOver(
    _ index: Int, of submitted: Int, _ fd: Int32, name: String, line: Int,
    _ workers: ChunkWorkers, _ stdout: inout OutputWriter, _ stderr: inout OutputWriter
  ) throws(OutputFailed) -> Bool {
    let next =
      index + 1 < submitted ? chunks[(index + 1) % chunks.count].bytes.load(as: UInt8.self) : nil
    if try writeResults(of: index, workers, nextByte: next, stdout: &stdout, stderr: &stderr) {
      return true
    }
    let last = chunks[(submitted - 1) % chunks.count]
    try fallBack(
      from: index, to: submitted, then: last, last.count, fd, name: name, line: line, workers,
      stdout: &stdout, stderr: &stderr)
    return false
  }

  /// Waits for chunk `index` and writes its results if they are what one reader would have
  /// made (see `Chunk.readsAsWhole`); returns whether it wrote them.
  private mutating func writeResults(
    of index: Int, _ workers: ChunkWorkers, nextByte: UInt8?, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) throws(OutputFailed) -> Bool {
    let chunk = chunks[index % chunks.count]
    workers.wait(for: chunk)
    guard chunk.readsAsWhole(nextByte: nextByte) else { return false }
    tally.add(chunk.tally)
    chunkCounts.written += 1
    try Self.write(&chunk.out, &chunk.err, store: &store, stdout: &stdout, stderr: &stderr)
    return true
  }

  /// Reads the rest of the file with one reader, from the start of chunk `first`: the bytes of
  /// chunks `first..<end`, then those of `tail` from `tailStart`, then the rest of `fd`.
  /// `line` is the line number after chunk `end - 1`.
  private mutating func fallBack(
    from first: Int, to end: Int, then tail: Chunk, _ tailStart: Int, _ fd: Int32, name: String,
    line: Int, _ workers: ChunkWorkers, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) throws(OutputFailed) {
    chunkCounts.fallBacks += 1
    var size = tail.filled - tailStart
    for index in first..<end {
      let chunk = chunks[index % chunks.count]
      workers.wait(for: chunk)  // its buffers are used again for the next file
      size += chunk.count
    }
    let pending = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 16)
    defer { pending.deallocate() }
    var at = pending
    for index in first..<end {
      let chunk = chunks[index % chunks.count]
      at.copyMemory(from: chunk.bytes, byteCount: chunk.count)
      at += chunk.count
    }
    at.copyMemory(from: tail.bytes + tailStart, byteCount: tail.filled - tailStart)
    let reader = RecordReader(
      fd: fd, name: name, maxRecordBytes: configuration.maxRecordBytes,
      pending: UnsafeRawBufferPointer(start: pending, count: size),
      line: first < end ? chunks[first % chunks.count].line : line, atStreamStart: first == 0)
    try read(reader, stdout: &stdout, stderr: &stderr)
  }

  /// Starts the workers and their chunks, once; nil if no thread could be started.
  private mutating func startWorkers() -> ChunkWorkers? {
    if let workers { return workers.count > 0 ? workers : nil }
    guard let processor else { return nil }
    let started = ChunkWorkers(
      processors: Array(repeating: processor, count: configuration.jobs))
    workers = started
    // Each worker has one chunk in hand and one waiting; the reader fills one more.
    chunks = (0..<2 * started.count + 1).map { _ in Chunk(capacity: chunkSize) }
    return started.count > 0 ? started : nil
  }

  /// The offset of the last line feed in the first `count` bytes at `bytes`.
  static func lastLineFeed(_ bytes: UnsafeRawPointer, _ count: Int) -> Int? {
    var at = count - 1
    while at >= 0 {
      if bytes.load(fromByteOffset: at, as: UInt8.self) == 0x0A { return at }
      at -= 1
    }
    return nil
  }

  /// The number of line feeds in `bytes`.
  static func lineFeeds(in bytes: UnsafeRawBufferPointer) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0
    var from = base
    let end = base + bytes.count
    while from < end, let hit = memchr(from, 0x0A, from.distance(to: end)) {
      count += 1
      from = UnsafeRawPointer(hit) + 1
    }
    return count
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
    for finding in CopyLint.check(loaded.registry) {
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

/// `read(2)`, named apart from the run's own methods.
private func systemRead(_ fd: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(fd, bytes, count)
}
