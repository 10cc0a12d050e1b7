import NotifJSON
import NotifModel

/// Reads Expo push messages as Expo's push service takes them (notif-rules(7), "Expo").
enum ExpoReader: FormatReader {
  private enum ExpoKey: Sendable {
    case to, title, body, subtitle, data, ttl, expiration, priority, sound, badge, categoryID
    case mutableContent, contentAvailable, interruptionLevel, text, object
  }
  private static let expoKeys = KeyTable<ExpoKey>([
    ("to", .to), ("title", .title), ("body", .body), ("subtitle", .subtitle), ("data", .data),
    ("ttl", .ttl), ("expiration", .expiration), ("priority", .priority), ("sound", .sound),
    ("badge", .badge), ("channelId", .text), ("categoryId", .categoryID),
    ("mutableContent", .mutableContent), ("_contentAvailable", .contentAvailable),
    ("interruptionLevel", .interruptionLevel), ("icon", .text), ("richContent", .object),
  ])
  private static let expoPriorities = KeyTable<Int64>([
    ("default", 0), ("normal", 5), ("high", 10),
  ])

  /// An Expo push message at `root` of `view`.
  static func read(_ view: JSONView, _ root: Int, into m: inout MessageReader) {
    view.forEachMember(of: root) { key, value in
      let at = m.offset(view, value)
      switch Self.expoKeys.find(view, key) {
      case .to:
        if !PushFormat.isExpoTarget(view, value) {
          m.findings.append(
            .error(
              "ExpoBadToken",
              "'to' must be an Expo push token such as ExponentPushToken[xxxx], or an array of them, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .title: m.string(view, key, value, into: .title)
      case .body: m.string(view, key, value, into: .body)
      case .subtitle: m.string(view, key, value, into: .subtitle)
      case .categoryID: m.string(view, key, value, into: .category)
      case .text: m.string(view, key, value, into: nil)
      case .data, .object: m.checkObject(view, value, view.string(key))
      case .ttl:
        if let seconds = view.integer(value), seconds >= 0 {
          m.timeToLive = seconds
        } else {
          m.findings.append(
            .error(
              "ExpoBadValue",
              "'ttl' must be whole seconds, 0 or more, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .expiration:
        m.date(view, value, "expiration", into: .expiresAt)
      case .priority:
        if view.kind(value) == .string, let priority = Self.expoPriorities.find(view, value) {
          if priority > 0 { m.values[.priority] = .integer(priority) }
        } else {
          m.findings.append(
            .error(
              "ExpoBadValue",
              "'priority' must be default, normal or high, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .sound:
        readSound(view, value, into: &m)
      case .badge: m.readBadge(view, value, "badge")
      case .mutableContent, .contentAvailable:
        m.readBool(
          view, key, value,
          into: view.keyEquals(key, "mutableContent") ? .mutableContent : .contentAvailable)
      case .interruptionLevel:
        m.interruptionLevel(view, value, spelled: "interruptionLevel", at: at)
      case nil:
        m.findings.append(
          .warning(
            "ExpoUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an Expo push message",
            at: m.offset(view, key)))
      }
    }
  }

  /// Expo's `sound`: a name, null, or `{"critical": true, "name": ..., "volume": 0.5}`.
  private static func readSound(_ view: JSONView, _ value: Int, into m: inout MessageReader) {
    switch view.kind(value) {
    case .null: return
    case .string:
      m.values[.sound] = .input(value)
    case .object:
      view.forEachMember(of: value) { key, member in
        if view.keyEquals(key, "name") {
          m.string(view, key, member, into: .sound)
        } else if view.keyEquals(key, "critical") {
          if let on = view.bool(member) {
            m.values[.soundCritical] = .bool(on)
          } else {
            m.findings.append(
              .error(
                "BadSound", "the sound's 'critical' must be true or false",
                at: m.offset(view, member)
              ))
          }
        } else if view.keyEquals(key, "volume") {
          if let volume = view.double(member), (0...1).contains(volume) {
            m.values[.soundVolume] = .input(member)
          } else {
            m.findings.append(
              .error(
                "BadSound", "the sound's 'volume' must be a number from 0 to 1",
                at: m.offset(view, member)))
          }
        } else {
          m.findings.append(
            .warning(
              "ExpoUnknownKey", "unknown key \(Self.quoted(view.string(key))) in 'sound'",
              at: m.offset(view, key)))
        }
      }
    default:
      m.findings.append(
        .error(
          "BadSound", "'sound' must be a sound name, null or a dictionary",
          at: m.offset(view, value))
      )
    }
  }
}
