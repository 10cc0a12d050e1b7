import NotifCLI
import NotifJSON
import NotifListing
import NotifModel

/// One run of notif-group over its inputs: reads records (or group objects), reports what it
/// rejects, writes the groups at the end. Every diagnostic goes through the run's one
/// `Reporter`, on this thread and in input order, so that `--quiet` and `--max-errors` leave
/// out the same lines whatever `--jobs` is; `--progress` is shown from here too.
///
/// With `--jobs` above 1, a regular file larger than one chunk is read in chunks cut after
/// line feeds (`FileChunks`), which worker threads group, each into a grouper of its own that
/// keeps the groups of its share of the keys (`Shard`) and sends the records of the others to
/// their workers (`ShardMail`); this thread writes the chunks' diagnostics in input order. At
/// the end of the file the workers' groupers hold no group twice: they are the run's
/// (`shards`), written side by side, unless groups were made before or after them, which
/// they are then absorbed into (`Grouper.absorb`). Records are numbered by chunk
/// (`Grouper.numberFrom`), so ties keep input order whichever worker grouped them, and the
/// output and the diagnostics are those of one thread. Should a chunk not end between texts
/// (see `FileChunks.read`), the workers' groups of the file are dropped and one reader groups
/// the whole file again, writing only the diagnostics of the lines not yet reported.
///
/// A pipe cannot be read again: its chunks go to the workers only while their lines read
/// alone (`FileChunks.read` with `checksLines`), and from the first chunk whose lines do not,
/// one reader goes on, the workers' groups kept. A pipe that ends within its first chunk is
/// grouped by one reader, with no thread started.
struct GroupRun {
  let options: GroupOptions
  /// What writes every diagnostic and the progress line (`--format`, `--quiet`,
  /// `--max-errors`, `--color`, `--progress`).
  private(set) var reporter: Reporter
  /// The size of a chunk: the bytes read at once and handed to a worker. Tests make it small.
  let chunkSize: Int
  private var grouper: Grouper
  /// The regular files read, where leading records may stay (`RecordStore`).
  private let files: RecordFiles
  /// The groups of the one file read in chunks, held by the workers' groupers, one share of the
  /// keys each; empty while `grouper` holds them all.
  private var shards: [Grouper] = []
  private var reader = TextTaker()
  private var status = ExitStatus.success
  /// The number of the next chunk or input read by one reader: see `Grouper.numberFrom`.
  private var nextNumber = 0
  private var workers: ChunkGroupers?  // started with the first file read in chunks
  private var states: [GroupWorker] = []  // the workers'; this thread's between files
  private var ring: [FileChunk<ChunkFindings>] = []
  /// The records of the input being read that were left out because the device does not list
  /// them, and its name for the note.
  private var fileUnlisted = UnlistedTally()
  /// The texts of the input being read that are another stage's, for its one diagnostic.
  private var fileWrongStage = WrongStageTally()
  private var fileName = ""
  /// `--progress`: the JSON texts read so far, the bytes of the inputs read before the one
  /// being read, and the most of that one known to be read.
  /// The texts and bytes read, for the progress line.
  private var progress = ReadProgress()
  /// Chunks taken from the workers, and files where one reader took over: for tests.
  private(set) var chunkCounts = (accepted: 0, fallBacks: 0)

  /// How many groups have their leading record in its file, not in memory: for tests.
  var leadingInFiles: Int {
    (shards.isEmpty ? [grouper] : shards).reduce(0) { $0 + $1.leadingInFiles }
  }

  /// 256 KiB, a worker's share of the L2 cache: the workers keep their groups from chunk to
  /// chunk, so a chunk costs nothing more to take than its diagnostics.
  static let defaultChunkSize = 256 << 10

  /// The size from which the allocator maps each block on its own (main.swift): a table that
  /// outgrows its room then gives the old room back. Chunks, and what grows with them, stay
  /// below it.
  static let mappedBlockSize: Int32 = 1 << 20

  /// How many texts one reader reads between looks at the progress line (which shows at most
  /// one a second).
  static let progressStride = 4096

