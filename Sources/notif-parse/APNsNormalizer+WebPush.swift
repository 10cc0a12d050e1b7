import NotifJSON
import NotifModel

// Web Push: Declarative Web Push messages (`"web_push": 8030`), the service-worker shape
// (`title` and Notification API `options`), and the RFC 8030 headers of the push service
// (notif-parse(1), "Web Push"; the sources are cited in notif(5)).

extension APNsNormalizer {
  /// The magic number of a Declarative Web Push message: RFC 8030's.
  static let declarativeMarker: Int64 = 8030
  /// The longest `Topic` header: 32 characters of the URL-safe base64 alphabet (RFC 8030).
  static let webPushTopicLimit = 32

  private enum RootKey: Sendable { case webPush, notification, appBadge, mutable, title, options }
  private static let rootKeys = KeyTable<RootKey>([
    ("web_push", .webPush), ("notification", .notification), ("app_badge", .appBadge),
    ("mutable", .mutable), ("title", .title), ("options", .options),
  ])

  /// A Web Push message at `root` of `view`: Declarative, or the service-worker shape.
  mutating func readWebPush(_ view: JSONView, _ root: Int) {
    var members: (marker: Int?, notification: Int?, title: Int?, options: Int?) = (
      nil, nil, nil, nil
    )
    view.forEachMember(of: root) { key, value in
      switch Self.rootKeys.find(view, key) {
      case .webPush: members.marker = value
      case .notification: members.notification = value
      case .title: members.title = value
      case .options: members.options = value
      case .appBadge: appBadge(view, value)
      case .mutable:
        readBool(view, key, value, into: .mutableContent)
      case nil:
        findings.append(
          .warning(
            "WebPushUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in a Web Push message",
            at: offset(view, key)))
      }
    }
    if members.notification == nil, let title = members.title {
      // The service-worker shape: showNotification(title, options).
      if view.kind(title) == .string {
        values[.title] = .input(title)
      } else {
        findings.append(.error("BadType", "'title' must be a string", at: offset(view, title)))
      }
      if let options = members.options, checkObject(view, options, "options") {
        readWebPushNotification(view, options, declarative: false)
      }
      return
    }
    if let marker = members.marker {
      if view.integer(marker) != Self.declarativeMarker {
        findings.append(
          .error(
            "WebPushBadMarker",
            "'web_push' must be 8030, not \(Self.quotedValue(view, marker)): anything else is not a Declarative Web Push message",
            at: offset(view, marker)))
      }
    } else {
      findings.append(
        .warning(
          "WebPushNotDeclarative",
          "no \"web_push\": 8030: browsers hand this to the service worker instead of showing it",
          at: offset(view, root)))
    }
    guard let notification = members.notification else {
      findings.append(
        .error(
          "WebPushMissingKey", "a Declarative Web Push message needs a 'notification'",
          at: offset(view, root)))
      return
    }
    if checkObject(view, notification, "notification") {
      readWebPushNotification(view, notification, declarative: true)
    }
  }

  private enum NotificationKey: Sendable {
    case title, body, tag, timestamp, navigate, appBadge, dir, actions, data, flag, text
    case vibrate, clickAction
  }
  private static let notificationKeys = KeyTable<NotificationKey>([
    ("title", .title), ("body", .body), ("tag", .tag), ("timestamp", .timestamp),
    ("navigate", .navigate), ("app_badge", .appBadge), ("dir", .dir), ("actions", .actions),
    ("data", .data), ("silent", .flag), ("renotify", .flag), ("require_interaction", .flag),
    ("requireInteraction", .flag), ("mutable", .flag), ("lang", .text), ("icon", .text),
    ("image", .text), ("badge", .text), ("vibrate", .vibrate), ("click_action", .clickAction),
  ])
  private static let directions = KeyTable<Int>([("auto", 0), ("ltr", 1), ("rtl", 2)])

