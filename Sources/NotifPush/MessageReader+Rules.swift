import NotifJSON
import NotifModel

// The rules more than one reader applies: a value's type and range, and where it goes in the
// record. Each reader calls them with its own spelling of the key, so that a diagnostic names
// the key as the message wrote it.

extension MessageReader {
  /// A badge: a whole number from 0 to `maximum` (`FieldLimits.tally`, what every reader of
  /// the record holds exactly, unless the format allows less), into `badge`; else a `BadBadge`
  /// finding naming `key`: an error, or where the vendor takes the message (`Effect`) a
  /// warning that says what the device does.
  mutating func readBadge(
    _ view: JSONView, _ value: Int, _ key: String, maximum: Int64 = FieldLimits.largest,
    _ rule: Rule, _ effect: Effect = .refused
  ) {
    if let badge = view.integer(value), badge >= 0, badge <= maximum {
      values[.badge] = .integer(badge)
    } else {
      var finding = Self.badBadge(view, value, key, maximum: maximum, rule, at: offset(view, value))
      effect.apply(to: &finding)
      // A count written as a string ("5"), which the author evidently meant as the number.
      if rule.entry.fix != nil, let count = Self.decimalString(view, value), count <= maximum {
        finding.fix = .replacing(view, value, with: String(count))
      }
      findings.append(finding)
    }
  }

  /// True or false, into `field` if one is given; else a `BadType` error naming `key`.
  mutating func readBool(
    _ view: JSONView, _ key: Int, _ value: Int, into field: RecordField? = nil, _ rule: Rule
  ) {
    if let on = view.bool(value) {
      if let field { values[field] = .bool(on) }
    } else {
      error(
        rule, "\(Self.quoted(view.string(key))) must be true or false",
        at: offset(view, value))
    }
  }

  /// Localization arguments (`loc-args`, `body_loc_args`, ... as the format spells `key`): an
  /// array of strings, into `field`; else a `BadLocArgs` finding (`effect`).
  mutating func readLocArgs(
    _ view: JSONView, _ key: Int, _ value: Int, into field: RecordField, _ rule: Rule,
    _ effect: Effect = .refused
  ) {
    if Self.isStringArray(view, value) {
      values[field] = .input(value)
    } else {
      report(
        effect, rule, "\(Self.quoted(view.string(key))) must be an array of strings",
        at: offset(view, value))
    }
  }

  /// A string, into `field` if one is given; else a `BadType` finding (`effect`) naming `key`.
  mutating func string(
    _ view: JSONView, _ key: Int, _ value: Int, into field: RecordField?, _ rule: Rule,
    _ effect: Effect = .refused
  ) {
    guard view.kind(value) == .string else {
      report(
        effect, rule,
        "\(Self.quoted(view.string(key))) must be a string, not \(Self.kindName(view, value))",
        at: offset(view, value))
      return
    }
    if let field { values[field] = .input(value) }
  }

  /// Sets `field` to the string at `index`, if it is one (checked where it was read).
  mutating func stringField(_ view: JSONView, _ index: Int, _ field: RecordField) {
    if view.kind(index) == .string { values[field] = .input(index) }
  }

  /// Whether the value at `index` is a dictionary; if not, a `BadType` finding (`effect`)
  /// naming `what`.
  @discardableResult
  mutating func checkObject(
    _ view: JSONView, _ index: Int, _ what: String, _ rule: Rule, _ effect: Effect = .refused
  ) -> Bool {
    if view.kind(index) == .object { return true }
    report(
      effect, rule,
      "\(Self.quoted(what)) must be a dictionary, not \(Self.kindName(view, index))",
      at: offset(view, index))
    return false
  }

