/// What a `ReadAhead` runs on its thread: it fills one batch at a time with what comes next
/// in the input (lines read and parsed, say), in input order.
public protocol BatchFiller: ~Copyable {
  associatedtype Batch: AnyObject
  /// Empties `batch` and fills it with what comes next; returns false once the input has
  /// ended (`batch` then holds its last part, perhaps nothing).
  mutating func fill(_ batch: Batch) -> Bool
}

/// Reading ahead on a thread of its own: one thread fills batches (reads and parses the input)
/// while the calling thread takes them, in input order, and does the rest with them. On two
/// cores the two halves of a tool's work overlap; the output is the same bytes, as the batches
/// are taken in the order they were filled.
///
/// A few batches go round: the filler waits for a free one, so memory stays a few batches
/// whatever the input. Without a spare core, or if the system refuses a thread, the calling
/// thread fills each batch itself when it asks for it.
///
/// The filler must own what it reads from (a duplicate of a file descriptor, say): after
/// `stop()` its thread may still be waiting in a read, and it ends on its own, later.
public final class ReadAhead<Filler: BatchFiller & ~Copyable>: @unchecked Sendable {
  public typealias Batch = Filler.Batch

  /// The filler, touched by one thread only: the reading thread, or without one the caller.
  private final class Home {
    var filler: Filler
    init(_ filler: consuming Filler) { self.filler = filler }
  }

  private let home: Home
  // In allocated memory: a pthread object must not move.
  private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
  /// Broadcast when a batch is filled or freed, and when the caller stops.
  private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
  // Guarded by `lock` while the thread runs.
  private var free: [Batch]
  private var filled: [Batch] = []  // oldest first
  private var ended = false  // the filler said the input has ended
  private var stopping = false
  // The caller's.
  private var thread: pthread_t? = nil
  private var held: Batch? = nil  // the batch `next()` returned last
  private var done = false  // `next()` returned nil, or the caller stopped

  /// Whether this machine has a core to spare for reading ahead.
  public static var hasSpareCore: Bool { sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1 }

  /// Starts reading ahead into `batches` (at least two with a thread: one being filled, one
  /// being used), on a thread of its own if `threaded`.
  public init(_ filler: consuming Filler, batches: [Batch], threaded: Bool = hasSpareCore) {
    precondition(!batches.isEmpty, "ReadAhead: no batch to fill")
    home = Home(filler)
    free = batches
    pthread_mutex_init(lock, nil)
    pthread_cond_init(changed, nil)
    if threaded && batches.count >= 2 {
      thread = startThread { [self] in run() }
    }
  }

  deinit {
    pthread_cond_destroy(changed)
    pthread_mutex_destroy(lock)
    changed.deallocate()
    lock.deallocate()
  }

  /// Whether a thread of its own fills the batches.
  public var isThreaded: Bool { thread != nil }

  /// The next batch, in input order; nil once the input has ended and every batch was taken.
  /// The batch stays the caller's until the next call, which frees it for filling again.
  public func next() -> Batch? {
    if done { return nil }
    guard let thread else {
      if let held { free.append(held) }
      held = nil
      guard !ended, let batch = free.popLast() else {
        done = true
        return nil
      }
      ended = !home.filler.fill(batch)
      held = batch
      return batch
    }
    pthread_mutex_lock(lock)
    if let held {
      free.append(held)
      pthread_cond_broadcast(changed)
    }
    held = nil
    while filled.isEmpty && !ended {
      pthread_cond_wait(changed, lock)
    }
    let batch = filled.isEmpty ? nil : filled.removeFirst()
    pthread_mutex_unlock(lock)
    guard let batch else {
      // The thread set `ended` as it left its loop.
      pthread_join(thread, nil)
      self.thread = nil
      done = true
      return nil
    }
    held = batch
    return batch
  }

  /// No more batches are wanted: the thread stops at the end of the batch it is filling (or
  /// of the read it is waiting in), and ends on its own; it is not waited for.
  public func stop() {
    done = true
    guard let thread else { return }
    pthread_mutex_lock(lock)
    stopping = true
    pthread_cond_broadcast(changed)
    pthread_mutex_unlock(lock)
    pthread_detach(thread)
    self.thread = nil
  }

  /// The reading thread's loop: fill a free batch, hand it over, until the input ends or the
  /// caller stops.
  private func run() {
    while true {
      pthread_mutex_lock(lock)
      while free.isEmpty && !stopping {
        pthread_cond_wait(changed, lock)
      }
      if stopping {
        pthread_mutex_unlock(lock)
        return
      }
      let batch = free.removeLast()
      pthread_mutex_unlock(lock)
      let more = home.filler.fill(batch)
      pthread_mutex_lock(lock)
      filled.append(batch)
      if !more { ended = true }
      pthread_cond_broadcast(changed)
      pthread_mutex_unlock(lock)
      if !more { return }
    }
  }
}
