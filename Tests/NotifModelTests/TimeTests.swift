import NotifModel
import Testing

@testable import NotifModel

private func notRFC3339(_ text: String) -> TimeError {
  TimeError("'\(text)' is not an RFC 3339 time such as 2026-11-22T09:05:00Z")
}

@Suite struct TimeTests {
  // MARK: - Reading RFC 3339

  @Test(arguments: [
    ("1970-01-01T00:00:00Z", Int64(0), Int32(0)),
    ("2024-02-29T00:00:00Z", 1_709_164_800, 0),
    ("2000-02-29T12:34:56Z", 951_827_696, 0),
    ("2026-11-22T09:05:00Z", 1_795_338_300, 0),
    ("2026-11-22T10:05:00+01:00", 1_795_338_300, 0),
    ("2026-11-22T03:35:00-05:30", 1_795_338_300, 0),
    ("2026-11-22T09:05:00+00:00", 1_795_338_300, 0),
    ("2026-11-22T09:05:00-00:00", 1_795_338_300, 0),
    ("2026-11-22t09:05:00z", 1_795_338_300, 0),
    ("2024-03-01T00:30:00+01:00", 1_709_249_400, 0),
    ("2026-11-22T09:05:00.5Z", 1_795_338_300, 500_000_000),
    ("2026-11-22T09:05:00.000001Z", 1_795_338_300, 1_000),
    ("2026-11-22T09:05:00.123456789Z", 1_795_338_300, 123_456_789),
    ("2026-11-22T09:05:00.1234567891234Z", 1_795_338_300, 123_456_789),
    ("2026-11-22T10:05:00.25+01:00", 1_795_338_300, 250_000_000),
    ("1969-12-31T23:59:59Z", -1, 0),
    ("1969-12-31T23:59:59.5Z", -1, 500_000_000),
    ("0001-01-01T00:00:00Z", -62_135_596_800, 0),
    ("0001-01-01T01:00:00+01:00", -62_135_596_800, 0),
    ("0000-12-31T23:00:00-01:00", -62_135_596_800, 0),
    ("0000-12-31T23:59:59.5-00:01", -62_135_596_741, 500_000_000),
    ("9999-12-31T23:59:59Z", 253_402_300_799, 0),
    ("9999-12-31T23:59:59.999999999Z", 253_402_300_799, 999_999_999),
    ("9999-12-31T22:59:59.999999999-01:00", 253_402_300_799, 999_999_999),
  ])
  func readsRFC3339Times(_ text: String, _ seconds: Int64, _ nanoseconds: Int32) throws {
    #expect(try Timestamp(rfc3339: text) == Timestamp(seconds: seconds, nanoseconds: nanoseconds))
  }

  @Test(arguments: [
    "2026-11-22T09:05:00Z", "2026-11-22T10:05:00.25+01:00", "0000-12-31T23:00:00-01:00",
    "2023-02-29T00:00:00Z", "2026-11-22T09:05:00", "2026-13-01T00:00:00Z", "",
    "2026-11-22 09:05:00Z", "0000-02-29T00:00:00Z", "9999-12-31T23:59:59-01:00",
  ])
  func readsRawBytesExactlyAsTheStringFormDoes(_ text: String) {
    let fromString = try? Timestamp(rfc3339: text)
    let fromBytes = Array(text.utf8).withUnsafeBytes { Timestamp(rfc3339: $0) }
    #expect(fromBytes == fromString)
  }