  /// `leadingMemory` is the bytes of leading records kept in memory before the others stay
  /// in their files (`RecordFiles.memoryBudget`).
  init(
    options: GroupOptions, reporter: Reporter = Reporter(program: GroupCommand.name),
    chunkSize: Int = GroupRun.defaultChunkSize,
    leadingMemory: Int = RecordFiles.defaultMemoryBudget
  ) {
    self.options = options
    self.reporter = reporter
    self.chunkSize = max(chunkSize, 1)
    files = RecordFiles(memoryBudget: leadingMemory)
    grouper = Grouper(options: options, files: files)
  }

  mutating func execute(files: [String], stdout: inout OutputWriter, stderr: inout OutputWriter)
    -> ExitStatus
  {
    group(files, stderr: &stderr)
    return write(stdout: &stdout, stderr: &stderr)
  }

  /// Reads and groups `files`, in order, reporting what is wrong with them; then lets the
  /// worker threads go.
  mutating func group(_ files: [String], stderr: inout OutputWriter) {
    if reporter.options.progress {
      reporter.startProgress(totalBytes: InputFile.totalBytes(of: files))
    }
    for file in files {
      read(file, stderr: &stderr)
    }
    workers?.shutdown()
    workers = nil
  }

  /// Writes the group objects of what was grouped, then ends the run's talk on `stderr`
  /// (`Reporter.finish`); returns the run's exit status.
  mutating func write(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    var written = 0
    let outName = stdout.name
    if shards.isEmpty { shards = [grouper] }
    grouper = Grouper(options: options, files: self.files)
    // Taken out of `self` while the shards are written, and put back below.
    var reporter = self.reporter
    reporter.clearProgress(&stderr)  // the output may go to the same terminal
    var failure: SystemError? = nil
    do {
      // With --jobs, as many threads write the group objects, and this one writes them out.
      let threads = options.jobs > 1 ? options.jobs : 0
      try Grouper.write(&shards, threads: threads) {
        (piece: UnsafeRawBufferPointer) throws(SystemError) in
        try stdout.write(piece)
      } ended: { (weightPassed: Bool) in
        written += 1
        guard weightPassed else { return }
        reporter.report(Self.weightWarning(file: outName, line: written), &stderr)
      }
      try stdout.flush()
    } catch {
      failure = error
    }
    var status = self.status
    if let failure {
      // Not the output's error but an input's: a leading record did not read back from its
      // file (`RecordStore.read`). The group objects before it went out.
      let code = failure.path != outName ? "Unreadable" : CommandLineTool.writeFailed
      reporter.report(Diagnostic(.error, code, failure.message, file: failure.path), &stderr)
      status = .failure
    }
    reporter.finish(&stderr)
    self.reporter = reporter
    return status
  }

  private mutating func read(_ file: String, stderr: inout OutputWriter) {
    reader.startFile()
    defer {
      // Another stage's texts were rejected: said once per input, with what to run.
      for diagnostic in wrongStageDiagnostics(file: fileName) {
        reporter.report(diagnostic, &stderr)
      }
      fileWrongStage = WrongStageTally()
      // What the device does not list was left out: said once per input, never silently.
      if let note = fileUnlisted.note(file: fileName) { reporter.report(note, &stderr) }
      fileUnlisted = UnlistedTally()
    }
    guard let input = InputFile.openOrReport(file, reporter: &reporter, &stderr) else {
      status = max(status, .failure)
      return
    }
    let (name, fd) = (input.name, input.fd)
    fileName = name
    // Where this input starts: a file read again is read again from here. Group objects are
    // merged with their leading records in memory.
    let origin = lseek(fd, 0, SEEK_CUR)
    progress.fileBytes = 0
    defer { endProgress(of: fd, from: origin, &stderr) }
    let file = options.merge ? nil : files.register(fd, name: name, at: origin)
    reader.source = file.map { (file: $0, base: 0) }
    // Group objects are few and each may be as long as its group: --merge reads with one
    // thread.
    let (worthChunks, isPipe) = FileChunks.suits(fd, chunkSize: chunkSize)
    let inChunks = options.jobs > 1 && !options.merge && worthChunks
    // Room for a pipe's first chunk, read before any thread starts.
    let start = UnsafeMutableRawPointer.allocate(
      byteCount: inChunks && isPipe ? chunkSize : 1, alignment: 16)
    defer { start.deallocate() }
    var (count, ended) = (0, false)
    if inChunks {
      if isPipe {
        // Nothing is written before the end: a pause is no reason to stop.
        (count, ended) = FileChunks.readStart(
          fd, into: start, capacity: chunkSize, stopsAtPause: false
        ) {}
      }
      if !ended, let workers = startWorkers() {
        return readInChunks(
          fd, name: name, isPipe: isPipe, origin: origin, file: file,
          initial: UnsafeRawBufferPointer(start: start, count: count),
          workers: workers, stderr: &stderr)
      }
    }
    gatherShards()  // this reader's groups may be theirs too
    var records = RecordReader(
      fd: ended ? nil : fd, name: name, maxRecordBytes: options.maxRecordBytes,
      pending: UnsafeRawBufferPointer(start: start, count: count), line: 1, atStreamStart: true)
    readRest(&records, number: nextNumber, stderr: &stderr)
  }

