import NotifModel

/// When a notification came, as a list shows it beside the notification, against `--now`.
///
/// Less than a minute ago (or up to a minute ahead: clocks differ): `now`; less than an hour:
/// minutes, `5m`; earlier the same day (UTC): hours, `2h`; the day before: `Yesterday`; else
/// the date, `2026-11-20`. Days are UTC days, as every time notif writes.
enum RelativeTime {
  static func text(_ time: Timestamp, now: Timestamp) -> String {
    let (seconds, overflow) = now.seconds.subtractingReportingOverflow(time.seconds)
    guard !overflow else { return date(time) }
    if seconds < 60 && seconds > -60 { return "now" }
    if seconds < 0 { return date(time) }
    if seconds < 3600 { return "\(seconds / 60)m" }
    let today = day(now)
    let then = day(time)
    if then == today { return "\(seconds / 3600)h" }
    if then == today - 1 { return "Yesterday" }
    return date(time)
  }

  /// The UTC day of `time`, counted from the epoch.
  private static func day(_ time: Timestamp) -> Int64 {
    let (quotient, remainder) = time.seconds.quotientAndRemainder(dividingBy: 86_400)
    return remainder < 0 ? quotient - 1 : quotient
  }

  /// `2026-11-20`: the UTC date of `time`.
  static func date(_ time: Timestamp) -> String {
    String(time.description.prefix { $0 != "T" })
  }
}
