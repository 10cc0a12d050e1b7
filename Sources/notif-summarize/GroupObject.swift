import NotifJSON
import NotifListing
import NotifModel

/// Reads what a summary needs from a group object (the contract `notif-group` writes: see
/// `notif-summarize(1)`), checking the shape of what it reads.
enum GroupObject {
  // Keys as bytes, made once from their definitions in NotifModel (`GroupField`,
  // `RecordField`): every group object is matched against them without building a `String`.
  private static let summaryKey = Array(GroupField.summary.key.utf8)
  private static let hiddenSummaryKey = Array(GroupField.hiddenSummary.key.utf8)
  private static let entryCategoryKey = Array(GroupField.CategoryEntry.category.key.utf8)
  private static let entryCountKey = Array(GroupField.CategoryEntry.count.key.utf8)
  private static let entryWeightKey = Array(GroupField.CategoryEntry.weight.key.utf8)
  private static let entrySummaryArgKey = Array(GroupField.SummaryArgEntry.summaryArg.key.utf8)
  /// `"summary":` and `,"hidden_summary":`, written after the other keys.
  private static let summaryStart = Array("\"\(GroupField.summary.key)\":".utf8)
  private static let hiddenSummaryStart = Array(",\"\(GroupField.hiddenSummary.key)\":".utf8)

  /// Checks what notif-summarize reads of the top level of a group object: every member
  /// notif-group writes must be there; the counts and weight a summary says, the leading
  /// record and the arrays it reads are checked.
  static let reader = GroupObjectReader(
    code: "BadGroup", requires: GroupField.required,
    reads: [.count, .leading, .moreCount, .moreWeight, .moreCategories, .moreSummaryArgs])

  /// A group object as `read` found it: the facts of its summary, and where its members are,
  /// which `listing` and the writer use without a second look at its keys.
  struct Read {
    var facts: GroupFacts
    var members: GroupObjectMembers

    /// Whether the group object has a `summary` or `hidden_summary` already (summarized
    /// before): then it is written again member by member, without them.
    var hasSummaries: Bool { members[.summary] != nil || members[.hiddenSummary] != nil }
  }

