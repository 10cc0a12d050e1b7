import Dispatch
import Foundation
import Testing

@testable import NotifJSON

/// What the reader reported, as a value: a record in compact form with its first line, or a
/// failure with its position.
enum ReadEvent: Equatable, Sendable, CustomStringConvertible {
  case record(String, line: Int)
  case failure(JSONError.Code, String, line: Int, column: Int)
  /// A line that starts no JSON text (`RecordReader.nextOrLine`), where it starts.
  case line(String, line: Int, column: Int)

  var description: String {
    switch self {
    case .record(let text, let line):
      return "record line \(line): \(text.count > 80 ? String(text.prefix(80)) + "..." : text)"
    case .failure(let code, let message, let line, let column):
      return "\(code.rawValue) at \(line):\(column): \(message)"
    case .line(let text, let line, let column):
      return "line at \(line):\(column): \(text)"
    }
  }
}

/// How the bytes reach the reader.
enum Feed: Sendable, CustomTestStringConvertible {
  /// A regular file: one read takes everything, up to the buffer's room.
  case file
  /// A pipe written `chunk` bytes at a time by another thread.
  case pipe(chunk: Int)
  /// A pipe written in these parts by another thread, pausing after each so that the reader
  /// sees it alone. (Only the cut points depend on the pause; the expected result does not.)
  case pipeParts([[UInt8]])

  var testDescription: String {
    switch self {
    case .file: return "file"
    case .pipe(let chunk): return "pipe(\(chunk))"
    case .pipeParts(let parts): return "pipe(\(parts.map(\.count)))"
    }
  }
}

private func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
  var offset = 0
  while offset < bytes.count {
    let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
    if written < 0 {
      if errno == EINTR { continue }
      return
    }
    offset += written
  }
}

/// Calls `body` with a file descriptor from which `bytes` can be read.
func withInput<R>(_ bytes: [UInt8], _ feed: Feed, _ body: (Int32) throws -> R) throws -> R {
  switch feed {
  case .file:
    var template = Array("/tmp/notif-reader-test-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0, "mkstemp failed")
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    defer { close(fd) }
    bytes.withUnsafeBytes { writeAll(fd, $0) }
    lseek(fd, 0, SEEK_SET)
    return try body(fd)
  case .pipe(let chunk):
    var parts: [[UInt8]] = []
    var offset = 0
    while offset < bytes.count {
      parts.append(Array(bytes[offset..<min(offset + chunk, bytes.count)]))
      offset += chunk
    }
    return try withPipe(parts, pause: false, body)
  case .pipeParts(let parts):
    precondition(parts.joined().elementsEqual(bytes))
    return try withPipe(parts, pause: true, body)
  }
}

private func withPipe<R>(_ parts: [[UInt8]], pause: Bool, _ body: (Int32) throws -> R) throws -> R {
  var fds: [Int32] = [0, 0]
  precondition(pipe(&fds) == 0, "pipe failed")
  let (readEnd, writeEnd) = (fds[0], fds[1])
  let done = DispatchSemaphore(value: 0)
  let writer = Thread {
    for part in parts {
      part.withUnsafeBytes { writeAll(writeEnd, $0) }
      if pause { usleep(200_000) }
    }
    close(writeEnd)
    done.signal()
  }
  writer.start()
  defer {
    // Drain what the body left unread, so the writer never blocks on a full pipe.
    var sink = [UInt8](repeating: 0, count: 65536)
    while sink.withUnsafeMutableBytes({ read(readEnd, $0.baseAddress!, $0.count) }) > 0 {}
    done.wait()
    close(readEnd)
  }
  return try body(readEnd)
}

/// Reads everything with `reader`, in compact form.
func collect(_ reader: inout RecordReader) throws -> [ReadEvent] {
  var events: [ReadEvent] = []
  for _ in 0..<1_000_000 {
    switch try reader.next() {
    case .end:
      return events
    case .idle:
      Issue.record("a reader not asked to announce idle was idle")
    case .record:
      let text = reader.withRecord { view in
        var out = ByteBuffer()
        JSONWriter.writeCompact(view, 0, into: &out)
        return out.text
      }
      events.append(.record(text, line: reader.recordLine))
    case .failure(let error, let line, let column):
      events.append(.failure(error.code, error.message, line: line, column: column))
    }
  }
  Issue.record("the reader did not reach the end")
  return events
}

/// Reads everything with `reader.nextOrLine()`: the records in compact form, the lines as they
/// are. With `idle`, `.idle` is expected (and passed over), else it is an issue.
func collectWithLines(_ reader: inout RecordReader, idle: Bool = false) throws -> [ReadEvent] {
  var events: [ReadEvent] = []
  for _ in 0..<1_000_000 {
    switch try reader.nextOrLine() {
    case .event(.end):
      return events
    case .event(.idle):
      if !idle { Issue.record("a reader not asked to announce idle was idle") }
    case .event(.record):
      let text = reader.withRecord { view in
        var out = ByteBuffer()
        JSONWriter.writeCompact(view, 0, into: &out)
        return out.text
      }
      events.append(.record(text, line: reader.recordLine))
    case .event(.failure(let error, let line, let column)):
      events.append(.failure(error.code, error.message, line: line, column: column))
    case .line:
      let text = reader.withLine { String(decoding: $0, as: UTF8.self) }
      let at = reader.position(ofRecordOffset: 0)
      #expect(at.line == reader.recordLine)
      events.append(.line(text, line: reader.recordLine, column: at.column))
    }
  }
  Issue.record("the reader did not reach the end")
  return events
}

/// Everything `nextOrLine()` reads from `bytes`.
func readWithLines(_ bytes: [UInt8], _ feed: Feed = .file, maxRecordBytes: Int = 1 << 20)
  throws -> [ReadEvent]
{
  try withInput(bytes, feed) { fd in
    var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: maxRecordBytes)
    return try collectWithLines(&reader)
  }
}

