import NotifJSON

/// An instant, as seconds and nanoseconds since 1970-01-01T00:00:00Z (leap seconds not counted).
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// Whole seconds since the epoch; negative before 1970.
  public var seconds: Int64
  /// Nanoseconds past `seconds`, 0 to 999,999,999.
  public var nanoseconds: Int32

  /// Creates an instant from whole seconds and nanoseconds since the epoch.
  public init(seconds: Int64, nanoseconds: Int32 = 0) {
    self.seconds = seconds
    self.nanoseconds = nanoseconds
  }

  /// The earliest instant the tools read or write: 0001-01-01T00:00:00Z.
  ///
  /// RFC 3339 spells years 0000 to 9999; year 0000 (1 BC) is left out because common readers
  /// of the output, such as Python's `datetime` and .NET's `DateTime`, start at year 1.
  public static let minimum = Timestamp(seconds: -62_135_596_800)
  /// The latest instant the tools read or write: 9999-12-31T23:59:59.999999999Z.
  public static let maximum = Timestamp(seconds: 253_402_300_799, nanoseconds: 999_999_999)

  public static func < (a: Timestamp, b: Timestamp) -> Bool {
    (a.seconds, a.nanoseconds) < (b.seconds, b.nanoseconds)
  }

  /// The instant in RFC 3339 UTC: `2026-11-22T09:05:00Z`, with a fraction only when there is
  /// one, in groups of three digits (`.250`, `.000001`).
  public var description: String {
    var out = ByteBuffer(capacity: 32)
    write(into: &out)
    return out.text
  }

  /// Appends the RFC 3339 UTC form (no quotes) to `out`.
  ///
  /// The readers make no instant outside `minimum...maximum`; one built from raw seconds is
  /// written with a signed year of as many digits as it needs (`-0001-12-31T23:00:00Z`,
  /// `+10000-01-01T00:00:00Z`, ISO 8601's expanded years): never cut short, never a trap.
  public func write(into out: inout ByteBuffer) {
    // Floor division that cannot overflow, even at Int64.min.
    var days = seconds / 86_400
    var secondOfDay = seconds % 86_400
    if secondOfDay < 0 {
      days -= 1
      secondOfDay += 86_400
    }
    let (year, month, day) = Self.civil(fromDays: days)
    let fourDigits = (0...9999).contains(year)
    if !fourDigits {
      // |year| is below 3 * 10^11 for any Int64 seconds: `limit` cannot overflow.
      let magnitude = Int64(year.magnitude)
      var (width, limit): (Int, Int64) = (4, 10_000)
      while magnitude >= limit {
        width += 1
        limit *= 10
      }
      out.append(UInt8(ascii: year < 0 ? "-" : "+"))
      out.append(digits: magnitude, width: width)
    }
    // `YYYY-MM-DDTHH:MM:SS`, and the `Z` when no fraction follows, composed in a word-aligned
    // scratch on the stack, then one append: created_at and friends are written for every
    // record. Each field is put two digits at a time, one multiply for the division by 10 of a
    // value below 100 (a loop of a division per digit took 550 instructions a call).
    var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &scratch) { text in
      func put(_ value: Int64, at offset: Int) {
        let twoDigits = UInt32(truncatingIfNeeded: value)
        let tens = twoDigits / 10
        text[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: tens)
        text[offset + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: twoDigits &- tens &* 10)
      }
      if fourDigits {
        put(year / 100, at: 0)
        put(year % 100, at: 2)
      }
      text[4] = UInt8(ascii: "-")
      put(month, at: 5)
      text[7] = UInt8(ascii: "-")
      put(day, at: 8)
      text[10] = UInt8(ascii: "T")
      put(secondOfDay / 3600, at: 11)
      text[13] = UInt8(ascii: ":")
      put(secondOfDay / 60 % 60, at: 14)
      text[16] = UInt8(ascii: ":")
      put(secondOfDay % 60, at: 17)
      text[19] = UInt8(ascii: nanoseconds == 0 ? "Z" : ".")
      out.append(UnsafeRawBufferPointer(rebasing: text[(fourDigits ? 0 : 4)..<20]))
    }
    guard nanoseconds != 0 else { return }
    var fraction = Int64(nanoseconds)
    var width = 9
    while fraction % 1000 == 0 {
      fraction /= 1000
      width -= 3
    }
    out.append(digits: fraction, width: width)
    out.append(UInt8(ascii: "Z"))
  }

  /// The days since 1970-01-01 of a date of the proleptic Gregorian calendar (Howard
  /// Hinnant's days-from-civil): the calendar of the times the tools read, and of the days
  /// notif-digest's `--at` schedules in a time zone.
  public static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The year, month and day of the date `days` after 1970-01-01 (civil-from-days).
  public static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let mp = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * mp + 2) / 5 + 1
    let month = mp < 10 ? mp + 3 : mp - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The number of days of `month` (1 to 12) in `year`.
  public static func daysInMonth(_ year: Int64, _ month: Int64) -> Int64 {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

/// Why a time could not be read.
public struct TimeError: Error, Sendable, Equatable, CustomStringConvertible {
  /// One lowercase line.
  public var message: String
  /// Whether the text is well formed but names an instant outside
  /// `Timestamp.minimum...Timestamp.maximum`.
  public var isOutOfRange: Bool
  public var description: String { message }
  init(_ message: String, isOutOfRange: Bool = false) {
    self.message = message
    self.isOutOfRange = isOutOfRange
  }

  /// The error for `value`, read as an instant before `Timestamp.minimum` or, if `after`, past
  /// `Timestamp.maximum`.
  static func outOfRange(_ value: String, after: Bool) -> TimeError {
    TimeError(
      after
        ? "'\(value)' is after the latest supported time, 9999-12-31T23:59:59.999999999Z"
        : "'\(value)' is before the earliest supported time, 0001-01-01T00:00:00Z",
      isOutOfRange: true)
  }
}

extension Timestamp {
  /// Reads an RFC 3339 date-time: `2026-11-22T09:05:00Z`, `2026-11-22T10:05:00.5+01:00`.
  ///
  /// Strict: four-digit year, real calendar dates (no February 30), hours 00-23, no leap
  /// second, a `T` and an offset (`Z` or `±HH:MM`) required; lowercase `t` and `z` are allowed,
  /// as RFC 3339 says. The instant, once the offset is applied, must lie in
  /// `minimum...maximum`: `0000-12-31T23:00:00-01:00` is accepted, `0000-01-01T00:30:00+01:00`
  /// is not.
  public init(rfc3339 text: String) throws(TimeError) {
    var text = text
    let parsed = text.withUTF8 { Timestamp.parseRFC3339(UnsafeRawBufferPointer($0)) }
    switch parsed {
    case .success(let instant): self = instant
    case .failure(let problem): throw problem.error(for: text)
    }
  }

  /// Reads an RFC 3339 date-time from raw UTF-8 bytes (a JSON string's contents, say), with the
  /// rules of `init(rfc3339:)`; nil where that initializer would throw.
  ///
  /// Builds no `String`: this is the form for hot loops over records.
  public init?(rfc3339 bytes: UnsafeRawBufferPointer) {
    guard case .success(let instant) = Timestamp.parseRFC3339(bytes) else { return nil }
    self = instant
  }

  /// Why a text is not an RFC 3339 time; turned into a message only when reported.
  enum RFC3339Problem: Error {
    case invalid, noSuchMonth(Int64), notACalendarDate, leapSecond, noOffset
    case outOfRange(after: Bool)

    func error(for text: String) -> TimeError {
      switch self {
      case .invalid:
        return TimeError("'\(text)' is not an RFC 3339 time such as 2026-11-22T09:05:00Z")
      case .noSuchMonth(let month): return TimeError("'\(text)' has no month \(month)")
      case .notACalendarDate: return TimeError("'\(text)' is not a calendar date")
      case .leapSecond: return TimeError("'\(text)': leap seconds are not supported")
      case .noOffset: return TimeError("'\(text)' has no time zone offset (add Z for UTC)")
      case .outOfRange(let after): return TimeError.outOfRange(text, after: after)
      }
    }
  }

  private static func parseRFC3339(_ bytes: UnsafeRawBufferPointer) -> Result<
    Timestamp, RFC3339Problem
  > {
    if let instant = canonicalRFC3339(bytes) { return .success(instant) }
    return generalRFC3339(bytes)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ`, the form notif-parse writes every record's times in, read with
  /// none of the general reader's steps: 60 instructions against 700 (a sweep reads a time or
  /// two of every record). Nil for any other text, and for a date, a time or a year 0 that the
  /// general reader refuses, so that it says why.
  @inline(__always)
  static func canonicalRFC3339(_ bytes: UnsafeRawBufferPointer) -> Timestamp? {
    guard bytes.count == 20, let p = bytes.baseAddress else { return nil }
    @inline(__always) func byte(_ k: Int) -> UInt8 { p.load(fromByteOffset: k, as: UInt8.self) }
    guard
      byte(4) == UInt8(ascii: "-") && byte(7) == UInt8(ascii: "-")
        && byte(10) == UInt8(ascii: "T") && byte(13) == UInt8(ascii: ":")
        && byte(16) == UInt8(ascii: ":") && byte(19) == UInt8(ascii: "Z")
    else { return nil }
    var digits = true
    @inline(__always) func pair(_ k: Int) -> Int64 {
      let tens = byte(k) &- UInt8(ascii: "0")
      let ones = byte(k + 1) &- UInt8(ascii: "0")
      digits = digits && tens <= 9 && ones <= 9
      return Int64(tens) &* 10 &+ Int64(ones)
    }
    let year = pair(0) &* 100 &+ pair(2)
    let month = pair(5)
    let day = pair(8)
    let hour = pair(11)
    let minute = pair(14)
    let second = pair(17)
    guard digits, year >= 1, month >= 1, month <= 12, day >= 1,
      day <= daysInMonth(year, month), hour < 24, minute < 60, second < 60
    else { return nil }
    let days = Timestamp.days(fromCivil: year, month, day)
    return Timestamp(seconds: days * 86_400 + hour * 3600 + minute * 60 + second, nanoseconds: 0)
  }

  /// Every form `init(rfc3339:)` takes, and why a text is none of them.
  static func generalRFC3339(_ bytes: UnsafeRawBufferPointer) -> Result<
    Timestamp, RFC3339Problem
  > {
    var i = 0
    func number(_ digits: Int) throws(RFC3339Problem) -> Int64 {
      guard i + digits <= bytes.count else { throw .invalid }
      var value: Int64 = 0
      for k in i..<i + digits {
        let digit = bytes[k] &- UInt8(ascii: "0")
        guard digit <= 9 else { throw .invalid }
        value = value * 10 + Int64(digit)
      }
      i += digits
      return value
    }
    func expect(_ first: UInt8, _ second: UInt8? = nil) throws(RFC3339Problem) {
      guard i < bytes.count, bytes[i] == first || bytes[i] == second else { throw .invalid }
      i += 1
    }
    do throws(RFC3339Problem) {
      let year = try number(4)
      try expect(UInt8(ascii: "-"))
      let month = try number(2)
      try expect(UInt8(ascii: "-"))
      let day = try number(2)
      try expect(UInt8(ascii: "T"), UInt8(ascii: "t"))
      let hour = try number(2)
      try expect(UInt8(ascii: ":"))
      let minute = try number(2)
      try expect(UInt8(ascii: ":"))
      let second = try number(2)
      guard (1...12).contains(month) else { throw .noSuchMonth(month) }
      guard (1...Timestamp.daysInMonth(year, month)).contains(day) else {
        throw .notACalendarDate
      }
      guard hour < 24, minute < 60 else { throw .invalid }
      guard second < 60 else { throw .leapSecond }
      var nanoseconds: Int64 = 0
      if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
        i += 1
        var digits = 0
        while i < bytes.count, bytes[i] &- UInt8(ascii: "0") <= 9 {
          if digits < 9 { nanoseconds = nanoseconds * 10 + Int64(bytes[i] - UInt8(ascii: "0")) }
          digits += 1
          i += 1
        }
        guard digits > 0 else { throw .invalid }
        for _ in min(digits, 9)..<9 { nanoseconds *= 10 }
      }
      var offset: Int64 = 0
      guard i < bytes.count else { throw .noOffset }
      if bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") {
        i += 1
      } else {
        let sign: Int64 = bytes[i] == UInt8(ascii: "-") ? -1 : 1
        try expect(UInt8(ascii: "+"), UInt8(ascii: "-"))
        let offsetHours = try number(2)
        try expect(UInt8(ascii: ":"))
        let offsetMinutes = try number(2)
        guard offsetHours < 24, offsetMinutes < 60 else { throw .invalid }
        offset = sign * (offsetHours * 3600 + offsetMinutes * 60)
      }
      guard i == bytes.count else { throw .invalid }
      // Four-digit years keep every step far from overflow; only the offset can carry the
      // instant past either end of the range.
      let days = Timestamp.days(fromCivil: year, month, day)
      let instant = Timestamp(
        seconds: days * 86_400 + hour * 3600 + minute * 60 + second - offset,
        nanoseconds: Int32(nanoseconds))
      guard instant >= .minimum else { throw .outOfRange(after: false) }
      guard instant <= .maximum else { throw .outOfRange(after: true) }
      return .success(instant)
    } catch {
      return .failure(error)
    }
  }

  /// Reads a time given on the command line or in the environment: RFC 3339, or `@` and whole
  /// seconds since the epoch (`@1763802300`), as `date -d` takes it.
  public init(argument text: String) throws(TimeError) {
    if text.hasPrefix("@") {
      guard let instant = try Timestamp.epochSeconds(text.dropFirst(), naming: text) else {
        throw TimeError("'\(text)' is not '@' and whole seconds since 1970 such as @1763802300")
      }
      self = instant
    } else {
      try self.init(rfc3339: text)
    }
  }

  /// Reads whole seconds since the epoch written in decimal (`1763802300`, `-1`).
  ///
  /// Returns nil where `digits` is not such a number. Throws, naming `value` (the text as the
  /// user wrote it), where it is one but its instant lies outside `minimum...maximum`, however
  /// many digits it has.
  public static func epochSeconds(_ digits: Substring, naming value: String) throws(TimeError)
    -> Timestamp?
  {
    if let seconds = Int64(digits) {
      let instant = Timestamp(seconds: seconds)
      guard instant.isWritable else { throw .outOfRange(value, after: seconds > 0) }
      return instant
    }
    let negative = digits.first == "-"
    let magnitude = negative ? digits.dropFirst() : digits
    guard !magnitude.isEmpty, magnitude.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") <= 9 }) else {
      return nil
    }
    throw .outOfRange(value, after: !negative)  // too many digits for 64 bits
  }

  /// Whether the instant lies in `minimum...maximum`, the range the tools read and write.
  public var isWritable: Bool { self >= .minimum && self <= .maximum }

  /// Chooses the reference time: `--now` if given, else `SOURCE_DATE_EPOCH` (whole seconds, as
  /// reproducible-builds.org defines it), else the clock.
  public static func reference(
    option: String?, sourceDateEpoch: String?, clock: () -> Timestamp
  ) throws(TimeError) -> Timestamp {
    if let option {
      do {
        return try Timestamp(argument: option)
      } catch {
        throw TimeError("--now: \(error.message)", isOutOfRange: error.isOutOfRange)
      }
    }
    if let epoch = sourceDateEpoch, !epoch.isEmpty {
      let instant: Timestamp?
      do {
        instant = try Timestamp.epochSeconds(epoch[...], naming: epoch)
      } catch {
        throw TimeError("SOURCE_DATE_EPOCH: \(error.message)", isOutOfRange: true)
      }
      guard let instant else {
        throw TimeError("SOURCE_DATE_EPOCH: '\(epoch)' is not whole seconds since 1970")
      }
      return instant
    }
    return clock()
  }
}

/// A length of time written as whole numbers with units: `7d`, `36h`, `1d12h`, `90s`.
///
/// Units are `s`, `m` (minutes), `h`, `d` and `w`, largest first, each at most once. A bare
/// number is rejected (seconds or days?), and so are months and years, which have no fixed
/// length.
public struct TimeToLive: Sendable, Hashable, CustomStringConvertible {
  /// The length in seconds.
  public var seconds: Int64

  /// Creates a length of `seconds` seconds.
  public init(seconds: Int64) { self.seconds = seconds }

  static let units: [(symbol: Character, seconds: Int64)] = [
    ("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1),
  ]

  /// Reads a length such as `1d12h`.
  public init(_ text: String) throws(TimeError) {
    guard !text.isEmpty else { throw TimeError("empty duration: write it as 7d, 36h or 1d12h") }
    if Int64(text) != nil {
      throw TimeError("'\(text)' has no unit: write it as \(text)s, \(text)m, \(text)h or \(text)d")
    }
    var total: Int64 = 0
    var digits = ""
    var lastUnit = -1
    for character in text {
      if character.isASCII && character.isNumber {
        digits.append(character)
        continue
      }
      guard let unit = Self.units.firstIndex(where: { $0.symbol == character }) else {
        if character == "M" || character == "y" || character == "Y" {
          throw TimeError("'\(text)': months and years have no fixed length; use days (30d, 365d)")
        }
        throw TimeError(
          "'\(text)' is not a duration: use whole numbers with s, m, h, d or w, as in 1d12h")
      }
      guard !digits.isEmpty else {
        throw TimeError("'\(text)': '\(character)' needs a number before it")
      }
      // More digits than 64 bits hold: as much too long as an overflowing product.
      guard let count = Int64(digits) else { throw TimeError("'\(text)' is too long") }
      guard unit > lastUnit else {
        throw TimeError("'\(text)': give each unit once, largest first, as in 1d12h")
      }
      let (product, overflow) = count.multipliedReportingOverflow(by: Self.units[unit].seconds)
      let (sum, overflow2) = total.addingReportingOverflow(product)
      guard !overflow, !overflow2 else { throw TimeError("'\(text)' is too long") }
      total = sum
      lastUnit = unit
      digits = ""
    }
    guard digits.isEmpty else {
      throw TimeError("'\(text)' ends in a number with no unit: add s, m, h, d or w")
    }
    self.init(seconds: total)
  }

  /// The length in the same notation, largest units first: `1d12h`; `0s` for zero.
  public var description: String {
    guard seconds > 0 else { return "0s" }
    var rest = seconds
    var text = ""
    for unit in Self.units where rest >= unit.seconds {
      text += "\(rest / unit.seconds)\(unit.symbol)"
      rest %= unit.seconds
    }
    return text
  }
}
