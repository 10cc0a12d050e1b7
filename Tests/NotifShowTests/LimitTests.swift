import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// Counts at their limits: notif-show shows every group object notif-group writes (counts up to
/// 2^53 - 1), and says the real range of a count it refuses.
@Suite struct ShowLimitTests {
  static func object(
    count: String = "2", unread: String = "1", fresh: String = "1",
    omitted: String = "2"
  ) -> String {
    #"{"app":"com.example.chat","thread_id":"t","count":\#(count),"unread_count":\#(unread),"#
      + #""new_count":\#(fresh),"latest_at":"2026-11-22T08:55:00Z","#
      + #""leading":{"app":"com.example.chat","title":"Ann","created_at":"2026-11-22T08:55:00Z"},"#
      + #""more_count":1,"more_weight":1,"more_categories":[{"category":null,"count":1,"weight":1}],"#
      + #""more_summary_args":[],"items":null,"items_omitted":\#(omitted)}"# + "\n"
  }

  /// The issue: counts past 2^31 - 1 were refused as "an integer of at least 1".
  @Test func showsCountsPast2To31() throws {
    let result = try show(
      Self.object(count: "3000000000", unread: "3000000000", fresh: "2147483648"),
      ["--now", now, "--width", "80", "--color", "never"])
    #expect(result.status == .success)
    #expect(result.err == "")
    #expect(result.out.hasPrefix("Notifications · 3000000000 unread\n"))
    #expect(result.out.contains("NEW 5m"))
    #expect(result.out.contains("2999999999 more notifications"))
  }

  @Test(arguments: [
    ("count", "9007199254740992", "from 1 to 9007199254740991"),
    ("count", "0", "from 1 to 9007199254740991"),
    ("unread_count", "-1", "from 0 to 9007199254740991"),
    ("new_count", "1e308", "from 0 to 9007199254740991"),
    ("items_omitted", "18446744073709551616", "from 0 to 9007199254740991"),
  ])
  func refusesWithTheRealRange(_ key: String, _ number: String, _ range: String) throws {
    let text =
      switch key {
      case "count": Self.object(count: number)
      case "unread_count": Self.object(unread: number)
      case "new_count": Self.object(fresh: number)
      default: Self.object(omitted: number)
      }
    let result = try show(text, ["--now", now, "--color", "never"])
    #expect(result.status == .rejected)
    #expect(result.err.hasSuffix("error: '\(key)' is not a whole number \(range) [BadGroup]\n"))
  }

  @Test func aLimitTooLargeSaysTheMost() throws {
    let result = try show("", ["--limit", "9007199254740992"])
    #expect(result.status == .failure)
    #expect(
      result.err.hasPrefix(
        "notif-show: --limit: '9007199254740992' is too large: at most 9007199254740991\n"))
  }

  /// Every limit number in every count notif-show reads: no trap, exit 0 or 1, and a
  /// diagnostic names the field and its range.
  @Test(arguments: ["count", "unread_count", "new_count", "items_omitted"])
  func everyLimitNumber(_ key: String) throws {
    for number in LimitNumbers.all {
      let text =
        switch key {
        case "count": Self.object(count: number)
        case "unread_count": Self.object(unread: number)
        case "new_count": Self.object(fresh: number)
        default: Self.object(omitted: number)
        }
      let low: Int64 = key == "count" ? 1 : 0
      let accepted = LimitNumbers.isWhole(number, in: low...LimitNumbers.largest)
      let result = try show(text, ["--now", now, "--color", "never"])
      #expect(result.status == (accepted ? .success : .rejected), "\(key) \(number)")
      for line in result.err.split(separator: "\n") {
        #expect(
          line.contains("'\(key)' is not a whole number from \(low) to 9007199254740991"),
          "\(key) \(number): \(line)")
      }
    }
  }
}
