import NotifJSON
import NotifModel

/// Reads Firebase Cloud Messaging HTTP v1 messages as FCM reads them (notif-rules(7), "FCM HTTP
/// v1"), with the FCM rules `FCMLegacyReader` shares.
///
/// A v1 request is protobuf JSON: each typed object (the request, `message`, `notification`,
/// `android`, `android.notification`, its `light_settings`, `apns`, `webpush` and every
/// `fcm_options`) takes only its own fields, each by its proto name (`click_action`) or its
/// lowerCamelCase JSON name (`clickAction`), and FCM answers 400 INVALID_ARGUMENT ("Invalid
/// JSON payload received. Unknown name ...") for any other: an error here. Enum fields take the
/// value names FCM's reference lists, or their numbers. The free-form maps (`data`, `headers`,
/// `apns.payload`, `webpush.notification`) take any key; `data` and `headers` only strings.
enum FCMReader: FormatReader {
  /// FCM's longest time to live: four weeks, in seconds.
  static let maxTTL: Int64 = 2_419_200
  /// The most topics a condition may name.
  static let maxConditionTopics = 5

  /// The key table of a typed object: each field by its proto name and, where that differs, by
  /// its lowerCamelCase JSON name, as protobuf JSON parsers take them.
  static func fields<Own>(_ table: [(String, MemberRule<Own>)]) -> KeyTable<MemberRule<Own>> {
    KeyTable(
      table.flatMap { name, rule in
        let camel = lowerCamelCase(name)
        return camel == name ? [(name, rule)] : [(name, rule), (camel, rule)]
      })
  }

  /// `click_action` as `clickAction`: protobuf's JSON name of a field.
  static func lowerCamelCase(_ name: String) -> String {
    var out = ""
    var upper = false
    for character in name {
      if character == "_" {
        upper = true
      } else {
        out += upper ? character.uppercased() : String(character)
        upper = false
      }
    }
    return out
  }

  /// FCM refuses a field its typed object does not define: an `FCMUnknownField` error naming
  /// where it is (`in`), and what is there (`has`) where the list is short.
  static func unknownField(
    _ view: JSONView, _ key: Int, in object: String, has fields: String? = nil,
    _ rule: Rule = .fcmUnknownField, into m: inout MessageReader
  ) {
    m.error(
      rule,
      "unknown field \(Self.quoted(view.string(key))) in \(object): FCM answers 400 INVALID_ARGUMENT"
        + (fields.map { "; it has \($0)" } ?? ""), view, at: key)
  }

  // MARK: - The request and the message

  /// The rows of the typed objects' members: `fcm-strings`, `fcm-loc-args`, `fcm-bools`,
  /// `fcm-objects`.
  static let rows = MemberRows(
    string: .fcmStrings, locArgs: .fcmLocArgs, bool: .fcmBools, object: .fcmObjects)
  private static let requestRows = MemberRows(
    string: .fcmStrings, locArgs: .fcmLocArgs, bool: .fcmValidateOnly, object: .fcmObjects)

  private enum RequestField: Sendable { case message, validateOnly }
  private static let requestFields = fields([
    ("message", MemberRule<RequestField>.own(.message)), ("validate_only", .bool(nil)),
  ])

  private enum MessageField: Sendable {
    case token, topic, condition, notification, data, android, apns, webpush, fcmOptions, name
  }
  private static let messageFields = fields([
    ("token", MemberRule<MessageField>.own(.token)), ("topic", .own(.topic)),
    ("condition", .own(.condition)), ("notification", .own(.notification)),
    ("data", .own(.data)), ("android", .own(.android)), ("apns", .own(.apns)),
    ("webpush", .own(.webpush)), ("fcm_options", .own(.fcmOptions)), ("name", .own(.name)),
  ])

