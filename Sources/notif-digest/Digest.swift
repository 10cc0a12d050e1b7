import NotifJSON
import NotifModel

/// One digest: the records of one key and window, as notif-digest gathers them, or as
/// `--merge` reads it back from its digest object.
///
/// It keeps what its object says, not its records: the counts, the distinct actors and
/// categories, the items `--item-limit` keeps, and the sum of its members' hashes (`DigestID`).
struct Digest {
  /// The `key` object, compact, its values canonical (`KeyValue`; with `--merge`, as read):
  /// `{"app":"com.example.chat","thread_id":"t"}`.
  var key: [UInt8]
  var window: DigestWindow
  var count: Int64 = 0
  var unreadCount: Int64 = 0
  var latestAt = Timestamp.minimum
  /// By actor (UTF-8 bytes): how many records name it, and the newest of them.
  var actors: [ByteKey: (count: Int64, latestAt: Timestamp)] = [:]
  /// By category (UTF-8 bytes, nil for none): how many records have it.
  var categories: [ByteKey?: Int64] = [:]
  var items: DigestItems
  /// The sum of the members' hashes (see `DigestID`).
  var members = DigestID.zero
  /// The input order of its first record, or of its object with `--merge`: ties between
  /// windows that close together go by it.
  var firstInput: Int
  /// With `--store`: the line numbers of its records in the store, to mark them.
  var lines: [Int] = []
  /// With `--merge`: when the digest was read (`read_at`), if it was.
  var readAt: Timestamp? = nil
  /// With `--merge`: the texts of a digest written as it was read.
  var texts: (summary: String, hidden: String)? = nil

  init(key: [UInt8], window: DigestWindow, items: DigestItems, firstInput: Int) {
    self.key = key
    self.window = window
    self.items = items
    self.firstInput = firstInput
  }

  /// The `digest_id`.
  var id: DigestID {
    members.adding(key.withUnsafeBytes { DigestID.frame(key: $0, window: window) })
  }

  /// The actors, newest first, then by their bytes.
  var actorsInOrder: [(actor: [UInt8], count: Int64, latestAt: Timestamp)] {
    actors.map { ($0.key.bytes, $0.value.count, $0.value.latestAt) }.sorted {
      $0.latestAt != $1.latestAt
        ? $0.latestAt > $1.latestAt : $0.actor.lexicographicallyPrecedes($1.actor)
    }
  }

  /// The categories by their bytes, null first.
  var categoriesInOrder: [(category: [UInt8]?, count: Int64)] {
    categories.map { ($0.key?.bytes, $0.value) }.sorted {
      switch ($0.category, $1.category) {
      case (nil, _): return $1.category != nil
      case (_, nil): return false
      case (let a?, let b?): return a.lexicographicallyPrecedes(b)
      }
    }
  }

  /// Adds the actor `actor` (UTF-8) of a record created at `createdAt`, `count` times.
  mutating func addActor(_ actor: ByteKey, count: Int64 = 1, latestAt: Timestamp) {
    // One lookup: the entry is changed in place, made first if missing.
    Self.add(count, latestAt, to: &actors[actor, default: (0, Timestamp.minimum)])
  }

  private static func add(
    _ count: Int64, _ latestAt: Timestamp, to entry: inout (count: Int64, latestAt: Timestamp)
  ) {
    entry = (saturated(entry.count, count), max(entry.latestAt, latestAt))
  }

  /// Adds a record of the category `category` (UTF-8, nil for none), `count` times.
  mutating func addCategory(_ category: ByteKey?, count: Int64 = 1) {
    Self.add(count, to: &categories[category, default: 0])
  }

  private static func add(_ count: Int64, to total: inout Int64) {
    total = saturated(total, count)
  }

  /// `a + b`, at most `FieldLimits.largest`.
  static func saturated(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow || sum > FieldLimits.largest ? FieldLimits.largest : sum
  }
}

/// One record of a digest's `items`, compact, with what orders it: `created_at`, then `id`,
/// then input order (the order in which `--merge` read the digests, and the items in each).
struct DigestItem {
  var createdAt: Timestamp
  var id: [UInt8]
  var order: Int
  var bytes: [UInt8]

  static func precedes(
    _ a: (createdAt: Timestamp, id: [UInt8], order: Int),
    _ b: (createdAt: Timestamp, id: [UInt8], order: Int)
  ) -> Bool {
    if a.createdAt != b.createdAt { return a.createdAt < b.createdAt }
    if a.id != b.id { return a.id.lexicographicallyPrecedes(b.id) }
    return a.order < b.order
  }

  var sortKey: (createdAt: Timestamp, id: [UInt8], order: Int) { (createdAt, id, order) }
}

/// Which records a digest lists (`--item-end`): the earliest or the latest, at most `--item-limit` of
/// them; listed oldest first.
enum ItemsEnd: String, Sendable {
  case first, last
}

/// The records a digest lists: all of them, or the first or last `limit` in time order.
struct DigestItems {
  let end: ItemsEnd
  let limit: Int?
  /// Ascending, once `sorted`; while all are kept, in the order they came.
  private(set) var items: [DigestItem] = []
  private var isSorted = true

  init(end: ItemsEnd, limit: Int?) {
    self.end = end
    self.limit = limit
  }

  /// Whether a record with this sort key would be kept: ask before copying its bytes.
  func admits(_ key: (createdAt: Timestamp, id: [UInt8], order: Int)) -> Bool {
    guard let limit, items.count >= limit else { return true }
    guard limit > 0, let first = items.first, let last = items.last else { return false }
    switch end {
    case .first: return DigestItem.precedes(key, last.sortKey)
    case .last: return DigestItem.precedes(first.sortKey, key)
    }
  }

  /// Adds an item (if admitted), dropping the one it pushes out.
  mutating func insert(_ item: DigestItem) {
    guard admits(item.sortKey) else { return }
    guard let limit else {
      if let last = items.last, DigestItem.precedes(item.sortKey, last.sortKey) {
        isSorted = false
      }
      items.append(item)
      return
    }
    var position = items.count
    while position > 0 && DigestItem.precedes(item.sortKey, items[position - 1].sortKey) {
      position -= 1
    }
    items.insert(item, at: position)
    if items.count > limit {
      switch end {
      case .first: items.removeLast()
      case .last: items.removeFirst()
      }
    }
  }

  /// The items in order, oldest first.
  mutating func sorted() -> [DigestItem] {
    if !isSorted {
      items.sort { DigestItem.precedes($0.sortKey, $1.sortKey) }
      isSorted = true
    }
    return items
  }
}

/// A run of bytes as a dictionary key, hashed in one call (`Hasher.combine(bytes:)`) rather
/// than a byte at a time as `[UInt8]` hashes: notif-digest looks up a key, an actor and a
/// category for every record.
struct ByteKey: Hashable {
  var bytes: [UInt8]

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func hash(into hasher: inout Hasher) {
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
  }
}
