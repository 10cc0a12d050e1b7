import NotifJSON
import NotifModel

/// The top level of a digest object (notif(5), "Digest objects"), found and checked once, with
/// one wording, for every tool that reads digest objects: notif-show, which shows them, and
/// notif-digest `--merge`, which merges them.
///
/// The members are found by their keys (`DigestField`) in one pass, as `GroupObjectMembers`
/// finds a group object's: notif-digest writes them in `DigestField` order, which makes the
/// usual lookup one comparison per member. Then `table` drives the checks, a row for each
/// member both tools read: whether the object must have it, and the rule its value keeps. A
/// fault is a `RecordProblem` (`BadDigest`) at the value, or at the object for a missing
/// member, whose message names the key and what it must be.
///
/// What the table leaves out is each tool's own: `actors`, `categories` and `digesting`, the
/// members of the items, what `digest_id` spells, how `unread_count` and `items_omitted` agree
/// with the other counts, keys no `DigestField` names (`unknownKey`), and the members only one
/// tool requires (`checkPresent`).
public struct DigestObjectReader: Sendable {
  /// What the value of a member must be.
  public enum Rule: Sendable, Equatable {
    /// A JSON value of one of `kinds`.
    case kind([JSONKind])
    /// An RFC 3339 time, not before that of the member `notBefore` names (an earlier row).
    case time(notBefore: DigestField?)
    /// A whole number in `range` (`FieldLimits`).
    case whole(ClosedRange<Int64>)
    /// An array of records (objects), no more of them than the whole number of the member
    /// `atMost` names (an earlier row).
    case records(atMost: DigestField)

    /// What a value must be, in messages: "a string or null".
    public var wanted: String {
      switch self {
      case .kind(let kinds): return kinds.map(\.phrase).joined(separator: " or ")
      case .time: return "an RFC 3339 time such as 2026-11-22T09:05:00Z"
      case .whole(let range):
        return "a whole number from \(range.lowerBound) to \(range.upperBound)"
      case .records: return "an array of records"
      }
    }
  }

  /// A member of the table: its key, whether an object must have it, the rule of its value.
  public struct Row: Sendable {
    public var field: DigestField
    public var rule: Rule
    /// Whether an object without the member is refused; a member that may be missing reads
    /// as null.
    public var isRequired: Bool

    public init(_ field: DigestField, _ rule: Rule, isRequired: Bool = true) {
      self.field = field
      self.rule = rule
      self.isRequired = isRequired
    }
  }

  /// The members both tools read, in `DigestField` order, each with its rule: the order the
  /// checks run in. `summary`, `hidden_summary` and `read_at` may be missing (notif-show
  /// shows a count for a digest with no summary; `--merge` requires them, `checkPresent`).
  public static let table: [Row] = [
    Row(.digestID, .kind([.string])),
    Row(.key, .kind([.object])),
    Row(.windowStart, .time(notBefore: nil)),
    Row(.windowEnd, .time(notBefore: .windowStart)),
    Row(.count, .whole(FieldLimits.positive)),
    Row(.unreadCount, .whole(FieldLimits.tally)),
    Row(.latestAt, .time(notBefore: nil)),
    Row(.items, .records(atMost: .count)),
    Row(.itemsOmitted, .whole(FieldLimits.tally)),
    Row(.summary, .kind([.string, .null]), isRequired: false),
    Row(.hiddenSummary, .kind([.string, .null]), isRequired: false),
    Row(.readAt, .kind([.string, .null]), isRequired: false),
  ]

  /// The members the table requires, in its order.
  public static let required: [DigestField] = table.filter(\.isRequired).map(\.field)

  /// The keys of `DigestField`, as bytes, by `rawValue`.
  public static let keys: [[UInt8]] = DigestField.allCases.map { Array($0.key.utf8) }

  /// The tape index of each member's value, by `DigestField.rawValue`; 0 (the root, never a
  /// member's value) where the object has no such member.
  private var values: [Int]
  /// The checked times (`Rule.time`) and numbers (`Rule.whole`; the records of
  /// `Rule.records`), by `DigestField.rawValue`.
  private var times: [Timestamp]
  private var numbers: [Int64]
  /// Where the object starts in its text: what a missing member is reported at.
  private let offset: Int

  /// The tape index of the first key that no `DigestField` names, if any: notif-show ignores
  /// it, `--merge` refuses it.
  public private(set) var unknownKey: Int?

