import NotifJSON
import NotifModel

/// The regular files a run groups, kept open, so that a leading record can stay where it is
/// in its file (`RecordStore`) instead of in memory, and be read back when its group object is
/// written. With a million groups the leading records were five sixths of notif-group's
/// memory: a record's place is 16 bytes, its text a kilobyte.
///
/// A record read back must be the one that was read: as long as it was, and the same in its
/// first 32 and last 8 bytes (where a notif record has its id), or the run stops with an error
/// (`read(_:count:check:into:)`). A file that changes while notif-group runs is not grouped
/// reliably in any case; this turns what would be another record into an error.
///
/// A class shared by every grouper of a run.
// `@unchecked Sendable`: files are registered by the reading thread before any record of theirs
// is grouped, and read back by the threads that write group objects only after every file
// was read (the worker pools' locks order the two).
final class RecordFiles: @unchecked Sendable {
  private struct Source {
    let fd: Int32
    let name: String
    /// Where the file descriptor stood when the file was registered: the records' offsets
    /// count from there.
    let base: Int
  }

  private var sources: [Source] = []

  /// The bytes of leading records a run keeps in memory before it leaves the others in their
  /// files. Tests make it small.
  let memoryBudget: Int

  /// 16 MiB: some 14,000 records of a kilobyte, whose group objects are written without a
  /// read.
  static let defaultMemoryBudget = 16 << 20

  /// The most files kept open: the records of any after them stay in memory.
  static let limit = 64

  init(memoryBudget: Int = RecordFiles.defaultMemoryBudget) {
    self.memoryBudget = memoryBudget
  }

  /// The bits of a place (`place(file:offset:)`) that hold the offset: files up to 256 TiB.
  private static let offsetBits = 48

  deinit {
    for source in sources { close(source.fd) }
  }

  /// Keeps a regular file open for reading records back, its records counted from `base`,
  /// where the descriptor stands (`lseek`, which the caller has asked already); returns its
  /// number, or nil when it is not a regular file (a pipe cannot be read again), when `limit`
  /// files are kept already, or when the system refuses.
  func register(_ fd: Int32, name: String, at base: off_t) -> Int? {
    guard sources.count < Self.limit, base >= 0 else { return nil }
    var status = stat()
    guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    let kept = fcntl(fd, F_DUPFD_CLOEXEC, 0)
    guard kept >= 0 else { return nil }
    sources.append(Source(fd: kept, name: name, base: Int(base)))
    return sources.count - 1
  }

  /// The place of the record `offset` bytes after where file `file` stood when registered;
  /// nil past 256 TiB, where a place has no room (the record then stays in memory).
  static func place(file: Int, offset: Int) -> Int? {
    offset >> offsetBits == 0 ? file << offsetBits | offset : nil
  }

  /// A check of a record's text: its length, first 32 and last 8 bytes, in 31 bits.
  static func check(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    var hash = UInt64(bytes.count)
    let head = min(bytes.count, 32)
    var at = 0
    while at < head {
      var word: UInt64 = 0
      let length = min(8, head - at)
      withUnsafeMutableBytes(of: &word) {
        $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[at..<(at + length)]))
      }
      hash = murmur3Finalize(hash ^ word)
      at += length
    }
    if bytes.count >= 8 {
      hash = murmur3Finalize(
        hash ^ bytes.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
    }
    return Int32(truncatingIfNeeded: hash & 0x7FFF_FFFF)
  }

  /// Reads the `count` bytes of the record at `place` into `into`.
  ///
  /// - Throws: `SystemError` naming the file when the read fails, or when what it reads is not
  ///   the record (`check` differs): the file changed since it was grouped.
  func read(_ place: Int, count: Int, check: Int32, into: UnsafeMutableRawPointer)
    throws(SystemError)
  {
    let source = sources[place >> Self.offsetBits]
    let offset = source.base + (place & (1 << Self.offsetBits - 1))
    var got = 0
    while got < count {
      let read = pread(source.fd, into + got, count - got, off_t(offset + got))
      if read > 0 {
        got += read
      } else if read == 0 {
        break
      } else if errno != EINTR {
        throw SystemError(path: source.name, doing: "read error", errno: errno)
      }
    }
    guard got == count, Self.check(UnsafeRawBufferPointer(start: into, count: count)) == check
    else {
      throw SystemError(
        path: source.name,
        message:
          "changed while notif-group read it: the record at byte \(offset) is no longer there")
    }
  }
}
