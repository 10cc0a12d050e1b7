import NotifJSON
import NotifModel

/// Reads what a summary needs from a group object (the contract `notif-group` writes: see
/// `notif-summarize(1)`), checking the shape of what it reads.
enum GroupObject {
  /// The keys every group object has, in order.
  static let keys: [StaticString] = [
    "app", "thread_id", "count", "unread_count", "new_count", "latest_at", "leading",
    "more_count", "more_weight", "more_categories", "more_summary_args", "items", "items_omitted",
  ]

  /// Something wrong with a group object, at a byte offset in it.
  struct Problem: Error, Equatable {
    var offset: Int
    var code: String
    var message: String
  }

  /// The facts of the group at the root of `view`; a problem with the leading record's
  /// `summary_arg_count` (a warning) goes to `warning`.
  static func read(_ view: JSONView, profile: Profile, warning: inout Problem?) throws(Problem)
    -> GroupFacts
  {
    func at(_ index: Int) -> Int { Int(view.tokens[index].start) }
    func bad(_ index: Int, _ message: String) -> Problem {
      Problem(offset: at(index), code: "BadGroup", message: message)
    }
    guard view.kind(0) == .object else {
      throw bad(0, "not a group object: a group object is a JSON object (notif-group writes them)")
    }
    // Indexes into `keys`: 2 count, 6 leading, 7 more_count, 8 more_weight, 9 more_categories,
    // 10 more_summary_args.
    // One pass over the members: the contract fixes their order, so each is first compared with
    // the key expected at its position.
    var found = [Int](repeating: 0, count: keys.count)
    var position = 0
    view.forEachMember(of: 0) { key, value in
      if position < keys.count && view.keyEquals(key, keys[position]) {
        found[position] = value
      } else if let other = keys.firstIndex(where: { view.keyEquals(key, $0) }) {
        found[other] = value
      }
      position += 1
    }
    if let missing = found.firstIndex(of: 0) {
      throw bad(0, "not a group object: the key '\(keys[missing])' is missing")
    }
    func integer(_ index: Int, _ name: String, minimum: Int64) throws(Problem) -> Int {
      guard let value = view.integer(index), value >= minimum, value <= Int64(Int32.max) else {
        throw bad(index, "'\(name)' must be an integer of at least \(minimum)")
      }
      return Int(value)
    }
    let count = try integer(found[2], "count", minimum: 1)
    let moreCount = try integer(found[7], "more_count", minimum: 0)
    let moreWeight = try integer(found[8], "more_weight", minimum: 0)
    guard moreCount == count - 1 else {
      throw bad(found[7], "'more_count' must be 'count' - 1")
    }
    let leading = found[6]
    guard view.kind(leading) == .object else {
      throw bad(leading, "'leading' must be the leading record, an object")
    }
    var leadingCategory: String? = nil
    if let index = view.member(leading, "category"), view.kind(index) != .null {
      guard let text = view.stringValue(index) else {
        throw bad(index, "the leading record's 'category' must be a string or null")
      }
      leadingCategory = text
    }
    var leadingWeight = 1
    if profile == .ios12, let index = view.member(leading, "summary_arg_count"),
      view.kind(index) != .null
    {
      if let value = view.integer(index), value > 0, value <= Int64(Int32.max) {
        leadingWeight = Int(value)
      } else {
        warning = Problem(
          offset: at(index), code: "BadSummaryArgCount",
          message:
            "the leading record's summary_arg_count '\(String(decoding: view.raw(index), as: UTF8.self))' is not a positive integer: counted as 1"
        )
      }
    }
    let categoriesIndex = found[9]
    guard view.kind(categoriesIndex) == .array else {
      throw bad(categoriesIndex, "'more_categories' must be an array")
    }
    var categories: [GroupFacts.CategoryCount] = []
    var failure: Problem? = nil
    view.forEachElement(of: categoriesIndex) { element in
      guard failure == nil else { return }
      do throws(Problem) {
        guard view.kind(element) == .object, let name = view.member(element, "category"),
          let countIndex = view.member(element, "count"),
          let weightIndex = view.member(element, "weight")
        else {
          throw bad(
            element, "an element of 'more_categories' must be {\"category\",\"count\",\"weight\"}")
        }
        var category: String? = nil
        if view.kind(name) != .null {
          guard let text = view.stringValue(name) else {
            throw bad(name, "a 'category' in 'more_categories' must be a string or null")
          }
          category = text
        }
        categories.append(
          GroupFacts.CategoryCount(
            category: category, count: try integer(countIndex, "count", minimum: 1),
            weight: try integer(weightIndex, "weight", minimum: 1)))
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    guard categories.reduce(0, { $0 + $1.count }) == moreCount,
      categories.reduce(0, { $0 + $1.weight }) == moreWeight
    else {
      throw bad(
        categoriesIndex,
        "'more_categories' must add up to 'more_count' (\(moreCount)) and 'more_weight' (\(moreWeight))"
      )
    }
    let argumentsIndex = found[10]
    guard view.kind(argumentsIndex) == .array else {
      throw bad(argumentsIndex, "'more_summary_args' must be an array")
    }
    var arguments: [String] = []
    if profile == .ios12 {
      view.forEachElement(of: argumentsIndex) { element in
        guard failure == nil else { return }
        guard view.kind(element) == .object, let value = view.member(element, "summary_arg"),
          let text = view.stringValue(value)
        else {
          failure = bad(
            element, "an element of 'more_summary_args' must be {\"summary_arg\": string, ...}")
          return
        }
        if !text.isEmpty { arguments.append(text) }
      }
    }
    if let failure { throw failure }
    return GroupFacts(
      count: count, moreCount: moreCount, moreWeight: moreWeight, moreCategories: categories,
      moreArguments: arguments, leadingCategory: leadingCategory, leadingWeight: leadingWeight)
  }

  /// Writes the group object with `summary` and `hidden_summary` last (replacing them if it
  /// has them), compact, and a newline.
  static func write(
    _ view: JSONView, isCompact: Bool, summary: String?, hidden: String?,
    into out: inout ByteBuffer
  ) {
    let hasOld = view.member(0, "summary") != nil || view.member(0, "hidden_summary") != nil
    if isCompact && !hasOld {
      let raw = view.raw(0)
      out.append(UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 1)]))
      if view.tokens[0].count > 0 { out.append(UInt8(ascii: ",")) }
    } else {
      out.append(UInt8(ascii: "{"))
      view.forEachMember(of: 0) { key, value in
        if view.keyEquals(key, "summary") || view.keyEquals(key, "hidden_summary") { return }
        JSONEscapes.writeCanonical(
          raw: view.rawString(key), escaped: view.tokens[key].flag, into: &out)
        out.append(UInt8(ascii: ":"))
        JSONWriter.writeCompact(view, value, into: &out)
        out.append(UInt8(ascii: ","))
      }
    }
    out.append("\"summary\":")
    if let summary { JSONEscapes.writeString(summary, into: &out) } else { out.append("null") }
    out.append(",\"hidden_summary\":")
    if let hidden { JSONEscapes.writeString(hidden, into: &out) } else { out.append("null") }
    out.append("}\n")
  }
}
