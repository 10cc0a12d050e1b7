import NotifJSON
import NotifModel

// The rules more than one reader applies: a value's type and range, and where it goes in the
// record. Each reader calls them with its own spelling of the key, so that a diagnostic names
// the key as the message wrote it.

extension MessageReader {
  /// A badge: a whole number from 0 to `maximum` (`FieldLimits.tally`, what every reader of
  /// the record holds exactly, unless the format allows less), into `badge`; else a `BadBadge`
  /// error naming `key`.
  mutating func readBadge(
    _ view: JSONView, _ value: Int, _ key: String, maximum: Int64 = FieldLimits.largest
  ) {
    if let badge = view.integer(value), badge >= 0, badge <= maximum {
      values[.badge] = .integer(badge)
    } else {
      findings.append(Self.badBadge(view, value, key, maximum: maximum, at: offset(view, value)))
    }
  }

  /// True or false, into `field` if one is given; else a `BadType` error naming `key`.
  mutating func readBool(_ view: JSONView, _ key: Int, _ value: Int, into field: RecordField? = nil)
  {
    if let on = view.bool(value) {
      if let field { values[field] = .bool(on) }
    } else {
      findings.append(
        .error(
          "BadType", "\(Self.quoted(view.string(key))) must be true or false",
          at: offset(view, value)))
    }
  }

  /// Localization arguments (`loc-args`, `body_loc_args`, ... as the format spells `key`): an
  /// array of strings, into `field`; else a `BadLocArgs` error.
  mutating func readLocArgs(_ view: JSONView, _ key: Int, _ value: Int, into field: RecordField) {
    if Self.isStringArray(view, value) {
      values[field] = .input(value)
    } else {
      findings.append(
        .error(
          "BadLocArgs", "\(Self.quoted(view.string(key))) must be an array of strings",
          at: offset(view, value)))
    }
  }

  /// A string, into `field` if one is given; else a `BadType` error naming `key`.
  mutating func string(_ view: JSONView, _ key: Int, _ value: Int, into field: RecordField?) {
    guard view.kind(value) == .string else {
      findings.append(
        .error(
          "BadType",
          "\(Self.quoted(view.string(key))) must be a string, not \(Self.kindName(view, value))",
          at: offset(view, value)))
      return
    }
    if let field { values[field] = .input(value) }
  }

  /// Sets `field` to the string at `index`, if it is one (checked where it was read).
  mutating func stringField(_ view: JSONView, _ index: Int, _ field: RecordField) {
    if view.kind(index) == .string { values[field] = .input(index) }
  }

  /// Whether the value at `index` is a dictionary; if not, a `BadType` error naming `what`.
  @discardableResult
  mutating func checkObject(_ view: JSONView, _ index: Int, _ what: String) -> Bool {
    if view.kind(index) == .object { return true }
    findings.append(
      .error(
        "BadType", "\(Self.quoted(what)) must be a dictionary, not \(Self.kindName(view, index))",
        at: offset(view, index)))
    return false
  }

  static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]
  // The same set as a key table, to look a value up by its bytes: no string built.
  static let interruptionLevelTable = KeyTable(interruptionLevels.map { ($0, $0) })

  /// Reads an interruption level (`key`, as the format spells it): passive, active,
  /// time-sensitive or critical, as APNs and Expo take them.
  mutating func interruptionLevel(_ view: JSONView, _ value: Int, spelled key: String, at: Int) {
    if view.kind(value) == .string, Self.interruptionLevelTable.find(view, value) != nil {
      values[.interruptionLevel] = .input(value)
    } else {
      findings.append(
        .error(
          "BadInterruptionLevel",
          "'\(key)' \(Self.quotedValue(view, value)) is not passive, active, time-sensitive or critical",
          at: at))
    }
  }

  /// Reads content-available or mutable-content: Apple documents 1 (and absent for off).
  mutating func flag(_ view: JSONView, _ value: Int, _ key: String) -> Bool {
    let at = offset(view, value)
    if let number = view.integer(value), number == 0 || number == 1 {
      return number == 1
    }
    if let on = view.bool(value) {
      let advice = on ? "Apple documents 1" : "Apple documents 1 for on; leave the key out for off"
      findings.append(.warning("BoolForNumber", "\(Self.quoted(key)) is \(on); \(advice)", at: at))
      return on
    }
    findings.append(
      .error(
        "BadType", "\(Self.quoted(key)) must be 1, not \(Self.quotedValue(view, value))", at: at))
    return false
  }

  /// Whole seconds since 1970, into `field`; else a `BadDate` error naming `key`.
  mutating func date(_ view: JSONView, _ value: Int, _ key: String, into field: RecordField) {
    let at = offset(view, value)
    if view.kind(value) == .number, let digits = Self.overflowingDigits(view, value) {
      findings.append(
        .error("BadDate", "\(Self.quoted(key)) \(digits) is after the year 9999", at: at))
      return
    }
    guard let seconds = view.integer(value), seconds >= 0 else {
      findings.append(
        .error(
          "BadDate",
          "\(Self.quoted(key)) must be whole seconds since 1970, not \(Self.quotedValue(view, value))",
          at: at))
      return
    }
    if let instant = epoch(seconds, key: key, code: "BadDate", at: at) {
      values[field] = .time(instant)
    }
  }

  /// An epoch-seconds value as an instant; a 13-digit value is flagged, never guessed.
  mutating func epoch(_ seconds: Int64, key: String, code: String, at: Int) -> Timestamp? {
    if seconds >= 1_000_000_000_000 && seconds < 10_000_000_000_000 {
      findings.append(
        .warning(
          "ProbableMilliseconds",
          "\(Self.quoted(key)) \(seconds) has 13 digits: probably milliseconds, not seconds; left null",
          at: at))
      return nil
    }
    let instant = Timestamp(seconds: seconds)
    guard instant.isWritable else {
      findings.append(.error(code, "\(Self.quoted(key)) \(seconds) is after the year 9999", at: at))
      return nil
    }
    return instant
  }

  /// Runs `body`; unless `kept`, the record's fields and facts go back to what they were, and
  /// only the findings stay: a block checked, not shown.
  mutating func withState(kept: Bool, _ body: (inout MessageReader) -> Void) {
    if kept {
      body(&self)
      return
    }
    let saved = (values, fieldOffsets, headers, eventTime, timeToLive, impliedApp)
    body(&self)
    (values, fieldOffsets, headers, eventTime, timeToLive, impliedApp) = saved
  }

  /// The size of the value at `index` written compact.
  mutating func compactSize(_ view: JSONView, _ index: Int) -> Int {
    if textIsCompact { return Int(view.tokens[index].end - view.tokens[index].start) }
    scratch.removeAll()
    JSONWriter.writeCompact(view, index, into: &scratch)
    return scratch.count
  }

  func offset(_ view: JSONView, _ index: Int) -> Int { Int(view.tokens[index].start) }
}