  /// The reader of the canonical form, `YYYY-MM-DDTHH:MM:SSZ`, reads what the general reader
  /// reads, and leaves it every text it refuses: every month and day (0 to 13, 0 to 32) of
  /// years where February and the ends of the range differ, at hours, minutes and seconds on
  /// both sides of their limits, and a digit or separator changed at every place.
  @Test func theCanonicalFormReadsAsTheGeneralReaderReadsIt() {
    func compare(_ text: String) {
      Array(text.utf8).withUnsafeBytes { bytes in
        let general = try? Timestamp.generalRFC3339(bytes).get()
        let canonical = Timestamp.canonicalRFC3339(bytes)
        let canonicalShape = bytes.count == 20 && text.hasSuffix("Z") && !text.contains("t")
        #expect(canonical == (canonicalShape ? general : nil), "\(text)")
      }
    }
    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
    for year in ["0000", "0001", "0004", "0100", "0400", "1900", "2000", "2024", "2100", "9999"] {
      for month in 0...13 {
        for day in 0...32 {
          compare("\(year)-\(two(month))-\(two(day))T12:00:00Z")
        }
      }
      for (hour, minute, second) in [(0, 0, 0), (23, 59, 59), (24, 0, 0), (0, 60, 0), (0, 0, 60)] {
        compare("\(year)-12-31T\(two(hour)):\(two(minute)):\(two(second))Z")
      }
    }
    let text = Array("2026-11-22T09:05:00Z".utf8)
    for at in text.indices {
      for byte in Array("09/:-TtZz .".utf8) {
        var changed = text
        changed[at] = byte
        compare(String(decoding: changed, as: UTF8.self))
      }
    }
    for other in Self.invalid.map(\.0) + ["2026-11-22T09:05:00.5Z", "2026-11-22T09:05:00+00:00"] {
      compare(other)
    }
  }

  static let invalid: [(String, String)] = [
    ("2023-02-29T00:00:00Z", "'2023-02-29T00:00:00Z' is not a calendar date"),
    ("2024-02-30T00:00:00Z", "'2024-02-30T00:00:00Z' is not a calendar date"),
    ("2100-02-29T00:00:00Z", "'2100-02-29T00:00:00Z' is not a calendar date"),
    ("2024-04-31T00:00:00Z", "'2024-04-31T00:00:00Z' is not a calendar date"),
    ("2024-01-00T00:00:00Z", "'2024-01-00T00:00:00Z' is not a calendar date"),
    ("2024-01-32T00:00:00Z", "'2024-01-32T00:00:00Z' is not a calendar date"),
    ("2024-13-01T00:00:00Z", "'2024-13-01T00:00:00Z' has no month 13"),
    ("2024-00-10T00:00:00Z", "'2024-00-10T00:00:00Z' has no month 0"),
    ("2016-12-31T23:59:60Z", "'2016-12-31T23:59:60Z': leap seconds are not supported"),
    ("2024-01-01T00:00:00", "'2024-01-01T00:00:00' has no time zone offset (add Z for UTC)"),
    ("2024-01-01T00:00:00.5", "'2024-01-01T00:00:00.5' has no time zone offset (add Z for UTC)"),
    ("2024-01-01T24:00:00Z", notRFC3339("2024-01-01T24:00:00Z").message),
    ("2024-01-01T12:60:00Z", notRFC3339("2024-01-01T12:60:00Z").message),
    ("2024-01-01 00:00:00Z", notRFC3339("2024-01-01 00:00:00Z").message),
    ("2024-01-01T00:00:00.Z", notRFC3339("2024-01-01T00:00:00.Z").message),
    ("2024-01-01T00:00:00+0100", notRFC3339("2024-01-01T00:00:00+0100").message),
    ("2024-01-01T00:00:00+01", notRFC3339("2024-01-01T00:00:00+01").message),
    ("2024-01-01T00:00:00+24:00", notRFC3339("2024-01-01T00:00:00+24:00").message),
    ("2024-01-01T00:00:00+01:60", notRFC3339("2024-01-01T00:00:00+01:60").message),
    ("2024-01-01T00:00:00 Z", notRFC3339("2024-01-01T00:00:00 Z").message),
    ("2024-01-01T00:00:00Zjunk", notRFC3339("2024-01-01T00:00:00Zjunk").message),
    ("2024-01-01T00:00Z", notRFC3339("2024-01-01T00:00Z").message),
    ("2024-01-01", notRFC3339("2024-01-01").message),
    ("24-01-01T00:00:00Z", notRFC3339("24-01-01T00:00:00Z").message),
    ("2024-1-01T00:00:00Z", notRFC3339("2024-1-01T00:00:00Z").message),
    ("+2024-01-01T00:00:00Z", notRFC3339("+2024-01-01T00:00:00Z").message),
    ("２０２４-01-01T00:00:00Z", notRFC3339("２０２４-01-01T00:00:00Z").message),
    ("", notRFC3339("").message),
  ]

