import NotifJSON

/// Appends lines to a store the way every writer of a store must: under its lock, opening it
/// by path for each batch (`notif-parse --store`).
///
/// A producer that runs for days cannot keep the store open: a sweep replaces the file, and
/// everything written to the old one after that would be lost with it. So each batch takes
/// `STORE.lock` (waiting as long as a sweep holds it), opens the store by its path (creating
/// it, mode 0666 less the umask), appends, closes it and releases the lock.
///
/// A batch goes out when it reaches `batchBytes`, when `flush` is called (the producer's input
/// has nothing more for now, or it ended), and at the latest `maxDelay` seconds after its
/// first line while input flows. A store whose last line has no line feed (a writer killed in
/// the middle of a line) gets one before the batch, so that the batch's first record is not
/// glued to that fragment: the fragment stays a line of its own, which the sweeps report.
///
/// Lines are written with `write(2)` and not synced: once written they outlive the process
/// (a kill), as with `>>`; `fsync` is the sweeps' business, which make the store durable when
/// they replace it.
public struct StoreAppender {
  /// The store's path.
  public let store: String
  private var pending = ByteBuffer(capacity: 64 * 1024)
  private var firstPendingAt: Double?
  private let monotonicClock: () -> Double
  private let batchBytes: Int
  private let maxDelay: Double

  /// The batches appended so far.
  public private(set) var batches = 0

  /// An appender to `store`; `monotonicClock` gives seconds on a clock that does not jump.
  public init(
    store: String, monotonicClock: @escaping () -> Double, batchBytes: Int = 256 * 1024,
    maxDelay: Double = 1
  ) {
    self.store = store
    self.monotonicClock = monotonicClock
    self.batchBytes = batchBytes
    self.maxDelay = maxDelay
  }

  /// Queues whole lines (with their line feeds); appends the batch when it is full or its
  /// first line has waited `maxDelay`.
  ///
  /// - Throws: `SystemError` when the lock cannot be taken or the store cannot be written.
  public mutating func append(_ lines: ByteBuffer) throws(SystemError) {
    guard lines.count > 0 else { return }
    let now = monotonicClock()
    if firstPendingAt == nil { firstPendingAt = now }
    pending.append(lines)
    if pending.count >= batchBytes || now - (firstPendingAt ?? now) >= maxDelay {
      try flush()
    }
  }

  /// Appends what is queued, if anything, under the store's lock.
  ///
  /// - Throws: `SystemError` naming the lock file or the store.
  public mutating func flush() throws(SystemError) {
    guard pending.count > 0 else { return }
    let lock: StoreLock
    do {
      lock = try StoreLock(store: store, wait: .infinity, monotonicClock: monotonicClock)
    } catch {
      switch error {
      case .system(let failure): throw failure
      case .held(let path):  // not with an endless wait; said for completeness
        throw SystemError(path: path, message: "the lock stayed held")
      }
    }
    // The lock is released when `lock` goes out of scope, after the store is closed.
    _ = lock.path
    let fd = open(store, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      throw SystemError(path: store, doing: "cannot open the store", errno: errno)
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw SystemError(path: store, doing: "cannot open the store", errno: errno)
    }
    let size = Int64(status.st_size)
    guard let lastByte = size > 0 ? StoreSession.lastByte(fd, size) : 0x0A else {
      throw SystemError(path: store, doing: "read error", errno: errno)
    }
    if lastByte != 0x0A {
      let newline: [UInt8] = [0x0A]
      if let failure = newline.withUnsafeBytes({
        OutputWriter.writeAll($0, to: fd, name: store)
      }) {
        throw failure
      }
    }
    let failure = pending.withUnsafeBytes { OutputWriter.writeAll($0, to: fd, name: store) }
    if let failure { throw failure }
    batches += 1
    pending.removeAll()
    firstPendingAt = nil
  }
}
