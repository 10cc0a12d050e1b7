#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `RecordReader.next()` found.
public enum RecordEvent: Equatable {
  /// A JSON text was parsed: `RecordReader.withRecord` shows it.
  case record
  /// A JSON text was rejected; reading resumes at the next line that starts with `{` or `[`.
  case failure(JSONError, line: Int, column: Int)
  /// The input is exhausted.
  case end
  /// Nothing more can be read without waiting (only from a reader made with `announcesIdle`,
  /// over a pipe, terminal or socket): the moment to write out what is ready, so that each
  /// record comes out as its input arrives. The next call waits for input.
  case idle
}

/// Reads JSON texts one at a time from a file descriptor: NDJSON, whole (pretty-printed) JSON
/// files and concatenated JSON texts alike, as jq does.
///
/// Bytes come in with `read(2)` into one reusable buffer that grows only for a record longer
/// than it, up to `maxRecordBytes`: memory stays bounded whatever the input size. One byte
/// order mark at the start of the stream is skipped. After a malformed text, reading resumes
/// at the next line that starts with `{` or `[`; if such a line comes before the point where
/// the error was found, the text is reported as cut short there, so a truncated NDJSON line
/// never swallows the line after it.
///
/// Lines and columns are 1-based; columns count Unicode scalars.
public struct RecordReader: ~Copyable {
  /// The name used in diagnostics: the path, or `<stdin>`.
  public let name: String
  /// The longest JSON text accepted, in bytes.
  public let maxRecordBytes: Int
  private let fd: Int32
  private var parser: JSONParser
  private var buffer: UnsafeMutableRawPointer
  private var capacity: Int
  // False for a reader of borrowed bytes (`init(borrowing:...)`), which it never frees.
  private let ownsBuffer: Bool
  private var start = 0  // first byte not yet consumed
  private var end = 0  // end of the bytes read so far
  private var eof = false
  private var atStreamStart = true
  private var skipping = false  // after a failure: looking for a line that starts a record
  private var cutOffByEnd = false  // a text failed because the input ended inside it
  // Whether `.idle` is announced: asked for, and the input is one whose reads can wait.
  private let announcesIdle: Bool
  // Whether `.idle` may be returned before the next read: once per wait, set again by each read
  // that brings bytes.
  private var mayAnnounceIdle: Bool

  // Position bookkeeping: `line` is the line number of the byte at `lineStart`, which is
  // preceded on that line by `columnBase` scalars that are no longer in the buffer.
  private var line = 1
  private var lineStart = 0
  private var columnBase = 0
  // The same, as it was where the current record starts.
  private var recordAnchor = (line: 1, lineStart: 0, columnBase: 0)
  private var recordStart = 0
  private var recordEnd = 0

  static let readSize = 256 * 1024

  /// Creates a reader of `fd`, which it does not close, named `name` in diagnostics.
  ///
  /// With `announcesIdle`, `next()` returns `.idle` before a read that would wait for input
  /// (never for a regular file, whose reads do not wait).
  public init(
    fd: Int32, name: String, maxRecordBytes: Int = 1 << 20,
    maxDepth: Int = JSONParser.defaultMaxDepth, announcesIdle: Bool = false
  ) {
    self.announcesIdle = announcesIdle && readsCanWait(fd)
    mayAnnounceIdle = self.announcesIdle
    self.fd = fd
    self.name = name
    self.maxRecordBytes = maxRecordBytes
    parser = JSONParser(maxDepth: maxDepth)
    capacity = Self.readSize * 2
    buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    ownsBuffer = true
  }

