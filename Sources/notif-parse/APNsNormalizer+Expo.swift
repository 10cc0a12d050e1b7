import NotifJSON
import NotifModel

// Expo push messages, as Expo's push service takes them (notif-parse(1), "Expo"; the source is
// cited in notif(5)).

extension APNsNormalizer {
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
  mutating func readExpo(_ view: JSONView, _ root: Int) {
    view.forEachMember(of: root) { key, value in
      let at = offset(view, value)
      switch Self.expoKeys.find(view, key) {
      case .to:
        if !PushFormat.isExpoTarget(view, value) {
          findings.append(
            .error(
              "ExpoBadToken",
              "'to' must be an Expo push token such as ExponentPushToken[xxxx], or an array of them, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .title: string(view, key, value, into: .title)
      case .body: string(view, key, value, into: .body)
      case .subtitle: string(view, key, value, into: .subtitle)
      case .categoryID: string(view, key, value, into: .category)
      case .text: string(view, key, value, into: nil)
      case .data, .object: checkObject(view, value, view.string(key))
      case .ttl:
        if let seconds = view.integer(value), seconds >= 0 {
          timeToLive = seconds
        } else {
          findings.append(
            .error(
              "ExpoBadValue",
              "'ttl' must be whole seconds, 0 or more, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .expiration:
        date(view, value, "expiration", into: .expiresAt)
      case .priority:
        if view.kind(value) == .string, let priority = Self.expoPriorities.find(view, value) {
          if priority > 0 { values[.priority] = .integer(priority) }
        } else {
          findings.append(
            .error(
              "ExpoBadValue",
              "'priority' must be default, normal or high, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .sound:
        readExpoSound(view, value)
      case .badge: readBadge(view, value, "badge")
      case .mutableContent, .contentAvailable:
        readBool(
          view, key, value,
          into: view.keyEquals(key, "mutableContent") ? .mutableContent : .contentAvailable)
      case .interruptionLevel:
        interruptionLevel(view, value, spelled: "interruptionLevel", at: at)
      case nil:
        findings.append(
          .warning(
            "ExpoUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an Expo push message",
            at: offset(view, key)))
      }
    }
  }

  /// Expo's `sound`: a name, null, or `{"critical": true, "name": ..., "volume": 0.5}`.
  private mutating func readExpoSound(_ view: JSONView, _ value: Int) {
    switch view.kind(value) {
    case .null: return
    case .string:
      values[.sound] = .input(value)
    case .object:
      view.forEachMember(of: value) { key, member in
        if view.keyEquals(key, "name") {
          string(view, key, member, into: .sound)
        } else if view.keyEquals(key, "critical") {
          if let on = view.bool(member) {
            values[.soundCritical] = .bool(on)
          } else {
            findings.append(
              .error(
                "BadSound", "the sound's 'critical' must be true or false", at: offset(view, member)
              ))
          }
        } else if view.keyEquals(key, "volume") {
          if let volume = view.double(member), (0...1).contains(volume) {
            values[.soundVolume] = .input(member)
          } else {
            findings.append(
              .error(
                "BadSound", "the sound's 'volume' must be a number from 0 to 1",
                at: offset(view, member)))
          }
        } else {
          findings.append(
            .warning(
              "ExpoUnknownKey", "unknown key \(Self.quoted(view.string(key))) in 'sound'",
              at: offset(view, key)))
        }
      }
    default:
      findings.append(
        .error(
          "BadSound", "'sound' must be a sound name, null or a dictionary", at: offset(view, value))
      )
    }
  }
}
