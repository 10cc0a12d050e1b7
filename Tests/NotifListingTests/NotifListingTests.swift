import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifListing

@Suite struct TopListTests {
  /// A notification that ranks at `second` with `relevance`, number `order` in the input.
  struct Entry: Ranked {
    var key: SortKey
    init(_ second: Int64, relevance: Double = 0, order: Int) {
      key = SortKey(
        createdAt: Timestamp(seconds: second), relevance: relevance, major: order, minor: 0)
    }
  }

  /// A stream with many ties (so input order decides) in random order.
  static func stream(seed: UInt64) -> [Entry] {
    var generator = SplitMix(seed: seed)
    return (0..<500).map {
      Entry(
        Int64(generator.next() % 100), relevance: Double(generator.next() % 3), order: $0)
    }
  }

  /// Whatever the order of the stream, the list keeps the first `limit` in feed order, never
  /// more than `limit`, and lists them in either order as the ranking sorts them.
  @Test(arguments: [1, 3, 10, 50], [Ranking.time, .relevance])
  func keepsTheFirstInFeedOrderAndNoMore(_ limit: Int, _ ranking: Ranking) {
    let values = Self.stream(seed: UInt64(limit))
    var list = TopList<Entry>(limit: limit, ranking: ranking)
    for value in values {
      list.insert(value)
      #expect(list.count <= limit)
    }
    let first = values.sorted { ranking.precedes($0.key, $1.key) }.prefix(limit)
    #expect(list.sorted().map(\.key) == first.map(\.key))
    #expect(
      list.sorted(.chat).map(\.key)
        == first.sorted { ranking.precedesInChat($0.key, $1.key) }.map(\.key))
    #expect(TopList(values, limit: limit, ranking: ranking).sorted().map(\.key) == first.map(\.key))
  }

  @Test func withoutALimitKeepsEveryElement() {
    let values = Self.stream(seed: 7)
    var list = TopList<Entry>(limit: nil, ranking: .time)
    for value in values {
      #expect(list.admits(value.key))
      list.insert(value)
    }
    #expect(list.count == values.count)
    #expect(list.elements.map(\.key) == values.map(\.key))
    #expect(
      list.sorted(.chat).map(\.key)
        == values.sorted { Ranking.time.precedesInChat($0.key, $1.key) }.map(\.key))
    list.removeAll()
    #expect(list.count == 0)
  }

  @Test func admitsOnlyWhatWouldBeKept() {
    var list = TopList<Entry>(limit: 2, ranking: .time)
    #expect(list.admits(Entry(1, order: 0).key))
    list.insert(Entry(5, order: 0))
    list.insert(Entry(7, order: 1))
    #expect(!list.admits(Entry(3, order: 2).key))
    #expect(!list.admits(Entry(5, order: 2).key))  // a tie comes after: input order
    #expect(list.admits(Entry(6, order: 2).key))
    list.insert(Entry(6, order: 2))
    #expect(list.sorted().map(\.key.major) == [1, 2])
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

@Suite struct ListingOptionsTests {
  static let specs: [OptionSpec] = [
    .value("sort"), .value("order"), .value("item-limit"), .value("limit"), .value("last-seen"),
  ]

  /// Their usage errors are tested where the tools report them (RejectionTests, ShowTests).
  @Test func readsEachOptionAndNothingWhenNotGiven() throws {
    let given = try OptionScanner.scan(
      ["--sort", "relevance", "--order=chat", "--item-limit", "3", "--last-seen", "@60"],
      Self.specs)
    #expect(try ListingOptions.ranking(given) == .relevance)
    #expect(try ListingOptions.order(given) == .chat)
    #expect(try ListingOptions.limit(given, option: "item-limit") == 3)
    #expect(try ListingOptions.limit(given, option: "limit") == nil)
    #expect(try ListingOptions.lastSeen(given) == Timestamp(seconds: 60))
    let none = try OptionScanner.scan([], Self.specs)
    #expect(try ListingOptions.ranking(none) == nil)
    #expect(try ListingOptions.order(none) == nil)
    #expect(try ListingOptions.limit(none, option: "limit") == nil)
    #expect(try ListingOptions.lastSeen(none) == nil)
  }
}
