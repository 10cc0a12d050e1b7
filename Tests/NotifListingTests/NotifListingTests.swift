import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifListing

@Suite struct TopListTests {
  /// Whatever the order of the stream, the list keeps the first `limit` in order, and never
  /// more than `limit`.
  @Test(arguments: [1, 3, 10, 50])
  func keepsTheFirstInOrderAndNoMore(_ limit: Int) {
    var generator = SplitMix(seed: UInt64(limit))
    let values = (0..<500).map { _ in Int(generator.next() % 1000) }
    var list = TopList<(value: Int, order: Int)>(limit: limit) {
      $0.value != $1.value ? $0.value > $1.value : $0.order < $1.order
    }
    for (order, value) in values.enumerated() {
      list.insert((value, order))
      #expect(list.count <= limit)
    }
    let expected = values.enumerated().map { (value: $1, order: $0) }
      .sorted { $0.value != $1.value ? $0.value > $1.value : $0.order < $1.order }
      .prefix(limit)
    #expect(list.sorted().map(\.order) == expected.map(\.order))
  }

  @Test func admitsOnlyWhatWouldBeKept() {
    var list = TopList<Int>(limit: 2, by: <)
    #expect(list.admits(9))
    list.insert(5)
    list.insert(3)
    #expect(!list.admits(7))
    #expect(list.admits(4))
    list.insert(4)
    #expect(list.sorted() == [3, 4])
  }
}

@Suite struct GroupObjectMembersTests {
  /// A member the reader does not know (one a later notif-group may add) is ignored, and the
  /// others are found in any order.
  @Test func findsKnownMembersInAnyOrderAndIgnoresOthers() throws {
    let text =
      #"{"count":2,"app":"a","merge_options":{"by":"app"},"leading":{},"summary":"s"}"#
    let found = try #require(
      withView(of: text) { view in
        let members = GroupObjectMembers(view)
        return (
          members[.count].map { view.integer($0) }, members[.app].flatMap { view.stringValue($0) },
          members[.summary].flatMap { view.stringValue($0) }, members[.items],
          members.firstMissing(of: [.app, .count, .leading, .items])
        )
      })
    #expect(found.0 == 2)
    #expect(found.1 == "a")
    #expect(found.2 == "s")
    #expect(found.3 == nil)
    #expect(found.4 == .items)
  }

  @Test func anArrayHasNoMembers() throws {
    let missing = try #require(
      withView(of: "[1,2]") { GroupObjectMembers($0).firstMissing(of: GroupField.required) })
    #expect(missing == .app)
  }
}

@Suite struct RecordFieldReaderTests {
  /// Reads `created_at` and `relevance` of the record `text` as a list does; the problem's
  /// message when it is rejected.
  static func read(_ text: String, wanted: StaticString = "a number") -> String {
    let read = withView(of: text) { view -> String in
      var createdAt = -1
      var relevance = -1
      view.forEachMember(of: 0) { key, value in
        if view.keyEquals(key, "created_at") { createdAt = value }
        if view.keyEquals(key, "relevance") { relevance = value }
      }
      var reader = RecordFieldReader()
      do throws(RecordProblem) {
        let time = try reader.createdAt(view, createdAt, record: 0)
        let rank = try RecordFieldReader.relevance(view, relevance, wanted: wanted)
        return "\(time) \(rank)"
      } catch {
        return "\(error.code) at \(error.offset): \(error.message)"
      }
    }
    return read ?? "not JSON"
  }

  @Test(arguments: [
    (#"{"created_at":"2026-11-22T08:00:00Z","relevance":0.75}"#, "2026-11-22T08:00:00Z 0.75"),
    (#"{"created_at":"2026-11-22T08:00:00Z","relevance":null}"#, "2026-11-22T08:00:00Z 0.0"),
    (#"{"created_at":"2026-11-22T08:00:00\u005a"}"#, "2026-11-22T08:00:00Z 0.0"),
    (#"{"id":"a"}"#, "BadCreatedAt at 0: the record has no 'created_at'"),
    (
      #"{"created_at":1}"#,
      "BadCreatedAt at 14: 'created_at' is a number, not an RFC 3339 time"
    ),
    (
      #"{"created_at":"2026-02-30T08:00:00Z"}"#,
      "BadCreatedAt at 14: 'created_at' is not an RFC 3339 time: '2026-02-30T08:00:00Z'"
    ),
    (
      #"{"created_at":"2026-11-22T08:00:00Z","relevance":"high"}"#,
      "BadType at 49: 'relevance' is a string, not a number"
    ),
  ])
  func readsAndChecksWhatRecordsRankBy(_ text: String, _ expected: String) {
    #expect(Self.read(text) == expected)
  }

  @Test func saysWhatEachToolWantsOfRelevance() {
    #expect(
      Self.read(
        #"{"created_at":"2026-11-22T08:00:00Z","relevance":[]}"#, wanted: "a number or null")
        == "BadType at 49: 'relevance' is an array, not a number or null")
  }

  /// The last time parsed is kept: the same text again gives the same instant, another text its
  /// own, and a bad one after a good one is still rejected.
  @Test func keepsTheLastTimeWithoutMixingThemUp() throws {
    let text =
      #"["2026-11-22T08:00:00Z","2026-11-22T08:00:00Z","2026-11-22T09:30:00Z","2026-11-22T09:30:00X"]"#
    let read = try #require(
      withView(of: text) { view -> [String] in
        var reader = RecordFieldReader()
        var times: [String] = []
        view.forEachElement(of: 0) { element in
          do throws(RecordProblem) {
            times.append("\(try reader.time(view, element, name: "at"))")
          } catch {
            times.append(error.code)
          }
        }
        return times
      })
    #expect(
      read == [
        "2026-11-22T08:00:00Z", "2026-11-22T08:00:00Z", "2026-11-22T09:30:00Z", "BadCreatedAt",
      ])
  }

  @Test func stringFieldsAreStringsOrNull() throws {
    let text = #"{"app":"a","category":null,"title":{}}"#
    let problems = try #require(
      withView(of: text) { view -> [String] in
        var problems: [String] = []
        let fields: [RecordField] = [.app, .category, .title]
        var position = 0
        view.forEachMember(of: 0) { _, value in
          do throws(RecordProblem) {
            try RecordFieldReader.checkStringOrNull(view, value, fields[position])
          } catch {
            problems.append("\(error.code): \(error.message)")
          }
          position += 1
        }
        return problems
      })
    #expect(problems == ["BadType: 'title' is an object, not a string or null"])
  }
}

/// A small deterministic generator for test data.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
