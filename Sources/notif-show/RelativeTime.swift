import NotifListing
import NotifModel

/// When a notification came, as a list shows it beside the notification, against `--now`.
///
/// Less than a minute ago (or up to a minute ahead: clocks differ): `now`; less than an hour:
/// minutes, `5m`; earlier the same day: hours, `2h`; the day before: `Yesterday`; else the
/// date, `2026-11-20`. Days and dates are those of `--tz` (UTC days, as every time notif
/// writes, by default).
enum RelativeTime {
  static func text(_ time: Timestamp, now: Timestamp, zone: ZoneRules = .utc) -> String {
    let (seconds, overflow) = now.seconds.subtractingReportingOverflow(time.seconds)
    guard !overflow else { return date(time, zone: zone) }
    if seconds < 60 && seconds > -60 { return "now" }
    if seconds < 0 { return date(time, zone: zone) }
    if seconds < 3600 { return "\(seconds / 60)m" }
    let today = zone.day(now)
    let then = zone.day(time)
    if then == today { return "\(seconds / 3600)h" }
    if then == today - 1 { return "Yesterday" }
    return date(time, zone: zone)
  }

  /// `2026-11-20`: the date of `time` in `zone`.
  static func date(_ time: Timestamp, zone: ZoneRules = .utc) -> String {
    String(zone.dayAndMinute(time).day)
  }
}