/// Everything read from `bytes`, by a reader expecting `expecting` as the outermost keys if
/// not empty (`RecordReader.expectRootKeys`).
func read(
  _ bytes: [UInt8], _ feed: Feed = .file, maxRecordBytes: Int = 1 << 20,
  maxDepth: Int = JSONParser.defaultMaxDepth, expecting: [[UInt8]] = []
) throws -> [ReadEvent] {
  try withInput(bytes, feed) { fd in
    var reader = RecordReader(
      fd: fd, name: "input", maxRecordBytes: maxRecordBytes, maxDepth: maxDepth)
    if !expecting.isEmpty { reader.expectRootKeys(expecting) }
    return try collect(&reader)
  }
}

/// Everything read from the UTF-8 bytes of `text`.
func read(
  _ text: String, _ feed: Feed = .file, maxRecordBytes: Int = 1 << 20,
  maxDepth: Int = JSONParser.defaultMaxDepth
) throws -> [ReadEvent] {
  try read(Array(text.utf8), feed, maxRecordBytes: maxRecordBytes, maxDepth: maxDepth)
}

private let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

@Suite struct RecordReaderTests {
  /// Inputs and what reading them gives; each is also read through a pipe in small chunks.
  static let cases: [(String, [UInt8], [ReadEvent])] = [
    (
      "ndjson", Array("{\"a\":1}\n{\"b\":2}\n".utf8),
      [.record(#"{"a":1}"#, line: 1), .record(#"{"b":2}"#, line: 2)]
    ),
    (
      "crlf", Array("{\"a\":1}\r\n{\"b\":2}\r\n".utf8),
      [.record(#"{"a":1}"#, line: 1), .record(#"{"b":2}"#, line: 2)]
    ),
    (
      "no final newline", Array("{\"a\":1}\n{\"b\":2}".utf8),
      [.record(#"{"a":1}"#, line: 1), .record(#"{"b":2}"#, line: 2)]
    ),
    (
      "scalars", Array("1\n\"x\"\ntrue\n-2.5".utf8),
      [
        .record("1", line: 1), .record(#""x""#, line: 2), .record("true", line: 3),
        .record("-2.5", line: 4),
      ]
    ),
    (
      "blank lines", Array("\n\n  {\"a\":1}  \n\n\n{\"b\":2}\n\n".utf8),
      [.record(#"{"a":1}"#, line: 3), .record(#"{"b":2}"#, line: 6)]
    ),
    (
      "leading bom", bom + Array("{\"a\":1}\n{\"b\":2}\n".utf8),
      [.record(#"{"a":1}"#, line: 1), .record(#"{"b":2}"#, line: 2)]
    ),
    ("bom then a line break", bom + Array("\n{}".utf8), [.record("{}", line: 2)]),
    (
      "bom and an error", bom + Array(#"{"a":}"#.utf8),
      [.failure(.invalidJSON, "expected a JSON value, found '}'", line: 1, column: 6)]
    ),
    (
      "bom mid-stream", Array("{\"a\":1}\n\u{FEFF}{\"b\":2}\n{\"c\":3}\n".utf8),
      [
        .record(#"{"a":1}"#, line: 1),
        .failure(
          .invalidJSON, "expected a JSON value, found byte order mark (U+FEFF)", line: 2, column: 1),
        .record(#"{"c":3}"#, line: 3),
      ]
    ),
    (
      "two leading boms", bom + bom + Array("{}\n[]\n".utf8),
      [
        .failure(
          .invalidJSON, "expected a JSON value, found byte order mark (U+FEFF)", line: 1, column: 1),
        .record("[]", line: 2),
      ]
    ),
    (
      "pretty-printed", Array("{\n  \"a\": 1,\n  \"b\": [\n    2\n  ]\n}\n{\"c\":3}\n".utf8),
      [.record(#"{"a":1,"b":[2]}"#, line: 1), .record(#"{"c":3}"#, line: 7)]
    ),
    (
      "concatenated", Array("{\"a\":1}{\"b\":2} [3]\"s\"4 true\n".utf8),
      [
        .record(#"{"a":1}"#, line: 1), .record(#"{"b":2}"#, line: 1), .record("[3]", line: 1),
        .record(#""s""#, line: 1), .record("4", line: 1), .record("true", line: 1),
      ]
    ),
    (
      "recovers at the next line that starts a record",
      Array("{\"a\":}\nnot json\n  {\"indented\":1}\n{\"b\":2}\n".utf8),
      [
        .failure(.invalidJSON, "expected a JSON value, found '}'", line: 1, column: 6),
        .record(#"{"b":2}"#, line: 4),
      ]
    ),
    (
      "skips the rest of the line after an error", Array("{\"a\":} {\"b\":2}\n[\"c\"]\n".utf8),
      [
        .failure(.invalidJSON, "expected a JSON value, found '}'", line: 1, column: 6),
        .record(#"["c"]"#, line: 2),
      ]
    ),
    (
      "cut short", Array("{\"a\":1\n{\"b\":2}\n".utf8),
      [
        .failure(
          .invalidJSON, "JSON text is cut short: a new one starts on line 2", line: 1, column: 7),
        .record(#"{"b":2}"#, line: 2),
      ]
    ),
    (
      "cut short after a colon", Array("{\"a\":\n{\"b\":2}\n{\"c\":3}\n".utf8),
      [
        .failure(
          .invalidJSON, "JSON text is cut short: a new one starts on line 2", line: 1, column: 6),
        .record(#"{"b":2}"#, line: 2), .record(#"{"c":3}"#, line: 3),
      ]
    ),
    (
      "cut short at the end of input", Array("{\"a\":\n{\"b\":2}\n".utf8),
      [
        .failure(
          .invalidJSON, "JSON text is cut short: a new one starts on line 2", line: 1, column: 6),
        .record(#"{"b":2}"#, line: 2),
      ]
    ),
    (
      "cut short array", Array("[1,2\n[3]\n".utf8),
      [
        .failure(
          .invalidJSON, "JSON text is cut short: a new one starts on line 2", line: 1, column: 5),
        .record("[3]", line: 2),
      ]
    ),
    (
      "cut short pretty-printed", Array("{\n  \"a\": 1,\n{\"b\":2}\n".utf8),
      [
        .failure(
          .invalidJSON, "JSON text is cut short: a new one starts on line 3", line: 2, column: 10),
        .record(#"{"b":2}"#, line: 3),
      ]
    ),
    (
      "string cut short by a line break", Array("{\"a\":\"trunc\n{\"b\":2}\n".utf8),
      [
        .failure(
          .invalidJSON,
          "unescaped control character line feed (U+000A) in a string (a line break must be written \\n)",
          line: 1, column: 12),
        .record(#"{"b":2}"#, line: 2),
      ]
    ),
    (
      "unclosed at the end", Array("{\"a\":1}\n{\"b\":[1,".utf8),
      [
        .record(#"{"a":1}"#, line: 1),
        .failure(.invalidJSON, "unexpected end of input inside an array", line: 2, column: 9),
      ]
    ),
    (
      "columns count scalars", Array("{\"a\":1}\n{\"é\":1,\"ü\":}\n".utf8),
      [
        .record(#"{"a":1}"#, line: 1),
        .failure(.invalidJSON, "expected a JSON value, found '}'", line: 2, column: 12),
      ]
    ),
    (
      "columns count four-byte scalars", Array("[\"😀\",]".utf8),
      [.failure(.invalidJSON, "trailing comma before ']'", line: 1, column: 5)]
    ),
    (
      "columns count wide scalars", Array("{\"日本\":\"語\",}".utf8),
      [.failure(.invalidJSON, "trailing comma before '}'", line: 1, column: 10)]
    ),
    (
      "invalid utf-8", [0x5B, 0x22, 0x61, 0xC0, 0x80, 0x22, 0x5D, 0x0A] + Array("[1]\n".utf8),
      [
        .failure(.invalidUTF8, "invalid UTF-8 byte 0xC0", line: 1, column: 4),
        .record("[1]", line: 2),
      ]
    ),
    (
      "duplicate key", Array("{\"a\":1,\"\\u0061\":2}\n{\"a\":1}\n".utf8),
      [
        .failure(.duplicateKey, "duplicate key 'a'", line: 1, column: 8),
        .record(#"{"a":1}"#, line: 2),
      ]
    ),
    ("empty", [], []),
    ("only white space", Array("\n \r\n\t".utf8), []),
    ("only a bom", bom, []),
  ]

  @Test(arguments: cases)
  func readsRecordsAndReportsFailures(_ name: String, _ input: [UInt8], _ expected: [ReadEvent])
    throws
  {
    #expect(try read(input) == expected)
  }

  @Test(arguments: cases, [Feed.pipe(chunk: 1), .pipe(chunk: 3), .pipe(chunk: 4096)])
  func readsTheSameThroughAPipeInSmallChunks(
    _ input: (String, [UInt8], [ReadEvent]), _ feed: Feed
  ) throws {
    #expect(try read(input.1, feed) == input.2)
  }

  /// Texts whose outermost keys are, in part, those `testExpectedKeys` expects.
  static let textsWithExpectedKeys = [
    #"{"a":1,"b":2,"":3,"id":4,"aps":5,"c":6}"#,
    #"{"a":1,"b":2,"a":3}"#,
    #"{"a":1,"a":2}"#,
    #"{"b":1,"b":2}"#,
    #"{"a":1,"b":{"a":1,"a":2}}"#,
    #"{"a":null,"b":true,"":"x","id":1}"#,
    #"{"a":1,"\u0062":2,"b":3}"#,
    #"{"a":1, "b":2,"c":3,"b":4}"#,
    #"{"a":1,"b":2,"":3,"id":4,"aps":5,"c":6,"d":7,"c":8}"#,
    "{\"a\":1,\n\"b\":2,\n\"a\":3}",
  ]

  /// A reader expecting keys gives the events of one that expects none: the same records,
  /// and the same errors (a duplicate key after the expected ones or among the others
  /// included), from a file and through a pipe one byte at a time.
  @Test(arguments: [Feed.file, .pipe(chunk: 1)])
  func readsTheSameExpectingKeys(_ feed: Feed) throws {
    var inputs = Self.cases.map(\.1)
    inputs.append(Array(Self.textsWithExpectedKeys.joined(separator: "\n").utf8))
    inputs.append(contentsOf: Self.textsWithExpectedKeys.map { Array($0.utf8) })
    for input in inputs {
      let events = try read(input, feed, expecting: testExpectedKeys)
      #expect(events == (try read(input, feed)), "\(String(decoding: input, as: UTF8.self))")
    }
    // Eight of the ten texts have a duplicate key, in the places the comparison needs.
    let events = try read(Array(Self.textsWithExpectedKeys.joined(separator: "\n").utf8))
    let failures = events.filter { if case .failure = $0 { true } else { false } }
    #expect(failures.count == 8 && events.count == 10, "\(events)")
  }

  @Test func readsTheSameWhenARecordArrivesInParts() throws {
    let parts = ["{\"a\":", "1}\n{\"b\":\"\u{E9}", "\"}\n[1", "2]\n\"x", "\"\n3", "4\n"].map {
      Array($0.utf8)
    }
    let expected: [ReadEvent] = [
      .record(#"{"a":1}"#, line: 1), .record(#"{"b":"é"}"#, line: 2), .record("[12]", line: 3),
      .record(#""x""#, line: 4), .record("34", line: 5),
    ]
    #expect(try read(parts.flatMap { $0 }, .pipeParts(parts)) == expected)
    let split: [[UInt8]] = [[0x7B, 0x22, 0xC3], [0xA9, 0x22, 0x3A, 0x31, 0x7D, 0x0A]]
    #expect(try read(split.flatMap { $0 }, .pipeParts(split)) == [.record(#"{"é":1}"#, line: 1)])
    let bomSplit: [[UInt8]] = [[0xEF], [0xBB], [0xBF, 0x5B, 0x5D]]
    #expect(try read(bomSplit.flatMap { $0 }, .pipeParts(bomSplit)) == [.record("[]", line: 1)])
  }

  @Test
  func readsAWordCutByAReadAsOneWord() throws {
    let parts = [Array("true".utf8), Array("x\n[1]\n".utf8)]
    let expected: [ReadEvent] = [
      .failure(
        .invalidJSON,
        "unexpected word 'truex' (only true, false and null go unquoted; strings need double quotes)",
        line: 1, column: 1),
      .record("[1]", line: 2),
    ]
    #expect(try read(parts.flatMap { $0 }) == expected)
    #expect(try read(parts.flatMap { $0 }, .pipeParts(parts)) == expected)
  }

  // MARK: - Record size

  @Test(arguments: [Feed.file, .pipe(chunk: 100)])
  func rejectsARecordOverTheLimitAndReadsTheNext(_ feed: Feed) throws {
    let input = "{\"a\":\"12345678\"}\n{\"a\":\"123456789\"}\n{\"b\":2}\n"
    #expect(
      try read(input, feed, maxRecordBytes: 16) == [
        .record(#"{"a":"12345678"}"#, line: 1),
        .failure(
          .recordTooLarge, "JSON text is longer than the limit of 16 bytes (--max-record-bytes)",
          line: 2, column: 1),
        .record(#"{"b":2}"#, line: 3),
      ])
  }

  @Test(arguments: [Feed.file, .pipe(chunk: 65536)])
  func rejectsALineMuchLongerThanTheLimitAndReadsTheNext(_ feed: Feed) throws {
    let input = "[1]\n{\"s\":\"" + String(repeating: "x", count: 3_000_000) + "\"}\n{\"b\":2}\n"
    #expect(
      try read(input, feed, maxRecordBytes: 65536) == [
        .record("[1]", line: 1),
        .failure(
          .recordTooLarge, "JSON text is longer than the limit of 65536 bytes (--max-record-bytes)",
          line: 2, column: 1),
        .record(#"{"b":2}"#, line: 3),
      ])
  }

  @Test
  func reportsATooLargeRecordAtItsStart() throws {
    let input = Array("{\"a\":1}\n{\"a\":\"123456789\"}\n".utf8)
    let error = try withInput(input, .file) { fd -> JSONError? in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: 16)
      _ = try reader.next()
      if case .failure(let error, _, _) = try reader.next() { return error }
      return nil
    }
    #expect(error?.offset == 0)
  }

  @Test
  func rejectsAPrettyPrintedRecordOverTheLimit() throws {
    let input = "{\n\"a\": \"0123456789\"\n}\n{\"b\":2}\n"
    #expect(
      try read(input, maxRecordBytes: 16) == [
        .failure(
          .recordTooLarge, "JSON text is longer than the limit of 16 bytes (--max-record-bytes)",
          line: 1, column: 1),
        .record(#"{"b":2}"#, line: 4),
      ])
  }

  @Test(arguments: [Feed.file, .pipe(chunk: 65536), .pipe(chunk: 1000)])
  func readsARecordLargerThanOneRead(_ feed: Feed) throws {
    let big = "{\"s\":\"" + String(repeating: "abcdefghij", count: 60_000) + "\"}"
    #expect(
      try read(big + "\n{\"b\":2}\n", feed) == [
        .record(big, line: 1), .record(#"{"b":2}"#, line: 2),
      ])
  }

  @Test func honorsTheNestingLimit() throws {
    #expect(
      try read("[[[]]]\n[[1]]\n", maxDepth: 2) == [
        .failure(
          .nestingTooDeep, "objects and arrays nested deeper than 2 levels", line: 1, column: 3),
        .record("[[1]]", line: 2),
      ])
  }

  // MARK: - Positions

  @Test(arguments: [Feed.file, .pipe(chunk: 5000)])
  func countsColumnsAcrossBufferRefills(_ feed: Feed) throws {
    // 640,000 bytes on one line: more than one read, so the buffer is compacted mid-line.
    let input = String(repeating: #"{"é":1}"#, count: 80_000) + #"{"a":}"# + "\n[2]\n"
    let result = try withInput(Array(input.utf8), feed) { fd -> (Int, [ReadEvent]) in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: 1 << 20)
      var records = 0
      var others: [ReadEvent] = []
      while true {
        switch try reader.next() {
        case .end: return (records, others)
        case .idle: Issue.record("a reader not asked to announce idle was idle")
        case .record:
          if reader.recordLine == 1 {
            records += 1
          } else {
            others.append(.record("", line: reader.recordLine))
          }
        case .failure(let error, let line, let column):
          others.append(.failure(error.code, error.message, line: line, column: column))
        }
      }
    }
    #expect(result.0 == 80_000)
    #expect(
      result.1 == [
        .failure(.invalidJSON, "expected a JSON value, found '}'", line: 1, column: 560_006),
        .record("", line: 2),
      ])
  }

  @Test func givesThePositionOfAnOffsetInTheRecord() throws {
    let input = "\n\n{\n  \"a\": \"é\", \"c\": 3,\n  \"b\": 2\n}\n"
    let positions = try withInput(Array(input.utf8), .file) { fd -> [String] in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: 1 << 20)
      guard try reader.next() == .record else { return [] }
      let offsets = reader.withRecord { view in
        [0]
          + ["a", "c", "b"].map { name -> Int in
            var found = -1
            view.forEachMember(of: 0) { key, value in
              if view.string(key) == name { found = Int(view.tokens[value].start) }
            }
            return found
          }
      }
      return offsets.map { offset in
        let at = reader.position(ofRecordOffset: offset)
        return "\(at.line):\(at.column)"
      } + ["\(reader.recordLine)"]
    }
    #expect(positions == ["3:1", "4:8", "4:18", "5:8", "3"])
  }

  @Test func reportsWhetherTheRecordIsCompact() throws {
    let text = "{\"a\":1}\n{\"a\": 1}\n{\"a\":\"\\u00e9\"}\n{\"a\":\"\\n\"}\n"
    let flags = try withInput(Array(text.utf8), .file) {
      fd -> [Bool] in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: 1 << 20)
      var flags: [Bool] = []
      while try reader.next() == .record { flags.append(reader.recordIsCompact) }
      return flags
    }
    #expect(flags == [true, false, false, true])  // \n is how the writer writes it too
  }

  @Test func keepsReturningEndAtTheEnd() throws {
    let events = try withInput(Array("{}".utf8), .file) { fd -> [RecordEvent] in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: 1 << 20)
      return [try reader.next(), try reader.next(), try reader.next()]
    }
    #expect(events == [.record, .end, .end])
  }

  @Test func aReadErrorIsASystemErrorNamingTheInput() throws {
    let fd = open("/", O_RDONLY)
    try #require(fd >= 0)
    defer { close(fd) }
    var reader = RecordReader(fd: fd, name: "some-dir", maxRecordBytes: 1 << 20)
    #expect(throws: SystemError(path: "some-dir", message: "read error: is a directory")) {
      _ = try reader.next()
    }
    #expect(reader.name == "some-dir")
    #expect(reader.maxRecordBytes == 1 << 20)
  }

  @Test(arguments: cases)
  func readsTheSameWhenTheStartIsAlreadyInMemory(
    _ name: String, _ input: [UInt8], _ expected: [ReadEvent]
  ) throws {
    for split in 0...input.count {
      let events = try withInput(Array(input[split...]), .file) { fd in
        try input[..<split].withUnsafeBytes { pending in
          var reader = RecordReader(
            fd: fd, name: "input", maxRecordBytes: 1 << 20, pending: pending, line: 1,
            atStreamStart: true)
          return try collect(&reader)
        }
      }
      #expect(events == expected, "split at \(split)")
    }
    let alone = try input.withUnsafeBytes { pending in
      var reader = RecordReader(
        fd: nil, name: "input", maxRecordBytes: 1 << 20, pending: pending, line: 1,
        atStreamStart: true)
      return try collect(&reader)
    }
    #expect(alone == expected)
  }

  @Test(arguments: cases)
  func readsBorrowedBytesAsAFile(_ name: String, _ input: [UInt8], _ expected: [ReadEvent])
    throws
  {
    // Read in place, not copied: with no room after them, so a read past the end would show.
    let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: input.count, alignment: 1)
    defer { bytes.deallocate() }
    bytes.copyBytes(from: input)
    var reader = RecordReader(
      borrowing: UnsafeRawBufferPointer(bytes), name: "input", maxRecordBytes: 1 << 20, line: 1,
      atStreamStart: true)
    #expect(try collect(&reader) == expected)
    #expect(Array(bytes) == input, "the bytes are left as they were")
  }

  @Test func countsLinesFromTheLineGiven() throws {
    let events = try Array("\n{\"a\":1}\n{\"b\":}\n".utf8).withUnsafeBytes { pending in
      var reader = RecordReader(
        fd: nil, name: "input", maxRecordBytes: 1 << 20, pending: pending, line: 41,
        atStreamStart: false)
      return try collect(&reader)
    }
    #expect(
      events == [
        .record(#"{"a":1}"#, line: 42),
        .failure(.invalidJSON, "expected a JSON value, found '}'", line: 43, column: 6),
      ])
  }

  /// Where reading bytes that end after a line feed stops: between texts (so the bytes after
  /// would read the same with a new reader), and whether skipping a malformed text's remains.
  static let endings: [(String, Bool, Bool)] = [
    ("{\"a\":1}\n", true, false),
    ("{\"a\":1}\n  \n", true, false),
    ("{\n  \"a\": 1\n", false, true),  // a pretty-printed text cut in two
    ("[\n{\"a\":1},\n", false, true),  // cut in two, where a line starts a record
    ("{\"a\":1} x\n", true, true),  // an error before the end: the rest of the line skipped
    ("x\n{\"a\":1}\n", true, false),
    ("\n \n", false, false),  // a byte order mark could still come
  ]

  @Test(arguments: endings)
  func tellsWhetherItEndedBetweenTexts(_ text: String, _ between: Bool, _ skipping: Bool) throws {
    let state = try Array(text.utf8).withUnsafeBytes { pending in
      var reader = RecordReader(
        fd: nil, name: "input", maxRecordBytes: 1 << 20, pending: pending, line: 1,
        atStreamStart: true)
      _ = try collect(&reader)
      return (reader.endedBetweenTexts, reader.isSkipping)
    }
    #expect(state.0 == between)
    #expect(state.1 == skipping)
  }

  // MARK: - Lines that start no text (`nextOrLine`)

  /// Inputs in which lines that start no JSON text (the apns2 command's `410: 'Unregistered'`)
  /// come among texts, and what `nextOrLine()` gives for them.
  static let lineCases: [(String, [UInt8], [ReadEvent])] = [
    (
      "lines between texts", Array("410: 'Unregistered'\n{\"a\":1}\n200: ''\n[2]\n".utf8),
      [
        .line("410: 'Unregistered'", line: 1, column: 1), .record(#"{"a":1}"#, line: 2),
        .line("200: ''", line: 3, column: 1), .record("[2]", line: 4),
      ]
    ),
    (
      "white space around a line", Array("\n  \t410: 'x' \r\n\r\n {\"a\":1}\r\n".utf8),
      [.line("410: 'x' ", line: 2, column: 4), .record(#"{"a":1}"#, line: 4)]
    ),
    (
      "no final line feed", Array("{}\nnot json".utf8),
      [
        .record("{}", line: 1), .line("not json", line: 2, column: 1),
      ]
    ),
    (
      "scalars and closing brackets are lines",
      Array("1\n\"x\"\ntrue\n}\n]\n".utf8),
      [
        .line("1", line: 1, column: 1), .line("\"x\"", line: 2, column: 1),
        .line("true", line: 3, column: 1), .line("}", line: 4, column: 1),
        .line("]", line: 5, column: 1),
      ]
    ),
    (
      "a line after a byte order mark", bom + Array("410: 'x'\n".utf8),
      [
        .line("410: 'x'", line: 1, column: 1)
      ]
    ),
    (
      "a line of UTF-8", Array(" é: 'ü'\n{}\n".utf8),
      [.line("é: 'ü'", line: 1, column: 2), .record("{}", line: 2)]
    ),
    (
      "pretty-printed and concatenated texts among lines",
      Array("{\n\"a\": [\n1\n],\n\"b\": {\n\"c\": 2\n}\n}\n410: 'x'\n[1] [2]\nend\n".utf8),
      [
        .record(#"{"a":[1],"b":{"c":2}}"#, line: 1), .line("410: 'x'", line: 9, column: 1),
        .record("[1]", line: 10), .record("[2]", line: 10), .line("end", line: 11, column: 1),
      ]
    ),
    (
      // After a text, the rest of its line is JSON, as `next()` reads it; after a malformed
      // text, reading resumes at a line that starts with a bracket, as with `next()`.
      "what follows a text on its line is no line",
      Array("{\"a\":1} x\n200: ''\n[2]\n200: ''\n".utf8),
      [
        .record(#"{"a":1}"#, line: 1),
        .failure(
          .invalidJSON,
          "unexpected word 'x' (only true, false and null go unquoted; strings need double quotes)",
          line: 1, column: 9),
        .record("[2]", line: 3), .line("200: ''", line: 4, column: 1),
      ]
    ),
    (
      // So a pretty-printed text's remains are not taken for lines.
      "a malformed pretty-printed text", Array("{\n\"a\" 1,\n\"b\": 2\n}\n410: 'x'\n{}\n".utf8),
      [
        .failure(.invalidJSON, "expected ':' after the key, found '1'", line: 2, column: 5),
        .record("{}", line: 6),
      ]
    ),
    (
      "a text cut short by a line", Array("{\"a\":1,\n410: 'x'\n{\"b\":\n[3]\n".utf8),
      [
        .failure(.invalidJSON, "expected a string key, found '4'", line: 2, column: 1),
        .failure(
          .invalidJSON, "JSON text is cut short: a new one starts on line 4", line: 3, column: 6),
        .record("[3]", line: 4),
      ]
    ),
  ]

  @Test(arguments: lineCases, [Feed.file, .pipe(chunk: 1), .pipe(chunk: 3), .pipe(chunk: 4096)])
  func passesWholeTheLinesThatStartNoText(
    _ input: (String, [UInt8], [ReadEvent]), _ feed: Feed
  ) throws {
    let events = try readWithLines(input.1, feed)
    #expect(events == input.2, "\(input.0): \(events)")
  }

  /// Where every line starts a text, `nextOrLine()` reads what `next()` reads.
  @Test(arguments: [Feed.file, .pipe(chunk: 3)])
  func readsTextsAsNextDoes(_ feed: Feed) throws {
    for (name, input, expected) in Self.cases {
      let lines = input.split(separator: 0x0A, omittingEmptySubsequences: true)
      let trimmed = lines.map { $0.drop(while: { [0x20, 0x09, 0x0D].contains($0) }) }
      guard trimmed.allSatisfy({ $0.first == UInt8(ascii: "{") || $0.first == UInt8(ascii: "[") })
      else { continue }
      #expect(try readWithLines(input, feed) == expected, "\(name)")
    }
  }

  /// A line longer than the limit is one diagnostic, and reading goes on at the next line,
  /// whatever it starts with; a text longer than the limit among lines is one diagnostic too.
  @Test(arguments: [Feed.file, .pipe(chunk: 7), .pipe(chunk: 65536)])
  func reportsALineOverTheLimitOnceAndReadsTheNext(_ feed: Feed) throws {
    let long = String(repeating: "x", count: 300_000)
    let input =
      "410: 'Unregistered'\n  " + long + "\n200: ''\n{\n\"s\": \"" + long + "\"\n}\n[1]\n"
    let events = try readWithLines(Array(input.utf8), feed, maxRecordBytes: 1000)
    #expect(
      events == [
        .line("410: 'Unregistered'", line: 1, column: 1),
        .failure(
          .recordTooLarge, "the line is longer than the limit of 1000 bytes (--max-record-bytes)",
          line: 2, column: 3),
        .line("200: ''", line: 3, column: 1),
        .failure(
          .recordTooLarge, "JSON text is longer than the limit of 1000 bytes (--max-record-bytes)",
          line: 4, column: 1),
        .record("[1]", line: 7),
      ], "\(events)")
  }

  /// A line that arrives in pieces, with waits between, is given whole once its line feed (or
  /// the end) has come, after `.idle`.
  @Test func passesALineThatArrivesInPiecesWhole() throws {
    let parts = ["410: 'Unre", "gistered'", "\n{\"a\"", ":1}\n200:", " ''"].map { Array($0.utf8) }
    let events = try withInput(parts.flatMap { $0 }, .pipeParts(parts)) { fd in
      var reader = RecordReader(
        fd: fd, name: "input", maxRecordBytes: 1 << 20, announcesIdle: true)
      return try collectWithLines(&reader, idle: true)
    }
    #expect(
      events == [
        .line("410: 'Unregistered'", line: 1, column: 1), .record(#"{"a":1}"#, line: 2),
        .line("200: ''", line: 3, column: 1),
      ])
  }

  /// The layout Python's `json.dumps(answer, indent=0)` writes: each member on a line of its
  /// own, unindented, so that many lines start with a bracket; many small texts among lines,
  /// then one large one (an Expo receipts answer). However it arrives, each text is parsed a
  /// few times over at most: in time linear in the input, not in its square (counted, not
  /// timed).
  @Test(arguments: [Feed.file, .pipe(chunk: 97), .pipe(chunk: 4096)])
  func textsWithAMemberALineAreParsedAFewTimesOver(_ feed: Feed) throws {
    func receipt(_ index: Int) -> String {
      "{\n\"status\": \"error\",\n\"message\": \"not registered\",\n\"details\": {\n"
        + "\"error\": \"DeviceNotRegistered\",\n\"expoPushToken\": \"ExponentPushToken[\(index)]\"\n"
        + "},\n\"id\": \"r\(index)\"\n}"
    }
    var input = ""
    for index in 0..<1000 {
      input += receipt(index) + "\n" + (index % 10 == 0 ? "410: 'Unregistered'\n" : "")
    }
    input +=
      "{\n\"data\": {\n"
      + (0..<3000).map { "\"r\($0)\": " + receipt($0) }.joined(separator: ",\n") + "\n}\n}\n"
    let bytes = Array(input.utf8)
    let result = try withInput(bytes, feed) { fd in
      var reader = RecordReader(fd: fd, name: "input", maxRecordBytes: 1 << 20)
      let events = try collectWithLines(&reader)
      return (events, reader.bytesParsed)
    }
    #expect(result.0.count == 1000 + 100 + 1)
    #expect(!result.0.contains { if case .failure = $0 { true } else { false } })
    #expect(result.1 <= 3 * bytes.count, "\(result.1) bytes parsed of \(bytes.count)")
  }
}
