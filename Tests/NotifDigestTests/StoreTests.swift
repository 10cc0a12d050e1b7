import Foundation
import NotifModel
import TestSupport
import Testing

@testable import notif_digest

private let records = [
  record("a", "2026-11-22T07:10:00Z", actor: "Alice"),
  record("b", "2026-11-22T08:10:00Z", actor: "Bob"),
  record("c", "2026-11-22T08:20:00Z", thread: "u", actor: "Carol"),
  record("d", "2026-11-22T09:10:00Z", actor: "Dan"),
]

/// A scratch folder with the store `inbox.ndjson` holding `lines`.
private func store(_ lines: [String]) throws -> URL {
  let folder = try makeScratchFolder("notif-digest-store")
  try Data(lines.map { $0 + "\n" }.joined().utf8).write(
    to: folder.appendingPathComponent("inbox.ndjson"))
  return folder
}

private func lines(_ folder: URL, _ name: String) -> [String] {
  fileText(folder.appendingPathComponent(name).path).split(separator: "\n").map(String.init)
}

private func ids(_ outcome: DigestOutcome) -> [[String]] {
  outcome.objects.map {
    ($0["items"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
  }
}

@Suite struct StoreTests {
  /// Hourly from cron: each run writes the digests of the windows that closed since the last,
  /// marks their records, and never writes one twice.
  @Test func eachRecordGoesIntoOneDigest() throws {
    let folder = try store(records)
    defer { try? FileManager.default.removeItem(at: folder) }
    let inbox = "@file:inbox.ndjson"
    let first = try digest(
      ["--window", "1h", "--now", "2026-11-22T09:00:05Z", "--store", inbox], in: folder)
    #expect(first.status == .success, "\(first.stderr)")
    // d waits in the store for the next run: no note of an open window, as a filter gives.
    #expect(first.stderr.isEmpty)
    #expect(ids(first) == [["a"], ["b"], ["c"]])
    let marked = lines(folder, "inbox.ndjson")
    #expect(
      marked.map { $0.hasSuffix(#","digested_at":"2026-11-22T09:00:05Z"}"#) } == [
        true, true, true, false,
      ])
    #expect(marked[3] == records[3])
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("inbox.ndjson.digests").path))
    let again = try digest(
      ["--window", "1h", "--now", "2026-11-22T09:30:00Z", "--store", inbox], in: folder)
    #expect(again.stdout.isEmpty)
    #expect(lines(folder, "inbox.ndjson") == marked)
    let next = try digest(
      [
        "--window", "1h", "--now", "2026-11-22T10:00:05Z", "--store", inbox, "--out",
        "@file:out.ndjson",
      ],
      in: folder)
    #expect(next.stdout.isEmpty)
    #expect(lines(folder, "out.ndjson").count == 1)
    #expect(lines(folder, "inbox.ndjson").allSatisfy { $0.contains("digested_at") })
  }

  @Test func aDryRunChangesNothing() throws {
    let folder = try store(records)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outcome = try digest(
      ["--window", "1h", "--now", "2026-11-22T09:00:05Z", "--store", "@file:inbox.ndjson", "-n"],
      in: folder)
    #expect(ids(outcome) == [["a"], ["b"], ["c"]])
    #expect(lines(folder, "inbox.ndjson") == records)
  }

  /// The digests a run put in the outbox but did not get out (killed after the store was
  /// replaced) come out first in the next run, the same bytes.
  @Test func aPendingOutboxComesOutFirst() throws {
    let folder = try store(records)
    defer { try? FileManager.default.removeItem(at: folder) }
    let pending = #"{"digest_id":"pending"}"# + "\n"
    try Data(pending.utf8).write(to: folder.appendingPathComponent("inbox.ndjson.digests"))
    let outcome = try digest(
      ["--window", "1h", "--now", "2026-11-22T09:00:05Z", "--store", "@file:inbox.ndjson"],
      in: folder)
    #expect(outcome.stdout.hasPrefix(pending))
    #expect(outcome.objects.count == 4)
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.appendingPathComponent("inbox.ndjson.digests").path))
  }

  @Test func aLineThatIsNoRecordIsKeptAsItIs() throws {
    let folder = try store(["not a record"] + records)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outcome = try digest(
      ["--window", "1h", "--now", "2026-11-22T09:00:05Z", "--store", "@file:inbox.ndjson"],
      in: folder)
    #expect(outcome.status == .rejected)
    #expect(outcome.stderr.contains("(kept as it is, not digested) [InvalidJSON]"))
    #expect(lines(folder, "inbox.ndjson").first == "not a record")
  }

  @Test(arguments: [
    (
      ["--out", "@file:inbox.ndjson"],
      "--out 'INBOX' is the same file as --store 'INBOX': each must be a file of its own"
    ),
    (
      ["--out", "@file:inbox.ndjson.digests"],
      "the store's outbox 'OUTBOX' is the same file as --out 'OUTBOX': each must be a file of its own"
    ),
  ])
  func theFilesOfARunAreFilesOfTheirOwn(_ extra: [String], _ message: String) throws {
    let folder = try store(records)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outcome = try digest(
      ["--window", "1h", "--store", "@file:inbox.ndjson"] + extra, in: folder)
    #expect(outcome.status == .failure)
    let inbox = folder.appendingPathComponent("inbox.ndjson").path
    let expected = message.replacingOccurrences(of: "OUTBOX", with: inbox + ".digests")
      .replacingOccurrences(of: "INBOX", with: inbox)
    #expect(outcome.stderr.hasPrefix("notif-digest: \(expected)\n"), "\(outcome.stderr)")
  }
}
