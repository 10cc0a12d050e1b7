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

/// Parses one NDJSON line as a record and finds its fields, for the tools that sweep a store.
///
/// Records are written with their keys in `RecordField` order (notif(5)), so the key of the
/// n-th member is checked against the n-th field first: one comparison per member. A member
/// out of place, or a key spelled with escapes, is looked up by name instead; unknown keys are
/// ignored. One instance is reused for every line: after warm-up it allocates nothing.
public struct RecordLineParser: ~Copyable {
  private var parser: JSONParser
  private let slots: UnsafeMutablePointer<Int32>
  private var text = UnsafeRawBufferPointer(start: nil, count: 0)
  private var textOffset = 0
  // Every key's bytes, one after the other; key i is keyBytes[keyStarts[i]..<keyStarts[i + 1]].
  // Owned pointers rather than arrays: the loop over a record's members reads them 37 times.
  private let keyBytes: UnsafeMutableRawPointer
  private let keyStarts: UnsafeMutablePointer<Int>

  static let keys: [[UInt8]] = RecordField.allCases.map { Array($0.key.utf8) }

  /// Creates a parser whose path through the bytes `scan` chooses (`JSONScan`).
  public init(scan: JSONScan = .default) {
    parser = JSONParser(scan: scan)
    parser.checksRootKeys = false
    let count = RecordField.allCases.count
    slots = UnsafeMutablePointer<Int32>.allocate(capacity: count)
    let total = Self.keys.reduce(0) { $0 + $1.count }
    keyBytes = UnsafeMutableRawPointer.allocate(byteCount: total, alignment: 8)
    keyStarts = UnsafeMutablePointer<Int>.allocate(capacity: count + 1)
    var offset = 0
    for (i, key) in Self.keys.enumerated() {
      keyStarts[i] = offset
      for (j, byte) in key.enumerated() {
        keyBytes.storeBytes(of: byte, toByteOffset: offset + j, as: UInt8.self)
      }
      offset += key.count
    }
    keyStarts[count] = offset
  }

  deinit {
    slots.deallocate()
    keyBytes.deallocate()
    keyStarts.deallocate()
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
      let (isObject, keysInOrder) = parser.withView(over: trimmed) { view in
        view.kind(0) == .object ? (true, locateFields(view)) : (false, true)
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
      RecordView(json: $0, slots: slots, textOffset: textOffset, isCompact: parser.isCompact)
    }
  }

  /// Where the JSON text of the last successful `parse` is within its line.
  public var textRange: Range<Int> { textOffset..<textOffset + text.count }

  /// Calls `body` with the record of the last successful `parse`.
  public func withRecord<R>(_ body: (RecordView) throws -> R) rethrows -> R {
    try parser.withView(over: text) { view in
      try body(
        RecordView(json: view, slots: slots, textOffset: textOffset, isCompact: parser.isCompact))
    }
  }

  /// Fills `slots` from the members of the object at the root of `view`; returns whether every
  /// key was the one of its position in `RecordField` order (so no key repeats).
  private func locateFields(_ view: JSONView) -> Bool {
    let count = RecordField.allCases.count
    slots.update(repeating: -1, count: count)
    guard let base = view.bytes.baseAddress else { return true }
    var inOrder = true
    var key = 1
    for position in 0..<Int(view.tokens[0].count) {
      let token = view.tokens[key]
      let value = key + 1
      let length = Int(token.end - token.start) - 2
      if position < count && !token.flag && length == keyStarts[position + 1] - keyStarts[position]
        && Self.bytesEqual(base + Int(token.start) + 1, keyBytes + keyStarts[position], length)
      {
        slots[position] = Int32(value)
      } else {
        inOrder = false
        let name = token.flag ? Array(view.string(key).utf8) : Array(view.rawString(key))
        if let field = Self.keys.firstIndex(of: name) {
          slots[field] = Int32(value)
        }
      }
      key = Int(view.tokens[value].next)
    }
    return inOrder
  }

  /// Whether `length` bytes at `a` and `b` are equal: a few loads, which may overlap, and no
  /// byte read outside the two ranges.
  @inline(__always)
  static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ length: Int) -> Bool {
    func word<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> Bool {
      a.loadUnaligned(fromByteOffset: offset, as: T.self)
        == b.loadUnaligned(fromByteOffset: offset, as: T.self)
    }
    if length >= 8 {
      var offset = 0
      while offset + 8 < length {
        guard word(offset, UInt64.self) else { return false }
        offset += 8
      }
      return word(length - 8, UInt64.self)
    }
    if length >= 4 { return word(0, UInt32.self) && word(length - 4, UInt32.self) }
    if length >= 2 { return word(0, UInt16.self) && word(length - 2, UInt16.self) }
    return length == 0 || word(0, UInt8.self)
  }

  @inline(__always)
  static func rawEquals(_ raw: UnsafeRawBufferPointer, _ key: [UInt8]) -> Bool {
    guard raw.count == key.count, let base = raw.baseAddress else { return false }
    return key.withUnsafeBytes { keyBytes in
      guard let keyBase = keyBytes.baseAddress else { return raw.isEmpty }
      return memcmp(base, keyBase, raw.count) == 0
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
    return RecordLineParser.rawEquals(json.rawString(index), value)
  }
}