/// What every reader of a push format has: the helpers that look at a value's bytes and name
/// values in diagnostics. `MessageReader` and each format's reader (`APNsReader`, `FCMReader`,
/// ...) are one.
protocol FormatReader {}

extension MessageReader: FormatReader {}

extension FormatReader {
  /// Calls `body` with the decoded UTF-8 bytes of the string at `index`: its raw bytes when it
  /// has no escape, so that no string is built.
  static func withText<R>(
    _ view: JSONView, _ index: Int, _ body: (UnsafeRawBufferPointer) -> R
  ) -> R {
    guard view.tokens[index].flag else { return body(view.rawString(index)) }
    var text = view.string(index)
    return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
  }

  /// Whether `byte` may appear in base64 text (RFC 4648, either alphabet, with padding).
  static func isBase64Byte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
      UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="):
      return true
    default:
      return false
    }
  }

  static func isUUID(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isUUID(UnsafeRawBufferPointer($0)) }
  }

  static func isUUID(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count == 36 else { return false }
    for (i, byte) in bytes.enumerated() {
      if i == 8 || i == 13 || i == 18 || i == 23 {
        if byte != UInt8(ascii: "-") { return false }
      } else if !(byte >= 0x30 && byte <= 0x39) && !(byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) {
        return false
      }
    }
    return true
  }

  /// A header value that may be a number or, as on the wire, a string of digits.
  static func headerInteger(_ view: JSONView, _ value: Int) -> Int64? {
    if let number = view.integer(value) { return number }
    guard view.kind(value) == .string else { return nil }
    return withText(view, value) { digits -> Int64? in
      guard !digits.isEmpty else { return nil }
      var number: Int64 = 0
      for byte in digits {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        let (times10, o1) = number.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int64(byte - 0x30))
        if o1 || o2 { return nil }
        number = sum
      }
      return number
    }
  }

  /// The digits of a whole number of seconds too big for 64 bits (a JSON integer, or a string of
  /// digits as headers are on the wire): a time past the year 9999, not a malformed one.
  static func overflowingDigits(_ view: JSONView, _ value: Int) -> String? {
    let digits: String
    switch view.kind(value) {
    case .number: digits = String(decoding: view.raw(value), as: UTF8.self)
    case .string: digits = view.string(value)
    default: return nil
    }
    guard digits.utf8.count > 18, digits.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") <= 9 }),
      Int64(digits) == nil
    else { return nil }
    return digits
  }

  static func isStringArray(_ view: JSONView, _ value: Int) -> Bool {
    guard view.kind(value) == .array else { return false }
    var allStrings = true
    view.forEachElement(of: value) { if view.kind($0) != .string { allStrings = false } }
    return allStrings
  }

  static func kindName(_ view: JSONView, _ index: Int) -> String {
    switch view.kind(index) {
    case .object: return "a dictionary"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .bool: return "a boolean"
    case .null: return "null"
    }
  }

  static func quoted(_ text: String) -> String { "'\(text)'" }

  /// The value as written, shortened, in quotes: `'"1"'`, `'true'`.
  static func quotedValue(_ view: JSONView, _ index: Int) -> String {
    var out = ByteBuffer(capacity: 64)
    JSONWriter.writeCompact(view, index, into: &out)
    var text = out.text
    if text.count > 40 { text = String(text.prefix(37)) + "..." }
    return "'\(text)'"
  }

  static func equals(_ raw: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    raw.count == text.utf8CodeUnitCount && hasPrefix(raw, text)
  }

  static func hasPrefix(_ raw: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    let wanted = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    return raw.starts(with: wanted)
  }

  static func firstNonSpace(_ raw: UnsafeRawBufferPointer) -> UInt8? {
    raw.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
  }

  /// The `BadBadge` error of a badge `key` that is not a whole number from 0 to `maximum`.
  static func badBadge(_ view: JSONView, _ value: Int, _ key: String, maximum: Int64, at: Int)
    -> Finding
  {
    .error(
      "BadBadge",
      "\(quoted(key)) must be a whole number from 0 to \(maximum), not \(quotedValue(view, value))",
      at: at)
  }
}
