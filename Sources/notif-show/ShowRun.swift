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
///
/// Every diagnostic goes through the run's one `Reporter`, on this thread and in input order
/// (a chunk's when it is taken), so that `--quiet` and `--max-errors` leave out the same lines
/// whatever `--jobs` is; `--progress` is shown from here too.
struct ShowRun {
  let options: ShowOptions
  let chunkSize: Int
  /// What writes every diagnostic and the progress line (`--quiet`, `--max-errors`,
  /// `--color`, `--progress`; always text: `--to` is the page's form).
  private(set) var reporter: Reporter
  /// `--progress`: the JSON texts read so far, the bytes of the inputs read before the one
  /// being read, and the most of that one known to be read.
  /// The texts and bytes read, for the progress line.
  private var progress = ReadProgress()
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

  /// How many texts one reader reads between looks at the progress line (which shows at most
  /// one a second).
  static let progressStride = 4096

  /// `reporter` is the run's, by default one of `options.reporting` without progress.
  init(
    options: ShowOptions, chunkSize: Int = ShowRun.defaultChunkSize, reporter: Reporter? = nil
  ) {
    self.options = options
    self.chunkSize = max(chunkSize, 1)
    self.reporter = reporter ?? Reporter(program: ShowCommand.name, options: options.reporting)
    gatherer = ShowGatherer(options: options, longestCategory: 0)
  }

  /// Reads every input and writes the page; returns the run's exit status. The run's talk on
  /// `stderr` is ended (`Reporter.finish`) on every way out.
  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    defer { reporter.finish(&stderr) }
    var apps = AppDirectory()
    if let path = options.appsPath {
      do {
        apps = try AppDirectory.load(path)
      } catch {
        reporter.report(error.diagnostic, &stderr)
        return .failure
      }
    }
    var registry: CategoryRegistry? = nil
    if let path = options.categoriesPath {
      do {
        registry = try CategoryRegistry.load(path).registry
      } catch {
        reporter.report(error.diagnostic, &stderr)
        return .failure
      }
      gatherer = ShowGatherer(
        options: options,
        longestCategory: registry?.categories.map(\.identifier.utf8.count).max() ?? 0)
    }
    defer { workers?.shutdown() }
    if reporter.options.progress {
      reporter.startProgress(totalBytes: InputFile.totalBytes(of: options.files))
    }
    for file in options.files {
      read(file, stderr: &stderr)
    }
    // With --limit, the first entries in feed order, the newest, whichever the view: in chat
    // order, listed newest last.
    let shown = ShownList(entries: gatherer.entries.sorted(options.view), counts: gatherer.counts)
    var page = ByteBuffer(capacity: 64 * 1024)
    switch options.format {
    case .text:
      TextPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    case .html:
      HTMLPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    case .email:
      EmailPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    }
    reporter.clearProgress(&stderr)  // the page may go to the same terminal
    do {
      try stdout.write(page)
      try stdout.flush()
    } catch {
      return reporter.reportFailedWrite(error, &stderr)
    }
    return status
  }

  private mutating func read(_ file: String, stderr: inout OutputWriter) {
    guard let input = InputFile.openOrReport(file, reporter: &reporter, &stderr) else {
      status = max(status, .failure)
      return
    }
    let (name, fd) = (input.name, input.fd)
    let origin = lseek(fd, 0, SEEK_CUR)
    progress.fileBytes = 0
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
    endProgress(of: fd, from: origin, &stderr)
    // Another stage's texts were rejected: said once per input, with what to run first.
    for diagnostic in ShowGatherer.wrongStageDiagnostics(wrongStage, file: name) {
      reporter.report(diagnostic, &stderr)
    }
    // What the device does not list was left out: said once per input, never silently.
    if let note = unlisted.note(file: name) {
      reporter.report(note, &stderr)
    }
  }

  /// Counts the bytes of the input at `fd` read, from `origin` (for a pipe, as far as it was
  /// seen), among those done, and shows the progress line if it is time to.
  private mutating func endProgress(of fd: Int32, from origin: off_t, _ stderr: inout OutputWriter)
  {
    progress.ended(fd, from: origin, &reporter, &stderr)
  }

  /// Reads the rest of an input with one reader, its texts numbered from `number << 32`;
  /// `skipped` is how many bytes of the input come before the reader's first.
  private mutating func readRest(
    _ records: inout RecordReader, number: Int, skipped: Int = 0, stderr: inout OutputWriter
  ) {
    // Taken out of `self` while the gatherer calls back, and put back below.
    var (reporter, progress) = (self.reporter, self.progress)
    let textsBefore = progress.texts
    let read = gatherer.read(
      &records, number: number,
      tickEvery: reporter.showsProgress ? Self.progressStride : Int.max
    ) { diagnostic in
      reporter.report(diagnostic, &stderr)
    } tick: { texts, offset in
      progress.read(
        texts: texts, after: textsBefore, to: offset, skipped: skipped, &reporter, &stderr)
    }
    progress.texts += gatherer.texts(from: number)
    (self.reporter, self.progress) = (reporter, progress)
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
    let textsBefore = progress.texts
    let (tally, accepted, fellBack) = ChunkedFileTally.read(
      fd, name: name, maxRecordBytes: options.maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &number,
      take: { chunk, tally in
        chunk.results.findings.report(&reporter, &stderr)
        for entry in chunk.results.entries { gatherer.entries.insert(entry) }
        gatherer.counts.add(chunk.results.counts)
        progress.took(texts: textsBefore + tally.texts, bytes: tally.bytes, &reporter, &stderr)
      },
      rest: { reader, number in
        var records = reader
        readRest(&records, number: number, skipped: progress.fileBytes, stderr: &stderr)
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

}