  /// Counts the bytes of the input at `fd` read, from `origin` (for a pipe, as far as it was
  /// seen), among those done, and shows the progress line if it is time to.
  private mutating func endProgress(of fd: Int32, from origin: off_t, _ stderr: inout OutputWriter)
  {
    progress.ended(fd, from: origin, &reporter, &stderr)
  }

  /// Absorbs the groups of the workers' groupers of an earlier file into the run's grouper.
  private mutating func gatherShards() {
    for shard in shards { grouper.absorb(shard) }
    shards = []
  }

  /// Reads the rest of an input with one reader, numbering its texts from `number << 32`; the
  /// diagnostics of lines before `reportedBefore` were written already and are not again.
  /// `skipped` is how many bytes of the input come before the reader's first.
  private mutating func readRest(
    _ records: inout RecordReader, number: Int, reportedBefore: Int = 0, skipped: Int = 0,
    stderr: inout OutputWriter
  ) {
    grouper.numberFrom(number << 32)
    // Taken out of `self` while the reader calls back, and put back below.
    var (reporter, progress) = (self.reporter, self.progress)
    let textsBefore = progress.texts
    let read = reader.readAll(
      &records, into: &grouper,
      tickEvery: reporter.showsProgress ? Self.progressStride : Int.max
    ) { diagnostic in
      if let line = diagnostic.line, line < reportedBefore { return }
      // Diagnostics go out at once, so they show while the run goes on.
      reporter.report(diagnostic, &stderr)
    } tick: { texts, offset in
      progress.read(
        texts: texts, after: textsBefore, to: offset, skipped: skipped, &reporter, &stderr)
    }
    progress.texts += read.texts
    (self.reporter, self.progress) = (reporter, progress)
    status = max(status, read.status)
    fileUnlisted.add(reader.takeUnlisted())
    fileWrongStage.add(reader.takeWrongStage())
    // More than 2^32 texts from one reader run into the next numbers: skip past them.
    nextNumber = max(number + 1, (grouper.nextNumber >> 32) + 1)
  }