  /// The facts of the group at the root of `view`, and its members; a problem with the
  /// leading record's `summary_arg_count` (a warning) goes to `warning`. The leading record's
  /// fields are found with `locator`, which is left on them: `ListingFields(locator)` are the
  /// leading record's.
  static func read(
    _ view: JSONView, profile: Profile, locator: RecordFieldLocator,
    warning: inout RecordProblem?
  ) throws(RecordProblem) -> Read {
    func at(_ index: Int) -> Int { Int(view.tokens[index].start) }
    func bad(_ index: Int, _ message: String) -> RecordProblem {
      RecordProblem(code: "BadGroup", message: message, offset: at(index))
    }
    let object = try reader.read(view)
    /// The whole number at `index` in `range`, as every tool reads it (`FieldLimits`).
    func integer(_ index: Int, _ name: @autoclosure () -> String, _ range: ClosedRange<Int64>)
      throws(RecordProblem) -> Int
    {
      guard let value = view.integer(index), range.contains(value) else {
        throw bad(index, FieldLimits.notInRange(name(), range))
      }
      return Int(value)
    }
    typealias Key = GroupField
    typealias Category = GroupField.CategoryEntry
    let count = Int(object.count)
    let moreCount = count - 1
    let moreWeight = Int(object.number(.moreWeight) ?? 0)
    // The leading record's keys are in `RecordField` order: one comparison a key, where a
    // lookup by name for each field read compared every key (12% of the instructions).
    locator.locate(view, object: object.leading)
    var leadingCategory: String? = nil
    if let index = locator.index(.category), view.kind(index) != .null {
      guard let text = view.stringValue(index) else {
        throw bad(
          index, "the leading record's '\(RecordField.category.key)' must be a string or null")
      }
      leadingCategory = text
    }
    var leadingWeight = 1
    if profile == .ios12, let index = locator.index(.summaryArgCount),
      view.kind(index) != .null
    {
      if let value = view.integer(index), FieldLimits.positive.contains(value) {
        leadingWeight = Int(value)
      } else {
        let range = FieldLimits.positive
        warning = RecordProblem(
          code: "BadSummaryArgCount",
          message:
            "the leading record's '\(RecordField.summaryArgCount.key)' '\(String(decoding: view.raw(index), as: UTF8.self))' is not a whole number from \(range.lowerBound) to \(range.upperBound): counted as 1",
          offset: at(index))
      }
    }
    let categoriesIndex = object.value(.moreCategories) ?? 0  // required: an array
    var categories: [GroupFacts.CategoryCount] = []
    var failure: RecordProblem? = nil
    view.forEachElement(of: categoriesIndex) { element in
      guard failure == nil else { return }
      do throws(RecordProblem) {
        guard view.kind(element) == .object,
          let name = view.member(element, bytes: entryCategoryKey),
          let countIndex = view.member(element, bytes: entryCountKey),
          let weightIndex = view.member(element, bytes: entryWeightKey)
        else {
          let keys = Category.allCases.map { "\"\($0.key)\"" }.joined(separator: ",")
          throw bad(element, "an element of '\(Key.moreCategories.key)' must be {\(keys)}")
        }
        var category: String? = nil
        if view.kind(name) != .null {
          guard let text = view.stringValue(name) else {
            throw bad(
              name,
              "a '\(Category.category.key)' in '\(Key.moreCategories.key)' must be a string or null"
            )
          }
          category = text
        }
        categories.append(
          GroupFacts.CategoryCount(
            category: category,
            count: try integer(countIndex, Category.count.key, FieldLimits.positive),
            weight: try integer(weightIndex, Category.weight.key, FieldLimits.positive)))
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
    // Each entry is at most `FieldLimits.largest`, but their sums may pass it: the counts must
    // add up exactly, the weights as notif-group adds them, saturating at the largest.
    let largest = Int(FieldLimits.largest)
    let countSum = categories.reduce(0) { min($0 + $1.count, largest + 1) }
    let weightSum = categories.reduce(0) { min($0 + $1.weight, largest) }
    guard countSum == moreCount, weightSum == moreWeight else {
      throw bad(
        categoriesIndex,
        "'\(Key.moreCategories.key)' must add up to '\(Key.moreCount.key)' (\(moreCount)) and '\(Key.moreWeight.key)' (\(moreWeight))"
      )
    }
    let argumentsIndex = object.value(.moreSummaryArgs) ?? 0  // required: an array
    var arguments: [String] = []
    if profile == .ios12 {
      view.forEachElement(of: argumentsIndex) { element in
        guard failure == nil else { return }
        guard view.kind(element) == .object,
          let value = view.member(element, bytes: entrySummaryArgKey),
          let text = view.stringValue(value)
        else {
          failure = bad(
            element,
            "an element of '\(Key.moreSummaryArgs.key)' must be {\"\(GroupField.SummaryArgEntry.summaryArg.key)\": string, ...}"
          )
          return
        }
        if !text.isEmpty { arguments.append(text) }
      }
    }
    if let failure { throw failure }
    let facts = GroupFacts(
      count: count, moreCount: moreCount, moreWeight: moreWeight, moreCategories: categories,
      moreArguments: arguments, leadingCategory: leadingCategory, leadingWeight: leadingWeight)
    return Read(facts: facts, members: object.members)
  }

  /// What the device lists of the group object at the root of `view` (read by `read`, so a
  /// group object): nil when its leading record is listed, which is all it takes for the group
  /// to be; else what its leading record, or its items when it has them, say
  /// (`GroupListing`: a group that lists nothing is left out).
  ///
  /// - Throws: `BadGroup` for a record in it whose fields the rule reads have the wrong type,
  ///   or an item that is not an object (`GroupObjectReader.forEachItem`).
  /// `members` and `leadingFields` are the object's and its leading record's (`read` finds
  /// them); `locator`, the caller's kept for every group object, finds those of the items.
  static func listing(
    _ view: JSONView, members: GroupObjectMembers, leadingFields: ListingFields,
    locator: RecordFieldLocator
  ) throws(RecordProblem) -> GroupListing? {
    func rule(_ index: Int, _ what: String, fields: ListingFields? = nil)
      throws(RecordProblem) -> Unlisted?
    {
      do {
        if let fields { return try DeviceListing.unlisted(view, fields) }
        return try DeviceListing.unlisted(view, record: index, locator: locator)
      } catch {
        throw RecordProblem(
          code: "BadGroup", message: "\(what): \(error.message)", offset: error.offset)
      }
    }
    guard let leading = members[.leading],
      let reason = try rule(leading, "the leading record", fields: leadingFields)
    else { return nil }
    var listing = GroupListing()
    guard let items = members[.items], view.kind(items) == .array else {
      listing.add(reason)
      return listing
    }
    try reader.forEachItem(view, of: items) { element throws(RecordProblem) in
      listing.add(try rule(element, "an item"))
    }
    return listing
  }

  /// Writes the group object with `summary` and `hidden_summary` last (replacing them if it
  /// has them), compact, and a newline.
  static func write(
    _ view: JSONView, isCompact: Bool, summary: String?, hidden: String?,
    into out: inout ByteBuffer
  ) {
    let hasSummaries = hasSummaries(view)
    if let kept = keptPart(view, isCompact: isCompact, hasSummaries: hasSummaries) {
      out.append(kept)
    }
    write(
      view, isCompact: isCompact, hasSummaries: hasSummaries, summary: summary, hidden: hidden,
      after: &out)
  }

  /// Whether the group object at the root of `view` has a `summary` or a `hidden_summary`
  /// member, by a look at every key: `Read.hasSummaries` says it without one.
  static func hasSummaries(_ view: JSONView) -> Bool {
    view.member(0, bytes: summaryKey) != nil || view.member(0, bytes: hiddenSummaryKey) != nil
  }

  /// The bytes of the group object at the root of `view` that `write` copies as they are, the
  /// object but its closing brace, when it is compact and has no summaries (`hasSummaries`);
  /// nil when it is written again member by member. A caller can write them from where they
  /// are and then the rest (`write(_:isCompact:hasSummaries:summary:hidden:after:)`), never
  /// copying the object.
  static func keptPart(_ view: JSONView, isCompact: Bool, hasSummaries: Bool)
    -> UnsafeRawBufferPointer?
  {
    guard isCompact && !hasSummaries else { return nil }
    let raw = view.raw(0)
    return UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 1)])
  }

  /// Writes what `write` writes after the kept part (`keptPart`), or all of it when there is
  /// none.
  static func write(
    _ view: JSONView, isCompact: Bool, hasSummaries: Bool, summary: String?, hidden: String?,
    after out: inout ByteBuffer
  ) {
    if keptPart(view, isCompact: isCompact, hasSummaries: hasSummaries) != nil {
      if view.tokens[0].count > 0 { out.append(UInt8(ascii: ",")) }
    } else {
      out.append(UInt8(ascii: "{"))
      view.forEachMember(of: 0) { key, value in
        if view.keyEquals(key, bytes: summaryKey) || view.keyEquals(key, bytes: hiddenSummaryKey) {
          return
        }
        JSONEscapes.writeCanonical(
          raw: view.rawString(key), escaped: view.tokens[key].flag, into: &out)
        out.append(UInt8(ascii: ":"))
        JSONWriter.writeCompact(view, value, into: &out)
        out.append(UInt8(ascii: ","))
      }
    }
    summaryStart.withUnsafeBytes { out.append($0) }
    if let summary { JSONEscapes.writeString(summary, into: &out) } else { out.append("null") }
    hiddenSummaryStart.withUnsafeBytes { out.append($0) }
    if let hidden { JSONEscapes.writeString(hidden, into: &out) } else { out.append("null") }
    out.append("}\n")
  }

}
