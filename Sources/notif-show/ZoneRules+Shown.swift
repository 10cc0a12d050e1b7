import NotifListing
import NotifModel

/// The times notif-show writes, in the zone of `--tz`: UTC by default, as every time notif
/// writes, and then spelled as they always were (`2026-11-22 08:41 UTC`, `...Z`); in another
/// zone its wall clock, with the zone's offset at that instant (`2026-11-22 09:41 +01:00`).
extension ZoneRules {
  /// `time` on the zone's wall clock: the instant whose UTC fields are the zone's.
  func wallClock(_ time: Timestamp) -> Timestamp {
    let (seconds, overflow) = time.seconds.addingReportingOverflow(
      Int64(offset(at: time.seconds)))
    return overflow ? time : Timestamp(seconds: seconds, nanoseconds: time.nanoseconds)
  }

  /// The zone's day of `time`, counted from the epoch.
  func day(_ time: Timestamp) -> Int64 {
    let (quotient, remainder) = wallClock(time).seconds.quotientAndRemainder(dividingBy: 86_400)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// The zone's date and minute of `time`: `2026-11-22` and `09:41`.
  func dayAndMinute(_ time: Timestamp) -> (day: Substring, minute: Substring) {
    let text = wallClock(time).description  // RFC 3339: 2026-11-22T09:41:00Z
    let day = text.prefix { $0 != "T" }
    return (day, text.dropFirst(day.count + 1).prefix(5))
  }

  /// What follows a time of the zone: `UTC` for UTC, else the offset at `time`, `+01:00`
  /// (with its seconds, `-00:25:21`, in the rare old offset that has them).
  func label(at time: Timestamp) -> String {
    self == .utc ? "UTC" : Self.offsetText(offset(at: time.seconds))
  }

  /// `2026-11-22 09:41 +01:00`: a time in the zone, to the minute, and its label.
  func minuteText(_ time: Timestamp) -> String {
    let (day, minute) = dayAndMinute(time)
    return "\(day) \(minute) \(label(at: time))"
  }

  /// `time` in RFC 3339 with the zone's offset (`2026-11-22T09:41:00+01:00`), as HTML's
  /// `datetime` takes it; in UTC, or where the offset has seconds, which RFC 3339 cannot say,
  /// the UTC form (`2026-11-22T08:41:00Z`).
  func rfc3339(_ time: Timestamp) -> String {
    let offset = offset(at: time.seconds)
    guard self != .utc, offset % 60 == 0 else { return time.description }
    return wallClock(time).description.dropLast() + Self.offsetText(offset)
  }

  /// `+01:00`, `-03:30`, `+00:00`; `-00:25:21` for an offset with seconds.
  static func offsetText(_ offset: Int32) -> String {
    let magnitude = Int(offset.magnitude)
    func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    var text = "\(offset < 0 ? "-" : "+")\(two(magnitude / 3600)):\(two(magnitude / 60 % 60))"
    if magnitude % 60 != 0 { text += ":\(two(magnitude % 60))" }
    return text
  }
}
