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

/// What `RecordReader.nextOrLine()` found: what `next()` finds, or a line that starts no JSON
/// text.
public enum RecordOrLine: Equatable {
  /// What `next()` would have returned.
  case event(RecordEvent)
  /// A line whose first byte that is not white space, at the start of a text, is neither `{`
  /// nor `[`: `RecordReader.withLine` shows it, `recordLine` and `position(ofRecordOffset:)`
  /// place it.
  case line
}

/// A compressed stream, told by the magic bytes it starts with: what a tool is given when a
/// log rotated by logrotate (`inbox.ndjson.1.gz`) or an archive is named instead of its text.
/// Every reader looks at the start of its input for them, so that such an input gets one
/// error that says how to decompress it, not a JSON error per line of noise.
public enum Compression: String, Sendable, CaseIterable {
  case gzip, zstd, xz, bzip2

  /// The bytes each format starts with (RFC 1952, RFC 8878, the .xz file format, bzip2's
  /// `BZh`).
  public var magic: [UInt8] {
    switch self {
    case .gzip: return [0x1F, 0x8B]
    case .zstd: return [0x28, 0xB5, 0x2F, 0xFD]
    case .xz: return [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]
    case .bzip2: return [0x42, 0x5A, 0x68]
    }
  }

  /// The most bytes a magic number takes.
  public static let longestMagic = 6

  /// The format whose magic bytes `bytes` start with, if any.
  public init?(startOf bytes: UnsafeRawBufferPointer) {
    guard let first = bytes.first, Self.mayStart(with: first) else { return nil }
    guard
      let found = Self.allCases.first(where: {
        bytes.count >= $0.magic.count && bytes.starts(with: $0.magic)
      })
    else { return nil }
    self = found
  }

  /// Whether a stream that starts with `byte` may be compressed: none of the magic numbers
  /// starts with a byte that starts a JSON text, or with white space, so a JSON input is told
  /// apart by its first byte.
  @inline(__always)
  public static func mayStart(with byte: UInt8) -> Bool {
    byte == 0x1F || byte == 0x28 || byte == 0xFD || byte == 0x42
  }

  /// Whether `bytes`, fewer than a magic number, may be the start of one: more are needed to
  /// tell.
  public static func mayBeCutShort(_ bytes: UnsafeRawBufferPointer) -> Bool {
    allCases.contains { $0.magic.count > bytes.count && $0.magic.starts(with: bytes) }
  }

  /// The command that writes the stream decompressed: `gzip -dc`.
  public var decompressor: String { "\(rawValue) -dc" }

  /// The one line that says so: "the input is gzip-compressed: decompress it first (gzip
  /// -dc)".
  public var message: String {
    "the input is \(rawValue)-compressed: decompress it first (\(decompressor))"
  }
}

