import NotifCLI
import NotifJSON
import NotifModel

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

  /// Checks the files of `notif-parse --store STORE OPERAND...` before anything is touched:
  /// the store is a regular file where it exists, and neither it nor its lock is one of the
  /// file operands or standard output (records read back as they are appended would never
  /// end).
  ///
  /// - Throws: `UsageError` naming the file that is not a regular file, or the two that are
  ///   one.
  public static func checkFiles(store: String, reading operands: [String]) throws(UsageError) {
    try StoreFiles.requireRegular([("--store", store)])
    var written = StoreFiles.storeFiles(store, journal: false)
    if let output = RunFile(role: "standard output", fd: STDOUT_FILENO, isWritten: true) {
      written.append(output)
    }
    try StoreFiles.requireDistinct(
      written, reading: operands.filter { $0 != "-" }.map { ("the file operand", $0) })
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
    // A symbolic link is followed, as by the sweeps: its target's lock, and its target.
    let target = FileIdentity.followingLinks(store) ?? store
    let lock: StoreLock
    do {
      lock = try StoreLock(store: target, wait: .infinity, monotonicClock: monotonicClock)
    } catch {
      switch error {
      case .system(let failure): throw failure
      case .held(let path):  // not with an endless wait; said for completeness
        throw SystemError(path: path, message: "the lock stayed held")
      }
    }
    // The lock is released when `lock` goes out of scope, after the store is closed.
    _ = lock.path
    // Never blocks: a FIFO put in the store's place is refused, not written into.
    let fd = open(target, O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      throw SystemError(path: target, doing: "cannot open the store", errno: errno)
    }
    defer { close(fd) }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      throw SystemError(path: target, doing: "cannot open the store", errno: errno)
    }
    guard status.st_mode & S_IFMT == S_IFREG else { throw StoreSession.notRegular(target) }
    let size = Int64(status.st_size)
    guard let lastByte = size > 0 ? StoreSession.lastByte(fd, size) : 0x0A else {
      throw SystemError(path: target, doing: "read error", errno: errno)
    }
    var failure: SystemError? = nil
    if lastByte != 0x0A {
      let newline: [UInt8] = [0x0A]
      failure = newline.withUnsafeBytes { OutputWriter.writeAll($0, to: fd, name: target) }
    }
    if failure == nil {
      failure = pending.withUnsafeBytes { OutputWriter.writeAll($0, to: fd, name: target) }
    }
    if let failure {
      // A batch is appended whole or not at all: what part of it a full disk let through is
      // cut off again, so the store never ends in a torn record.
      _ = ftruncate(fd, off_t(size))
      throw failure
    }
    batches += 1
    pending.removeAll()
    firstPendingAt = nil
  }
}