  /// A notification: Declarative Web Push's `notification` (title and navigate required), or
  /// the Notification API options of the service-worker shape and FCM's
  /// `webpush.notification`.
  mutating func readWebPushNotification(_ view: JSONView, _ index: Int, declarative: Bool) {
    var has = (title: false, navigate: false)
    view.forEachMember(of: index) { key, value in
      let at = offset(view, value)
      switch Self.notificationKeys.find(view, key) {
      case .title:
        has.title = true
        string(view, key, value, into: .title)
      case .body: string(view, key, value, into: .body)
      case .tag: string(view, key, value, into: .collapseID)
      case .navigate:
        has.navigate = true
        string(view, key, value, into: nil)
      case .clickAction: string(view, key, value, into: nil)
      case .text: string(view, key, value, into: nil)
      case .timestamp:
        // The Notification API's timestamp: milliseconds since 1970.
        if let milliseconds = view.integer(value), milliseconds >= 0,
          Timestamp(seconds: milliseconds / 1000).isWritable
        {
          eventTime = Timestamp(
            seconds: milliseconds / 1000, nanoseconds: Int32(milliseconds % 1000) * 1_000_000)
        } else {
          findings.append(
            .error(
              "BadDate",
              "'timestamp' must be whole milliseconds since 1970, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .appBadge: appBadge(view, value)
      case .dir:
        if view.kind(value) != .string || Self.directions.find(view, value) == nil {
          findings.append(
            .error(
              "WebPushBadValue",
              "'dir' must be auto, ltr or rtl, not \(Self.quotedValue(view, value))", at: at))
        }
      case .actions:
        readActions(view, value)
      case .data:
        break  // anything the page wants
      case .flag:
        if view.bool(value) == nil {
          findings.append(
            .error(
              "BadType",
              "\(Self.quoted(view.string(key))) must be true or false, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .vibrate:
        var good = view.kind(value) == .array || view.kind(value) == .number
        if view.kind(value) == .array {
          view.forEachElement(of: value) { if view.integer($0) == nil { good = false } }
        }
        if !good {
          findings.append(
            .error(
              "BadType", "'vibrate' must be a number of milliseconds or an array of them", at: at))
        }
      case nil:
        findings.append(
          .warning(
            "WebPushUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in a Web Push notification",
            at: offset(view, key)))
      }
    }
    if declarative && !(has.title && has.navigate) {
      let missing = has.title ? "'navigate'" : has.navigate ? "'title'" : "'title' and 'navigate'"
      findings.append(
        .error(
          "WebPushMissingKey",
          "a Declarative Web Push notification needs \(missing)", at: offset(view, index)))
    }
  }

  /// A notification's actions: an array of dictionaries, each with an action and a title.
  private mutating func readActions(_ view: JSONView, _ index: Int) {
    guard view.kind(index) == .array else {
      findings.append(
        .error("BadType", "'actions' must be an array of dictionaries", at: offset(view, index)))
      return
    }
    view.forEachElement(of: index) { action in
      guard view.kind(action) == .object else {
        findings.append(
          .error("BadType", "an action must be a dictionary", at: offset(view, action)))
        return
      }
      var named = false
      view.forEachMember(of: action) { key, value in
        if view.kind(value) != .string {
          findings.append(
            .error(
              "BadType", "the action's \(Self.quoted(view.string(key))) must be a string",
              at: offset(view, value)))
        }
        if view.keyEquals(key, "title") { named = true }
      }
      if !named {
        findings.append(
          .error("WebPushMissingKey", "an action needs a 'title'", at: offset(view, action)))
      }
    }
  }

  /// `app_badge`, the number on the app's icon; Declarative Web Push puts it at the top level
  /// and in `notification` in different texts: both are read.
  private mutating func appBadge(_ view: JSONView, _ value: Int) {
    readBadge(view, value, "app_badge")
  }

  private static let urgencies = KeyTable<Int64>([
    ("very-low", 1), ("low", 1), ("normal", 5), ("high", 10),
  ])

  /// RFC 8030's headers: `TTL` whole seconds, `Urgency` very-low, low, normal or high, `Topic`
  /// at most 32 URL-safe base64 characters. Header names are compared without case, as HTTP's
  /// are.
  mutating func readWebPushHeaders(_ view: JSONView, _ index: Int) {
    var topic: Int?
    view.forEachMember(of: index) { key, value in
      let at = offset(view, value)
      let name = view.string(key).lowercased()
      switch name {
      case "ttl":
        if let seconds = Self.headerInteger(view, value) {
          timeToLive = seconds
        } else {
          findings.append(
            .error(
              "WebPushBadTTL",
              "'TTL' must be whole seconds, 0 or more, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case "urgency":
        if view.kind(value) == .string, let priority = Self.urgencies.find(view, value) {
          values[.priority] = .integer(priority)
        } else {
          findings.append(
            .error(
              "WebPushBadUrgency",
              "'Urgency' must be very-low, low, normal or high, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case "topic":
        let good =
          view.kind(value) == .string
          && Self.withText(view, value) { raw in
            !raw.isEmpty && raw.count <= Self.webPushTopicLimit
              && raw.allSatisfy {
                Self.isBase64Byte($0) && $0 != UInt8(ascii: "+") && $0 != UInt8(ascii: "/")
                  && $0 != UInt8(ascii: "=")
              }
          }
        if good {
          topic = value
        } else {
          findings.append(
            .error(
              "WebPushBadTopic",
              "'Topic' must be 1 to \(Self.webPushTopicLimit) characters of URL-safe base64 (A-Z a-z 0-9 - _), not \(Self.quotedValue(view, value))",
              at: at))
        }
      default:
        findings.append(
          .warning(
            "WebPushUnknownHeader",
            "unknown header \(Self.quoted(view.string(key))): Web Push headers are TTL, Urgency and Topic",
            at: offset(view, key)))
      }
    }
    // A Topic replaces a pending message with the same topic, as a collapse id does; a tag
    // in the notification, which replaces what is on screen, wins.
    if let topic, case .null = values[.collapseID] { values[.collapseID] = .input(topic) }
  }
}
