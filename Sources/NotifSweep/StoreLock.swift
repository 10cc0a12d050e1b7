import NotifJSON

/// Why a store's lock was not taken.
public enum StoreLockError: Error, Equatable, CustomStringConvertible {
  /// Another process holds the lock (and `wait` ran out).
  case held(path: String)
  /// The lock file could not be opened or locked.
  case system(SystemError)

  public var description: String {
    switch self {
    case .held(let path): return "\(path): locked by another process"
    case .system(let error): return error.description
    }
  }
}

/// An exclusive `flock(2)` on `STORE.lock`, the lock every writer of a store takes.
///
/// The lock is the one `flock(1)` takes, so a shell appender can share it:
/// `flock inbox.ndjson.lock -c 'cat new >> inbox.ndjson'`. The lock file is created when
/// missing (mode 0666 less the umask) and never removed: removing a lock file lets two
/// processes lock two different files of the same name. The lock goes with the descriptor, so
/// it is released when the value is dropped or the process ends, however it ends.
public struct StoreLock: ~Copyable {
  /// The lock file's path: the store's path and `.lock`.
  public let path: String
  private let fd: Int32

  /// The interval between two tries while waiting, in microseconds.
  static let pollInterval: UInt32 = 20_000

  /// Takes the lock of `store`, waiting up to `wait` seconds if another process holds it
  /// (0: do not wait). Waiting polls every 20 ms, so the wait ends within 20 ms of the lock's
  /// release or of the deadline.
  ///
  /// - Parameter monotonicClock: seconds on a clock that does not jump, for the deadline.
  /// - Throws: `StoreLockError.held` when the lock stays held; `.system` when the lock file
  ///   cannot be opened.
  public init(store: String, wait: Double, monotonicClock: () -> Double) throws(StoreLockError) {
    path = store + ".lock"
    let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
    guard fd >= 0 else {
      throw .system(SystemError(path: path, doing: "cannot open the lock file", errno: errno))
    }
    let deadline = monotonicClock() + wait
    while flock(fd, LOCK_EX | LOCK_NB) != 0 {
      let code = errno
      if code == EINTR { continue }
      guard code == EWOULDBLOCK else {
        close(fd)
        throw .system(SystemError(path: path, doing: "cannot lock", errno: code))
      }
      guard monotonicClock() < deadline else {
        close(fd)
        throw .held(path: path)
      }
      usleep(Self.pollInterval)
    }
    self.fd = fd
  }

  /// Releases the lock now (dropping the value does the same at the end of its scope).
  public consuming func release() {}

  deinit {
    close(fd)
  }
}
