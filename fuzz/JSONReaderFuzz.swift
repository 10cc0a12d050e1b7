// Fuzz target `json-reader` (see fuzz/Fuzz.swift): the JSON reader of NotifJSON, `JSONParser`,
// `JSONWriter` and `RecordReader`, and NotifSweep's `RecordLineParser`.
//
// Properties checked on every input (a violation traps with `fatalError`, which libFuzzer
// reports as a crash and saves the input):
//   (a) nothing crashes, overflows or reads out of bounds (AddressSanitizer);
//   (b) a complete value is re-emitted as compact JSON that is valid UTF-8 with no raw control
//       characters, parses again as complete over its whole length, and re-emits the same
//       bytes (the writer is idempotent); its tape is well formed; where the parser says the
//       value `isCompact`, the output is the value's bytes unchanged, and compact output with
//       no escapes is recognized as `isCompact`; the tape's typed accessors agree with the
//       writer and with Swift's own number parsing; no object has two keys alike once
//       unescaped (the parser compares an object's keys only when its key filter says two
//       may be);
//   (c) a prefix parsed with `isFinal: false` never fails at an offset at or beyond the prefix
//       length, and agrees with the whole input: a failure in the prefix is a failure of the
//       whole at the same offset, a complete value in the prefix is the same complete value;
//   (d) the whole input parsed with `isFinal: false` gives the same answer as with `isFinal:
//       true`, except `.incomplete` where the final parse reached the end of the bytes (only a
//       top-level number or literal that touches the end may be complete when final);
//   (e) `RecordReader` over a file of the bytes (the input is written to one unlinked temporary
//       file from `mkstemp`, reused for every input) ends, advances on every event, reports
//       positions inside the input, and hands out records that re-emit as (b) says;
//   (f) `RecordLineParser`, which leaves the duplicate check of a record's outermost object to
//       its own key matching, gives each line of the input the answer of a parser that checks
//       every object: the same error at the same offset, and no duplicate key where that
//       parser finds none.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

func fuzzJSONReader(_ input: UnsafeRawBufferPointer) {
  let size = input.count
  var parser = JSONParser()
  let final = parser.parse(input, isFinal: true)
  var rootKind: JSONKind? = nil
  switch final {
  case .complete(let end):
    require(end > 0 && end <= size, "complete end \(end) outside 1...\(size)")
    var compact = ByteBuffer()
    let isCompact = parser.isCompact
    rootKind = parser.withView(over: input) { view in
      checkTape(view, end: end)
      JSONWriter.writeCompact(view, 0, into: &compact)
      if isCompact {
        require(compact.bytes.elementsEqual(view.raw(0)), "isCompact, but the output differs")
      }
      return view.kind(0)
    }
    checkCompact(compact)
  case .incomplete:
    fail("isFinal: true returned .incomplete")
  case .failed(let error):
    require(error.offset >= 0 && error.offset <= size, "error offset \(error.offset) of \(size)")
    require(!error.message.isEmpty, "empty error message")
  }
  checkNotFinal(input, final: final, rootKind: rootKind, using: &parser)
  checkPrefixes(input, final: final, using: &parser)
  checkRecordReader(input, maxRecordBytes: 4096)
  // A small limit drives the record-too-large paths and the recovery after them.
  checkRecordReader(input, maxRecordBytes: 1 + Int(size > 0 ? input[size - 1] : 0) % 48)
  checkRecordLines(input)
}

// MARK: - (b) compact output

