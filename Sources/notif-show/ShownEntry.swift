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
  /// `target_content_id`: which of the app's windows a tap brings forward. It identifies the
  /// item; it is not a link.
  var target: String?
  /// The URL a tap opens, when the payload names a safe one (`TapLink`).
  var link: String? = nil
  /// `read_at` is null.
  var isUnread: Bool
  /// `seen_at` is null and, with `--last-seen`, `created_at` is after it.
  var isNew: Bool

  var createdAt: Timestamp { key.createdAt }

  /// Its one mark: new, else unread, else read.
  var state: ReadState { ReadState(isUnread: isUnread, isNew: isNew) }
}

/// What a list marks on a notification, one way each: new since the user last looked at the
/// list (Sendbird's "new" badge, from `--last-seen` or `seen_at`), unread (the dot of the Linear
/// and GitHub inboxes: `read_at` is null), or read (no mark). A read notification is never
/// new; a new one is unread, and shows only its new mark.
enum ReadState: Sendable {
  case new, unread, read

  init(isUnread: Bool, isNew: Bool) {
    self = !isUnread ? .read : isNew ? .new : .unread
  }

  /// The mark of a stack or digest of `unread` unread notifications, `new` of them new.
  init(unread: Int, new: Int) {
    self = unread == 0 ? .read : new > 0 ? .new : .unread
  }
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

  /// Its one mark, from the counts of the group object.
  var state: ReadState { ReadState(unread: unreadCount, new: newCount) }
}

extension ShownStack {
  /// How many of the notifications behind the leading one are not listed: `count` less the
  /// leading one and the others shown. So the listed and the unlisted add up to the group
  /// object's `more_count`, and for notif-group's objects the unlisted are its
  /// `items_omitted`, with the items that have nothing to show (a background push).
  var unlisted: Int {
    max(count - 1 - (others?.count ?? 0), 0)
  }

  /// What the line under a stack's listed items says of the unlisted: `1 more notification`,
  /// `3 more notifications`; nil when every one is listed, or none is (the summary line says
  /// how many there are).
  var unlistedLine: String? {
    guard let others, !others.isEmpty, unlisted > 0 else { return nil }
    return ShownStack.more(unlisted)
  }

  /// `1 more notification`, `3 more notifications`.
  static func more(_ count: Int) -> String {
    "\(count) more notification\(count == 1 ? "" : "s")"
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

  /// What the line under its listed records says of the others (`ShownStack.more`); nil when
  /// every one is listed, or none is (its text counts them).
  var unlistedLine: String? { !items.isEmpty && unlisted > 0 ? ShownStack.more(unlisted) : nil }

  /// Its one mark: unread while its `read_at` is null and it has unread records; new when,
  /// besides, it came after `--last-seen`.
  var state: ReadState {
    ReadState(isUnread: isUnread && unreadCount > 0, isNew: isNew)
  }

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

/// What a page shows: the entries, in the view's order, and the counts of everything the view
/// lists, which `--limit` may have cut.
struct ShownList {
  var entries: [ShownEntry]
  var counts = ShownCounts()

  /// The entries `--limit` left out: the older ones (with `--sort relevance`, the less
  /// relevant).
  var cut: Int { max(counts.entries - entries.count, 0) }

  /// The line that says so: `12 older notifications`, `1 more notification`; nil when none
  /// was cut.
  func cutLine(_ ranking: Ranking) -> String? {
    guard cut > 0 else { return nil }
    let noun = "notification\(cut == 1 ? "" : "s")"
    return ranking == .time ? "\(cut) older \(noun)" : "\(cut) more \(noun)"
  }

  /// The unread count of the header: `3 unread`; nil when nothing is unread.
  var unreadLine: String? { counts.unread > 0 ? "\(counts.unread) unread" : nil }
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