  /// Reads a regular file or a pipe in chunks that the workers group, from the bytes `initial`
  /// already read (see the type's description). A file that must be grouped again is read
  /// again from `origin`; `file` is its number among the run's `files`.
  private mutating func readInChunks(
    _ fd: Int32, name: String, isPipe: Bool, origin: off_t, file: Int?,
    initial: UnsafeRawBufferPointer, workers: ChunkGroupers, stderr: inout OutputWriter
  ) {
    for state in states { state.file = file }
    let fileNumber = nextNumber
    var number = nextNumber
    let textsBefore = progress.texts
    let (tally, accepted, fellBack) = ChunkedFileTally.read(
      fd, name: name, maxRecordBytes: options.maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &number, initial: initial, checksLines: isPipe,
      take: { chunk, tally in
        chunk.results.findings.report(&reporter, &stderr)
        progress.took(texts: textsBefore + tally.texts, bytes: tally.bytes, &reporter, &stderr)
      },
      rest: { reader, number in
        // A pipe: the chunks taken are grouped, and one reader groups the rest into the same
        // groups. (A file is grouped again from its start, below.)
        guard isPipe else { return }
        takeWorkersGroups()
        gatherShards()  // the reader's groups may be theirs too
        var records = reader
        readRest(&records, number: number, skipped: progress.fileBytes, stderr: &stderr)
      })
    status = max(status, tally.status)
    fileUnlisted.add(tally.unlisted)
    fileWrongStage.add(tally.wrongStage)
    chunkCounts.accepted += accepted
    nextNumber = max(number, nextNumber)
    if isPipe && fellBack {
      chunkCounts.fallBacks += 1
      return
    }
    guard fellBack else { return takeWorkersGroups() }
    // The workers' groups of the file are dropped, the records in the mail with them.
    for state in states {
      state.takeMail()
      state.grouper = state.emptyGrouper(options: options)
    }
    chunkCounts.fallBacks += 1
    fileUnlisted = UnlistedTally()  // one reader counts the whole file again
    fileWrongStage = WrongStageTally()
    progress.texts = textsBefore
    guard origin >= 0, lseek(fd, origin, SEEK_SET) == origin else {
      status = max(status, .failure)
      let error = SystemError(path: name, doing: "cannot read it again", errno: errno)
      reporter.report(Diagnostic(.error, "Unreadable", error.message, file: name), &stderr)
      return
    }
    var records = RecordReader(fd: fd, name: name, maxRecordBytes: options.maxRecordBytes)
    readRest(&records, number: fileNumber, reportedBefore: tally.reportedBefore, stderr: &stderr)
    nextNumber = max(number, nextNumber)
  }

  /// Makes the workers' groups of a file this thread's, once every chunk is done: the records
  /// still in the mail go to the groupers that keep their groups, which become the run's
  /// shards (or are absorbed into `grouper`, where groups were made before them); the workers
  /// get empty groupers for the next file.
  private mutating func takeWorkersGroups() {
    for state in states { state.takeMail() }
    let parts = states.map(\.grouper)
    if shards.isEmpty && grouper.groups.isEmpty {
      shards = parts  // the usual case: kept apart, never copied
    } else {
      gatherShards()
      for part in parts { grouper.absorb(part) }
    }
    for state in states { state.grouper = state.emptyGrouper(options: options) }
  }

  /// Starts the workers and their chunks, once; nil if no thread could be started.
  private mutating func startWorkers() -> ChunkGroupers? {
    if let workers { return workers.count > 0 ? workers : nil }
    let options = options
    let mail = ShardMail(shards: options.jobs)
    let states = (0..<options.jobs).map {
      GroupWorker(
        options: options, shard: Shard(index: $0, count: options.jobs), mail: mail, files: files)
    }
    self.states = states
    let started = ChunkGroupers(threads: options.jobs, makeWorker: { states[$0] }) {
      chunk, state in
      state.group(chunk, options: options)
    }
    workers = started
    // Each worker has one chunk in hand and one waiting; the reader fills one more.
    ring = (0..<2 * started.count + 1).map { _ in
      FileChunk(capacity: chunkSize, results: ChunkFindings())
    }
    return started.count > 0 ? started : nil
  }

  /// The warning about the group object at `line` of the output, whose sums of weights passed
  /// `FieldLimits.largest` and were written as it: where the sum passed depends on the order
  /// in which threads add their parts up, the group object does not.
  static func weightWarning(file: String, line: Int) -> Diagnostic {
    Diagnostic(
      .warning, "WeightSaturated",
      "'\(GroupField.moreWeight.key)', the sum of the non-leading records' "
        + "'\(RecordField.summaryArgCount.key)', passes \(FieldLimits.largest): written as "
        + "\(FieldLimits.largest), and so is every category '\(GroupField.CategoryEntry.weight.key)' "
        + "that passes it",
      file: file, line: line)
  }

