import NotifJSON
import NotifModel

/// Reads Web Push messages (notif-rules(7), "Web Push"): Declarative Web Push messages
/// (`"web_push": 8030`), the service-worker shape (`title` and Notification API `options`), and
/// the RFC 8030 headers of the push service.
///
/// A Declarative Web Push message is checked as the Push API's declarative push message parser
/// reads it (W3C, "Push API"): what makes the parser fail (no `web_push` of 8030, no
/// `notification` dictionary, a `title` or `navigate` that is not a string) is an error, since
/// the browser then shows nothing of it; a member of a type or value it does not take is
/// ignored, the notification shown without it, and warned about (`WebPushIgnoredValue`).
/// Safari, whose parser (WebKit's `NotificationJSONParser`) is the one shipping, refuses some
/// of what the specification ignores and reads `app_badge` and `mutable` inside `notification`
/// rather than beside it: each such difference is a warning (`WebPushSafariDiffers`).
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
    var members:
      (
        marker: Int?, notification: Int?, title: Int?, options: Int?, badge: Int?, mutable: Int?
      ) = (nil, nil, nil, nil, nil, nil)
    var slipped: Int?  // the marker under another spelling (web-push, webPush)
    view.forEachMember(of: root) { key, value in
      switch Self.rootKeys.find(view, key) {
      case .webPush: members.marker = value
      case .notification: members.notification = value
      case .title: members.title = value
      case .options: members.options = value
      case .appBadge: members.badge = value
      case .mutable: members.mutable = value
      case nil:
        if slipped == nil && PushFormat.slip(view, key) == .webPush {
          slipped = key  // said where the marker is missed, in its stead
        } else {
          m.warning(
            .declarativeUnknown,
            "unknown key \(Self.quoted(view.string(key))) in a Web Push message", view, at: key)
        }
      }
    }
    if let key = slipped,
      members.marker != nil || members.notification == nil && members.title != nil
    {
      // Not in the marker's stead: beside it, or in the service-worker shape.
      slipWarning(view, key, into: &m)
      slipped = nil
    }
    if members.notification == nil, let title = members.title {
      // The service-worker shape: showNotification(title, options).
      // The page's own worker reads what is beside title and options: showNotification takes
      // whatever it is given as its title (converted to text), and the worker hands app_badge
      // to setAppBadge, which rejects what is not a count (notif-rules(7), worker-app-badge).
      if let badge = members.badge {
        m.readBadge(view, badge, "app_badge", .workerAppBadge, setsNoBadge)
      }
      if let mutable = members.mutable {
        if let on = view.bool(mutable) {
          m.values[.mutableContent] = .bool(on)
        } else {
          m.warning(
            .workerMutable,
            "'mutable' must be true or false, not \(Self.quotedValue(view, mutable)): only the Declarative Web Push parser reads it",
            view, at: mutable)
        }
      }
      if view.kind(title) == .string {
        m.values[.title] = .input(title)
      } else {
        m.warning(
          .workerTitle,
          "'title' must be a string, not \(Self.kindName(view, title)): showNotification shows it converted to text",
          view, at: title)
      }
      if let options = members.options { readOptions(view, options, into: &m) }
      return
    }
    readDeclarative(view, root, members, slipped: slipped, into: &m)
  }

  /// `web_push` under another spelling: the parser does not find the marker.
  private static func slipWarning(_ view: JSONView, _ key: Int, into m: inout MessageReader) {
    m.warning(
      .declarativeMarkerSlip,
      "\(Self.quoted(view.string(key))) is not the marker 'web_push': the browser does not read this as a declarative message, and hands it to the service worker",
      view, at: key)
  }

  /// A Declarative Web Push message, by the steps of the Push API's parser.
  private static func readDeclarative(
    _ view: JSONView, _ root: Int,
    _ members: (
      marker: Int?, notification: Int?, title: Int?, options: Int?, badge: Int?, mutable: Int?
    ), slipped: Int?, into m: inout MessageReader
  ) {
    if let marker = members.marker {
      if view.kind(marker) != .number || view.double(marker) != Double(Self.declarativeMarker) {
        m.error(
          .declarativeMarker,
          "'web_push' must be 8030, not \(Self.quotedValue(view, marker)): anything else is not a Declarative Web Push message",
          view, at: marker)
      }
    } else if let slipped {
      slipWarning(view, slipped, into: &m)
    } else {
      m.warning(
        .declarativeNoMarker,
        "no \"web_push\": 8030: browsers hand this to the service worker instead of showing it",
        view, at: root)
    }
    if let badge = members.badge {
      // The parser takes a 64-bit unsigned integer, and ignores anything else.
      if let count = view.integer(badge), count >= 0 {
        m.readBadge(
          view, badge, "app_badge", .declarativeBadge, .device("notif leaves the badge out"))
        m.warning(
          .declarativeSafariBadge,
          "Safari reads 'app_badge' inside 'notification' only, and shows no badge for this one",
          view, at: badge - 1)
      } else {
        ignored(
          view, badge, "'app_badge' must be a whole number, 0 or more", .declarativeBadge, into: &m)
      }
    }
    if let mutable = members.mutable {
      if let on = view.bool(mutable) {
        m.values[.mutableContent] = .bool(on)
        m.warning(
          .declarativeSafariBadge,
          "Safari reads 'mutable' inside 'notification' only, and ignores this one", view,
          at: mutable - 1)
      } else {
        ignored(view, mutable, "'mutable' must be true or false", .declarativeIgnored, into: &m)
      }
    }
    guard let notification = members.notification else {
      m.error(
        .declarativeNotification, "a Declarative Web Push message needs a 'notification'", view,
        at: root)
      return
    }
    if m.checkObject(view, notification, "notification", .declarativeNotificationType) {
      readDeclarativeNotification(view, notification, into: &m)
    }
  }

  /// A value the Push API's parser ignores: the notification shows without it.
  private static func ignored(
    _ view: JSONView, _ value: Int, _ text: String, _ rule: Rule = .declarativeIgnored,
    into m: inout MessageReader
  ) {
    m.warning(
      rule,
      "\(text), not \(Self.quotedValue(view, value)): the Push API's parser ignores it", view,
      at: value)
  }

  /// A value the Push API's parser ignores and Safari's refuses, showing nothing of the message.
  private static func safariRefuses(
    _ view: JSONView, _ value: Int, _ text: String, into m: inout MessageReader
  ) {
    m.warning(
      .declarativeSafariRefuses,
      "\(text), not \(Self.quotedValue(view, value)): the Push API's parser ignores it, but Safari refuses the whole message",
      view, at: value)
  }

  private enum DeclarativeField: Sendable {
    case title, navigate, dir, icon, timestamp, vibrate, actions, data, appBadge, mutable
    /// A string the record keeps (`field`), and whether Safari refuses another type.
    case string(RecordField?, safari: Bool)
    /// True or false, and whether Safari refuses another type.
    case flag(safari: Bool)
  }
  private static let declarativeFields = KeyTable<DeclarativeField>([
    ("title", .title), ("navigate", .navigate), ("dir", .dir), ("icon", .icon),
    ("lang", .string(nil, safari: true)), ("body", .string(.body, safari: true)),
    ("tag", .string(.collapseID, safari: true)), ("image", .string(nil, safari: false)),
    ("badge", .string(nil, safari: false)), ("silent", .flag(safari: true)),
    ("renotify", .flag(safari: false)), ("require_interaction", .flag(safari: false)),
    ("requireInteraction", .flag(safari: false)), ("timestamp", .timestamp),
    ("vibrate", .vibrate), ("actions", .actions), ("data", .data), ("app_badge", .appBadge),
    ("mutable", .mutable),
  ])
  /// What a badge the worker hands to setAppBadge does when it is not a count.
  private static let setsNoBadge = Effect.device(
    "notif leaves the badge out, and setAppBadge rejects what is not a number in range")
  /// The rows of the options' members.
  private static let optionRows = MemberRows(
    string: .optionsTypes, locArgs: .optionsTypes, bool: .optionsTypes, object: .optionsNotObject)
  private static let directions = KeyTable<Int>([("auto", 0), ("ltr", 1), ("rtl", 2)])

  /// A Declarative Web Push message's `notification`: `title` and `navigate` strings, or the
  /// parser fails; every other member taken if it has the type it should, else ignored.
  private static func readDeclarativeNotification(
    _ view: JSONView, _ index: Int, into m: inout MessageReader
  ) {
    var has = (title: false, navigate: false)
    view.forEachMember(of: index) { key, value in
      switch declarativeFields.find(view, key) {
      case .title:
        has.title = true
        m.string(view, key, value, into: .title, .declarativeTitleNavigateType)
        if view.kind(value) == .string && view.tokens[value].end - view.tokens[value].start == 2 {
          m.warning(
            .declarativeSafariRefuses,
            "'title' is empty: the Push API shows it so, but Safari refuses the whole message",
            view, at: value)
        }
      case .navigate:
        has.navigate = true
        m.string(view, key, value, into: nil, .declarativeTitleNavigateType)
        if view.kind(value) == .string && !isAbsoluteURL(view, value) {
          m.warning(
            .declarativeSafariRefuses,
            "'navigate' \(Self.quotedValue(view, value)) is relative: the Push API resolves it against the service worker's scope, but Safari refuses the whole message",
            view, at: value)
        }
      case .dir:
        if view.kind(value) != .string || directions.find(view, value) == nil {
          safariRefuses(view, value, "'dir' must be auto, ltr or rtl", into: &m)
        }
      case .icon:
        if view.kind(value) != .string {
          safariRefuses(view, value, "'icon' must be a string", into: &m)
        } else if !isAbsoluteURL(view, value) {
          m.warning(
            .declarativeSafariRefuses,
            "'icon' \(Self.quotedValue(view, value)) is relative: the Push API resolves it, but Safari refuses the whole message",
            view, at: value)
        }
      case .string(let field, let safari):
        if view.kind(value) == .string {
          if let field { m.values[field] = .input(value) }
        } else if safari {
          safariRefuses(view, value, "\(Self.quoted(view.string(key))) must be a string", into: &m)
        } else {
          ignored(view, value, "\(Self.quoted(view.string(key))) must be a string", into: &m)
        }
      case .flag(let safari):
        if view.bool(value) == nil {
          let rule = "\(Self.quoted(view.string(key))) must be true or false"
          if safari {
            safariRefuses(view, value, rule, into: &m)
          } else {
            ignored(view, value, rule, into: &m)
          }
        }
      case .timestamp:
        if !readTimestamp(view, value, into: &m) {
          ignored(view, value, "'timestamp' must be whole milliseconds since 1970", into: &m)
        }
      case .vibrate:
        if !isVibration(view, value) {
          ignored(
            view, value, "'vibrate' must be a number of milliseconds or an array of them",
            into: &m)
        }
      case .actions:
        readDeclarativeActions(view, value, into: &m)
      case .data:
        break  // anything the page wants
      case .appBadge:
        // Not a member of the notification for the Push API (which reads it beside it), but
        // Safari reads it here, a whole number or a string of digits, and refuses anything else.
        let safariTakes =
          view.integer(value).map { $0 >= 0 }
          ?? (view.kind(value) == .string
            && Self.withText(view, value) { $0.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } })
        m.warning(
          .declarativeSafariBadge,
          safariTakes
            ? "'app_badge' inside 'notification' is Safari's: the Push API reads it beside 'notification', and ignores this one"
            : "'app_badge' inside 'notification' is ignored by the Push API, but Safari refuses the whole message for \(Self.quotedValue(view, value))",
          view, at: key)
      case .mutable:
        m.warning(
          .declarativeSafariBadge,
          view.bool(value) != nil
            ? "'mutable' inside 'notification' is Safari's: the Push API reads it beside 'notification', and ignores this one"
            : "'mutable' inside 'notification' is ignored by the Push API, but Safari refuses the whole message for \(Self.quotedValue(view, value))",
          view, at: key)
      case nil:
        m.warning(
          .declarativeUnknown,
          "unknown key \(Self.quoted(view.string(key))) in a Web Push notification", view,
          at: key)
      }
    }
    if !(has.title && has.navigate) {
      let missing = has.title ? "'navigate'" : has.navigate ? "'title'" : "'title' and 'navigate'"
      m.error(
        .declarativeTitleNavigate, "a Declarative Web Push notification needs \(missing)", view,
        at: index)
    }
  }

  /// A declarative message's actions: the parser takes the ones that are dictionaries with an
  /// `action` and a `title`, strings, and ignores the others.
  private static func readDeclarativeActions(
    _ view: JSONView, _ index: Int, into m: inout MessageReader
  ) {
    guard view.kind(index) == .array else {
      ignored(view, index, "'actions' must be an array of dictionaries", into: &m)
      return
    }
    view.forEachElement(of: index) { action in
      let good =
        view.kind(action) == .object
        && [view.member(action, "action"), view.member(action, "title")].allSatisfy {
          $0.map { view.kind($0) == .string } ?? false
        }
      if !good {
        ignored(view, action, "an action must be a dictionary with an action and a title", into: &m)
      }
    }
  }

  /// Whether the string at `index` starts with a URL scheme (`https:`), as an absolute URL
  /// does.
  private static func isAbsoluteURL(_ view: JSONView, _ index: Int) -> Bool {
    Self.withText(view, index) { raw in
      // A scheme: a letter, then letters, digits, + - and ., then a colon.
      guard let first = raw.first, first | 0x20 >= 0x61 && first | 0x20 <= 0x7A,
        let colon = raw.firstIndex(of: UInt8(ascii: ":"))
      else { return false }
      return raw[..<colon].allSatisfy { Self.isAlphanumeric($0) || "+-.".utf8.contains($0) }
    }
  }

  /// The Notification API's timestamp, whole milliseconds since 1970, into the event time;
  /// false if it is not one.
  private static func readTimestamp(_ view: JSONView, _ value: Int, into m: inout MessageReader)
    -> Bool
  {
    guard let milliseconds = view.integer(value), milliseconds >= 0,
      Timestamp(seconds: milliseconds / 1000).isWritable
    else { return false }
    m.eventTime = Timestamp(
      seconds: milliseconds / 1000, nanoseconds: Int32(milliseconds % 1000) * 1_000_000)
    return true
  }

  /// Whether the value is a vibration pattern: milliseconds, or an array of them.
  private static func isVibration(_ view: JSONView, _ value: Int) -> Bool {
    var good = view.kind(value) == .array || view.kind(value) == .number
    if view.kind(value) == .array {
      view.forEachElement(of: value) { if view.integer($0) == nil { good = false } }
    }
    return good
  }

  private enum OptionField: Sendable {
    case navigate, timestamp, appBadge, dir, actions, data, flag, vibrate
  }
  private static let optionFields = KeyTable<MemberRule<OptionField>>([
    ("title", .string(.title)), ("body", .string(.body)), ("tag", .string(.collapseID)),
    ("timestamp", .own(.timestamp)), ("navigate", .own(.navigate)),
    ("app_badge", .own(.appBadge)), ("dir", .own(.dir)), ("actions", .own(.actions)),
    ("data", .own(.data)), ("silent", .own(.flag)), ("renotify", .own(.flag)),
    ("require_interaction", .own(.flag)), ("requireInteraction", .own(.flag)),
    ("mutable", .own(.flag)), ("lang", .string(nil)), ("icon", .string(nil)),
    ("image", .string(nil)), ("badge", .string(nil)), ("vibrate", .own(.vibrate)),
    ("click_action", .string(nil)),
  ])

  /// The service-worker shape's `options`, the second argument of `showNotification`, which
  /// Web IDL converts to a NotificationOptions dictionary: null as no options; any object, an
  /// array too, by the members it has (an array has none: PHP's `json_encode` writes one for
  /// empty options); a string, number or boolean throws a TypeError, and nothing is shown.
  private static func readOptions(_ view: JSONView, _ options: Int, into m: inout MessageReader) {
    switch view.kind(options) {
    case .object: readNotification(view, options, into: &m)
    case .null: break
    case .array:
      if view.tokens[options].count > 0 {
        m.warning(
          .optionsArray,
          "'options' is an array: showNotification reads it as no options, and ignores its elements",
          view, at: options)
      }
    default:
      m.error(
        .optionsNotObject,
        "'options' must be a dictionary, not \(Self.kindName(view, options)): showNotification throws a TypeError",
        view, at: options)
    }
  }

  /// The Notification API options of the service-worker shape and of FCM's
  /// `webpush.notification`, which the page's service worker passes to `showNotification`.
  ///
  /// Besides each option's own rule, two throw a TypeError, so that nothing is shown (WHATWG,
  /// "create a notification"): `silent` true with a `vibrate`, and `renotify` true without a
  /// `tag` (or with an empty one).
  static func readNotification(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    var silent: Int?  // `silent: true`, `renotify: true`, `vibrate` and `tag`, for the checks
    var renotify: Int?  // across them
    var vibrate = false
    var tagged = false
    view.forEachMember(of: index) { key, value in
      if view.keyEquals(key, "silent") {
        if view.bool(value) == true { silent = key }
      } else if view.keyEquals(key, "renotify") {
        if view.bool(value) == true { renotify = key }
      } else if view.keyEquals(key, "vibrate") {
        vibrate = true
      } else if view.keyEquals(key, "tag") {
        tagged =
          view.kind(value) != .string || view.tokens[value].end - view.tokens[value].start > 2
      }
    }
    m.readMembers(
      view, of: index, optionFields, optionRows,
      own: { m, field, key, value in
        switch field {
        case .navigate: m.string(view, key, value, into: nil, .optionsTypes)
        case .timestamp:
          if !readTimestamp(view, value, into: &m) {
            m.error(
              .optionsTimestamp,
              "'timestamp' must be whole milliseconds since 1970, not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .appBadge: m.readBadge(view, value, "app_badge", .workerAppBadge, setsNoBadge)
        case .dir:
          if view.kind(value) != .string || directions.find(view, value) == nil {
            m.error(
              .optionsDir,
              "'dir' must be auto, ltr or rtl, not \(Self.quotedValue(view, value))", view,
              at: value)
          }
        case .actions: readActions(view, value, into: &m)
        case .data: break  // anything the page wants
        case .flag:
          if view.bool(value) == nil {
            m.error(
              .optionsTypes,
              "\(Self.quoted(view.string(key))) must be true or false, not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .vibrate:
          if !isVibration(view, value) {
            m.error(
              .optionsTypes, "'vibrate' must be a number of milliseconds or an array of them", view,
              at: value)
          }
        }
      },
      unknown: {
        $0.warning(
          .optionsUnknown,
          "unknown key \(Self.quoted(view.string($1))) in a Web Push notification", view, at: $1)
      })
    if let silent, vibrate {
      m.error(
        .optionsSilentVibrate,
        "'silent' is true and 'vibrate' is given: showNotification throws a TypeError, and nothing is shown",
        view, at: silent)
    }
    if let renotify, !tagged {
      m.error(
        .optionsRenotifyTag,
        "'renotify' is true without a 'tag': showNotification throws a TypeError, and nothing is shown",
        view, at: renotify)
    }
  }

  /// A notification's actions: an array of dictionaries, each with an action and a title.
  private static func readActions(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    guard view.kind(index) == .array else {
      m.error(.optionsTypes, "'actions' must be an array of dictionaries", view, at: index)
      return
    }
    view.forEachElement(of: index) { action in
      guard view.kind(action) == .object else {
        m.error(.optionsTypes, "an action must be a dictionary", view, at: action)
        return
      }
      var named = false
      view.forEachMember(of: action) { key, value in
        if view.kind(value) != .string {
          m.error(
            .optionsTypes, "the action's \(Self.quoted(view.string(key))) must be a string", view,
            at: value)
        }
        if view.keyEquals(key, "title") { named = true }
      }
      if !named {
        m.error(.optionsActionTitle, "an action needs a 'title'", view, at: action)
      }
    }
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
        if let seconds = Self.headerInteger(view, value), seconds >= 0 {
          m.timeToLive = seconds
        } else {
          m.error(
            .webpushTtl,
            "'TTL' must be whole seconds, 0 or more, not \(Self.quotedValue(view, value))",
            at: at)
        }
      case "urgency":
        guard view.kind(value) == .string, let priority = Self.urgencies.find(view, value) else {
          let rule = Self.mustBe("Urgency", "very-low, low, normal or high", view, value)
          m.error(.webpushUrgency, rule, at: at)
          return
        }
        m.values[.priority] = .integer(priority)
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
          m.error(
            .webpushTopic,
            "'Topic' must be 1 to \(Self.webPushTopicLimit) characters of URL-safe base64 (A-Z a-z 0-9 - _), not \(Self.quotedValue(view, value))",
            at: at)
        }
      default:
        m.warning(
          .webpushUnknownHeader,
          "unknown header \(Self.quoted(view.string(key))): Web Push headers are TTL, Urgency and Topic",
          at: m.offset(view, key))
      }
    }
    // A Topic replaces a pending message with the same topic, as a collapse id does; a tag
    // in the notification, which replaces what is on screen, wins.
    if let topic, case .null = m.values[.collapseID] { m.values[.collapseID] = .input(topic) }
  }
}
