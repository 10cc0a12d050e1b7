import NotifJSON
import NotifListing
import NotifModel

/// Reads group objects for `--merge`: checks each against the contract of notif(5) and turns
/// it into a `Group` to merge.
extension Grouper {
  /// Every key a group object may have, at the position of `GroupField.rawValue`. The ones
  /// notif-summarize adds (`GroupField.isSummary`) are accepted and dropped, so that summarized
  /// objects merge too.
  static let objectKeys = KeyList(GroupField.allCases.map(\.key))
  /// The keys of an entry of `more_categories`, at the position of their `rawValue`.
  static let categoryKeys = KeyList(GroupField.CategoryEntry.allCases.map(\.key))
  /// The keys of an entry of `more_summary_args`, at the position of their `rawValue`.
  static let argumentKeys = KeyList(GroupField.SummaryArgEntry.allCases.map(\.key))
  /// Checks the top level of a group object: every member notif-group writes is there, each
  /// of its kind and in its range (`latest_at` and `grouping` are read with the rest, below).
  /// `summary` and `hidden_summary` are not read: they are dropped.
  static let objectReader = GroupObjectReader(
    code: "BadGroupObject", requires: GroupField.required, reads: GroupField.required)

  /// Checks the group object at the root of `view` and merges it in; returns whether it
  /// records the options that made it (`grouping`: objects of an older notif-group do not).
  ///
  /// - Throws: `RecordProblem` (code `BadGroupObject`, or the record's own for the leading record
  ///   and items) when the object breaks the contract, `GroupingMismatch` when it was made with
  ///   options this merge cannot take exactly (see `MergeSettlement`); nothing is merged then.
  @discardableResult
  mutating func add(
    object view: JSONView, isCompact: Bool, fieldReader: inout RecordFieldReader
  ) throws(RecordProblem) -> Bool {
    guard view.kind(0) == .object else {
      throw .notAnObject
    }
    let members = GroupObjectMembers(view)
    if members[.leading] == nil && RecordFields(view).createdAt >= 0 {
      throw RecordProblem(
        code: "BadGroupObject",
        message: "a record, not a group object: --merge reads what notif-group writes",
        offset: 0)
    }
    if members.known < view.tokens[0].count {
      var unknown = 0
      view.forEachMember(of: 0) { key, _ in
        if unknown == 0 && Self.objectKeys.position(of: key, in: view) < 0 { unknown = key }
      }
      throw RecordProblem(
        code: "BadGroupObject", message: "unknown key '\(view.string(unknown))' in a group object",
        offset: Int(view.tokens[unknown].start))
    }
    let object = try Self.objectReader.check(view, members)
    // Each required, so found.
    func value(_ field: GroupField) -> Int { members[field] ?? 0 }
    let (app, thread, leading) = (value(.app), value(.threadID), object.leading)
    let (categories, arguments, items) = (
      value(.moreCategories), value(.moreSummaryArgs), value(.items)
    )
    let total = object.count
    let more = total - 1
    /// The count of `field`, a tally the reader read, which counts some of the records.
    func partOfCount(_ field: GroupField) throws(RecordProblem) -> Int64 {
      let number = object.number(field) ?? 0
      guard number <= total else {
        throw bad(FieldLimits.notInRange(field.key, 0...total), value(field), view)
      }
      return number
    }
    let unreadCount = try partOfCount(.unreadCount)
    let freshCount = try partOfCount(.newCount)
    let latestAt = try time(view, value(.latestAt), GroupField.latestAt.key, &fieldReader)
    let weight = object.number(.moreWeight) ?? 0

    let major = takeMajor()
    let leader = try record(view, leading, &fieldReader, major: major, minor: -1)

    // The leading record goes to the store once the object is merged (`add(part:)`).
    let leadingBytes = compactBytes(view, leading, isCompact: isCompact)
    var part = Group(
      count: Int(total), unread: Int(unreadCount), fresh: Int(freshCount), latestAt: latestAt,
      leaderKey: leader.key, leader: leader.contribution, leading: .empty, moreWeight: weight,
      items: nil)

    // What the entries add up to: every count is from 1 to `FieldLimits.largest`, so the sum
    // of counts is checked (nil once it passes the largest) and that of weights saturates, as
    // notif-group saturated `more_weight` (which says so already: no news to warn of).
    var countSum: Int64? = 0
    var weightSum: Int64 = 0
    var saturated = false
    try view.forEachElement(of: categories) { element throws(RecordProblem) in
      typealias Entry = GroupField.CategoryEntry
      let fields = try statFields(view, element, Self.categoryKeys)
      let name = fields[Entry.category.rawValue]
      let category = view.kind(name)
      guard category == .string || category == .null else {
        throw bad(
          "'\(Entry.category.key)' is \(category.phrase), not a string or null",
          name, view)
      }
      let id = category == .null ? -1 : internString(view, name, into: self.categories)
      let n = try integer(view, fields[Entry.count.rawValue], Entry.count.key, from: 1)
      let w = try integer(view, fields[Entry.weight.rawValue], Entry.weight.key, from: 1)
      countSum = countSum.flatMap { Self.checkedSum($0, n) }
      weightSum = saturatingSum(weightSum, w, passed: &saturated)
      var passed = part.weightPassed
      part.updateStats {
        $0.categories.add(
          id, count: Int(n), weight: w, latestAt: Timestamp(seconds: 0), passed: &passed)
      }
      part.weightPassed = passed
    }
    guard countSum == more, weightSum == weight else {
      throw bad(
        "'\(GroupField.moreCategories.key)' must add up to '\(GroupField.moreCount.key)' (\(more)) "
          + "and '\(GroupField.moreWeight.key)' (\(weight))", categories, view)
    }

    // Each non-leading record has one summary argument at most.
    var argumentSum: Int64? = 0
    try view.forEachElement(of: arguments) { element throws(RecordProblem) in
      typealias Entry = GroupField.SummaryArgEntry
      let fields = try statFields(view, element, Self.argumentKeys)
      let argument = fields[Entry.summaryArg.rawValue]
      guard view.kind(argument) == .string, view.rawString(argument).count > 0 else {
        throw bad(
          "'\(Entry.summaryArg.key)' is not a string of one character or more", argument, view)
      }
      let id = internString(view, argument, into: summaryArgs)
      let n = try integer(view, fields[Entry.count.rawValue], Entry.count.key, from: 1)
      let at = try time(
        view, fields[Entry.latestAt.rawValue], Entry.latestAt.key, &fieldReader)
      argumentSum = argumentSum.flatMap { Self.checkedSum($0, n) }
      guard let sum = argumentSum, sum <= more else {
        throw bad(
          "'\(GroupField.moreSummaryArgs.key)' counts more records than '\(GroupField.moreCount.key)' (\(more))",
          fields[Entry.count.rawValue], view)
      }
      var passed = part.weightPassed
      part.updateStats {
        $0.summaryArgs.add(id, count: Int(n), weight: 0, latestAt: at, passed: &passed)
      }
      part.weightPassed = passed
    }

    var list: [Item]? = nil
    if let items = object.value(.items) {
      var kept: [Item] = []
      var position = 0
      try Self.objectReader.forEachItem(view, of: items) { element throws(RecordProblem) in
        let item = try record(view, element, &fieldReader, major: major, minor: position)
        kept.append(Item(key: item.key, bytes: compactBytes(view, element, isCompact: isCompact)))
        position += 1
      }
      list = kept
    }
    let kept = list?.count ?? 0
    guard kept <= total else {
      throw bad(
        "'\(GroupField.items.key)' has \(kept) records, more than '\(GroupField.count.key)' (\(total))",
        items, view)
    }
    let expected = total - Int64(kept)
    guard object.number(.itemsOmitted) == expected else {
      throw bad(
        "'\(GroupField.itemsOmitted.key)' is not a whole number equal to \(expected)",
        value(.itemsOmitted), view)
    }
    var recorded: Grouping? = nil
    var offsets: [Int] = []
    if let grouping = members[.grouping] {
      recorded = try Grouping.read(view, grouping, offsets: &offsets, fieldReader: &fieldReader)
    }
    let settled = try settlement(recorded, hasItems: list != nil, offsets: offsets)
    if let merged = mergedCount(view, app: app, thread: thread, by: settled.effective.by),
      merged > Int(FieldLimits.largest) - part.count
    {
      throw RecordProblem(
        code: "GroupTooLarge",
        message:
          "'\(GroupField.count.key)' \(total) and the \(merged) merged before it add up to "
          + "more than \(FieldLimits.largest), the most a group counts",
        offset: Int(view.tokens[value(.count)].start))
    }
    adopt(settled)
    // Listed with the options as settled: the object may have just settled them.
    part.items = list.map { TopList($0, limit: options.limit, ranking: options.ranking) }
    add(part: part, leading: leadingBytes, view: view, app: app, thread: thread)
    return recorded != nil
  }