  /// The one error of each kind of another stage's texts in `file` (`WrongStage`): what to run
  /// first, or instead.
  func wrongStageDiagnostics(file: String) -> [Diagnostic] {
    let merge = options.merge
    return fileWrongStage.diagnostics(
      file: file, severity: .error,
      wanted: merge ? StageText.groupObject.phrase : StageText.record.phrase
    ) { kind in
      switch kind {
      case .pushPayload where merge:
        return "run notif-parse, then notif-group without --merge "
          + "(\(WrongStageTally.pipeline(file, "notif-parse", "notif-group")))"
      case .pushPayload:
        return "run notif-parse first "
          + "(\(WrongStageTally.pipeline(file, "notif-parse", "notif-group")))"
      case .groupObject:
        return "--merge merges group objects "
          + "(\(WrongStageTally.pipeline(file, "notif-group --merge")))"
      case .record:
        return "notif-group groups records without --merge "
          + "(\(WrongStageTally.pipeline(file, "notif-group")))"
      case .pushResponse, .digestObject:
        return kind.readerAdvice(file: file)
      }
    }
  }

}

/// A worker's state: the groups of the chunks it grouped since the file began, and its reader
/// of records. Only its worker touches it while a file is read in chunks; only the reading
/// thread between files, once every chunk is done (the pool's lock orders the two).
final class GroupWorker: @unchecked Sendable {
  var grouper: Grouper
  private var taker = TextTaker()
  /// Which groups this worker keeps, and where the records of the others go.
  private let shard: Shard
  private let mail: ShardMail
  private let files: RecordFiles
  /// The number among `files` of the file being read, if it has one.
  var file: Int?

  init(options: GroupOptions, shard: Shard, mail: ShardMail, files: RecordFiles) {
    self.shard = shard
    self.mail = mail
    self.files = files
    grouper = Grouper(options: options, shard: shard, files: files)
  }

  /// A grouper for the next file, keeping this worker's share.
  func emptyGrouper(options: GroupOptions) -> Grouper {
    Grouper(options: options, shard: shard, files: files)
  }

  /// Adds the records other workers sent to this one.
  func takeMail() {
    let taken = mail.take(for: shard.index)
    for sent in taken { grouper.addSent(sent) }
    mail.recycle(taken)
  }

  /// Groups the records of `chunk` into `grouper`, numbered by the chunk's number.
  /// The chunk's diagnostics are kept as values, for the reading thread to write in input
  /// order (`ChunkFindings.report`).
  func group(_ chunk: FileChunk<ChunkFindings>, options: GroupOptions) {
    grouper.numberFrom(chunk.number << 32)
    var diagnostics: [Diagnostic] = []  // allocated at the first, if any
    taker.startFile()
    taker.source = file.map { (file: $0, base: chunk.offset) }
    let read = chunk.read(maxRecordBytes: options.maxRecordBytes) { records in
      taker.readAll(&records, into: &grouper) { diagnostics.append($0) }
    }
    chunk.results = ChunkFindings(
      diagnostics: diagnostics, status: read.status, texts: read.texts,
      unlisted: taker.takeUnlisted(), wrongStage: taker.takeWrongStage())
    for target in 0..<shard.count where target != shard.index {
      guard grouper.sent.indices.contains(target), grouper.sent[target].count > 0 else { continue }
      mail.post(grouper.takeSent(to: target, leaving: mail.spare()), to: target)
    }
    takeMail()
  }
}

/// The records that the workers send each other (`Grouper.send`), waiting for the worker
/// that keeps their groups to take them, when it is done with a chunk.
final class ShardMail: @unchecked Sendable {
  // In allocated memory: a pthread object must not move.
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private var boxes: [[ByteBuffer]]  // guarded by `lock`

  init(shards: Int) {
    boxes = Array(repeating: [], count: shards)
    pthread_mutex_init(lock, nil)
  }

  deinit {
    pthread_mutex_destroy(lock)
    lock.deallocate()
  }

  /// Leaves `sent` for shard `target`.
  func post(_ sent: ByteBuffer, to target: Int) {
    pthread_mutex_lock(lock)
    boxes[target].append(sent)
    pthread_mutex_unlock(lock)
  }

