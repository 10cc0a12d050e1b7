import NotifCLI
import NotifJSON
import NotifModel

/// What a worker of `--jobs` made of one chunk of a file (`FileChunks`), besides what it keeps
/// (groups, entries): its diagnostics, as values for the run's `Reporter` to write (or leave
/// out) in input order, the exit status they call for, how many JSON texts it read, the
/// records it left out because the device does not list them, and the texts that are another
/// stage's, reported once for the file. notif-group and notif-show.
public struct ChunkFindings: Sendable {
  /// The chunk's diagnostics in input order: empty, and allocated only when it has any.
  public var diagnostics: [Diagnostic]
  public var status: ExitStatus
  /// The JSON texts the chunk held (records and those rejected), for `--progress`.
  public var texts: Int
  public var unlisted: UnlistedTally
  public var wrongStage: WrongStageTally

  public init(
    diagnostics: [Diagnostic] = [], status: ExitStatus = .success, texts: Int = 0,
    unlisted: UnlistedTally = UnlistedTally(), wrongStage: WrongStageTally = WrongStageTally()
  ) {
    self.diagnostics = diagnostics
    self.status = status
    self.texts = texts
    self.unlisted = unlisted
    self.wrongStage = wrongStage
  }
}

/// What a worker made of a chunk: its findings, and whatever else the tool keeps of it.
public protocol ChunkReport {
  var findings: ChunkFindings { get }
}

extension ChunkFindings: ChunkReport {
  public var findings: ChunkFindings { self }
}

/// The findings of the chunks of one file, taken in input order as `FileChunks.read` accepts
/// them.
public struct ChunkedFileTally {
  public private(set) var status = ExitStatus.success
  public private(set) var unlisted = UnlistedTally()
  public private(set) var wrongStage = WrongStageTally()
  /// The JSON texts of the chunks taken.
  public private(set) var texts = 0
  /// The bytes of the input up to the end of the last chunk taken (`FileChunk.offset`).
  public private(set) var bytes = 0
  /// The first line of the chunks not taken yet: a reader that reads the file again after
  /// them writes only the diagnostics from there on.
  public private(set) var reportedBefore = 1

  public init() {}

  /// Takes the findings of `chunk`, the next in input order, but for its diagnostics, which
  /// its taker writes (`ChunkFindings.report`).
  public mutating func take<Results: ChunkReport>(_ chunk: FileChunk<Results>) {
    let findings = chunk.results.findings
    status = max(status, findings.status)
    texts += findings.texts
    bytes = chunk.offset + chunk.count
    unlisted.add(findings.unlisted)
    wrongStage.add(findings.wrongStage)
    reportedBefore = chunk.endLine
  }
}

extension ChunkFindings {
  /// Writes the chunk's diagnostics through `reporter` to `stderr` at once, so they show while
  /// the run goes on. The chunks' takers call it in input order, on the thread that takes
  /// them, so that `--max-errors` leaves out the same diagnostics whatever `--jobs` is.
  public func report(_ reporter: inout Reporter, _ stderr: inout OutputWriter) {
    for diagnostic in diagnostics {
      reporter.report(diagnostic, &stderr)
    }
  }
}

extension ChunkedFileTally {
  /// Reads `fd` (named `name`) in the chunks of `ring`, which `workers` read
  /// (`FileChunks.read`), and takes each chunk's findings in input order, then hands the chunk
  /// and the tally so far to `take`, which writes its diagnostics (`ChunkFindings.report`) and
  /// keeps what else it made; `nextNumber` is the number of the first chunk, and on return one
  /// above every number used. Returns what the chunks found, how many were taken, and whether
  /// the guess that the input is one text per line was wrong.
  ///
  /// `initial` and `checksLines` are as for `FileChunks.read`. Then one reader goes on from
  /// the first chunk not taken: `rest` gets it and that chunk's number. A caller that ignores
  /// it must drop what the workers kept of the input and read it again from its start,
  /// writing only the diagnostics from `reportedBefore` on.
  public static func read<Results: ChunkReport, Worker: ~Copyable>(
    _ fd: Int32, name: String, maxRecordBytes: Int, ring: [FileChunk<Results>],
    workers: WorkerPool<FileChunk<Results>, Worker>, nextNumber: inout Int,
    initial: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
    checksLines: Bool = false, take: (FileChunk<Results>, _ tally: ChunkedFileTally) -> Void,
    rest: (consuming RecordReader, _ number: Int) -> Void = { _, _ in }
  ) -> (tally: ChunkedFileTally, accepted: Int, fellBack: Bool) {
    var tally = ChunkedFileTally()
    var fellBack = false
    let outcome = FileChunks.read(
      fd, name: name, maxRecordBytes: maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &nextNumber, initial: initial, checksLines: checksLines,
      accept: { chunk in
        tally.take(chunk)
        take(chunk, tally)
      },
      rest: { reader, number in
        fellBack = true
        rest(reader, number)
      })
    return (tally, outcome.accepted, fellBack)
  }
}
