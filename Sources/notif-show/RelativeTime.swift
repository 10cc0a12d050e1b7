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

  /// When a notification came, under the heading of its day (`heading`): against `--now` as
  /// `text` says on the day of `now`, else its time of day in `zone` (`14:05`); in the chat
  /// view, always its time of day, as a conversation shows it.
  static func inSection(
    _ time: Timestamp, now: Timestamp, zone: ZoneRules = .utc, chat: Bool = false
  ) -> String {
    let (ago, overflow) = now.seconds.subtractingReportingOverflow(time.seconds)
    if !chat && !overflow && ago > -60 && zone.day(now) == zone.day(time) {
      return text(time, now: now, zone: zone)
    }
    return String(zone.dayAndMinute(time).minute)
  }

  /// The heading of the day section of `time`: the names of today and yesterday of the
  /// locale (`--locale`, from CLDR), else the date.
  static func heading(
    _ time: Timestamp, now: Timestamp, zone: ZoneRules = .utc,
    names: (today: String, yesterday: String)
  ) -> String {
    let (day, today) = (zone.day(time), zone.day(now))
    if day == today { return names.today }
    if day == today &- 1 { return names.yesterday }
    return date(time, zone: zone)
  }

  /// `2026-11-20`: the date of `time` in `zone`.
  static func date(_ time: Timestamp, zone: ZoneRules = .utc) -> String {
    String(zone.dayAndMinute(time).day)
  }
}

extension ShowOptions {
  /// The heading of the day section `time` is in, as every page writes it; nil with
  /// `--sort relevance`, whose order is not by time, so has no sections.
  func dayHeading(_ time: Timestamp) -> String? {
    guard ranking == .time else { return nil }
    return RelativeTime.heading(time, now: now, zone: zone, names: dayNames)
  }

  /// The time a card shows under its day's heading (`RelativeTime.inSection`); with
  /// `--sort relevance`, which has no sections, the relative time with its day.
  func cardTime(_ time: Timestamp) -> String {
    guard ranking == .time else { return RelativeTime.text(time, now: now, zone: zone) }
    return RelativeTime.inSection(time, now: now, zone: zone, chat: view == .chat)
  }
}