  /// Reads the FCM HTTP v1 message at `message` of `view`; `root` is the text's root, the
  /// message or `{"message": ...}` around it. `requiresTarget` is false where the target is
  /// another service's (an SNS message).
  static func read(
    _ view: JSONView, message: Int, root: Int, requiresTarget: Bool = true,
    into m: inout MessageReader
  ) {
    if message != root {
      m.readMembers(
        view, of: root, requestFields, requestRows, own: { _, _, _, _ in },
        unknown: { m, key in
          if PushFormat.slip(view, key) == .message {
            // `Message`: protobuf JSON matches field names as written.
            unknownField(
              view, key, in: "the request", has: "message (field names are case-sensitive)",
              .fcmMessageCase, into: &m)
          } else {
            unknownField(view, key, in: "the request", has: "message and validate_only", into: &m)
          }
        })
    }
    guard view.kind(message) == .object else {
      m.error(
        .fcmObjects, "'message' must be a dictionary, not \(Self.kindName(view, message))", view,
        at: message)
      return
    }
    var targets = 0
    var isTopic = false
    var generic: Int?  // message.notification
    var size = 0  // notification and data, compact
    var blocks: (android: Int?, apns: Int?, webpush: Int?) = (nil, nil, nil)
    m.readMembers(
      view, of: message, messageFields, rows,
      own: { m, field, key, value in
        switch field {
        case .token:
          targets += 1
          if view.kind(value) != .string || view.tokens[value].end - view.tokens[value].start <= 2 {
            m.error(.fcmToken, "'token' must be a registration token", view, at: value)
          }
        case .topic:
          targets += 1
          isTopic = true
          checkTopic(view, value, into: &m)
        case .condition:
          targets += 1
          isTopic = true
          checkCondition(view, value, into: &m)
        case .notification:
          generic = value
          size += m.compactSize(view, value)
          readNotification(view, value, into: &m)
        case .data:
          size += m.compactSize(view, value)
          checkData(view, value, "data", .fcmDataString, reserved: .fcmDataReserved, into: &m)
        case .android: blocks.android = value
        case .apns: blocks.apns = value
        case .webpush: blocks.webpush = value
        case .fcmOptions: readOptions(view, value, "fcm_options", analyticsOptions, into: &m)
        case .name: break  // output only: FCM fills it in its answer, and ignores it in a request
        }
      },
      unknown: {
        unknownField(
          view, $1, in: "the message",
          has:
            "token, topic, condition, notification, data, android, apns, webpush and fcm_options",
          into: &$0)
      })
    if requiresTarget && targets != 1 {
      m.error(
        .fcmTarget,
        "an FCM message needs exactly one of 'token', 'topic' and 'condition'; this one has \(targets)",
        view, at: message)
    }
    let limit = isTopic ? 2048 : 4096
    if size > limit {
      m.error(
        .fcmSize,
        "'notification' and 'data' are \(size) bytes; FCM accepts at most \(limit)\(isTopic ? " for a topic message" : "")",
        view, at: message)
    }
    // Every platform block is checked; only the one --platform picks fills the record, over
    // what the cross-platform notification gives.
    if let android = blocks.android {
      m.withState(kept: m.defaults.platform == .android) { readAndroid(view, android, into: &$0) }
    }
    if let apns = blocks.apns {
      m.alertElsewhere = generic != nil
      m.withState(kept: m.defaults.platform == .ios) { readApns(view, apns, into: &$0) }
      m.alertElsewhere = false
    }
    if let webpush = blocks.webpush {
      m.withState(kept: m.defaults.platform == .web) { readWebpush(view, webpush, into: &$0) }
    }
    if let generic {
      if case .null = m.values[.title], let title = view.member(generic, "title") {
        m.stringField(view, title, .title)
      }
      if case .null = m.values[.body], let body = view.member(generic, "body") {
        m.stringField(view, body, .body)
      }
    }
  }

  private static let notificationFields = fields([
    ("title", MemberRule<Never>.string(nil)), ("body", .string(nil)), ("image", .string(nil)),
  ])

  /// `message.notification`: title, body and image, strings.
  private static func readNotification(_ view: JSONView, _ index: Int, into m: inout MessageReader)
  {
    m.readObject(
      view, index, "notification", notificationFields, rows, own: { _, _, _, _ in },
      unknown: { m, key in
        // sound is the field people put here most: a rule of its own, with its own case.
        let rule: Rule = view.keyEquals(key, "sound") ? .fcmSoundInNotification : .fcmUnknownField
        unknownField(view, key, in: "'notification'", has: "title, body and image", rule, into: &m)
      })
  }

