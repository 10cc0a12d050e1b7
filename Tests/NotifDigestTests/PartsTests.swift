import Foundation
import NotifModel
import TestSupport
import Testing

@testable import notif_digest

/// Records in `created_at` order, from `dice`: two apps, three threads each, over about two
/// and a half days from 2026-10-24, across the night Berlin's clocks go back (2026-10-25); a
/// record every few minutes in bursts, quiet hours between them, several records of one second
/// (ties), records the device does not list (a background push, a record with no text), read
/// and unread ones.
private func generated(_ dice: inout SplitMix, count: Int) -> (lines: [String], end: Date) {
  var time = 1_792_800_000  // 2026-10-24T00:00:00Z
  var lines: [String] = []
  let formatter = ISO8601DateFormatter()
  for number in 0..<count {
    switch dice.below(8) {
    case 0: time += 3600 + dice.below(5 * 3600)
    case 1: break
    default: time += dice.below(600)
    }
    let createdAt = formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
    let app = dice.pick(["com.example.chat", "com.example.social"])
    let thread = "t\(dice.below(3))"
    let text: String
    switch dice.below(15) {
    case 0: text = #""push_type":"background","content_available":true"#
    case 1: text = #""title":null"#
    default: text = #""title":"New activity""#
    }
    let readAt = dice.below(4) == 0 ? "\"\(createdAt)\"" : "null"
    lines.append(
      #"{"id":"r\#(number)","app":"\#(app)","thread_id":"\#(thread)","#
        + #""category":"\#(dice.pick(["like", "comment"]))","created_at":"\#(createdAt)","#
        + #"\#(text),"summary_arg":"\#(dice.pick(["Alice", "Bob", "Carol"]))","#
        + #""read_at":\#(readAt)}"#)
  }
  return (lines, Date(timeIntervalSince1970: TimeInterval(time)))
}

/// The ids of the records the device lists, which digests hold.
private func listed(_ lines: [String]) -> [String] {
  lines.filter { $0.contains(#""title":"New activity""#) }.compactMap {
    $0.split(separator: "\"").dropFirst(3).first.map(String.init)
  }
}

/// `notif-digest --merge` over files holding `outputs`, one file each, in order.
private func merge(_ outputs: [String], in folder: URL) throws -> DigestOutcome {
  var files: [String: String] = [:]
  for (number, output) in outputs.enumerated() { files["part-\(number).digests"] = output }
  return try digest(
    ["--merge"] + outputs.indices.map { "@file:part-\($0).digests" }, in: folder, files: files)
}

@Suite struct PartsTests {
  /// Every kind of window, with and without `--lookback`.
  static let kinds: [[String]] = [
    ["--window", "1h"],
    ["--window", "45m", "--align", "2026-10-24T00:10:00Z"],
    ["--at", "08:00,18:30", "--tz", "Europe/Berlin"],
    ["--window", "1h", "--lookback", "20m"],
    ["--window", "1d", "--lookback", "3h"],
    ["--at", "02:30,08:00", "--tz", "Europe/Berlin", "--lookback", "90m"],
    ["--at", "00:00", "--lookback", "10m"],
  ]

  /// notif-digest(1), "Running at scale": an input in `created_at` order, cut anywhere, run in
  /// parts with the same options and `--now`, gives through `--merge` (each part's digests a
  /// file, in order) the digests one run gives through it, the same bytes; with every window
  /// ended, each record the device lists is in exactly one of them. With `--lookback` the
  /// earlier parts must write all they read (every window ended, or `--flush`); without it,
  /// windows may stay open.
  ///
  /// Seeded: the same cuts on every run. Before `--merge` put back what a part passed through
  /// for want of the records before its first line, every kind with `--lookback` failed.
  @Test(arguments: kinds)
  func partsCutAnywhereMergeIntoTheDigestsOfOneRun(_ kind: [String]) throws {
    let folder = try makeScratchFolder("notif-digest-parts")
    defer { try? FileManager.default.removeItem(at: folder) }
    var dice = SplitMix(seed: kind.joined().utf8.reduce(7) { $0 &* 31 &+ UInt64($1) })
    let lookback = kind.contains("--lookback")
    for trial in 0..<8 {
      let (lines, end) = generated(&dice, count: 40 + dice.below(100))
      // Every window ended (the longest is a day, or two for the night the clocks go back), or
      // all written at the end, or (without --lookback) some still open.
      let formatter = ISO8601DateFormatter()
      var options = kind
      switch dice.below(lookback ? 2 : 3) {
      case 0: options += ["--now", formatter.string(from: end.addingTimeInterval(3 * 86_400))]
      case 1: options += ["--now", "2026-10-25T12:00:00Z", "--flush"]
      default: options += ["--now", "2026-10-25T12:00:00Z"]
      }
      let everyWindowWritten =
        !options.contains("2026-10-25T12:00:00Z") || options.contains("--flush")
      var cuts = (0..<(1 + dice.below(4))).map { _ in dice.below(lines.count + 1) }
      cuts = [0] + cuts.sorted() + [lines.count]
      let what = "\(options) trial \(trial), cuts \(cuts)"

      let whole = try digest(options, input: lines, in: folder)
      #expect(whole.status == .success, "\(what): \(whole.stderr)")
      var parts: [String] = []
      for (start, end) in zip(cuts, cuts.dropFirst()) {
        let part = try digest(options, input: Array(lines[start..<end]), in: folder)
        #expect(part.status == .success, "\(what): \(part.stderr)")
        parts.append(part.stdout)
      }
      let reference = try merge([whole.stdout], in: folder)
      let merged = try merge(parts, in: folder)
      #expect(merged.status == .success, "\(what): \(merged.stderr)")
      #expect(merged.stdout == reference.stdout, "\(what)")
      if everyWindowWritten {
        var seen: [String: Int] = [:]
        for object in merged.objects {
          for item in object["items"] as? [[String: Any]] ?? [] {
            if let id = item["id"] as? String { seen[id, default: 0] += 1 }
          }
        }
        let expected = listed(lines)
        #expect(seen.keys.sorted() == expected.sorted(), "\(what): records missing or extra")
        #expect(seen.values.allSatisfy { $0 == 1 }, "\(what): a record in two digests")
      }
    }
  }

  /// The first like of a part comes 5 minutes after the last of the part before: the part
  /// passes it through, and `--merge` puts it back into its hour, with the id one run gives.
  @Test func aRecordAPartPassedThroughGoesBackIntoItsWindow() throws {
    let folder = try makeScratchFolder("notif-digest-parts")
    defer { try? FileManager.default.removeItem(at: folder) }
    let lines = [
      record("a", "2026-11-22T07:10:00Z", actor: "Alice"),
      record("b", "2026-11-22T07:55:00Z", actor: "Bob"),
      record("c", "2026-11-22T08:00:00Z", actor: "Carol"),
      record("d", "2026-11-22T08:30:00Z", actor: "Dan"),
    ]
    let options = ["--window", "1h", "--lookback", "10m", "--now", digestNow]
    let whole = try digest(options, input: lines, in: folder)
    // a, b and d each come after a quiet period; c comes 5 minutes after b.
    #expect(
      whole.objects.map { $0["window_start"] as? String } == [
        "2026-11-22T07:10:00Z", "2026-11-22T07:55:00Z", "2026-11-22T08:30:00Z",
        "2026-11-22T08:00:00Z",
      ])
    let first = try digest(options, input: Array(lines[..<2]), in: folder)
    let second = try digest(options, input: Array(lines[2...]), in: folder)
    // Alone, the second part takes c for the first record after a quiet period.
    #expect(second.objects.first?["window_end"] as? String == "2026-11-22T08:00:00Z")
    let merged = try merge([first.stdout, second.stdout], in: folder)
    #expect(merged.status == .success)
    #expect(merged.stdout == (try merge([whole.stdout], in: folder)).stdout)
    let hour = merged.objects.first { $0["window_start"] as? String == "2026-11-22T08:00:00Z" }
    #expect((hour?["items"] as? [[String: Any]])?.map { $0["id"] as? String } == ["c"])
    #expect(hour?["window_end"] as? String == "2026-11-22T09:00:00Z")
  }

  /// The window of a record passed through by a schedule's part is in the zone of `--tz`: where
  /// the tz database lacks it, the record stays as it was read, said once (`BadDigest`).
  @Test func aZoneNotHereLeavesTheRecordAsItWasRead() throws {
    let folder = try makeScratchFolder("notif-digest-parts")
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = [
      "--at", "08:00", "--tz", "Europe/Berlin", "--lookback", "10m", "--now", digestNow,
    ]
    let lines = [
      record("a", "2026-11-22T07:50:00Z", actor: "Alice"),
      record("b", "2026-11-22T07:55:00Z", actor: "Bob"),
      record("c", "2026-11-22T08:00:00Z", actor: "Carol"),
    ]
    let parts = try [0..<1, 1..<2, 2..<3].map { range in
      try digest(options, input: Array(lines[range]), in: folder).stdout
        .replacingOccurrences(of: #""tz":"Europe/Berlin""#, with: #""tz":"Mars/Olympus""#)
    }
    let merged = try merge(parts, in: folder)
    #expect(merged.status == .rejected)
    #expect(merged.objects.map { $0["window_end"] as? String }.count == 3)
    let reports = merged.stderr.split(separator: "\n")
    #expect(reports.count == 1, "\(merged.stderr)")
    #expect(
      reports.first?.hasSuffix(
        "part-1.digests:1:1: error: 'digesting.tz': 'Mars/Olympus' is not a time zone of the tz "
          + "database (/usr/share/zoneinfo/Mars/Olympus): a record a part passed through by "
          + "--lookback cannot be put back into its window, and stays as it was read [BadDigest]")
        == true, "\(merged.stderr)")
  }

  /// One file is the digests of one run, which saw every record before the ones it passed
  /// through: a merge never moves them, so that merging a merge's output writes it again, even
  /// when a late record (out of order) of the key comes in the window before.
  @Test func theDigestsOfOneFileAreNeverMoved() throws {
    let folder = try makeScratchFolder("notif-digest-parts")
    defer { try? FileManager.default.removeItem(at: folder) }
    let lines = [
      record("a", "2026-11-22T08:02:00Z", actor: "Alice"),
      record("b", "2026-11-22T07:58:00Z", actor: "Bob"),
    ]
    let options = ["--window", "1h", "--lookback", "10m", "--now", "2026-11-22T10:00:00Z"]
    let whole = try digest(options, input: lines, in: folder)
    let once = try merge([whole.stdout], in: folder)
    #expect(
      once.objects.map { $0["window_start"] as? String } == [
        "2026-11-22T07:00:00Z", "2026-11-22T08:02:00Z",
      ])
    #expect(try merge([once.stdout], in: folder).stdout == once.stdout)
    #expect(Set(once.stdout.split(separator: "\n")) == Set(whole.stdout.split(separator: "\n")))
  }

  /// A record a part passed through after a quiet period that one run sees too stays passed
  /// through; so does one that was read (`read_at`), which went out as it is.
  @Test func aRecordAfterAQuietPeriodOrReadStaysPassedThrough() throws {
    let folder = try makeScratchFolder("notif-digest-parts")
    defer { try? FileManager.default.removeItem(at: folder) }
    let options = ["--window", "1h", "--lookback", "10m", "--now", digestNow]
    let first = try digest(
      options, input: [record("a", "2026-11-22T07:10:00Z", actor: "Alice")], in: folder)
    let quiet = try digest(
      options, input: [record("b", "2026-11-22T07:20:00Z", actor: "Bob")], in: folder)
    #expect(
      try merge([first.stdout, quiet.stdout], in: folder).objects.map {
        $0["window_end"] as? String
      } == ["2026-11-22T07:10:00Z", "2026-11-22T07:20:00Z"])
    let soon = try digest(
      options, input: [record("c", "2026-11-22T07:15:00Z", actor: "Carol")], in: folder)
    let read = soon.stdout.replacingOccurrences(
      of: #""read_at":null"#, with: #""read_at":"2026-11-22T07:16:00Z""#)
    #expect(read != soon.stdout)
    #expect(
      try merge([first.stdout, read], in: folder).objects.map { $0["window_end"] as? String }
        == ["2026-11-22T07:10:00Z", "2026-11-22T07:15:00Z"])
    #expect(
      try merge([first.stdout, soon.stdout], in: folder).objects.map {
        $0["window_end"] as? String
      } == ["2026-11-22T07:10:00Z", "2026-11-22T08:00:00Z"])
  }
}
