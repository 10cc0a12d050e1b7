import Foundation
import NotifModel
import TestSupport
import Testing

@testable import NotifListing

@Suite struct ZoneRulesTests {
  /// Zones whose rules have not changed for years (Foundation's ICU carries its own copy of
  /// the tz database, which may be older than the system's): each with southern or northern
  /// summers, half and quarter hours, none.
  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Asia/Kolkata", "Pacific/Chatham",
    "Europe/London", "America/St_Johns", "Asia/Tokyo", "Australia/Lord_Howe", "Pacific/Auckland",
    "America/Los_Angeles", "Africa/Johannesburg", "UTC",
  ]

  /// Every zone agrees with Foundation's `TimeZone` (ICU) at instants from 1975 to 2099:
  /// the file's transitions, and past them its footer's POSIX rule.
  @Test(arguments: zones)
  func offsetsAgreeWithFoundation(_ name: String) throws {
    let zone = try ZoneRules(named: name)
    let reference = try #require(TimeZone(identifier: name))
    var random = SplitMix(seed: 7)
    for _ in 0..<4000 {
      // 1975-01-01 to 2099-12-31.
      let seconds = 157_766_400 + Int64(random.below(3_944_332_800))
      let expected = reference.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
      #expect(
        zone.offset(at: seconds) == Int32(expected),
        "\(name) at @\(seconds): \(zone.offset(at: seconds)), not \(expected)")
    }
  }

  /// At each change of 2026 and 2040 (past the transitions a fat file lists, 2037), the
  /// offset changes at the second Foundation says.
  @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Sydney"])
  func changesHappenAtTheirSecond(_ name: String) throws {
    let zone = try ZoneRules(named: name)
    let reference = try #require(TimeZone(identifier: name))
    for year in [2026, 2040] {
      var date = try #require(
        DateComponents(calendar: Calendar(identifier: .gregorian), timeZone: .gmt, year: year).date)
      for _ in 0..<2 {
        let next = try #require(reference.nextDaylightSavingTimeTransition(after: date))
        let at = Int64(next.timeIntervalSince1970)
        #expect(
          zone.offset(at: at) == Int32(reference.secondsFromGMT(for: next)), "\(name) \(next)")
        #expect(
          zone.offset(at: at - 1)
            == Int32(reference.secondsFromGMT(for: next.addingTimeInterval(-1))), "\(name) \(next)")
        date = next
      }
    }
  }

  @Test(arguments: [
    (
      "Mars/Olympus",
      "'Mars/Olympus' is not a time zone of the tz database (/usr/share/zoneinfo/Mars/Olympus)"
    ),
    ("../etc/passwd", "'../etc/passwd' is not a time zone name such as Europe/Berlin or UTC"),
    ("/etc/localtime", "'/etc/localtime' is not a time zone name such as Europe/Berlin or UTC"),
    ("", "'' is not a time zone name such as Europe/Berlin or UTC"),
    ("Europe", "'Europe' is not a time zone of the tz database (/usr/share/zoneinfo/Europe)"),
  ])
  func badNamesAreRefused(_ name: String, _ message: String) {
    #expect(throws: ZoneRules.Problem(message: message)) { _ = try ZoneRules(named: name) }
  }

  @Test(arguments: [
    ("CET-1CEST,M3.5.0,M10.5.0/3", 1_774_745_999, 3600),  // 2026-03-29T00:59:59Z
    ("CET-1CEST,M3.5.0,M10.5.0/3", 1_774_746_000, 7200),
    ("EST5EDT,M3.2.0,M11.1.0", 1_772_953_200, -14400),  // 2026-03-08T07:00:00Z
    ("EST5EDT,M3.2.0,M11.1.0", 1_772_953_199, -18000),
    ("<+0530>-5:30", 0, 19800),
    ("<-03>3", 0, -10800),
    ("AEST-10AEDT,M10.1.0,M4.1.0/3", 1_767_225_600, 39600),  // January: summer in Sydney
    ("AEST-10AEDT,M10.1.0,M4.1.0/3", 1_782_864_000, 36000),  // July
    ("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 1_782_864_000, -3600),  // negative time of day
    ("XXX-1YYY,J60/2,300", 1_782_864_000, 7200),  // Julian and zero-based days
  ])
  func posixRules(_ text: String, _ seconds: Int64, _ offset: Int32) throws {
    let rule = try #require(PosixRule(text))
    #expect(rule.offset(at: seconds) == offset)
  }

  @Test(arguments: ["", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "<+05", "CE-1"])
  func badPosixRulesAreRefused(_ text: String) {
    #expect(PosixRule(text) == nil)
  }

  /// A TZif file cut anywhere is refused or read, never a crash.
  @Test func cutFilesAreRefusedOrRead() throws {
    let bytes = try [UInt8](
      Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/Europe/Berlin")))
    for length in 0..<bytes.count where length % 7 == 0 {
      _ = ZoneRules.parse(Array(bytes[..<length]))
    }
    #expect(ZoneRules.parse(bytes) != nil)
    #expect(ZoneRules.parse(Array("TZif".utf8)) == nil)
  }
}