/// Checks that `compact` is canonical compact JSON that the writer reproduces byte for byte.
func checkCompact(_ compact: ByteBuffer) {
  let bytes = compact.bytes
  require(!bytes.isEmpty, "compact output is empty")
  require(String(validating: bytes, as: UTF8.self) != nil, "compact output is not valid UTF-8")
  require(!bytes.contains { $0 < 0x20 }, "compact output holds a raw control character")
  compact.withUnsafeBytes { text in
    var parser = JSONParser()
    let result = parser.parse(text, isFinal: true)
    guard case .complete(let end) = result else {
      fail("compact output does not parse again: \(result)")
    }
    require(end == text.count, "compact output parses to \(end) of \(text.count) bytes")
    var again = ByteBuffer()
    parser.withView(over: text) { JSONWriter.writeCompact($0, 0, into: &again) }
    require(again.bytes == bytes, "re-emitting compact output changes it")
    // Compact text that has no escapes is recognized as compact.
    if !bytes.contains(UInt8(ascii: "\\")) {
      require(parser.isCompact, "compact output without escapes is not isCompact")
    }
  }
}

/// Checks the tape of a complete value: every container's children lie inside it, in order,
/// and its `next` and `count` match them.
func checkTape(_ view: JSONView, end: Int) {
  let tokens = view.tokens
  require(!tokens.isEmpty, "complete value with an empty tape")
  require(Int(tokens[0].end) == end, "root ends at \(tokens[0].end), parse said \(end)")
  require(Int(tokens[0].next) == tokens.count, "root next \(tokens[0].next) of \(tokens.count)")
  _ = checkToken(view, 0, lower: 0, upper: end)
  checkAccessors(view)
}

/// Checks the typed accessors of `JSONView` against the writer and the standard library: a
/// string decoded with `string(_:)` and escaped again is what the writer writes; `integer(_:)`
/// and `double(_:)` agree with Swift's own parsing of the number's text.
func checkAccessors(_ view: JSONView) {
  for index in 0..<view.tokens.count {
    let token = view.tokens[index]
    switch token.kind {
    case .string:
      var written = ByteBuffer()
      JSONEscapes.writeCanonical(raw: view.rawString(index), escaped: token.flag, into: &written)
      var again = ByteBuffer()
      JSONEscapes.writeString(view.string(index), into: &again)
      require(written.bytes == again.bytes, "string \(index): string(_:) and the writer differ")
    case .number:
      let text = String(decoding: view.raw(index), as: UTF8.self)
      let integer = view.integer(index)
      require(
        integer == (token.flag ? Int64(text) : nil),
        "integer(_:) of '\(text)' is \(String(describing: integer))")
      require(view.double(index) == Double(text), "double(_:) of '\(text)'")
    case .bool:
      require(view.bool(index) == token.flag, "bool(_:) of token \(index)")
    case .object, .array, .null:
      break
    }
  }
}

/// Checks the token at `index` and all it contains; returns the index after them.
private func checkToken(_ view: JSONView, _ index: Int, lower: Int, upper: Int) -> Int {
  let tokens = view.tokens
  require(index < tokens.count, "tape index \(index) past \(tokens.count) tokens")
  let token = tokens[index]
  let start = Int(token.start)
  let end = Int(token.end)
  require(lower <= start && start < end && end <= upper, "token \(index) spans \(start)..<\(end)")
  let first = view.bytes[start]
  switch token.kind {
  case .object, .array:
    let isObject = token.kind == .object
    require(first == UInt8(ascii: isObject ? "{" : "["), "container \(index) starts with \(first)")
    require(view.bytes[end - 1] == UInt8(ascii: isObject ? "}" : "]"), "container \(index) end")
    var child = index + 1
    var from = start + 1
    var keys = Set<[UInt8]>()
    for _ in 0..<Int(token.count) {
      if isObject {
        require(child < tokens.count && tokens[child].kind == .string, "key \(child) not a string")
        let keyEnd = checkToken(view, child, lower: from, upper: end - 1)
        require(keyEnd == child + 1, "key \(child) spans tokens")
        require(keys.insert(view.stringBytes(child)).inserted, "key \(child) repeats a key")
        from = Int(tokens[child].end)
        child = keyEnd
      }
      let next = checkToken(view, child, lower: from, upper: end - 1)
      from = Int(tokens[child].end)
      child = next
    }
    require(
      Int(token.next) == child, "container \(index) next \(token.next), children end \(child)")
    return child
  case .string:
    require(first == UInt8(ascii: "\"") && end - start >= 2, "string \(index) quotes")
    require(view.bytes[end - 1] == UInt8(ascii: "\""), "string \(index) closing quote")
    require(
      token.flag == view.rawString(index).contains(UInt8(ascii: "\\")), "escape flag \(index)")
  case .number:
    let raw = view.raw(index)
    let isInteger = !raw.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
    require(token.flag == isInteger, "integer flag of number \(index)")
  case .bool:
    require(view.raw(index).elementsEqual((token.flag ? "true" : "false").utf8), "bool \(index)")
  case .null:
    require(view.raw(index).elementsEqual("null".utf8), "null \(index)")
  }
  require(Int(token.next) == index + 1, "scalar \(index) next \(token.next)")
  return index + 1
}

