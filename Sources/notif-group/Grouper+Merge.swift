import NotifJSON
import NotifModel

/// Reads group objects for `--merge`: checks each against the contract of notif(5) and turns
/// it into a `Group` to merge.
extension Grouper {
  /// The keys of a group object, in the order they are written.
  static let objectKeys: [String] = [
    "app", "thread_id", "count", "unread_count", "new_count", "latest_at", "leading",
    "more_count", "more_weight", "more_categories", "more_summary_args", "items", "items_omitted",
  ]

  /// Keys notif-summarize appends, accepted and dropped, so that summarized objects merge too.
  static let summarizeKeys: Set<String> = ["summary", "hidden_summary"]

  /// Checks the group object at the root of `view` and merges it in.
  ///
  /// - Throws: `Problem` (code `BadGroupObject`, or the record's own for the leading record
  ///   and items) when the object breaks the contract; nothing is merged then.
  mutating func add(
    object view: JSONView, isCompact: Bool, fieldReader: inout FieldReader
  ) throws(Problem) {
    guard view.kind(0) == .object else {
      throw Problem(code: "NotAnObject", message: "the JSON text is not an object", offset: 0)
    }
    if view.member(0, "created_at") != nil && view.member(0, "leading") == nil {
      throw Problem(
        code: "BadGroupObject",
        message: "a record, not a group object: --merge reads what notif-group writes",
        offset: 0)
    }
    var found = [Int](repeating: -1, count: Self.objectKeys.count)
    var problem: Problem? = nil
    view.forEachMember(of: 0) { key, value in
      guard problem == nil else { return }
      let name = view.string(key)
      if let slot = Self.objectKeys.firstIndex(of: name) {
        found[slot] = value
      } else if !Self.summarizeKeys.contains(name) {
        problem = Problem(
          code: "BadGroupObject", message: "unknown key '\(name)' in a group object",
          offset: Int(view.tokens[key].start))
      }
    }
    if let problem { throw problem }
    if let missing = found.firstIndex(of: -1) {
      throw bad("the group object has no '\(Self.objectKeys[missing])'", 0, view)
    }
    let (app, thread, count, unread, fresh, latest, leading) = (
      found[0], found[1], found[2], found[3], found[4], found[5], found[6]
    )
    let (moreCount, moreWeight, categories, arguments, items, omitted) = (
      found[7], found[8], found[9], found[10], found[11], found[12]
    )
    for (index, name) in [(app, "app"), (thread, "thread_id")]
    where view.kind(index) != .string && view.kind(index) != .null {
      throw bad(
        "'\(name)' is \(FieldReader.kindName(view.kind(index))), not a string or null",
        index, view)
    }
    let total = try integer(view, count, "count", from: 1)
    let unreadCount = try integer(view, unread, "unread_count", from: 0, to: total)
    let freshCount = try integer(view, fresh, "new_count", from: 0, to: total)
    let latestAt = try time(view, latest, "latest_at", &fieldReader)
    _ = try integer(view, moreCount, "more_count", from: total - 1, to: total - 1)
    let weight = try integer(view, moreWeight, "more_weight", from: 0)

    let major = takeMajor()
    guard view.kind(leading) == .object else {
      throw bad(
        "'leading' is \(FieldReader.kindName(view.kind(leading))), not an object",
        leading, view)
    }
    let leader = try record(view, leading, &fieldReader, major: major, minor: -1)

    var part = Group(
      app: compactBytes(view, app, isCompact: false),
      thread: compactBytes(view, thread, isCompact: false),
      count: Int(total), unread: Int(unreadCount), fresh: Int(freshCount), latestAt: latestAt,
      leaderKey: leader.key, leader: leader.contribution,
      leading: compactBytes(view, leading, isCompact: isCompact), moreWeight: weight, items: nil)

    try expectArray(view, categories, "more_categories")
    var statProblem: Problem? = nil
    view.forEachElement(of: categories) { element in
      guard statProblem == nil else { return }
      do throws(Problem) {
        let fields = try statFields(view, element, ["category", "count", "weight"])
        let category = view.kind(fields[0])
        guard category == .string || category == .null else {
          throw bad(
            "'category' is \(FieldReader.kindName(category)), not a string or null",
            fields[0], view)
        }
        let id = category == .null ? -1 : internString(view, fields[0], into: self.categories)
        let n = try integer(view, fields[1], "count", from: 1)
        let w = try integer(view, fields[2], "weight", from: 1)
        part.categories.add(id, count: Int(n), weight: w, latestAt: Timestamp(seconds: 0))
      } catch {
        statProblem = error
      }
    }
    if let statProblem { throw statProblem }

    try expectArray(view, arguments, "more_summary_args")
    view.forEachElement(of: arguments) { element in
      guard statProblem == nil else { return }
      do throws(Problem) {
        let fields = try statFields(view, element, ["summary_arg", "count", "latest_at"])
        guard view.kind(fields[0]) == .string, view.rawString(fields[0]).count > 0 else {
          throw bad("'summary_arg' is not a string of one character or more", fields[0], view)
        }
        let id = internString(view, fields[0], into: summaryArgs)
        let n = try integer(view, fields[1], "count", from: 1)
        let at = try time(view, fields[2], "latest_at", &fieldReader)
        part.summaryArgs.add(id, count: Int(n), weight: 0, latestAt: at)
      } catch {
        statProblem = error
      }
    }
    if let statProblem { throw statProblem }

    var kept = 0
    switch view.kind(items) {
    case .null: break
    case .array:
      var list: [Item] = []
      var position = 0
      var itemProblem: Problem? = nil
      view.forEachElement(of: items) { element in
        guard itemProblem == nil else { return }
        do throws(Problem) {
          guard view.kind(element) == .object else {
            throw bad(
              "an item is \(FieldReader.kindName(view.kind(element))), not an object",
              element, view)
          }
          let item = try record(view, element, &fieldReader, major: major, minor: position)
          list.append(Item(key: item.key, bytes: compactBytes(view, element, isCompact: isCompact)))
          position += 1
        } catch {
          itemProblem = error
        }
      }
      if let itemProblem { throw itemProblem }
      kept = list.count
      part.items = list
    default:
      throw bad(
        "'items' is \(FieldReader.kindName(view.kind(items))), not an array or null",
        items, view)
    }
    guard kept <= total else {
      throw bad("'items' has \(kept) records, more than 'count' (\(total))", items, view)
    }
    let expected = total - Int64(kept)
    _ = try integer(view, omitted, "items_omitted", from: expected, to: expected)
    add(part: part, view: view, app: app, thread: thread)
  }