  /// Reads and checks the digest object at the root of `view`.
  ///
  /// - Throws: `BadDigest` when the text is no object, lacks a member the table requires, or
  ///   has one that breaks its rule.
  /// - Complexity: O(members + items), and O(members × keys) for members out of order.
  public init(_ view: JSONView) throws(RecordProblem) {
    guard view.kind(0) == .object else {
      throw Self.problem(view, 0, "a digest object is a JSON object, not \(view.kind(0).phrase)")
    }
    let keys = Self.keys
    var found = [Int](repeating: 0, count: keys.count)
    var position = 0
    var unknown: Int? = nil
    view.forEachMember(of: 0) { key, value in
      let next = position
      position += 1
      let field =
        next < keys.count && view.keyEquals(key, bytes: keys[next])
        ? next : keys.firstIndex { view.keyEquals(key, bytes: $0) }
      guard let field else {
        if unknown == nil { unknown = key }
        return
      }
      found[field] = value
    }
    values = found
    times = [Timestamp](repeating: Timestamp(seconds: 0), count: keys.count)
    numbers = [Int64](repeating: 0, count: keys.count)
    offset = Int(view.tokens[0].start)
    unknownKey = unknown
    try checkPresent(Self.required)
    for row in Self.table {
      if let index = self[row.field] { try check(row, view, index) }
    }
  }

  /// Checks the value at `index` of the member of `row` by its rule, keeping what it reads.
  private mutating func check(_ row: Row, _ view: JSONView, _ index: Int) throws(RecordProblem) {
    let key = row.field.key
    let kind = view.kind(index)
    switch row.rule {
    case .kind(let kinds):
      guard kinds.contains(kind) else {
        throw Self.problem(view, index, "'\(key)' is \(kind.phrase), not \(row.rule.wanted)")
      }
    case .time(let notBefore):
      let time = try Self.time(view, index, name: key)
      if let notBefore, time < times[notBefore.rawValue] {
        throw Self.problem(view, index, "'\(key)' is before '\(notBefore.key)'")
      }
      times[row.field.rawValue] = time
    case .whole(let range):
      guard let number = view.integer(index), range.contains(number) else {
        throw Self.problem(view, index, FieldLimits.notInRange(key, range))
      }
      numbers[row.field.rawValue] = number
    case .records(let atMost):
      guard kind == .array else {
        throw Self.problem(view, index, "'\(key)' is \(kind.phrase), not \(row.rule.wanted)")
      }
      let records = Int64(view.tokens[index].count)
      let most = numbers[atMost.rawValue]
      guard records <= most else {
        throw Self.problem(
          view, index, "'\(key)' has \(records) records, more than '\(atMost.key)' (\(most))")
      }
      try view.forEachElement(of: index) { element throws(RecordProblem) in
        guard view.kind(element) == .object else {
          throw Self.problem(
            view, element, "an element of '\(key)' is \(view.kind(element).phrase), not a record")
        }
      }
      numbers[row.field.rawValue] = records
    }
  }

  /// The tape index of `field`'s value, or nil when the object has no such member.
  public subscript(field: DigestField) -> Int? {
    let value = values[field.rawValue]
    return value == 0 ? nil : value
  }

  /// Whether the object's `field` is null or missing (which reads as null).
  public func isNull(_ field: DigestField, in view: JSONView) -> Bool {
    self[field].map { view.kind($0) == .null } ?? true
  }

  // The checked values of the table's times and whole numbers.
  public var windowStart: Timestamp { times[DigestField.windowStart.rawValue] }
  public var windowEnd: Timestamp { times[DigestField.windowEnd.rawValue] }
  public var latestAt: Timestamp { times[DigestField.latestAt.rawValue] }
  public var count: Int64 { numbers[DigestField.count.rawValue] }
  public var unreadCount: Int64 { numbers[DigestField.unreadCount.rawValue] }
  public var itemsOmitted: Int64 { numbers[DigestField.itemsOmitted.rawValue] }
  /// The number of elements of `items`, each an object.
  public var itemCount: Int64 { numbers[DigestField.items.rawValue] }

  /// Checks that the object has a member for each of `fields`, besides those the table
  /// requires: for a tool that requires more.
  ///
  /// - Throws: `BadDigest` at the object for the first missing one.
  public func checkPresent(_ fields: [DigestField]) throws(RecordProblem) {
    if let missing = fields.first(where: { values[$0.rawValue] == 0 }) {
      throw RecordProblem(
        code: "BadDigest", message: "not a digest object: the key '\(missing.key)' is missing",
        offset: offset)
    }
  }

  /// The RFC 3339 time at `index`, the value `name` names in a diagnostic: the one reading of
  /// a digest object's times, its members' (`digesting.align`, an actor's `latest_at`) too.
  ///
  /// - Throws: `BadDigest` when it is no string, or a string that is no RFC 3339 time.
  public static func time(_ view: JSONView, _ index: Int, name: String) throws(RecordProblem)
    -> Timestamp
  {
    let wanted = Rule.time(notBefore: nil).wanted
    guard view.kind(index) == .string else {
      throw problem(view, index, "'\(name)' is \(view.kind(index).phrase), not \(wanted)")
    }
    // An escaped time is no time: a backslash is none of its characters.
    guard !view.tokens[index].flag, let time = Timestamp(rfc3339: view.rawString(index)) else {
      throw problem(view, index, "'\(name)' is not \(wanted)")
    }
    return time
  }

  /// A `BadDigest` problem at the value at `index`.
  public static func problem(_ view: JSONView, _ index: Int, _ message: String) -> RecordProblem {
    RecordProblem(code: "BadDigest", message: message, offset: Int(view.tokens[index].start))
  }
}
