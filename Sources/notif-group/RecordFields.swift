import NotifJSON
import NotifListing
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
  /// What the rule of what the device lists reads (`DeviceListing`).
  var listing = ListingFields()

  /// The record fields notif-group reads, and their keys, spelled by `RecordField`: its own,
  /// then those of the listing rule.
  static let fields: [RecordField] =
    [
      .app, .threadID, .category, .createdAt, .relevance, .summaryArg, .summaryArgCount,
      .readAt, .seenAt,
    ] + ListingFields.fields
  static let keys = KeyList(fields.map(\.key))

  /// Finds the fields of the record at the root of `view` with `locator` (one per reader,
  /// reused for every record), the first members having a record's keys at their places and
  /// their values at the tape indices `known` gives (`RecordFieldLocator.locate`): a look at
  /// each key only past those, where the name-by-name lookup of `init(_:object:)` looked at
  /// every key.
  init(_ view: JSONView, locator: RecordFieldLocator, known: ExpectedKeyValues) {
    locator.locate(view, object: 0, known: known)
    app = locator.slot(.app)
    threadID = locator.slot(.threadID)
    category = locator.slot(.category)
    createdAt = locator.slot(.createdAt)
    relevance = locator.slot(.relevance)
    summaryArg = locator.slot(.summaryArg)
    summaryArgCount = locator.slot(.summaryArgCount)
    readAt = locator.slot(.readAt)
    seenAt = locator.slot(.seenAt)
    listing = ListingFields(locator)
  }

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
      case let other: listing.set(other, value)
      }
    }
  }
}

/// What grouping needs of one record, checked.
struct RecordFacts {
  var createdAt: Timestamp
  var relevance: Double
  /// `summary_arg_count` as counted: null, missing or bad counts 1.
  var weight: Int64
  /// Whether `summary_arg_count` was present and not a whole number in
  /// `FieldLimits.positive`.
  var badWeight: Bool
}

/// The checks and reads of notif-group's records; the reader keeps the last `created_at`
/// parsed, so each thread keeps one.
extension RecordFieldReader {
  /// Checks the record at `index` and reads what grouping ranks and counts it by.
  mutating func facts(_ view: JSONView, _ fields: RecordFields, object index: Int = 0)
    throws(RecordProblem) -> RecordFacts
  {
    let createdAt = try createdAt(view, fields.createdAt, record: index)
    try Self.checkStringOrNull(view, fields.app, .app)
    try Self.checkStringOrNull(view, fields.threadID, .threadID)
    try Self.checkStringOrNull(view, fields.category, .category)
    try Self.checkStringOrNull(view, fields.summaryArg, .summaryArg)
    let relevance = try Self.relevance(view, fields.relevance, wanted: "a number")
    var weight: Int64 = 1
    var bad = false
    if fields.summaryArgCount >= 0 && view.kind(fields.summaryArgCount) != .null {
      if let value = view.integer(fields.summaryArgCount), FieldLimits.positive.contains(value) {
        weight = value
      } else {
        bad = true
      }
    }
    return RecordFacts(createdAt: createdAt, relevance: relevance, weight: weight, badWeight: bad)
  }
}
