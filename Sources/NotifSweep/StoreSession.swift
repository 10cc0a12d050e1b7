import NotifJSON
import NotifModel

/// A store held for an in-place sweep (notif-expire, notif-mark): its lock taken, what an
/// interrupted sweep left recovered, and the store open for reading.
///
/// Dropping the session closes the store and then releases the lock, on every path.
public struct StoreSession: ~Copyable {
  /// The store's path.
  public let store: String
  private let lock: StoreLock
  /// The store's descriptor, open for reading.
  public let fd: Int32
  /// The store's `fstat(2)` when opened, for `StoreRewrite`.
  public let status: stat
  /// The bytes the sweep reads: the store's size when opened, or, while an append is in
  /// progress there, up to the end of its last complete line (`sweptLength`). What is past it
  /// when the sweep replaces the store is taken in as it is (`StoreRewrite.commit`).
  public let length: Int64

  /// Takes the lock of `store`, waiting up to `wait` seconds (see `StoreLock`); then, when
  /// `recover` is set (not in a dry run), finishes or undoes an interrupted sweep
  /// (`StoreRewrite.recover`), handing each of its warnings to `warn` as it goes; then opens
  /// the store. A store that is not there is an error before any lock file is made beside it.
  /// `waitForLastLine` is called between two looks at an unfinished last line (see
  /// `sweptLength`); the fuzz target, which must not sleep, passes one that returns at once.
  ///
  /// - Throws: `StoreLockError.held` when another process keeps the lock (the tool reports
  ///   `lockedDiagnostic` and exits 75); `.system` for any other failure: a missing store
  ///   (`cannot open the store`), a lock file that cannot be opened or locked, a recovery that
  ///   fails, a store that cannot be opened.
  public init(
    store: String, wait: Double, recover: Bool, monotonicClock: () -> Double,
    waitForLastLine: () -> Void = { usleep(5_000) }, warn: (String) -> Void
  ) throws(StoreLockError) {
    var existing = stat()
    guard stat(store, &existing) == 0 else {
      throw .system(SystemError(path: store, doing: "cannot open the store", errno: errno))
    }
    guard existing.st_mode & S_IFMT == S_IFREG else { throw .system(Self.notRegular(store)) }
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
    // Never blocks: a FIFO put in the store's place since the check above is refused, not
    // waited on while the lock is held.
    let fd = open(store, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      throw .system(SystemError(path: store, doing: "cannot open the store", errno: errno))
    }
    var status = stat()
    guard fstat(fd, &status) == 0 else {
      let failure = SystemError(path: store, doing: "cannot open the store", errno: errno)
      close(fd)
      throw .system(failure)
    }
    guard status.st_mode & S_IFMT == S_IFREG else {
      close(fd)
      throw .system(Self.notRegular(store))
    }
    self.store = store
    self.lock = lock
    self.fd = fd
    self.status = status
    length = Self.sweptLength(fd: fd, size: Int64(status.st_size), waiting: waitForLastLine)
  }

  /// The error for a store that is not a regular file (a FIFO, a device, a directory): only a
  /// regular file can be read to a length, replaced and synced.
  static func notRegular(_ store: String) -> SystemError {
    SystemError(path: store, message: "cannot open the store: not a regular file")
  }

  /// How many times a sweep looks again, 5 ms apart (about 0.1 s in all), for an unfinished
  /// last line to end before it takes the line as it is. A count, not a clock: nothing the
  /// clock does can make the wait longer.
  static let unfinishedLinePolls = 20

  /// The length of the store that a sweep reads: its size, when it ends with a line feed.
  ///
  /// A last line without one is an append in progress by a process that skips the lock, or a
  /// store whose last line never got one. The sweep looks again up to `unfinishedLinePolls`
  /// times, calling `waiting` between two looks, for the store to end with a line feed (taking
  /// the new size); when it does not, the sweep reads to the end of the last complete line if
  /// the store grew meanwhile (the rest is taken in at the end of the sweep), or the whole store
  /// if it did not (the line is a record without its line feed, which the sweep's copy gets).
  static func sweptLength(
    fd: Int32, size: Int64, waiting: () -> Void = { usleep(5_000) }
  ) -> Int64 {
    var size = size
    var growing = false
    var polls = 0
    while size > 0 && lastByte(fd, size) != 0x0A {
      var status = stat()
      let grown = fstat(fd, &status) == 0 ? Int64(status.st_size) : size
      if grown > size {
        size = grown
        growing = true
        continue
      }
      guard polls < unfinishedLinePolls else {
        return growing ? StoreRewrite.endOfLastLine(fd, in: 0..<size) ?? 0 : size
      }
      polls += 1
      waiting()
    }
    return size
  }

  /// The byte at `size - 1` of `fd`, or nil when it cannot be read.
  static func lastByte(_ fd: Int32, _ size: Int64) -> UInt8? {
    var byte: UInt8 = 0
    let read = withUnsafeMutableBytes(of: &byte) { raw in
      raw.baseAddress.map {
        (try? StoreRewrite.readExactly(fd, into: $0, count: 1, at: size - 1, "")) != nil
      } ?? false
    }
    return read ? byte : nil
  }

  deinit {
    close(fd)
  }

  /// Whether `store` is not there (`stat(2)` fails with `ENOENT`): `--missing-ok` makes that
  /// nothing to sweep. Any other failure is not "missing": `init` reports it.
  public static func isMissing(_ store: String) -> Bool {
    var status = stat()
    return stat(store, &status) != 0 && errno == ENOENT
  }

  /// What the tool reports when another process holds the lock (`.held`), with exit 75.
  public static func lockedDiagnostic(lockPath: String) -> Diagnostic {
    Diagnostic(.error, "Locked", "another sweep or appender holds the lock", file: lockPath)
  }

  /// Takes the session of a sweep in place as the tools do: recovers unless `options` is a dry
  /// run, reports each recovery warning (`Recovered`) and a lock another process keeps
  /// (`lockedDiagnostic`) through `report`, and returns nil in that last case, when the tool
  /// exits 75.
  ///
  /// - Throws: `SystemError` for any other failure (see `init`).
  public static func acquire(
    store: String, options: SweepOptions, monotonicClock: () -> Double,
    report: (Diagnostic) -> Void
  ) throws(SystemError) -> StoreSession? {
    do {
      return try StoreSession(
        store: store, wait: options.wait, recover: !options.dryRun,
        monotonicClock: monotonicClock
      ) { warning in
        report(Diagnostic(.warning, "Recovered", warning, file: store))
      }
    } catch {
      switch error {
      case .held(let path):
        report(lockedDiagnostic(lockPath: path))
        return nil
      case .system(let failure):
        throw failure
      }
    }
  }
}