  @Test(arguments: invalid)
  func rejectsTimesThatAreNotStrictRFC3339(_ text: String, _ message: String) {
    #expect(throws: TimeError(message)) { try Timestamp(rfc3339: text) }
  }

  /// RFC 3339 writes years 0000 to 9999 only: an offset must not carry an instant outside them,
  /// where it could not be written back.
  @Test(arguments: ["0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
  func rejectsAnOffsetThatCarriesTheInstantOutsideTheWritableYears(_ text: String) {
    #expect(throws: TimeError.self) { try Timestamp(rfc3339: text) }
  }

  private static func before(_ value: String) -> TimeError {
    TimeError(
      "'\(value)' is before the earliest supported time, 0001-01-01T00:00:00Z", isOutOfRange: true)
  }

  private static func after(_ value: String) -> TimeError {
    TimeError(
      "'\(value)' is after the latest supported time, 9999-12-31T23:59:59.999999999Z",
      isOutOfRange: true)
  }

  /// The supported range is 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z once the
  /// offset is applied; year 0000 is written by RFC 3339 but read by few (Python, .NET).
  @Test(arguments: [
    ("0000-01-01T00:00:00Z", false), ("0000-12-31T23:59:59.999999999Z", false),
    ("0000-01-01T00:30:00+01:00", false), ("0000-01-01T00:00:00+01:00", false),
    ("0001-01-01T00:59:59+01:00", false), ("0000-02-29T00:00:00Z", false),
    ("9999-12-31T23:59:59-01:00", true), ("9999-12-31T23:00:00-01:00", true),
    ("9999-12-31T23:59:59.999999999-00:01", true),
  ])
  func rejectsInstantsOutsideTheSupportedRangeNamingTheValue(_ text: String, _ after: Bool) {
    #expect(throws: after ? Self.after(text) : Self.before(text)) {
      try Timestamp(rfc3339: text)
    }
    #expect(Array(text.utf8).withUnsafeBytes { Timestamp(rfc3339: $0) } == nil)
  }

  @Test func marksOnlyOutOfRangeErrorsAsSuch() {
    #expect(throws: Self.before("0000-01-01T00:00:00Z")) {
      try Timestamp(argument: "0000-01-01T00:00:00Z")
    }
    #expect(throws: TimeError("'2023-02-29T00:00:00Z' is not a calendar date")) {
      try Timestamp(argument: "2023-02-29T00:00:00Z")
    }
  }

  // MARK: - Writing

  @Test(arguments: [
    (Int64(0), Int32(0), "1970-01-01T00:00:00Z"),
    (0, 1, "1970-01-01T00:00:00.000000001Z"),
    (0, 250_000_000, "1970-01-01T00:00:00.250Z"),
    (0, 500_000_000, "1970-01-01T00:00:00.500Z"),
    (0, 120_000, "1970-01-01T00:00:00.000120Z"),
    (0, 123_456_789, "1970-01-01T00:00:00.123456789Z"),
    (0, 123_400_000, "1970-01-01T00:00:00.123400Z"),
    (1_795_338_300, 0, "2026-11-22T09:05:00Z"),
    (-1, 0, "1969-12-31T23:59:59Z"),
    (-1, 500_000_000, "1969-12-31T23:59:59.500Z"),
    (-86_400, 0, "1969-12-31T00:00:00Z"),
    (-86_401, 0, "1969-12-30T23:59:59Z"),
    (-62_135_596_800, 0, "0001-01-01T00:00:00Z"),
    (-62_167_219_200, 0, "0000-01-01T00:00:00Z"),
    (253_402_300_799, 999_999_999, "9999-12-31T23:59:59.999999999Z"),
    // Outside the range no reader makes, still written whole, as ISO 8601 expanded years.
    (-62_167_219_201, 0, "-0001-12-31T23:59:59Z"),
    (253_402_300_800, 0, "+10000-01-01T00:00:00Z"),
    (Int64.max, 0, "+292277026596-12-04T15:30:07Z"),
    (Int64.min, 0, "-292277022657-01-27T08:29:52Z"),
    (951_782_400, 0, "2000-02-29T00:00:00Z"),
  ])
  func writesRFC3339InUTC(_ seconds: Int64, _ nanoseconds: Int32, _ text: String) {
    #expect(Timestamp(seconds: seconds, nanoseconds: nanoseconds).description == text)
  }

  @Test func writesTheMinimumAndMaximum() {
    #expect(Timestamp.minimum.description == "0001-01-01T00:00:00Z")
    #expect(Timestamp.maximum.description == "9999-12-31T23:59:59.999999999Z")
  }

  @Test func everyWritableInstantReadsBackAsItself() throws {
    var seconds = Timestamp.minimum.seconds
    var step: Int64 = 0
    while seconds <= Timestamp.maximum.seconds {
      let nanoseconds = Int32(truncatingIfNeeded: (step * 7_654_321) % 1_000_000_000)
      let instant = Timestamp(seconds: seconds, nanoseconds: nanoseconds)
      let text = instant.description
      let back = try Timestamp(rfc3339: text)
      if back != instant {
        Issue.record(
          "\(instant.seconds).\(instant.nanoseconds) wrote \(text), read back \(back.seconds)")
        return
      }
      seconds += 8_640_037 + step % 86_400
      step += 1
    }
    #expect(step > 30_000)
  }

  @Test func ordersInstantsBySecondsThenNanoseconds() {
    #expect(Timestamp(seconds: -1, nanoseconds: 999_999_999) < Timestamp(seconds: 0))
    #expect(Timestamp(seconds: 5, nanoseconds: 1) > Timestamp(seconds: 5))
    #expect(Timestamp(seconds: 5).isWritable)
    #expect(!Timestamp(seconds: Timestamp.maximum.seconds + 1).isWritable)
    #expect(!Timestamp(seconds: Timestamp.minimum.seconds - 1).isWritable)
    #expect(!Timestamp(seconds: Timestamp.minimum.seconds - 1, nanoseconds: 999_999_999).isWritable)
  }

  // MARK: - Arguments

  @Test(arguments: [
    ("@0", Int64(0)), ("@1763802300", 1_763_802_300), ("@-1", -1),
    ("@253402300799", 253_402_300_799),
    ("@-62135596800", -62_135_596_800), ("2026-11-22T09:05:00Z", 1_795_338_300),
    ("@+5", 5), ("@-0", 0),
  ])
  func readsEpochSecondsOrRFC3339Arguments(_ text: String, _ seconds: Int64) throws {
    #expect(try Timestamp(argument: text) == Timestamp(seconds: seconds))
  }

  @Test(arguments: [
    "@", "@1.5", "@abc", "@ 5", "@-", "@--5", "@5s", "@+99999999999999999999", "@1e3",
  ])
  func rejectsBadEpochArguments(_ text: String) {
    #expect(
      throws: TimeError("'\(text)' is not '@' and whole seconds since 1970 such as @1763802300")
    ) {
      try Timestamp(argument: text)
    }
  }

  @Test(arguments: [
    ("@253402300800", true), ("@-62135596801", false), ("@99999999999999999999", true),
    ("@-99999999999999999999", false), ("@9223372036854775807", true),
    ("@-9223372036854775808", false), ("@9223372036854775808", true),
  ])
  func rejectsEpochArgumentsOutsideTheSupportedRangeNamingThem(_ text: String, _ after: Bool) {
    #expect(throws: after ? Self.after(text) : Self.before(text)) {
      try Timestamp(argument: text)
    }
  }

  @Test func rejectsABadRFC3339Argument() {
    #expect(throws: TimeError("'2024-02-30T00:00:00Z' is not a calendar date")) {
      try Timestamp(argument: "2024-02-30T00:00:00Z")
    }
  }

  // MARK: - The reference time

  @Test func nowOptionWinsOverSourceDateEpochAndClock() throws {
    var clockRead = false
    let now = try Timestamp.reference(option: "@5", sourceDateEpoch: "10") {
      clockRead = true
      return Timestamp(seconds: 20)
    }
    #expect(now == Timestamp(seconds: 5))
    #expect(!clockRead)
  }

  @Test func nowOptionWinsEvenOverABadSourceDateEpoch() throws {
    let now = try Timestamp.reference(option: "1970-01-01T00:00:07Z", sourceDateEpoch: "junk") {
      Timestamp(seconds: 20)
    }
    #expect(now == Timestamp(seconds: 7))
  }

  @Test func sourceDateEpochWinsOverTheClock() throws {
    let now = try Timestamp.reference(option: nil, sourceDateEpoch: "10") { Timestamp(seconds: 20) }
    #expect(now == Timestamp(seconds: 10))
  }

  @Test(arguments: [nil, ""] as [String?])
  func theClockIsUsedWithoutNowOrSourceDateEpoch(_ epoch: String?) throws {
    let now = try Timestamp.reference(option: nil, sourceDateEpoch: epoch) {
      Timestamp(seconds: 20, nanoseconds: 3)
    }
    #expect(now == Timestamp(seconds: 20, nanoseconds: 3))
  }

  @Test(arguments: ["abc", "1.5", "@10", "10s", " 10", "-"])
  func rejectsABadSourceDateEpoch(_ epoch: String) {
    #expect(throws: TimeError("SOURCE_DATE_EPOCH: '\(epoch)' is not whole seconds since 1970")) {
      try Timestamp.reference(option: nil, sourceDateEpoch: epoch) { Timestamp(seconds: 0) }
    }
  }

  @Test(arguments: ["253402300800", "-62135596801", "99999999999999999999"])
  func rejectsASourceDateEpochOutsideTheSupportedRange(_ epoch: String) {
    let error = epoch.hasPrefix("-") ? Self.before(epoch) : Self.after(epoch)
    #expect(throws: TimeError("SOURCE_DATE_EPOCH: \(error.message)", isOutOfRange: true)) {
      try Timestamp.reference(option: nil, sourceDateEpoch: epoch) { Timestamp(seconds: 0) }
    }
  }

  @Test(arguments: ["0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00", "@253402300800"])
  func prefixesAnOutOfRangeNowOptionWithItsName(_ option: String) {
    let error = option.hasPrefix("0") ? Self.before(option) : Self.after(option)
    #expect(throws: TimeError("--now: \(error.message)", isOutOfRange: true)) {
      try Timestamp.reference(option: option, sourceDateEpoch: nil) { Timestamp(seconds: 0) }
    }
  }

  @Test func prefixesABadNowOptionWithItsName() {
    #expect(
      throws: TimeError("--now: 'tomorrow' is not an RFC 3339 time such as 2026-11-22T09:05:00Z")
    ) {
      try Timestamp.reference(option: "tomorrow", sourceDateEpoch: nil) { Timestamp(seconds: 0) }
    }
    #expect(
      throws: TimeError("--now: '@x' is not '@' and whole seconds since 1970 such as @1763802300")
    ) {
      try Timestamp.reference(option: "@x", sourceDateEpoch: nil) { Timestamp(seconds: 0) }
    }
  }
}
