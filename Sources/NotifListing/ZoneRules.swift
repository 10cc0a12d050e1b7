import NotifCLI
import NotifJSON
import NotifModel

/// The offsets from UTC of one time zone of the tz database, read from its TZif file
/// (RFC 8536) in `/usr/share/zoneinfo`: the transitions it lists, and past the last one the
/// POSIX TZ rule of its footer (`CET-1CEST,M3.5.0,M10.5.0/3`), which a "slim" file relies on
/// for every year after the last change of its rules.
///
/// Our own reader, for `--tz` (notif-digest's `--at`, notif-show's times): FoundationEssentials'
/// `TimeZone` knows no zone by name on Linux, and Foundation's, which does through ICU, makes
/// a static binary of 62 MB (notif-digest's main.swift).
public struct ZoneRules: Sendable, Equatable {
  /// The zone's name, as given (`Europe/Berlin`).
  public let name: String
  /// The transitions, ascending: from each instant (seconds since the epoch) on, the offset.
  private let transitions: [(at: Int64, offset: Int32)]
  /// The offset before the first transition (the first time type, as RFC 8536 says).
  private let initialOffset: Int32
  /// The rule past the last transition, if the file has one.
  private let rule: PosixRule?

  public static func == (a: ZoneRules, b: ZoneRules) -> Bool { a.name == b.name }

  /// Where the zone files are.
  public static let folder = "/usr/share/zoneinfo"

  /// UTC, without a file.
  public static let utc = ZoneRules(name: "UTC", transitions: [], initialOffset: 0, rule: nil)

  private init(
    name: String, transitions: [(at: Int64, offset: Int32)], initialOffset: Int32,
    rule: PosixRule?
  ) {
    self.name = name
    self.transitions = transitions
    self.initialOffset = initialOffset
    self.rule = rule
  }

  /// The zone of `--tz ZONE` (notif-digest, notif-show); UTC when it is not given.
  ///
  /// - Throws: `UsageError` (`--tz: ...`) for a zone it cannot read.
  public static func option(_ scanned: ScannedArguments) throws(UsageError) -> ZoneRules {
    guard let name = scanned.last("tz") else { return .utc }
    do {
      return try ZoneRules(named: name)
    } catch {
      throw UsageError("--tz: \(error.message)")
    }
  }

