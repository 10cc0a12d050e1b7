import NotifJSON
import NotifModel

/// Reads and checks the fields that records are ranked and listed by, as every lister reports
/// them: `created_at` (an RFC 3339 time), `relevance` (a number or null) and the fields shown
/// as text (a string or null).
///
/// It keeps the last `created_at` parsed, since runs of records often share it: keep one
/// reader for a run (one per thread). Its methods are inlinable, for they run once per record
/// of notif-group's hot path; what builds a message is not.
public struct RecordFieldReader {
  @usableFromInline var lastTimeText: [UInt8] = []
  @usableFromInline var lastTime = Timestamp(seconds: 0)

  /// A reader that has read no time yet.
  public init() {}

  /// The `created_at` of the record at `record`, whose value is at `index` (-1 when the record
  /// has no such key).
  ///
  /// - Throws: `BadCreatedAt` when it is missing or not an RFC 3339 time.
  @inlinable
  public mutating func createdAt(_ view: JSONView, _ index: Int, record: Int)
    throws(RecordProblem) -> Timestamp
  {
    guard index >= 0 else { throw Self.noCreatedAt(view, record: record) }
    return try time(view, index, name: RecordField.createdAt.key)
  }

  /// The RFC 3339 time at `index`, the value of the member `name` names in a diagnostic.
  ///
  /// - Throws: `BadCreatedAt` when it is not a string, or not an RFC 3339 time.
  @inlinable
  public mutating func time(_ view: JSONView, _ index: Int, name: @autoclosure () -> String)
    throws(RecordProblem) -> Timestamp
  {
    guard view.kind(index) == .string else { throw Self.notATime(view, index, name: name()) }
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
    guard let instant = parsed else { throw Self.notATime(view, index, name: name()) }
    lastTimeText = Array(raw)
    lastTime = instant
    return instant
  }

  /// The `relevance` at `index` (-1 when the record has no such key); null and none count as 0.
  ///
  /// - Throws: `BadType` when it is neither a number nor null: "'relevance' is a string, not
  ///   `wanted`" (notif-group says "a number", notif-show "a number or null").
  @inlinable @inline(__always)
  public static func relevance(_ view: JSONView, _ index: Int, wanted: StaticString)
    throws(RecordProblem) -> Double
  {
    guard index >= 0 else { return 0 }
    switch view.kind(index) {
    case .number: return view.double(index) ?? 0
    case .null: return 0
    case let kind: throw wrongType(view, index, .relevance, kind, wanted: wanted)
    }
  }

  /// Checks that the value of `field` at `index` (-1 when the record has no such key) is a
  /// string or null.
  ///
  /// - Throws: `BadType` when it is anything else.
  @inlinable @inline(__always)
  public static func checkStringOrNull(_ view: JSONView, _ index: Int, _ field: RecordField)
    throws(RecordProblem)
  {
    guard index >= 0 else { return }
    let kind = view.kind(index)
    guard kind == .string || kind == .null else {
      throw wrongType(view, index, field, kind, wanted: "a string or null")
    }
  }

  // MARK: - Problems, out of line

  @usableFromInline
  static func noCreatedAt(_ view: JSONView, record index: Int) -> RecordProblem {
    RecordProblem(
      code: "BadCreatedAt", message: "the record has no '\(RecordField.createdAt.key)'",
      offset: Int(view.tokens[index].start))
  }

  @usableFromInline
  static func notATime(_ view: JSONView, _ index: Int, name: String) -> RecordProblem {
    let offset = Int(view.tokens[index].start)
    guard view.kind(index) == .string else {
      return RecordProblem(
        code: "BadCreatedAt",
        message: "'\(name)' is \(view.kind(index).phrase), not an RFC 3339 time", offset: offset)
    }
    let text = view.string(index)
    var message = "'\(name)' is not an RFC 3339 time: '\(text)'"
    do {
      _ = try Timestamp(rfc3339: text)
    } catch {
      if error.isOutOfRange { message = "'\(name)': \(error.message)" }
    }
    return RecordProblem(code: "BadCreatedAt", message: message, offset: offset)
  }

  @usableFromInline
  static func wrongType(
    _ view: JSONView, _ index: Int, _ field: RecordField, _ kind: JSONKind, wanted: StaticString
  ) -> RecordProblem {
    RecordProblem(
      code: "BadType", message: "'\(field.key)' is \(kind.phrase), not \(wanted)",
      offset: Int(view.tokens[index].start))
  }
}
