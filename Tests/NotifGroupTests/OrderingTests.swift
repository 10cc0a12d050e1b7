import NotifListing
import NotifModel
import Testing

@testable import notif_group

/// Which record leads, and the order of items and groups, with every tie-break.
@Suite struct OrderingTests {
  static let chat = "com.example.chat"

  @Test func newestRecordLeadsAndItemsAreNewestFirst() {
    let result = group([
      record("a", thread: "t", at: "2026-11-22T09:00:00Z"),
      record("b", thread: "t", at: "2026-11-22T09:02:00Z"),
      record("c", thread: "t", at: "2026-11-22T09:01:00Z"),
    ])
    #expect(result.status == .success)
    #expect(result.lines.count == 1)
    #expect(ids(value("leading", in: result.lines[0])) == ["b"])
    #expect(ids(value("items", in: result.lines[0])) == ["b", "c", "a"])
    #expect(value("latest_at", in: result.lines[0]) == "\"2026-11-22T09:02:00Z\"")
  }

  @Test func timeTiesGoToHigherRelevanceWithNullAsZero() {
    let result = group([
      record("null", thread: "t", relevance: "null"),
      record("low", thread: "t", relevance: "-0.5"),
      record("high", thread: "t", relevance: "0.75"),
      record("zero", thread: "t", relevance: "0"),
    ])
    // null and 0 tie: input order.
    #expect(ids(value("items", in: result.lines[0])) == ["high", "null", "zero", "low"])
    #expect(ids(value("leading", in: result.lines[0])) == ["high"])
  }

  @Test func fullTiesKeepInputOrderInFeedAndChatOrder() {
    let records = [
      record("first", thread: "t", relevance: "0.5"),
      record("second", thread: "t", relevance: "0.5"),
      record("older", thread: "t", at: "2026-11-22T08:00:00Z"),
      record("third", thread: "t", relevance: "0.5"),
    ]
    let feed = group(records)
    #expect(ids(value("items", in: feed.lines[0])) == ["first", "second", "third", "older"])
    #expect(ids(value("leading", in: feed.lines[0])) == ["first"])
    let chat = group(["--order", "chat"], records)
    #expect(ids(value("items", in: chat.lines[0])) == ["older", "first", "second", "third"])
    #expect(ids(value("leading", in: chat.lines[0])) == ["first"])
  }

  @Test func chatOrderIsOldestFirstWithRelevanceAscending() {
    let result = group(
      ["--order", "chat"],
      [
        record("a", thread: "t", at: "2026-11-22T09:00:00Z", relevance: "1"),
        record("b", thread: "t", at: "2026-11-22T09:00:00Z", relevance: "0.2"),
        record("c", thread: "t", at: "2026-11-22T08:00:00Z"),
      ])
    #expect(ids(value("items", in: result.lines[0])) == ["c", "b", "a"])
  }

  @Test func sortByRelevanceRanksRelevanceThenTimeThenInput() {
    let records = [
      record("new-low", thread: "t", at: "2026-11-22T09:05:00Z", relevance: "0.1"),
      record("old-high", thread: "t", at: "2026-11-22T08:00:00Z", relevance: "0.9"),
      record("new-high", thread: "t", at: "2026-11-22T08:30:00Z", relevance: "0.9"),
      record("tie", thread: "t", at: "2026-11-22T08:30:00Z", relevance: "0.9"),
      record("none", thread: "t", at: "2026-11-22T09:10:00Z"),
    ]
    let feed = group(["--sort", "relevance"], records)
    #expect(ids(value("leading", in: feed.lines[0])) == ["new-high"])
    #expect(
      ids(value("items", in: feed.lines[0])) == ["new-high", "tie", "old-high", "new-low", "none"])
    // latest_at is still the newest created_at, whatever leads.
    #expect(value("latest_at", in: feed.lines[0]) == "\"2026-11-22T09:10:00Z\"")
    let chat = group(["--sort", "relevance", "--order", "chat"], records)
    #expect(
      ids(value("items", in: chat.lines[0])) == ["none", "new-low", "old-high", "new-high", "tie"])
  }

  @Test func groupsAreOrderedByTheirLeadingRecordNewestFirst() {
    let result = group([
      record("a1", thread: "a", at: "2026-11-22T09:00:00Z"),
      record("b1", thread: "b", at: "2026-11-22T09:03:00Z"),
      record("c1", thread: "c", at: "2026-11-22T09:01:00Z"),
      record("a2", thread: "a", at: "2026-11-22T09:05:00Z"),
    ])
    #expect(result.lines.map { value("thread_id", in: $0) } == ["\"a\"", "\"b\"", "\"c\""])
  }

  @Test func groupsWithTiedLeadersFollowTheInputOrderOfTheLeaders() {
    let result = group([
      record("x", thread: "late", at: "2026-11-22T08:00:00Z"),
      record("y", thread: "early", relevance: "0.5"),
      record("z", thread: "late", relevance: "0.5"),
      record("w", thread: "higher", relevance: "0.6"),
    ])
    // early's leader y was read before late's leader z; higher's w has more relevance.
    #expect(
      result.lines.map { value("thread_id", in: $0) } == ["\"higher\"", "\"early\"", "\"late\""])
  }

  @Test func groupsUnderSortRelevanceAreOrderedByRelevanceOfTheirLeader() {
    let result = group(
      ["--sort", "relevance"],
      [
        record("a", thread: "new", at: "2026-11-22T09:30:00Z", relevance: "0.2"),
        record("b", thread: "relevant", at: "2026-11-22T07:00:00Z", relevance: "0.8"),
      ])
    #expect(result.lines.map { value("thread_id", in: $0) } == ["\"relevant\"", "\"new\""])
  }

  @Test(arguments: [
    // A fraction of a second is later than the whole second.
    ("2026-11-22T09:00:00.5Z", "2026-11-22T09:00:00Z", ["first", "second"]),
    // 10:00+01:00 is 09:00Z, one second before 09:00:01Z, though its text sorts after it.
    ("2026-11-22T10:00:00+01:00", "2026-11-22T09:00:01Z", ["second", "first"]),
  ])
  func timesCompareAsInstantsNotText(_ first: String, _ second: String, _ expected: [String]) {
    let result = group([
      record("first", thread: "t", at: first), record("second", thread: "t", at: second),
    ])
    #expect(ids(value("items", in: result.lines[0])) == expected)
  }

  @Test func rankingComparesPrimarySecondaryThenInputOrder() {
    let early = Timestamp(seconds: 10)
    let late = Timestamp(seconds: 20)
    let a = SortKey(createdAt: late, relevance: 0, major: 5, minor: 0)
    let b = SortKey(createdAt: early, relevance: 1, major: 1, minor: 0)
    #expect(Ranking.time.precedes(a, b))
    #expect(Ranking.relevance.precedes(b, a))
    let c = SortKey(createdAt: late, relevance: 0, major: 5, minor: -1)
    #expect(Ranking.time.precedes(c, a))
    #expect(Ranking.time.precedesInChat(c, a))
    #expect(!Ranking.time.precedes(a, a))
  }
}
