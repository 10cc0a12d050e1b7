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
  fileprivate var done = false

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

/// A fixed set of worker threads that process chunks in the order they are handed in; the
/// reading thread waits for each chunk's results in that order too.
final class ChunkWorkers: @unchecked Sendable {
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  private let work = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)  // queue not empty
  private let finished = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)  // a chunk done
  private var queue: [Chunk] = []
  private var stopping = false
  private var threads: [pthread_t] = []

  /// Starts one thread per processor.
  init(processors: [RecordProcessor]) {
    pthread_mutex_init(lock, nil)
    pthread_cond_init(work, nil)
    pthread_cond_init(finished, nil)
    queue.reserveCapacity(16)
    for processor in processors {
      let context = Unmanaged.passRetained(Worker(workers: self, processor: processor))
      var thread = pthread_t()
      let started = pthread_create(
        &thread, nil,
        { raw in
          guard let raw else { return nil }
          let worker = Unmanaged<Worker>.fromOpaque(raw).takeRetainedValue()
          worker.workers.run(&worker.processor)
          return nil
        }, context.toOpaque())
      if started == 0 {
        threads.append(thread)
      } else {
        context.release()
      }
    }
  }

  /// The number of threads running: fewer than asked if the system refused some.
  var count: Int { threads.count }

  /// Stops the threads once the queue is empty and waits for them.
  func stop() {
    pthread_mutex_lock(lock)
    stopping = true
    pthread_cond_broadcast(work)
    pthread_mutex_unlock(lock)
    for thread in threads {
      pthread_join(thread, nil)
    }
    threads.removeAll()
  }

  deinit {
    pthread_cond_destroy(finished)
    pthread_cond_destroy(work)
    pthread_mutex_destroy(lock)
    finished.deallocate()
    work.deallocate()
    lock.deallocate()
  }

  /// Queues a chunk whose bytes and position are set.
  func submit(_ chunk: Chunk) {
    pthread_mutex_lock(lock)
    chunk.done = false
    queue.append(chunk)
    pthread_cond_signal(work)
    pthread_mutex_unlock(lock)
  }

  /// Returns once a worker has processed `chunk`.
  func wait(for chunk: Chunk) {
    pthread_mutex_lock(lock)
    while !chunk.done {
      pthread_cond_wait(finished, lock)
    }
    pthread_mutex_unlock(lock)
  }

  private func run(_ processor: inout RecordProcessor) {
    while true {
      pthread_mutex_lock(lock)
      while queue.isEmpty && !stopping {
        pthread_cond_wait(work, lock)
      }
      if queue.isEmpty {
        pthread_mutex_unlock(lock)
        return
      }
      let chunk = queue.removeFirst()
      pthread_mutex_unlock(lock)

      chunk.process(with: &processor)

      pthread_mutex_lock(lock)
      chunk.done = true
      pthread_cond_broadcast(finished)
      pthread_mutex_unlock(lock)
    }
  }

  private final class Worker {
    let workers: ChunkWorkers
    var processor: RecordProcessor

    init(workers: ChunkWorkers, processor: RecordProcessor) {
      self.workers = workers
      self.processor = processor
    }
  }
}
