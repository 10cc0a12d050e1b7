import NotifJSON
import NotifModel

/// Reads FCM legacy HTTP messages, for what they say (notif-rules(7), "FCM legacy HTTP").
///
/// Google shut the legacy API down in 2024, so a legacy message sent to it is refused: every
/// legacy addressing shape (`to`, `registration_ids`, `condition`, `notification_key`) is an
/// error, `FCMLegacyShutDown`. A legacy-shaped payload in an Amazon SNS `GCM` string is not
/// sent to that API: SNS translates it into an FCM HTTP v1 message (AWS, "Using Google Firebase
/// Cloud Messaging v1 payloads in Amazon SNS"), so it is read without that error. The rules
/// they share with HTTP v1 messages (`data`, priorities) are `FCMReader`'s.
enum FCMLegacyReader: FormatReader {
  private enum Field: Sendable {
    case registrationIDs, notification, data, collapseKey, priority, timeToLive, packageName
  }
  private static let fields = KeyTable<MemberRule<Field>>([
    ("to", .string(nil)), ("condition", .string(nil)), ("notification_key", .string(nil)),
    ("registration_ids", .own(.registrationIDs)), ("notification", .own(.notification)),
    ("data", .own(.data)), ("collapse_key", .own(.collapseKey)), ("priority", .own(.priority)),
    ("content_available", .bool(.contentAvailable)),
    ("mutable_content", .bool(.mutableContent)), ("time_to_live", .own(.timeToLive)),
    ("restricted_package_name", .own(.packageName)), ("dry_run", .bool(nil)),
    ("delay_while_idle", .bool(nil)), ("direct_boot_ok", .bool(nil)),
  ])

  private static let rows = MemberRows(
    string: .legacyTypes, locArgs: .legacyLocArgs, bool: .legacyFlags, object: .legacyTypes)

  /// An FCM legacy HTTP message, read for what it says: refused, since the API is gone, unless
  /// it is an SNS `GCM` string's (`translatedBySNS`), which SNS sends as an HTTP v1 message. A
  /// message addressed by a condition alone is the one a writer of HTTP v1 most often sends by
  /// mistake (a condition outside `message`): its own rule, `legacy-condition`.
  static func read(
    _ view: JSONView, _ root: Int, translatedBySNS: Bool = false, into m: inout MessageReader
  ) {
    if !translatedBySNS {
      let addressed = ["to", "registration_ids", "notification_key"].contains {
        view.member(root, $0) != nil
      }
      if !addressed, let condition = view.member(root, "condition") {
        m.error(
          .legacyCondition,
          "'condition' at the top is the FCM legacy HTTP API's, which Google shut down in 2024 (it answers 404): put the condition in an HTTP v1 'message'",
          view, at: condition - 1)
      } else {
        m.error(
          .legacyShutDown,
          "this is an FCM legacy HTTP message: Google shut that API down in 2024, and it answers 404; send an HTTP v1 message",
          view, at: root)
      }
    }
    var collapseKey: Int?
    m.readMembers(
      view, of: root, fields, rows,
      own: { m, field, key, value in
        switch field {
        case .registrationIDs:
          if !Self.isStringArray(view, value) {
            m.error(
              .legacyRegistrationIds, "'registration_ids' must be an array of strings", view,
              at: value)
          }
        case .notification: readNotification(view, value, into: &m)
        case .data:
          FCMReader.checkData(
            view, value, "data", .legacyData, reserved: .legacyDataReserved, object: .legacyTypes,
            into: &m)
        case .collapseKey:
          m.string(view, key, value, into: nil, .legacyTypes)
          collapseKey = value
        case .priority:
          if view.kind(value) == .string,
            let priority = FCMReader.messagePriorities.find(view, value)
          {
            m.values[.priority] = .integer(priority)
          } else {
            m.error(
              .legacyPriority,
              "'priority' must be normal or high, not \(Self.quotedValue(view, value))", view,
              at: value)
          }
        case .timeToLive:
          if let seconds = view.integer(value), seconds >= 0, seconds <= FCMReader.maxTTL {
            m.timeToLive = seconds
          } else {
            m.error(
              .legacyTtl,
              "'time_to_live' must be whole seconds from 0 to \(FCMReader.maxTTL) (4 weeks), not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .packageName:
          m.string(view, key, value, into: nil, .legacyTypes)
          if let name = view.stringValue(value), !name.isEmpty { m.impliedApp = name }
        }
      },
      unknown: { m, key in
        if PushFormat.slip(view, key) == .legacyAddress {
          m.warning(
            .legacyAddressSlip,
            "unknown key \(Self.quoted(view.string(key))) in an FCM legacy message: the address keys are to, registration_ids and notification_key, as written",
            view, at: key)
        } else {
          unknownKey(view, key, in: "an FCM legacy message", into: &m)
        }
      })
    if let collapseKey, case .null = m.values[.collapseID] {
      m.stringField(view, collapseKey, .collapseID)
    }
  }

  private enum NotificationField: Sendable { case locArgs(RecordField), badge }
  private static let notificationFields = KeyTable<MemberRule<NotificationField>>([
    ("title", .string(.title)), ("body", .string(.body)), ("subtitle", .string(.subtitle)),
    ("sound", .string(.sound)), ("badge", .own(.badge)), ("tag", .string(.collapseID)),
    ("click_action", .string(.category)), ("body_loc_key", .string(.locKey)),
    ("body_loc_args", .own(.locArgs(.locArgs))), ("title_loc_key", .string(.titleLocKey)),
    ("title_loc_args", .own(.locArgs(.titleLocArgs))), ("icon", .string(nil)),
    ("color", .string(nil)), ("android_channel_id", .string(nil)), ("image", .string(nil)),
  ])

  private static func readNotification(_ view: JSONView, _ index: Int, into m: inout MessageReader)
  {
    m.readObject(
      view, index, "notification", notificationFields, rows,
      own: { m, field, key, value in
        switch field {
        case .locArgs(let field):
          // The legacy API took the arguments as an array, or as a JSON array in a string.
          if view.kind(value) != .string {
            m.readLocArgs(view, key, value, into: field, .legacyLocArgs)
          }
        case .badge:
          // A string on the wire ("5"); a number is read too.
          if let badge = Self.headerInteger(view, value), FieldLimits.tally.contains(badge) {
            m.values[.badge] = .integer(badge)
          } else {
            m.findings.append(
              Self.badBadge(
                view, value, "badge", maximum: FieldLimits.largest, .legacyBadge,
                at: m.offset(view, value)))
          }
        }
      },
      unknown: { unknownKey(view, $1, in: "an FCM legacy 'notification'", into: &$0) })
  }

  /// A key the legacy API did not define: a warning, since the API is gone either way.
  private static func unknownKey(
    _ view: JSONView, _ key: Int, in object: String, into m: inout MessageReader
  ) {
    m.warning(
      .legacyUnknown, "unknown key \(Self.quoted(view.string(key))) in \(object)", view, at: key)
  }
}