  private func bad(_ message: String, _ index: Int, _ view: JSONView) -> Problem {
    Problem(code: "BadGroupObject", message: message, offset: Int(view.tokens[index].start))
  }

  private func integer(
    _ view: JSONView, _ index: Int, _ name: String, from low: Int64, to high: Int64 = .max
  ) throws(Problem) -> Int64 {
    guard let value = view.integer(index), value >= low, value <= high else {
      let range =
        low == high
        ? "equal to \(low)" : high == .max ? "of \(low) or more" : "from \(low) to \(high)"
      throw bad("'\(name)' is not a whole number \(range)", index, view)
    }
    return value
  }

  private func time(
    _ view: JSONView, _ index: Int, _ name: String, _ reader: inout FieldReader
  ) throws(Problem) -> Timestamp {
    do {
      return try reader.time(view, index, name: name)
    } catch {
      throw Problem(code: "BadGroupObject", message: error.message, offset: error.offset)
    }
  }

  private func expectArray(_ view: JSONView, _ index: Int, _ name: String) throws(Problem) {
    guard view.kind(index) == .array else {
      throw bad(
        "'\(name)' is \(FieldReader.kindName(view.kind(index))), not an array", index,
        view)
    }
  }

  /// The values of the keys `names` of the object at `index`, which must have exactly those.
  private func statFields(_ view: JSONView, _ index: Int, _ names: [String]) throws(Problem)
    -> [Int]
  {
    guard view.kind(index) == .object else {
      throw bad(
        "an entry is \(FieldReader.kindName(view.kind(index))), not an object", index,
        view)
    }
    var fields = [Int](repeating: -1, count: names.count)
    var problem: Problem? = nil
    view.forEachMember(of: index) { key, value in
      guard problem == nil else { return }
      let name = view.string(key)
      if let slot = names.firstIndex(of: name) {
        fields[slot] = value
      } else {
        problem = bad("unknown key '\(name)' in an entry", key, view)
      }
    }
    if let problem { throw problem }
    if let missing = fields.firstIndex(of: -1) {
      throw bad("an entry has no '\(names[missing])'", index, view)
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
    _ view: JSONView, _ index: Int, _ reader: inout FieldReader, major: Int, minor: Int
  ) throws(Problem) -> (key: SortKey, contribution: Contribution) {
    let fields = RecordFields(view, object: index)
    let facts = try reader.facts(view, fields, object: index)
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
