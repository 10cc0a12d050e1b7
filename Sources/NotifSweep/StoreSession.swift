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