  /// A problem with a zone name or file, in one lowercase line.
  public struct Problem: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
  }

  /// The zone named `name` (`Europe/Berlin`, `UTC`), read from `folder`.
  ///
  /// - Throws: `Problem` for a name that is not one (`..`, a leading `/`, odd characters), a
  ///   zone the database does not have, or a file that is not TZif.
  public init(named name: String, folder: String = ZoneRules.folder) throws(Problem) {
    let parts = name.split(separator: "/", omittingEmptySubsequences: false)
    let wellFormed =
      !name.isEmpty && name.utf8.count <= 255
      && parts.allSatisfy { part in
        !part.isEmpty && part != "." && part != ".."
          && part.utf8.allSatisfy {
            ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39)
              || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "+")
          }
      }
    guard wellFormed else {
      throw Problem(message: "'\(name)' is not a time zone name such as Europe/Berlin or UTC")
    }
    let path = folder + "/" + name
    // A zone file is a regular file of at most 1 MiB; anything else is no zone.
    guard let bytes = try? readWholeFile(path: path, limit: 1 << 20, regularOnly: true) else {
      throw Problem(
        message: "'\(name)' is not a time zone of the tz database (\(folder)/\(name))")
    }
    guard let parsed = Self.parse(bytes) else {
      throw Problem(message: "'\(name)': \(path) is not a TZif file (RFC 8536)")
    }
    self.init(
      name: name, transitions: parsed.transitions, initialOffset: parsed.initial, rule: parsed.rule)
  }

  /// The offset from UTC, in seconds, at the instant `seconds` since the epoch.
  ///
  /// - Complexity: O(log n) in the zone's transitions.
  public func offset(at seconds: Int64) -> Int32 {
    if let last = transitions.last, seconds >= last.at, let rule {
      return rule.offset(at: seconds)
    }
    guard let first = transitions.first else { return rule?.offset(at: seconds) ?? initialOffset }
    guard seconds >= first.at else { return initialOffset }
    var low = 0  // transitions[low].at <= seconds
    var high = transitions.count
    while high - low > 1 {
      let middle = (low + high) / 2
      if transitions[middle].at <= seconds { low = middle } else { high = middle }
    }
    return transitions[low].offset
  }

  // MARK: - Reading

  /// The transitions, the first offset and the footer's rule of a TZif file; nil when it is
  /// not one. Version 1 files are read from their 32-bit data; later versions from the 64-bit
  /// data that follows it, then the footer.
  static func parse(_ bytes: [UInt8]) -> (
    transitions: [(at: Int64, offset: Int32)], initial: Int32, rule: PosixRule?
  )? {
    var reader = ByteCursor(bytes)
    guard let header = reader.header() else { return nil }
    var block = header
    var wide = false
    if header.version >= 2 {
      guard reader.skip(header.dataLength(wide: false)), let second = reader.header() else {
        return nil
      }
      block = second
      wide = true
    }
    let width = wide ? 8 : 4
    var times: [Int64] = []
    for _ in 0..<block.timecnt {
      guard
        let time = wide ? reader.integer(Int64.self) : reader.integer(Int32.self).map(Int64.init)
      else { return nil }
      times.append(time)
    }
    var indices: [Int] = []
    for _ in 0..<block.timecnt {
      guard let index = reader.byte(), Int(index) < block.typecnt else { return nil }
      indices.append(Int(index))
    }
    var offsets: [Int32] = []
    for _ in 0..<block.typecnt {
      guard let offset = reader.integer(Int32.self), reader.skip(2) else { return nil }
      // RFC 8536: -2^31 is not a valid offset; real ones are within a day.
      guard offset > -86_400 * 2, offset < 86_400 * 2 else { return nil }
      offsets.append(offset)
    }
    guard
      reader.skip(block.charcnt + block.leapcnt * (width + 4) + block.isstdcnt + block.isutcnt)
    else { return nil }
    var rule: PosixRule? = nil
    if wide, reader.byte() == 0x0A, let end = reader.rest.firstIndex(of: 0x0A) {
      let text = String(decoding: reader.rest[..<end], as: UTF8.self)
      if !text.isEmpty { rule = PosixRule(text) }
    }
    guard !offsets.isEmpty else { return nil }
    var transitions: [(at: Int64, offset: Int32)] = []
    for (time, index) in zip(times, indices) {
      if let last = transitions.last, time <= last.at { continue }  // not ascending: ignored
      transitions.append((time, offsets[index]))
    }
    return (transitions, offsets[0], rule)
  }

  /// A reader of a TZif file's big-endian fields.
  private struct ByteCursor {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var rest: ArraySlice<UInt8> { bytes[min(position, bytes.count)...] }

    struct Header {
      var version: Int
      var isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt: Int

      func dataLength(wide: Bool) -> Int {
        let width = wide ? 8 : 4
        return timecnt * width + timecnt + typecnt * 6 + charcnt + leapcnt * (width + 4)
          + isstdcnt + isutcnt
      }
    }

    mutating func header() -> Header? {
      guard position + 44 <= bytes.count,
        bytes[position..<position + 4].elementsEqual("TZif".utf8)
      else { return nil }
      let versionByte = bytes[position + 4]
      let version = versionByte == 0 ? 1 : Int(versionByte) - 0x30
      guard (1...9).contains(version) else { return nil }
      position += 20
      var counts: [Int] = []
      for _ in 0..<6 {
        guard let count = integer(Int32.self), count >= 0, count < 1 << 20 else { return nil }
        counts.append(Int(count))
      }
      return Header(
        version: version, isutcnt: counts[0], isstdcnt: counts[1], leapcnt: counts[2],
        timecnt: counts[3], typecnt: counts[4], charcnt: counts[5])
    }

    mutating func skip(_ count: Int) -> Bool {
      guard count >= 0, position + count <= bytes.count else { return false }
      position += count
      return true
    }

    mutating func byte() -> UInt8? {
      guard position < bytes.count else { return nil }
      defer { position += 1 }
      return bytes[position]
    }

    /// The next big-endian integer of `type`'s width (TZif's 32- and 64-bit fields).
    mutating func integer<Integer: FixedWidthInteger>(_ type: Integer.Type) -> Integer? {
      let width = Integer.bitWidth / 8
      guard position + width <= bytes.count else { return nil }
      var value: Integer = 0
      for byte in bytes[position..<position + width] {
        value = value << 8 | Integer(truncatingIfNeeded: byte)
      }
      position += width
      return value
    }
  }
}

/// A POSIX TZ rule as a TZif footer gives it (RFC 8536, section 3.3): a standard offset, and
/// optionally a daylight-saving one with the rules of when it starts and ends each year:
/// `EST5EDT,M3.2.0,M11.1.0`, `<+0330>-3:30`, `CET-1CEST,M3.5.0,M10.5.0/3`.
struct PosixRule: Sendable, Equatable {
  /// The standard offset from UTC, in seconds (east positive, unlike the TZ string).
  var standard: Int32
  /// The daylight-saving offset and the rules of its start and end; nil without one.
  var daylight: (offset: Int32, start: Change, end: Change)?

  static func == (a: PosixRule, b: PosixRule) -> Bool {
    a.standard == b.standard && a.daylight?.offset == b.daylight?.offset
      && a.daylight?.start == b.daylight?.start && a.daylight?.end == b.daylight?.end
  }

  /// One yearly change: a day of the year and a local time on it.
  struct Change: Sendable, Equatable {
    enum Day: Sendable, Equatable {
      /// `Jn`: day n from 1 to 365, February 29 never counted.
      case julian(Int)
      /// `n`: day n from 0 to 365, February 29 counted.
      case zeroBased(Int)
      /// `Mm.w.d`: day d (0 Sunday) of week w (1 to 5, 5 the last) of month m.
      case month(Int, Int, Int)
    }

