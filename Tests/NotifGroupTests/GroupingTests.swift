import NotifModel
import Testing

@testable import notif_group

/// Group keys, counts, limits and the statistics of the non-leading records.
@Suite struct GroupingTests {
  @Test func recordsWithoutThreadGoToTheirAppsGroup() {
    let result = group([
      record("t1", thread: "alice"),
      record("n1"),
      record("t2", thread: "alice"),
      record("n2", thread: nil),
      record("other", app: "com.example.mail"),
    ])
    let keys = result.lines.map {
      "\(value("app", in: $0) ?? "") \(value("thread_id", in: $0) ?? "") \(value("count", in: $0) ?? "")"
    }
    #expect(
      keys == [
        "\"com.example.chat\" \"alice\" 2", "\"com.example.chat\" null 2",
        "\"com.example.mail\" null 1",
      ])
  }

  @Test func sameThreadIdInTwoAppsIsTwoGroups() {
    let result = group([
      record("a", app: "com.example.a", thread: "t"),
      record("b", app: "com.example.b", thread: "t"),
    ])
    #expect(result.lines.count == 2)
  }

  @Test func byAppPutsEveryThreadOfAnAppInOneGroup() {
    let result = group(
      ["--by", "app"],
      [
        record("t1", thread: "alice", at: "2026-11-22T09:01:00Z"),
        record("n1"),
        record("m1", app: "com.example.mail", thread: "inbox"),
        record("t2", thread: "bob"),
      ])
    #expect(result.lines.count == 2)
    #expect(value("thread_id", in: result.lines[0]) == "null")
    #expect(value("count", in: result.lines[0]) == "3")
    #expect(ids(value("items", in: result.lines[0])) == ["t1", "n1", "t2"])
    #expect(value("app", in: result.lines[1]) == "\"com.example.mail\"")
  }

  @Test func byNoneGivesOneGroupPerRecordWithItsOwnThread() {
    let result = group(
      ["--by", "none"],
      [record("a", thread: "t"), record("b", thread: "t", at: "2026-11-22T09:01:00Z"), record("c")])
    #expect(result.lines.map { ids(value("leading", in: $0)) } == [["b"], ["a"], ["c"]])
    #expect(result.lines.map { value("thread_id", in: $0) } == ["\"t\"", "\"t\"", "null"])
    #expect(result.lines.allSatisfy { value("count", in: $0) == "1" })
  }

  @Test func escapedAndPlainSpellingsOfAKeyAreOneGroup() {
    let plain = record("a", thread: "abc")
    let escaped = record("b", thread: "a\\u0062c", at: "2026-11-22T08:00:00Z")
    let result = group([plain, escaped])
    #expect(result.lines.count == 1)
    #expect(value("count", in: result.lines[0]) == "2")
  }

  @Test func escapedCreatedAtIsReadDecoded() {
    let result = group([record("a", thread: "t", at: "2026-11-22T09:00:00\\u005a")])
    #expect(result.status == .success)
    #expect(value("latest_at", in: result.lines[0]) == "\"2026-11-22T09:00:00Z\"")
  }

  @Test func unreadCountsNullReadAt() {
    let result = group([
      record("a", thread: "t", readAt: "2026-11-22T09:30:00Z"),
      record("b", thread: "t"),
      record("c", thread: "t"),
    ])
    #expect(value("unread_count", in: result.lines[0]) == "2")
    #expect(value("new_count", in: result.lines[0]) == "3")
  }

  @Test func newCountsUnseenRecordsCreatedAfterLastSeen() {
    let records = [
      record("before", thread: "t", at: "2026-11-22T08:00:00Z"),
      record("at", thread: "t", at: "2026-11-22T09:00:00Z"),
      record("after", thread: "t", at: "2026-11-22T09:00:01Z"),
      record("seen", thread: "t", at: "2026-11-22T09:30:00Z", seenAt: "2026-11-22T09:31:00Z"),
    ]
    #expect(value("new_count", in: group(records).lines[0]) == "3")
    let lastSeen = group(["--last-seen", "2026-11-22T09:00:00Z"], records)
    #expect(value("new_count", in: lastSeen.lines[0]) == "1")
    let epoch = group(["--last-seen", "@1795338000"], records)
    #expect(epoch.stdout == lastSeen.stdout)
  }

  @Test func limitKeepsTheFirstInFeedOrderAndCountsTheRest() {
    let records = (0..<6).map {
      record("r\($0)", thread: "t", at: "2026-11-22T09:0\([3, 1, 5, 0, 4, 2][$0]):00Z")
    }
    let feed = group(["--item-limit", "3"], records)
    #expect(ids(value("items", in: feed.lines[0])) == ["r2", "r4", "r0"])
    #expect(value("items_omitted", in: feed.lines[0]) == "3")
    #expect(value("count", in: feed.lines[0]) == "6")
    let chat = group(["--item-limit", "3", "--order", "chat"], records)
    #expect(ids(value("items", in: chat.lines[0])) == ["r0", "r4", "r2"])
    let relevance = group(
      ["--item-limit", "1", "--sort", "relevance"],
      [
        record("a", thread: "t", relevance: "0.1"),
        record("b", thread: "t", at: "2026-11-22T08:00:00Z", relevance: "0.3"),
      ])
    #expect(ids(value("items", in: relevance.lines[0])) == ["b"])
  }

  @Test func limitAboveTheCountKeepsEverything() {
    let result = group(
      ["--item-limit", "10"], [record("a", thread: "t"), record("b", thread: "t")])
    #expect(ids(value("items", in: result.lines[0])) == ["a", "b"])
    #expect(value("items_omitted", in: result.lines[0]) == "0")
  }

  @Test func noItemsKeepsCountsAndTheLeadingRecord() {
    let result = group(
      ["--no-items"],
      [record("a", thread: "t"), record("b", thread: "t", at: "2026-11-22T09:01:00Z")])
    #expect(value("items", in: result.lines[0]) == "null")
    #expect(value("items_omitted", in: result.lines[0]) == "2")
    #expect(ids(value("leading", in: result.lines[0])) == ["b"])
  }

  @Test func moreStatisticsLeaveOutTheLeadingRecord() {
    let result = group([
      record(
        "lead", thread: "t", at: "2026-11-22T09:10:00Z", category: "MESSAGE", summaryArg: "Zoë",
        summaryArgCount: "5"),
      record("a", thread: "t", at: "2026-11-22T09:01:00Z", category: "MESSAGE", summaryArg: "Bob"),
      record(
        "b", thread: "t", at: "2026-11-22T09:03:00Z", category: "PHOTO", summaryArg: "Ann",
        summaryArgCount: "3"),
      record("c", thread: "t", at: "2026-11-22T09:02:00Z", summaryArg: "Bob"),
      record("d", thread: "t", at: "2026-11-22T09:03:00Z", category: "MESSAGE", summaryArg: "Al"),
      record("e", thread: "t", at: "2026-11-22T09:00:00Z", summaryArg: "", summaryArgCount: "null"),
    ])
    let line = result.lines[0]
    #expect(value("more_count", in: line) == "5")
    #expect(value("more_weight", in: line) == "7")
    #expect(
      value("more_categories", in: line)
        == #"[{"category":null,"count":2,"weight":2},{"category":"MESSAGE","count":2,"weight":2},"#
        + #"{"category":"PHOTO","count":1,"weight":3}]"#)
    // Newest first; Al and Ann tie at 09:03 and go by bytes; the leader's Zoë is not there.
    #expect(
      value("more_summary_args", in: line)
        == #"[{"summary_arg":"Al","count":1,"latest_at":"2026-11-22T09:03:00Z"},"#
        + #"{"summary_arg":"Ann","count":1,"latest_at":"2026-11-22T09:03:00Z"},"#
        + #"{"summary_arg":"Bob","count":2,"latest_at":"2026-11-22T09:02:00Z"}]"#)
  }

  @Test func aNewLeaderMovesTheOldOneIntoTheStatistics() {
    let result = group(
      ["--no-items"],
      [
        record("old", thread: "t", category: "A", summaryArg: "Old", summaryArgCount: "4"),
        record("new", thread: "t", at: "2026-11-22T09:05:00Z", category: "B", summaryArg: "New"),
      ])
    let line = result.lines[0]
    #expect(value("more_weight", in: line) == "4")
    #expect(value("more_categories", in: line) == #"[{"category":"A","count":1,"weight":4}]"#)
    #expect(
      value("more_summary_args", in: line)
        == #"[{"summary_arg":"Old","count":1,"latest_at":"2026-11-22T09:00:00Z"}]"#)
  }

  @Test func manyDistinctCategoriesAndSummaryArgumentsAreCountedExactly() {
    // More than the 8 entries a table searches in order: the dictionary beside it takes over.
    let records = (0..<30).map { n in
      record(
        "r\(n)", thread: "t", at: "2026-11-22T09:\(n < 10 ? "0" : "")\(n):00Z",
        category: "C\(n % 12 < 10 ? "0" : "")\(n % 12)", summaryArg: "A\(n % 20)",
        summaryArgCount: "\(n % 3 + 1)")
    }
    let line = group(["--no-items"], records).lines[0]
    // r29 leads (09:29, category C05, argument A9, weight 3).
    #expect(value("more_weight", in: line) == "\((0..<29).map { $0 % 3 + 1 }.reduce(0, +))")
    let categories = (0..<12).map { c in
      let members = (0..<29).filter { $0 % 12 == c }
      return #"{"category":"C\#(c < 10 ? "0" : "")\#(c)","count":\#(members.count),"#
        + #""weight":\#(members.map { $0 % 3 + 1 }.reduce(0, +))}"#
    }
    #expect(value("more_categories", in: line) == "[" + categories.joined(separator: ",") + "]")
    // A0...A19: A0-A8 twice (n and n + 20), A9 once more besides the leader, A10-A19 once.
    let arguments = (0..<20).map { a -> (String, Int, Int) in
      let members = (0..<29).filter { $0 % 20 == a }
      return ("A\(a)", members.count, members.max() ?? 0)
    }.sorted { $0.2 != $1.2 ? $0.2 > $1.2 : Array($0.0.utf8).lexicographicallyPrecedes($1.0.utf8) }
    let expected = arguments.map { name, count, newest in
      #"{"summary_arg":"\#(name)","count":\#(count),"latest_at":"2026-11-22T09:"#
        + #"\#(newest < 10 ? "0" : "")\#(newest):00Z"}"#
    }
    #expect(value("more_summary_args", in: line) == "[" + expected.joined(separator: ",") + "]")
    let halves = [Array(records[..<13]), Array(records[13...])].map {
      group(["--no-items"], $0).stdout
    }
    #expect(group(["--merge"], inputs: halves).lines == [line])
  }

  @Test(arguments: [
    "0", "-2", "1.5", "\"3\"", "true", "99999999999999999999", "9007199254740992", "-0", "1.0",
  ])
  func badSummaryArgCountCountsOneAndWarns(_ count: String) {
    let result = group([
      record("lead", thread: "t", at: "2026-11-22T09:05:00Z"),
      record("bad", thread: "t", summaryArgCount: count),
    ])
    #expect(result.status == .success)
    #expect(value("more_weight", in: result.lines[0]) == "1")
    let column =
      record("bad", thread: "t", summaryArgCount: count).utf8.count - count.utf8.count
      - #","read_at":null,"seen_at":null}"#.utf8.count + 1
    #expect(
      result.stderr
        == "notif-group: input1:2:\(column): warning: 'summary_arg_count' is not a whole number from 1 to 9007199254740991: counted as 1 [BadSummaryArgCount]\n"
    )
  }

  @Test func compactRecordsPassThroughAsReadOthersAreMadeCompact() {
    let spaced = #"{ "id": "s", "app": "x", "created_at": "2026-11-22T09:00:00Z", "body": "a\/b" }"#
    let compact =
      #"{"id":"c","app":"x","title":"t","created_at":"2026-11-22T08:00:00Z","extra":[1.50,2]}"#
    let result = group([spaced, compact])
    #expect(
      value("items", in: result.lines[0])
        == #"[{"id":"s","app":"x","created_at":"2026-11-22T09:00:00Z","body":"a/b"},"#
        + compact + "]")
  }

  @Test func writesEveryKeyOfTheContractInOrder() {
    let line = group([record("a", thread: "t")]).lines[0]
    #expect(
      line
        == #"{"app":"com.example.chat","thread_id":"t","count":1,"unread_count":1,"new_count":1,"#
        + #""latest_at":"2026-11-22T09:00:00Z","leading":"# + record("a", thread: "t")
        + #","more_count":0,"more_weight":0,"more_categories":[],"more_summary_args":[],"#
        + #""items":["# + record("a", thread: "t") + #"],"items_omitted":0,"#
        + #""grouping":{"by":"thread","sort":"time","order":"feed","limit":null,"#
        + #""last_seen":null,"all_pushes":false}}"#)
  }

  @Test func noRecordsNoGroups() {
    let result = group([])
    #expect(result.status == .success)
    #expect(result.stdout.isEmpty)
  }
  /// Long values go out in pieces from where they are kept (`Grouper.write`): a group object
  /// with an app, a thread, summary arguments and records far longer than a piece is written
  /// whole and in order, as one with short ones.
  @Test func groupObjectsOfLongValuesAreWrittenWhole() {
    let long = String(repeating: "x", count: 3 * Grouper.pieceSize)
    let app = "com.example." + long
    let records = [
      record("a", app: app, thread: long, at: "2026-11-22T09:00:00Z", summaryArg: "A" + long),
      record("b", app: app, thread: long, at: "2026-11-22T08:00:00Z", summaryArg: "B" + long),
      record("c", app: "com.example.chat", thread: "short"),
    ]
    let result = group(["--max-record-bytes", "1m"], records)
    #expect(result.status == .success && result.stderr.isEmpty)
    #expect(result.lines.count == 2)
    let line = result.lines.first ?? ""
    #expect(value("app", in: line) == "\"\(app)\"")
    #expect(value("thread_id", in: line) == "\"\(long)\"")
    #expect(value("leading", in: line) == records[0])
    #expect(value("items", in: line) == "[" + records[0] + "," + records[1] + "]")
    #expect(value("more_summary_args", in: line)?.contains("\"B" + long + "\"") == true)
    #expect(ids(result.lines.last) == ["c", "c"])
  }
}
