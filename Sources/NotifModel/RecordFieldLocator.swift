import NotifJSON

/// Finds where each `RecordField` is among the members of a record object: the lookup every
/// tool that reads records does for each one (notif-show here; notif-expire, notif-mark and
/// notif-digest through NotifSweep's `RecordLineParser`).
///
/// Records are written with their keys in `RecordField` order, their null fields left out
/// (notif(5)), so each key is checked against the field after the last key's first, then the
/// later ones: one comparison per member of a record written dense, a few length checks more
/// for each field left out. A member out of order, or a key spelled with escapes, is looked up
/// by name instead; unknown keys are ignored. One instance is reused for every record:
/// `locate` allocates nothing.
public final class RecordFieldLocator {
  /// The tape index of each field's value (by `RecordField.rawValue`), -1 where the object
  /// lacks the key: valid until the next `locate`.
  public let slots: UnsafeMutablePointer<Int32>
  private static let count = RecordField.allCases.count
  /// The keys, in `RecordField` order: for a key spelled with escapes, and for the parser
  /// (`JSONParser.expectRootKeys`).
  public static let keys = RecordField.allCases.map { Array($0.key.utf8) }
  /// The same keys in memory of their own: the loop over a record's members reads them 38
  /// times.
  private let packed = PackedKeys(RecordFieldLocator.keys)

  /// Creates a locator.
  public init() {
    slots = UnsafeMutablePointer<Int32>.allocate(capacity: Self.count)
    slots.update(repeating: -1, count: Self.count)
  }

  deinit {
    slots.deallocate()
  }

  /// Fills `slots` from the members of the object at `object` of `view`; returns whether the
  /// keys were record fields in `RecordField` order, each a later field than the one before,
  /// with any left out between them (then no key repeats, and the object has no key that is
  /// not a record field). Finds nothing in a value that is not an object.
  ///
  /// The first members are taken to have the keys of their positions without a look, their
  /// values at the tape indices `known` gives: those the parser matched, with `keys` expected
  /// (`JSONParser.expectedKeyValues`, of the outermost object, `object` 0); when the parser
  /// matched every member (`known.all`), nothing is looked at.
  /// - Complexity: O(members), one comparison each when the keys are in order; O(1) each of
  ///   the `known` ones.
  @discardableResult
  public func locate(_ view: JSONView, object: Int = 0, known: ExpectedKeyValues = .none) -> Bool {
    if let all = known.all, let first = all.baseAddress, all.count == Self.count {
      precondition(object == 0, "RecordFieldLocator.locate: known members are the outermost's")
      slots.update(from: first, count: Self.count)
      return true
    }
    slots.update(repeating: -1, count: Self.count)
    guard view.kind(object) == .object, let base = view.bytes.baseAddress else { return false }
    let members = Int(view.tokens[object].count)
    var key = object + 1
    // The members the parser matched: their values' places, as the parser wrote them down.
    // Walking the tape to them instead (one dependent load per member) was 3% of notif-expire's
    // instructions, and twice that of its time.
    let known = UnsafeBufferPointer(rebasing: known.prefix.prefix(min(Self.count, members)))
    if let last = known.last, let first = known.baseAddress {
      precondition(object == 0, "RecordFieldLocator.locate: known members are the outermost's")
      slots.update(from: first, count: known.count)
      key = Int(view.tokens[Int(last)].next)
    }
    var inOrder = true
    // The field the next key is looked for at first: the one after the last key's. A record
    // leaves its null fields out, so a key may be a later field than the next: the fields
    // after it are tried in order, their lengths first, before a look at every key.
    var next = known.count
    for _ in known.count..<members {
      let token = view.tokens[key]
      let value = key + 1
      // The key as written, without its quotes.
      let raw = UnsafeRawBufferPointer(
        start: base + Int(token.start) + 1, count: Int(token.end - token.start) - 2)
      var found = -1
      if inOrder && !token.flag {
        var field = next
        while field < Self.count {
          if packed.spells(field, raw) {
            found = field
            break
          }
          field += 1
        }
      }
      if found >= 0 {
        slots[found] = Int32(value)
        next = found + 1
      } else {
        inOrder = false
        let field =
          token.flag
          ? Self.keys.firstIndex { view.keyEquals(key, bytes: $0) }
          : packed.first(spelled: raw)
        if let field {
          slots[field] = Int32(value)
        }
      }
      key = Int(view.tokens[value].next)
    }
    return inOrder
  }

  /// The tape index of a field's value after `locate`, or nil when the object lacks the key.
  @inline(__always)
  public func index(_ field: RecordField) -> Int? {
    let slot = slots[field.rawValue]
    return slot < 0 ? nil : Int(slot)
  }

  /// The tape index of a field's value after `locate`, or -1 when the object lacks the key:
  /// as the tools keep the fields they read.
  @inline(__always)
  public func slot(_ field: RecordField) -> Int { Int(slots[field.rawValue]) }

}
