import Foundation
import NotifModel
import TestSupport
import Testing

@testable import notif_digest

private let hourly = ["--window", "1h", "--now", digestNow]

/// Records of three posts over three hours, in time order.
private let records: [String] = (0..<30).map { n in
  let minutes = 7 * 60 + n * 4
  let time = String(format: "2026-11-22T%02d:%02d:00Z", minutes / 60, minutes % 60)
  return record(
    "r\(n)", time, thread: "post-\(n % 3)", category: n % 4 == 0 ? "comment" : "like",
    actor: ["Alice", "Bob", "Carol", "Dan"][n % 4], readAt: n % 5 == 0 ? time : nil)
}

/// `--merge` over `objects` (lines), with `extra` options.
private func merge(_ objects: String, _ extra: [String] = []) throws -> DigestOutcome {
  let lines = objects.split(separator: "\n").map(String.init)
  return try digest(["--merge"] + extra, input: lines)
}

@Suite struct MergeTests {
  /// The digests of an input cut anywhere, merged, are those of the whole input merged: the
  /// partial digests of one window join into the one a single run writes.
  @Test(arguments: [1, 7, 15, 29])
  func partsMergeIntoTheDigestsOfTheWhole(_ cut: Int) throws {
    let options = hourly + ["--item-limit", "3", "--item-end", "last"]
    let whole = try digest(options, input: records)
    let first = try digest(options, input: Array(records[..<cut]))
    let second = try digest(options, input: Array(records[cut...]))
    let reference = try merge(whole.stdout)
    let merged = try merge(first.stdout + second.stdout)
    #expect(merged.status == .success)
    #expect(merged.stdout == reference.stdout)
    // The whole input's digests are one per key and window already: the merge only orders.
    #expect(
      Set(reference.stdout.split(separator: "\n")) == Set(whole.stdout.split(separator: "\n")))
  }

  @Test func repeatsAreDroppedAndMergingIsIdempotent() throws {
    let whole = try digest(hourly, input: records)
    let once = try merge(whole.stdout)
    let twice = try merge(whole.stdout + whole.stdout)
    #expect(twice.stdout == once.stdout)
    #expect(try merge(once.stdout).stdout == once.stdout)
  }

  /// "40 people liked your picture": the unread digests of one key merge into one, spanning
  /// their windows; a read one stays as it is.
  @Test func unreadDigestsOfAKeyMergeIntoOne() throws {
    let whole = try digest(hourly, input: records)
    var lines = whole.stdout.split(separator: "\n").map(String.init)
    let readIndex = try #require(lines.firstIndex { $0.contains(#""thread_id":"post-0""#) })
    lines[readIndex] = lines[readIndex].replacingOccurrences(
      of: #""read_at":null"#, with: #""read_at":"2026-11-22T09:30:00Z""#)
    let merged = try merge(lines.joined(separator: "\n"), ["--merge-unread"])
    #expect(merged.status == .success)
    let objects = merged.objects
    #expect(objects.count == 4)  // three keys, one of them with a read digest apart
    let total = objects.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
    #expect(total == 30)
    let spanning = objects.filter {
      ($0["window_start"] as? String) == "2026-11-22T07:00:00Z"
        && ($0["window_end"] as? String) == "2026-11-22T09:00:00Z"
    }
    #expect(spanning.count == 2)
    // Its id is what a digest of its members over its window would have.
    let members = records.filter { $0.contains(#""post-1""#) }
    var sum = DigestID.zero
    for line in members {
      let id = try #require(line.split(separator: "\"").dropFirst(3).first)
      Array(id.utf8).withUnsafeBytes { sum.add(memberHash: DigestID.member($0)) }
    }
    let key = Array(#"{"app":"com.example.social","thread_id":"post-1"}"#.utf8)
    let window = DigestWindow(
      start: try Timestamp(rfc3339: "2026-11-22T07:00:00Z"),
      end: try Timestamp(rfc3339: "2026-11-22T09:00:00Z"))
    let expected = sum.adding(key.withUnsafeBytes { DigestID.frame(key: $0, window: window) }).hex
    #expect(objects.contains { $0["digest_id"] as? String == expected })
  }

  @Test func digestsMadeWithOtherOptionsAreRefused() throws {
    let hours = try digest(hourly, input: records)
    let halves = try digest(["--window", "30m", "--now", digestNow], input: records)
    let merged = try merge(hours.stdout + halves.stdout)
    #expect(merged.status == .rejected)
    #expect(merged.objects.count == hours.objects.count)
    #expect(
      merged.stderr.contains(
        #"error: made with 'digesting.window' "30m", not "1h" as the digest objects before it: merged, they would not be the digests of one run [DigestingMismatch]"#
      ))
  }

  @Test func digestsOfOtherPushesAreRefused() throws {
    let listed = try digest(hourly, input: records)
    let every = try digest(hourly + ["--all-pushes"], input: records)
    let merged = try merge(listed.stdout + every.stdout)
    #expect(merged.status == .rejected)
    #expect(
      merged.stderr.contains(
        "error: made with 'digesting.all_pushes' true, not false as the digest objects before it: merged, they would not be the digests of one run [DigestingMismatch]"
      ))
  }

  /// A `digesting` without `all_pushes` was written before the option, by a notif-digest that
  /// digested every record: it reads as true.
  @Test func aMissingAllPushesReadsAsTrue() throws {
    let line = try #require(try digest(hourly, input: records).stdout.split(separator: "\n").first)
    let old = line.replacingOccurrences(of: #","all_pushes":false}"#, with: "}")
    #expect(old != line)
    let alone = try merge(old)
    #expect(alone.status == .success)
    #expect(alone.stdout.contains(#","all_pushes":true}"#))
    let mixed = try merge(String(line) + "\n" + old)
    #expect(mixed.status == .rejected)
    #expect(
      mixed.stderr.contains(
        "made with 'digesting.all_pushes' missing (every push, by a notif-digest older than --all-pushes), not false"
      ), "\(mixed.stderr)")
  }

  @Test func aMergePastMaxItemsKeepsThemApart() throws {
    let options = hourly + ["--max-items", "4", "--flush"]
    let lines = Array(records.filter { $0.contains("post-0") }.prefix(6))
    let first = try digest(options, input: Array(lines[..<3]))
    let second = try digest(options, input: Array(lines[3...]))
    let merged = try merge(first.stdout + second.stdout)
    #expect(merged.objects.map { $0["count"] as? Int }.count == 3)
  }

  /// Digests of one key and window that stay apart (together past `max_items`) are written in
  /// the order they were merged in, so that merging them again keeps them apart: in another
  /// order (by `digest_id`, as before), two that were apart could come side by side and join.
  /// Found by the digest-records fuzz target.
  @Test(arguments: ["a", "b", "c"])
  func digestsKeptApartStayApartWhenMergedAgain(_ prefix: String) throws {
    let options = hourly + ["--max-items", "2", "--flush"]
    let lines = (0..<6).map { n in
      record("\(prefix)\(n)", String(format: "2026-11-22T07:%02d:00Z", n * 5))
    }
    var parts = ""
    for range in [0..<2, 2..<3, 3..<5, 5..<6] {
      parts += try digest(options, input: Array(lines[range])).stdout
    }
    let merged = try merge(parts)
    #expect(merged.status == .success)
    #expect(merged.objects.map { $0["count"] as? Int } == [2, 1, 2, 1])
    #expect(try merge(merged.stdout).stdout == merged.stdout)
  }

  /// Two parts that merge into a digest that was read as well (the same records) give it once,
  /// as a digest read twice is: merging again then changes nothing. Found by the fuzz target.
  @Test func aMergedDigestAlsoReadIsWrittenOnce() throws {
    let options = hourly + ["--max-items", "2", "--flush"]
    let lines = [record("m0", "2026-11-22T07:00:00Z"), record("m1", "2026-11-22T07:05:00Z")]
    var parts = ""
    for range in [0..<1, 1..<2, 0..<2] {
      parts += try digest(options, input: Array(lines[range])).stdout
    }
    let merged = try merge(parts)
    #expect(merged.status == .success)
    #expect(merged.objects.map { $0["count"] as? Int } == [2])
    #expect(try merge(merged.stdout).stdout == merged.stdout)
  }

  @Test(arguments: [
    (#"{"digest_id":"x"}"#, "not a digest object: the key 'key' is missing [BadDigest]"),
    (#"[]"#, "a digest object is a JSON object, not an array [BadDigest]"),
  ])
  func badObjectsAreRejected(_ line: String, _ message: String) throws {
    let outcome = try merge(line)
    #expect(outcome.status == .rejected)
    #expect(outcome.stderr.hasSuffix("\(message)\n"), "\(outcome.stderr)")
  }

  /// Every key of a digest object is checked: each one set to a wrong value is refused, with
  /// a message that names it.
  @Test(arguments: [
    ("count", "0", "count"), ("unread_count", "99", "unread_count"),
    ("items_omitted", "99", "items_omitted"),
    ("window_start", #""2027-01-01T00:00:00Z""#, "window_end"),
    ("digest_id", #""ZZ""#, "digest_id"),
    ("latest_at", #""soon""#, "latest_at"), ("read_at", #""soon""#, "read_at"),
    ("key", "[1]", "key"),
    ("items", "1", "items"), ("items", "[1]", "items"), ("summary", "1", "summary"),
    ("summary", "null", "summary"), ("hidden_summary", "null", "hidden_summary"),
    ("latest_at", "1", "latest_at"), ("read_at", "1", "read_at"),
    ("categories", "[]", "categories"),
    ("actors", #"[{"actor":"","count":1,"latest_at":"2026-11-22T07:00:00Z"}]"#, "actor"),
    ("digesting.limit", "0", "digesting.limit"), ("digesting.window", "null", "digesting.align"),
    ("digesting.items", #""some""#, "digesting.items"), ("digesting.key", "[]", "digesting.key"),
    ("digesting.at", #"["08:00"]"#, "digesting.at"),
    ("digesting.max_items", "-1", "digesting.max_items"),
    ("digesting.all_pushes", "1", "digesting.all_pushes"),
    ("extra", "1", "extra"), ("digesting.extra", "1", "extra"),
  ])
  func everyKeyIsChecked(_ path: String, _ json: String, _ named: String) throws {
    let value = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
    let line = try #require(try digest(hourly, input: records).stdout.split(separator: "\n").first)
    var object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    let parts = path.split(separator: ".").map(String.init)
    if parts.count == 2 {
      var inner = try #require(object[parts[0]] as? [String: Any])
      inner[parts[1]] = value
      object[parts[0]] = inner
    } else {
      object[path] = value
    }
    let changed = String(
      decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    let outcome = try merge(changed)
    #expect(outcome.status == .rejected, "\(path): \(outcome.stdout)")
    #expect(outcome.stderr.contains("'\(named)"), "\(path): \(outcome.stderr)")
  }
}
