import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifListing

@Suite struct GroupObjectReaderTests {
  /// `GroupObjectMembers` and `Values` keep a slot per `GroupField` in an `InlineArray` of 16:
  /// a key added to the group object must grow them too, or reading it would trap.
  @Test func everyGroupFieldHasASlot() {
    #expect(GroupField.allCases.count <= 16)
  }

  /// A reader of every member the table has a rule for, each required but the ones
  /// notif-summarize adds.
  static let every = GroupObjectReader(
    code: "BadGroup", requires: GroupField.required, reads: GroupField.allCases)

  /// The members of a good group object, in notif-group's order, as JSON text.
  static let members: [(key: String, value: String)] = [
    ("app", #""com.example.chat""#),
    ("thread_id", #""t""#),
    ("count", "2"),
    ("unread_count", "1"),
    ("new_count", "0"),
    ("latest_at", #""2026-11-22T09:05:00Z""#),
    ("leading", #"{"id":"b"}"#),
    ("more_count", "1"),
    ("more_weight", "1"),
    ("more_categories", #"[{"category":null,"count":1,"weight":1}]"#),
    ("more_summary_args", "[]"),
    ("items", #"[{"id":"b"},{"id":"a"}]"#),
    ("items_omitted", "0"),
    ("summary", #""1 more message""#),
    ("hidden_summary", "null"),
  ]

  /// The good object with `value` for `key` (without the member when `value` is nil), and the
  /// offset of that value in it.
  static func object(_ key: String, _ value: String?) -> (text: String, offset: Int) {
    var text = "{"
    var offset = 0
    for (name, good) in members {
      if name == key && value == nil { continue }
      if text.count > 1 { text += "," }
      text += "\"\(name)\":"
      if name == key { offset = text.utf8.count }
      text += name == key ? value ?? good : good
    }
    return (text + "}", offset)
  }

  /// What `reader` makes of `text`: the problem, as "code at offset: message", or "read".
  static func read(_ text: String, _ reader: GroupObjectReader = every) -> String {
    let read = withView(of: text) { view -> String in
      do throws(RecordProblem) {
        _ = try reader.read(view)
        return "read"
      } catch {
        return "\(error.code) at \(error.offset): \(error.message)"
      }
    }
    return read ?? "not JSON"
  }

  /// Each row of the table broken once, and what it says: the key, and what the value must be.
  static let broken: [(key: String, value: String, message: String)] = [
    ("app", "1", "'app' is a number, not a string or null"),
    ("thread_id", "[]", "'thread_id' is an array, not a string or null"),
    ("count", "0", "'count' is not a whole number from 1 to 9007199254740991"),
    ("unread_count", "-1", "'unread_count' is not a whole number from 0 to 9007199254740991"),
    ("new_count", "1.0", "'new_count' is not a whole number from 0 to 9007199254740991"),
    ("leading", #""b""#, "'leading' is a string, not an object"),
    ("more_count", "2", "'more_count' is not a whole number equal to 1, 'count' - 1"),
    (
      "more_weight", "9007199254740992",
      "'more_weight' is not a whole number from 0 to 9007199254740991"
    ),
    ("more_categories", "null", "'more_categories' is null, not an array"),
    ("more_summary_args", "{}", "'more_summary_args' is an object, not an array"),
    ("items", "5", "'items' is a number, not an array or null"),
    ("items_omitted", #""0""#, "'items_omitted' is not a whole number from 0 to 9007199254740991"),
    ("summary", "false", "'summary' is a boolean, not a string or null"),
    ("hidden_summary", "0", "'hidden_summary' is a number, not a string or null"),
  ]

  @Test func readsAGoodObject() {
    #expect(Self.read(Self.object("", nil).text) == "read")
  }

  @Test(arguments: broken)
  func eachRuleBrokenOnceSaysTheKeyAndWhatItMustBe(
    _ key: String, _ value: String, _ message: String
  ) {
    let (text, offset) = Self.object(key, value)
    #expect(Self.read(text) == "BadGroup at \(offset): \(message)")
  }

  /// Every row of the table is among those broken above, once.
  @Test func everyRuleIsBrokenOnce() {
    #expect(GroupObjectReader.rules.map(\.field.key) == Self.broken.map(\.key))
  }

  @Test(arguments: GroupField.required)
  func aMissingMemberIsNamed(_ field: GroupField) {
    let text = Self.object(field.key, nil).text
    #expect(
      Self.read(text) == "BadGroup at 0: not a group object: the key '\(field.key)' is missing")
  }

  @Test func anotherJSONTextIsNoGroupObject() {
    #expect(
      Self.read("[1]")
        == "BadGroup at 0: not a group object: a group object is a JSON object (notif-group writes them)"
    )
  }

  /// A null where the rule allows one reads as no value; numbers as read, each count once.
  @Test func returnsWhatItChecked() throws {
    let text = Self.object("", nil).text
    let found = try #require(
      withView(of: text) { view -> [String]? in
        guard let values = try? Self.every.read(view) else { return nil }
        return [
          "\(values.count)", "\(values.number(.moreCount) ?? -1)",
          "\(values.number(.newCount) ?? -1)", "\(view.kind(values.leading))",
          "\(values.value(.items).map { view.kind($0) } ?? .null)",
          "\(values.value(.summary).flatMap { view.stringValue($0) } ?? "none")",
          "\(values.value(.hiddenSummary) == nil)", "\(values.number(.latestAt) == nil)",
          "\(values.members[.hiddenSummary] != nil)",
        ]
      })
    #expect(
      found == ["2", "1", "0", "object", "array", "1 more message", "true", "true", "true"])
  }

  /// A reader checks only the members it reads, and requires only those it names; its code is
  /// its own.
  @Test func checksOnlyWhatItReadsWithItsCode() {
    let shown = GroupObjectReader(
      code: "BadGroupObject", requires: [.count, .leading], reads: [.count, .leading, .items])
    #expect(Self.read(#"{"count":1,"leading":{},"more_count":"x","app":1}"#, shown) == "read")
    #expect(
      Self.read(#"{"leading":{}}"#, shown)
        == "BadGroupObject at 0: not a group object: the key 'count' is missing")
    #expect(
      Self.read(#"{"count":1,"leading":{},"items":{}}"#, shown)
        == "BadGroupObject at 32: 'items' is an object, not an array or null")
  }

  /// Each item is checked to be an object, in order, before the body sees it.
  @Test func itemsAreObjects() {
    func items(_ text: String) -> String {
      withView(of: text) { view -> String in
        var seen = 0
        do throws(RecordProblem) {
          try Self.every.forEachItem(view, of: 0) { _ in seen += 1 }
          return "\(seen) read"
        } catch {
          return "\(seen) read, then \(error.code) at \(error.offset): \(error.message)"
        }
      } ?? "not JSON"
    }
    #expect(items(#"[{},{"id":"a"}]"#) == "2 read")
    #expect(
      items(#"[{},"a",{}]"#)
        == "1 read, then BadGroup at 4: an element of 'items' is a string, not an object")
  }

  /// The members found are counted, so that a reader that takes no other key can tell.
  @Test func membersCountTheKeysTheyKnow() {
    let known = withView(of: #"{"count":1,"extra":2,"leading":{},"more":[]}"#) {
      GroupObjectMembers($0).known
    }
    #expect(known == 2)
  }
}