  /// Creates a reader of `bytes`, read where they are, not copied: they must stay valid and
  /// unchanged while the reader is used. The input ends with them; they start at the start of
  /// line `line`, and `atStreamStart` says whether they start the stream, where one byte order
  /// mark is skipped. A worker that reads a piece of a large file reads it so (`FileChunk`),
  /// and asks `endedBetweenTexts` and `isSkipping` whether it read as it would in the whole.
  public init(
    borrowing bytes: UnsafeRawBufferPointer, name: String, maxRecordBytes: Int = 1 << 20,
    line: Int, atStreamStart: Bool
  ) {
    announcesIdle = false
    mayAnnounceIdle = false
    fd = -1
    self.name = name
    self.maxRecordBytes = maxRecordBytes
    parser = JSONParser(maxDepth: JSONParser.defaultMaxDepth)
    // With `eof` set the reader never reads, so it never moves or writes the bytes.
    eof = true
    if let base = bytes.baseAddress, bytes.count > 0 {
      buffer = UnsafeMutableRawPointer(mutating: base)
      ownsBuffer = false
    } else {
      buffer = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 16)
      ownsBuffer = true
    }
    capacity = bytes.count
    end = bytes.count
    self.line = line
    self.atStreamStart = atStreamStart
  }

  /// Creates a reader that first reads `pending`, bytes already taken from the stream (it
  /// copies them), then `fd` if there is one, which it does not close.
  ///
  /// `pending` must start at the start of line `line`; `atStreamStart` says whether it is the
  /// start of the stream, where one byte order mark is skipped. With no `fd` the input ends
  /// with `pending`: a caller that cuts a long stream after line feeds reads each piece so, and
  /// asks `endedBetweenTexts` and `isSkipping` whether the piece read as it would in the whole.
  public init(
    fd: Int32?, name: String, maxRecordBytes: Int = 1 << 20, pending: UnsafeRawBufferPointer,
    line: Int, atStreamStart: Bool
  ) {
    self.init(fd: fd ?? -1, name: name, maxRecordBytes: maxRecordBytes)
    if fd == nil {
      eof = true
      if capacity < pending.count {
        buffer.deallocate()
        capacity = pending.count
        buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
      }
    } else if capacity - pending.count < Self.readSize {
      buffer.deallocate()
      capacity = pending.count + Self.readSize
      buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }
    if let base = pending.baseAddress {
      buffer.copyMemory(from: base, byteCount: pending.count)
    }
    end = pending.count
    self.line = line
    self.atStreamStart = atStreamStart
  }

  deinit {
    if ownsBuffer { buffer.deallocate() }
  }

  /// Whether the input so far ended between JSON texts: no text was cut off by its end and the
  /// check for a byte order mark is behind. (After `next()` returned `.end`.)
  public var endedBetweenTexts: Bool { !cutOffByEnd && !atStreamStart }

  /// Whether the reader is skipping the rest of a malformed text, up to the next line that
  /// starts with `{` or `[`.
  public var isSkipping: Bool { skipping }

  /// Whether the current record is already compact and canonical (see `JSONParser.isCompact`).
  public var recordIsCompact: Bool { parser.isCompact }

  /// The 1-based line where the current record starts.
  public var recordLine: Int { recordAnchor.line }

  /// Reads up to the next JSON text.
  ///
  /// - Throws: `SystemError` when `read(2)` fails.
  public mutating func next() throws(SystemError) -> RecordEvent {
    while true {
      if skipping {
        try skipToRecordStart()
        if skipping { return .end }
      }
      skipSpace()
      if start == end {
        if eof { return .end }
        if wouldWait() { return .idle }
        try fill()
        continue
      }
      if atStreamStart {
        if end - start < 3 && !eof {
          if wouldWait() { return .idle }
          try fill()
          continue
        }
        atStreamStart = false
        if end - start >= 3 && bytes(start, 3).elementsEqual([0xEF, 0xBB, 0xBF]) {
          start += 3
          lineStart = start
          continue
        }
      }
      let available = end - start
      switch parser.parse(bytes(start, available), isFinal: eof) {
      case .complete(let length):
        recordAnchor = (line, lineStart, columnBase)
        recordStart = start
        recordEnd = start + length
        // The position is taken before `advance` moves the line bookkeeping past the record.
        let event = length > maxRecordBytes ? tooLarge(at: recordStart) : .record
        advance(to: recordEnd)
        return event
      case .incomplete:
        if available > maxRecordBytes {
          let event = tooLarge(at: start)
          start += 1
          skipping = true
          return event
        }
        guard try fillUntilLineEnd() else { return .idle }
      case .failed(let error):
        return fail(error)
      }
    }
  }

  /// Calls `body` with a view of the current record's tape over its bytes.
  public func withRecord<R>(_ body: (JSONView) throws -> R) rethrows -> R {
    try parser.withView(over: bytes(recordStart, recordEnd - recordStart), body)
  }

  /// The line and column of a byte offset within the current record.
  public func position(ofRecordOffset offset: Int) -> (line: Int, column: Int) {
    position(of: recordStart + offset, from: recordAnchor)
  }

  // MARK: - Buffer

  private func bytes(_ from: Int, _ count: Int) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(start: buffer + from, count: count)
  }

  private mutating func skipSpace() {
    while start < end {
      let b = buffer.load(fromByteOffset: start, as: UInt8.self)
      guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return }
      start += 1
      if b == 0x0A {
        line += 1
        lineStart = start
        columnBase = 0
      }
    }
  }

  /// Moves `start` to `offset`, counting the lines passed.
  private mutating func advance(to offset: Int) {
    var from = start
    while from < offset, let hit = memchr(buffer + from, 0x0A, offset - from) {
      from = buffer.distance(to: hit) + 1
      line += 1
      lineStart = from
      columnBase = 0
    }
    start = offset
  }

  /// Reads more bytes, making room first (which may move the buffered bytes); sets `eof` when
  /// there are none. Returns how many bytes came, now the last ones before `end`.
  @discardableResult
  private mutating func fill() throws(SystemError) -> Int {
    if capacity - end < Self.readSize {
      if start > 0 {
        compact()
      }
      if capacity - end < Self.readSize {
        grow()
      }
    }
    while true {
      let count = read(fd, buffer + end, capacity - end)
      if count > 0 {
        end += count
        if announcesIdle { mayAnnounceIdle = true }
        return count
      }
      if count == 0 {
        eof = true
        return 0
      }
      if errno != EINTR {
        throw SystemError(path: name, doing: "read error", errno: errno)
      }
    }
  }

  /// Whether the next read would wait for input, when `.idle` is to be announced before it;
  /// answers true once per wait.
  private mutating func wouldWait() -> Bool {
    guard mayAnnounceIdle else { return false }
    mayAnnounceIdle = false
    return readWouldWait(fd)
  }

  /// Reads until a line ends inside the new bytes or input ends, so that a long record is not
  /// parsed again after every small read from a pipe.
  ///
  /// Returns false, having read nothing more, where the next read would wait and `.idle` is
  /// to be announced first.
  private mutating func fillUntilLineEnd() throws(SystemError) -> Bool {
    while !eof && end - start <= maxRecordBytes {
      if wouldWait() { return false }
      let count = try fill()
      if memchr(buffer + (end - count), 0x0A, count) != nil { return true }
    }
    return true
  }

  private mutating func compact() {
    if lineStart < start {
      columnBase += scalarCount(lineStart, start)
      lineStart = start
    }
    let shift = start
    (buffer).copyMemory(from: buffer + shift, byteCount: end - shift)
    end -= shift
    start = 0
    lineStart -= shift
  }

  private mutating func grow() {
    buffer = moved(buffer, keeping: end, to: capacity * 2)
    capacity *= 2
  }

  // MARK: - Positions

  private func scalarCount(_ from: Int, _ to: Int) -> Int {
    var count = 0
    for i in from..<to where buffer.load(fromByteOffset: i, as: UInt8.self) & 0xC0 != 0x80 {
      count += 1
    }
    return count
  }

  private func position(
    of offset: Int, from anchor: (line: Int, lineStart: Int, columnBase: Int)
  ) -> (line: Int, column: Int) {
    Self.position(
      of: offset, in: UnsafeRawPointer(buffer), lineStart: anchor.lineStart, line: anchor.line,
      columnBase: anchor.columnBase)
  }

  /// The 1-based line and column of byte `offset` of `bytes`, as every diagnostic counts them:
  /// lines end at byte `0x0A`, columns count Unicode scalars (UTF-8 lead bytes).
  ///
  /// Counting starts at byte `lineStart`, which is on line `line` after `columnBase` scalars
  /// that are not in `bytes` (0 when it starts the line). A reader of records and the loader of
  /// a whole configuration file both place their errors with it.
  ///
  /// - Complexity: O(`offset` - `lineStart`).
  public static func position(
    of offset: Int, in bytes: UnsafeRawPointer, lineStart: Int = 0, line: Int = 1,
    columnBase: Int = 0
  ) -> (line: Int, column: Int) {
    var line = line
    var column = columnBase
    for i in lineStart..<max(offset, lineStart) {
      let b = bytes.load(fromByteOffset: i, as: UInt8.self)
      if b == 0x0A {
        line += 1
        column = 0
      } else if b & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column + 1)
  }

  // MARK: - Recovery

  private mutating func fail(_ error: JSONError) -> RecordEvent {
    let anchor = (line, lineStart, columnBase)
    let errorOffset = start + error.offset
    if errorOffset >= end { cutOffByEnd = true }
    // A line that starts with '{' or '[' between the record's start and the error is taken as
    // the next record: the current one was cut short at the end of the line before it.
    var cut: Int? = nil
    var from = start
    while from < errorOffset, let hit = memchr(buffer + from, 0x0A, min(errorOffset, end) - from) {
      let next = buffer.distance(to: hit) + 1
      if next <= errorOffset, next < end, startsRecord(next) {
        cut = next
        break
      }
      from = next
    }
    let event: RecordEvent
    if let cut {
      let at = position(of: cut - 1, from: anchor)
      event = .failure(
        JSONError(
          .invalidJSON, at: cut - 1 - start,
          "JSON text is cut short: a new one starts on line \(at.line + 1)"),
        line: at.line, column: at.column)
      advance(to: cut)
    } else {
      let at = position(of: min(errorOffset, end), from: anchor)
      event = .failure(error, line: at.line, column: at.column)
      advance(to: min(errorOffset + 1, end))
      skipping = true
    }
    return event
  }

  private func startsRecord(_ offset: Int) -> Bool {
    let b = buffer.load(fromByteOffset: offset, as: UInt8.self)
    return b == UInt8(ascii: "{") || b == UInt8(ascii: "[")
  }

  private mutating func tooLarge(at offset: Int) -> RecordEvent {
    let at = position(of: offset, from: (line, lineStart, columnBase))
    return .failure(
      JSONError(
        .recordTooLarge, at: offset - start,
        "JSON text is longer than the limit of \(maxRecordBytes) bytes (--max-record-bytes)"),
      line: at.line, column: at.column)
  }

  /// Discards bytes up to the next line that starts with `{` or `[`; clears `skipping` once
  /// there, leaves it set at the end of input.
  private mutating func skipToRecordStart() throws(SystemError) {
    var atLineStart = start == lineStart
    while true {
      if start == end {
        if eof { return }
        try fill()
        continue
      }
      if atLineStart && startsRecord(start) {
        skipping = false
        return
      }
      if let hit = memchr(buffer + start, 0x0A, end - start) {
        start = buffer.distance(to: hit) + 1
        line += 1
        lineStart = start
        columnBase = 0
        atLineStart = true
      } else {
        start = end
        atLineStart = false
      }
    }
  }
}

/// The first `count` bytes of `buffer`, moved to new memory of `capacity` bytes (16-aligned);
/// `buffer` is freed. How the readers grow their buffer for a long line or record.
func moved(_ buffer: UnsafeMutableRawPointer, keeping count: Int, to capacity: Int)
  -> UnsafeMutableRawPointer
{
  let fresh = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
  fresh.copyMemory(from: buffer, byteCount: count)
  buffer.deallocate()
  return fresh
}