  private enum OptionField: Sendable { case analyticsLabel, link }
  private static let analyticsOptions = fields([
    ("analytics_label", MemberRule<OptionField>.own(.analyticsLabel))
  ])
  private static let apnsOptions = fields([
    ("analytics_label", MemberRule<OptionField>.own(.analyticsLabel)), ("image", .string(nil)),
  ])
  private static let webpushOptions = fields([
    ("analytics_label", MemberRule<OptionField>.own(.analyticsLabel)), ("link", .own(.link)),
  ])
  /// The longest analytics label FCM takes.
  static let maxAnalyticsLabel = 50

  /// An `fcm_options` object, whose fields are strings: an analytics label of 1 to 50 of the
  /// characters FCM allows, and a web push's link, an HTTPS URL.
  private static func readOptions(
    _ view: JSONView, _ index: Int, _ path: String, _ table: KeyTable<MemberRule<OptionField>>,
    into m: inout MessageReader
  ) {
    m.readObject(
      view, index, path, table, rows,
      own: { m, field, key, value in
        m.string(view, key, value, into: nil, .fcmStrings)
        guard view.kind(value) == .string else { return }
        switch field {
        case .analyticsLabel: checkAnalyticsLabel(view, value, path, into: &m)
        case .link: checkLink(view, value, into: &m)
        }
      },
      unknown: { unknownField(view, $1, in: quoted(path), into: &$0) })
  }

  /// FCM's pattern of an analytics label: `^[a-zA-Z0-9-_.~%]{1,50}$`, the topic name's
  /// characters.
  private static func checkAnalyticsLabel(
    _ view: JSONView, _ value: Int, _ path: String, into m: inout MessageReader
  ) {
    let (count, good) = Self.withText(view, value) { raw in
      (raw.count, !raw.isEmpty && raw.count <= maxAnalyticsLabel && raw.allSatisfy(isTopicByte))
    }
    if !good {
      m.error(
        .fcmAnalyticsLabel,
        "'\(path).analytics_label' \(Self.quotedValue(view, value)) "
          + (count > maxAnalyticsLabel
            ? "is \(count) characters; FCM answers 400 INVALID_ARGUMENT past \(maxAnalyticsLabel)"
            : "is not 1 to \(maxAnalyticsLabel) letters, digits and -_.~%: FCM answers 400 INVALID_ARGUMENT"),
        view, at: value)
    }
  }

  /// A web push's `fcm_options.link`: FCM takes HTTPS URLs only.
  private static func checkLink(_ view: JSONView, _ value: Int, into m: inout MessageReader) {
    let https = Self.withText(view, value) { raw -> Bool in
      guard raw.count > 8 else { return false }
      let scheme = raw.prefix(8).map { $0 | 0x20 }
      return scheme.elementsEqual("https://".utf8)
    }
    if !https {
      m.error(
        .fcmWebpushLink,
        "'webpush.fcm_options.link' \(Self.quotedValue(view, value)) is not an HTTPS URL: FCM answers 400 INVALID_ARGUMENT",
        view, at: value)
    }
  }

  // MARK: - The apns and webpush blocks

  private enum ApnsField: Sendable { case headers, payload, fcmOptions }
  private static let apnsFields = fields([
    ("headers", MemberRule<ApnsField>.own(.headers)), ("payload", .own(.payload)),
    ("fcm_options", .own(.fcmOptions)), ("live_activity_token", .string(nil)),
  ])

  /// The `apns` block: APNs headers and an APNs payload, read by every APNs rule.
  private static func readApns(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    var payload = -1  // read last, once the headers are
    m.readObject(
      view, index, "apns", apnsFields, rows,
      own: { m, field, _, value in
        switch field {
        case .headers:
          if checkHeaders(view, value, "apns.headers", into: &m) {
            APNsReader.readHeaders(view, value, into: &m)
          }
        case .payload: payload = value
        case .fcmOptions: readOptions(view, value, "apns.fcm_options", apnsOptions, into: &m)
        }
      },
      unknown: {
        unknownField(
          view, $1, in: "'apns'", has: "headers, payload, fcm_options and live_activity_token",
          into: &$0)
      })
    if payload >= 0, m.checkObject(view, payload, "apns.payload", .fcmObjects) {
      APNsReader.read(
        view, payload: payload, payloadSize: m.compactSize(view, payload),
        mdm: view.member(payload, "mdm") != nil, sizeAt: m.offset(view, payload), viaFCM: true,
        into: &m)
    }
  }

