import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifListing

@Suite struct DigestObjectReaderTests {
  /// A digest object as notif-digest writes it, its members in `DigestField` order.
  static let members: [(DigestField, String)] = [
    (.digestID, #""0123456789abcdef0123456789abcdef""#),
    (.key, #"{"app":"com.example.chat"}"#),
    (.windowStart, #""2026-11-22T08:00:00Z""#),
    (.windowEnd, #""2026-11-22T09:00:00Z""#),
    (.count, "2"),
    (.unreadCount, "1"),
    (.latestAt, #""2026-11-22T08:30:00Z""#),
    (.actors, "[]"),
    (.categories, "[]"),
    (.items, #"[{"id":"a","created_at":"2026-11-22T08:30:00Z"}]"#),
    (.itemsOmitted, "1"),
    (.summary, #""2 notifications""#),
    (.hiddenSummary, #""2 notifications""#),
    (.readAt, "null"),
    (.digesting, "{}"),
  ]

  /// The object with `field` set to `value`, or left out when `value` is nil.
  static func object(_ field: DigestField? = nil, _ value: String? = nil) -> String {
    let kept = members.compactMap { member -> String? in
      guard member.0 == field else { return "\"\(member.0.key)\":\(member.1)" }
      return value.map { "\"\(member.0.key)\":\($0)" }
    }
    return "{" + kept.joined(separator: ",") + "}"
  }

  /// What the reader makes of `text`: the problem, as "at OFFSET: MESSAGE [CODE]", or nil.
  static func problem(_ text: String) -> String? {
    withView(of: text) { view -> String? in
      do throws(RecordProblem) {
        _ = try DigestObjectReader(view)
        return nil
      } catch {
        return "at \(error.offset): \(error.message) [\(error.code)]"
      }
    } ?? "not JSON"
  }

  static let time = "an RFC 3339 time such as 2026-11-22T09:05:00Z"
  static let largest = FieldLimits.largest

  /// Each rule of the table broken once: the member, its value, the message, and where the
  /// problem is (`offset(of:in:)`'s needle; "" for the object's start).
  static let broken: [(DigestField, String, String, String)] = [
    (.digestID, "1", "'digest_id' is a number, not a string", #""digest_id":|1"#),
    (.key, "[]", "'key' is an array, not an object", #""key":|[]"#),
    (.windowStart, #""soon""#, "'window_start' is not \(time)", #""window_start":|"soon""#),
    (.windowEnd, "9", "'window_end' is a number, not \(time)", #""window_end":|9"#),
    (
      .windowEnd, #""2026-11-22T07:00:00Z""#, "'window_end' is before 'window_start'",
      #""window_end":|""#
    ),
    (.count, "0", "'count' is not a whole number from 1 to \(largest)", #""count":|0"#),
    (.count, "1.5", "'count' is not a whole number from 1 to \(largest)", #""count":|1.5"#),
    (
      .unreadCount, "-1", "'unread_count' is not a whole number from 0 to \(largest)",
      #""unread_count":|-1"#
    ),
    // An escaped time is refused: no RFC 3339 time has a backslash.
    (
      .latestAt, #""2026-11-22T08:30:00\u005a""#, "'latest_at' is not \(time)",
      #""latest_at":|""#
    ),
    (.items, "{}", "'items' is an object, not an array of records", #""items":|{}"#),
    (.items, "[{},{},{}]", "'items' has 3 records, more than 'count' (2)", #""items":|["#),
    (.items, "[{},1]", "an element of 'items' is a number, not a record", #""items":[{},|1]"#),
    (
      .itemsOmitted, "9007199254740992",
      "'items_omitted' is not a whole number from 0 to \(largest)", #""items_omitted":|9"#
    ),
    (.summary, "1", "'summary' is a number, not a string or null", #""summary":|1"#),
    (
      .hiddenSummary, "true", "'hidden_summary' is a boolean, not a string or null",
      #""hidden_summary":|true"#
    ),
    (.readAt, "[]", "'read_at' is an array, not a string or null", #""read_at":|[]"#),
  ]

  @Test(arguments: broken)
  func eachRuleBrokenSaysWhatTheMemberMustBe(
    _ field: DigestField, _ value: String, _ message: String, _ at: String
  ) {
    let text = Self.object(field, value)
    #expect(
      Self.problem(text) == "at \(offset(of: at, in: text)): \(message) [BadDigest]", "\(text)")
  }

  /// Every row of the table has a case above.
  @Test func everyRowIsBrokenOnce() {
    let tested = Set(Self.broken.map(\.0.rawValue))
    for row in DigestObjectReader.table {
      #expect(tested.contains(row.field.rawValue), "\(row.field.key)")
    }
  }

  /// A member the table requires, left out, is named; one it does not require reads as null.
  @Test(arguments: DigestObjectReader.table)
  func aMissingMemberIsNamedWhenRequired(_ row: DigestObjectReader.Row) {
    let problem = Self.problem(Self.object(row.field, nil))
    if row.isRequired {
      #expect(
        problem == "at 0: not a digest object: the key '\(row.field.key)' is missing [BadDigest]")
    } else {
      #expect(problem == nil)
    }
  }

  @Test(arguments: [
    ("[1]", "at 0: a digest object is a JSON object, not an array [BadDigest]"),
    ("{}", "at 0: not a digest object: the key 'digest_id' is missing [BadDigest]"),
  ])
  func whatIsNoDigestObjectIsRefused(_ text: String, _ expected: String) {
    #expect(Self.problem(text) == expected)
  }

  /// The checked values, and every member's tape index.
  @Test func readsTheValuesAndFindsEveryMember() throws {
    let read = try #require(
      withView(of: Self.object()) { view throws(RecordProblem) in try DigestObjectReader(view) })
    #expect(read.windowStart == (try Timestamp(rfc3339: "2026-11-22T08:00:00Z")))
    #expect(read.windowEnd == (try Timestamp(rfc3339: "2026-11-22T09:00:00Z")))
    #expect(read.latestAt == (try Timestamp(rfc3339: "2026-11-22T08:30:00Z")))
    #expect(
      [read.count, read.unreadCount, read.itemsOmitted, read.itemCount] == [2, 1, 1, 1])
    #expect(read.unknownKey == nil)
    #expect(DigestField.allCases.allSatisfy { read[$0] != nil })
  }

  /// Members are found in any order; the first key no `DigestField` names is kept for the
  /// tool that refuses it; what the table leaves to the tools (`read_at` as a time) is left.
  @Test func findsMembersOutOfOrderAndKeepsTheFirstUnknownKey() throws {
    let text =
      #"{"later":1,"count":1,"items":[],"latest_at":"2026-11-22T08:30:00Z","unread_count":0,"#
      + #""window_end":"2026-11-22T08:30:00Z","window_start":"2026-11-22T08:30:00Z","#
      + #""items_omitted":1,"key":{},"digest_id":"x","read_at":"not a time","more":2}"#
    let found = try #require(
      withView(of: text) { view in
        do throws(RecordProblem) {
          let read = try DigestObjectReader(view)
          return (
            read.unknownKey.map { view.string($0) }, read.count, read.itemCount,
            read.isNull(.readAt, in: view), read.isNull(.summary, in: view), read[.actors],
            read.windowStart == read.windowEnd
          )
        } catch {
          Issue.record("\(error.message)")
          return nil
        }
      } ?? nil)
    #expect(found.0 == "later")
    #expect((found.1, found.2) == (1, 0))
    #expect(!found.3)  // a string, if no time: `--merge` reads it as one
    #expect(found.4)
    #expect(found.5 == nil)
    #expect(found.6)
  }

  /// What only `--merge` requires is checked on demand, in the same words.
  @Test func checksWhatAToolRequiresBesides() throws {
    let text = Self.object(.actors, nil)
    let problem = try #require(
      withView(of: text) { view -> String? in
        do throws(RecordProblem) {
          try DigestObjectReader(view).checkPresent(DigestField.allCases)
          return nil
        } catch {
          return "at \(error.offset): \(error.message)"
        }
      } ?? nil)
    #expect(problem == "at 0: not a digest object: the key 'actors' is missing")
  }
}
