import NotifJSON
import NotifModel

/// Where the members of a group object (notif(5)) are on its tape, found by their keys
/// (`GroupField`) in one pass, as every reader of group objects finds them
/// (`GroupObjectReader`, which checks them).
///
/// A reader uses the keys it knows and ignores the others, so that a group object with a
/// member added by a later notif-group still reads: `GroupField` spells the keys, and their
/// order, which notif-group keeps, makes the usual lookup one comparison per member.
public struct GroupObjectMembers: Sendable {
  /// The keys of `GroupField`, as bytes, by `rawValue`.
  public static let keys: [[UInt8]] = GroupField.allCases.map { Array($0.key.utf8) }

  /// The same keys in memory of their own, read for every member of every group object: an
  /// array of arrays had each comparison retain and release a key (a tenth of
  /// notif-summarize's instructions with `keyEquals`).
  private static let spelled = PackedKeys(keys)

  /// The tape index of each field's value, by `GroupField.rawValue`; 0 (the root, never a
  /// member's value) where the object has no such member. In place, not an array (`init`
  /// checks the count): found for every group object read, with no allocation.
  private var values: InlineArray<16, Int>

  /// How many members the object has whose key is a `GroupField`'s; the others, it has
  /// `tokens[object].count` minus these.
  public private(set) var known = 0

  /// Finds the members of the object at `index` of `view` (no members when it is no object).
  ///
  /// - Complexity: O(members), and O(members × keys) for members out of order.
  public init(_ view: JSONView, object index: Int = 0) {
    let spelled = Self.spelled
    var values = InlineArray<16, Int>(repeating: 0)
    precondition(values.count == spelled.count, "a slot for each group object key")
    var known = 0
    if view.kind(index) == .object {
      var position = 0
      view.forEachMember(of: index) { key, value in
        let field: Int?
        if view.tokens[key].flag {  // escaped: compared decoded
          field = Self.keys.firstIndex { view.keyEquals(key, bytes: $0) }
        } else {
          let raw = view.rawString(key)
          field =
            position < spelled.count && spelled.spells(position, raw)
            ? position : spelled.first(spelled: raw)
        }
        if let field {
          values[field] = value
          known += 1
        }
        position += 1
      }
    }
    self.values = values
    self.known = known
  }

  /// The tape index of `field`'s value, or nil when the object has no such member.
  public subscript(field: GroupField) -> Int? {
    let value = values[field.rawValue]
    return value == 0 ? nil : value
  }

  /// The first of `fields` the object has no member for, if any.
  public func firstMissing(of fields: [GroupField]) -> GroupField? {
    fields.first { values[$0.rawValue] == 0 }
  }
}
