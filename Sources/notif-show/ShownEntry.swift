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

/// What the list shows, one after the other: a notification, or a stack of them.
enum ShownEntry: Ranked {
  case item(ShownItem)
  case stack(ShownStack)

  /// The key of the notification it leads with.
  var key: SortKey {
    switch self {
    case .item(let item): return item.key
    case .stack(let stack): return stack.leading.key
    }
  }
}