  private enum WebpushField: Sendable { case headers, data, notification, fcmOptions }
  private static let webpushFields = fields([
    ("headers", MemberRule<WebpushField>.own(.headers)), ("data", .own(.data)),
    ("notification", .own(.notification)), ("fcm_options", .own(.fcmOptions)),
  ])

  /// The `webpush` block: RFC 8030 headers, data, a Web Push notification and its options.
  private static func readWebpush(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    m.readObject(
      view, index, "webpush", webpushFields, rows,
      own: { m, field, _, value in
        switch field {
        case .data:
          checkData(
            view, value, "webpush.data", .fcmDataString, reserved: .fcmDataReserved, into: &m)
        case .headers:
          if checkHeaders(view, value, "webpush.headers", into: &m) {
            WebPushReader.readHeaders(view, value, into: &m)
          }
        case .notification:
          if m.checkObject(view, value, "webpush.notification", .fcmObjects) {
            WebPushReader.readNotification(view, value, into: &m)
          }
        case .fcmOptions: readOptions(view, value, "webpush.fcm_options", webpushOptions, into: &m)
        }
      },
      unknown: {
        unknownField(
          view, $1, in: "'webpush'", has: "headers, data, notification and fcm_options", into: &$0)
      })
  }

  /// A block's `headers`: a map of strings, as FCM carries them. Returns whether it is a
  /// dictionary, for the rules of the headers themselves.
  private static func checkHeaders(
    _ view: JSONView, _ index: Int, _ path: String, into m: inout MessageReader
  ) -> Bool {
    checkStrings(view, index, path, .fcmHeadersString, reserved: nil, into: &m)
  }

  // MARK: - Android

  private enum AndroidField: Sendable {
    case collapseKey, priority, ttl, packageName, data, notification, fcmOptions
  }
  private static let androidFields = fields([
    ("collapse_key", MemberRule<AndroidField>.own(.collapseKey)), ("priority", .own(.priority)),
    ("ttl", .own(.ttl)), ("restricted_package_name", .own(.packageName)), ("data", .own(.data)),
    ("notification", .own(.notification)), ("fcm_options", .own(.fcmOptions)),
    ("direct_boot_ok", .bool(nil)), ("bandwidth_constrained_ok", .bool(nil)),
    ("restricted_satellite_ok", .bool(nil)),
  ])
  /// AndroidMessagePriority: the names FCM's reference lists, the lowercase ones its examples
  /// send, and the numbers protobuf JSON takes for them; as APNs counts priority.
  static let messagePriorities = KeyTable<Int64>([
    ("normal", 5), ("high", 10), ("NORMAL", 5), ("HIGH", 10),
  ])

