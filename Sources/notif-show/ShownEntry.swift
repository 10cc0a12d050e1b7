import NotifListing
import NotifModel

/// One notification as notif-show shows it: the strings it shows, not the record.
struct ShownItem {
  /// Where it ranks: `created_at`, `relevance`, input order.
  var key: SortKey
  var app: String?
  var category: String?
  var title: String?
  var subtitle: String?
  var body: String?
  /// The raw JSON number of `relevance`, as the record has it; nil for null or none.
  var relevance: String?
  /// `target_content_id`: what the default action (a tap) opens.
  var target: String?
  /// `read_at` is null.
  var isUnread: Bool
  /// `seen_at` is null and, with `--last-seen`, `created_at` is after it.
  var isNew: Bool

  var createdAt: Timestamp { key.createdAt }
}

/// A group object as Notification Center stacks it: the leading notification, the summary
/// line, the count, and the other items when the object has them.
struct ShownStack {
  var app: String?
  var leading: ShownItem
  var count: Int
  var unreadCount: Int
  var newCount: Int
  var summary: String?
  var hiddenSummary: String?
  /// The group's items but the leading one, in the view's order; nil when the object has none
  /// (`--no-items`).
  var others: [ShownItem]?
}

extension ShownStack {
  /// How many of the notifications behind the leading one are not listed: `count` less the
  /// leading one and the others shown. So the listed and the unlisted add up to the group
  /// object's `more_count`, and for notif-group's objects the unlisted are its
  /// `items_omitted`, with the items that have nothing to show (a background push).
  var unlisted: Int {
    max(count - 1 - (others?.count ?? 0), 0)
  }

  /// The line under the leading notification: notif-summarize's summary ("5 more messages
  /// from Alice and Bob"), or with hidden previews its placeholder ("6 messages"); where the
  /// group object has none, a count ("5 more notifications", "6 notifications"). None for a
  /// stack of one, which is one notification.
  func summaryLine(hiddenPreviews: Bool) -> String? {
    guard count > 1 else { return nil }
    if hiddenPreviews { return hiddenSummary ?? "\(count) notifications" }
    return summary ?? "\(count - 1) more notification\(count == 2 ? "" : "s")"
  }
}

/// A digest object of notif-digest (notif(5), "Digest objects") as a message that stands for
/// its records: its text, its window, its counts, and the records it lists.
struct ShownDigest {
  /// Where it ranks: `latest_at`, then input order.
  var key: SortKey
  /// The `app` of its key, when the key has one.
  var app: String?
  var windowStart, windowEnd: Timestamp
  var count, unreadCount: Int
  /// `read_at` is null (the digest itself has not been read); with `--last-seen`,
  /// `latest_at` is after it.
  var isUnread, isNew: Bool
  var summary, hiddenSummary: String?
  /// The records it lists and the device lists (all with `--all-pushes`), oldest first.
  var items: [ShownItem]

  var latestAt: Timestamp { key.createdAt }

  /// How many of its records are not listed: `count` less those shown, so `items_omitted`
  /// and the items that have nothing to show.
  var unlisted: Int { max(count - items.count, 0) }

  /// Its text: the summary ("Alice and 5 others liked your photo"), or with hidden previews
  /// its hidden form ("6 likes"); where the object has none, a count ("6 notifications").
  func text(hiddenPreviews: Bool) -> String {
    let counted = "\(count) notification\(count == 1 ? "" : "s")"
    return (hiddenPreviews ? hiddenSummary : summary) ?? counted
  }

  /// Its window in `zone` (`--tz`), to the minute: `2026-11-22 08:00 to 09:00 UTC`, or
  /// `2026-11-22 09:00 to 10:00 +01:00`, the day written again when the window ends on
  /// another, and the start's offset too when it is not the end's; one time for the digest of
  /// a record passed through at once (`--lookback`), whose window is its instant.
  func window(in zone: ZoneRules = .utc) -> String {
    let (startDay, startMinute) = zone.dayAndMinute(windowStart)
    let startLabel = zone.label(at: windowStart)
    guard windowEnd != windowStart else { return "\(startDay) \(startMinute) \(startLabel)" }
    let (endDay, endMinute) = zone.dayAndMinute(windowEnd)
    let endLabel = zone.label(at: windowEnd)
    let start = "\(startDay) \(startMinute)" + (startLabel == endLabel ? "" : " \(startLabel)")
    let end = endDay == startDay ? "\(endMinute)" : "\(endDay) \(endMinute)"
    return "\(start) to \(end) \(endLabel)"
  }

  /// The digest as the notification a list leads with: its text as the title, its window in
  /// `zone` as the subtitle, nothing to act on.
  func header(hiddenPreviews: Bool, zone: ZoneRules = .utc) -> ShownItem {
    ShownItem(
      key: key, app: app, category: nil, title: text(hiddenPreviews: hiddenPreviews),
      subtitle: window(in: zone), body: nil, relevance: nil, target: nil,
      isUnread: isUnread && unreadCount > 0, isNew: isNew)
  }
}

/// What the list shows, one after the other: a notification, a stack of them, or a digest.
enum ShownEntry: Ranked {
  case item(ShownItem)
  case stack(ShownStack)
  case digest(ShownDigest)

  /// The key of the notification it leads with.
  var key: SortKey {
    switch self {
    case .item(let item): return item.key
    case .stack(let stack): return stack.leading.key
    case .digest(let digest): return digest.key
    }
  }
}