  /// What was left for shard `index`, taken.
  func take(for index: Int) -> [ByteBuffer] {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    let taken = boxes[index]
    boxes[index] = []
    return taken
  }

  /// Keeps buffers whose records were added, emptied, for `spare`: a buffer of a chunk's
  /// records, freed and made again for every chunk, cost a system call and page faults each
  /// time (the worker threads' system time doubled).
  func recycle(_ buffers: [ByteBuffer]) {
    guard !buffers.isEmpty else { return }
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    for var buffer in buffers where spares.count < Self.spareLimit {
      buffer.removeAll()
      spares.append(buffer)
    }
  }

  /// An empty buffer for a worker's records of another's groups: one recycled if any.
  func spare() -> ByteBuffer {
    pthread_mutex_lock(lock)
    defer { pthread_mutex_unlock(lock) }
    return spares.popLast() ?? ByteBuffer(capacity: Self.spareCapacity)
  }

  private var spares: [ByteBuffer] = []  // guarded by `lock`
  private static let spareLimit = 16
  private static let spareCapacity = 64 << 10
}

/// The worker threads of notif-group: each groups chunks into its `GroupWorker`.
typealias ChunkGroupers = WorkerPool<FileChunk<ChunkFindings>, GroupWorker>

/// Takes the JSON texts of an input one at a time: groups a record, or merges a group object,
/// and says what is wrong with it. One per thread: it keeps the last `created_at` parsed.
struct TextTaker {
  private var fields = RecordFieldReader()
  /// Finds the fields of each record.
  private let locator = RecordFieldLocator()
  /// Whether the file being read has had its `UnrecordedGrouping` warning.
  private var warnedUnrecorded = false
  /// The records left out because the device does not list them, since `takeUnlisted`.
  private var unlisted = UnlistedTally()
  /// The texts that are another stage's (payloads, group objects without `--merge`), since
  /// `takeWrongStage`: rejected, and reported once per input.
  private var wrongStage = WrongStageTally()
  /// The number of the file being read among the run's `RecordFiles`, and how many of its
  /// bytes come before what the reader reads: a record's place there. Nil for a pipe.
  var source: (file: Int, base: Int)?

  /// The records left out since the last call, which starts a new count.
  mutating func takeUnlisted() -> UnlistedTally {
    defer { unlisted = UnlistedTally() }
    return unlisted
  }

  /// The texts that are another stage's since the last call, which starts a new count.
  mutating func takeWrongStage() -> WrongStageTally {
    defer { wrongStage = WrongStageTally() }
    return wrongStage
  }

  /// A new input starts.
  mutating func startFile() {
    warnedUnrecorded = false
  }

  /// Reads every JSON text of `records` into `grouper`; each diagnostic goes to `emit`, and
  /// every `tickEvery` texts `tick` gets how many were read and the offset in the input of
  /// the last (`RecordReader.recordOffset`), for `--progress`. Returns the exit status the
  /// diagnostics call for, and how many texts were read (a malformed one counted).
  mutating func readAll(
    _ records: inout RecordReader, into grouper: inout Grouper, tickEvery: Int = .max,
    emit: (Diagnostic) -> Void, tick: (_ texts: Int, _ offset: Int) -> Void = { _, _ in }
  ) -> (status: ExitStatus, texts: Int) {
    // A record's keys in their usual order are read by one comparison each; a group object's
    // are read as before.
    records.expectRootKeys(RecordFieldLocator.keys)
    var status = ExitStatus.success
    var texts = 0
    var nextTick = tickEvery
    while true {
      let event: RecordEvent
      do {
        event = try records.next()
      } catch {
        emit(Diagnostic(.error, "Unreadable", error.message, file: records.name))
        return (max(status, .failure), texts)
      }
      switch event {
      case .end:
        return (status, texts)
      case .idle:
        continue  // groups are written at the end: nothing is ready before
      case .failure(let error, let line, let column):
        let (diagnostic, calledFor) = records.failure(error, line: line, column: column)
        status = max(status, calledFor)
        texts += 1
        emit(diagnostic)
      case .record:
        status = max(status, take(&records, into: &grouper, report: emit))
        texts += 1
        if texts == nextTick {
          nextTick += tickEvery
          tick(texts, records.recordOffset)
        }
      }
    }
  }

