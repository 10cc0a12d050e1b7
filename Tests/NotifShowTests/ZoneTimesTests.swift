import NotifCLI
import NotifListing
import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// `--tz`: the times notif-show writes are the zone's wall clock with its offset at that
/// instant; relative times stay relative, and the days they count are the zone's.
@Suite struct ZoneTimesTests {
  static func time(_ text: String) throws -> Timestamp { try Timestamp(rfc3339: text) }

  @Test(arguments: [
    (Int32(0), "+00:00"), (3600, "+01:00"), (-18_000, "-05:00"), (19_800, "+05:30"),
    (-1521, "-00:25:21"), (45_900, "+12:45"),
  ])
  func offsetsAreSignedHoursAndMinutes(_ offset: Int32, _ expected: String) {
    #expect(ZoneRules.offsetText(offset) == expected)
  }

  @Test func utcIsWrittenAsBefore() throws {
    let instant = try Self.time("2026-11-22T08:41:30Z")
    #expect(ZoneRules.utc.minuteText(instant) == "2026-11-22 08:41 UTC")
    #expect(ZoneRules.utc.rfc3339(instant) == "2026-11-22T08:41:30Z")
    #expect(try ZoneRules(named: "UTC").minuteText(instant) == "2026-11-22 08:41 UTC")
  }

  @Test func aZoneWritesItsWallClockAndOffset() throws {
    let berlin = try ZoneRules(named: "Europe/Berlin")
    let winter = try Self.time("2026-11-22T23:41:30.5Z")
    #expect(berlin.minuteText(winter) == "2026-11-23 00:41 +01:00")
    #expect(berlin.rfc3339(winter) == "2026-11-23T00:41:30.500+01:00")
    let summer = try Self.time("2026-07-01T12:00:00Z")
    #expect(berlin.minuteText(summer) == "2026-07-01 14:00 +02:00")
    let newYork = try ZoneRules(named: "America/New_York")
    #expect(newYork.rfc3339(winter) == "2026-11-22T18:41:30.500-05:00")
  }

  @Test func aWindowAcrossAChangeOfTheClocksWritesBothOffsets() throws {
    let berlin = try ZoneRules(named: "Europe/Berlin")
    // The clocks go back from 03:00 CEST to 02:00 CET at 01:00 UTC on 2026-10-25.
    let digest = ShownDigest(
      key: SortKey(
        createdAt: try Self.time("2026-10-25T01:30:00Z"), relevance: 0, major: 0, minor: 0),
      app: nil, windowStart: try Self.time("2026-10-24T23:00:00Z"),
      windowEnd: try Self.time("2026-10-25T02:00:00Z"), count: 1, unreadCount: 1,
      isUnread: true, isNew: false, summary: nil, hiddenSummary: nil, items: [])
    #expect(digest.window() == "2026-10-24 23:00 to 2026-10-25 02:00 UTC")
    #expect(digest.window(in: berlin) == "2026-10-25 01:00 +02:00 to 03:00 +01:00")
    var instant = digest
    instant.windowEnd = instant.windowStart
    #expect(instant.window(in: berlin) == "2026-10-25 01:00 +02:00")
  }

  @Test(arguments: [
    // Now is 19:30 on the 21st in New York, 00:30 on the 22nd in UTC.
    ("2026-11-22T00:00:00Z", "30m", "30m"), ("2026-11-21T21:00:00Z", "3h", "Yesterday"),
    ("2026-11-21T04:00:00Z", "Yesterday", "Yesterday"),
    ("2026-11-20T02:00:00Z", "2026-11-19", "2026-11-20"),
  ])
  func relativeTimesCountTheZonesDays(_ time: String, _ inZone: String, _ inUTC: String)
    throws
  {
    let now = try Self.time("2026-11-22T00:30:00Z")
    let zone = try ZoneRules(named: "America/New_York")
    #expect(RelativeTime.text(try Self.time(time), now: now, zone: zone) == inZone)
    #expect(RelativeTime.text(try Self.time(time), now: now) == inUTC)
  }

  @Test func theWebPageSaysTheInstantWithTheZonesOffset() throws {
    let record =
      #"{"id":"a","app":"com.example.chat","title":"Hi","created_at":"2026-11-22T08:41:00Z"}"#
    let (status, page, _) = try show(
      record + "\n", ["--now", "2026-11-22T09:00:00Z", "--to", "html", "--tz", "Asia/Kolkata"])
    #expect(status == .success)
    #expect(
      page.contains(
        #"<time datetime="2026-11-22T14:11:00+05:30" title="2026-11-22 14:11 +05:30">19m</time>"#
      ))
  }

  @Test func anUnknownZoneIsAUsageErrorInDigestsWords() throws {
    let message =
      "--tz: 'Nowhere/Land' is not a time zone of the tz database "
      + "(/usr/share/zoneinfo/Nowhere/Land)"
    #expect(throws: UsageError(message)) {
      _ = try ShowCommand.configure(
        try OptionScanner.scan(["--tz", "Nowhere/Land"], ShowCommand.options),
        environment: ToolEnvironment())
    }
  }
}