  /// The `android` block: AndroidConfig.
  private static func readAndroid(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    var collapseKey: Int?
    m.readObject(
      view, index, "android", androidFields, rows,
      own: { m, field, key, value in
        switch field {
        case .collapseKey:
          m.string(view, key, value, into: nil, .fcmStrings)
          collapseKey = value
        case .priority:
          if let priority = messagePriority(view, value) {
            m.values[.priority] = .integer(priority)
          } else {
            m.error(
              .fcmAndroidPriority,
              "'android.priority' must be normal or high, not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .ttl:
          if let seconds = duration(view, value, "android.ttl", into: &m) { m.timeToLive = seconds }
        case .packageName:
          m.string(view, key, value, into: nil, .fcmStrings)
          if let name = view.stringValue(value), !name.isEmpty { m.impliedApp = name }
        case .data:
          checkData(
            view, value, "android.data", .fcmDataString, reserved: .fcmDataReserved, into: &m)
        case .notification: readAndroidNotification(view, value, into: &m)
        case .fcmOptions:
          readOptions(view, value, "android.fcm_options", analyticsOptions, into: &m)
        }
      },
      unknown: { unknownField(view, $1, in: "'android'", into: &$0) })
    if let collapseKey, case .null = m.values[.collapseID] {
      m.stringField(view, collapseKey, .collapseID)
    }
  }

  /// Whether the string at `index` is a color as `android.notification.color` takes it:
  /// `#rrggbb`, six hexadecimal digits.
  private static func isHexColor(_ view: JSONView, _ index: Int) -> Bool {
    Self.withText(view, index) { raw in
      raw.count == 7 && raw.first == UInt8(ascii: "#")
        && raw.dropFirst().allSatisfy {
          ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x66)
        }
    }
  }

  /// AndroidConfig's priority as APNs counts it (10 high, 5 normal); nil if it is neither.
  private static func messagePriority(_ view: JSONView, _ value: Int) -> Int64? {
    if view.kind(value) == .string { return messagePriorities.find(view, value) }
    switch view.integer(value) {
    case 0: return 5
    case 1: return 10
    default: return nil
    }
  }

  private enum NotificationField: Sendable {
    case eventTime, notificationPriority, visibility, count, vibrate, proxy, lightSettings, color
  }
  private static let androidNotificationFields = fields([
    ("title", MemberRule<NotificationField>.string(.title)), ("body", .string(.body)),
    ("tag", .string(.collapseID)), ("click_action", .string(.category)),
    ("sound", .string(.sound)), ("body_loc_key", .string(.locKey)),
    ("body_loc_args", .locArgs(.locArgs)), ("title_loc_key", .string(.titleLocKey)),
    ("title_loc_args", .locArgs(.titleLocArgs)), ("event_time", .own(.eventTime)),
    ("notification_priority", .own(.notificationPriority)), ("visibility", .own(.visibility)),
    ("notification_count", .own(.count)), ("icon", .string(nil)), ("color", .own(.color)),
    ("channel_id", .string(nil)), ("ticker", .string(nil)), ("image", .string(nil)),
    ("sticky", .bool(nil)), ("local_only", .bool(nil)), ("default_sound", .bool(nil)),
    ("default_vibrate_timings", .bool(nil)), ("default_light_settings", .bool(nil)),
    ("bypass_proxy_notification", .bool(nil)), ("light_settings", .own(.lightSettings)),
    ("vibrate_timings", .own(.vibrate)), ("proxy", .own(.proxy)),
  ])
  private static let notificationPriorities = enumNames([
    "PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH",
    "PRIORITY_MAX",
  ])
  private static let visibilities = enumNames([
    "VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET",
  ])
  private static let proxies = enumNames([
    "PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED",
  ])

  /// An enum's value names, each with its number.
  private static func enumNames(_ names: [String]) -> (table: KeyTable<Int>, count: Int) {
    (KeyTable(names.enumerated().map { ($1, $0) }), names.count)
  }

  /// `android.notification`: AndroidNotification.
  private static func readAndroidNotification(
    _ view: JSONView, _ index: Int, into m: inout MessageReader
  ) {
    m.readObject(
      view, index, "android.notification", androidNotificationFields, rows,
      own: { m, field, key, value in
        switch field {
        case .color:
          m.string(view, key, value, into: nil, .fcmStrings)
          if view.kind(value) == .string && !isHexColor(view, value) {
            m.error(
              .fcmNotificationColor,
              "'color' \(Self.quotedValue(view, value)) is not a color in #rrggbb form: FCM answers 400 INVALID_ARGUMENT",
              view, at: value)
          }
        case .eventTime:
          if let text = view.stringValue(value), let time = try? Timestamp(rfc3339: text) {
            m.eventTime = time
          } else {
            m.error(
              .fcmEventTime,
              "'event_time' must be an RFC 3339 time such as 2026-11-22T09:00:00Z, not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .notificationPriority:
          enumValue(
            view, value, notificationPriorities, .fcmNotificationPriority, "notification_priority",
            "PRIORITY_MIN, PRIORITY_LOW, PRIORITY_DEFAULT, PRIORITY_HIGH or PRIORITY_MAX",
            into: &m)
        case .visibility:
          enumValue(
            view, value, visibilities, .fcmVisibility, "visibility",
            "PRIVATE, PUBLIC or SECRET", into: &m)
        case .proxy:
          enumValue(
            view, value, proxies, .fcmProxy, "proxy", "ALLOW, DENY or IF_PRIORITY_LOWERED",
            into: &m)
        case .count:
          // An int32: protobuf JSON takes it as a number or as a string of digits.
          if let count = Self.headerInteger(view, value), (0...Int64(Int32.max)).contains(count) {
            m.values[.badge] = .integer(count)
          } else {
            m.findings.append(
              Self.badBadge(
                view, value, "notification_count", maximum: Int64(Int32.max),
                .fcmNotificationCount, at: m.offset(view, value)))
          }
        case .vibrate:
          var good = view.kind(value) == .array
          if good {
            view.forEachElement(of: value) { if durationSeconds(view, $0) == nil { good = false } }
          }
          if !good {
            m.error(
              .fcmDurations, "'vibrate_timings' must be an array of durations such as \"0.5s\"",
              view,
              at: value)
          }
        case .lightSettings: readLightSettings(view, value, into: &m)
        }
      },
      unknown: { unknownField(view, $1, in: "'android.notification'", into: &$0) })
  }

  private enum LightField: Sendable { case color, duration }
  private static let lightFields = fields([
    ("color", MemberRule<LightField>.own(.color)), ("light_on_duration", .own(.duration)),
    ("light_off_duration", .own(.duration)),
  ])
  private static let colorFields = KeyTable([("red", 0), ("green", 1), ("blue", 2), ("alpha", 3)])

  /// `android.notification.light_settings`: LightSettings, a color and two durations.
  private static func readLightSettings(_ view: JSONView, _ index: Int, into m: inout MessageReader)
  {
    m.readObject(
      view, index, "light_settings", lightFields, rows,
      own: { m, field, key, value in
        switch field {
        case .duration:
          if durationSeconds(view, value) == nil {
            m.error(
              .fcmDurations,
              "\(Self.quoted(view.string(key))) must be a duration such as \"0.5s\", not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .color:
          guard m.checkObject(view, value, "light_settings.color", .fcmObjects) else { return }
          // Color: red, green, blue and alpha, each a number from 0 to 1.
          view.forEachMember(of: value) { key, component in
            if colorFields.find(view, key) == nil {
              unknownField(view, key, in: "'light_settings.color'", into: &m)
            } else if view.double(component) == nil {
              m.error(
                .fcmColor, "\(Self.quoted(view.string(key))) must be a number from 0 to 1", view,
                at: component)
            }
          }
        }
      },
      unknown: { unknownField(view, $1, in: "'light_settings'", into: &$0) })
  }

  // MARK: - Rules shared by the FCM readers

  /// FCM's `data`: a dictionary of strings, none of them under a key FCM keeps for itself
  /// (`from`, `message_type`, and keys beginning with `google` or `gcm`): a value that is not a
  /// string is an error of `rule`, a key FCM keeps one of `reserved`, and a `data` that is not
  /// a dictionary one of `object`.
  static func checkData(
    _ view: JSONView, _ index: Int, _ what: String, _ rule: Rule, reserved: Rule,
    object: Rule = .fcmObjects, into m: inout MessageReader
  ) {
    _ = checkStrings(view, index, what, rule, reserved: reserved, object: object, into: &m)
  }

  /// A map of strings, `data` (with `reserved`) or `headers`, named `path`: whether it is a
  /// dictionary (an error of `object` if not), with an error of `rule` for each value that is
  /// not a string, and in `data` one of `reserved` for each key FCM keeps.
  private static func checkStrings(
    _ view: JSONView, _ index: Int, _ path: String, _ rule: Rule, reserved reservedRule: Rule?,
    object: Rule = .fcmObjects, into m: inout MessageReader
  ) -> Bool {
    guard m.checkObject(view, index, path, object) else { return false }
    let what = reservedRule != nil ? "data" : "headers"
    view.forEachMember(of: index) { key, value in
      if view.kind(value) != .string {
        m.error(
          rule,
          "\(Self.quoted(path + "." + view.string(key))) must be a string, not \(Self.kindName(view, value)): FCM carries \(what) as strings",
          view, at: value)
      }
      guard let reservedRule else { return }
      let reserved =
        Self.withText(view, key) { name -> Bool in
          Self.equals(name, "from") || Self.equals(name, "message_type")
            || Self.hasPrefix(name, "google") || Self.hasPrefix(name, "gcm")
        }
      if reserved {
        m.error(
          reservedRule,
          "\(Self.quoted(view.string(key))) is reserved by FCM: data keys may not be from or message_type, nor begin with google or gcm",
          view, at: key)
      }
    }
    return true
  }

  /// A topic name: letters, digits and `-_.~%`, optionally after `/topics/`.
  private static func checkTopic(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    let good =
      view.kind(index) == .string
      && Self.withText(view, index) { raw -> Bool in
        var name = raw
        if Self.hasPrefix(raw, "/topics/") {
          name = UnsafeRawBufferPointer(rebasing: raw[8...])
        }
        return !name.isEmpty && name.allSatisfy(Self.isTopicByte)
      }
    if !good {
      m.error(
        .fcmTopic,
        "'topic' \(Self.quotedValue(view, index)) is not a topic name: letters, digits and -_.~% only",
        view, at: index)
    }
  }

  static func isTopicByte(_ byte: UInt8) -> Bool {
    Self.isAlphanumeric(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
      || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~") || byte == UInt8(ascii: "%")
  }

  /// A condition names at most five topics, each as `'name' in topics`.
  private static func checkCondition(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    guard view.kind(index) == .string else {
      m.error(.fcmStrings, "'condition' must be a string", view, at: index)
      return
    }
    let topics = Self.withText(view, index) { raw -> Int in
      var count = 0
      var quoted = false
      for byte in raw where byte == UInt8(ascii: "'") {
        if !quoted { count += 1 }
        quoted.toggle()
      }
      return count
    }
    if topics == 0 || topics > Self.maxConditionTopics {
      m.error(
        .fcmCondition,
        topics == 0
          ? "'condition' names no topic: write 'name' in topics, joined with && and ||"
          : "'condition' names \(topics) topics; FCM accepts at most \(Self.maxConditionTopics)",
        view, at: index)
    }
  }

  /// A value of an enum, by its name or, as protobuf JSON takes it, its number; else an error
  /// `code` naming the names.
  private static func enumValue(
    _ view: JSONView, _ index: Int, _ values: (table: KeyTable<Int>, count: Int), _ rule: Rule,
    _ key: String, _ allowed: String, into m: inout MessageReader
  ) {
    let known =
      view.kind(index) == .string
      ? values.table.find(view, index) != nil
      : view.integer(index).map { (0..<Int64(values.count)).contains($0) } ?? false
    if !known {
      m.error(
        rule, "\(Self.quoted(key)) must be \(allowed), not \(Self.quotedValue(view, index))", view,
        at: index)
    }
  }

  /// An FCM duration (`"3.5s"`, whole seconds and up to nine decimals) of at most four weeks,
  /// in whole seconds rounded down as FCM does; nil, with an error, if it is not one.
  private static func duration(
    _ view: JSONView, _ index: Int, _ key: String, into m: inout MessageReader
  ) -> Int64? {
    if let seconds = durationSeconds(view, index), seconds <= Self.maxTTL {
      return seconds
    }
    m.error(
      .fcmTtl,
      "\(Self.quoted(key)) must be a duration such as \"3600s\" from 0 to \(Self.maxTTL)s (4 weeks), not \(Self.quotedValue(view, index))",
      view, at: index)
    return nil
  }

  /// The whole seconds of an FCM duration string, or nil if it is not one.
  private static func durationSeconds(_ view: JSONView, _ index: Int) -> Int64? {
    guard view.kind(index) == .string, !view.tokens[index].flag else { return nil }
    let raw = view.rawString(index)
    guard raw.count >= 2, raw.last == UInt8(ascii: "s") else { return nil }
    var seconds: Int64 = 0
    var digits = 0
    var i = 0
    while i < raw.count - 1, raw[i] >= 0x30 && raw[i] <= 0x39 {
      guard digits < 12 else { return nil }
      seconds = seconds * 10 + Int64(raw[i] - 0x30)
      digits += 1
      i += 1
    }
    guard digits > 0 else { return nil }
    if i < raw.count - 1 {
      guard raw[i] == UInt8(ascii: ".") else { return nil }
      let fraction = raw.count - 1 - (i + 1)
      guard (1...9).contains(fraction) else { return nil }
      for j in i + 1..<raw.count - 1 where !(raw[j] >= 0x30 && raw[j] <= 0x39) { return nil }
    }
    return seconds
  }
}
