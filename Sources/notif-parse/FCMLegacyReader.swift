import NotifJSON
import NotifModel

/// Reads FCM legacy HTTP messages, for what they say, with the warning that Google shut the
/// API down in 2024 (notif-rules(7), "FCM legacy HTTP"). The rules they share with HTTP v1
/// messages (`data`, priorities) are `FCMReader`'s.
enum FCMLegacyReader: FormatReader {
  private enum LegacyKey: Sendable {
    case to, registrationIDs, condition, notification, data, collapseKey, priority
    case contentAvailable, mutableContent, timeToLive, packageName, flag
  }
  private static let legacyKeys = KeyTable<LegacyKey>([
    ("to", .to), ("registration_ids", .registrationIDs), ("condition", .condition),
    ("notification", .notification), ("data", .data), ("collapse_key", .collapseKey),
    ("priority", .priority), ("content_available", .contentAvailable),
    ("mutable_content", .mutableContent), ("time_to_live", .timeToLive),
    ("restricted_package_name", .packageName), ("dry_run", .flag),
    ("delay_while_idle", .flag), ("direct_boot_ok", .flag),
  ])
  private enum LegacyNotificationKey: Sendable {
    case title, body, subtitle, sound, badge, tag, clickAction, bodyLocKey, bodyLocArgs
    case titleLocKey, titleLocArgs, text
  }
  private static let legacyNotificationKeys = KeyTable<LegacyNotificationKey>([
    ("title", .title), ("body", .body), ("subtitle", .subtitle), ("sound", .sound),
    ("badge", .badge), ("tag", .tag), ("click_action", .clickAction),
    ("body_loc_key", .bodyLocKey), ("body_loc_args", .bodyLocArgs),
    ("title_loc_key", .titleLocKey), ("title_loc_args", .titleLocArgs), ("icon", .text),
    ("color", .text), ("android_channel_id", .text), ("image", .text),
  ])

  /// An FCM legacy HTTP message, read for what it says, with a warning that the API is gone.
  static func read(_ view: JSONView, _ root: Int, into m: inout MessageReader) {
    m.findings.append(
      .warning(
        "FCMLegacyShutDown",
        "this is an FCM legacy HTTP message: Google shut that API down in 2024; send an HTTP v1 message",
        at: m.offset(view, root)))
    var collapseKey: Int?
    view.forEachMember(of: root) { key, value in
      let at = m.offset(view, value)
      switch Self.legacyKeys.find(view, key) {
      case .to, .condition: m.string(view, key, value, into: nil)
      case .registrationIDs:
        if !Self.isStringArray(view, value) {
          m.findings.append(
            .error("BadType", "'registration_ids' must be an array of strings", at: at))
        }
      case .notification:
        readNotification(view, value, into: &m)
      case .data:
        FCMReader.checkData(view, value, "data", into: &m)
      case .collapseKey:
        m.string(view, key, value, into: nil)
        collapseKey = value
      case .priority:
        if view.kind(value) == .string, let priority = FCMReader.messagePriorities.find(view, value)
        {
          m.values[.priority] = .integer(priority)
        } else {
          m.findings.append(
            .error(
              "FCMBadPriority",
              "'priority' must be normal or high, not \(Self.quotedValue(view, value))", at: at))
        }
      case .contentAvailable, .mutableContent:
        m.readBool(
          view, key, value,
          into: view.keyEquals(key, "content_available") ? .contentAvailable : .mutableContent)
      case .timeToLive:
        if let seconds = view.integer(value), seconds >= 0, seconds <= FCMReader.maxTTL {
          m.timeToLive = seconds
        } else {
          m.findings.append(
            .error(
              "FCMBadTTL",
              "'time_to_live' must be whole seconds from 0 to \(FCMReader.maxTTL) (4 weeks), not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .packageName:
        m.string(view, key, value, into: nil)
        if let name = view.stringValue(value), !name.isEmpty { m.impliedApp = name }
      case .flag:
        m.readBool(view, key, value)
      case nil:
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an FCM legacy message",
            at: m.offset(view, key)))
      }
    }
    if let collapseKey, case .null = m.values[.collapseID] {
      m.stringField(view, collapseKey, .collapseID)
    }
  }

  private static func readNotification(_ view: JSONView, _ index: Int, into m: inout MessageReader)
  {
    guard m.checkObject(view, index, "notification") else { return }
    view.forEachMember(of: index) { key, value in
      let at = m.offset(view, value)
      switch Self.legacyNotificationKeys.find(view, key) {
      case .title: m.string(view, key, value, into: .title)
      case .body: m.string(view, key, value, into: .body)
      case .subtitle: m.string(view, key, value, into: .subtitle)
      case .sound: m.string(view, key, value, into: .sound)
      case .tag: m.string(view, key, value, into: .collapseID)
      case .clickAction: m.string(view, key, value, into: .category)
      case .bodyLocKey: m.string(view, key, value, into: .locKey)
      case .titleLocKey: m.string(view, key, value, into: .titleLocKey)
      case .bodyLocArgs, .titleLocArgs:
        // The legacy API took the arguments as an array, or as a JSON array in a string.
        if view.kind(value) != .string {
          m.readLocArgs(
            view, key, value,
            into: view.keyEquals(key, "body_loc_args") ? .locArgs : .titleLocArgs)
        }
      case .badge:
        // A string on the wire ("5"); a number is read too.
        if let badge = Self.headerInteger(view, value), FieldLimits.tally.contains(badge) {
          m.values[.badge] = .integer(badge)
        } else {
          m.findings.append(
            Self.badBadge(view, value, "badge", maximum: FieldLimits.largest, at: at))
        }
      case .text: m.string(view, key, value, into: nil)
      case nil:
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an FCM legacy 'notification'",
            at: m.offset(view, key)))
      }
    }
  }
}
