import NotifListing
import NotifModel

/// What one record adds to the statistics of a group's non-leading records.
struct Contribution: Sendable, Equatable {
  /// The category's number in the run's category table; -1 for null.
  var category: Int32
  /// The summary argument's number in the run's table; -1 for none (null or empty).
  var summaryArg: Int32
  /// `summary_arg_count` as counted.
  var weight: Int64
  var createdAt: Timestamp
}

/// One record kept in a group's items.
struct Item: Ranked {
  var key: SortKey
  /// The record, compact.
  var bytes: [UInt8]
}

/// A count per category or per summary argument.
struct Stat: Sendable, Equatable {
  var id: Int32
  /// At most the group's `count`, which stays within `FieldLimits.largest` (see `Group.merge`).
  var count: Int
  /// The sum of `summary_arg_count` (categories only), saturated at `FieldLimits.largest`.
  var weight: Int64
  /// The newest `created_at` (summary arguments only).
  var latestAt: Timestamp
}

/// Counts by category or summary argument: a short list searched in order, with a dictionary
/// beside it once the list grows, so a group with thousands of distinct summary arguments
/// stays linear.
struct StatTable {
  private(set) var entries: [Stat] = []
  private var index: [Int32: Int] = [:]
  private static let listLimit = 8

  /// Adds `count` and `weight` to the entry of `id`; `passed` is set when its weight passes
  /// `FieldLimits.largest` and saturates there.
  mutating func add(
    _ id: Int32, count: Int, weight: Int64, latestAt: Timestamp, passed: inout Bool
  ) {
    if let position = position(of: id) {
      entries[position].count += count
      entries[position].weight = saturatingSum(entries[position].weight, weight, passed: &passed)
      if latestAt > entries[position].latestAt { entries[position].latestAt = latestAt }
      return
    }
    entries.append(Stat(id: id, count: count, weight: weight, latestAt: latestAt))
    if entries.count == Self.listLimit + 1 {
      for (position, entry) in entries.enumerated() { index[entry.id] = position }
    } else if entries.count > Self.listLimit + 1 {
      index[id] = entries.count - 1
    }
  }

  /// Gives every entry the number `number` maps its own to; distinct numbers stay distinct.
  mutating func renumber(_ number: (Int32) -> Int32) {
    for position in entries.indices { entries[position].id = number(entries[position].id) }
    if entries.count > Self.listLimit {
      index = [:]
      for (position, entry) in entries.enumerated() { index[entry.id] = position }
    }
  }

  private func position(of id: Int32) -> Int? {
    if entries.count > Self.listLimit { return index[id] }
    for position in entries.indices where entries[position].id == id { return position }
    return nil
  }
}

/// `a + b` for weights from 0 to `FieldLimits.largest`, or `FieldLimits.largest` when the sum
/// passes it, which sets `passed`: weights are summed over many records (2^53 is 4,194,305
/// records of 2^31), and what a group object holds must stay exact in every JSON reader.
func saturatingSum(_ a: Int64, _ b: Int64, passed: inout Bool) -> Int64 {
  let (sum, overflow) = a.addingReportingOverflow(b)
  guard overflow || sum > FieldLimits.largest else { return sum }
  passed = true
  return FieldLimits.largest
}

/// One group as it is being built: from records, or from group objects being merged.
struct Group {
  /// The group's `app` and `thread_id` as canonical JSON text (`"com.example.chat"` or
  /// `null`): the same bytes whichever of its records (or group objects) gave them.
  var app: [UInt8]
  var thread: [UInt8]
  /// The number of records: from records, at most the records read; with `--merge`, each
  /// object is refused that would take it past `FieldLimits.largest` (`Grouper.roomFor`). So
  /// it, `unread` and `fresh` (at most `count`) add up without overflow.
  var count: Int
  var unread: Int
  var fresh: Int
  var latestAt: Timestamp
  var leaderKey: SortKey
  var leader: Contribution
  /// The leading record, compact.
  var leading: [UInt8]
  var moreWeight: Int64 = 0
  /// Whether a sum of weights (`moreWeight`, a category's) passed `FieldLimits.largest` and was
  /// saturated: notif-group warns (`WeightSaturated`) when it writes the group.
  var weightPassed = false
  var categories = StatTable()
  var summaryArgs = StatTable()
  /// The items kept, the first `--limit` in feed order or all of them; nil when they are not
  /// kept.
  var items: TopList<Item>?

  /// Adds a record's contribution to the statistics of the non-leading records.
  mutating func addMore(_ record: Contribution) {
    moreWeight = saturatingSum(moreWeight, record.weight, passed: &weightPassed)
    categories.add(
      record.category, count: 1, weight: record.weight, latestAt: record.createdAt,
      passed: &weightPassed)
    if record.summaryArg >= 0 {
      summaryArgs.add(
        record.summaryArg, count: 1, weight: 0, latestAt: record.createdAt, passed: &weightPassed)
    }
  }

  /// Makes `key`'s record the leading one; the one it replaces joins the non-leading
  /// statistics.
  mutating func replaceLeader(_ key: SortKey, _ record: Contribution, bytes: [UInt8]) {
    addMore(leader)
    leaderKey = key
    leader = record
    leading = bytes
  }

  /// Merges another part of the same group into this one: counts add up, the better leading
  /// record stays and the other joins the non-leading statistics, items are merged.
  /// `category` and `argument` give the numbers of `other`'s statistics in this group's tables
  /// (its leading record's are this group's already).
  mutating func merge(
    _ other: Group, ranking: Ranking, category: (Int32) -> Int32 = { $0 },
    argument: (Int32) -> Int32 = { $0 }
  ) {
    // Within `FieldLimits.largest`: see `count`.
    count += other.count
    unread += other.unread
    fresh += other.fresh
    if other.latestAt > latestAt { latestAt = other.latestAt }
    if ranking.precedes(other.leaderKey, leaderKey) {
      replaceLeader(other.leaderKey, other.leader, bytes: other.leading)
    } else {
      addMore(other.leader)
    }
    moreWeight = saturatingSum(moreWeight, other.moreWeight, passed: &weightPassed)
    weightPassed = weightPassed || other.weightPassed
    for stat in other.categories.entries {
      categories.add(
        category(stat.id), count: stat.count, weight: stat.weight, latestAt: stat.latestAt,
        passed: &weightPassed)
    }
    for stat in other.summaryArgs.entries {
      summaryArgs.add(
        argument(stat.id), count: stat.count, weight: 0, latestAt: stat.latestAt,
        passed: &weightPassed)
    }
    if let theirs = other.items, items != nil {
      for item in theirs.elements { items?.insert(item) }
    } else {
      items = nil
    }
  }
}
