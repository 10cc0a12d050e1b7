import Foundation
import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// notif-show reads a digest object's top level with `DigestObjectReader` (NotifListing), as
/// `notif-digest --merge` does: the same faults in the same words, and what only `--merge`
/// requires left to it.
@Suite struct DigestReadingTests {
  /// A digest object of `count` records, with `items` and `extra` members after the others.
  static func digest(count: Int = 2, items: [String], extra: String = "") -> String {
    #"{"digest_id":"0123456789abcdef0123456789abcdef","key":{"app":"com.example.chat"},"#
      + #""window_start":"2026-11-22T08:00:00Z","window_end":"2026-11-22T09:00:00Z","#
      + #""count":\#(count),"unread_count":1,"latest_at":"2026-11-22T08:30:00Z","#
      + #""items":[\#(items.joined(separator: ","))],"items_omitted":\#(count - items.count)"#
      + extra + "}"
  }

  static func record(_ id: String, pushType: String = "alert") -> String {
    #"{"id":"\#(id)","app":"com.example.chat","title":"\#(id)","#
      + #""created_at":"2026-11-22T08:30:00Z","push_type":"\#(pushType)"}"#
  }

  static func show(_ line: String) throws -> WrongInputTests.Outcome {
    try WrongInputTests.run(Array((line + "\n").utf8), ["--jobs", "1"])
  }

  /// What only `--merge` needs (`actors`, `categories`, `digesting`, the texts, `read_at` as a
  /// time, no unknown key) is not asked for: the digest is shown, its count as its text.
  @Test func showsWhatItReadsAndIgnoresTheRest() throws {
    let shown = try Self.show(
      Self.digest(items: [Self.record("a")], extra: #","read_at":"soon","later":1"#))
    #expect(shown.status == .success, "\(shown.stderr)")
    #expect(shown.stderr == "")
    #expect(shown.stdout.contains("2 notifications"), "\(shown.stdout)")
  }

  /// The items are counted whole, those the device does not list too: a digest holds no more
  /// records than its `count`, as `--merge` reads it.
  @Test func countsEveryItemAgainstTheCount() throws {
    let shown = try Self.show(
      Self.digest(
        count: 1, items: [Self.record("a"), Self.record("b", pushType: "background")]))
    #expect(shown.status == .rejected)
    #expect(
      shown.stderr.hasSuffix("error: 'items' has 2 records, more than 'count' (1) [BadDigest]\n"),
      "\(shown.stderr)")
  }

  /// A fault of an item's own is the record's, after "an item:".
  @Test func anItemIsReadAsARecord() throws {
    let shown = try Self.show(Self.digest(items: [#"{"id":"a","created_at":"soon"}"#]))
    #expect(shown.status == .rejected)
    #expect(
      shown.stderr.contains("error: an item: 'created_at' is not an RFC 3339 time: 'soon'"),
      "\(shown.stderr)")
  }
}
