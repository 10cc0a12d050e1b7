import NotifJSON
import NotifModel

// Firebase Cloud Messaging: HTTP v1 messages and the legacy HTTP ones, checked as FCM would
// answer INVALID_ARGUMENT (notif-parse(1), "FCM"; the sources are cited in notif(5)).

extension APNsNormalizer {
  /// FCM's longest time to live: four weeks, in seconds.
  static let fcmMaxTTL: Int64 = 2_419_200
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
  mutating func readFCM(_ view: JSONView, message: Int, root: Int, requiresTarget: Bool = true) {
    if message != root {
      view.forEachMember(of: root) { key, value in
        if view.keyEquals(key, "message") { return }
        if view.keyEquals(key, "validate_only") {
          readBool(view, key, value)
          return
        }
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) beside 'message': an FCM request has message and validate_only",
            at: offset(view, key)))
      }
    }
    guard view.kind(message) == .object else {
      findings.append(
        .error(
          "BadType", "'message' must be a dictionary, not \(Self.kindName(view, message))",
          at: offset(view, message)))
      return
    }
    var targets = 0
    var isTopic = false
    var generic: Int?  // message.notification
    var size = 0  // notification and data, compact
    var blocks: (android: Int?, apns: Int?, webpush: Int?) = (nil, nil, nil)
    view.forEachMember(of: message) { key, value in
      let at = offset(view, value)
      switch Self.messageKeys.find(view, key) {
      case .token:
        targets += 1
        if view.kind(value) != .string || view.tokens[value].end - view.tokens[value].start <= 2 {
          findings.append(.error("BadType", "'token' must be a registration token", at: at))
        }
      case .topic:
        targets += 1
        isTopic = true
        checkTopic(view, value)
      case .condition:
        targets += 1
        isTopic = true
        checkCondition(view, value)
      case .notification:
        generic = value
        size += compactSize(view, value)
        readFCMNotification(view, value)
      case .data:
        size += compactSize(view, value)
        checkData(view, value, "data")
      case .android: blocks.android = value
      case .apns: blocks.apns = value
      case .webpush: blocks.webpush = value
      case .fcmOptions:
        checkObject(view, value, "fcm_options")
      case .name:
        break  // output only: FCM fills it in its answer, and ignores it in a request
      case nil:
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an FCM message: it has token, topic, condition, notification, data, android, apns, webpush and fcm_options",
            at: offset(view, key)))
      }
    }
    if requiresTarget && targets != 1 {
      findings.append(
        .error(
          "FCMTargetCount",
          "an FCM message needs exactly one of 'token', 'topic' and 'condition'; this one has \(targets)",
          at: offset(view, message)))
    }
    let limit = isTopic ? 2048 : 4096
    if size > limit {
      findings.append(
        .error(
          "FCMPayloadTooLarge",
          "'notification' and 'data' are \(size) bytes; FCM accepts at most \(limit)\(isTopic ? " for a topic message" : "")",
          at: offset(view, message)))
    }
    // Every platform block is checked; only the one --platform picks fills the record, over
    // what the cross-platform notification gives.
    if let android = blocks.android {
      withState(kept: defaults.platform == .android) { $0.readAndroid(view, android) }
    }
    if let apns = blocks.apns {
      withState(kept: defaults.platform == .ios) { $0.readFCMApns(view, apns) }
    }
    if let webpush = blocks.webpush {
      withState(kept: defaults.platform == .web) { $0.readFCMWebpush(view, webpush) }
    }
    if let generic {
      if case .null = values[.title], let title = view.member(generic, "title") {
        stringField(view, title, .title)
      }
      if case .null = values[.body], let body = view.member(generic, "body") {
        stringField(view, body, .body)
      }
    }
  }

  /// Runs `body`; unless `kept`, the record's fields and facts go back to what they were, and
  /// only the findings stay: a block checked, not shown.
  mutating func withState(kept: Bool, _ body: (inout APNsNormalizer) -> Void) {
    if kept {
      body(&self)
      return
    }
    let saved = (values, fieldOffsets, headers, eventTime, timeToLive, impliedApp)
    body(&self)
    (values, fieldOffsets, headers, eventTime, timeToLive, impliedApp) = saved
  }

  /// Sets `field` to the string at `index`, if it is one (checked where it was read).
  mutating func stringField(_ view: JSONView, _ index: Int, _ field: RecordField) {
    if view.kind(index) == .string { values[field] = .input(index) }
  }

  private enum NotificationKey: Sendable { case title, body, image }
  private static let notificationKeys = KeyTable<NotificationKey>([
    ("title", .title), ("body", .body), ("image", .image),
  ])

  /// `message.notification`: title, body and image, strings.
  private mutating func readFCMNotification(_ view: JSONView, _ index: Int) {
    guard checkObject(view, index, "notification") else { return }
    view.forEachMember(of: index) { key, value in
      if Self.notificationKeys.find(view, key) != nil {
        string(view, key, value, into: nil)
      } else {
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'notification': FCM's has title, body and image",
            at: offset(view, key)))
      }
    }
  }

  /// The `apns` block: APNs headers and an APNs payload, read by every APNs rule.
  private mutating func readFCMApns(_ view: JSONView, _ index: Int) {
    guard checkObject(view, index, "apns") else { return }
    var payload: Int?
    view.forEachMember(of: index) { key, value in
      if view.keyEquals(key, "headers") {
        if checkObject(view, value, "apns.headers") { readHeaders(view, value) }
      } else if view.keyEquals(key, "payload") {
        payload = value
      } else if view.keyEquals(key, "fcm_options") || view.keyEquals(key, "live_activity_token") {
        if view.keyEquals(key, "fcm_options") { checkObject(view, value, "apns.fcm_options") }
      } else {
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'apns': it has headers, payload, fcm_options and live_activity_token",
            at: offset(view, key)))
      }
    }
    if let payload, checkObject(view, payload, "apns.payload") {
      readAPNs(
        view, payload: payload, payloadSize: compactSize(view, payload),
        mdm: view.member(payload, "mdm") != nil, sizeAt: offset(view, payload))
    }
  }

  /// The `webpush` block: RFC 8030 headers, data, a Web Push notification and its options.
  private mutating func readFCMWebpush(_ view: JSONView, _ index: Int) {
    guard checkObject(view, index, "webpush") else { return }
    view.forEachMember(of: index) { key, value in
      if view.keyEquals(key, "headers") {
        if checkObject(view, value, "webpush.headers") { readWebPushHeaders(view, value) }
      } else if view.keyEquals(key, "data") {
        checkData(view, value, "webpush.data")
      } else if view.keyEquals(key, "notification") {
        if checkObject(view, value, "webpush.notification") {
          readWebPushNotification(view, value, declarative: false)
        }
      } else if view.keyEquals(key, "fcm_options") {
        checkObject(view, value, "webpush.fcm_options")
      } else {
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'webpush': it has headers, data, notification and fcm_options",
            at: offset(view, key)))
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
  private static let messagePriorities = KeyTable<Int64>([
    ("normal", 5), ("high", 10), ("NORMAL", 5), ("HIGH", 10),
  ])

  /// The `android` block: AndroidConfig.
  private mutating func readAndroid(_ view: JSONView, _ index: Int) {
    guard checkObject(view, index, "android") else { return }
    var collapseKey: Int?
    view.forEachMember(of: index) { key, value in
      let at = offset(view, value)
      switch Self.androidKeys.find(view, key) {
      case .collapseKey:
        string(view, key, value, into: nil)
        collapseKey = value
      case .priority:
        if view.kind(value) == .string, let priority = Self.messagePriorities.find(view, value) {
          values[.priority] = .integer(priority)
        } else {
          findings.append(
            .error(
              "FCMBadPriority",
              "'android.priority' must be normal or high, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .ttl:
        if let seconds = fcmDuration(view, value, "android.ttl") { timeToLive = seconds }
      case .packageName:
        string(view, key, value, into: nil)
        if let name = view.stringValue(value), !name.isEmpty { impliedApp = name }
      case .data:
        checkData(view, value, "android.data")
      case .notification:
        readAndroidNotification(view, value)
      case .fcmOptions:
        checkObject(view, value, "android.fcm_options")
      case .flag:
        readBool(view, key, value)
      case nil:
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'android'", at: offset(view, key)))
      }
    }
    if let collapseKey, case .null = values[.collapseID] {
      stringField(view, collapseKey, .collapseID)
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
  private mutating func readAndroidNotification(_ view: JSONView, _ index: Int) {
    guard checkObject(view, index, "android.notification") else { return }
    view.forEachMember(of: index) { key, value in
      let at = offset(view, value)
      switch Self.androidNotificationKeys.find(view, key) {
      case .title: string(view, key, value, into: .title)
      case .body: string(view, key, value, into: .body)
      case .tag: string(view, key, value, into: .collapseID)
      case .clickAction: string(view, key, value, into: .category)
      case .sound: string(view, key, value, into: .sound)
      case .bodyLocKey: string(view, key, value, into: .locKey)
      case .titleLocKey: string(view, key, value, into: .titleLocKey)
      case .bodyLocArgs, .titleLocArgs:
        readLocArgs(
          view, key, value, into: view.keyEquals(key, "body_loc_args") ? .locArgs : .titleLocArgs)
      case .eventTime:
        if let text = view.stringValue(value), let time = try? Timestamp(rfc3339: text) {
          eventTime = time
        } else {
          findings.append(
            .error(
              "BadDate",
              "'event_time' must be an RFC 3339 time such as 2026-11-22T09:00:00Z, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .notificationPriority:
        enumValue(
          view, value, Self.notificationPriorities, "FCMBadPriority", "notification_priority",
          "PRIORITY_MIN, PRIORITY_LOW, PRIORITY_DEFAULT, PRIORITY_HIGH or PRIORITY_MAX")
      case .visibility:
        enumValue(
          view, value, Self.visibilities, "FCMBadVisibility", "visibility",
          "PRIVATE, PUBLIC or SECRET")
      case .proxy:
        enumValue(
          view, value, Self.proxies, "BadType", "proxy", "ALLOW, DENY or IF_PRIORITY_LOWERED")
      case .count:
        readBadge(view, value, "notification_count", maximum: Int64(Int32.max))
      case .text: string(view, key, value, into: nil)
      case .flag:
        readBool(view, key, value)
      case .object:
        checkObject(view, value, view.string(key))
      case .vibrate:
        var good = view.kind(value) == .array
        if good {
          view.forEachElement(of: value) { element in
            if fcmDurationSeconds(view, element) == nil { good = false }
          }
        }
        if !good {
          findings.append(
            .error(
              "BadType", "'vibrate_timings' must be an array of durations such as \"0.5s\"",
              at: at))
        }
      case nil:
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in 'android.notification'",
            at: offset(view, key)))
      }
    }
  }

  // MARK: - Legacy HTTP

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
  mutating func readFCMLegacy(_ view: JSONView, _ root: Int) {
    findings.append(
      .warning(
        "FCMLegacyShutDown",
        "this is an FCM legacy HTTP message: Google shut that API down in 2024; send an HTTP v1 message",
        at: offset(view, root)))
    var collapseKey: Int?
    view.forEachMember(of: root) { key, value in
      let at = offset(view, value)
      switch Self.legacyKeys.find(view, key) {
      case .to, .condition: string(view, key, value, into: nil)
      case .registrationIDs:
        if !Self.isStringArray(view, value) {
          findings.append(
            .error("BadType", "'registration_ids' must be an array of strings", at: at))
        }
      case .notification:
        readLegacyNotification(view, value)
      case .data:
        checkData(view, value, "data")
      case .collapseKey:
        string(view, key, value, into: nil)
        collapseKey = value
      case .priority:
        if view.kind(value) == .string, let priority = Self.messagePriorities.find(view, value) {
          values[.priority] = .integer(priority)
        } else {
          findings.append(
            .error(
              "FCMBadPriority",
              "'priority' must be normal or high, not \(Self.quotedValue(view, value))", at: at))
        }
      case .contentAvailable, .mutableContent:
        readBool(
          view, key, value,
          into: view.keyEquals(key, "content_available") ? .contentAvailable : .mutableContent)
      case .timeToLive:
        if let seconds = view.integer(value), seconds >= 0, seconds <= Self.fcmMaxTTL {
          timeToLive = seconds
        } else {
          findings.append(
            .error(
              "FCMBadTTL",
              "'time_to_live' must be whole seconds from 0 to \(Self.fcmMaxTTL) (4 weeks), not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .packageName:
        string(view, key, value, into: nil)
        if let name = view.stringValue(value), !name.isEmpty { impliedApp = name }
      case .flag:
        readBool(view, key, value)
      case nil:
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an FCM legacy message",
            at: offset(view, key)))
      }
    }
    if let collapseKey, case .null = values[.collapseID] {
      stringField(view, collapseKey, .collapseID)
    }
  }

  private mutating func readLegacyNotification(_ view: JSONView, _ index: Int) {
    guard checkObject(view, index, "notification") else { return }
    view.forEachMember(of: index) { key, value in
      let at = offset(view, value)
      switch Self.legacyNotificationKeys.find(view, key) {
      case .title: string(view, key, value, into: .title)
      case .body: string(view, key, value, into: .body)
      case .subtitle: string(view, key, value, into: .subtitle)
      case .sound: string(view, key, value, into: .sound)
      case .tag: string(view, key, value, into: .collapseID)
      case .clickAction: string(view, key, value, into: .category)
      case .bodyLocKey: string(view, key, value, into: .locKey)
      case .titleLocKey: string(view, key, value, into: .titleLocKey)
      case .bodyLocArgs, .titleLocArgs:
        // The legacy API took the arguments as an array, or as a JSON array in a string.
        if view.kind(value) != .string {
          readLocArgs(
            view, key, value,
            into: view.keyEquals(key, "body_loc_args") ? .locArgs : .titleLocArgs)
        }
      case .badge:
        // A string on the wire ("5"); a number is read too.
        if let badge = Self.headerInteger(view, value), FieldLimits.tally.contains(badge) {
          values[.badge] = .integer(badge)
        } else {
          findings.append(
            Self.badBadge(view, value, "badge", maximum: FieldLimits.largest, at: at))
        }
      case .text: string(view, key, value, into: nil)
      case nil:
        findings.append(
          .warning(
            "FCMUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an FCM legacy 'notification'",
            at: offset(view, key)))
      }
    }
  }

  // MARK: - Rules shared by the FCM readers

  /// Whether the value at `index` is a dictionary; if not, a `BadType` error naming `what`.
  @discardableResult
  mutating func checkObject(_ view: JSONView, _ index: Int, _ what: String) -> Bool {
    if view.kind(index) == .object { return true }
    findings.append(
      .error(
        "BadType", "\(Self.quoted(what)) must be a dictionary, not \(Self.kindName(view, index))",
        at: offset(view, index)))
    return false
  }

  /// FCM's `data`: a dictionary of strings, none of them under a key FCM keeps for itself
  /// (`from`, `message_type`, and keys beginning with `google` or `gcm`).
  mutating func checkData(_ view: JSONView, _ index: Int, _ what: String) {
    guard checkObject(view, index, what) else { return }
    view.forEachMember(of: index) { key, value in
      if view.kind(value) != .string {
        findings.append(
          .error(
            "FCMDataNotString",
            "\(Self.quoted(what + "." + view.string(key))) must be a string, not \(Self.kindName(view, value)): FCM carries data as strings",
            at: offset(view, value)))
      }
      let reserved = Self.withText(view, key) { name -> Bool in
        Self.equals(name, "from") || Self.equals(name, "message_type")
          || Self.hasPrefix(name, "google") || Self.hasPrefix(name, "gcm")
      }
      if reserved {
        findings.append(
          .error(
            "FCMReservedDataKey",
            "\(Self.quoted(view.string(key))) is reserved by FCM: data keys may not be from or message_type, nor begin with google or gcm",
            at: offset(view, key)))
      }
    }
  }

  /// A topic name: letters, digits and `-_.~%`, optionally after `/topics/`.
  private mutating func checkTopic(_ view: JSONView, _ index: Int) {
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
      findings.append(
        .error(
          "FCMBadTopic",
          "'topic' \(Self.quotedValue(view, index)) is not a topic name: letters, digits and -_.~% only",
          at: offset(view, index)))
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
  private mutating func checkCondition(_ view: JSONView, _ index: Int) {
    guard view.kind(index) == .string else {
      findings.append(.error("BadType", "'condition' must be a string", at: offset(view, index)))
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
      findings.append(
        .error(
          "FCMBadCondition",
          topics == 0
            ? "'condition' names no topic: write 'name' in topics, joined with && and ||"
            : "'condition' names \(topics) topics; FCM accepts at most \(Self.fcmMaxConditionTopics)",
          at: offset(view, index)))
    }
  }

  /// A value of a fixed set of names, or an error `code` naming the set.
  private mutating func enumValue(
    _ view: JSONView, _ index: Int, _ table: KeyTable<Int>, _ code: String, _ key: String,
    _ allowed: String
  ) {
    if view.kind(index) != .string || table.find(view, index) == nil {
      findings.append(
        .error(
          code, "\(Self.quoted(key)) must be \(allowed), not \(Self.quotedValue(view, index))",
          at: offset(view, index)))
    }
  }

  /// An FCM duration (`"3.5s"`, whole seconds and up to nine decimals) of at most four weeks,
  /// in whole seconds rounded down as FCM does; nil, with an error, if it is not one.
  private mutating func fcmDuration(_ view: JSONView, _ index: Int, _ key: String) -> Int64? {
    if let seconds = fcmDurationSeconds(view, index), seconds <= Self.fcmMaxTTL {
      return seconds
    }
    findings.append(
      .error(
        "FCMBadTTL",
        "\(Self.quoted(key)) must be a duration such as \"3600s\" from 0 to \(Self.fcmMaxTTL)s (4 weeks), not \(Self.quotedValue(view, index))",
        at: offset(view, index)))
    return nil
  }

  /// The whole seconds of an FCM duration string, or nil if it is not one.
  private func fcmDurationSeconds(_ view: JSONView, _ index: Int) -> Int64? {
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

  /// The size of the value at `index` written compact.
  mutating func compactSize(_ view: JSONView, _ index: Int) -> Int {
    if textIsCompact { return Int(view.tokens[index].end - view.tokens[index].start) }
    scratch.removeAll()
    JSONWriter.writeCompact(view, index, into: &scratch)
    return scratch.count
  }

  static func equals(_ raw: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    raw.count == text.utf8CodeUnitCount && hasPrefix(raw, text)
  }

  static func hasPrefix(_ raw: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    let wanted = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    return raw.starts(with: wanted)
  }
}
