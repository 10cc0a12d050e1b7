import NotifJSON
import NotifModel
import NotifSweep

/// A run of whole lines of one input, decided by a worker (`MarkDecider`); the pass hands the
/// batches to the driver in input order, so the output is the same whatever the number of
/// workers and however they are scheduled.
///
/// The reading thread fills `lines`, `ends`, `firstLine` and `fileName`; the worker writes the
/// results; the reading thread reads them once the batch is handed back (`OrderedJobs`).
///
/// The properties touched once a line are `@exclusivity(unchecked)`: one thread at a time has
/// the batch, no access to one of them overlaps another to the same, and the run-time check
/// would cost a sixth of the reading thread's time.
final class MarkBatch: @unchecked Sendable {
  /// A stretch of the lines to keep, in order: unchanged lines, as runs of `lines`, and changed
  /// ones, as runs of `edited`.
  enum Piece: Equatable {
    case unchanged(Range<Int>)
    case edited(Range<Int>)
  }

  /// The lines, each with a line feed (one is added to a last line without it). Never a line
  /// longer than `--max-record-bytes`: the pass streams those itself.
  @exclusivity(unchecked) private(set) var lines: ByteBuffer
  /// After each line, how many bytes of its input the reader had consumed (`bytesRead`): where
  /// the prefix of a store ends that keeps the lines up to it as they are.
  @exclusivity(unchecked) private(set) var ends: [Int64] = []
  /// The offset in `lines` of each line's line feed, as `append` put it there: the worker walks
  /// these rather than searching the bytes again.
  @exclusivity(unchecked) private var lineFeeds: [Int] = []
  /// The line number of the first line in its file (set with the first line), and the file's
  /// name in diagnostics.
  var firstLine = 1
  var fileName = ""

  // Results.
  /// The lines to keep, changed or not.
  @exclusivity(unchecked) private(set) var pieces: [Piece] = []
  /// The changed lines, each with its line feed.
  @exclusivity(unchecked) var edited = ByteBuffer(capacity: 64 * 1024)
  /// What `--dry-run` shows: the changed lines and the deleted records' archive lines.
  @exclusivity(unchecked) var changes = ByteBuffer(capacity: 0)
  /// The archive lines of the deleted records.
  @exclusivity(unchecked) var gone = ByteBuffer(capacity: 0)
  /// The quarantine entries of the lines that are not records, with `--quarantine`.
  @exclusivity(unchecked) var quarantined = ByteBuffer(capacity: 0)
  /// What to report, in line order; `rejected` if any is an error.
  @exclusivity(unchecked) var diagnostics: [Diagnostic] = []
  var rejected = false
  @exclusivity(unchecked) var tally = SweepTally()
  /// Where the ids of the records with an id of `--id` or `--ids-from` are
  /// (`IDSet.slot(of:)`), one for each such record.
  @exclusivity(unchecked) var foundIDs: [Int] = []
  /// The first line changed, deleted or quarantined, and the first piece after the lines
  /// before it: in place, where the store's prefix ends.
  private(set) var firstChange: (line: Int, piece: Int)?

  init(capacity: Int) {
    lines = ByteBuffer(capacity: capacity)
  }

  /// The number of lines.
  var lineCount: Int { ends.count }

  /// Whether the batch grew well past `batchSize` for a long line: it is dropped once done
  /// rather than kept, so that memory goes back to a few batches.
  func isOversized(batchSize: Int) -> Bool { lines.capacity > 4 * batchSize }

  /// Empties the batch for lines of `file`, keeping its storage.
  func reset(file: String) {
    fileName = file
    lines.removeAll()
    ends.removeAll(keepingCapacity: true)
    lineFeeds.removeAll(keepingCapacity: true)
    pieces.removeAll(keepingCapacity: true)
    edited.removeAll()
    changes.removeAll()
    gone.removeAll()
    quarantined.removeAll()
    diagnostics.removeAll(keepingCapacity: true)
    rejected = false
    tally = SweepTally()
    foundIDs.removeAll(keepingCapacity: true)
    firstChange = nil
  }

  /// Adds `line` (without its line feed), after which the reader had consumed `end` bytes.
  func append(_ line: UnsafeRawBufferPointer, end: Int64) {
    lines.append(line)
    lines.append(UInt8(ascii: "\n"))
    lineFeeds.append(lines.count - 1)
    ends.append(end)
  }

  /// Decides every line, in order.
  func process(with decider: inout MarkDecider) {
    lines.withUnsafeBytes { bytes in
      var start = 0
      var index = 0
      var runStart = 0
      for stop in lineFeeds {
        let line = UnsafeRawBufferPointer(rebasing: bytes[start..<stop])
        let editedStart = edited.count
        let verdict = decider.decide(line, firstLine + index, fileName, into: self)
        if verdict != .unchanged {
          if runStart < start { pieces.append(.unchanged(runStart..<start)) }
          runStart = stop + 1
          if firstChange == nil { firstChange = (index, pieces.count) }
        }
        switch verdict {
        case .unchanged: tally.kept += 1
        case .edited:
          tally.kept += 1
          tally.changed += 1
          if case .edited(let last) = pieces.last, last.upperBound == editedStart {
            pieces[pieces.count - 1] = .edited(last.lowerBound..<edited.count)
          } else {
            pieces.append(.edited(editedStart..<edited.count))
          }
        case .deleted: tally.remove(for: .deleted)
        case .quarantined: tally.quarantined += 1
        }
        start = stop + 1
        index += 1
      }
      if runStart < start { pieces.append(.unchanged(runStart..<start)) }
    }
  }

  /// Calls `body` with the bytes of each piece from `first` on, in order.
  func forEachPiece<E: Error>(
    from first: Int = 0, _ body: (UnsafeRawBufferPointer) throws(E) -> Void
  ) throws(E) {
    // Neither buffer changes during the calls: the pointers stay valid.
    let unchanged = lines.withUnsafeBytes { $0 }
    let changed = edited.withUnsafeBytes { $0 }
    for piece in pieces[min(first, pieces.count)...] {
      switch piece {
      case .unchanged(let range): try body(UnsafeRawBufferPointer(rebasing: unchanged[range]))
      case .edited(let range): try body(UnsafeRawBufferPointer(rebasing: changed[range]))
      }
    }
  }
}