  static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]
  // The same set as a key table, to look a value up by its bytes: no string built.
  static let interruptionLevelTable = KeyTable(interruptionLevels.map { ($0, $0) })

  /// Reads an interruption level (`key`, as the format spells it): passive, active,
  /// time-sensitive or critical, as APNs and Expo take them.
  mutating func interruptionLevel(
    _ view: JSONView, _ value: Int, spelled key: String, at: Int, _ rule: Rule,
    _ effect: Effect = .refused
  ) {
    if view.kind(value) == .string, Self.interruptionLevelTable.find(view, value) != nil {
      values[.interruptionLevel] = .input(value)
    } else {
      report(
        effect, rule,
        "'\(key)' \(Self.quotedValue(view, value)) is not passive, active, time-sensitive or critical",
        at: at)
    }
  }

  /// Reads content-available or mutable-content: Apple documents 1 (and absent for off). A
  /// boolean is a `BoolForNumber` warning (`apns-flags-bool`); another value a finding of
  /// `rule`.
  mutating func flag(
    _ view: JSONView, _ value: Int, _ key: String, _ rule: Rule, _ effect: Effect = .refused
  ) -> Bool {
    let at = offset(view, value)
    if let number = view.integer(value), number == 0 || number == 1 {
      return number == 1
    }
    if let on = view.bool(value) {
      let advice = on ? "Apple documents 1" : "Apple documents 1 for on; leave the key out for off"
      warning(.apnsFlagsBool, "\(Self.quoted(key)) is \(on); \(advice)", at: at)
      findings[findings.count - 1].fix = .replacing(view, value, with: on ? "1" : "0")
      return on
    }
    report(
      effect, rule, "\(Self.quoted(key)) must be 1, not \(Self.quotedValue(view, value))",
      at: at)
    return false
  }

  /// Whole seconds since 1970, into `field`; else a finding of `rule` (`effect`) naming `key`,
  /// or of `milliseconds` for a time of 13 digits.
  mutating func date(
    _ view: JSONView, _ value: Int, _ key: String, into field: RecordField, _ rule: Rule,
    milliseconds: Rule, _ effect: Effect = .refused
  ) {
    let at = offset(view, value)
    if view.kind(value) == .number, let digits = Self.overflowingDigits(view, value) {
      report(effect, rule, "\(Self.quoted(key)) \(digits) is after the year 9999", at: at)
      return
    }
    guard let seconds = view.integer(value), seconds >= 0 else {
      report(
        effect, rule,
        "\(Self.quoted(key)) must be whole seconds since 1970, not \(Self.quotedValue(view, value))",
        at: at)
      return
    }
    if let instant = epoch(seconds, key: key, rule, milliseconds: milliseconds, at: at, effect) {
      values[field] = .time(instant)
    }
  }

  /// An epoch-seconds value as an instant; a 13-digit value is flagged (`milliseconds`), never
  /// guessed, and one past the year 9999 is a finding of `rule`.
  mutating func epoch(
    _ seconds: Int64, key: String, _ rule: Rule, milliseconds: Rule, at: Int,
    _ effect: Effect = .refused
  ) -> Timestamp? {
    if seconds >= 1_000_000_000_000 && seconds < 10_000_000_000_000 {
      warning(
        milliseconds,
        "\(Self.quoted(key)) \(seconds) has 13 digits: probably milliseconds, not seconds; left null",
        at: at)
      return nil
    }
    let instant = Timestamp(seconds: seconds)
    guard instant.isWritable else {
      report(effect, rule, "\(Self.quoted(key)) \(seconds) is after the year 9999", at: at)
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

  /// Whether `byte` is an ASCII letter or digit.
  static func isAlphanumeric(_ byte: UInt8) -> Bool {
    (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
  }

  /// Whether `byte` may appear in base64 text (RFC 4648, either alphabet, with padding).
  static func isBase64Byte(_ byte: UInt8) -> Bool {
    isAlphanumeric(byte) || "+/-_=".utf8.contains(byte)
  }

  static func isUUID(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isUUID(UnsafeRawBufferPointer($0)) }
  }

  /// Whether `bytes` are a UUID as text, 8-4-4-4-12 hex digits of either case (an apns-id).
  /// The digits are checked eight at a time (`allHex`): a loop over the 36 bytes was 2% of
  /// notif-parse's time, as every payload's apns-id is checked.
  static func isUUID(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count == 36, let p = bytes.baseAddress else { return false }
    func isDash(_ offset: Int) -> Bool { p.load(fromByteOffset: offset, as: UInt8.self) == 0x2D }
    guard isDash(8) && isDash(13) && isDash(18) && isDash(23) else { return false }
    // The 4-digit groups padded with '0's to a word.
    func group(_ offset: Int) -> UInt64 {
      UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        | 0x3030_3030 << 32
    }
    func word(_ offset: Int) -> UInt64 {
      UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
    return allHex(word(0)) && allHex(group(9)) && allHex(group(14)) && allHex(group(19))
      && allHex(word(24)) && allHex(word(28))
  }

  /// Whether each of the eight bytes of `word` is a hex digit, `0-9`, `a-f` or `A-F`. With
  /// every byte below 0x80, adding to each byte carries into none of the next: the high bit of
  /// `byte + (0x80 - low)` says `byte >= low`, that of `byte + (0x7F - high)` `byte > high`.
  static func allHex(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs = 0x80 &* ones
    guard word & highs == 0 else { return false }
    func inRange(_ bytes: UInt64, _ low: UInt64, _ high: UInt64) -> UInt64 {
      (bytes &+ (0x80 - low) &* ones) & ~(bytes &+ (0x7F - high) &* ones)
    }
    let lowered = word | 0x20 &* ones
    return (inRange(word, 0x30, 0x39) | inRange(lowered, 0x61, 0x66)) & highs == highs
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

  /// "'key' must be `allowed`, not 'value'", the value as `quotedValue` writes it.
  static func mustBe(_ key: String, _ allowed: String, _ view: JSONView, _ value: Int) -> String {
    "\(quoted(key)) must be \(allowed), not \(quotedValue(view, value))"
  }

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

  /// The `BadBadge` error (of `rule`) of a badge `key` that is not a whole number from 0 to
  /// `maximum`.
  /// The whole number a string of ASCII digits spells (`"5"`, not `" 5"`, `"+5"` or `"5.0"`),
  /// if it spells one below 2^63.
  static func decimalString(_ view: JSONView, _ index: Int) -> Int64? {
    guard view.kind(index) == .string, !view.tokens[index].flag else { return nil }
    let raw = view.rawString(index)
    guard !raw.isEmpty, raw.count <= 18, raw.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      return nil
    }
    return raw.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
  }

  static func badBadge(
    _ view: JSONView, _ value: Int, _ key: String, maximum: Int64, _ rule: Rule, at: Int
  ) -> Finding {
    .error(
      rule,
      "\(quoted(key)) must be a whole number from 0 to \(maximum), not \(quotedValue(view, value))",
      at: at)
  }
}

/// The rows a reader's table of members (`MemberRule`) reports by: a member that is not a
/// string, not an array of strings, not a boolean, and (`readObject`) an object that is not a
/// dictionary.
struct MemberRows: Sendable {
  var string: Rule
  var locArgs: Rule
  var bool: Rule
  var object: Rule
}

/// How a reader takes one member of an object it knows: the rules most members follow, so that
/// a reader lists its keys in a table (`KeyTable<MemberRule<Own>>`) instead of writing each
/// check again, and handles the rest, its `Own` rules, in a switch of its own.
enum MemberRule<Own: Sendable>: Sendable {
  /// A string, into the field if one is given (`BadType` otherwise).
  case string(RecordField?)
  /// An array of strings, into the field (`BadLocArgs` otherwise).
  case locArgs(RecordField)
  /// True or false, into the field if one is given (`BadType` otherwise).
  case bool(RecordField?)
  /// The reader's own rule.
  case own(Own)
}

extension MessageReader {
  /// Reads each member of the object at `index` by its rule in `table`: the common rules here,
  /// `own` for the reader's own, `unknown` for a key the table does not have.
  @inline(__always)
  mutating func readMembers<Own>(
    _ view: JSONView, of index: Int, _ table: KeyTable<MemberRule<Own>>, _ rows: MemberRows,
    own: (inout MessageReader, Own, _ key: Int, _ value: Int) -> Void,
    unknown: (inout MessageReader, _ key: Int) -> Void
  ) {
    view.forEachMember(of: index) { key, value in
      switch table.find(view, key) {
      case .string(let field): string(view, key, value, into: field, rows.string)
      case .locArgs(let field): readLocArgs(view, key, value, into: field, rows.locArgs)
      case .bool(let field): readBool(view, key, value, into: field, rows.bool)
      case .own(let rule): own(&self, rule, key, value)
      case nil: unknown(&self, key)
      }
    }
  }

  /// `readMembers` of the object at `index`, if it is a dictionary; else a `BadType` error
  /// naming it `path`.
  @inline(__always)
  mutating func readObject<Own>(
    _ view: JSONView, _ index: Int, _ path: String, _ table: KeyTable<MemberRule<Own>>,
    _ rows: MemberRows,
    own: (inout MessageReader, Own, _ key: Int, _ value: Int) -> Void,
    unknown: (inout MessageReader, _ key: Int) -> Void
  ) {
    guard checkObject(view, index, path, rows.object) else { return }
    readMembers(view, of: index, table, rows, own: own, unknown: unknown)
  }

  /// Appends an error of `rule` at `index` of `view`.
  mutating func error(_ rule: Rule, _ message: String, _ view: JSONView, at index: Int) {
    error(rule, message, at: offset(view, index))
  }

  /// Appends a warning of `rule` at `index` of `view`.
  mutating func warning(_ rule: Rule, _ message: String, _ view: JSONView, at index: Int) {
    warning(rule, message, at: offset(view, index))
  }

  /// Appends a finding of `rule` at `offset` of the text: an error where the vendor refuses the
  /// message, else a warning that ends with what the device does.
  mutating func report(_ effect: Effect, _ rule: Rule, _ message: String, at offset: Int) {
    var finding = Finding.error(rule, message, at: offset)
    effect.apply(to: &finding)
    findings.append(finding)
  }

  /// Appends an error of `rule` at `offset` of the text.
  mutating func error(_ rule: Rule, _ message: String, at offset: Int) {
    findings.append(.error(rule, message, at: offset))
  }

  /// Appends a warning of `rule` at `offset` of the text.
  mutating func warning(_ rule: Rule, _ message: String, at offset: Int) {
    findings.append(.warning(rule, message, at: offset))
  }
}

/// What the vendor does with a value a rule finds wrong: it refuses the message (an error), or
/// it takes the message and the device ignores or misreads the value (a warning, whose message
/// ends with what the device does). APNs, for one, refuses a request for its headers and size,
/// and takes a payload whatever its `aps` values are (notif-rules(7), "APNs").
enum Effect: Sendable {
  /// The vendor refuses the message: an error.
  case refused
  /// The vendor takes the message; the device does what the text says (`iOS sets no badge`).
  case device(String)

  /// Makes `finding` what this effect reports: a warning with the device's part, or as it is.
  func apply(to finding: inout Finding) {
    guard case .device(let outcome) = self else { return }
    finding.severity = .warning
    finding.message += ": " + outcome
  }
}
