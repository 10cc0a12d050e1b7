/// Reads lines, split on byte `0x0A` only, from a file descriptor, for the tools that must
/// write every line they keep back byte for byte (the sweeps of notif-expire and notif-mark).
///
/// Unlike `RecordReader`, which reads JSON texts whatever their layout, this reader hands out
/// each line's exact bytes, so a line that is not a valid record can be kept as it was. A line
/// is given without its `\n` (a trailing `\r`, if any, stays: `trimmed(_:)` drops it with the
/// other white space); a last line without `\n` is given too. One byte order mark at the start
/// of the stream is skipped. Bytes come in with `read(2)` into one buffer that grows only to
/// hold the longest line, up to `maxLineBytes`: a line longer than that is handed out in parts
/// (`isOverlong`, `nextPart()`), so memory is bounded by the limit whatever the input.
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
  private var pause = InputPause()
  /// The bytes still to be read from `fd` before the reader acts as at its end.
  private var unread: Int64
  /// The 1-based number of the line last returned by `next()`.
  public private(set) var lineNumber = 0
  /// The bytes consumed so far: every line returned, with its newline, and the byte order
  /// mark if there was one.
  public private(set) var bytesRead: Int64 = 0
  /// 3 if the stream started with a byte order mark (which is skipped), else 0.
  public private(set) var byteOrderMarkLength: Int64 = 0
  /// The longest line `next()` hands out whole: a longer one comes in parts.
  public let maxLineBytes: Int
  /// Whether the line `next()` returned last is longer than `maxLineBytes`: it returned the
  /// line's first part (more than `maxLineBytes` bytes), and `nextPart()` gives the others.
  public private(set) var isOverlong = false
  /// Whether an over-long line has parts that `nextPart()` has not given yet.
  private var inOverlongLine = false

  static let readSize = 256 * 1024

  /// Creates a reader of `fd`, which it does not close, named `name` in diagnostics.
  ///
  /// With `announcesIdle`, `next(whenIdle:)` calls its argument before a read that would wait
  /// for input (never for a regular file, whose reads do not wait). With `length`, the reader
  /// reads no more than that many bytes from `fd` and then ends, as at the end of the file: a
  /// sweep reads a store to the size it had when opened, whatever is appended meanwhile.
  /// With `maxLineBytes`, a line longer than that comes in parts: see `isOverlong`.
  public init(
    fd: Int32, name: String, announcesIdle: Bool = false, length: Int64 = .max,
    maxLineBytes: Int = .max
  ) {
    self.maxLineBytes = max(maxLineBytes, 1)
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
  /// A line longer than `maxLineBytes` is given as its first part, with `isOverlong` set; the
  /// rest of it is skipped at the next call unless `nextPart()` took it.
  ///
  /// - Throws: `SystemError` when `read(2)` fails, or what `whenIdle` throws.
  /// - Complexity: O(length of the line), amortized.
  public mutating func next(whenIdle: () throws(SystemError) -> Void = {}) throws(SystemError)
    -> UnsafeRawBufferPointer?
  {
    while inOverlongLine {
      _ = try nextPart(whenIdle: whenIdle)
    }
    isOverlong = false
    while true {
      if atStreamStart {
        if end - start < 3 && !eof {
          if announcesIdle && pause.wouldWait(fd) { try whenIdle() }
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
        // Whole, yet over the limit: over-long all the same, with no other part.
        isOverlong = line.count > maxLineBytes
        return line
      }
      scanned = end - start
      if scanned > maxLineBytes {
        // Too long to hold: its first part now, the others through `nextPart()`.
        let part = UnsafeRawBufferPointer(start: buffer + start, count: end - start)
        bytesRead += Int64(end - start)
        start = end
        scanned = 0
        lineNumber += 1
        isOverlong = true
        inOverlongLine = true
        return part
      }
      if eof {
        guard start < end else { return nil }
        let line = UnsafeRawBufferPointer(start: buffer + start, count: end - start)
        bytesRead += Int64(end - start)
        start = end
        scanned = 0
        lineNumber += 1
        isOverlong = line.count > maxLineBytes
        return line
      }
      if announcesIdle && pause.wouldWait(fd) { try whenIdle() }
      try fill()
    }
  }

  /// The next part of the over-long line `next()` began (`isOverlong`), without the line's
  /// newline; nil once the line has ended. Parts are at most a read's size, valid until the
  /// next call.
  ///
  /// - Throws: `SystemError` when `read(2)` fails, or what `whenIdle` throws.
  public mutating func nextPart(whenIdle: () throws(SystemError) -> Void = {})
    throws(SystemError) -> UnsafeRawBufferPointer?
  {
    while inOverlongLine {
      if start < end {
        let part: UnsafeRawBufferPointer
        if let hit = memchr(buffer + start, 0x0A, end - start) {
          let stop = buffer.distance(to: hit)
          part = UnsafeRawBufferPointer(start: buffer + start, count: stop - start)
          bytesRead += Int64(stop + 1 - start)
          start = stop + 1
          inOverlongLine = false
        } else {
          part = UnsafeRawBufferPointer(start: buffer + start, count: end - start)
          bytesRead += Int64(end - start)
          start = end
        }
        if part.count > 0 { return part }
        continue
      }
      if eof {
        inOverlongLine = false
        break
      }
      start = 0
      end = 0
      if announcesIdle && pause.wouldWait(fd) { try whenIdle() }
      try fill()
    }
    return nil
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
        // Doubling, but never past what the longest line handed out whole needs, and straight
        // to that once doubling comes near it: a last small step would copy the whole buffer.
        let (ceiling, overflow) = maxLineBytes.addingReportingOverflow(2 * Self.readSize)
        let doubled = overflow || capacity * 2 < ceiling / 4 * 3 ? capacity * 2 : ceiling
        let grown = max(end + Self.readSize, doubled)
        buffer = moved(buffer, keeping: end, to: grown)
        capacity = grown
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
