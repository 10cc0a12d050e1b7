#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store held for an in-place sweep (notif-expire, notif-mark): its lock taken, and then,
/// step by step, what an interrupted sweep left recovered and the store opened for reading.
///
/// The steps stay separate so that the tool reports each as it happens (a held lock as
/// `Locked`, exit 75; recovery warnings before anything else). Dropping the session closes
/// the store and then releases the lock, on every path. It also holds the archive helpers
/// both tools' stream modes use.
public struct StoreSession: ~Copyable {
  /// The store's path.
  public let store: String
  private let lock: StoreLock
  /// The store's descriptor, open for reading after `open()`; -1 before.
  public private(set) var fd: Int32
  /// The store's `fstat(2)` after `open()`, for `StoreRewrite`.
  public private(set) var status: stat

  /// Takes the lock of `store`, waiting up to `wait` seconds (see `StoreLock`). A store that
  /// is not there is an error before any lock file is made beside it.
  ///
  /// - Throws: `StoreLockError.held` when another process keeps the lock; `.system` when the
  ///   store is missing (`cannot open the store`) or the lock file cannot be opened or locked.
  public init(store: String, wait: Double, monotonicClock: () -> Double)
    throws(StoreLockError)
  {
    var existing = stat()
    guard stat(store, &existing) == 0 else {
      throw .system(SystemError(path: store, doing: "cannot open the store", errno: errno))
    }
    let lock = try StoreLock(store: store, wait: wait, monotonicClock: monotonicClock)
    self.store = store
    self.lock = lock
    fd = -1
    status = stat()
  }

  /// Finishes or undoes an interrupted sweep of the store (`StoreRewrite.recover`).
  ///
  /// - Returns: the warnings for the user, one line each.
  public func recover() throws(SystemError) -> [String] {
    try StoreRewrite.recover(store: store)
  }

  /// Opens the store for reading and takes its status (`fd`, `status`).
  public mutating func open() throws(SystemError) {
    let fd = openFile(store, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw SystemError(path: store, doing: "cannot open the store", errno: errno)
    }
    self.fd = fd
    guard fstat(fd, &status) == 0 else {
      throw SystemError(path: store, doing: "cannot open the store", errno: errno)
    }
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// What the tool reports when another process holds the lock (`.held`), with exit 75.
  public static func lockedDiagnostic(lockPath: String) -> Diagnostic {
    Diagnostic(.error, "Locked", "another sweep or appender holds the lock", file: lockPath)
  }

  /// Opens an archive file to append to, creating it (mode 0666 less the umask) if missing.
  public static func openArchive(_ path: String) throws(SystemError) -> Int32 {
    let fd = openFile(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      throw SystemError(path: path, doing: "cannot open the archive", errno: errno)
    }
    return fd
  }

  /// Flushes an archive's writer and syncs the file to disk. `EINVAL` (a pipe or a character
  /// device such as `/dev/null`, which cannot sync) is not an error.
  public static func syncArchive(_ writer: inout OutputWriter, fd: Int32, path: String)
    throws(SystemError)
  {
    try writer.flush()
    if fsync(fd) != 0 && errno != EINVAL {
      throw SystemError(path: path, doing: "cannot sync the archive", errno: errno)
    }
  }
}

/// `open(2)`, named apart from `StoreSession.open()`.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
  open(path, flags, mode)
}