/// Reads JSON texts one at a time from a file descriptor: NDJSON, whole (pretty-printed) JSON
/// files and concatenated JSON texts alike, as jq does.
///
/// Bytes come in with `read(2)` into one reusable buffer that grows only for a record longer
/// than it, up to `maxRecordBytes` and a little more: memory stays bounded whatever the input
/// size. A text longer than `maxRecordBytes` is reported (`recordTooLarge`) once that many
/// bytes of it are read, and the rest of it is read past, never kept: a line of any length
/// takes time linear in its length and memory bounded by the limit. One byte order mark at the
/// start of the stream is skipped. After a malformed text, reading resumes at the next line that
/// starts with `{` or `[`; if such a line comes before the point where the error was found, the
/// text is reported as cut short there, so a truncated NDJSON line never swallows the line after
/// it.
///
/// A text that arrives in pieces (a long line, or a pretty-printed text, through a pipe) is
/// not parsed again after every piece: a scan of the new bytes (`TextEndScan`) says when it
/// may be complete, and it is parsed again then, or once its bytes have doubled since the last
/// parse (which finds a malformed text's error), or at the end of the input or the limit. So
/// each byte is parsed at most about three times, whatever the pieces.
///
/// A tool whose input may also hold lines that are not JSON (notif-responses: the apns2
/// command's `410: 'Unregistered'`) reads with `nextOrLine()` instead of `next()`: a line
/// whose first byte that is not white space, where a text would start at the start of a line,
/// is neither `{` nor `[` is then returned whole (`.line`, `withLine`), unparsed, for the tool
/// to tell what it is. Everything else reads as with `next()`: texts that start with `{` or `[`
/// (pretty-printed, concatenated), what follows a text on its line (parsed as JSON), the
/// recovery after a malformed text (at the next line that starts with `{` or `[`, so lines in
/// between are passed over). A line longer than `maxRecordBytes` is reported once
/// (`recordTooLarge`) and read past up to its end. `next()` never looks for lines: the check
/// is compiled out of it.
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
  /// The bytes the buffer holds (internal for the tests of its bound).
  private(set) var capacity: Int
  // False for a reader of borrowed bytes (`init(borrowing:...)`), which it never frees.
  private let ownsBuffer: Bool
  private var start = 0  // first byte not yet consumed
  private var shifted = 0  // bytes read and let go of before `buffer`'s first
  private var end = 0  // end of the bytes read so far
  private var eof = false
  private var atStreamStart = true
  private var skipping = false  // after a failure: looking for a line that starts a record
  // With `nextOrLine()`: skipping up to the next line whatever it starts with (the rest of a
  // line longer than the limit), not to one that starts with `{` or `[`.
  private var skippingLine = false
  // With `nextOrLine()`: the line the last text ended on (a text that starts after it on that
  // line is no line of its own), and how many bytes of a line at `start` are known to hold no
  // line feed, while it is read in pieces.
  private var textEndLine = 0
  private var lineScanned = 0
  // With `nextOrLine()`: the event `.record` stands for a line (`.line`).
  private var tookLine = false
  private var cutOffByEnd = false  // a text failed because the input ended inside it
  /// The compression the input starts with, once found: the reader reported it (a failure of
  /// its own message, at the first byte) and read no further.
  public private(set) var compression: Compression?
  // A text found incomplete: how many of its bytes the last parse saw (0 when none is
  // pending), and the scan of its bytes for where it may end.
  private var parsedLength = 0
  private var scan = TextEndScan()
  /// The bytes the parser went through so far (up to where it found each text complete,
  /// incomplete or wrong), every attempt at every text counted: for the tests that check that
  /// a text is parsed a few times over at most, however it arrives.
  private(set) var bytesParsed = 0
  // Whether `.idle` is announced: asked for, and the input is one whose reads can wait.
  private let announcesIdle: Bool
  // Whether `.idle` may be returned before the next read: once per wait, set again by each read
  // that brings bytes.
  private var mayAnnounceIdle: Bool
  private var pause = InputPause()

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

  /// Creates a reader of `fd`, which it does not close, named `name` in diagnostics, that
  /// accepts JSON texts of at most `maxRecordBytes` bytes.
  ///
  /// With `announcesIdle`, `next()` returns `.idle` before a read that would wait for input
  /// (never for a regular file, whose reads do not wait). `scan` chooses the parser's path
  /// (`JSONScan`).
  public init(
    fd: Int32, name: String, maxRecordBytes: Int, maxDepth: Int = JSONParser.defaultMaxDepth,
    announcesIdle: Bool = false, scan: JSONScan = .default
  ) {
    self.announcesIdle = announcesIdle && readsCanWait(fd)
    mayAnnounceIdle = self.announcesIdle
    self.fd = fd
    self.name = name
    self.maxRecordBytes = maxRecordBytes
    parser = JSONParser(maxDepth: maxDepth, scan: scan)
    capacity = Self.readSize * 2
    buffer = allocateBytes(capacity)
    ownsBuffer = true
  }

  /// Creates a reader of `bytes`, read where they are, not copied: they must stay valid and
  /// unchanged while the reader is used. The input ends with them; they start at the start of
  /// line `line`, and `atStreamStart` says whether they start the stream, where one byte order
  /// mark is skipped. A worker that reads a piece of a large file reads it so (`FileChunk`),
  /// and asks `endedBetweenTexts` and `isSkipping` whether it read as it would in the whole.
  public init(
    borrowing bytes: UnsafeRawBufferPointer, name: String, maxRecordBytes: Int, line: Int,
    atStreamStart: Bool, scan: JSONScan = .default
  ) {
    announcesIdle = false
    mayAnnounceIdle = false
    fd = -1
    self.name = name
    self.maxRecordBytes = maxRecordBytes
    parser = JSONParser(maxDepth: JSONParser.defaultMaxDepth, scan: scan)
    // With `eof` set the reader never reads, so it never moves or writes the bytes.
    eof = true
    if let base = bytes.baseAddress, bytes.count > 0 {
      buffer = UnsafeMutableRawPointer(mutating: base)
      ownsBuffer = false
    } else {
      buffer = allocateBytes(1)
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
  /// `announcesIdle` is as for `init(fd:...)`, once `pending` is read. With `skipping`, the
  /// reader starts as one that ended skipping the rest of a malformed text before `pending`
  /// (see `isSkipping`) goes on: from the first line that starts with `{` or `[`.
  public init(
    fd: Int32?, name: String, maxRecordBytes: Int, pending: UnsafeRawBufferPointer, line: Int,
    atStreamStart: Bool, announcesIdle: Bool = false, skipping: Bool = false
  ) {
    self.init(
      fd: fd ?? -1, name: name, maxRecordBytes: maxRecordBytes,
      announcesIdle: announcesIdle && fd != nil)
    if fd == nil {
      eof = true
      if capacity < pending.count {
        free(buffer)
        capacity = pending.count
        buffer = allocateBytes(capacity)
      }
    } else if capacity - pending.count < Self.readSize {
      free(buffer)
      capacity = pending.count + Self.readSize
      buffer = allocateBytes(capacity)
    }
    if let base = pending.baseAddress {
      buffer.copyMemory(from: base, byteCount: pending.count)
    }
    end = pending.count
    self.line = line
    self.atStreamStart = atStreamStart
    self.skipping = skipping
  }

  deinit {
    if ownsBuffer { free(buffer) }
  }

  /// Whether the input so far ended between JSON texts: no text was cut off by its end and the
  /// check for a byte order mark is behind. (After `next()` returned `.end`.)
  ///
  /// Never for a compressed input: a reader of the first piece of a stream cut in pieces
  /// (`FileChunks`) hands it to one reader of the whole, which reports it once.
  public var endedBetweenTexts: Bool { !cutOffByEnd && !atStreamStart && compression == nil }

  /// Whether the reader is skipping the rest of a malformed text, up to the next line that
  /// starts with `{` or `[` (with `nextOrLine()`, of a line longer than the limit too, up to its
  /// end).
  public var isSkipping: Bool { skipping }

  /// Whether the current record is already compact and canonical (see `JSONParser.isCompact`).
  public var recordIsCompact: Bool { parser.isCompact }

  /// Has the reader expect the outermost object of each text to have `keys`, in this order
  /// (`JSONParser.expectRootKeys`): a reader of notif records reads each key in its usual
  /// place with one comparison, and the value after it with its comma. Texts with other keys
  /// read as before, with the same events and errors.
  public mutating func expectRootKeys(_ keys: [[UInt8]]) {
    parser.expectRootKeys(keys)
  }

  /// The tape index of the value of each of the first members of the current record that had
  /// the keys `expectRootKeys` gave, at their places (`JSONParser.expectedValueIndices`).
  public var recordExpectedValues: ExpectedKeyValues { parser.expectedKeyValues }

  /// The 1-based line where the current record (or line, after `.line`) starts.
  public var recordLine: Int { recordAnchor.line }

  /// How many bytes of the input come before the current record: the bytes it was made with
  /// (`pending`, borrowed ones) and those read from its file descriptor, from where that stood.
  public var recordOffset: Int { shifted + recordStart }

  /// Reads up to the next JSON text.
  ///
  /// - Throws: `SystemError` when `read(2)` fails.
  public mutating func next() throws(SystemError) -> RecordEvent {
    try step(passingLines: false)
  }

  /// Reads up to the next JSON text, or the next line that starts none: one whose first byte
  /// that is not white space, at the start of the line, is neither `{` nor `[` (see the type's
  /// summary). Such a line is returned as `.line`, whole but for the white space before it,
  /// its line feed and one carriage return before that; it is not parsed.
  ///
  /// - Throws: `SystemError` when `read(2)` fails.
  public mutating func nextOrLine() throws(SystemError) -> RecordOrLine {
    let event = try step(passingLines: true)
    if tookLine, case .record = event {
      tookLine = false
      return .line
    }
    return .event(event)
  }

  /// `next()` (without `passingLines`, the check for lines compiled out) or `nextOrLine()`,
  /// which stands for a line with `.record` and `tookLine`.
  @inline(__always)
  private mutating func step(passingLines: Bool) throws(SystemError) -> RecordEvent {
    while true {
      if skipping {
        try skipToRecordStart()
        if skipping { return eof ? .end : .idle }
      }
      if parsedLength > 0 {
        // The text at `start` was found incomplete: read on until it is worth parsing again.
        guard try fillUntilWorthParsing() else { return .idle }
      } else {
        skipSpace()
        if start == end {
          if eof { return .end }
          if wouldWait() { return .idle }
          try fill()
          continue
        }
        if atStreamStart {
          // Enough bytes to tell a byte order mark, or a compressed stream's magic number: a
          // first byte that may start none (any JSON text's) costs this one test more.
          let mayBeMagic =
            Compression.mayStart(with: buffer.load(fromByteOffset: start, as: UInt8.self))
            && Compression.mayBeCutShort(bytes(start, end - start))
          let wanted = mayBeMagic ? Compression.longestMagic : 3
          if end - start < wanted && !eof {
            if wouldWait() { return .idle }
            try fill()
            continue
          }
          atStreamStart = false
          if let found = Compression(startOf: bytes(start, end - start)) {
            return compressed(found)
          }
          if end - start >= 3 && bytes(start, 3).elementsEqual([0xEF, 0xBB, 0xBF]) {
            start += 3
            lineStart = start
            continue
          }
        }
        if passingLines && !startsRecord(start) && line > textEndLine {
          guard let event = try takeLine() else { return .idle }
          return event
        }
      }
      // A text longer than the limit is rejected however it goes on: the parser never looks
      // past the limit, so neither its time nor its tape grows with what lies beyond.
      let available = end - start
      let parsed = min(available, maxRecordBytes + 1)
      let result = parser.parse(bytes(start, parsed), isFinal: eof && parsed == available)
      if case .incomplete = result, parsed <= maxRecordBytes {
        bytesParsed &+= parsed
        parsedLength = parsed
        scan.lookFurther()
        continue
      }
      parsedLength = 0
      scan = TextEndScan()
      switch result {
      case .complete(let length):
        bytesParsed &+= length
        recordAnchor = (line, lineStart, columnBase)
        recordStart = start
        recordEnd = start + length
        // The position is taken before `advance` moves the line bookkeeping past the record.
        let event = length > maxRecordBytes ? tooLarge(at: recordStart) : .record
        advance(to: recordEnd)
        if passingLines { textEndLine = line }
        return event
      case .incomplete:
        bytesParsed &+= parsed
        let event = tooLarge(at: start)
        start += 1
        skipping = true
        return event
      case .failed(let error):
        bytesParsed &+= min(error.offset + 1, parsed)
        return fail(error)
      }
    }
  }

  /// Calls `body` with a view of the current record's tape over its bytes (after `.record`).
  public func withRecord<R>(_ body: (JSONView) throws -> R) rethrows -> R {
    try parser.withView(over: bytes(recordStart, recordEnd - recordStart), body)
  }

  /// Calls `body` with the bytes of the current line, after `nextOrLine()` returned `.line`:
  /// from its first byte that is not white space to its end, without its line feed and one
  /// carriage return before it. They stay valid until the next call of `next()` or
  /// `nextOrLine()`.
  public func withLine<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
    try body(bytes(recordStart, recordEnd - recordStart))
  }

  /// The line and column of a byte offset within the current record (or line, after `.line`).
  ///
  /// - Complexity: O(`offset`): for many offsets in one text, `positions(ofRecordOffsets:)`.
  public func position(ofRecordOffset offset: Int) -> (line: Int, column: Int) {
    position(of: recordStart + offset, from: recordAnchor)
  }

  /// The line and column of each of `offsets`, byte offsets within the current record, in the
  /// order given: counted in one pass over the record, so that the many diagnostics of one long
  /// text cost no more than its length.
  ///
  /// - Complexity: O(n log n + m) for n offsets within the first m bytes of the record.
  public func positions(ofRecordOffsets offsets: [Int]) -> [(line: Int, column: Int)] {
    var found = [(line: Int, column: Int)](repeating: (1, 1), count: offsets.count)
    var anchor = recordAnchor
    var at = anchor.lineStart
    for index in offsets.indices.sorted(by: { offsets[$0] < offsets[$1] }) {
      let offset = max(recordStart + offsets[index], at)
      let position = position(of: offset, from: anchor)
      found[index] = position
      // The next offset is counted on from this one: its line, and the scalars before it.
      anchor = (position.line, offset, position.column - 1)
      at = offset
    }
    return found
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
    return pause.wouldWait(fd)
  }

  /// Reads on after a text found incomplete until parsing it again is worth it: the scan of
  /// its bytes says it may end, or they have doubled since the last parse (so a malformed text,
  /// which may never seem to end, is parsed again and its error found), or the input ends, or
  /// the text is longer than the limit. So a long text is not parsed again after every small
  /// read from a pipe, and each of its bytes is parsed a few times at most.
  ///
  /// Returns false, having read nothing more, where the next read would wait and `.idle` is
  /// to be announced first (the text is then parsed no sooner than otherwise).
  private mutating func fillUntilWorthParsing() throws(SystemError) -> Bool {
    while !eof && end - start <= maxRecordBytes {
      scan.scan(UnsafeRawPointer(buffer + start), count: end - start)
      if scan.mayEnd || end - start >= 2 * parsedLength { return true }
      if wouldWait() { return false }
      try fill()
    }
    return true
  }

  private mutating func compact() {
    if lineStart < start {
      columnBase += scalarCount(lineStart, start)
      lineStart = start
    }
    let shift = start
    shifted += shift
    (buffer).copyMemory(from: buffer + shift, byteCount: end - shift)
    end -= shift
    start = 0
    lineStart -= shift
  }

  /// Doubles the buffer, to no more than the limit and two reads beyond it, which a text read
  /// up to the limit needs (`fillUntilWorthParsing` reads no further into a text): a longer
  /// text is read past, not kept. `realloc` moves a large buffer by remapping its pages,
  /// without a copy or both buffers at once.
  private mutating func grow() {
    let bigger = max(min(capacity * 2, maxRecordBytes + 2 * Self.readSize), end + Self.readSize)
    guard let moved = realloc(buffer, bigger) else {
      preconditionFailure("RecordReader: out of memory for a buffer of \(bigger) bytes")
    }
    buffer = moved
    capacity = bigger
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

  /// Reports the input compressed with `found`, at its first byte, and reads no further: the
  /// rest is not JSON, and reporting it would only bury the one useful line.
  private mutating func compressed(_ found: Compression) -> RecordEvent {
    compression = found
    let at = position(of: start, from: (line, lineStart, columnBase))
    start = end
    eof = true
    return .failure(JSONError(.invalidJSON, at: 0, found.message), line: at.line, column: at.column)
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
  /// there, leaves it set at the end of input, or before a read that would wait when idle is
  /// announced (what came before the malformed text goes out before the wait).
  private mutating func skipToRecordStart() throws(SystemError) {
    var atLineStart = start == lineStart
    while true {
      if start == end {
        if eof || wouldWait() { return }
        try fill()
        continue
      }
      if atLineStart && (skippingLine || startsRecord(start)) {
        skipping = false
        skippingLine = false
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

extension RecordReader {
  // MARK: - Lines that start no text

  /// With `nextOrLine()`: reads the line at `start`, which starts no JSON text, up to its line
  /// feed (or the end of the input) and makes it the current one, returning `.record` with
  /// `tookLine` set; or reports it longer than the limit and skips the rest of it. Returns nil,
  /// having taken nothing, where the next read would wait and `.idle` is to be announced first;
  /// the next call goes on from the bytes it looked at (`lineScanned`), each looked at once.
  fileprivate mutating func takeLine() throws(SystemError) -> RecordEvent? {
    while true {
      let from = start + lineScanned
      if let hit = memchr(buffer + from, 0x0A, end - from) {
        let feed = buffer.distance(to: hit)
        if feed - start > maxRecordBytes { return lineTooLarge(next: feed + 1) }
        return makeLineCurrent(endingAt: feed, next: feed + 1)
      }
      lineScanned = end - start
      if lineScanned > maxRecordBytes {
        // The rest of the line is read past, up to its line feed, and never kept.
        skipping = true
        skippingLine = true
        return lineTooLarge(next: end)
      }
      if eof { return makeLineCurrent(endingAt: end, next: end) }
      if wouldWait() { return nil }
      try fill()
    }
  }

  /// Reports the line at `start` longer than the limit, and goes on at `next`: after its line
  /// feed, or (skipping the rest of it) at the end of the bytes read.
  private mutating func lineTooLarge(next: Int) -> RecordEvent {
    let at = position(of: start, from: (line, lineStart, columnBase))
    let event = RecordEvent.failure(
      JSONError(
        .recordTooLarge, at: 0,
        "the line is longer than the limit of \(maxRecordBytes) bytes (--max-record-bytes)"),
      line: at.line, column: at.column)
    advance(to: next)
    lineScanned = 0
    return event
  }

  /// Makes the bytes from `start` to `lineEnd` (a line feed, or the end of the input) the
  /// current line, without one carriage return before `lineEnd`, and goes on at `next`.
  private mutating func makeLineCurrent(endingAt lineEnd: Int, next: Int) -> RecordEvent {
    recordAnchor = (line, lineStart, columnBase)
    recordStart = start
    recordEnd = lineEnd
    if lineEnd > start && buffer.load(fromByteOffset: lineEnd - 1, as: UInt8.self) == 0x0D {
      recordEnd -= 1
    }
    if next > lineEnd {
      line += 1
      lineStart = next
      columnBase = 0
    }
    start = next
    lineScanned = 0
    tookLine = true
    return .record
  }
}

/// `count` bytes from `malloc`, which `grow` can `realloc` and `deinit` frees.
private func allocateBytes(_ count: Int) -> UnsafeMutableRawPointer {
  guard let bytes = malloc(count) else {
    preconditionFailure("RecordReader: out of memory for a buffer of \(count) bytes")
  }
  return bytes
}

/// Where a JSON text may end, found by a scan that keeps a few bytes of state between calls:
/// enough to tell, as the text's bytes arrive in pieces, when parsing it again may find it
/// complete, with each byte looked at once.
///
/// It follows strings (and their escapes) and the nesting of objects and arrays, nothing more.
/// For a valid text the end it finds is the text's end: the `}` or `]` that closes it, the
/// quote that closes a string, the white space after a number or a literal. For an invalid
/// one it may find none; the parser finds the error.
struct TextEndScan {
  /// The bytes of the text scanned so far, from its first.
  private(set) var scanned = 0
  /// Whether the text may end within the bytes scanned.
  private(set) var mayEnd = false
  private var depth = 0
  private var inString = false
  private var escaped = false

  /// Looks for an end after the one found: the parser found the text incomplete there.
  mutating func lookFurther() {
    mayEnd = false
  }

  /// Scans the first `count` bytes of the text at `text` from where the last call stopped, and
  /// stops where the text may end (`mayEnd`). The bytes scanned before must be unchanged.
  ///
  /// - Complexity: O(`count` - `scanned`).
  mutating func scan(_ text: UnsafeRawPointer, count: Int) {
    guard !mayEnd else { return }
    var i = scanned
    defer { scanned = i }
    while i < count {
      let b = text.load(fromByteOffset: i, as: UInt8.self)
      i += 1
      if inString {
        if escaped {
          escaped = false
        } else if b == UInt8(ascii: "\\") {
          escaped = true
        } else if b == UInt8(ascii: "\"") {
          inString = false
          if depth <= 0 {
            mayEnd = true
            return
          }
        }
        continue
      }
      switch b {
      case UInt8(ascii: "\""):
        inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        depth -= 1
        if depth <= 0 {
          mayEnd = true
          return
        }
      case 0x20, 0x0A, 0x0D, 0x09:
        if depth <= 0 {
          mayEnd = true
          return
        }
      default:
        break
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
