import NotifModel
import Testing

@testable import NotifModel

@Suite struct TimeToLiveTests {
  @Test(arguments: [
    ("7d", Int64(604_800), "1w"),
    ("36h", 129_600, "1d12h"),
    ("1d12h", 129_600, "1d12h"),
    ("90s", 90, "1m30s"),
    ("2w", 1_209_600, "2w"),
    ("10m", 600, "10m"),
    ("1w2d3h4m5s", 788_645, "1w2d3h4m5s"),
    ("0s", 0, "0s"),
    ("0d", 0, "0s"),
    ("007s", 7, "7s"),
    ("1d0h", 86_400, "1d"),
    ("100w", 60_480_000, "100w"),
    ("15250284452471w3d", 9_223_372_036_854_720_000, "15250284452471w3d"),
  ])
  func readsDurationsWithUnits(_ text: String, _ seconds: Int64, _ description: String) throws {
    let duration = try TimeToLive(text)
    #expect(duration.seconds == seconds)
    #expect(duration.description == description)
    #expect(try TimeToLive(duration.description) == duration)
  }

  @Test(arguments: [
    Int64(1), 59, 60, 61, 3_599, 3_600, 86_399, 86_400, 604_799, 604_800, 1_000_000_007,
  ])
  func descriptionReadsBackAsTheSameLength(_ seconds: Int64) throws {
    let duration = TimeToLive(seconds: seconds)
    #expect(try TimeToLive(duration.description).seconds == seconds)
  }

  @Test(arguments: [
    ("7", "'7' has no unit: write it as 7s, 7m, 7h or 7d"),
    ("1M", "'1M': months and years have no fixed length; use days (30d, 365d)"),
    ("1y", "'1y': months and years have no fixed length; use days (30d, 365d)"),
    ("2Y", "'2Y': months and years have no fixed length; use days (30d, 365d)"),
    ("d", "'d': 'd' needs a number before it"),
    ("1dh", "'1dh': 'h' needs a number before it"),
    ("1h1d", "'1h1d': give each unit once, largest first, as in 1d12h"),
    ("1d1d", "'1d1d': give each unit once, largest first, as in 1d12h"),
    ("30s1m", "'30s1m': give each unit once, largest first, as in 1d12h"),
    ("", "empty duration: write it as 7d, 36h or 1d12h"),
    ("1x", "'1x' is not a duration: use whole numbers with s, m, h, d or w, as in 1d12h"),
    ("1.5h", "'1.5h' is not a duration: use whole numbers with s, m, h, d or w, as in 1d12h"),
    ("-1d", "'-1d' is not a duration: use whole numbers with s, m, h, d or w, as in 1d12h"),
    ("1 d", "'1 d' is not a duration: use whole numbers with s, m, h, d or w, as in 1d12h"),
    ("1D", "'1D' is not a duration: use whole numbers with s, m, h, d or w, as in 1d12h"),
    ("1d2", "'1d2' ends in a number with no unit: add s, m, h, d or w"),
    ("20000000000000w", "'20000000000000w' is too long"),
    ("15250284452471w4d", "'15250284452471w4d' is too long"),
  ])
  func rejectsWhatIsNotADuration(_ text: String, _ message: String) {
    #expect(throws: TimeError(message)) { try TimeToLive(text) }
  }

  /// A number too big for 64 bits is too long, not missing.
  @Test(arguments: ["99999999999999999999s", "1w99999999999999999999d", "9223372036854775808s"])
  func rejectsANumberTooBigForSixtyFourBitsAsTooLong(_ text: String) {
    #expect(throws: TimeError("'\(text)' is too long")) {
      try TimeToLive(text)
    }
  }
}