  /// The merge's options settled with the object's (`MergeSettlement.admit`), to `adopt` once
  /// the object is merged (one rejected settles nothing); or throws the `GroupingMismatch` that
  /// rejects the object.
  private func settlement(_ recorded: Grouping?, hasItems: Bool, offsets: [Int])
    throws(RecordProblem) -> (settlement: MergeSettlement, effective: Grouping)
  {
    var effective = Grouping(
      by: options.by, ranking: options.ranking, order: options.order, limit: options.limit,
      lastSeen: options.lastSeen, allPushes: options.allPushes)
    var trial = settlement
    do {
      try trial.admit(recorded, hasItems: hasItems && options.items, into: &effective)
    } catch {
      throw RecordProblem(
        code: "GroupingMismatch",
        message: error.message + ": merged, the groups would not be those of one run",
        offset: offsets.isEmpty ? 0 : offsets[error.entry.rawValue])
    }
    return (trial, effective)
  }

  /// Takes the options `settlement` settled.
  private mutating func adopt(
    _ settled: (settlement: MergeSettlement, effective: Grouping)
  ) {
    settlement = settled.settlement
    let effective = settled.effective
    options.by = effective.by
    options.ranking = effective.ranking
    options.order = effective.order
    if effective.limit != options.limit || effective.ranking != options.ranking {
      // Settled after groups were made (a limit, by an object after ones without `grouping`,
      // which settle none): the groups keep the items it keeps, as if known from the start.
      relist(limit: effective.limit, ranking: effective.ranking)
    }
    options.limit = effective.limit
    options.lastSeen = effective.lastSeen
    options.allPushes = effective.allPushes
  }

