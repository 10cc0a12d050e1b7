import NotifJSON
import NotifModel

/// One input that can be read more than once: a regular file is read again from where it
/// started; anything else (a pipe, a terminal) is first copied to an unlinked temporary file.
struct SweepInput {
  /// The name in diagnostics: the path, or `<stdin>`.
  let name: String
  let fd: Int32
  /// The bytes to read from the start: a store's length when the sweep began (see
  /// `StoreSession.length`); everything for an operand.
  let length: Int64
  private let start: off_t
  private let owned: Bool

  /// Opens `path` (`-` for standard input), spooling it when it cannot be read twice.
  ///
  /// - Throws: `SystemError` naming the input, or the temporary file for a failed copy.
  static func open(_ path: String, temporaryDirectory: String) throws(SystemError) -> SweepInput {
    let name = path == "-" ? "<stdin>" : path
    let fd = path == "-" ? STDIN_FILENO : Glibc.open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(path: name, doing: "cannot open", errno: errno) }
    if let failure = InputFile.checkReadable(fd, name: name) {
      if fd != STDIN_FILENO { _ = Glibc.close(fd) }
      throw failure
    }
    var status = stat()
    if fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
      let start = lseek(fd, 0, SEEK_CUR)
      if start >= 0 {
        return SweepInput(
          name: name, fd: fd, length: .max, start: start, owned: fd != STDIN_FILENO)
      }
    }
    defer { if fd != STDIN_FILENO { _ = Glibc.close(fd) } }
    let spool = try spool(fd, name: name, temporaryDirectory: temporaryDirectory)
    return SweepInput(name: name, fd: spool, length: .max, start: 0, owned: true)
  }

  /// Wraps an open descriptor of a regular file, read from its start to `length`.
  static func file(_ fd: Int32, name: String, length: Int64 = .max) -> SweepInput {
    SweepInput(name: name, fd: fd, length: length, start: 0, owned: false)
  }

  /// Reads up to `limit` more bytes into `batch`, never past the input's length, of which
  /// `unread` bytes are left (and less after); returns how many came (0 at the end).
  func read(into batch: SweepBatch, limit: Int, unread: inout Int64) throws(SystemError) -> Int {
    let wanted = Int(min(Int64(limit), unread))
    guard wanted > 0 else { return 0 }
    let count = try batch.read(from: fd, name: name, limit: wanted)
    unread -= Int64(count)
    return count
  }

  /// Moves back to where the input started.
  func rewind() throws(SystemError) {
    guard lseek(fd, start, SEEK_SET) >= 0 else {
      throw SystemError(path: name, doing: "cannot read again", errno: errno)
    }
  }

  func close() {
    if owned { _ = Glibc.close(fd) }
  }

  /// Copies everything from `fd` to a new `TemporaryFile` and returns its descriptor.
  private static func spool(_ fd: Int32, name: String, temporaryDirectory: String)
    throws(SystemError) -> Int32
  {
    let (spool, spoolName) = try TemporaryFile.make(
      in: temporaryDirectory, prefix: "notif-expire")
    let size = 256 * 1024
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = Glibc.read(fd, buffer, size)
      if count < 0 {
        if errno == EINTR { continue }
        let code = errno
        Glibc.close(spool)
        throw SystemError(path: name, doing: "read error", errno: code)
      }
      if count == 0 { break }
      if let failure = OutputWriter.writeAll(
        UnsafeRawBufferPointer(start: buffer, count: count), to: spool, name: spoolName)
      {
        Glibc.close(spool)
        throw failure
      }
    }
    guard lseek(spool, 0, SEEK_SET) == 0 else {
      let code = errno
      Glibc.close(spool)
      throw SystemError(path: spoolName, doing: "cannot read again", errno: code)
    }
    return spool
  }
}
