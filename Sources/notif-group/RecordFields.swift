import NotifJSON
import NotifModel

/// The tape indices of the record fields notif-group reads, found in one pass over the
/// record's members; -1 where the record has no such key.
struct RecordFields {
  var app = -1
  var threadID = -1
  var category = -1
  var createdAt = -1
  var relevance = -1
  var summaryArg = -1
  var summaryArgCount = -1
  var readAt = -1
  var seenAt = -1

  /// The record fields notif-group reads, and their keys, spelled by `RecordField`.
  static let fields: [RecordField] = [
    .app, .threadID, .category, .createdAt, .relevance, .summaryArg, .summaryArgCount, .readAt,
    .seenAt,
  ]
  static let keys = KeyList(fields.map(\.key))

  /// Finds the fields of the object at `index` of `view`.
  init(_ view: JSONView, object index: Int = 0) {
    Self.keys.forEachMember(of: index, in: view) { position, value in
      switch Self.fields[position] {
      case .app: app = value
      case .threadID: threadID = value
      case .category: category = value
      case .createdAt: createdAt = value
      case .relevance: relevance = value
      case .summaryArg: summaryArg = value
      case .summaryArgCount: summaryArgCount = value
      case .readAt: readAt = value
      case .seenAt: seenAt = value
      default: break
      }
    }
  }
}

/// Why a record or group object is rejected: a message and the byte offset it is about.
struct Problem: Error, Equatable {
  var code: String
  var message: String
  var offset: Int
}

/// What grouping needs of one record, checked.
struct RecordFacts {
  var createdAt: Timestamp
  var relevance: Double
  /// `summary_arg_count` as counted: null, missing or bad counts 1.
  var weight: Int64
  /// Whether `summary_arg_count` was present and not a whole number of 1 or more.
  var badWeight: Bool
}

/// Reads and checks the fields of records; keeps the last `created_at` parsed, since runs of
/// records often share it.
struct FieldReader {
  private var lastTimeText: [UInt8] = []
  private var lastTime = Timestamp(seconds: 0)

  /// Checks the record at `index` and reads what grouping ranks and counts it by.
  mutating func facts(_ view: JSONView, _ fields: RecordFields, object index: Int = 0)
    throws(Problem) -> RecordFacts
  {
    let start = Int(view.tokens[index].start)
    guard fields.createdAt >= 0 else {
      throw Problem(
        code: "BadCreatedAt", message: "the record has no '\(RecordField.createdAt.key)'",
        offset: start)
    }
    let createdAt = try time(view, fields.createdAt, name: RecordField.createdAt.key)
    try stringOrNull(view, fields.app, .app)
    try stringOrNull(view, fields.threadID, .threadID)
    try stringOrNull(view, fields.category, .category)
    try stringOrNull(view, fields.summaryArg, .summaryArg)
    var relevance = 0.0
    if fields.relevance >= 0 {
      switch view.kind(fields.relevance) {
      case .null: break
      case .number: relevance = Self.number(view, fields.relevance)
      default:
        throw Problem(
          code: "BadType",
          message:
            "'\(RecordField.relevance.key)' is \(view.kind(fields.relevance).phrase), not a number",
          offset: Int(view.tokens[fields.relevance].start))
      }
    }
    var weight: Int64 = 1
    var bad = false
    if fields.summaryArgCount >= 0 && view.kind(fields.summaryArgCount) != .null {
      if let value = view.integer(fields.summaryArgCount), value >= 1 {
        weight = value
      } else {
        bad = true
      }
    }
    return RecordFacts(createdAt: createdAt, relevance: relevance, weight: weight, badWeight: bad)
  }

  /// The RFC 3339 time at `index`.
  mutating func time(_ view: JSONView, _ index: Int, name: @autoclosure () -> String)
    throws(Problem) -> Timestamp
  {
    let offset = Int(view.tokens[index].start)
    guard view.kind(index) == .string else {
      throw Problem(
        code: "BadCreatedAt",
        message: "'\(name())' is \(view.kind(index).phrase), not an RFC 3339 time",
        offset: offset)
    }
    let raw = view.rawString(index)
    if raw.count == lastTimeText.count, raw.count > 0, let base = raw.baseAddress,
      lastTimeText.withUnsafeBytes({ memcmp($0.baseAddress ?? base, base, raw.count) == 0 })
    {
      return lastTime
    }
    let parsed: Timestamp?
    if view.tokens[index].flag {
      parsed = try? Timestamp(rfc3339: view.string(index))  // escaped: rare, decode first
    } else {
      parsed = Timestamp(rfc3339: raw)
    }
    guard let instant = parsed else {
      let text = view.string(index)
      var message = "'\(name())' is not an RFC 3339 time: '\(text)'"
      do {
        _ = try Timestamp(rfc3339: text)
      } catch {
        if error.isOutOfRange { message = "'\(name())': \(error.message)" }
      }
      throw Problem(code: "BadCreatedAt", message: message, offset: offset)
    }
    lastTimeText = Array(raw)
    lastTime = instant
    return instant
  }

  private func stringOrNull(_ view: JSONView, _ index: Int, _ field: RecordField) throws(Problem) {
    guard index >= 0 else { return }
    let kind = view.kind(index)
    guard kind == .string || kind == .null else {
      throw Problem(
        code: "BadType", message: "'\(field.key)' is \(kind.phrase), not a string or null",
        offset: Int(view.tokens[index].start))
    }
  }

  /// The number at `index` as a `Double`, correctly rounded. Plain decimals of up to 15 digits
  /// (`0.75`, `1`) are read directly: both the digits and the power of ten are exact doubles,
  /// so one division rounds correctly; anything else goes through the standard library.
  static func number(_ view: JSONView, _ index: Int) -> Double {
    let raw = view.raw(index)
    var mantissa: UInt64 = 0
    var digits = 0
    var fraction = 0
    var seenPoint = false
    var negative = false
    for byte in raw {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
        digits += 1
        if seenPoint { fraction += 1 }
      case UInt8(ascii: "."): seenPoint = true
      case UInt8(ascii: "-"): negative = true
      default: digits = 99  // an exponent
      }
    }
    if digits <= 15 {
      let value = Double(mantissa) / powersOfTen[fraction]
      return negative ? -value : value
    }
    return view.double(index) ?? 0
  }

  private static let powersOfTen: [Double] = (0...15).map { power in
    var value = 1.0
    for _ in 0..<power { value *= 10 }
    return value
  }
}
