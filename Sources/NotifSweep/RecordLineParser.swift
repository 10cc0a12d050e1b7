import NotifJSON
import NotifModel

/// What `RecordLineParser.parse(_:)` found on one line.
public enum RecordLineResult: Equatable, Sendable {
  /// A JSON object: `RecordLineParser.withRecord` shows it.
  case record
  /// Only white space: not a record.
  case blank
  /// Not a JSON object; `offset` is the byte offset of the problem within the line.
  case failed(JSONError)
}

/// Parses one NDJSON line as a record and finds its fields (`RecordFieldLocator`), for the tools
/// that sweep a store. One instance is reused for every line: after warm-up it allocates
/// nothing.
public struct RecordLineParser: ~Copyable {
  private var parser: JSONParser
  private let fields = RecordFieldLocator()
  private var text = UnsafeRawBufferPointer(start: nil, count: 0)
  private var textOffset = 0

  /// Creates a parser whose path through the bytes `scan` chooses (`JSONScan`).
  public init(scan: JSONScan = .default) {
    parser = JSONParser(scan: scan)
    parser.checksRootKeys = false
    parser.expectRootKeys(RecordFieldLocator.keys)
  }

  /// Parses `line` (one line without its newline; white space around the object is allowed).
  ///
  /// The line's bytes must stay valid while `withRecord` is used.
  /// - Complexity: O(length of the line).
  public mutating func parse(_ line: UnsafeRawBufferPointer) -> RecordLineResult {
    let trimmed = LineReader.trimmed(line)
    guard !trimmed.isEmpty, let base = line.baseAddress, let first = trimmed.baseAddress else {
      return .blank
    }
    let offset = base.distance(to: first)
    switch parser.parse(trimmed, isFinal: true) {
    case .incomplete:
      return .failed(JSONError(.invalidJSON, at: offset + trimmed.count, "unexpected end of line"))
    case .failed(var error):
      error.offset += offset
      return .failed(error)
    case .complete(let end):
      text = trimmed
      textOffset = offset
      let known = parser.expectedKeyValues
      let (isObject, keysInOrder) = parser.withView(over: trimmed) { view in
        view.kind(0) == .object ? (true, fields.locate(view, known: known)) : (false, true)
      }
      // Keys each in their own field's place are distinct; any others are checked as the
      // parse would have (it leaves the outermost object's keys to this).
      if !keysInOrder, var error = parser.rootDuplicateKeyError(over: trimmed) {
        error.offset += offset
        return .failed(error)
      }
      guard end == trimmed.count else {
        var next = end
        while next < trimmed.count, LineReader.isSpace(trimmed[next]) { next += 1 }
        return .failed(
          JSONError(.invalidJSON, at: offset + next, "more text after the record on the same line"))
      }
      guard isObject else {
        return .failed(JSONError(.invalidJSON, at: offset, "a record is a JSON object"))
      }
      return .record
    }
  }

  /// The record of the last successful `parse`: valid until the next `parse`, as it points into
  /// the parser's tape and the line's bytes.
  public var record: RecordView {
    parser.withView(over: text) {
      RecordView(json: $0, slots: fields.slots, textOffset: textOffset, isCompact: parser.isCompact)
    }
  }

  /// Where the JSON text of the last successful `parse` is within its line.
  public var textRange: Range<Int> { textOffset..<textOffset + text.count }

  /// The 1-based column, in Unicode scalars, of byte `offset` of `line`: where a sweep's
  /// diagnostic of the line points.
  public static func column(_ line: UnsafeRawBufferPointer, _ offset: Int) -> Int {
    var column = 1
    for i in 0..<min(offset, line.count) where line[i] & 0xC0 != 0x80 {
      column += 1
    }
    return column
  }

  /// Calls `body` with the record of the last successful `parse`.
  public func withRecord<R>(_ body: (RecordView) throws -> R) rethrows -> R {
    try parser.withView(over: text) { view in
      try body(
        RecordView(
          json: view, slots: fields.slots, textOffset: textOffset, isCompact: parser.isCompact))
    }
  }
}

/// A parsed record line: its JSON view, and where each `RecordField` is on the tape.
public struct RecordView {
  /// The tape and bytes of the record's JSON text (the line without surrounding white space).
  public let json: JSONView
  fileprivate let slots: UnsafeMutablePointer<Int32>
  /// Where the JSON text starts within the line.
  public let textOffset: Int
  /// Whether the JSON text is already compact and canonical (`JSONParser.isCompact`): its
  /// bytes are what `JSONWriter.writeCompact` would write of it, so a tool may copy them.
  public let isCompact: Bool

  /// What a time field holds.
  public enum TimeValue: Equatable {
    /// The key is missing.
    case absent
    /// `null`.
    case null
    /// A valid RFC 3339 time.
    case time(Timestamp)
    /// Anything else; the associated value is the token index, for the position.
    case invalid(Int)
  }

  /// The tape index of a field's value, or nil when the record lacks the key.
  @inline(__always)
  public func index(_ field: RecordField) -> Int? {
    let slot = slots[field.rawValue]
    return slot < 0 ? nil : Int(slot)
  }

  /// Whether a field is missing or `null`.
  public func isNull(_ field: RecordField) -> Bool {
    guard let index = index(field) else { return true }
    return json.kind(index) == .null
  }

  /// A time field, read from its raw bytes without building a `String`.
  public func time(_ field: RecordField) -> TimeValue {
    guard let index = index(field) else { return .absent }
    switch json.kind(index) {
    case .null: return .null
    case .string:
      guard !json.tokens[index].flag, let instant = Timestamp(rfc3339: json.rawString(index))
      else { return .invalid(index) }
      return .time(instant)
    default: return .invalid(index)
    }
  }

  /// Whether a field is present and neither null nor a valid RFC 3339 time.
  public func isInvalidTime(_ field: RecordField) -> Bool {
    guard let index = index(field) else { return false }
    switch json.kind(index) {
    case .null: return false
    case .string:
      return json.tokens[index].flag || Timestamp(rfc3339: json.rawString(index)) == nil
    default: return true
    }
  }

  /// Appends the identity of a field's value to `key`: its unescaped bytes for a string, a
  /// distinct marker for null or a missing key, the raw JSON otherwise. Followed by a 0xFF
  /// byte (never in UTF-8), so that concatenated parts cannot run into each other.
  public func appendKeyPart(_ field: RecordField, to key: inout [UInt8]) {
    defer { key.append(0xFF) }
    guard let index = index(field) else {
      key.append(0xFE)
      return
    }
    switch json.kind(index) {
    case .null: key.append(0xFE)
    case .string:
      key.append(0x22)
      if json.tokens[index].flag {
        key.append(contentsOf: json.string(index).utf8)
      } else {
        key.append(contentsOf: json.rawString(index))
      }
    default: key.append(contentsOf: json.raw(index))
    }
  }

  /// Whether a field is a string equal to `value` (compared after unescaping).
  public func stringEquals(_ field: RecordField, _ value: [UInt8]) -> Bool {
    guard let index = index(field), json.kind(index) == .string else { return false }
    if json.tokens[index].flag { return Array(json.string(index).utf8) == value }
    let raw = json.rawString(index)
    guard raw.count == value.count, let base = raw.baseAddress else { return value.isEmpty }
    return value.withUnsafeBytes { spelled in
      spelled.baseAddress.map { RawBytes.equal(base, $0, raw.count) } ?? false
    }
  }
}
