import NotifCLI
import NotifJSON
import NotifListing
import NotifModel

/// Reads JSON texts into the entries a page shows: every one, or the first `--limit` in a
/// heap. The run has one for the texts it reads itself, and each worker of `--jobs` one for
/// the chunks it reads; a chunk's entries join the run's when the chunk is taken. The first
/// `--limit` of all the texts are among the first `--limit` of each chunk's.
struct ShowGatherer {
  let options: ShowOptions
  /// The longest category identifier of the registry, in bytes (`EntryReader`).
  let longestCategory: Int
  var reader: EntryReader
  /// The entries shown: every one read, or the first `--limit` in feed order.
  var entries: TopList<ShownEntry>
  /// The input order of the next JSON text: a text's order decides ties, so it is the same
  /// whichever thread reads it (`read(_:number:report:)`).
  private var nextMajor = 0
  /// With `journals`, every entry `entries` took, in turn (a worker's: the entries of its
  /// chunk that the page may show).
  var journal: [ShownEntry] = []
  var journals = false
  /// The texts that are another stage's (push payloads, answers) since `takeWrongStage`:
  /// rejected, and reported once per input.
  private var wrongStage = WrongStageTally()
  /// Every entry the view lists and the unread notifications in them, whether `--limit` keeps
  /// them or not, since `takeCounts`.
  var counts = ShownCounts()

  init(options: ShowOptions, longestCategory: Int) {
    self.options = options
    self.longestCategory = longestCategory
    reader = EntryReader(
      lastSeen: options.lastSeen, shown: ShownText(options), longestCategory: longestCategory,
      allPushes: options.allPushes, tapLink: options.tapLink)
    entries = TopList(limit: options.limit, ranking: options.ranking)
  }

  /// Reads every JSON text of `records`, the i-th (from 0) in input order `number << 32 + i`;
  /// each diagnostic goes to `report`, and every `tickEvery` texts `tick` gets how many were
  /// read and the offset in the input of the last (`RecordReader.recordOffset`), for
  /// `--progress`. Returns the exit status the diagnostics call for.
  mutating func read(
    _ records: inout RecordReader, number: Int, tickEvery: Int = .max,
    report: (Diagnostic) -> Void, tick: (_ texts: Int, _ offset: Int) -> Void = { _, _ in }
  ) -> ExitStatus {
    nextMajor = number << 32
    let first = nextMajor
    var nextTick = tickEvery
    var rejected = false
    records.expectRootKeys(RecordFieldLocator.keys)
    let read = records.forEachRecord(report: report, whenIdle: {}) { records in
      let isCompact = records.recordIsCompact
      let known = records.recordExpectedValues
      let (problem, otherStage) = records.withRecord { view -> (RecordProblem?, StageText?) in
        let problem = take(view, isCompact: isCompact, known: known)
        // What a rejected text is, when it is another stage's: told only of those rejected.
        guard problem != nil, let kind = StageText.kind(of: view),
          kind == .pushPayload || kind == .pushResponse
        else { return (problem, nil) }
        return (problem, kind)
      }
      if let otherStage {
        rejected = true
        wrongStage.add(otherStage, line: records.recordLine)
      } else if let problem {
        rejected = true
        report(
          records.diagnostic(.error, problem.code, problem.message, atRecordOffset: problem.offset))
      }
      if nextMajor - first == nextTick {
        tick(nextTick, records.recordOffset)
        nextTick += tickEvery
      }
    }
    return max(read, rejected ? .rejected : .success)
  }

  /// The counts since the last call, which starts a new count.
  mutating func takeCounts() -> ShownCounts {
    defer { counts = ShownCounts() }
    return counts
  }

  /// The texts that are another stage's since the last call, which starts a new count.
  mutating func takeWrongStage() -> WrongStageTally {
    defer { wrongStage = WrongStageTally() }
    return wrongStage
  }

  /// The one error of each kind of another stage's texts in `file` (`WrongStage`): what to run
  /// first, or instead.
  static func wrongStageDiagnostics(_ tally: WrongStageTally, file: String) -> [Diagnostic] {
    tally.diagnostics(
      file: file, severity: .error, wanted: "a record, group object or digest object"
    ) { kind in
      switch kind {
      case .pushPayload:
        return "run notif-parse first "
          + "(\(WrongStageTally.pipeline(file, "notif-parse", "notif-show")))"
      case .pushResponse:
        return kind.readerAdvice(file: file)
      case .record, .groupObject, .digestObject:
        return nil
      }
    }
  }

  /// The first number above those the last `read` used: a reader of more than 2^32 texts runs
  /// into the numbers after its own.
  var nextFreeNumber: Int { (nextMajor >> 32) + 1 }

  /// How many texts the last `read` read, given the `number` it started from.
  func texts(from number: Int) -> Int { nextMajor - (number << 32) }

