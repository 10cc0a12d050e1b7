import NotifJSON

/// The archive of a sweep in stream mode (notif-expire, notif-mark without `--store`): the file
/// of `--archive`, open for appending unless there is none or the run is a dry run.
///
/// Writes go through a checked buffered writer; `sync` flushes it and syncs the file, so the
/// archive is on disk before the tool reports success. Dropping the value closes the file.
public struct StreamArchive: ~Copyable {
  private let fd: Int32
  private let path: String
  private let what: String
  private var writer: OutputWriter

  /// Opens `options.archive` to append to, creating it (mode 0666 less the umask) if missing;
  /// opens nothing when there is no archive or `options.dryRun` is set.
  ///
  /// - Throws: `SystemError` when the file cannot be opened or is not a regular file.
  public init(options: SweepOptions) throws(SystemError) {
    try self.init(path: options.archive, dryRun: options.dryRun, what: "archive")
  }

  /// Opens `path` (the archive, or the quarantine file, as `what` says) to append to, as
  /// `init(options:)` does.
  public init(path: String?, dryRun: Bool, what: String) throws(SystemError) {
    self.path = path ?? ""
    self.what = what
    var fd: Int32 = -1
    if let path, !dryRun {
      fd = try StoreRewrite.openAppended(path, doing: "cannot open the \(what)").fd
    }
    self.fd = fd
    writer = OutputWriter(fd: fd, name: self.path)
  }

  deinit {
    if fd >= 0 { close(fd) }
  }

  /// Whether removed records go to a file.
  public var isOpen: Bool { fd >= 0 }

  /// Appends removed records' archive lines; does nothing when no archive is open.
  public mutating func write(_ lines: ByteBuffer) throws(SystemError) {
    if fd >= 0 { try writer.write(lines) }
  }

  /// Flushes what is pending and syncs the file to disk.
  public mutating func sync() throws(SystemError) {
    guard fd >= 0 else { return }
    try writer.flush()
    if fsync(fd) != 0 {
      throw SystemError(path: path, doing: "cannot sync the \(what)", errno: errno)
    }
  }
}
