import NotifJSON
import NotifModel

/// Reads Expo push messages as Expo's push service takes them (notif-rules(7), "Expo").
public enum ExpoReader: FormatReader {
  /// The most notifications one request sends: a message counts once for each token of its
  /// `to` (expo-server-sdk-node's `PUSH_NOTIFICATION_CHUNK_LIMIT`).
  public static let maxNotifications = 100

  /// Whether the array at `index` of `view` is an Expo push request: an array of messages, one
  /// of them in a shape only Expo's format has.
  public static func isRequest(_ view: JSONView, _ index: Int) -> Bool {
    var found = false
    view.forEachElement(of: index) { element in
      if !found && view.kind(element) == .object && PushFormat.detect(view, element) == .expo {
        found = true
      }
    }
    return found
  }

  /// How many notifications the request at `index` of `view` sends: one per message, or one
  /// per token of a `to` that is an array.
  public static func notificationCount(_ view: JSONView, _ index: Int) -> Int {
    var count = 0
    view.forEachElement(of: index) { element in
      if view.kind(element) == .object, let to = view.member(element, "to"),
        view.kind(to) == .array
      {
        count += Int(view.tokens[to].count)
      } else {
        count += 1
      }
    }
    return count
  }

  /// The error of a request that sends more than `maxNotifications`, at its `[` (`at`).
  public static func tooMany(_ count: Int, at: Int) -> Finding {
    .error(
      .expoTooMany,
      "this Expo request sends \(count) notifications; Expo's push service takes at most \(maxNotifications) a request and refuses the whole request",
      at: at)
  }

  private enum Field: Sendable { case to, object, ttl, expiration, priority, sound, badge, level }
  private static let fields = KeyTable<MemberRule<Field>>([
    ("to", .own(.to)), ("title", .string(.title)), ("body", .string(.body)),
    ("subtitle", .string(.subtitle)), ("data", .own(.object)), ("ttl", .own(.ttl)),
    ("expiration", .own(.expiration)), ("priority", .own(.priority)), ("sound", .own(.sound)),
    ("badge", .own(.badge)), ("channelId", .string(nil)), ("categoryId", .string(.category)),
    ("mutableContent", .bool(.mutableContent)), ("_contentAvailable", .bool(.contentAvailable)),
    ("interruptionLevel", .own(.level)), ("icon", .string(nil)), ("richContent", .own(.object)),
  ])
  private static let rows = MemberRows(
    string: .expoStrings, locArgs: .expoStrings, bool: .expoBools, object: .expoStrings)
  private static let expoPriorities = KeyTable<Int64>([
    ("default", 0), ("normal", 5), ("high", 10),
  ])

  /// An Expo push message at `root` of `view`.
  static func read(_ view: JSONView, _ root: Int, into m: inout MessageReader) {
    var hasTarget = false
    m.readMembers(
      view, of: root, fields, rows,
      own: { m, field, key, value in
        switch field {
        case .to:
          hasTarget = true
          if !PushFormat.isExpoTarget(view, value) {
            m.error(
              .expoTo,
              "'to' must be an Expo push token such as ExponentPushToken[xxxx], or an array of them, not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .object: m.checkObject(view, value, view.string(key), .expoStrings)
        case .ttl:
          if let seconds = view.integer(value), seconds >= 0 {
            m.timeToLive = seconds
          } else {
            m.error(
              .expoValues,
              "'ttl' must be whole seconds, 0 or more, not \(Self.quotedValue(view, value))", view,
              at: value)
          }
        case .expiration:
          m.date(
            view, value, "expiration", into: .expiresAt, .expoExpiration,
            milliseconds: .expoMilliseconds)
        case .priority:
          if view.kind(value) == .string, let priority = Self.expoPriorities.find(view, value) {
            if priority > 0 { m.values[.priority] = .integer(priority) }
          } else {
            m.error(
              .expoValues,
              "'priority' must be default, normal or high, not \(Self.quotedValue(view, value))",
              view, at: value)
          }
        case .sound: readSound(view, value, into: &m)
        case .badge: m.readBadge(view, value, "badge", .expoBadge)
        case .level:
          m.interruptionLevel(
            view, value, spelled: "interruptionLevel", at: m.offset(view, value), .expoLevel)
        }
      },
      unknown: {
        $0.warning(
          .expoUnknown,
          "unknown key \(Self.quoted(view.string($1))) in an Expo push message", view, at: $1)
      })
    if !hasTarget {
      m.error(
        .expoTo, "an Expo push message needs 'to', its Expo push tokens", view, at: root)
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
          m.string(view, key, member, into: .sound, .expoSound)
        } else if view.keyEquals(key, "critical") {
          if let on = view.bool(member) {
            m.values[.soundCritical] = .bool(on)
          } else {
            m.error(
              .expoSound, "the sound's 'critical' must be true or false",
              at: m.offset(view, member))
          }
        } else if view.keyEquals(key, "volume") {
          if let volume = view.double(member), (0...1).contains(volume) {
            m.values[.soundVolume] = .input(member)
          } else {
            m.error(
              .expoSound, "the sound's 'volume' must be a number from 0 to 1",
              at: m.offset(view, member))
          }
        } else {
          m.warning(
            .expoUnknown, "unknown key \(Self.quoted(view.string(key))) in 'sound'",
            at: m.offset(view, key))
        }
      }
    default:
      m.error(
        .expoSound, "'sound' must be a sound name, null or a dictionary",
        at: m.offset(view, value))
    }
  }
}
