import NotifCLI
import NotifJSON
import NotifModel

/// One input that can be read more than once: a regular file is read again from where it
/// started; anything else (a pipe, a terminal) is copied to an unlinked temporary file as the
/// first pass reads it, and read again from there. The copy costs one write of what the first
/// pass reads anyway, not a read of the pipe before the first pass and another read of the
/// copy in it.
///
/// Passes read with read(2), not through a mapping of the file. A mapping read in place, its
/// pages mapped a batch ahead and given back behind (no copy at all), was measured on the 1.1 GB
/// of the benchmark: 1.63 CPU-seconds against 1.43, 0.94 s against 0.80 (`perf stat`, 8 runs).
/// Mapping and unmapping 4 KiB pages, and the other core's TLB flushed each time, cost more than
/// the copy they save; and a file cut short under a mapping is a SIGBUS to catch.
final class SweepInput {
  /// The name in diagnostics: the path, or `<stdin>`.
  let name: String
  /// What is read now: the input, or its copy once the first pass has read it all.
  private(set) var fd: Int32
  /// The bytes to read from the start: a store's length when the sweep began (see
  /// `StoreSession.length`); everything for an operand.
  let length: Int64
  private let start: off_t
  /// Whether `close()` closes `fd`: an operand opened here, or the copy.
  private var owned: Bool
  /// While the first pass reads a pipe: the copy it writes, its name and how much came.
  private var spool: (fd: Int32, name: String)?
  private var spooled: Int64 = 0
  /// The first bytes of a pipe, read before the first pass to tell whether it is compressed
  /// (`compression()`): the first pass reads them first.
  private var peeked: [UInt8] = []

  private init(
    name: String, fd: Int32, length: Int64, start: off_t, owned: Bool,
    spool: (fd: Int32, name: String)? = nil
  ) {
    self.name = name
    self.fd = fd
    self.length = length
    self.start = start
    self.owned = owned
    self.spool = spool
  }

  /// Opens `path` (`-` for standard input); one that cannot be read twice gets a temporary
  /// file for its copy.
  ///
  /// - Throws: `SystemError` naming the input, or the temporary file when none can be made.
  static func open(_ path: String, temporaryDirectory: String) throws(SystemError) -> SweepInput {
    let name = path == "-" ? "<stdin>" : path
    let fd = path == "-" ? STDIN_FILENO : systemOpen(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(path: name, doing: "cannot open", errno: errno) }
    let owned = fd != STDIN_FILENO
    if let failure = InputFile.checkReadable(fd, name: name) {
      if owned { _ = systemClose(fd) }
      throw failure
    }
    var status = stat()
    if fstat(fd, &status) == 0 && status.st_mode & S_IFMT == S_IFREG {
      let start = lseek(fd, 0, SEEK_CUR)
      if start >= 0 {
        return SweepInput(name: name, fd: fd, length: .max, start: start, owned: owned)
      }
    }
    let spool: (fd: Int32, name: String)
    do {
      spool = try TemporaryFile.make(in: temporaryDirectory, prefix: "notif-expire")
    } catch {
      if owned { _ = systemClose(fd) }
      throw error
    }
    InputFile.widenPipe(fd)
    return SweepInput(name: name, fd: fd, length: .max, start: 0, owned: owned, spool: spool)
  }

  /// Wraps an open descriptor of a regular file, read from its start to `length`.
  static func file(_ fd: Int32, name: String, length: Int64 = .max) -> SweepInput {
    SweepInput(name: name, fd: fd, length: length, start: 0, owned: false)
  }

  /// The bytes a pass reads, when they are known: a store's length, or what a regular file (or
  /// the copy of a pipe, once made) holds from where it started; nil for a pipe not yet read.
  /// What a progress line measures against.
  var byteCount: Int64? {
    if length != .max { return length }
    guard spool == nil else { return nil }
    var status = stat()
    guard fstat(fd, &status) == 0 else { return nil }
    return max(Int64(status.st_size) - Int64(start), 0)
  }

  /// The compression the input starts with, if any (`Compression`), before any pass reads
  /// it: a regular file's first bytes are read where they are; a pipe's are read and kept for
  /// the first pass, as few as tell (one read for a JSON text).
  func compression() throws(SystemError) -> Compression? {
    guard spool != nil else { return InputFile.compression(ofRegularFile: fd) }
    let size = Compression.longestMagic
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
    defer { bytes.deallocate() }
    var count = 0
    while count < size {
      let got = systemRead(fd, bytes + count, size - count)
      if got < 0 {
        if errno == EINTR { continue }
        throw SystemError(path: name, doing: "read error", errno: errno)
      }
      count += got
      if got == 0
        || !Compression.mayBeCutShort(UnsafeRawBufferPointer(start: bytes, count: count))
      {
        break
      }
    }
    let start = UnsafeRawBufferPointer(start: bytes, count: count)
    peeked = Array(start)
    return Compression(startOf: start)
  }

  /// Reads up to `limit` more bytes into `batch`, never past the input's length, of which
  /// `unread` bytes are left (and less after); returns how many came (0 at the end). From a
  /// pipe, what came is added to its copy too.
  func read(into batch: SweepBatch, limit: Int, unread: inout Int64) throws(SystemError) -> Int {
    let wanted = Int(min(Int64(limit), unread))
    guard wanted > 0 else { return 0 }
    let count: Int
    if peeked.isEmpty {
      count = try batch.read(from: fd, name: name, limit: wanted)
    } else {
      count = min(wanted, peeked.count)
      peeked.withUnsafeBytes { batch.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
      peeked.removeFirst(count)
    }
    unread -= Int64(count)
    if spool != nil && count > 0 {
      try copy(UnsafeRawBufferPointer(start: batch.bytes + (batch.count - count), count: count))
    }
    return count
  }

  /// Moves back to where the input started: for a pipe, to the start of its copy, after
  /// copying what the pass before left unread. Before the first pass, and while nothing has
  /// come from the pipe (a pass read it to its end: it stays there), the pipe stays.
  func rewind() throws(SystemError) {
    if let spool {
      guard spooled > 0 else { return }
      try drain()
      if owned { _ = systemClose(fd) }
      fd = spool.fd
      owned = true
      self.spool = nil
    }
    guard lseek(fd, start, SEEK_SET) >= 0 else {
      throw SystemError(path: name, doing: "cannot read again", errno: errno)
    }
  }

  func close() {
    if let spool { _ = systemClose(spool.fd) }
    if owned { _ = systemClose(fd) }
  }

  /// Adds `bytes` to the copy.
  private func copy(_ bytes: UnsafeRawBufferPointer) throws(SystemError) {
    guard let spool else { return }
    if let failure = OutputWriter.writeAll(bytes, to: spool.fd, name: spool.name) {
      throw failure
    }
    spooled += Int64(bytes.count)
  }

  /// Copies the rest of the pipe, which no pass has read, to the copy.
  private func drain() throws(SystemError) {
    let size = 256 * 1024
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
    defer { buffer.deallocate() }
    while true {
      let count = systemRead(fd, buffer, size)
      if count < 0 {
        if errno == EINTR { continue }
        throw SystemError(path: name, doing: "read error", errno: errno)
      }
      if count == 0 { return }
      try copy(UnsafeRawBufferPointer(start: buffer, count: count))
    }
  }
}