  /// Groups the current record, or merges the current group object, and reports what is wrong
  /// with it; returns `.rejected` when it was rejected.
  mutating func take(
    _ records: inout RecordReader, into grouper: inout Grouper, report: (Diagnostic) -> Void
  ) -> ExitStatus {
    let isCompact = records.recordIsCompact
    let known = records.recordExpectedValues
    var unrecorded = false
    // What a rejected text is, when it is another stage's: told only of those rejected.
    var otherStage: StageText? = nil
    let merge = grouper.options.merge
    let outcome: (problem: RecordProblem?, badWeight: Int?) = records.withRecord { view in
      let outcome: (problem: RecordProblem?, badWeight: Int?)
      if merge {
        do throws(RecordProblem) {
          unrecorded = try !grouper.add(object: view, isCompact: isCompact, fieldReader: &fields)
          return (nil, nil)
        } catch {
          outcome = (error, nil)
        }
      } else {
        let place = source.flatMap {
          RecordFiles.place(file: $0.file, offset: $0.base + records.recordOffset)
        }
        outcome = groupRecord(
          view, isCompact: isCompact, known: known, place: place, into: &grouper)
        guard outcome.problem != nil else { return outcome }
      }
      if let kind = StageText.kind(of: view), kind != (merge ? .groupObject : .record) {
        otherStage = kind
      }
      return outcome
    }
    if let otherStage {
      wrongStage.add(otherStage, line: records.recordLine)
      return .rejected
    }
    if let offset = outcome.badWeight {
      let at = records.position(ofRecordOffset: offset)
      report(
        Diagnostic(
          .warning, "BadSummaryArgCount",
          FieldLimits.notInRange(RecordField.summaryArgCount.key, FieldLimits.positive)
            + ": counted as 1",
          file: records.name, line: at.line, column: at.column))
    }
    if unrecorded && !warnedUnrecorded {
      warnedUnrecorded = true
      report(Self.unrecordedWarning(grouper.grouping, file: records.name, line: records.recordLine))
    }
    guard let problem = outcome.problem else { return .success }
    let at = records.position(ofRecordOffset: problem.offset)
    report(
      Diagnostic(
        .error, problem.code, problem.message, file: records.name, line: at.line,
        column: at.column))
    return .rejected
  }

  /// Groups the record at the root of `view`; returns the problem that rejects it, if any, and
  /// the offset of a bad `summary_arg_count`, if any.
  private mutating func groupRecord(
    _ view: JSONView, isCompact: Bool, known: ExpectedKeyValues, place: Int?,
    into grouper: inout Grouper
  ) -> (RecordProblem?, Int?) {
    guard view.kind(0) == .object else {
      return (
        .notAnObject, nil
      )
    }
    let found = RecordFields(view, locator: locator, known: known)
    let facts: RecordFacts
    let reason: Unlisted?
    do throws(RecordProblem) {
      facts = try fields.facts(view, found)
      reason = try DeviceListing.unlisted(view, found.listing)
    } catch {
      return (error, nil)
    }
    if let reason, !grouper.options.allPushes {
      unlisted.add(reason)
      return (nil, nil)  // not grouped: nor is its summary_arg_count read
    }
    grouper.add(record: view, isCompact: isCompact, fields: found, facts: facts, place: place)
    return (nil, facts.badWeight ? Int(view.tokens[found.summaryArgCount].start) : nil)
  }

  /// The warning, given once per file at its first group object without `grouping`: it was
  /// merged as made with the merge's options.
  static func unrecordedWarning(_ options: Grouping, file: String, line: Int) -> Diagnostic {
    let spelled = [GroupField.GroupingEntry.by, .sort, .order].map {
      Grouping.describe($0, of: options)
    }
    return Diagnostic(
      .warning, "UnrecordedGrouping",
      "a group object without '\(GroupField.grouping.key)' (made by an older notif-group): "
        + "merged unchecked, as if made with \(spelled.joined(separator: " "))",
      file: file, line: line, column: 1)
  }
}
