/// The keys of a notification record, in the order they are written.
///
/// `man/notif.5` documents each one: what it means, where it comes from, its default. A field
/// whose value is null is left out (notif-parse `--dense` writes it), and a missing key is
/// null; the fields written keep this order. `digestedAt` comes last, after `payload`, where
/// notif-digest adds it to a record it put in a digest.
public enum RecordField: Int, CaseIterable, Sendable {
  case id, app, threadID, category
  case title, subtitle, body
  case titleLocKey, titleLocArgs, subtitleLocKey, subtitleLocArgs, locKey, locArgs
  case createdAt, relevance, interruptionLevel, badge
  case sound, soundCritical, soundVolume
  case summaryArg, summaryArgCount
  case collapseID, expiresAt, priority, pushType, topic
  case contentAvailable, mutableContent, targetContentID
  case event, timestamp, staleAt, dismissAt
  case readAt, seenAt
  case source, payload
  case digestedAt

  /// The keys of every record notif-parse writes, in order: all but `digestedAt`.
  public static let written: [RecordField] = allCases.filter { $0 != .digestedAt }

  /// The snake_case key.
  public var key: String {
    switch self {
    case .id: return "id"
    case .app: return "app"
    case .threadID: return "thread_id"
    case .category: return "category"
    case .title: return "title"
    case .subtitle: return "subtitle"
    case .body: return "body"
    case .titleLocKey: return "title_loc_key"
    case .titleLocArgs: return "title_loc_args"
    case .subtitleLocKey: return "subtitle_loc_key"
    case .subtitleLocArgs: return "subtitle_loc_args"
    case .locKey: return "loc_key"
    case .locArgs: return "loc_args"
    case .createdAt: return "created_at"
    case .relevance: return "relevance"
    case .interruptionLevel: return "interruption_level"
    case .badge: return "badge"
    case .sound: return "sound"
    case .soundCritical: return "sound_critical"
    case .soundVolume: return "sound_volume"
    case .summaryArg: return "summary_arg"
    case .summaryArgCount: return "summary_arg_count"
    case .collapseID: return "collapse_id"
    case .expiresAt: return "expires_at"
    case .priority: return "priority"
    case .pushType: return "push_type"
    case .topic: return "topic"
    case .contentAvailable: return "content_available"
    case .mutableContent: return "mutable_content"
    case .targetContentID: return "target_content_id"
    case .event: return "event"
    case .timestamp: return "timestamp"
    case .staleAt: return "stale_at"
    case .dismissAt: return "dismiss_at"
    case .readAt: return "read_at"
    case .seenAt: return "seen_at"
    case .source: return "source"
    case .payload: return "payload"
    case .digestedAt: return "digested_at"
    }
  }
}

/// The keys of a group object, in the order they are written.
///
/// notif-group writes one group object per group of records, with every key but `summary` and
/// `hiddenSummary`; its `--merge` reads them back. notif-summarize reads them, passes
/// `grouping` through unchanged and adds `summary` and `hiddenSummary` after the last one.
/// `man/notif.5` documents each key.
public enum GroupField: Int, CaseIterable, Sendable {
  case app, threadID, count, unreadCount, newCount, latestAt, leading
  case moreCount, moreWeight, moreCategories, moreSummaryArgs, items, itemsOmitted
  case grouping
  case summary, hiddenSummary

  /// The keys every group object has, in order. `grouping` and the keys notif-summarize adds
  /// come after them, so a key's position here is its `rawValue`.
  public static let required: [GroupField] = allCases.filter { !$0.isSummary && $0 != .grouping }

  /// Whether notif-summarize adds the key (`summary`, `hiddenSummary`): notif-group never
  /// writes it.
  public var isSummary: Bool { self == .summary || self == .hiddenSummary }

  /// The snake_case key.
  public var key: String {
    switch self {
    case .app: return "app"
    case .threadID: return "thread_id"
    case .count: return "count"
    case .unreadCount: return "unread_count"
    case .newCount: return "new_count"
    case .latestAt: return "latest_at"
    case .leading: return "leading"
    case .moreCount: return "more_count"
    case .moreWeight: return "more_weight"
    case .moreCategories: return "more_categories"
    case .moreSummaryArgs: return "more_summary_args"
    case .items: return "items"
    case .itemsOmitted: return "items_omitted"
    case .grouping: return "grouping"
    case .summary: return "summary"
    case .hiddenSummary: return "hidden_summary"
    }
  }

