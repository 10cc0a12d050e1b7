import NotifCLI
import NotifListing
import NotifModel

/// A window of time: from `start`, included, to `end`, excluded. A record passed through by
/// `--lookback` has a window of one instant, its own time: `start == end`.
struct DigestWindow: Hashable, Sendable, Comparable {
  var start: Timestamp
  var end: Timestamp

  /// By end, then start: the order windows close in.
  static func < (a: DigestWindow, b: DigestWindow) -> Bool {
    (a.end, a.start) < (b.end, b.start)
  }
}

/// How notif-digest cuts time into windows: tumbling windows of one length (`--window`,
/// aligned to `--align`), or the instants of a daily schedule in a time zone (`--at`, `--tz`),
/// each window running from one instant of the schedule to the next.
enum WindowRule: Sendable, Equatable {
  /// Windows of `seconds`, one starting at `align` and every `seconds` before and after it.
  case tumbling(seconds: Int64, align: Timestamp)
  /// From each local time of the day in `times` (minutes after midnight, ascending, distinct)
  /// to the next, in `zone`.
  case schedule(times: [Int], zone: ZoneRules)

  /// The longest `--window`: 100 years of 365 days.
  static let longest: Int64 = 100 * 365 * 86_400

  /// The window that holds `instant`.
  ///
  /// A window that would end after `Timestamp.maximum` ends there (and so never closes before
  /// it); one that would start before `Timestamp.minimum` starts there.
  func window(containing instant: Timestamp) -> DigestWindow {
    switch self {
    case .tumbling(let seconds, let align):
      // Floor division of the whole seconds past `align` (the nanoseconds, once made
      // non-negative, cannot move an instant to another window of whole seconds).
      var difference = instant.seconds - align.seconds
      if instant.nanoseconds < align.nanoseconds { difference -= 1 }
      var k = difference / seconds
      if difference % seconds < 0 { k -= 1 }
      // |k * seconds| is at most |difference| + seconds: far from overflow for the instants
      // the tools read (±3 * 10^11 seconds) and windows of at most `longest`.
      let start = Timestamp(
        seconds: align.seconds + k * seconds, nanoseconds: align.nanoseconds)
      let end = Timestamp(seconds: start.seconds + seconds, nanoseconds: align.nanoseconds)
      return DigestWindow(start: max(start, .minimum), end: min(end, .maximum))
    case .schedule(let times, let zone):
      return Self.scheduled(instant, times: times, zone: zone)
    }
  }

  /// The instants of the schedule around `instant` (on its local day and the days before and
  /// after), and the window from the last one at or before it to the first one after it.
  private static func scheduled(_ instant: Timestamp, times: [Int], zone: ZoneRules)
    -> DigestWindow
  {
    let local = instant.seconds + Int64(zone.offset(at: instant.seconds))
    let day = local >= 0 ? local / 86_400 : -((-local + 86_399) / 86_400)
    var instants: [Int64] = []
    for d in (day - 1)...(day + 1) {
      for minutes in times {
        instants.append(resolve(day: d, minutes: minutes, zone: zone))
      }
    }
    instants.sort()
    var start = instants[0]
    var end = instants[instants.count - 1]
    for candidate in instants {
      if candidate <= instant.seconds {
        start = candidate
      } else {
        end = candidate
        break
      }
    }
    return DigestWindow(
      start: max(Timestamp(seconds: start), .minimum), end: min(Timestamp(seconds: end), .maximum))
  }

  /// The instant of the local time `minutes` after midnight on local day `day` (days since
  /// 1970-01-01) in `zone`, by the rule of RFC 5545 (iCalendar): a local time that happens
  /// twice (when the clocks go back) is its first occurrence; one that does not happen (when
  /// they go forward) is read with the offset before the change, which puts it as far after
  /// the change as it was after the time the clocks skipped from (02:30 on the day Berlin goes
  /// from 02:00 to 03:00 is 03:30).
  static func resolve(day: Int64, minutes: Int, zone: ZoneRules) -> Int64 {
    let local = day * 86_400 + Int64(minutes) * 60
    // The offsets in force around that day; at most one change of them in two days.
    var offsets: [Int32] = []
    for probe in [local - 86_400, local, local + 86_400] {
      let offset = zone.offset(at: probe)
      if !offsets.contains(offset) { offsets.append(offset) }
    }
    let candidates = offsets.map { local - Int64($0) }
    let valid = zip(candidates, offsets).filter { zone.offset(at: $0.0) == $0.1 }.map(\.0)
    if let first = valid.min() { return first }
    // A gap: the offset before it is the smaller one, which gives the later instant.
    return candidates.max() ?? local
  }

  /// Reads `--at` values: `HH:MM`, several separated by commas; minutes after midnight.
  static func times(_ values: [String]) throws(UsageError) -> [Int] {
    var times: [Int] = []
    for value in values {
      for part in value.split(separator: ",", omittingEmptySubsequences: false) {
        let bytes = Array(part.utf8)
        func digit(_ i: Int) -> Int? {
          bytes[i] >= 0x30 && bytes[i] <= 0x39 ? Int(bytes[i] - 0x30) : nil
        }
        guard bytes.count == 5, bytes[2] == UInt8(ascii: ":"), let h1 = digit(0),
          let h2 = digit(1), let m1 = digit(3), let m2 = digit(4), h1 * 10 + h2 < 24,
          m1 * 10 + m2 < 60
        else {
          throw UsageError("--at: '\(part)' is not a time of day such as 08:00 or 18:30")
        }
        times.append((h1 * 10 + h2) * 60 + m1 * 10 + m2)
      }
    }
    return Array(Set(times)).sorted()
  }

  /// `HH:MM` for minutes after midnight.
  static func clock(_ minutes: Int) -> String {
    let hours = minutes / 60
    let rest = minutes % 60
    return (hours < 10 ? "0" : "") + "\(hours):" + (rest < 10 ? "0" : "") + "\(rest)"
  }
}
