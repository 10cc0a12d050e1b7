import NotifJSON
import NotifModel

/// Reads Firebase Cloud Messaging HTTP v1 messages, checked as FCM would answer
/// INVALID_ARGUMENT (notif-rules(7), "FCM HTTP v1"); with the FCM rules `FCMLegacyReader`
/// shares.
enum FCMReader: FormatReader {
  /// FCM's longest time to live: four weeks, in seconds.
  static let maxTTL: Int64 = 2_419_200
  /// The most topics a condition may name.
  static let fcmMaxConditionTopics = 5

  private enum MessageKey: Sendable {
    case token, topic, condition, notification, data, android, apns, webpush, fcmOptions, name
  }
  private static let messageKeys = KeyTable<MessageKey>([
    ("token", .token), ("topic", .topic), ("condition", .condition),
    ("notification", .notification), ("data", .data), ("android", .android), ("apns", .apns),
    ("webpush", .webpush), ("fcm_options", .fcmOptions), ("name", .name),
  ])

  /// Reads the FCM HTTP v1 message at `message` of `view`; `root` is the text's root, the
  /// message or `{"message": ...}` around it. `requiresTarget` is false where the target is
  /// another service's (an SNS message).
  static func read(
    _ view: JSONView, message: Int, root: Int, requiresTarget: Bool = true,
    into m: inout MessageReader
  ) {
    if message != root {
      view.forEachMember(of: root) { key, value in
        if view.keyEquals(key, "message") { return }
        if view.keyEquals(key, "validate_only") {
          m.readBool(view, key, value)
          return
        }
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) beside 'message': an FCM request has message and validate_only",
            at: m.offset(view, key)))
      }
    }
    guard view.kind(message) == .object else {
      m.findings.append(
        .error(
          "BadType", "'message' must be a dictionary, not \(Self.kindName(view, message))",
          at: m.offset(view, message)))
      return
    }
    var targets = 0
    var isTopic = false
    var generic: Int?  // message.notification
    var size = 0  // notification and data, compact
    var blocks: (android: Int?, apns: Int?, webpush: Int?) = (nil, nil, nil)
    view.forEachMember(of: message) { key, value in
      let at = m.offset(view, value)
      switch Self.messageKeys.find(view, key) {
      case .token:
        targets += 1
        if view.kind(value) != .string || view.tokens[value].end - view.tokens[value].start <= 2 {
          m.findings.append(.error("BadType", "'token' must be a registration token", at: at))
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
        checkData(view, value, "data", into: &m)
      case .android: blocks.android = value
      case .apns: blocks.apns = value
      case .webpush: blocks.webpush = value
      case .fcmOptions:
        m.checkObject(view, value, "fcm_options")
      case .name:
        break  // output only: FCM fills it in its answer, and ignores it in a request
      case nil:
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an FCM message: it has token, topic, condition, notification, data, android, apns, webpush and fcm_options",
            at: m.offset(view, key)))
      }
    }
    if requiresTarget && targets != 1 {
      m.findings.append(
        .error(
          "FCMTargetCount",
          "an FCM message needs exactly one of 'token', 'topic' and 'condition'; this one has \(targets)",
          at: m.offset(view, message)))
    }
    let limit = isTopic ? 2048 : 4096
    if size > limit {
      m.findings.append(
        .error(
          "FCMPayloadTooLarge",
          "'notification' and 'data' are \(size) bytes; FCM accepts at most \(limit)\(isTopic ? " for a topic message" : "")",
          at: m.offset(view, message)))
    }
    // Every platform block is checked; only the one --platform picks fills the record, over
    // what the cross-platform notification gives.
    if let android = blocks.android {
      m.withState(kept: m.defaults.platform == .android) { readAndroid(view, android, into: &$0) }
    }
    if let apns = blocks.apns {
      m.withState(kept: m.defaults.platform == .ios) { readApns(view, apns, into: &$0) }
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

  private enum NotificationKey: Sendable { case title, body, image }
  private static let notificationKeys = KeyTable<NotificationKey>([
    ("title", .title), ("body", .body), ("image", .image),
  ])

  /// `message.notification`: title, body and image, strings.
  private static func readNotification(_ view: JSONView, _ index: Int, into m: inout MessageReader)
  {
    guard m.checkObject(view, index, "notification") else { return }
    view.forEachMember(of: index) { key, value in
      if Self.notificationKeys.find(view, key) != nil {
        m.string(view, key, value, into: nil)
      } else {
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'notification': FCM's has title, body and image",
            at: m.offset(view, key)))
      }
    }
  }

  /// The `apns` block: APNs headers and an APNs payload, read by every APNs rule.
  private static func readApns(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    guard m.checkObject(view, index, "apns") else { return }
    var payload: Int?
    view.forEachMember(of: index) { key, value in
      if view.keyEquals(key, "headers") {
        if m.checkObject(view, value, "apns.headers") {
          APNsReader.readHeaders(view, value, into: &m)
        }
      } else if view.keyEquals(key, "payload") {
        payload = value
      } else if view.keyEquals(key, "fcm_options") || view.keyEquals(key, "live_activity_token") {
        if view.keyEquals(key, "fcm_options") { m.checkObject(view, value, "apns.fcm_options") }
      } else {
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'apns': it has headers, payload, fcm_options and live_activity_token",
            at: m.offset(view, key)))
      }
    }
    if let payload, m.checkObject(view, payload, "apns.payload") {
      APNsReader.read(
        view, payload: payload, payloadSize: m.compactSize(view, payload),
        mdm: view.member(payload, "mdm") != nil, sizeAt: m.offset(view, payload), into: &m)
    }
  }

  /// The `webpush` block: RFC 8030 headers, data, a Web Push notification and its options.
  private static func readWebpush(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    guard m.checkObject(view, index, "webpush") else { return }
    view.forEachMember(of: index) { key, value in
      if view.keyEquals(key, "headers") {
        if m.checkObject(view, value, "webpush.headers") {
          WebPushReader.readHeaders(view, value, into: &m)
        }
      } else if view.keyEquals(key, "data") {
        checkData(view, value, "webpush.data", into: &m)
      } else if view.keyEquals(key, "notification") {
        if m.checkObject(view, value, "webpush.notification") {
          WebPushReader.readNotification(view, value, declarative: false, into: &m)
        }
      } else if view.keyEquals(key, "fcm_options") {
        m.checkObject(view, value, "webpush.fcm_options")
      } else {
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'webpush': it has headers, data, notification and fcm_options",
            at: m.offset(view, key)))
      }
    }
  }

  // MARK: - Android

  private enum AndroidKey: Sendable {
    case collapseKey, priority, ttl, packageName, data, notification, fcmOptions, flag
  }
  private static let androidKeys = KeyTable<AndroidKey>([
    ("collapse_key", .collapseKey), ("priority", .priority), ("ttl", .ttl),
    ("restricted_package_name", .packageName), ("data", .data), ("notification", .notification),
    ("fcm_options", .fcmOptions), ("direct_boot_ok", .flag), ("bandwidth_constrained_ok", .flag),
    ("restricted_satellite_ok", .flag),
  ])
  static let messagePriorities = KeyTable<Int64>([
    ("normal", 5), ("high", 10), ("NORMAL", 5), ("HIGH", 10),
  ])

  /// The `android` block: AndroidConfig.
  private static func readAndroid(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    guard m.checkObject(view, index, "android") else { return }
    var collapseKey: Int?
    view.forEachMember(of: index) { key, value in
      let at = m.offset(view, value)
      switch Self.androidKeys.find(view, key) {
      case .collapseKey:
        m.string(view, key, value, into: nil)
        collapseKey = value
      case .priority:
        if view.kind(value) == .string, let priority = Self.messagePriorities.find(view, value) {
          m.values[.priority] = .integer(priority)
        } else {
          m.findings.append(
            .error(
              "FCMBadPriority",
              "'android.priority' must be normal or high, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .ttl:
        if let seconds = fcmDuration(view, value, "android.ttl", into: &m) {
          m.timeToLive = seconds
        }
      case .packageName:
        m.string(view, key, value, into: nil)
        if let name = view.stringValue(value), !name.isEmpty { m.impliedApp = name }
      case .data:
        checkData(view, value, "android.data", into: &m)
      case .notification:
        readAndroidNotification(view, value, into: &m)
      case .fcmOptions:
        m.checkObject(view, value, "android.fcm_options")
      case .flag:
        m.readBool(view, key, value)
      case nil:
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'android'", at: m.offset(view, key)))
      }
    }
    if let collapseKey, case .null = m.values[.collapseID] {
      m.stringField(view, collapseKey, .collapseID)
    }
  }

  private enum AndroidNotificationKey: Sendable {
    case title, body, tag, clickAction, sound, bodyLocKey, bodyLocArgs, titleLocKey, titleLocArgs
    case eventTime, notificationPriority, visibility, count, text, flag, object, vibrate, proxy
  }
  private static let androidNotificationKeys = KeyTable<AndroidNotificationKey>([
    ("title", .title), ("body", .body), ("tag", .tag), ("click_action", .clickAction),
    ("sound", .sound), ("body_loc_key", .bodyLocKey), ("body_loc_args", .bodyLocArgs),
    ("title_loc_key", .titleLocKey), ("title_loc_args", .titleLocArgs),
    ("event_time", .eventTime), ("notification_priority", .notificationPriority),
    ("visibility", .visibility), ("notification_count", .count), ("icon", .text),
    ("color", .text), ("channel_id", .text), ("ticker", .text), ("image", .text),
    ("sticky", .flag), ("local_only", .flag), ("default_sound", .flag),
    ("default_vibrate_timings", .flag), ("default_light_settings", .flag),
    ("bypass_proxy_notification", .flag), ("light_settings", .object),
    ("vibrate_timings", .vibrate), ("proxy", .proxy),
  ])
  private static let notificationPriorities = KeyTable<Int>(
    [
      "PRIORITY_UNSPECIFIED", "PRIORITY_MIN", "PRIORITY_LOW", "PRIORITY_DEFAULT", "PRIORITY_HIGH",
      "PRIORITY_MAX",
    ].enumerated().map { ($1, $0) })
  private static let visibilities = KeyTable<Int>(
    ["VISIBILITY_UNSPECIFIED", "PRIVATE", "PUBLIC", "SECRET"].enumerated().map { ($1, $0) })
  private static let proxies = KeyTable<Int>(
    ["PROXY_UNSPECIFIED", "ALLOW", "DENY", "IF_PRIORITY_LOWERED"].enumerated().map { ($1, $0) })

  /// `android.notification`: AndroidNotification.
  private static func readAndroidNotification(
    _ view: JSONView, _ index: Int, into m: inout MessageReader
  ) {
    guard m.checkObject(view, index, "android.notification") else { return }
    view.forEachMember(of: index) { key, value in
      let at = m.offset(view, value)
      switch Self.androidNotificationKeys.find(view, key) {
      case .title: m.string(view, key, value, into: .title)
      case .body: m.string(view, key, value, into: .body)
      case .tag: m.string(view, key, value, into: .collapseID)
      case .clickAction: m.string(view, key, value, into: .category)
      case .sound: m.string(view, key, value, into: .sound)
      case .bodyLocKey: m.string(view, key, value, into: .locKey)
      case .titleLocKey: m.string(view, key, value, into: .titleLocKey)
      case .bodyLocArgs, .titleLocArgs:
        m.readLocArgs(
          view, key, value, into: view.keyEquals(key, "body_loc_args") ? .locArgs : .titleLocArgs)
      case .eventTime:
        if let text = view.stringValue(value), let time = try? Timestamp(rfc3339: text) {
          m.eventTime = time
        } else {
          m.findings.append(
            .error(
              "BadDate",
              "'event_time' must be an RFC 3339 time such as 2026-11-22T09:00:00Z, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .notificationPriority:
        enumValue(
          view, value, Self.notificationPriorities, "FCMBadPriority", "notification_priority",
          "PRIORITY_MIN, PRIORITY_LOW, PRIORITY_DEFAULT, PRIORITY_HIGH or PRIORITY_MAX", into: &m)
      case .visibility:
        enumValue(
          view, value, Self.visibilities, "FCMBadVisibility", "visibility",
          "PRIVATE, PUBLIC or SECRET", into: &m)
      case .proxy:
        enumValue(
          view, value, Self.proxies, "BadType", "proxy", "ALLOW, DENY or IF_PRIORITY_LOWERED",
          into: &m)
      case .count:
        m.readBadge(view, value, "notification_count", maximum: Int64(Int32.max))
      case .text: m.string(view, key, value, into: nil)
      case .flag:
        m.readBool(view, key, value)
      case .object:
        m.checkObject(view, value, view.string(key))
      case .vibrate:
        var good = view.kind(value) == .array
        if good {
          view.forEachElement(of: value) { element in
            if fcmDurationSeconds(view, element) == nil { good = false }
          }
        }
        if !good {
          m.findings.append(
            .error(
              "BadType", "'vibrate_timings' must be an array of durations such as \"0.5s\"",
              at: at))
        }
      case nil:
        m.findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'android.notification'",
            at: m.offset(view, key)))
      }
    }
  }

  // MARK: - Rules shared by the FCM readers

  /// FCM's `data`: a dictionary of strings, none of them under a key FCM keeps for itself
  /// (`from`, `message_type`, and keys beginning with `google` or `gcm`).
  static func checkData(_ view: JSONView, _ index: Int, _ what: String, into m: inout MessageReader)
  {
    guard m.checkObject(view, index, what) else { return }
    view.forEachMember(of: index) { key, value in
      if view.kind(value) != .string {
        m.findings.append(
          .error(
            "FCMDataNotString",
            "\(Self.quoted(what + "." + view.string(key))) must be a string, not \(Self.kindName(view, value)): FCM carries data as strings",
            at: m.offset(view, value)))
      }
      let reserved = Self.withText(view, key) { name -> Bool in
        Self.equals(name, "from") || Self.equals(name, "message_type")
          || Self.hasPrefix(name, "google") || Self.hasPrefix(name, "gcm")
      }
      if reserved {
        m.findings.append(
          .error(
            "FCMReservedDataKey",
            "\(Self.quoted(view.string(key))) is reserved by FCM: data keys may not be from or message_type, nor begin with google or gcm",
            at: m.offset(view, key)))
      }
    }
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
      m.findings.append(
        .error(
          "FCMBadTopic",
          "'topic' \(Self.quotedValue(view, index)) is not a topic name: letters, digits and -_.~% only",
          at: m.offset(view, index)))
    }
  }

  static func isTopicByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
      UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: "%"):
      return true
    default:
      return false
    }
  }

  /// A condition names at most five topics, each as `'name' in topics`.
  private static func checkCondition(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    guard view.kind(index) == .string else {
      m.findings.append(
        .error("BadType", "'condition' must be a string", at: m.offset(view, index)))
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
    if topics == 0 || topics > Self.fcmMaxConditionTopics {
      m.findings.append(
        .error(
          "FCMBadCondition",
          topics == 0
            ? "'condition' names no topic: write 'name' in topics, joined with && and ||"
            : "'condition' names \(topics) topics; FCM accepts at most \(Self.fcmMaxConditionTopics)",
          at: m.offset(view, index)))
    }
  }

  /// A value of a fixed set of names, or an error `code` naming the set.
  private static func enumValue(
    _ view: JSONView, _ index: Int, _ table: KeyTable<Int>, _ code: String, _ key: String,
    _ allowed: String, into m: inout MessageReader
  ) {
    if view.kind(index) != .string || table.find(view, index) == nil {
      m.findings.append(
        .error(
          code, "\(Self.quoted(key)) must be \(allowed), not \(Self.quotedValue(view, index))",
          at: m.offset(view, index)))
    }
  }

  /// An FCM duration (`"3.5s"`, whole seconds and up to nine decimals) of at most four weeks,
  /// in whole seconds rounded down as FCM does; nil, with an error, if it is not one.
  private static func fcmDuration(
    _ view: JSONView, _ index: Int, _ key: String, into m: inout MessageReader
  ) -> Int64? {
    if let seconds = fcmDurationSeconds(view, index), seconds <= Self.maxTTL {
      return seconds
    }
    m.findings.append(
      .error(
        "FCMBadTTL",
        "\(Self.quoted(key)) must be a duration such as \"3600s\" from 0 to \(Self.maxTTL)s (4 weeks), not \(Self.quotedValue(view, index))",
        at: m.offset(view, index)))
    return nil
  }

  /// The whole seconds of an FCM duration string, or nil if it is not one.
  private static func fcmDurationSeconds(_ view: JSONView, _ index: Int) -> Int64? {
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
