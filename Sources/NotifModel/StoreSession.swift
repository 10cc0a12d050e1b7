#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A store held for an in-place sweep (notif-expire, notif-mark): its lock taken, what an
/// interrupted sweep left recovered, and the store open for reading.
///
/// Dropping the session closes the store and then releases the lock, on every path. The
/// session also holds the archive helpers both tools' stream modes use.
public struct StoreSession: ~Copyable {
  /// The store's path.
  public let store: String
  private let lock: StoreLock
  /// The store's descriptor, open for reading.
  public let fd: Int32
  /// The store's `fstat(2)` when opened, for `StoreRewrite`.
  public let status: stat

  /// Takes the lock of `store`, waiting up to `wait` seconds (see `StoreLock`); then, when
  /// `recover` is set (not in a dry run), finishes or undoes an interrupted sweep
  /// (`StoreRewrite.recover`), handing each of its warnings to `warn` as it goes; then opens
  /// the store. A store that is not there is an error before any lock file is made beside it.
  ///
  /// - Throws: `StoreLockError.held` when another process keeps the lock (the tool reports
  ///   `lockedDiagnostic` and exits 75); `.system` for any other failure: a missing store
  ///   (`cannot open the store`), a lock file that cannot be opened or locked, a recovery that
  ///   fails, a store that cannot be opened.
  public init(
    store: String, wait: Double, recover: Bool, monotonicClock: () -> Double,
    warn: (String) -> Void
  ) throws(StoreLockError) {
    var existing = stat()
    guard stat(store, &existing) == 0 else {
      throw .system(SystemError(path: store, doing: "cannot open the store", errno: errno))
    }
    let lock = try StoreLock(store: store, wait: wait, monotonicClock: monotonicClock)
    if recover {
      let warnings: [String]
      do {
        warnings = try StoreRewrite.recover(store: store)
      } catch {
        throw .system(error)
      }
      for warning in warnings { warn(warning) }
    }
    let fd = open(store, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw .system(SystemError(path: store, doing: "cannot open the store", errno: errno))
    }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let failure = SystemError(path: store, doing: "cannot open the store", errno: errno)
      close(fd)
      throw .system(failure)
    }
    self.store = store
    self.lock = lock
    self.fd = fd
    self.status = status
  }

  deinit {
    close(fd)
  }

  /// What the tool reports when another process holds the lock (`.held`), with exit 75.
  public static func lockedDiagnostic(lockPath: String) -> Diagnostic {
    Diagnostic(.error, "Locked", "another sweep or appender holds the lock", file: lockPath)
  }

  /// Opens an archive file to append to, creating it (mode 0666 less the umask) if missing.
  public static func openArchive(_ path: String) throws(SystemError) -> Int32 {
    let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o666)
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