// MARK: - (c) and (d) streaming answers

/// (d): the whole input with more bytes possibly to come.
func checkNotFinal(
  _ input: UnsafeRawBufferPointer, final: JSONParseResult, rootKind: JSONKind?,
  using parser: inout JSONParser
) {
  let open = parser.parse(input, isFinal: false)
  switch (final, open) {
  case (.complete(let end), .complete(let openEnd)):
    require(end == openEnd, "complete at \(end) when final, at \(openEnd) when not")
  case (.complete(let end), .incomplete):
    // A number may go on in the next bytes; so may `true`, `false` and `null` (`nullx`).
    require(
      (rootKind == .number || rootKind == .bool || rootKind == .null) && end == input.count,
      "complete (\(String(describing: rootKind)) to \(end) of \(input.count)) when final, "
        + "incomplete when not")
  case (.complete, .failed(let error)):
    fail("complete when final, failed when not: \(error.code) at \(error.offset): \(error)")
  case (.failed, .complete(let end)):
    fail("failed when final, complete at \(end) when not")
  case (.failed(let error), .failed(let openError)):
    require(
      error == openError,
      "final error \(error.offset) '\(error)' vs \(openError.offset) '\(openError)'")
  case (.failed, .incomplete):
    break  // the final parse failed at the end of the bytes
  case (.incomplete, _):
    break  // reported above
  }
}

/// (c): prefixes of the input with more bytes possibly to come.
func checkPrefixes(
  _ input: UnsafeRawBufferPointer, final: JSONParseResult, using parser: inout JSONParser
) {
  let size = input.count
  var lengths: [Int] = []
  if size <= 64 {
    lengths = Array(0..<size)
  } else {
    // A spread of lengths that depends on the input, plus the edges of the value.
    var state = UInt64(size) &* 0x9E37_79B9_7F4A_7C15
    for byte in input.prefix(32) { state = (state ^ UInt64(byte)) &* 0x100_0000_01B3 }
    for _ in 0..<12 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      lengths.append(Int(state >> 33) % size)
    }
    lengths += [1, size / 2, size - 1]
    if case .complete(let end) = final { lengths += [end - 1, end] }
  }
  for length in lengths where length >= 0 && length <= size {
    let prefix = UnsafeRawBufferPointer(rebasing: input[0..<length])
    switch parser.parse(prefix, isFinal: false) {
    case .failed(let error):
      require(
        error.offset >= 0 && error.offset < length,
        "prefix of \(length) bytes failed at offset \(error.offset): \(error)")
      guard case .failed(let whole) = final else {
        fail(
          "prefix of \(length) bytes failed at \(error.offset) ('\(error)'), whole input did not")
      }
      require(
        whole.offset == error.offset,
        "prefix of \(length) bytes failed at \(error.offset) ('\(error)'), whole input at "
          + "\(whole.offset) ('\(whole)')")
    case .complete(let end):
      require(end <= length, "prefix of \(length) bytes complete at \(end)")
      guard case .complete(let wholeEnd) = final, wholeEnd == end else {
        fail("prefix of \(length) bytes complete at \(end); whole input: \(final)")
      }
    case .incomplete:
      break
    }
  }
}

