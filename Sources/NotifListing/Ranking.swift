import NotifModel

/// Where a record stands in its group: what it is ranked by, and its place in the input.
///
/// `major` and `minor` are the input order that breaks full ties: when grouping records,
/// `major` is the record's number in the input and `minor` 0; when merging group objects,
/// `major` is the object's number and `minor` the item's position in the object (-1 for the
/// leading record), which keeps the input order because an object lists tied items in input
/// order in both feed and chat order.
public struct SortKey: Sendable, Equatable {
  /// The `created_at` field.
  public var createdAt: Timestamp
  /// The `relevance` field; null counts as 0.
  public var relevance: Double
  /// The input order: the record's or object's number.
  public var major: Int
  /// The input order within `major`.
  public var minor: Int

  /// Creates a key.
  @inlinable
  public init(createdAt: Timestamp, relevance: Double, major: Int, minor: Int) {
    self.createdAt = createdAt
    self.relevance = relevance
    self.major = major
    self.minor = minor
  }
}

/// What ranks the records of a group, and so picks the leading record and orders the groups.
public enum Ranking: String, Sendable {
  /// `created_at` descending, then `relevance` descending, then input order.
  case time
  /// `relevance` descending, then `created_at` descending, then input order.
  case relevance

  /// Whether `a` comes before `b` in feed order (the leading record first).
  @inlinable @inline(__always)
  public func precedes(_ a: SortKey, _ b: SortKey) -> Bool {
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
  @inlinable
  public func precedesInChat(_ a: SortKey, _ b: SortKey) -> Bool {
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

/// The order a list is in: `--order`, in notif-group and notif-show.
public enum ListOrder: String, Sendable {
  /// Newest (or most relevant) first, as a feed.
  case feed
  /// Newest (or most relevant) last, as a chat.
  case chat
}

extension Ranking {
  /// Whether `a` comes before `b` in `order`: `precedes` or `precedesInChat`.
  @inlinable
  public func precedes(_ a: SortKey, _ b: SortKey, in order: ListOrder) -> Bool {
    switch order {
    case .feed: return precedes(a, b)
    case .chat: return precedesInChat(a, b)
    }
  }
}
