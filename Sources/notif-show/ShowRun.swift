import NotifCategories
import NotifJSON
import NotifListing
import NotifModel

/// One run of notif-show: reads every input, keeps what the view shows (all of it, or the
/// first `--limit` in a heap), then writes the page.
///
/// With `--jobs` above 1, a regular file larger than one chunk is read in chunks cut after
/// line feeds (`FileChunks`), which worker threads read, each into a gatherer of its own; the
/// chunks' diagnostics are written in input order, and at the end of the file the workers'
/// entries join the run's. Each text's input order is its chunk's number and its place there,
/// so ties rank as one reader ranks them, and the page is the same bytes. Where the chunks
/// cannot be read as one reader would read the file (a text across lines cut in two), the
/// workers' entries of the file are dropped and one reader reads it again.
struct ShowRun {
  let options: ShowOptions
  let chunkSize: Int
  private var gatherer: ShowGatherer
  private var status = ExitStatus.success
  /// The number of the next input or chunk: its texts' input order starts at `number << 32`.
  private var nextNumber = 0
  private var workers: ShowWorkers?  // started with the first file read in chunks
  private var states: [ShowWorker] = []
  private var ring: [FileChunk<ChunkFindings>] = []
  /// Chunks the workers read, and files one reader read again after them (for the tests).
  private(set) var chunkCounts = (accepted: 0, fallBacks: 0)

  static let defaultChunkSize = 256 << 10

  init(options: ShowOptions, chunkSize: Int = ShowRun.defaultChunkSize) {
    self.options = options
    self.chunkSize = max(chunkSize, 1)
    gatherer = ShowGatherer(options: options, longestCategory: 0)
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    var apps = AppDirectory()
    if let path = options.appsPath {
      do {
        apps = try AppDirectory.load(path)
      } catch {
        Self.report(error.diagnostic, &stderr)
        return .failure
      }
    }
    var registry: CategoryRegistry? = nil
    if let path = options.categoriesPath {
      do {
        registry = try CategoryRegistry.load(path).registry
      } catch {
        Self.report(error.diagnostic, &stderr)
        return .failure
      }
      gatherer = ShowGatherer(
        options: options,
        longestCategory: registry?.categories.map(\.identifier.utf8.count).max() ?? 0)
    }
    defer { workers?.shutdown() }
    for file in options.files {
      read(file, stderr: &stderr)
    }
    // With --limit, the first entries in feed order, the newest, whichever the view: in chat
    // order, listed newest last.
    let shown = gatherer.entries.sorted(options.view)
    var page = ByteBuffer(capacity: 64 * 1024)
    switch options.format {
    case .text:
      TextPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    case .html:
      HTMLPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    case .email:
      EmailPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    }
    do {
      try stdout.write(page)
      try stdout.flush()
    } catch {
      return ShowCommand.tool.reportFailedWrite(error, stderr: &stderr)
    }
    return status
  }

  private mutating func read(_ file: String, stderr: inout OutputWriter) {
    let input: InputFile
    do {
      input = try InputFile(operand: file)
    } catch {
      status = max(status, .failure)
      Self.report(Diagnostic(.error, "Unreadable", error.message, file: error.path), &stderr)
      return
    }
    let (name, fd) = (input.name, input.fd)
    var unlisted: UnlistedTally
    // Chunks only pay for a regular file bigger than one.
    var info = stat()
    if options.jobs > 1 && fstat(fd, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
      && Int(info.st_size) > chunkSize, let workers = startWorkers()
    {
      unlisted = readInChunks(fd, name: name, workers: workers, stderr: &stderr)
    } else {
      var records = RecordReader(fd: fd, name: name, maxRecordBytes: options.maxRecordBytes)
      readRest(&records, number: nextNumber, stderr: &stderr)
      unlisted = gatherer.reader.takeUnlisted()
    }
    // What the device does not list was left out: said once per input, never silently.
    if let note = unlisted.note(file: name) {
      Self.report(note, &stderr)
    }
  }

  /// Reads the rest of an input with one reader, its texts numbered from `number << 32`; the
  /// diagnostics of lines before `reportedBefore` were written already and are not again.
  private mutating func readRest(
    _ records: inout RecordReader, number: Int, reportedBefore: Int = 0,
    stderr: inout OutputWriter
  ) {
    let read = gatherer.read(&records, number: number) { diagnostic in
      if let line = diagnostic.line, line < reportedBefore { return }
      Self.report(diagnostic, &stderr)
    }
    status = max(status, read)
    nextNumber = max(nextNumber, gatherer.nextFreeNumber)
  }

  /// Reads a regular file in chunks that the workers read (see the type's description);
  /// returns what the device does not list that was left out.
  private mutating func readInChunks(
    _ fd: Int32, name: String, workers: ShowWorkers, stderr: inout OutputWriter
  ) -> UnlistedTally {
    let fileNumber = nextNumber
    var number = nextNumber
    let (tally, accepted, fellBack) = ChunkedFileTally.read(
      fd, name: name, maxRecordBytes: options.maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &number, stderr: &stderr)
    status = max(status, tally.status)
    chunkCounts.accepted += accepted
    nextNumber = number
    // Every chunk is done: the workers' entries are this thread's until the next file.
    for state in states {
      if !fellBack {
        for entry in state.gatherer.entries.elements { gatherer.entries.insert(entry) }
      }
      state.gatherer.entries.removeAll()
    }
    guard fellBack else { return tally.unlisted }
    chunkCounts.fallBacks += 1
    guard lseek(fd, 0, SEEK_SET) == 0 else {
      status = max(status, .failure)
      let error = SystemError(path: name, doing: "cannot read it again", errno: errno)
      Self.report(Diagnostic(.error, "Unreadable", error.message, file: name), &stderr)
      return tally.unlisted
    }
    // One reader reads the whole file again, and counts what it leaves out again.
    var records = RecordReader(fd: fd, name: name, maxRecordBytes: options.maxRecordBytes)
    readRest(&records, number: fileNumber, reportedBefore: tally.reportedBefore, stderr: &stderr)
    nextNumber = max(number, nextNumber)
    return gatherer.reader.takeUnlisted()
  }

  /// Starts the workers and their chunks, once; nil if no thread could be started.
  private mutating func startWorkers() -> ShowWorkers? {
    if let workers { return workers.count > 0 ? workers : nil }
    let states = (0..<options.jobs).map { _ in ShowWorker(gatherer.fresh()) }
    self.states = states
    let started = ShowWorkers(threads: options.jobs, makeWorker: { states[$0] }) { chunk, state in
      state.read(chunk)
    }
    workers = started
    // Each worker has one chunk in hand and one waiting; the reader fills one more.
    ring = (0..<2 * started.count + 1).map { _ in
      FileChunk(capacity: chunkSize, results: ChunkFindings())
    }
    return started.count > 0 ? started : nil
  }

  /// Writes a diagnostic to standard error at once, so it shows while the run goes on. A failed
  /// write to standard error cannot be reported anywhere: it does not stop the run.
  private static func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    try? stderr.write(DiagnosticFormat.text.render(diagnostic, program: ShowCommand.name))
    try? stderr.flush()
  }
}