  /// The keys of `grouping`, in the order they are written: the options of notif-group that
  /// made the object (`--by`, `--sort`, `--order`, `--item-limit`, `--last-seen`, `--all-pushes`),
  /// so that `--merge` can refuse objects that were made differently. Objects written before it
  /// existed lack it, and those written before `--all-pushes` lack `all_pushes`.
  public enum GroupingEntry: Int, CaseIterable, Sendable {
    case by, sort, order, limit, lastSeen, allPushes

    /// The snake_case key.
    public var key: String {
      switch self {
      case .by: return "by"
      case .sort: return "sort"
      case .order: return "order"
      case .limit: return "limit"
      case .lastSeen: return "last_seen"
      case .allPushes: return "all_pushes"
      }
    }
  }

  /// The keys of an entry of `more_categories`, in the order they are written.
  public enum CategoryEntry: Int, CaseIterable, Sendable {
    case category, count, weight

    /// The snake_case key.
    public var key: String {
      switch self {
      case .category: return "category"
      case .count: return "count"
      case .weight: return "weight"
      }
    }
  }

  /// The keys of an entry of `more_summary_args`, in the order they are written.
  public enum SummaryArgEntry: Int, CaseIterable, Sendable {
    case summaryArg, count, latestAt

    /// The snake_case key.
    public var key: String {
      switch self {
      case .summaryArg: return "summary_arg"
      case .count: return "count"
      case .latestAt: return "latest_at"
      }
    }
  }
}

/// The keys of a digest object, in the order they are written.
///
/// notif-digest writes one digest object per key and window: many records of one person (or
/// thread, or any key) become one message. Its `--merge` reads them back; notif-show will
/// render them. `man/notif.5` documents each key.
public enum DigestField: Int, CaseIterable, Sendable {
  case digestID, key, windowStart, windowEnd, count, unreadCount, latestAt
  case actors, categories, items, itemsOmitted, summary, hiddenSummary, readAt, digesting

  /// The snake_case key.
  public var key: String {
    switch self {
    case .digestID: return "digest_id"
    case .key: return "key"
    case .windowStart: return "window_start"
    case .windowEnd: return "window_end"
    case .count: return "count"
    case .unreadCount: return "unread_count"
    case .latestAt: return "latest_at"
    case .actors: return "actors"
    case .categories: return "categories"
    case .items: return "items"
    case .itemsOmitted: return "items_omitted"
    case .summary: return "summary"
    case .hiddenSummary: return "hidden_summary"
    case .readAt: return "read_at"
    case .digesting: return "digesting"
    }
  }

  /// The keys of an entry of `actors`, in the order they are written.
  public enum ActorEntry: Int, CaseIterable, Sendable {
    case actor, count, latestAt

    /// The snake_case key.
    public var key: String {
      switch self {
      case .actor: return "actor"
      case .count: return "count"
      case .latestAt: return "latest_at"
      }
    }
  }

  /// The keys of an entry of `categories`, in the order they are written.
  public enum CategoryEntry: Int, CaseIterable, Sendable {
    case category, count

    /// The snake_case key.
    public var key: String {
      switch self {
      case .category: return "category"
      case .count: return "count"
      }
    }
  }

  /// The keys of `digesting`, in the order they are written: the options of notif-digest
  /// that made the object, so that `--merge` can refuse objects that were made differently.
  public enum DigestingEntry: Int, CaseIterable, Sendable {
    case key, actor, window, align, at, tz, lookback, maxItems, items, limit, allPushes

    /// The snake_case key.
    public var key: String {
      switch self {
      case .key: return "key"
      case .actor: return "actor"
      case .window: return "window"
      case .align: return "align"
      case .at: return "at"
      case .tz: return "tz"
      case .lookback: return "lookback"
      case .maxItems: return "max_items"
      case .items: return "items"
      case .limit: return "limit"
      case .allPushes: return "all_pushes"
      }
    }
  }
}
