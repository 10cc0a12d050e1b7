import NotifJSON
import NotifModel

/// A piece of an input file cut after a line feed (or at the end of the file), and what a
/// worker made of it.
///
/// The reading thread fills `bytes` and the fields up to `atStreamStart`, hands the chunk to
/// `ChunkWorkers`, and reads the results once `ChunkWorkers.wait(for:)` returns. The bytes after
/// `count` up to `filled` belong to the next chunk: the reading thread copies them there while
/// a worker reads the first `count`.
final class Chunk: @unchecked Sendable {
  let capacity: Int
  let bytes: UnsafeMutableRawPointer
  /// The bytes read into `bytes`.
  var filled = 0
  /// The bytes of this chunk: up to and including its last line feed.
  var count = 0
  /// The input's name in diagnostics.
  var name = ""
  /// The line number of the first byte, which starts a line.
  var line = 1
  /// Whether the chunk starts the input, where a byte order mark is skipped.
  var atStreamStart = false

  // What the worker made of it.
  var out = ByteBuffer(capacity: 64 * 1024)
  var err = ByteBuffer(capacity: 1024)
  var tally = Tally()
  /// The reader ended between texts (see `RecordReader.endedBetweenTexts`).
  var endedBetweenTexts = false
  /// The reader ended skipping the rest of a malformed text (`RecordReader.isSkipping`).
  var endedSkipping = false

  init(capacity: Int) {
    self.capacity = capacity
    bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    bytes.deallocate()
  }

  /// Whether the results are what one reader of the whole input would have made of these
  /// bytes, given that the chunk before (if any) was: true when the chunk ended between texts
  /// (or was the last), so that the next one starts as a new reader would. `nextByte` is the
  /// first byte of the next chunk, nil for the last chunk.
  func readsAsWhole(nextByte: UInt8?) -> Bool {
    guard let nextByte else { return true }
    // A reader skipping a malformed text's remains stops at a line that starts a record.
    return endedBetweenTexts
      && (!endedSkipping || nextByte == UInt8(ascii: "{") || nextByte == UInt8(ascii: "["))
  }

  /// Reads the chunk's texts with `processor`, filling the results.
  fileprivate func process(with processor: inout RecordProcessor) {
    out.removeAll()
    err.removeAll()
    tally = Tally()
    var reader = RecordReader(
      fd: nil, name: name, maxRecordBytes: processor.configuration.maxRecordBytes,
      pending: UnsafeRawBufferPointer(start: bytes, count: count), line: line,
      atStreamStart: atStreamStart)
    Self.readAll(&reader, with: &processor, out: &out, err: &err, tally: &tally)
    endedBetweenTexts = reader.endedBetweenTexts
    endedSkipping = reader.isSkipping
  }

  private static func readAll(
    _ reader: inout RecordReader, with processor: inout RecordProcessor, out: inout ByteBuffer,
    err: inout ByteBuffer, tally: inout Tally
  ) {
    // With no file descriptor the reader never reads, so it cannot fail.
    while let event = try? reader.next() {
      if case .end = event { return }
      processor.handle(event, of: reader, out: &out, err: &err, tally: &tally)
    }
  }
}

/// The worker threads of notif-parse: each reads chunks with its own `RecordProcessor`.
typealias ChunkWorkers = WorkerPool<Chunk, RecordProcessor>

extension WorkerPool where Job == Chunk, Worker == RecordProcessor {
  /// Starts one thread per processor.
  convenience init(processors: [RecordProcessor]) {
    self.init(threads: processors.count, makeWorker: { processors[$0] }) { chunk, processor in
      chunk.process(with: &processor)
    }
  }
}
