import NotifJSON
import NotifModel

/// A file operand open for reading, as every filter opens its operands: `-` is standard input,
/// named `<stdin>` in diagnostics. Dropping the value closes the file (never standard input).
public struct InputFile: ~Copyable {
  /// The name diagnostics give the input: the operand, or `<stdin>` for `-`.
  public let name: String
  /// The descriptor to read from.
  public let fd: Int32

  /// Opens `operand` for reading (`-`: standard input).
  ///
  /// - Throws: `SystemError` naming the input, with the message `cannot open: ...`, also for
  ///   a directory and for the file standard output writes to (see `checkReadable`).
  public init(operand: String) throws(SystemError) {
    let name = operand == "-" ? "<stdin>" : operand
    let fd = operand == "-" ? STDIN_FILENO : open(operand, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(path: name, doing: "cannot open", errno: errno) }
    if let failure = Self.checkReadable(fd, name: name) {
      if fd != STDIN_FILENO { close(fd) }
      throw failure
    }
    Self.widenPipe(fd)
    self.name = name
    self.fd = fd
  }

  /// Opens `operand` as `init(operand:)` does, or reports why it cannot (`Unreadable`)
  /// through `reporter` and returns nil: the run goes on with the next input.
  public static func openOrReport(
    _ operand: String, reporter: inout Reporter, _ stderr: inout OutputWriter
  ) -> InputFile? {
    do {
      return try InputFile(operand: operand)
    } catch {
      reporter.report(Diagnostic(.error, "Unreadable", error.message, file: error.path), &stderr)
      return nil
    }
  }

  /// Asks for a pipe of 1 MiB at `fd` when it is one (Linux's default is 64 KiB): the writer
  /// then fills it 16 times longer between the reader's reads, and the two switch in and out
  /// of the kernel that much less. Without the room for it (`/proc/sys/fs/pipe-max-size`, or
  /// the user's share of pipe pages used up) the pipe stays as it is, which only costs time.
  public static func widenPipe(_ fd: Int32) {
    #if os(Linux)
      var status = stat()
      guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFIFO else { return }
      // F_SETPIPE_SZ, which Glibc's module leaves out (it is behind _GNU_SOURCE).
      let setPipeSize: Int32 = 1031
      _ = fcntl(fd, setPipeSize, Int32(1 << 20))
    #endif
  }

  /// Why the input open at `fd` cannot be read as one, or nil: a directory (which `read(2)`
  /// refuses), or the regular file standard output writes to, which would be read back as it
  /// is written (`notif-parse in.ndjson >> in.ndjson` would never end), as cat(1) refuses.
  public static func checkReadable(_ fd: Int32, name: String) -> SystemError? {
    var input = stat()
    guard fstat(fd, &input) == 0 else { return nil }
    if input.st_mode & S_IFMT == S_IFDIR {
      return SystemError(path: name, doing: "cannot open", errno: EISDIR)
    }
    var output = stat()
    if input.st_mode & S_IFMT == S_IFREG, fstat(STDOUT_FILENO, &output) == 0,
      output.st_dev == input.st_dev, output.st_ino == input.st_ino
    {
      return SystemError(path: name, message: "cannot open: it is also standard output")
    }
    return nil
  }

  deinit {
    if fd != STDIN_FILENO { close(fd) }
  }
}

extension InputFile {
  /// The bytes left to read in all of `operands` (`-`: standard input, from where it stands),
  /// when every one is a regular file: the whole a progress line measures against; nil when
  /// one is a pipe, a terminal or cannot be looked at, whose size is not known ahead.
  public static func totalBytes(of operands: [String]) -> Int64? {
    var total: Int64 = 0
    for operand in operands {
      if operand == "-" {
        guard let left = bytesLeft(in: STDIN_FILENO) else { return nil }
        total += left
      } else {
        var status = stat()
        guard stat(operand, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        total += Int64(status.st_size)
      }
    }
    return total
  }

  /// The bytes of the regular file open at `fd` from where it stands to its end; nil for
  /// anything else.
  public static func bytesLeft(in fd: Int32) -> Int64? {
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let at = lseek(fd, 0, SEEK_CUR)
    return max(Int64(status.st_size) - Int64(max(at, 0)), 0)
  }

  /// The compression a regular file open at `fd` starts with, from where `fd` stands, read
  /// without moving it (`pread`); nil for anything else, whose first bytes cannot be read
  /// twice: its reader looks at them as it reads them (`RecordReader`, the sweeps' first
  /// line).
  public static func compression(ofRegularFile fd: Int32) -> Compression? {
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let at = lseek(fd, 0, SEEK_CUR)
    guard at >= 0 else { return nil }
    var first = [UInt8](repeating: 0, count: Compression.longestMagic)
    return first.withUnsafeMutableBytes { bytes -> Compression? in
      guard let base = bytes.baseAddress else { return nil }
      var count = 0
      while count < bytes.count {
        let got = pread(fd, base + count, bytes.count - count, at + off_t(count))
        if got > 0 {
          count += got
        } else if got == 0 || errno != EINTR {
          break
        }
      }
      return Compression(startOf: UnsafeRawBufferPointer(rebasing: bytes[..<count]))
    }
  }
}

extension Compression {
  /// The code of the diagnostic of a compressed input.
  public static let code = "Compressed"

