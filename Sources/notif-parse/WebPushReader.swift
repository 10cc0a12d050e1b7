import NotifJSON
import NotifModel

/// Reads Web Push messages (notif-rules(7), "Web Push"): Declarative Web Push messages
/// (`"web_push": 8030`), the service-worker shape (`title` and Notification API `options`), and
/// the RFC 8030 headers of the push service.
enum WebPushReader: FormatReader {
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
  static func read(_ view: JSONView, _ root: Int, into m: inout MessageReader) {
    var members: (marker: Int?, notification: Int?, title: Int?, options: Int?) = (
      nil, nil, nil, nil
    )
    view.forEachMember(of: root) { key, value in
      switch Self.rootKeys.find(view, key) {
      case .webPush: members.marker = value
      case .notification: members.notification = value
      case .title: members.title = value
      case .options: members.options = value
      case .appBadge: appBadge(view, value, into: &m)
      case .mutable:
        m.readBool(view, key, value, into: .mutableContent)
      case nil:
        m.findings.append(
          .warning(
            "WebPushUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in a Web Push message",
            at: m.offset(view, key)))
      }
    }
    if members.notification == nil, let title = members.title {
      // The service-worker shape: showNotification(title, options).
      if view.kind(title) == .string {
        m.values[.title] = .input(title)
      } else {
        m.findings.append(.error("BadType", "'title' must be a string", at: m.offset(view, title)))
      }
      if let options = members.options, m.checkObject(view, options, "options") {
        readNotification(view, options, declarative: false, into: &m)
      }
      return
    }
    if let marker = members.marker {
      if view.integer(marker) != Self.declarativeMarker {
        m.findings.append(
          .error(
            "WebPushBadMarker",
            "'web_push' must be 8030, not \(Self.quotedValue(view, marker)): anything else is not a Declarative Web Push message",
            at: m.offset(view, marker)))
      }
    } else {
      m.findings.append(
        .warning(
          "WebPushNotDeclarative",
          "no \"web_push\": 8030: browsers hand this to the service worker instead of showing it",
          at: m.offset(view, root)))
    }
    guard let notification = members.notification else {
      m.findings.append(
        .error(
          "WebPushMissingKey", "a Declarative Web Push message needs a 'notification'",
          at: m.offset(view, root)))
      return
    }
    if m.checkObject(view, notification, "notification") {
      readNotification(view, notification, declarative: true, into: &m)
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
  static func readNotification(
    _ view: JSONView, _ index: Int, declarative: Bool, into m: inout MessageReader
  ) {
    var has = (title: false, navigate: false)
    view.forEachMember(of: index) { key, value in
      let at = m.offset(view, value)
      switch Self.notificationKeys.find(view, key) {
      case .title:
        has.title = true
        m.string(view, key, value, into: .title)
      case .body: m.string(view, key, value, into: .body)
      case .tag: m.string(view, key, value, into: .collapseID)
      case .navigate:
        has.navigate = true
        m.string(view, key, value, into: nil)
      case .clickAction: m.string(view, key, value, into: nil)
      case .text: m.string(view, key, value, into: nil)
      case .timestamp:
        // The Notification API's timestamp: milliseconds since 1970.
        if let milliseconds = view.integer(value), milliseconds >= 0,
          Timestamp(seconds: milliseconds / 1000).isWritable
        {
          m.eventTime = Timestamp(
            seconds: milliseconds / 1000, nanoseconds: Int32(milliseconds % 1000) * 1_000_000)
        } else {
          m.findings.append(
            .error(
              "BadDate",
              "'timestamp' must be whole milliseconds since 1970, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .appBadge: appBadge(view, value, into: &m)
      case .dir:
        if view.kind(value) != .string || Self.directions.find(view, value) == nil {
          m.findings.append(
            .error(
              "WebPushBadValue",
              "'dir' must be auto, ltr or rtl, not \(Self.quotedValue(view, value))", at: at))
        }
      case .actions:
        readActions(view, value, into: &m)
      case .data:
        break  // anything the page wants
      case .flag:
        if view.bool(value) == nil {
          m.findings.append(
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
          m.findings.append(
            .error(
              "BadType", "'vibrate' must be a number of milliseconds or an array of them", at: at))
        }
      case nil:
        m.findings.append(
          .warning(
            "WebPushUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in a Web Push notification",
            at: m.offset(view, key)))
      }
    }
    if declarative && !(has.title && has.navigate) {
      let missing = has.title ? "'navigate'" : has.navigate ? "'title'" : "'title' and 'navigate'"
      m.findings.append(
        .error(
          "WebPushMissingKey",
          "a Declarative Web Push notification needs \(missing)", at: m.offset(view, index)))
    }
  }

  /// A notification's actions: an array of dictionaries, each with an action and a title.
  private static func readActions(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    guard view.kind(index) == .array else {
      m.findings.append(
        .error("BadType", "'actions' must be an array of dictionaries", at: m.offset(view, index)))
      return
    }
    view.forEachElement(of: index) { action in
      guard view.kind(action) == .object else {
        m.findings.append(
          .error("BadType", "an action must be a dictionary", at: m.offset(view, action)))
        return
      }
      var named = false
      view.forEachMember(of: action) { key, value in
        if view.kind(value) != .string {
          m.findings.append(
            .error(
              "BadType", "the action's \(Self.quoted(view.string(key))) must be a string",
              at: m.offset(view, value)))
        }
        if view.keyEquals(key, "title") { named = true }
      }
      if !named {
        m.findings.append(
          .error("WebPushMissingKey", "an action needs a 'title'", at: m.offset(view, action)))
      }
    }
  }

  /// `app_badge`, the number on the app's icon; Declarative Web Push puts it at the top level
  /// and in `notification` in different texts: both are read.
  private static func appBadge(_ view: JSONView, _ value: Int, into m: inout MessageReader) {
    m.readBadge(view, value, "app_badge")
  }

  private static let urgencies = KeyTable<Int64>([
    ("very-low", 1), ("low", 1), ("normal", 5), ("high", 10),
  ])

  /// RFC 8030's headers: `TTL` whole seconds, `Urgency` very-low, low, normal or high, `Topic`
  /// at most 32 URL-safe base64 characters. Header names are compared without case, as HTTP's
  /// are.
  static func readHeaders(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    var topic: Int?
    view.forEachMember(of: index) { key, value in
      let at = m.offset(view, value)
      let name = view.string(key).lowercased()
      switch name {
      case "ttl":
        if let seconds = Self.headerInteger(view, value) {
          m.timeToLive = seconds
        } else {
          m.findings.append(
            .error(
              "WebPushBadTTL",
              "'TTL' must be whole seconds, 0 or more, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case "urgency":
        if view.kind(value) == .string, let priority = Self.urgencies.find(view, value) {
          m.values[.priority] = .integer(priority)
        } else {
          m.findings.append(
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
          m.findings.append(
            .error(
              "WebPushBadTopic",
              "'Topic' must be 1 to \(Self.webPushTopicLimit) characters of URL-safe base64 (A-Z a-z 0-9 - _), not \(Self.quotedValue(view, value))",
              at: at))
        }
      default:
        m.findings.append(
          .warning(
            "WebPushUnknownHeader",
            "unknown header \(Self.quoted(view.string(key))): Web Push headers are TTL, Urgency and Topic",
            at: m.offset(view, key)))
      }
    }
    // A Topic replaces a pending message with the same topic, as a collapse id does; a tag
    // in the notification, which replaces what is on screen, wins.
    if let topic, case .null = m.values[.collapseID] { m.values[.collapseID] = .input(topic) }
  }
}
