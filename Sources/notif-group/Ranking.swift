import NotifModel

/// Where a record stands in its group: what it is ranked by, and its place in the input.
///
/// `major` and `minor` are the input order that breaks full ties: when grouping records,
/// `major` is the record's number in the input and `minor` 0; when merging group objects,
/// `major` is the object's number and `minor` the item's position in the object (-1 for the
/// leading record), which keeps the input order because an object lists tied items in input
/// order in both feed and chat order.
struct SortKey: Sendable, Equatable {
  var createdAt: Timestamp
  /// The `relevance` field; null counts as 0.
  var relevance: Double
  var major: Int
  var minor: Int
}

/// What ranks the records of a group, and so picks the leading record and orders the groups.
enum Ranking: String, Sendable {
  /// `created_at` descending, then `relevance` descending, then input order.
  case time
  /// `relevance` descending, then `created_at` descending, then input order.
  case relevance

  /// Whether `a` comes before `b` in feed order (the leading record first).
  @inline(__always)
  func precedes(_ a: SortKey, _ b: SortKey) -> Bool {
    switch self {
    case .time:
      if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
      if a.relevance != b.relevance { return a.relevance > b.relevance }
    case .relevance:
      if a.relevance != b.relevance { return a.relevance > b.relevance }
      if a.createdAt != b.createdAt { return a.createdAt > b.createdAt }
    }
    return a.major != b.major ? a.major < b.major : a.minor < b.minor
  }

  /// Whether `a` comes before `b` in chat order: feed order's ranking reversed, full ties still
  /// in input order.
  func precedesInChat(_ a: SortKey, _ b: SortKey) -> Bool {
    switch self {
    case .time:
      if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
      if a.relevance != b.relevance { return a.relevance < b.relevance }
    case .relevance:
      if a.relevance != b.relevance { return a.relevance < b.relevance }
      if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
    }
    return a.major != b.major ? a.major < b.major : a.minor < b.minor
  }
}
