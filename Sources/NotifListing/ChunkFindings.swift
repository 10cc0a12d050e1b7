import NotifCLI
import NotifJSON
import NotifModel

/// What a worker of `--jobs` made of one chunk of a file (`FileChunks`), besides what it keeps
/// (groups, entries): its diagnostics, written in full, the exit status they call for, the
/// records it left out because the device does not list them, and the texts that are another
/// stage's, reported once for the file. notif-group and notif-show.
public struct ChunkFindings: Sendable {
  public var diagnostics: ByteBuffer
  public var status: ExitStatus
  public var unlisted: UnlistedTally
  public var wrongStage: WrongStageTally

  public init(
    diagnostics: ByteBuffer = ByteBuffer(capacity: 0), status: ExitStatus = .success,
    unlisted: UnlistedTally = UnlistedTally(), wrongStage: WrongStageTally = WrongStageTally()
  ) {
    self.diagnostics = diagnostics
    self.status = status
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
  /// The first line of the chunks not taken yet: a reader that reads the file again after
  /// them writes only the diagnostics from there on.
  public private(set) var reportedBefore = 1

  public init() {}

  /// Takes the findings of `chunk`, the next in input order: its diagnostics go to `stderr` at
  /// once, so they show while the run goes on. A failed write to standard error cannot be
  /// reported anywhere: it does not stop the run.
  public mutating func take<Results: ChunkReport>(
    _ chunk: FileChunk<Results>, stderr: inout OutputWriter
  ) {
    let findings = chunk.results.findings
    if findings.diagnostics.count > 0 {
      try? stderr.write(findings.diagnostics)
      try? stderr.flush()
    }
    status = max(status, findings.status)
    unlisted.add(findings.unlisted)
    wrongStage.add(findings.wrongStage)
    reportedBefore = chunk.endLine
  }
}

extension ChunkedFileTally {
  /// Reads `fd` (named `name`) in the chunks of `ring`, which `workers` read
  /// (`FileChunks.read`), and takes each chunk's findings in input order, then hands the chunk
  /// to `accept`; `nextNumber` is the number of the first chunk, and on return one above every
  /// number used. Returns what the chunks found, how many were taken, and whether the guess
  /// that the input is one text per line was wrong.
  ///
  /// `initial` and `checksLines` are as for `FileChunks.read`. Then one reader goes on from
  /// the first chunk not taken: `rest` gets it, that chunk's number, and `stderr`. A caller
  /// that ignores it must drop what the workers kept of the input and read it again from its
  /// start, writing only the diagnostics from `reportedBefore` on.
  public static func read<Results: ChunkReport, Worker: ~Copyable>(
    _ fd: Int32, name: String, maxRecordBytes: Int, ring: [FileChunk<Results>],
    workers: WorkerPool<FileChunk<Results>, Worker>, nextNumber: inout Int,
    initial: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0),
    checksLines: Bool = false,
    stderr: inout OutputWriter, accept: (FileChunk<Results>) -> Void = { _ in },
    rest: (consuming RecordReader, _ number: Int, _ stderr: inout OutputWriter) -> Void = {
      _, _, _ in
    }
  ) -> (tally: ChunkedFileTally, accepted: Int, fellBack: Bool) {
    var tally = ChunkedFileTally()
    var fellBack = false
    let outcome = FileChunks.read(
      fd, name: name, maxRecordBytes: maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &nextNumber, initial: initial, checksLines: checksLines,
      accept: { chunk in
        tally.take(chunk, stderr: &stderr)
        accept(chunk)
      },
      rest: { reader, number in
        fellBack = true
        rest(reader, number, &stderr)
      })
    return (tally, outcome.accepted, fellBack)
  }
}
