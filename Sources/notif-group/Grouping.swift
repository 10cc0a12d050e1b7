import NotifJSON
import NotifListing
import NotifModel

/// The options that made a group object, as its `grouping` member records them: what
/// `--merge` compares, so that it never merges objects that one run would not have made.
struct Grouping: Equatable, Sendable {
  var by: GroupOptions.Key
  var ranking: Ranking
  var order: ListOrder
  /// `--item-limit`; nil without one, and always nil for objects without items.
  var limit: Int?
  var lastSeen: Timestamp?
  /// `--all-pushes`: whether the records the device does not list were grouped too. An object
  /// of a notif-group older than the option, whose `grouping` has no `all_pushes`, grouped
  /// them all: it reads as true.
  var allPushes = false
  /// Whether `allPushes` was read from an object whose `grouping` has no `all_pushes`.
  var allPushesImplied = false

  /// The keys of `grouping`, at the position of their `rawValue`.
  static let keys = KeyList(GroupField.GroupingEntry.allCases.map(\.key))

  /// How coarse a key is: a merge may join the groups of a finer key (records of one thread,
  /// or one record) into those of a coarser one, never split them.
  static func coarseness(_ key: GroupOptions.Key) -> Int {
    switch key {
    case .none: return 0
    case .thread: return 1
    case .app: return 2
    }
  }

  /// Appends `,"grouping":{...}` to `out`.
  func write(into out: inout ByteBuffer) {
    typealias Entry = GroupField.GroupingEntry
    out.append(Grouper.objectKeys.memberStart(GroupField.grouping.rawValue))
    out.append(Self.keys.memberStart(Entry.by.rawValue))
    JSONEscapes.writeString(by.rawValue, into: &out)
    out.append(Self.keys.memberStart(Entry.sort.rawValue))
    JSONEscapes.writeString(ranking.rawValue, into: &out)
    out.append(Self.keys.memberStart(Entry.order.rawValue))
    JSONEscapes.writeString(order.rawValue, into: &out)
    out.append(Self.keys.memberStart(Entry.limit.rawValue))
    if let limit { out.append(decimal: Int64(limit)) } else { out.append("null") }
    out.append(Self.keys.memberStart(Entry.lastSeen.rawValue))
    if let lastSeen {
      out.append(UInt8(ascii: "\""))
      lastSeen.write(into: &out)
      out.append(UInt8(ascii: "\""))
    } else {
      out.append("null")
    }
    out.append(Self.keys.memberStart(Entry.allPushes.rawValue))
    out.append(allPushes ? "true" : "false")
    out.append(UInt8(ascii: "}"))
  }

  /// The options as a command line would give them: `--by app`, `--item-limit 3`, `no --item-limit`.
  static func describe(_ entry: GroupField.GroupingEntry, of grouping: Grouping) -> String {
    switch entry {
    case .by: return "--by \(grouping.by.rawValue)"
    case .sort: return "--sort \(grouping.ranking.rawValue)"
    case .order: return "--order \(grouping.order.rawValue)"
    case .limit: return grouping.limit.map { "--item-limit \($0)" } ?? "no --item-limit"
    case .lastSeen: return grouping.lastSeen.map { "--last-seen \($0)" } ?? "no --last-seen"
    case .allPushes:
      if grouping.allPushesImplied {
        return "every push, by a notif-group older than --all-pushes"
      }
      return grouping.allPushes ? "--all-pushes" : "no --all-pushes"
    }
  }

  /// Reads the `grouping` object at `index` of `view`; the byte offsets of its values, by
  /// `GroupField.GroupingEntry.rawValue`, go to `offsets`.
  ///
  /// - Throws: `RecordProblem` (`BadGroupObject`) when it is not an object of exactly the six keys
  ///   with values notif-group can write (`all_pushes` may be missing: see `allPushes`).
  static func read(
    _ view: JSONView, _ index: Int, offsets: inout [Int], fieldReader: inout RecordFieldReader
  ) throws(RecordProblem) -> Grouping {
    typealias Entry = GroupField.GroupingEntry
    func bad(_ message: String, _ at: Int) -> RecordProblem {
      RecordProblem(code: "BadGroupObject", message: message, offset: Int(view.tokens[at].start))
    }
    let name = GroupField.grouping.key
    guard view.kind(index) == .object else {
      throw bad("'\(name)' is \(view.kind(index).phrase), not an object", index)
    }
    var found = [Int](repeating: -1, count: Entry.allCases.count)
    var unknown = -1
    view.forEachMember(of: index) { key, value in
      let position = keys.position(of: key, in: view)
      if position >= 0 {
        found[position] = value
      } else if unknown < 0 {
        unknown = key
      }
    }
    if unknown >= 0 {
      throw bad("unknown key '\(view.string(unknown))' in '\(name)'", unknown)
    }
    if let missing = found.firstIndex(of: -1), missing != Entry.allPushes.rawValue {
      throw bad("'\(name)' has no '\(Entry.allCases[missing].key)'", index)
    }
    // A missing `all_pushes` is pointed at where it would be: the object.
    offsets = found.map { Int(view.tokens[$0 >= 0 ? $0 : index].start) }
    func word(_ entry: Entry, _ allowed: String) throws(RecordProblem) -> String {
      let at = found[entry.rawValue]
      guard let text = view.stringValue(at) else {
        throw bad("'\(name).\(entry.key)' is not \(allowed)", at)
      }
      return text
    }
    let byText = try word(.by, "thread, app or none")
    guard let by = GroupOptions.Key(rawValue: byText) else {
      throw bad("'\(name).by' is not thread, app or none", found[Entry.by.rawValue])
    }
    guard let ranking = Ranking(rawValue: try word(.sort, "time or relevance")) else {
      throw bad("'\(name).sort' is not time or relevance", found[Entry.sort.rawValue])
    }
    guard let order = ListOrder(rawValue: try word(.order, "feed or chat")) else {
      throw bad("'\(name).order' is not feed or chat", found[Entry.order.rawValue])
    }
    var limit: Int? = nil
    let limitIndex = found[Entry.limit.rawValue]
    if view.kind(limitIndex) != .null {
      guard let value = view.integer(limitIndex), FieldLimits.positive.contains(value) else {
        throw bad(
          "\(FieldLimits.notInRange("\(name).limit", FieldLimits.positive)), nor null", limitIndex)
      }
      limit = Int(value)
    }
    var lastSeen: Timestamp? = nil
    let lastSeenIndex = found[Entry.lastSeen.rawValue]
    if view.kind(lastSeenIndex) != .null {
      do {
        lastSeen = try fieldReader.time(view, lastSeenIndex, name: "\(name).last_seen")
      } catch {
        throw RecordProblem(code: "BadGroupObject", message: error.message, offset: error.offset)
      }
    }
    var allPushes = true  // made before the option: every record grouped
    let allPushesIndex = found[Entry.allPushes.rawValue]
    if allPushesIndex >= 0 {
      guard let value = view.bool(allPushesIndex) else {
        throw bad("'\(name).all_pushes' is not true or false", allPushesIndex)
      }
      allPushes = value
    }
    return Grouping(
      by: by, ranking: ranking, order: order, limit: limit, lastSeen: lastSeen,
      allPushes: allPushes, allPushesImplied: allPushesIndex < 0)
  }
}

