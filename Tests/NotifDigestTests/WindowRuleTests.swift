import NotifCLI
import NotifListing
import NotifModel
import Testing

@testable import notif_digest

private func time(_ text: String) throws -> Timestamp { try Timestamp(rfc3339: text) }

private func window(_ rule: WindowRule, _ at: String) throws -> (String, String) {
  let window = rule.window(containing: try time(at))
  return (window.start.description, window.end.description)
}

@Suite struct WindowRuleTests {
  @Test(arguments: [
    ("2026-11-22T09:00:00Z", "2026-11-22T09:00:00Z", "2026-11-22T10:00:00Z"),
    ("2026-11-22T09:59:59.999Z", "2026-11-22T09:00:00Z", "2026-11-22T10:00:00Z"),
    ("1969-12-31T23:30:00Z", "1969-12-31T23:00:00Z", "1970-01-01T00:00:00Z"),
    ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "0001-01-01T01:00:00Z"),
    ("9999-12-31T23:59:59Z", "9999-12-31T23:00:00Z", "9999-12-31T23:59:59.999999999Z"),
  ])
  func hourlyWindowsFromTheEpoch(_ at: String, _ start: String, _ end: String) throws {
    let rule = WindowRule.tumbling(seconds: 3600, align: Timestamp(seconds: 0))
    #expect(try window(rule, at) == (start, end))
  }

  @Test func alignedWindows() throws {
    let rule = WindowRule.tumbling(seconds: 86_400, align: try time("2026-01-01T06:30:00Z"))
    #expect(
      try window(rule, "2026-11-22T06:29:59Z") == ("2026-11-21T06:30:00Z", "2026-11-22T06:30:00Z"))
    #expect(
      try window(rule, "2026-11-22T06:30:00Z") == ("2026-11-22T06:30:00Z", "2026-11-23T06:30:00Z"))
    let fraction = WindowRule.tumbling(seconds: 60, align: try time("2026-01-01T00:00:00.5Z"))
    #expect(
      try window(fraction, "2026-11-22T09:00:00.25Z")
        == ("2026-11-22T08:59:00.500Z", "2026-11-22T09:00:00.500Z"))
  }

  /// Every day at 08:00 in Berlin, around both changes of 2026: the window before the clocks
  /// go forward is 23 hours long, the one before they go back 25.
  @Test(arguments: [
    ("2026-03-28T12:00:00Z", "2026-03-28T07:00:00Z", "2026-03-29T06:00:00Z"),
    ("2026-03-29T06:00:00Z", "2026-03-29T06:00:00Z", "2026-03-30T06:00:00Z"),
    ("2026-10-24T12:00:00Z", "2026-10-24T06:00:00Z", "2026-10-25T07:00:00Z"),
    ("2026-10-25T06:59:59Z", "2026-10-24T06:00:00Z", "2026-10-25T07:00:00Z"),
    ("2026-10-25T07:00:00Z", "2026-10-25T07:00:00Z", "2026-10-26T07:00:00Z"),
  ])
  func berlinAtEight(_ at: String, _ start: String, _ end: String) throws {
    let rule = WindowRule.schedule(times: [8 * 60], zone: try ZoneRules(named: "Europe/Berlin"))
    #expect(try window(rule, at) == (start, end))
  }

  /// New York at 08:00 and 18:00, around both changes of 2026 (March 8, November 1).
  @Test(arguments: [
    ("2026-03-07T23:30:00Z", "2026-03-07T23:00:00Z", "2026-03-08T12:00:00Z"),
    ("2026-03-08T12:00:00Z", "2026-03-08T12:00:00Z", "2026-03-08T22:00:00Z"),
    ("2026-10-31T23:00:00Z", "2026-10-31T22:00:00Z", "2026-11-01T13:00:00Z"),
    ("2026-11-01T13:00:00Z", "2026-11-01T13:00:00Z", "2026-11-01T23:00:00Z"),
  ])
  func newYorkTwiceADay(_ at: String, _ start: String, _ end: String) throws {
    let rule = WindowRule.schedule(
      times: [8 * 60, 18 * 60], zone: try ZoneRules(named: "America/New_York"))
    #expect(try window(rule, at) == (start, end))
  }

  /// 02:30 does not happen in Berlin on 2026-03-29 (02:00 becomes 03:00): it is read with the
  /// offset before, 03:30 CEST. It happens twice on 2026-10-25: the first time counts.
  @Test func timesTheClocksSkipOrRepeat() throws {
    let berlin = try ZoneRules(named: "Europe/Berlin")
    let spring = Timestamp.days(fromCivil: 2026, 3, 29)
    let autumn = Timestamp.days(fromCivil: 2026, 10, 25)
    #expect(
      Timestamp(seconds: WindowRule.resolve(day: spring, minutes: 150, zone: berlin)).description
        == "2026-03-29T01:30:00Z")
    #expect(
      Timestamp(seconds: WindowRule.resolve(day: autumn, minutes: 150, zone: berlin)).description
        == "2026-10-25T00:30:00Z")
    let rule = WindowRule.schedule(times: [150], zone: berlin)
    #expect(
      try window(rule, "2026-03-29T01:00:00Z") == ("2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z"))
    #expect(
      try window(rule, "2026-10-25T01:00:00Z") == ("2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"))
    // 02:00 and 03:00 on the day 02:00 is skipped are one instant: one window, not an empty one.
    let both = WindowRule.schedule(times: [120, 180], zone: berlin)
    #expect(
      try window(both, "2026-03-29T01:00:00Z") == ("2026-03-29T01:00:00Z", "2026-03-30T00:00:00Z"))
  }

  @Test func timesOfDayAreRead() throws {
    #expect(try WindowRule.times(["18:00,08:00", "08:00"]) == [480, 1080])
    for bad in ["8:00", "24:00", "08:60", "0800", "", "08:00,"] {
      #expect(throws: UsageError.self) { _ = try WindowRule.times([bad]) }
    }
  }
}

@Suite struct DigestIDTests {
  /// The 128-bit vectors of the SipHash reference implementation (`vectors.h`: the inputs
  /// 00 01 02 ... of each length, under the key 00..0f), read as little-endian numbers:
  /// a3817f04... for no byte, da87c1d8... for one.
  @Test(arguments: [
    (0, "930255c71472f66de6a825ba047f81a3"), (1, "45fc229b1159763444af996bd8c187da"),
    (15, "d9c3cf970fec087e11a8b03399e99354"),
  ])
  func sipHashMatchesTheReference(_ length: Int, _ hex: String) {
    let hash = (0..<length).map { UInt8($0) }.withUnsafeBytes { SipHash128.hash($0) }
    #expect(DigestID(value: hash).hex == hex)
  }

  @Test func orderOfMembersDoesNotMatter() {
    var a = DigestID.zero
    var b = DigestID.zero
    for id in ["x", "y", "z"] {
      Array(id.utf8).withUnsafeBytes { a.add(memberHash: DigestID.member($0)) }
    }
    for id in ["z", "x", "y"] {
      Array(id.utf8).withUnsafeBytes { b.add(memberHash: DigestID.member($0)) }
    }
    #expect(a == b)
    #expect(Array(a.hex.utf8).withUnsafeBytes { DigestID(hex: $0) } == a)
    #expect(
      Array("930255C71472F66DE6A825BA047F81A3".utf8).withUnsafeBytes { DigestID(hex: $0) } == nil)
  }
}