    var day: Day
    /// Seconds after the local midnight of that day (from -167 to 167 hours).
    var time: Int64 = 7200

    /// The instant of the change in `year`, where local time is `offset` from UTC.
    func instant(in year: Int64, offset: Int32) -> Int64 {
      let first = Timestamp.days(fromCivil: year, 1, 1)
      let leap = Timestamp.daysInMonth(year, 2) == 29
      var days: Int64
      switch day {
      case .julian(let n): days = first + Int64(n - 1) + (leap && n >= 60 ? 1 : 0)
      case .zeroBased(let n): days = first + Int64(n)
      case .month(let month, let week, let weekday):
        let start = Timestamp.days(fromCivil: year, Int64(month), 1)
        // 1970-01-01 was a Thursday (4).
        let startWeekday = ((start % 7) + 7 + 4) % 7
        var day = start + (Int64(weekday) - startWeekday + 7) % 7 + Int64(week - 1) * 7
        let length = Timestamp.daysInMonth(year, Int64(month))
        while day >= start + length { day -= 7 }
        days = day
      }
      return days * 86_400 + time - Int64(offset)
    }
  }

  /// The offset at `seconds` since the epoch.
  func offset(at seconds: Int64) -> Int32 {
    guard let daylight else { return standard }
    let year = Timestamp.civil(fromDays: Self.floorDays(seconds + Int64(standard))).0
    // The changes of the years around it, in order: the last one at or before the instant
    // says which offset holds.
    var changes: [(at: Int64, isDaylight: Bool)] = []
    for y in (year - 1)...(year + 1) {
      changes.append((daylight.start.instant(in: y, offset: standard), true))
      changes.append((daylight.end.instant(in: y, offset: daylight.offset), false))
    }
    changes.sort { $0.at < $1.at }
    guard let last = changes.last(where: { $0.at <= seconds }) else {
      return changes.first.map { $0.isDaylight ? standard : daylight.offset } ?? standard
    }
    return last.isDaylight ? daylight.offset : standard
  }

  private static func floorDays(_ seconds: Int64) -> Int64 {
    seconds >= 0 ? seconds / 86_400 : -((-seconds + 86_399) / 86_400)
  }

  /// Reads a TZ string; nil when it is not one this reader knows.
  init?(_ text: String) {
    var scalars = Array(text.unicodeScalars)[...]
    func name() -> Bool {
      if scalars.first == "<" {
        guard let close = scalars.firstIndex(of: ">") else { return false }
        scalars = scalars[scalars.index(after: close)...]
        return true
      }
      var count = 0
      while let next = scalars.first, next.properties.isAlphabetic, next.isASCII {
        scalars.removeFirst()
        count += 1
      }
      return count >= 3
    }
    func number(_ limit: Int) -> Int? {
      var value = 0
      var digits = 0
      while let next = scalars.first, ("0"..."9").contains(next), digits < 3 {
        value = value * 10 + Int(next.value - 0x30)
        scalars.removeFirst()
        digits += 1
      }
      return digits > 0 && value <= limit ? value : nil
    }
    /// `[+-]hh[:mm[:ss]]` as seconds.
    func time(hours limit: Int) -> Int64? {
      var sign: Int64 = 1
      if scalars.first == "+" || scalars.first == "-" {
        sign = scalars.first == "-" ? -1 : 1
        scalars.removeFirst()
      }
      guard let hours = number(limit) else { return nil }
      var seconds = Int64(hours) * 3600
      for scale in [Int64(60), 1] where scalars.first == ":" {
        scalars.removeFirst()
        guard let part = number(59) else { return nil }
        seconds += Int64(part) * scale
      }
      return sign * seconds
    }
    func change() -> Change? {
      var day: Change.Day
      if scalars.first == "J" {
        scalars.removeFirst()
        guard let n = number(365), n >= 1 else { return nil }
        day = .julian(n)
      } else if scalars.first == "M" {
        scalars.removeFirst()
        guard let month = number(12), month >= 1, scalars.popFirst() == ".",
          let week = number(5), week >= 1, scalars.popFirst() == ".", let weekday = number(6)
        else { return nil }
        day = .month(month, week, weekday)
      } else {
        guard let n = number(365) else { return nil }
        day = .zeroBased(n)
      }
      var result = Change(day: day)
      if scalars.first == "/" {
        scalars.removeFirst()
        guard let seconds = time(hours: 167) else { return nil }
        result.time = seconds
      }
      return result
    }
    guard name(), let standardWest = time(hours: 24) else { return nil }
    standard = Int32(-standardWest)
    guard !scalars.isEmpty else {
      daylight = nil
      return
    }
    guard name() else { return nil }
    var daylightOffset = standard + 3600
    if let first = scalars.first, first != "," {
      guard let west = time(hours: 24) else { return nil }
      daylightOffset = Int32(-west)
    }
    guard scalars.popFirst() == ",", let start = change(), scalars.popFirst() == ",",
      let end = change(), scalars.isEmpty
    else { return nil }
    daylight = (daylightOffset, start, end)
  }
}