  private func bad(_ message: String, _ index: Int, _ view: JSONView) -> RecordProblem {
    RecordProblem(code: "BadGroupObject", message: message, offset: Int(view.tokens[index].start))
  }

  /// The whole number at `index`, from `low` to `FieldLimits.largest`, where every count and
  /// weight stops.
  private func integer(_ view: JSONView, _ index: Int, _ name: String, from low: Int64)
    throws(RecordProblem) -> Int64
  {
    let range = low...FieldLimits.largest
    guard let value = view.integer(index), range.contains(value) else {
      throw bad(FieldLimits.notInRange(name, range), index, view)
    }
    return value
  }

  /// `a + b`, or nil when that passes `FieldLimits.largest`.
  static func checkedSum(_ a: Int64, _ b: Int64) -> Int64? {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow || sum > FieldLimits.largest ? nil : sum
  }

  private func time(
    _ view: JSONView, _ index: Int, _ name: String, _ reader: inout RecordFieldReader
  ) throws(RecordProblem) -> Timestamp {
    do {
      return try reader.time(view, index, name: name)
    } catch {
      throw RecordProblem(code: "BadGroupObject", message: error.message, offset: error.offset)
    }
  }

  /// The values of the keys of `keys` (by position) of the object at `index`, which must have
  /// exactly those.
  private func statFields(_ view: JSONView, _ index: Int, _ keys: KeyList)
    throws(RecordProblem) -> [Int]
  {
    guard view.kind(index) == .object else {
      throw bad(
        "an entry is \(view.kind(index).phrase), not an object", index,
        view)
    }
    var fields = [Int](repeating: -1, count: keys.count)
    var problem: RecordProblem? = nil
    view.forEachMember(of: index) { key, value in
      guard problem == nil else { return }
      let slot = keys.position(of: key, in: view)
      if slot >= 0 {
        fields[slot] = value
      } else {
        problem = bad("unknown key '\(view.string(key))' in an entry", key, view)
      }
    }
    if let problem { throw problem }
    if let missing = fields.firstIndex(of: -1) {
      throw bad("an entry has no '\(keys.key(missing))'", index, view)
    }
    return fields
  }

  private mutating func internString(_ view: JSONView, _ index: Int, into table: ByteInterner)
    -> Int32
  {
    var decoded = ByteBuffer(capacity: 64)
    JSONEscapes.unescape(view.rawString(index), into: &decoded)
    return decoded.withUnsafeBytes { table.intern($0).id }
  }

  /// Checks a record inside a group object and reads its rank and contribution.
  private mutating func record(
    _ view: JSONView, _ index: Int, _ reader: inout RecordFieldReader, major: Int, minor: Int
  ) throws(RecordProblem) -> (key: SortKey, contribution: Contribution) {
    let fields = RecordFields(view, object: index)
    let facts = try reader.facts(view, fields, object: index)
    // The fields of the rule of what the device lists are checked as in a record read alone,
    // so that what notif-group writes, notif-summarize and notif-show read.
    _ = try DeviceListing.unlisted(view, fields.listing)
    let category =
      fields.category >= 0 && view.kind(fields.category) == .string
      ? internString(view, fields.category, into: categories) : -1
    var argument: Int32 = -1
    if fields.summaryArg >= 0 && view.kind(fields.summaryArg) == .string
      && view.rawString(fields.summaryArg).count > 0
    {
      argument = internString(view, fields.summaryArg, into: summaryArgs)
    }
    return (
      SortKey(createdAt: facts.createdAt, relevance: facts.relevance, major: major, minor: minor),
      Contribution(
        category: category, summaryArg: argument, weight: facts.weight,
        createdAt: facts.createdAt)
    )
  }
}
