#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads lines, split on byte `0x0A` only, from a file descriptor, for the tools that must
/// write every line they keep back byte for byte (the sweeps of notif-expire and notif-mark).
///
/// Unlike `RecordReader`, which reads JSON texts whatever their layout, this reader hands out
/// each line's exact bytes, so a line that is not a valid record can be kept as it was. A line
/// is given without its `\n` (a trailing `\r`, if any, stays: `trimmed(_:)` drops it with the
/// other white space); a last line without `\n` is given too. One byte order mark at the start
/// of the stream is skipped. Bytes come in with `read(2)` into one buffer that grows only to
/// hold the longest line: memory is bounded by the longest line, not the input.
public struct LineReader: ~Copyable {
  /// The name used in diagnostics: the path, or `<stdin>`.
  public let name: String
  private let fd: Int32
  private var buffer: UnsafeMutableRawPointer
  private var capacity: Int
  private var start = 0  // first byte of the next line
  private var scanned = 0  // bytes from `start` on already known to hold no newline
  private var end = 0
  private var eof = false
  private var atStreamStart = true
  private let announcesIdle: Bool
  /// The bytes still to be read from `fd` before the reader acts as at its end.
  private var unread: Int64
  /// The 1-based number of the line last returned by `next()`.
  public private(set) var lineNumber = 0
  /// The bytes consumed so far: every line returned, with its newline, and the byte order
  /// mark if there was one.
  public private(set) var bytesRead: Int64 = 0
  /// 3 if the stream started with a byte order mark (which is skipped), else 0.
  public private(set) var byteOrderMarkLength: Int64 = 0

  static let readSize = 256 * 1024

  /// Creates a reader of `fd`, which it does not close, named `name` in diagnostics.
  ///
  /// With `announcesIdle`, `next(whenIdle:)` calls its argument before a read that would wait
  /// for input (never for a regular file, whose reads do not wait). With `length`, the reader
  /// reads no more than that many bytes from `fd` and then ends, as at the end of the file: a
  /// sweep reads a store to the size it had when opened, whatever is appended meanwhile.
  public init(fd: Int32, name: String, announcesIdle: Bool = false, length: Int64 = .max) {
    self.announcesIdle = announcesIdle && readsCanWait(fd)
    unread = max(length, 0)
    self.fd = fd
    self.name = name
    capacity = Self.readSize * 2
    buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  }

  deinit {
    buffer.deallocate()
  }

  /// The next line without its newline, valid until the next call; nil at the end of input.
  ///
  /// Before a read that would wait for input (with `announcesIdle`), calls `whenIdle`: the
  /// moment to write out what is ready, so that each line's result comes out as it arrives.
  ///
  /// - Throws: `SystemError` when `read(2)` fails, or what `whenIdle` throws.
  /// - Complexity: O(length of the line), amortized.
  public mutating func next(whenIdle: () throws(SystemError) -> Void = {}) throws(SystemError)
    -> UnsafeRawBufferPointer?
  {
    while true {
      if atStreamStart {
        if end - start < 3 && !eof {
          if announcesIdle && readWouldWait(fd) { try whenIdle() }
          try fill()
          continue
        }
        atStreamStart = false
        if end - start >= 3 && buffer.load(fromByteOffset: start, as: UInt8.self) == 0xEF
          && buffer.load(fromByteOffset: start + 1, as: UInt8.self) == 0xBB
          && buffer.load(fromByteOffset: start + 2, as: UInt8.self) == 0xBF
        {
          start += 3
          bytesRead += 3
          byteOrderMarkLength = 3
        }
      }
      let from = start + scanned
      if from < end, let hit = memchr(buffer + from, 0x0A, end - from) {
        let stop = buffer.distance(to: hit)
        let line = UnsafeRawBufferPointer(start: buffer + start, count: stop - start)
        bytesRead += Int64(stop + 1 - start)
        start = stop + 1
        scanned = 0
        lineNumber += 1
        return line
      }
      scanned = end - start
      if eof {
        guard start < end else { return nil }
        let line = UnsafeRawBufferPointer(start: buffer + start, count: end - start)
        bytesRead += Int64(end - start)
        start = end
        scanned = 0
        lineNumber += 1
        return line
      }
      if announcesIdle && readWouldWait(fd) { try whenIdle() }
      try fill()
    }
  }

  /// The bytes of `line` without leading and trailing white space (space, tab, CR, LF).
  public static func trimmed(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    var low = 0
    var high = line.count
    while low < high, isSpace(line[low]) { low += 1 }
    while high > low, isSpace(line[high - 1]) { high -= 1 }
    return UnsafeRawBufferPointer(rebasing: line[low..<high])
  }

  @inlinable
  public static func isSpace(_ b: UInt8) -> Bool {
    b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A
  }

  private mutating func fill() throws(SystemError) {
    if capacity - end < Self.readSize {
      if start > 0 {
        buffer.copyMemory(from: buffer + start, byteCount: end - start)
        end -= start
        start = 0
      }
      if capacity - end < Self.readSize {
        buffer = moved(buffer, keeping: end, to: capacity * 2)
        capacity *= 2
      }
    }
    while true {
      guard unread > 0 else {
        eof = true
        return
      }
      let count = read(fd, buffer + end, Int(min(Int64(capacity - end), unread)))
      if count > 0 {
        end += count
        unread -= Int64(count)
        return
      }
      if count == 0 {
        eof = true
        return
      }
      if errno != EINTR {
        throw SystemError(path: name, doing: "read error", errno: errno)
      }
    }
  }
}
