/// The keys of a notification record, in the order they are written.
///
/// `man/notif.5` documents each one: what it means, where it comes from, its default. Every
/// record has every key (`null` where there is no value), so jq and Miller see one shape.
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
  case payload

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
    case .payload: return "payload"
    }
  }

  /// `,"key":` (no comma before the first key), ready to copy into output.
  static let prefixes: [[UInt8]] = allCases.map { field in
    Array(((field == .id ? "{\"" : ",\"") + field.key + "\":").utf8)
  }
}

/// The value of one record field before it is written.
public enum FieldValue: Sendable, Equatable {
  /// JSON `null`.
  case null
  /// A value copied from the input, by its index on the input's tape, in canonical form.
  case input(Int)
  /// A string.
  case string(String)
  /// An integer.
  case integer(Int64)
  /// `true` or `false`.
  case bool(Bool)
  /// An instant, written in RFC 3339 UTC.
  case time(Timestamp)
}

/// The fields of one record, filled in any order and written in `RecordField` order.
public struct RecordValues: Sendable {
  private var values: [FieldValue]

  /// Creates a record with every field null.
  public init() {
    values = Array(repeating: .null, count: RecordField.allCases.count)
  }

  /// Sets every field back to null, keeping the storage.
  public mutating func reset() {
    for index in values.indices { values[index] = .null }
  }

  /// The value of a field.
  public subscript(field: RecordField) -> FieldValue {
    get { values[field.rawValue] }
    set { values[field.rawValue] = newValue }
  }

  /// Appends the record as one compact JSON line (with its newline) to `out`: every field but
  /// `payload` from `self`, then `payload` as given (already compact JSON).
  ///
  /// `input` values are copied from `view`.
  public func write(view: JSONView, payload: ByteBuffer, into out: inout ByteBuffer) {
    for field in RecordField.allCases {
      RecordField.prefixes[field.rawValue].withUnsafeBytes { out.append($0) }
      if field == .payload {
        out.append(payload)
        continue
      }
      switch values[field.rawValue] {
      case .null: out.append("null")
      case .input(let index): JSONWriter.writeCompact(view, index, into: &out)
      case .string(let text): JSONEscapes.writeString(text, into: &out)
      case .integer(let value): out.append(decimal: value)
      case .bool(let value): out.append(value ? "true" : "false")
      case .time(let instant): JSONEscapes.writeString(instant.description, into: &out)
      }
    }
    out.append("}\n")
  }
}