/// The options a merge works with, settled from its command line and the first group object
/// that records its own, and what each object read must agree with.
struct MergeSettlement {
  /// Which of `--by`, `--sort`, `--order` and `--item-limit` the command line gave.
  var given: Set<GroupField.GroupingEntry>
  /// Whether the options are settled: by the first group object, recorded or not.
  private(set) var isSettled = false
  /// Whether the limit is settled: by the command line, or the first object with items.
  private var limitIsSettled = false
  /// Whether `--last-seen` is known: from the first object that records its options.
  private var lastSeenIsSettled = false
  /// Whether `--all-pushes` is known: from the command line, or the first object that records
  /// its options.
  private var allPushesIsSettled = false

  init(given: Set<GroupField.GroupingEntry>) {
    self.given = given
    limitIsSettled = given.contains(.limit)
    allPushesIsSettled = given.contains(.allPushes)
  }

  /// A group object's options that a merge with `effective` cannot take exactly.
  struct Mismatch: Error {
    var entry: GroupField.GroupingEntry
    var message: String
  }

  /// Settles what is not settled yet in `effective` from `recorded` (nil for an object without
  /// `grouping`), then checks `recorded` against `effective`.
  ///
  /// A merge joins objects exactly when they rank alike (`--sort`), count alike
  /// (`--last-seen`) and drew from the same records (`--all-pushes`); the command line may coarsen `--by` (thread into app), reorder the items
  /// (`--order`), and cut them shorter (`--item-limit`); whatever it does not give comes from the
  /// first object, and every object must then match it.
  mutating func admit(
    _ recorded: Grouping?, hasItems: Bool, into effective: inout Grouping
  ) throws(Mismatch) {
    typealias Entry = GroupField.GroupingEntry
    if !isSettled {
      isSettled = true
      if let recorded {
        if !given.contains(.by) { effective.by = recorded.by }
        if !given.contains(.sort) { effective.ranking = recorded.ranking }
        if !given.contains(.order) { effective.order = recorded.order }
      }
    }
    guard let recorded else { return }
    if !lastSeenIsSettled {
      lastSeenIsSettled = true
      effective.lastSeen = recorded.lastSeen
    }
    if !allPushesIsSettled {
      allPushesIsSettled = true
      effective.allPushes = recorded.allPushes
      effective.allPushesImplied = recorded.allPushesImplied
    }
    if hasItems && !limitIsSettled {
      limitIsSettled = true
      effective.limit = recorded.limit
    }
    func source(_ entry: Entry) -> String {
      given.contains(entry)
        ? "this merge's \(Grouping.describe(entry, of: effective))"
        : "\(Grouping.describe(entry, of: effective)) as the group objects before it"
    }
    func mismatch(_ entry: Entry, _ why: String) -> Mismatch {
      Mismatch(
        entry: entry, message: "made with \(Grouping.describe(entry, of: recorded)), \(why)")
    }
    if recorded.ranking != effective.ranking {
      throw mismatch(.sort, "not \(source(.sort))")
    }
    if recorded.lastSeen != effective.lastSeen {
      throw mismatch(.lastSeen, "not \(source(.lastSeen))")
    }
    if recorded.allPushes != effective.allPushes {
      throw mismatch(.allPushes, "not \(source(.allPushes))")
    }
    if given.contains(.by) {
      if Grouping.coarseness(recorded.by) > Grouping.coarseness(effective.by) {
        throw mismatch(.by, "which \(source(.by)) cannot split")
      }
    } else if recorded.by != effective.by {
      throw mismatch(.by, "not \(source(.by))")
    }
    if !given.contains(.order) && recorded.order != effective.order {
      throw mismatch(.order, "not \(source(.order))")
    }
    guard hasItems else { return }
    if given.contains(.limit) {
      if let have = recorded.limit, let want = effective.limit, have < want {
        throw mismatch(.limit, "which \(source(.limit)) cannot fill")
      }
    } else if recorded.limit != effective.limit {
      throw mismatch(.limit, "not \(source(.limit))")
    }
  }
}