// MARK: - (e) RecordReader

/// Reads the input as a stream of JSON texts from a temporary file.
func checkRecordReader(_ input: UnsafeRawBufferPointer, maxRecordBytes: Int) {
  let fd = scratchFile
  require(ftruncate(fd, 0) == 0, "ftruncate failed: errno \(errno)")
  var written = 0
  while written < input.count, let base = input.baseAddress {
    let count = pwrite(fd, base + written, input.count - written, off_t(written))
    require(count > 0 || errno == EINTR, "write to the scratch file failed: errno \(errno)")
    if count > 0 { written += count }
  }
  require(lseek(fd, 0, SEEK_SET) == 0, "lseek failed: errno \(errno)")

  let lines = 1 + input.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
  var reader = RecordReader(fd: fd, name: "fuzz", maxRecordBytes: maxRecordBytes)
  var compact = ByteBuffer()
  var events = 0
  var lastLine = 1
  while true {
    let event: RecordEvent
    do {
      event = try reader.next()
    } catch {
      fail("read failed: \(error)")
    }
    events += 1
    require(
      events <= input.count + 1, "RecordReader gave \(events) events for \(input.count) bytes")
    switch event {
    case .idle:
      fail("a reader of a file, not asked to announce idle, was idle")
    case .end:
      // Once at the end, it stays there.
      if case .end? = try? reader.next() {} else { fail("RecordReader did not stay at the end") }
      return
    case .record:
      compact.removeAll()
      let isCompact = reader.recordIsCompact
      let length = reader.withRecord { view -> Int in
        JSONWriter.writeCompact(view, 0, into: &compact)
        if isCompact {
          require(compact.bytes.elementsEqual(view.raw(0)), "record isCompact, output differs")
        }
        return view.bytes.count
      }
      require(length > 0 && length <= maxRecordBytes, "record of \(length) bytes")
      checkCompact(compact)
      let line = reader.recordLine
      require(line >= lastLine && line <= lines, "record on line \(line) of \(lines)")
      lastLine = line
      let at = reader.position(ofRecordOffset: length)
      require(at.line >= line && at.line <= lines && at.column >= 1, "record end at \(at)")
    case .failure(let error, let line, let column):
      require(line >= lastLine && line <= lines, "failure on line \(line) of \(lines): \(error)")
      require(column >= 1 && column <= input.count + 1, "failure at column \(column): \(error)")
      require(!error.message.isEmpty, "failure without a message")
      lastLine = line
    }
  }
}

// MARK: - (f) record lines

/// Checks `RecordLineParser` on every line of `input` against a `JSONParser` that checks every
/// object for duplicate keys.
func checkRecordLines(_ input: UnsafeRawBufferPointer) {
  var lineParser = RecordLineParser()
  var reference = JSONParser()
  var start = 0
  while start <= input.count {
    let stop = input[start...].firstIndex(of: 0x0A) ?? input.count
    let line = UnsafeRawBufferPointer(rebasing: input[start..<stop])
    let text = LineReader.trimmed(line)
    var leading = 0
    while leading < line.count && LineReader.isSpace(line[leading]) { leading += 1 }
    let result = lineParser.parse(line)
    if text.isEmpty {
      require(result == .blank, "a blank line is \(result)")
    } else {
      switch reference.parse(text, isFinal: true) {
      case .failed(var error):
        error.offset += leading
        require(result == .failed(error), "line parser: \(result), reference: \(error)")
      case .complete:
        if case .failed(let error) = result {
          require(error.code != .duplicateKey, "line parser finds \(error), reference none")
        }
      case .incomplete:
        fail("isFinal: true returned .incomplete")
      }
    }
    start = stop + 1
  }
}
