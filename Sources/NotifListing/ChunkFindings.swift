import NotifJSON
import NotifModel

/// What a worker of `--jobs` made of one chunk of a file (`FileChunks`), besides what it keeps
/// (groups, entries): its diagnostics, written in full, the exit status they call for, and
/// the records it left out because the device does not list them. notif-group and notif-show.
public struct ChunkFindings: Sendable {
  public var diagnostics: ByteBuffer
  public var status: ExitStatus
  public var unlisted: UnlistedTally

  public init(
    diagnostics: ByteBuffer = ByteBuffer(capacity: 0), status: ExitStatus = .success,
    unlisted: UnlistedTally = UnlistedTally()
  ) {
    self.diagnostics = diagnostics
    self.status = status
    self.unlisted = unlisted
  }
}

/// The findings of the chunks of one file, taken in input order as `FileChunks.read` accepts
/// them.
public struct ChunkedFileTally {
  public private(set) var status = ExitStatus.success
  public private(set) var unlisted = UnlistedTally()
  /// The first line of the chunks not taken yet: a reader that reads the file again after
  /// them writes only the diagnostics from there on.
  public private(set) var reportedBefore = 1

  public init() {}

  /// Takes the findings of `chunk`, the next in input order: its diagnostics go to `stderr` at
  /// once, so they show while the run goes on. A failed write to standard error cannot be
  /// reported anywhere: it does not stop the run.
  public mutating func take(_ chunk: FileChunk<ChunkFindings>, stderr: inout OutputWriter) {
    if chunk.results.diagnostics.count > 0 {
      try? stderr.write(chunk.results.diagnostics)
      try? stderr.flush()
    }
    status = max(status, chunk.results.status)
    unlisted.add(chunk.results.unlisted)
    reportedBefore = chunk.endLine
  }
}

extension ChunkedFileTally {
  /// Reads the regular file `fd` (named `name`) in the chunks of `ring`, which `workers` read
  /// (`FileChunks.read`), and takes each chunk's findings in input order; `nextNumber` is the
  /// number of the first chunk, and on return one above every number used. Returns what the
  /// chunks found, how many were taken, and whether the guess that the file is one text per
  /// line was wrong: then what the workers kept of the file must be dropped, and one reader
  /// reads it again from its start (writing only the diagnostics from `reportedBefore` on).
  public static func read<Worker: ~Copyable>(
    _ fd: Int32, name: String, maxRecordBytes: Int, ring: [FileChunk<ChunkFindings>],
    workers: WorkerPool<FileChunk<ChunkFindings>, Worker>, nextNumber: inout Int,
    stderr: inout OutputWriter
  ) -> (tally: ChunkedFileTally, accepted: Int, fellBack: Bool) {
    var tally = ChunkedFileTally()
    var fellBack = false
    let outcome = FileChunks.read(
      fd, name: name, maxRecordBytes: maxRecordBytes, ring: ring, workers: workers,
      nextNumber: &nextNumber, accept: { chunk in tally.take(chunk, stderr: &stderr) },
      rest: { _, _ in fellBack = true })
    return (tally, outcome.accepted, fellBack)
  }
}