  /// The diagnostic of an input compressed so: `PROG: FILE: error: the input is
  /// gzip-compressed: decompress it first (gzip -dc) [Compressed]`, with no line. Nothing else
  /// of the input is read or reported; the exit status is 2, as for an input that cannot be
  /// read.
  public func diagnostic(file: String) -> Diagnostic {
    Diagnostic(.error, Self.code, message, file: file)
  }
}

extension InputFile {
  /// Reads the JSON texts of `operand` (`-`: standard input) in turn, each at most
  /// `maxRecordBytes`, and calls `body` with the reader at each one, as the filters of
  /// records and group objects read their operands.
  ///
  /// `whenIdle` is called each time the next read would wait for input (a pipe or terminal
  /// that has nothing more yet): the filters that write as they read flush there, so that each
  /// result comes out as its input arrives.
  ///
  /// What cannot be read goes to `report`: an operand that cannot be opened or read
  /// (`Unreadable`; the rest of it is skipped), one that is compressed (`Compressed`, of which
  /// nothing more is read: `RecordReader.compression`), a text that is not JSON (its error, and
  /// reading goes on at the next line that starts one).
  ///
  /// - Returns: `.failure` when the operand could not be opened or read, or is compressed,
  ///   else `.rejected` when a text was not JSON, else `.success`; what `body` rejects is the
  ///   caller's to count.
  /// - Complexity: O(n) in the bytes read, besides `body`.
  @inlinable  // specialized in the tool, with `body` inlined: it runs once per record
  public static func forEachRecord<E: Error>(
    of operand: String, maxRecordBytes: Int, report: (Diagnostic) -> Void,
    whenIdle: () throws(E) -> Void, _ body: (inout RecordReader) throws(E) -> Void
  ) throws(E) -> ExitStatus {
    let input: InputFile
    do {
      input = try InputFile(operand: operand)
    } catch {
      report(Diagnostic(.error, "Unreadable", error.message, file: error.path))
      return .failure
    }
    var reader = RecordReader(
      fd: input.fd, name: input.name, maxRecordBytes: maxRecordBytes, announcesIdle: true)
    return try reader.forEachRecord(report: report, whenIdle: whenIdle, body)
  }
}

extension RecordReader {
  /// The diagnostic of a `.failure` the reader returned, and the exit status it calls for:
  /// the JSON error at its place, which rejects the text (1); or, where the input turned out
  /// to be compressed (`compression`), `Compressed`, with no place, as for an input that cannot
  /// be read (2): the reader read no further.
  public func failure(_ error: JSONError, line: Int, column: Int) -> (Diagnostic, ExitStatus) {
    if let compression {
      return (compression.diagnostic(file: name), .failure)
    }
    return (
      Diagnostic(
        .error, error.code.rawValue, error.message, file: name, line: line, column: column),
      .rejected
    )
  }

  /// Reads the reader's JSON texts in turn and calls `body` with the reader at each one:
  /// `InputFile.forEachRecord` without the opening, for a reader of a file already open or of
  /// a chunk of one (`FileChunk.read`).
  ///
  /// What cannot be read goes to `report`, and `whenIdle` is called at each pause of the
  /// input, as `InputFile.forEachRecord` says; so is what it returns.
  @inlinable
  public mutating func forEachRecord<E: Error>(
    report: (Diagnostic) -> Void, whenIdle: () throws(E) -> Void,
    _ body: (inout RecordReader) throws(E) -> Void
  ) throws(E) -> ExitStatus {
    var status = ExitStatus.success
    while true {
      let event: RecordEvent
      do {
        event = try next()
      } catch {
        report(Diagnostic(.error, "Unreadable", error.message, file: name))
        return .failure
      }
      switch event {
      case .end:
        return status
      case .idle:
        try whenIdle()
      case .failure(let error, let line, let column):
        let (diagnostic, calledFor) = failure(error, line: line, column: column)
        status = max(status, calledFor)
        report(diagnostic)
      case .record:
        try body(&self)
      }
    }
  }
}
