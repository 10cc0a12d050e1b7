import Foundation
import NotifModel
import TestSupport
import Testing

@testable import notif_digest

private let hourly = ["--window", "1h", "--now", digestNow]

/// Three likes and a comment on one post in the 08:00 hour, one like at 09:10.
private let likes = [
  record("a", "2026-11-22T08:05:00Z", actor: "Alice"),
  record("b", "2026-11-22T08:10:00Z", actor: "Bob", readAt: "2026-11-22T08:11:00Z"),
  record("c", "2026-11-22T08:20:00Z", actor: "Alice"),
  record("d", "2026-11-22T08:30:00Z", category: "comment", actor: "Carol"),
  record("e", "2026-11-22T09:10:00Z", actor: "Dan"),
]

@Suite struct DigestTests {
  @Test func oneDigestPerKeyAndClosedWindow() throws {
    let outcome = try digest(hourly, input: likes)
    #expect(outcome.status == .success)
    #expect(outcome.stderr.hasSuffix(" [OpenWindows]\n"))
    let objects = outcome.objects
    try #require(objects.count == 1)
    let digest = objects[0]
    #expect(digest["count"] as? Int == 4)
    #expect(digest["unread_count"] as? Int == 3)
    #expect(digest["window_start"] as? String == "2026-11-22T08:00:00Z")
    #expect(digest["window_end"] as? String == "2026-11-22T09:00:00Z")
    #expect(digest["latest_at"] as? String == "2026-11-22T08:30:00Z")
    let actors = (digest["actors"] as? [[String: Any]])?.map { $0["actor"] as? String }
    #expect(actors == ["Carol", "Alice", "Bob"])
    let categories = (digest["categories"] as? [[String: Any]])?.map {
      "\($0["category"] ?? "null"):\($0["count"] ?? 0)"
    }
    #expect(categories == ["comment:1", "like:3"])
    #expect(
      (digest["items"] as? [[String: Any]])?.map { $0["id"] as? String } == ["a", "b", "c", "d"])
    #expect(digest["items_omitted"] as? Int == 0)
    #expect(digest["summary"] as? String == "4 notifications")
    #expect(digest["read_at"] is NSNull)
    #expect(Array(digest.keys).count == DigestField.allCases.count)
  }

  /// As a filter, the records of windows still open at `--now` are not written: the run ends
  /// with a note of how many wait and when the first of those windows closes, so that they
  /// are not lost unseen. Nothing waits, no note.
  @Test func aFilterRunEndsWithANoteOfTheRecordsInOpenWindows() throws {
    func notes(_ outcome: DigestOutcome) -> [String] {
      outcome.stderr.split(separator: "\n").map {
        $0.replacingOccurrences(
          of: #"^notif-digest: .*in\.ndjson: "#, with: "", options: .regularExpression)
      }
    }
    let one = try digest(hourly, input: likes)
    #expect(one.status == .success)
    #expect(
      notes(one) == [
        "note: 1 record waits in a window still open, which closes at 2026-11-22T10:00:00Z; "
          + "--flush writes it [OpenWindows]"
      ])
    let five = try digest(["--window", "1h", "--now", "2026-11-22T08:45:00Z"], input: likes)
    #expect(five.objects.isEmpty)
    #expect(
      notes(five) == [
        "note: 5 records wait in windows still open, the first of which closes at "
          + "2026-11-22T09:00:00Z; --flush writes them [OpenWindows]"
      ])
    let json = try digest(
      ["--window", "1h", "--now", "2026-11-22T08:45:00Z", "--format", "json"], input: likes)
    #expect(
      json.stderr.contains(#""line":null,"column":null,"severity":"note","code":"OpenWindows""#))
    #expect(json.status == .success)
    #expect(try digest(hourly + ["--flush"], input: likes).stderr.isEmpty)
    #expect(
      try digest(["--window", "1h", "--now", "2026-11-22T10:00:00Z"], input: likes).stderr.isEmpty)
  }

  @Test func flushWritesTheOpenWindowsToo() throws {
    let outcome = try digest(hourly + ["--flush"], input: likes)
    #expect(outcome.objects.map { $0["count"] as? Int } == [4, 1])
  }

  @Test func aLaterRecordOfTheKeyClosesItsWindowAtOnce() throws {
    // As a filter on a pipe, a window's digest comes out when the key's next record does.
    let outcome = try digest(["--window", "1h", "--now", "2026-11-22T10:00:00Z"], input: likes)
    #expect(outcome.objects.map { $0["count"] as? Int } == [4, 1])
  }

  @Test(arguments: [("first", ["a", "b"], 2), ("last", ["c", "d"], 2)])
  func firstOrLastItems(_ end: String, _ ids: [String], _ omitted: Int) throws {
    let outcome = try digest(hourly + ["--item-end", end, "--item-limit", "2"], input: likes)
    let items = outcome.objects.first?["items"] as? [[String: Any]]
    #expect(items?.map { $0["id"] as? String } == ids)
    #expect(outcome.objects.first?["items_omitted"] as? Int == omitted)
  }

  @Test func lateRecordsMakeAnotherDigestOfTheirWindow() throws {
    let input = [
      record("a", "2026-11-22T07:10:00Z"), record("b", "2026-11-22T08:10:00Z"),
      record("c", "2026-11-22T07:50:00Z"), record("d", "2026-11-22T08:20:00Z"),
    ]
    let objects = try digest(hourly, input: input).objects
    #expect(
      objects.map { $0["window_start"] as? String } == [
        "2026-11-22T07:00:00Z", "2026-11-22T07:00:00Z", "2026-11-22T08:00:00Z",
      ])
    #expect(objects.map { $0["count"] as? Int } == [1, 1, 2])
  }

  /// Novu's and Knock's look-back: the first record after a quiet period goes out at once,
  /// alone; the rest of the burst is digested.
  @Test func lookbackPassesTheFirstOfAQuietPeriodThrough() throws {
    let input = [
      record("a", "2026-11-22T08:05:00Z", actor: "Alice"),
      record("b", "2026-11-22T08:06:00Z", actor: "Bob"),
      record("c", "2026-11-22T08:07:00Z", actor: "Carol"),
      record("d", "2026-11-22T08:40:00Z", actor: "Dan"),
    ]
    let objects = try digest(hourly + ["--lookback", "15m"], input: input).objects
    #expect(objects.map { $0["count"] as? Int } == [1, 1, 2])
    #expect(
      objects.map { $0["window_start"] as? String } == [
        "2026-11-22T08:05:00Z", "2026-11-22T08:40:00Z", "2026-11-22T08:00:00Z",
      ])
    #expect(objects[0]["window_end"] as? String == "2026-11-22T08:05:00Z")
  }

  @Test func digestedRecordsAreNotDigestedAgainButKeepTheKeyBusy() throws {
    let input = [
      record("a", "2026-11-22T08:05:00Z", digestedAt: "2026-11-22T08:06:00Z"),
      record("b", "2026-11-22T08:10:00Z"),
    ]
    let objects = try digest(hourly + ["--lookback", "15m"], input: input).objects
    #expect(objects.count == 1)
    #expect(objects.first?["window_start"] as? String == "2026-11-22T08:00:00Z")
    #expect((objects.first?["items"] as? [[String: Any]])?.map { $0["id"] as? String } == ["b"])
  }

  @Test func maxItemsClosesADigestEarly() throws {
    let input = (0..<5).map { record("r\($0)", "2026-11-22T09:0\($0):00Z") }
    let objects = try digest(
      ["--window", "1h", "--now", "2026-11-22T09:30:00Z", "--max-items", "2"], input: input
    ).objects
    #expect(objects.map { $0["count"] as? Int } == [2, 2])
  }

  @Test func keysArePathsIntoTheRecord() throws {
    let input = [
      record("a", "2026-11-22T08:05:00Z", actor: "Alice"),
      record("b", "2026-11-22T08:06:00Z", thread: "u", actor: "Alice"),
      record("c", "2026-11-22T08:07:00Z", actor: "Bob"),
    ]
    let objects = try digest(hourly + ["--key", "payload.user", "--key", "nope.x"], input: input)
      .objects
    #expect(objects.map { $0["count"] as? Int } == [2, 1])
    let key = objects.first?["key"] as? [String: Any]
    #expect(key?["payload.user"] as? String == "Alice")
    #expect(key?["nope.x"] is NSNull)
  }

  /// The same members, key and window give the same id, whatever their order; another member
  /// another id.
  @Test func digestIDsAreDerivedFromTheMembers() throws {
    let id = { (input: [String]) throws -> String? in
      try digest(hourly, input: input).objects.first?["digest_id"] as? String
    }
    let first = try id(Array(likes.prefix(4)))
    #expect(first == (try id(Array(likes.prefix(4)).reversed())))
    #expect(first != (try id(Array(likes.prefix(3)))))
    var members = DigestID.zero
    for member in ["a", "b", "c", "d"] {
      Array(member.utf8).withUnsafeBytes { members.add(memberHash: DigestID.member($0)) }
    }
    let key = Array(#"{"app":"com.example.social","thread_id":"t"}"#.utf8)
    let window = DigestWindow(
      start: try Timestamp(rfc3339: "2026-11-22T08:00:00Z"),
      end: try Timestamp(rfc3339: "2026-11-22T09:00:00Z"))
    #expect(
      first == members.adding(key.withUnsafeBytes { DigestID.frame(key: $0, window: window) }).hex)
  }

  @Test func recordsThatCannotBeDigestedAreReported() throws {
    let input = [
      #"{"id":"x","created_at":"yesterday"}"#, #"{"created_at":"2026-11-22T08:00:00Z"}"#,
      "not json", #"{"id":"y","created_at":"2026-11-22T08:00:00Z","category":3}"#,
      record("a", "2026-11-22T08:05:00Z"),
    ]
    let outcome = try digest(hourly, input: input)
    #expect(outcome.status == .rejected)
    #expect(outcome.objects.count == 1)
    let lines = outcome.stderr.split(separator: "\n").map {
      $0.replacingOccurrences(
        of: #"^notif-digest: .*in\.ndjson:"#, with: "", options: .regularExpression)
    }
    #expect(
      lines == [
        "1:24: error: 'created_at' is missing or not an RFC 3339 time such as 2026-11-22T09:05:00Z [BadRecord]",
        "2:1: error: 'id' is missing or not a string: a digest names its records by id [BadRecord]",
        "3:1: error: unexpected word 'not' (only true, false and null go unquoted; strings need double quotes) [InvalidJSON]",
        "4:58: error: 'category' is a number, not a string or null [BadRecord]",
      ])
  }

  @Test(arguments: [
    ([String](), "give the windows: --window duration, or --at hh:mm"),
    (
      ["--window", "1h", "--at", "08:00"],
      "--window and --at cannot be used together: give one kind of window"
    ),
    (
      ["--window", "1h", "--tz", "UTC"],
      "--tz goes with --at: --window windows are the same length everywhere; for days in a time zone, give --at 00:00 --tz zone"
    ),
    (
      ["--at", "08:00", "--align", "@0"],
      "--align goes with --window: --at windows start at its times"
    ),
    (["--window", "0s"], "--window: '0s' is no time at all"),
    (["--window", "60"], "--window: '60' has no unit: write it as 60s, 60m, 60h or 60d"),
    (["--at", "8am"], "--at: '8am' is not a time of day such as 08:00 or 18:30"),
    (
      ["--at", "08:00", "--tz", "Mars/Olympus"],
      "--tz: 'Mars/Olympus' is not a time zone of the tz database (/usr/share/zoneinfo/Mars/Olympus)"
    ),
    (["--window", "1h", "--item-end", "middle"], "--item-end: 'middle' is not first or last"),
    (
      ["--window", "1h", "--key", "app,,x"],
      "--key: '' is not a record key or a path such as payload.user_id"
    ),
    (["--window", "1h", "--key", "app", "--key", "app"], "--key: 'app' is given twice"),
    (
      ["--window", "1h", "--out", "x"],
      "--out goes with --store: as a filter, the digests go to standard output"
    ),
    (["--window", "1h", "-n"], "--dry-run goes with --store: a filter changes nothing anyway"),
    (
      ["--merge", "--window", "1h"],
      "--window cannot be used with --merge: digest objects carry the options that made them"
    ),
    (["--merge-unread"], "--merge-unread goes with --merge: it merges the unread digests of a key"),
    (
      ["--window", "1h", "--max-items", "0"],
      "--max-items: '0' is not a whole number from 1 to 9007199254740991"
    ),
  ])
  func usageErrors(_ arguments: [String], _ message: String) throws {
    let outcome = try digest(arguments)
    #expect(outcome.status == .failure)
    #expect(outcome.stderr.hasPrefix("notif-digest: \(message)\nusage: notif-digest"))
  }

  @Test func textsComeFromTheRegistry() throws {
    let categories = #"""
      {"like": {"digest_format": "%@ liked your photo", "hidden_previews_body_placeholder": "%u likes"},
       "comment": {"digest_format": "%u new comments from %@"}}
      """#
    let input = ["Alice", "Bob", "Carol", "Dan", "Eve", "Fay"].enumerated().map {
      record("l\($0.offset)", "2026-11-22T08:0\($0.offset):00Z", actor: $0.element)
    }
    let outcome = try digest(
      hourly + ["--categories", "@file:categories.json", "--max-args", "1"], input: input,
      files: ["categories.json": categories])
    #expect(outcome.objects.first?["summary"] as? String == "Fay and 5 others liked your photo")
    #expect(outcome.objects.first?["hidden_summary"] as? String == "6 likes")
    let comments = try digest(
      hourly + ["--categories", "@file:categories.json"],
      input: [
        record("c1", "2026-11-22T08:01:00Z", category: "comment", actor: "Bob"),
        record("c2", "2026-11-22T08:02:00Z", category: "comment", actor: "Carol"),
        record("c3", "2026-11-22T08:03:00Z", category: "comment", actor: "Bob"),
      ], files: ["categories.json": categories])
    #expect(comments.objects.first?["summary"] as? String == "3 new comments from Bob and Carol")
  }
}
