import NotifCLI
import NotifCategories
import NotifJSON
import NotifListing
import NotifModel

/// One run of notif-show: reads every input, keeps what the view shows (all of it, or the
/// first `--limit` in a heap), then writes the page.
///
/// With `--jobs` above 1, an input larger than one chunk (a pipe, or a regular file) is read
/// in chunks cut after line feeds (`FileChunks`), which worker threads read, each with a
/// gatherer of its own (`ShowWorker`); each chunk's diagnostics and entries are taken in input
/// order. Each text's input order is its chunk's number and its place there, so ties rank as
/// one reader ranks them, and the page is the same bytes. From the first chunk that cannot be
/// read as one reader would read it (a text across lines cut in two), one reader reads the
/// rest of the input.
struct ShowRun {
  let options: ShowOptions
  let chunkSize: Int
  private var gatherer: ShowGatherer
  private var status = ExitStatus.success
  /// The number of the next input or chunk: its texts' input order starts at `number << 32`.
  private var nextNumber = 0
  private var workers: ShowWorkers?  // started with the first file read in chunks
  private var ring: [FileChunk<ShowChunk>] = []
  /// Which input the workers read chunks of (`ShowWorker`).
  private let inputNumber = ShowInputNumber()
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
    var wrongStage: WrongStageTally
    // Chunks only pay for an input bigger than one: a pipe may be, a small file is not.
    var info = stat()
    if options.jobs > 1 && fstat(fd, &info) == 0
      && (info.st_mode & S_IFMT != S_IFREG || Int(info.st_size) > chunkSize),
      let workers = startWorkers()
    {
      (unlisted, wrongStage) = readInChunks(fd, name: name, workers: workers, stderr: &stderr)
    } else {
      var records = RecordReader(fd: fd, name: name, maxRecordBytes: options.maxRecordBytes)
      readRest(&records, number: nextNumber, stderr: &stderr)
      unlisted = gatherer.reader.takeUnlisted()
      wrongStage = gatherer.takeWrongStage()
    }
    // Another stage's texts were rejected: said once per input, with what to run first.
    for diagnostic in ShowGatherer.wrongStageDiagnostics(wrongStage, file: name) {
      Self.report(diagnostic, &stderr)
    }
    // What the device does not list was left out: said once per input, never silently.
    if let note = unlisted.note(file: name) {
      Self.report(note, &stderr)
    }
  }

  /// Reads the rest of an input with one reader, its texts numbered from `number << 32`.
  private mutating func readRest(
    _ records: inout RecordReader, number: Int, stderr: inout OutputWriter
  ) {
    let read = gatherer.read(&records, number: number) { diagnostic in
      Self.report(diagnostic, &stderr)
    }
    status = max(status, read)
    nextNumber = max(nextNumber, gatherer.nextFreeNumber)
  }

  /// Reads an input in chunks that the workers read (see the type's description); returns
  /// what the device does not list that was left out, and the texts that are another stage's.
  private mutating func readInChunks(
    _ fd: Int32, name: String, workers: ShowWorkers, stderr: inout OutputWriter
  ) -> (UnlistedTally, WrongStageTally) {
    var number = nextNumber
    var restUnlisted = UnlistedTally()
    var restWrongStage = WrongStageTally()
    inputNumber.value += 1  // no chunk is out: the last read waited for every one
    let (tally, accepted, fellBack) = ChunkedFileTally.read(
      fd, name: name, maxRecordBytes: options.maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &number, stderr: &stderr,
      accept: { chunk in
        for entry in chunk.results.entries { gatherer.entries.insert(entry) }
      },
      rest: { reader, number, stderr in
        var records = reader
        readRest(&records, number: number, stderr: &stderr)
        restUnlisted = gatherer.reader.takeUnlisted()
        restWrongStage = gatherer.takeWrongStage()
      })
    status = max(status, tally.status)
    chunkCounts.accepted += accepted
    if fellBack { chunkCounts.fallBacks += 1 }
    nextNumber = max(number, nextNumber)
    var unlisted = tally.unlisted
    unlisted.add(restUnlisted)
    var wrongStage = tally.wrongStage
    wrongStage.add(restWrongStage)
    return (unlisted, wrongStage)
  }

  /// Starts the workers and their chunks, once; nil if no thread could be started.
  private mutating func startWorkers() -> ShowWorkers? {
    if let workers { return workers.count > 0 ? workers : nil }
    let (options, longestCategory, input) = (options, gatherer.longestCategory, inputNumber)
    let started = ShowWorkers(
      threads: options.jobs,
      makeWorker: { _ in
        ShowWorker(
          gatherer: ShowGatherer(options: options, longestCategory: longestCategory),
          input: input)
      }
    ) { chunk, worker in
      worker.read(chunk)
    }
    workers = started
    // Each worker has one chunk in hand and one waiting; the reader fills one more.
    ring = (0..<2 * started.count + 1).map { _ in
      FileChunk(capacity: chunkSize, results: ShowChunk())
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