  /// Reads the JSON text in `view` and keeps what it shows when the view shows it; returns the
  /// problem that rejects it, if any. Its first members had a record's keys at their places,
  /// their values at the tape indices `known` gives (`RecordReader.recordExpectedValues`).
  private mutating func take(
    _ view: JSONView, isCompact: Bool, known: ExpectedKeyValues
  ) -> RecordProblem? {
    let major = nextMajor
    nextMajor += 1
    guard view.kind(0) == .object else {
      return .notAnObject
    }
    let fields = ShownFields(view, locator: reader.locator, known: known)
    do throws(RecordProblem) {
      let entry: ShownEntry
      if fields.digestID >= 0 && fields.leading < 0 {
        let digest = try reader.digest(view, major: major)
        counts.add(unread: digest.state == .read ? 0 : digest.unreadCount)
        entry = .digest(digest)
      } else if fields.leading >= 0 {
        let stack = try reader.stack(
          view, isCompact: isCompact, major: major, ranking: options.ranking, order: options.view)
        guard let stack else { return nil }
        counts.add(unread: stack.unreadCount)
        entry = .stack(stack)
      } else {
        let key = try reader.key(view, fields, major: major, minor: 0)
        try reader.checkStrings(view, fields)
        if reader.leavesOut(try reader.unlisted(view, fields)) { return nil }
        counts.add(unread: fields.readAt < 0 || view.kind(fields.readAt) == .null ? 1 : 0)
        guard entries.admits(key) else { return nil }
        entry = .item(reader.item(view, fields, key: key))
      }
      entries.insert(entry)
      if journals { journal.append(entry) }
      return nil
    } catch {
      return error
    }
  }
}

/// What a worker of `--jobs` made of a chunk: its findings (the diagnostics kept as values, for
/// the run to write in input order), and the entries of the chunk that the page may show,
/// which join the run's when the chunk is taken. A chunk that is not taken takes its entries
/// with it.
struct ShowChunk: ChunkReport {
  var findings = ChunkFindings()
  var entries: [ShownEntry] = []
  var counts = ShownCounts()
}

/// How many entries a view lists, and unread notifications in them: the page's unread count,
/// and with `--limit` the entries it leaves out ("12 older").
struct ShownCounts: Sendable {
  var entries = 0
  var unread = 0

  mutating func add(unread: Int) {
    entries += 1
    self.unread = Self.sum(self.unread, unread)
  }

  mutating func add(_ other: ShownCounts) {
    entries += other.entries
    unread = Self.sum(unread, other.unread)
  }

  /// `a + b`, or the largest Int where that overflows: the counts of group objects are the
  /// input's, and a sum of them may not trap.
  static func sum(_ a: Int, _ b: Int) -> Int {
    let (total, overflow) = a.addingReportingOverflow(b)
    return overflow ? .max : total
  }
}

/// Which input the run is reading: the workers' lists start again with each (`ShowWorker`).
/// Set by the run's thread only between inputs, when no chunk is out; read by a worker after
/// taking a chunk, which the pool's lock orders after the setting.
final class ShowInputNumber: @unchecked Sendable {
  var value = 0
}

/// A worker of `--jobs`: its gatherer, whose reader and buffers it reuses from chunk to chunk,
/// and whose list of entries it keeps for the chunks of one input, in the order it reads them
/// (the pool hands them out in input order). With `--limit`, a text the list does not admit
/// is not among the first of the input, since all the texts before it that the list holds
/// are; so of each chunk only what the list takes, its journal, goes to the run. A chunk
/// that is not taken ends the input's chunks (one reader goes on), so whatever it put in the
/// list decides no chunk that is taken; the next input starts a new list.
struct ShowWorker: ~Copyable {
  var gatherer: ShowGatherer
  let input: ShowInputNumber
  private var listInput = -1

  init(gatherer: ShowGatherer, input: ShowInputNumber) {
    self.gatherer = gatherer
    self.gatherer.journals = true
    self.input = input
  }

  /// Reads the texts of `chunk`, its results into the chunk.
  mutating func read(_ chunk: FileChunk<ShowChunk>) {
    var results = ShowChunk()
    if listInput != input.value {
      listInput = input.value
      gatherer.entries.removeAll()
    }
    gatherer.journal.removeAll(keepingCapacity: true)
    results.findings.status = chunk.read(maxRecordBytes: gatherer.options.maxRecordBytes) {
      records in
      gatherer.read(&records, number: chunk.number) { results.findings.diagnostics.append($0) }
    }
    results.findings.texts = gatherer.texts(from: chunk.number)
    results.findings.unlisted = gatherer.reader.takeUnlisted()
    results.findings.wrongStage = gatherer.takeWrongStage()
    results.entries = gatherer.journal
    results.counts = gatherer.takeCounts()
    chunk.results = results
    // Without --limit every entry is shown: the list decides nothing, and would hold the
    // input's entries a second time.
    if gatherer.options.limit == nil { gatherer.entries.removeAll() }
  }
}

/// The worker threads of `--jobs`, each with its own gatherer.
typealias ShowWorkers = WorkerPool<FileChunk<ShowChunk>, ShowWorker>
