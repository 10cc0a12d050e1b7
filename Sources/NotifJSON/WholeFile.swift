/// The bytes of the file at `path`, read whole: the one whole-file read of the package, for
/// NotifModel's `ConfigFile` (every JSON configuration file, and the strings files of
/// NotifLocalization), notif-digest's time zone files and notif-show's app icons
/// (`readWhole(fd:path:limit:)` reads an input already open, as `notif-parse --fix` does).
///
/// A file longer than `limit` bytes is refused: a regular file from its size, before it is
/// read; anything else (a pipe, `/dev/stdin`) as soon as a read goes past the limit. Reads are
/// checked, and retried when a signal interrupts them.
///
/// With `regularOnly`, anything but a regular file is refused before it is read, and the file
/// is opened without waiting (`O_NONBLOCK`), so that a name that is a FIFO or a device cannot
/// block the run. Without it, a pipe is read to its end, and a folder fails at its first read
/// (`read error: is a directory`).
///
/// - Throws: `WholeFileError`: the step that failed and its system error.
/// - Complexity: O(n) in the size of the file.
public func readWholeFile(
  path: String, limit: Int, regularOnly: Bool = false
) throws(WholeFileError) -> [UInt8] {
  func failure(_ step: WholeFileError.Step) -> WholeFileError {
    WholeFileError(path: path, step: step, limit: limit)
  }
  var fd: Int32
  repeat {
    fd = open(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
  } while fd < 0 && errno == EINTR
  guard fd >= 0 else { throw failure(.open(errno: errno)) }
  defer { close(fd) }
  if regularOnly {
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
      throw failure(.notRegular)
    }
  }
  return try readWhole(fd: fd, path: path, limit: limit)
}

/// The bytes of `fd`, open for reading as `path`, from where it stands to its end, as
/// `readWholeFile` reads them: checked reads, retried after a signal, at most `limit` bytes.
///
/// - Throws: `WholeFileError`: a failed read, or more than `limit` bytes.
public func readWhole(fd: Int32, path: String, limit: Int) throws(WholeFileError) -> [UInt8] {
  func failure(_ step: WholeFileError.Step) -> WholeFileError {
    WholeFileError(path: path, step: step, limit: limit)
  }
  var status = stat()
  let isRegular = fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
  if isRegular && Int(status.st_size) > limit {
    throw failure(.tooLong(size: Int(status.st_size)))
  }
  var bytes: [UInt8] = []
  // One more byte than the size, for the read that finds the end.
  bytes.reserveCapacity(isRegular ? Int(status.st_size) + 1 : 0)
  var chunk = [UInt8](repeating: 0, count: min(limit, 64 * 1024 - 1) + 1)
  while true {
    let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count > 0 {
      guard bytes.count + count <= limit else {
        throw failure(.tooLong(size: bytes.count + count))
      }
      bytes += chunk[..<count]
    } else if count == 0 {
      return bytes
    } else if errno != EINTR {
      throw failure(.read(errno: errno))
    }
  }
}

/// A file `readWholeFile` could not read: which step failed, for a caller that words its own
/// message (notif-show names an icon as the apps file does), and the system error as every
/// tool words it, for the others.
public struct WholeFileError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The step that failed.
  public enum Step: Sendable, Equatable {
    /// open(2) failed with `errno`.
    case open(errno: Int32)
    /// The file is not a regular file, and the read asked for one.
    case notRegular
    /// read(2) failed with `errno`.
    case read(errno: Int32)
    /// The file is longer than the limit: its size, or for a stream, the bytes read by the
    /// read that went past the limit.
    case tooLong(size: Int)
  }

  /// The file, as the caller named it.
  public var path: String
  /// The step that failed.
  public var step: Step
  /// The limit the read was given, in bytes.
  public var limit: Int

  /// The error in one line: `cannot open: ...`, `not a regular file`, `read error: ...` (a
  /// read error, as `SystemError.isReadError` tells), or `the file is longer than the limit of
  /// 64 MiB` (in bytes where the limit is no whole number of MiB).
  public var systemError: SystemError {
    switch step {
    case .open(let code): SystemError(path: path, doing: "cannot open", errno: code)
    case .notRegular: SystemError(path: path, message: "not a regular file")
    case .read(let code): SystemError(path: path, doing: "read error", errno: code)
    case .tooLong:
      SystemError(
        path: path,
        message: "the file is longer than the limit of "
          + (limit > 0 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"))
    }
  }

  public var description: String { systemError.description }
}
