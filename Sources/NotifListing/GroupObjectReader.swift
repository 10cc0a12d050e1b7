import NotifJSON
import NotifModel

/// Reads and checks the top level of a group object (notif(5), "Group objects") as every tool
/// that reads one does, with one wording: the members that must be there, then each member's
/// kind and range, by the rows of one table (`rules`). A tool reads what only it needs from
/// what this returns (`Values`), and checks none of it again.
///
/// A tool makes its reader once, with the code of its diagnostics and the members it requires
/// and reads: notif-summarize and `notif-group --merge` require every member notif-group
/// writes, notif-show only `count` and `leading`; each reads (so checks) the members it uses,
/// and ignores the others, as its manual says. Every reader reads `count` and `leading`.
public struct GroupObjectReader: Sendable {
  /// What a member's value must be.
  public enum Rule: Sendable, Equatable {
    /// A whole number in the range (`FieldLimits`).
    case whole(ClosedRange<Int64>)
    /// A whole number equal to `count` - 1, which a row before it reads (`more_count`).
    case countLessOne
    /// A value of the kind, or null too when `orNull`.
    case kind(JSONKind, orNull: Bool)
  }

  /// The rule of each member, in the order the members are checked: `count` before the rule
  /// that reads it. `latest_at` (a time) and `grouping` (notif-group's options) have none here:
  /// only `notif-group --merge` reads them, and checks them itself.
  public static let rules: [(field: GroupField, rule: Rule)] = [
    (.app, .kind(.string, orNull: true)),
    (.threadID, .kind(.string, orNull: true)),
    (.count, .whole(FieldLimits.positive)),
    (.unreadCount, .whole(FieldLimits.tally)),
    (.newCount, .whole(FieldLimits.tally)),
    (.leading, .kind(.object, orNull: false)),
    (.moreCount, .countLessOne),
    (.moreWeight, .whole(FieldLimits.tally)),
    (.moreCategories, .kind(.array, orNull: false)),
    (.moreSummaryArgs, .kind(.array, orNull: false)),
    (.items, .kind(.array, orNull: true)),
    (.itemsOmitted, .whole(FieldLimits.tally)),
    (.summary, .kind(.string, orNull: true)),
    (.hiddenSummary, .kind(.string, orNull: true)),
  ]

  /// The code of the problems it throws: `BadGroup`, or `BadGroupObject` for notif-group.
  public let code: String
  /// The members a group object must have, in the order the first missing one is told.
  public let required: [GroupField]
  /// The rows of `rules` of the members it reads.
  public let checks: [(field: GroupField, rule: Rule)]

  /// A reader whose problems have `code`, of group objects that have every member of
  /// `required`, whose members `fields` (`count` and `leading` among them) it checks.
  public init(code: String, requires required: [GroupField], reads fields: [GroupField]) {
    precondition(
      required.contains(.count) && required.contains(.leading) && fields.contains(.count)
        && fields.contains(.leading), "every reader reads 'count' and 'leading'")
    self.code = code
    self.required = required
    checks = Self.rules.filter { fields.contains($0.field) }
  }

  /// What a reader read of a group object, checked.
  public struct Values {
    /// The object's members, those it does not read too.
    public let members: GroupObjectMembers
    /// The tape index of each member read, by `GroupField.rawValue`; -1 when missing or null.
    var indexes = InlineArray<16, Int>(repeating: -1)
    /// The whole number of each member read with one, by `GroupField.rawValue`; -1 for none.
    var numbers = InlineArray<16, Int64>(repeating: -1)

    init(_ members: GroupObjectMembers) {
      self.members = members
    }

    /// `count`, from 1 to `FieldLimits.largest`.
    public var count: Int64 { numbers[GroupField.count.rawValue] }

    /// The tape index of `leading`, an object.
    public var leading: Int { indexes[GroupField.leading.rawValue] }

    /// The tape index of `field`'s value, checked, or nil when the object has none, it is
    /// null, or the reader does not read it.
    public func value(_ field: GroupField) -> Int? {
      let index = indexes[field.rawValue]
      return index < 0 ? nil : index
    }

    /// The whole number of `field` (`count`, a count or a weight), checked, or nil when the
    /// object has none or the reader does not read it.
    public func number(_ field: GroupField) -> Int64? {
      let number = numbers[field.rawValue]
      return number < 0 ? nil : number
    }
  }

  /// Reads the group object at the root of `view`.
  ///
  /// - Throws: `RecordProblem` (`code`) when the text is no object, or a member it requires is
  ///   missing, or a member it reads breaks its rule.
  /// - Complexity: O(members).
  public func read(_ view: JSONView) throws(RecordProblem) -> Values {
    guard view.kind(0) == .object else {
      throw RecordProblem(
        code: code,
        message: "not a group object: a group object is a JSON object (notif-group writes them)",
        offset: 0)
    }
    return try check(view, GroupObjectMembers(view))
  }

  /// Checks the group object at the root of `view`, whose members are `members`.
  ///
  /// - Throws: `RecordProblem` (`code`) when a member it requires is missing, or a member it
  ///   reads breaks its rule.
  /// - Complexity: O(members read).
  public func check(_ view: JSONView, _ members: GroupObjectMembers) throws(RecordProblem)
    -> Values
  {
    if let missing = members.firstMissing(of: required) {
      throw RecordProblem(
        code: code, message: "not a group object: the key '\(missing.key)' is missing", offset: 0)
    }
    var values = Values(members)
    for (field, rule) in checks {
      guard let index = members[field] else { continue }
      switch rule {
      case .whole(let range):
        guard let number = view.integer(index), range.contains(number) else {
          throw problem(view, index, FieldLimits.notInRange(field.key, range))
        }
        values.numbers[field.rawValue] = number
      case .countLessOne:
        let wanted = values.count - 1
        guard view.integer(index) == wanted else {
          throw problem(
            view, index,
            "'\(field.key)' is not a whole number equal to \(wanted), '\(GroupField.count.key)' - 1"
          )
        }
        values.numbers[field.rawValue] = wanted
      case .kind(let kind, let orNull):
        let found = view.kind(index)
        if found == .null && orNull { continue }
        guard found == kind else {
          let wanted = orNull ? "\(kind.phrase) or null" : kind.phrase
          throw problem(view, index, "'\(field.key)' is \(found.phrase), not \(wanted)")
        }
      }
      values.indexes[field.rawValue] = index
    }
    return values
  }

  /// Calls `body` with the tape index of each element of `items` (the array at `index`), each
  /// checked to be an object, a record, in order, until it throws.
  ///
  /// - Throws: `RecordProblem` (`code`) for an element that is no object, or what `body`
  ///   throws.
  /// - Complexity: O(elements), and what `body` takes.
  public func forEachItem(
    _ view: JSONView, of index: Int, _ body: (_ element: Int) throws(RecordProblem) -> Void
  ) throws(RecordProblem) {
    try view.forEachElement(of: index) { element throws(RecordProblem) in
      guard view.kind(element) == .object else {
        throw problem(
          view, element,
          "an element of '\(GroupField.items.key)' is \(view.kind(element).phrase), not an object"
        )
      }
      try body(element)
    }
  }

  /// The problem with the value at `index`.
  private func problem(_ view: JSONView, _ index: Int, _ message: String) -> RecordProblem {
    RecordProblem(code: code, message: message, offset: Int(view.tokens[index].start))
  }
}
