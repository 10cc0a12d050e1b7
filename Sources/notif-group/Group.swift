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

/// The counts of a group's non-leading records by category and by summary argument.
struct MoreStats {
  var categories = StatTable()
  var summaryArgs = StatTable()
}

/// One group as it is being built: from records, or from group objects being merged.
///
/// Kept small, for a run may hold millions (about 150 bytes here, its key and leading record
/// besides): the group's `app` and `thread_id` are written from its key in the grouper's key
/// table, its leading record lives in the grouper's `RecordStore`, and what most groups of one
/// record never need (statistics, items) sits in an array of none or one, which costs a
/// pointer until it is used.
struct Group {
  /// The number of records: from records, at most the records read; with `--merge`, each
  /// object is refused that would take it past `FieldLimits.largest` (`Grouper.roomFor`). So
  /// it, `unread` and `fresh` (at most `count`) add up without overflow.
  var count: Int
  var unread: Int
  var fresh: Int
  var latestAt: Timestamp
  var leaderKey: SortKey
  /// The leading record's `summary_arg_count` as counted; its category and summary argument
  /// are `leaderCategory` and `leaderArg`, its `created_at` the key's.
  private var leaderWeight: Int64
  var moreWeight: Int64 = 0
  /// The leading record, compact, in the grouper's store.
  var leading: RecordStore.Slot
  private var stats: [MoreStats] = []
  private var itemList: [TopList<Item>] = []
  private var leaderCategory: Int32
  private var leaderArg: Int32
  /// Whether a sum of weights (`moreWeight`, a category's) passed `FieldLimits.largest` and was
  /// saturated: notif-group warns (`WeightSaturated`) when it writes the group.
  var weightPassed = false

  init(
    count: Int, unread: Int, fresh: Int, latestAt: Timestamp, leaderKey: SortKey,
    leader: Contribution, leading: RecordStore.Slot, moreWeight: Int64 = 0,
    items: TopList<Item>?
  ) {
    self.count = count
    self.unread = unread
    self.fresh = fresh
    self.latestAt = latestAt
    self.leaderKey = leaderKey
    leaderWeight = leader.weight
    leaderCategory = leader.category
    leaderArg = leader.summaryArg
    self.moreWeight = moreWeight
    self.leading = leading
    if let items { itemList = [items] }
  }

  /// What the leading record adds to the statistics once another leads.
  var leader: Contribution {
    Contribution(
      category: leaderCategory, summaryArg: leaderArg, weight: leaderWeight,
      createdAt: leaderKey.createdAt)
  }

  /// Gives the leading record's category and summary argument the numbers `category` and
  /// `argument` map theirs to.
  mutating func renumberLeader(category: (Int32) -> Int32, argument: (Int32) -> Int32) {
    leaderCategory = category(leaderCategory)
    leaderArg = argument(leaderArg)
  }

  var categories: StatTable { stats.first?.categories ?? StatTable() }
  var summaryArgs: StatTable { stats.first?.summaryArgs ?? StatTable() }

  /// Gives the statistics' categories and summary arguments the numbers `category` and
  /// `argument` map theirs to; distinct numbers stay distinct.
  mutating func renumberStats(category: (Int32) -> Int32, argument: (Int32) -> Int32) {
    guard !stats.isEmpty else { return }
    stats[0].categories.renumber(category)
    stats[0].summaryArgs.renumber(argument)
  }

  /// Changes the statistics in place, made when first needed.
  mutating func updateStats(_ body: (inout MoreStats) -> Void) {
    if stats.isEmpty { stats.append(MoreStats()) }
    body(&stats[0])
  }

  /// The items kept, the first `--item-limit` in feed order or all of them; nil when they are not
  /// kept.
  var items: TopList<Item>? {
    get { itemList.first }
    set { itemList = newValue.map { [$0] } ?? [] }
  }

  /// Adds an item, when items are kept.
  mutating func insertItem(_ item: Item) {
    if !itemList.isEmpty { itemList[0].insert(item) }
  }

  /// Whether the items kept would keep one of `key`; nil when items are not kept.
  func admitsItem(_ key: SortKey) -> Bool? {
    itemList.first?.admits(key)
  }

  /// The number of categories and summary arguments in the statistics.
  var statCount: Int {
    stats.isEmpty ? 0 : stats[0].categories.entries.count + stats[0].summaryArgs.entries.count
  }

  /// The bytes of the items kept, and a comma for each.
  var itemBytes: Int {
    guard !itemList.isEmpty else { return 0 }
    var bytes = 0
    for item in itemList[0].elements { bytes += item.bytes.count + 1 }
    return bytes
  }

  /// Lets go of the items, once written.
  mutating func removeItems() {
    if !itemList.isEmpty { itemList[0].removeAll() }
  }

  /// Adds a record's contribution to the statistics of the non-leading records.
  mutating func addMore(_ record: Contribution) {
    moreWeight = saturatingSum(moreWeight, record.weight, passed: &weightPassed)
    var passed = weightPassed
    updateStats { stats in
      stats.categories.add(
        record.category, count: 1, weight: record.weight, latestAt: record.createdAt,
        passed: &passed)
      if record.summaryArg >= 0 {
        stats.summaryArgs.add(
          record.summaryArg, count: 1, weight: 0, latestAt: record.createdAt, passed: &passed)
      }
    }
    weightPassed = passed
  }

  /// Makes `key`'s record the leading one; the one it replaces joins the non-leading
  /// statistics. The caller puts its bytes in `leading`.
  mutating func replaceLeader(_ key: SortKey, _ record: Contribution) {
    addMore(leader)
    leaderKey = key
    leaderWeight = record.weight
    leaderCategory = record.category
    leaderArg = record.summaryArg
  }

  /// Merges another part of the same group into this one: counts add up, the better leading
  /// record stays and the other joins the non-leading statistics, items are merged.
  /// `category` and `argument` give the numbers of `other`'s statistics in this group's tables
  /// (its leading record's are this group's already). Returns whether `other`'s leading record
  /// leads now: the caller then puts its bytes in `leading`.
  mutating func merge(
    _ other: Group, ranking: Ranking, category: (Int32) -> Int32 = { $0 },
    argument: (Int32) -> Int32 = { $0 }
  ) -> Bool {
    // Within `FieldLimits.largest`: see `count`.
    count += other.count
    unread += other.unread
    fresh += other.fresh
    if other.latestAt > latestAt { latestAt = other.latestAt }
    let leads = ranking.precedes(other.leaderKey, leaderKey)
    if leads {
      replaceLeader(other.leaderKey, other.leader)
    } else {
      addMore(other.leader)
    }
    moreWeight = saturatingSum(moreWeight, other.moreWeight, passed: &weightPassed)
    var passed = weightPassed || other.weightPassed
    if let theirs = other.stats.first {
      updateStats { stats in
        for stat in theirs.categories.entries {
          stats.categories.add(
            category(stat.id), count: stat.count, weight: stat.weight, latestAt: stat.latestAt,
            passed: &passed)
        }
        for stat in theirs.summaryArgs.entries {
          stats.summaryArgs.add(
            argument(stat.id), count: stat.count, weight: 0, latestAt: stat.latestAt,
            passed: &passed)
        }
      }
    }
    weightPassed = passed
    if let theirs = other.items, !itemList.isEmpty {
      for item in theirs.elements { itemList[0].insert(item) }
    } else {
      itemList = []
    }
    return leads
  }
}
