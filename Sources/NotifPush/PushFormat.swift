import NotifJSON
import NotifModel

/// `--platform`: which platform's override block of a cross-platform message the record shows.
///
/// The default is `ios`: a record is shaped after iOS's Notification Center (threads, summary
/// arguments, interruption levels), and an APNs block fills the most of its fields.
public enum Platform: String, CaseIterable, Sendable {
  case ios, android, web
}

/// The push service format of a JSON text, told by its keys (notif(5), "Inputs").
public enum PushFormat: Equatable, Sendable {
  /// An APNs payload: `aps`, `mdm`, or nothing any other format has.
  case apns
  /// An FCM HTTP v1 message: `{"message": {...}}` (the message at `message`), or the message
  /// object itself.
  case fcm(message: Int)
  /// An FCM legacy HTTP message: addressed by `to`, `registration_ids`, `notification_key`, or
  /// by a `condition` with nothing only HTTP v1 has.
  case fcmLegacy
  /// A Web Push message: Declarative (`web_push`, or a `notification` with `navigate`) or the
  /// service-worker shape (`title` and `options`).
  case webPush
  /// An Amazon SNS message with `MessageStructure` json: platform keys holding JSON strings.
  case snsMessage
  /// The JSON body of Amazon SNS's HTTP notification (`Type`, `MessageId`, `Message`, ...).
  case snsEnvelope
  /// An Expo push message: `to` holding Expo push tokens, `title`, `body`, ...
  case expo

  /// The record's `source` for a message of this format.
  var source: PushSource {
    switch self {
    case .apns: return .apns
    case .fcm: return .fcm
    case .fcmLegacy: return .fcmLegacy
    case .webPush: return .webPush
    case .snsMessage, .snsEnvelope: return .sns
    case .expo: return .expo
    }
  }

  private enum Key: Sendable {
    case message, webPush, type, snsMessage, to, registrationIDs, notification, data, fcmTarget
    case condition, fcmBlock, name, title, options, expoOnly, validateOnly
  }
  private static let keys = KeyTable<Key>([
    ("message", .message), ("web_push", .webPush), ("Type", .type), ("Message", .snsMessage),
    ("to", .to), ("registration_ids", .registrationIDs), ("notification", .notification),
    ("notification_key", .registrationIDs), ("data", .data), ("token", .fcmTarget),
    ("topic", .fcmTarget), ("condition", .condition),
    ("android", .fcmBlock), ("apns", .fcmBlock), ("webpush", .fcmBlock),
    ("fcm_options", .fcmBlock), ("name", .name), ("title", .title), ("options", .options),
    ("subtitle", .expoOnly), ("body", .expoOnly), ("sound", .expoOnly), ("badge", .expoOnly),
    ("ttl", .expoOnly), ("expiration", .expoOnly), ("channelId", .expoOnly),
    ("categoryId", .expoOnly), ("_contentAvailable", .expoOnly), ("mutableContent", .expoOnly),
    ("interruptionLevel", .expoOnly), ("richContent", .expoOnly),
    ("validate_only", .validateOnly), ("validateOnly", .validateOnly),
  ])

  /// The keys that make a text an SNS `MessageStructure: json` message when it has no others:
  /// the keys SNS documents (`SNSReader.documentedKeys`), and `FCM`, which is none of them but
  /// is written for `GCM`, so that such a message is read as SNS reads it.
  static let snsPlatforms = KeyTable<String>(
    [
      "default", "APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS",
      "MACOS_SANDBOX", "GCM", "FCM", "ADM", "BAIDU", "MPNS", "WNS",
    ].map { ($0, $0) })

  /// A key of another vendor's message written with a slip (another case, a letter missing or
  /// a dash for an underscore), by what it was meant to be.
  enum Slip: Sendable {
    /// `message` (`Message`, `MESSAGE`): an FCM HTTP v1 request's.
    case message
    /// A legacy FCM message's address: `To`, `registration_id`, `registrationIds`, ...
    case legacyAddress
    /// The Declarative Web Push marker, `web_push` (`Web_Push`, `web-push`, `webPush`, ...).
    case webPush
    /// SNS's `default` (`Default`, `DEFAULT`).
    case snsDefault
    /// An SNS platform's key (`apns`, `Gcm`, `Apns_Sandbox`, ...).
    case snsPlatform
  }

  /// The slips, compared without regard to case; the exact keys are looked up first, so only a
  /// key that is none of them is looked for here.
  static let slips = KeyTable<Slip>(
    ignoringCase: [
      ("message", .message), ("to", .legacyAddress), ("registration_ids", .legacyAddress),
      ("registration_id", .legacyAddress), ("registrationids", .legacyAddress),
      ("registrationid", .legacyAddress), ("registration-ids", .legacyAddress),
      ("registration-id", .legacyAddress), ("notification_key", .legacyAddress),
      ("notificationkey", .legacyAddress), ("web_push", .webPush), ("web-push", .webPush),
      ("webpush", .webPush), ("web push", .webPush), ("default", .snsDefault),
    ]
      + [
        "APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS",
        "MACOS_SANDBOX", "GCM", "ADM", "BAIDU", "MPNS", "WNS",
      ].map { ($0, Slip.snsPlatform) })

  /// The slip a key of a message read as `format` is, if it is one: the readers name the rule
  /// of the slip rather than the one of an unknown key.
  static func slip(_ view: JSONView, _ key: Int) -> Slip? {
    slips.findIgnoringCase(view, key)
  }

  private struct Found {
    private var slots = (
      -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    )

    subscript(key: Key) -> Int? {
      get {
        let value: Int
        switch key {
        case .message: value = slots.0
        case .webPush: value = slots.1
        case .type: value = slots.2
        case .snsMessage: value = slots.3
        case .to: value = slots.4
        case .registrationIDs: value = slots.5
        case .notification: value = slots.6
        case .data: value = slots.7
        case .fcmTarget: value = slots.8
        case .fcmBlock: value = slots.9
        case .name: value = slots.10
        case .title: value = slots.11
        case .options: value = slots.12
        case .expoOnly: value = slots.13
        case .condition: value = slots.14
        case .validateOnly: value = slots.15
        }
        return value < 0 ? nil : value
      }
      set {
        let value = newValue ?? -1
        switch key {
        case .message: slots.0 = value
        case .webPush: slots.1 = value
        case .type: slots.2 = value
        case .snsMessage: slots.3 = value
        case .to: slots.4 = value
        case .registrationIDs: slots.5 = value
        case .notification: slots.6 = value
        case .data: slots.7 = value
        case .fcmTarget: slots.8 = value
        case .fcmBlock: slots.9 = value
        case .name: slots.10 = value
        case .title: slots.11 = value
        case .options: slots.12 = value
        case .expoOnly: slots.13 = value
        case .condition: slots.14 = value
        case .validateOnly: slots.15 = value
        }
      }
    }
  }

  /// The format of the object at `root` of `view`, which has no `aps` and no `mdm`.
  static func detect(_ view: JSONView, _ root: Int) -> PushFormat {
    // The value of the first key of each kind, or -1; no dictionary: this runs for every text.
    var found = Found()
    // An SNS message: only SNS keys, or a default and a platform's message beside keys SNS
    // ignores (a protocol's, `email`, say).
    var sns = (all: view.tokens[root].count > 0, hasDefault: false, hasPlatform: false)
    // The first key of each slip (`Message`, `registration_id`, `web-push`, `apns`) and its
    // value: a message that is plainly another vendor's but for a slip is read as that
    // vendor's, whose reader names the slip, and not as a bare APNs payload.
    var slipped: (message: Int?, address: Bool, marker: Int?, default: Bool, platform: Bool) = (
      nil, false, nil, false, false
    )
    view.forEachMember(of: root) { key, value in
      let name = keys.find(view, key)
      if let name, found[name] == nil { found[name] = value }
      if let platform = snsPlatforms.find(view, key) {
        if platform == "default" { sns.hasDefault = true } else { sns.hasPlatform = true }
        return
      }
      // Only a key that is none of the exact ones can be a slip; `Message` is the SNS
      // envelope's own key, and `apns` FCM's, holding an object where SNS holds a string.
      let kind = name == nil || name == .snsMessage || name == .fcmBlock ? slip(view, key) : nil
      switch kind {
      case .message?:
        if slipped.message == nil { slipped.message = value }
      case .legacyAddress?: slipped.address = true
      case .webPush?: if name == nil && slipped.marker == nil { slipped.marker = value }
      case .snsDefault?, .snsPlatform?:
        if view.kind(value) == .string {
          if kind == .snsDefault { slipped.default = true } else { slipped.platform = true }
          return
        }
      case nil: break
      }
      sns.all = false
    }
    if let message = found[.message], view.kind(message) == .object {
      return .fcm(message: message)
    }
    if found[.message] == nil && found[.type] == nil, let message = slipped.message,
      view.kind(message) == .object
    {
      return .fcm(message: message)
    }
    if found[.webPush] != nil { return .webPush }
    if found[.type] != nil && found[.snsMessage] != nil { return .snsEnvelope }
    if sns.all || (sns.hasDefault && sns.hasPlatform) { return .snsMessage }
    if (sns.hasDefault || slipped.default) && (sns.hasPlatform || slipped.platform) {
      return .snsMessage
    }
    if let message = found[.message], found[.validateOnly] != nil {
      // A request whose message is not a dictionary: FCM answers 400.
      return .fcm(message: message)
    }
    if found[.registrationIDs] != nil { return .fcmLegacy }
    if slipped.address && found[.to] == nil && found[.fcmTarget] == nil
      && found[.fcmBlock] == nil && (found[.notification] != nil || found[.data] != nil)
    {
      return .fcmLegacy
    }
    if let marker = slipped.marker, view.integer(marker) == WebPushReader.declarativeMarker,
      let notification = found[.notification], view.kind(notification) == .object
    {
      return .webPush
    }
    if let to = found[.to] {
      if found[.notification] != nil { return .fcmLegacy }
      if isExpoTarget(view, to) || found[.expoOnly] != nil { return .expo }
      return .fcmLegacy
    }
    if found[.fcmTarget] != nil || found[.fcmBlock] != nil { return .fcm(message: root) }
    // A condition beside nothing only HTTP v1 has (token, topic, a platform block, name) is the
    // legacy API's: that API took the message bare, where HTTP v1 wraps it in `message`.
    if found[.condition] != nil { return found[.name] != nil ? .fcm(message: root) : .fcmLegacy }
    if found[.title] != nil && found[.options] != nil { return .webPush }
    if let notification = found[.notification], view.kind(notification) == .object {
      return view.member(notification, "navigate") != nil ? .webPush : .fcm(message: root)
    }
    if found[.name] != nil && found[.data] != nil { return .fcm(message: root) }
    return .apns
  }

  /// Whether `to` holds an Expo push token, or an array of them.
  static func isExpoTarget(_ view: JSONView, _ to: Int) -> Bool {
    switch view.kind(to) {
    case .string:
      return isExpoToken(view, to)
    case .array:
      var all = view.tokens[to].count > 0
      view.forEachElement(of: to) {
        if view.kind($0) != .string || !isExpoToken(view, $0) { all = false }
      }
      return all
    default:
      return false
    }
  }

  /// Whether the string at `index` is an Expo push token: `ExponentPushToken[...]`,
  /// `ExpoPushToken[...]`, or the 8-4-4-4-12 letters and digits of a device token's id, as
  /// expo-server-sdk-node's `isExpoPushToken` takes them.
  static func isExpoToken(_ view: JSONView, _ index: Int) -> Bool {
    MessageReader.withText(view, index) { text in
      for prefix: StaticString in ["ExponentPushToken[", "ExpoPushToken["] {
        let wanted = UnsafeRawBufferPointer(
          start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        if text.count > wanted.count && text.starts(with: wanted)
          && text.last == UInt8(ascii: "]")
        {
          return true
        }
      }
      guard text.count == 36 else { return false }
      for (i, byte) in text.enumerated() {
        let isDash = i == 8 || i == 13 || i == 18 || i == 23
        if isDash ? byte != UInt8(ascii: "-") : !MessageReader.isAlphanumeric(byte) {
          return false
        }
      }
      return true
    }
  }
}

/// A JSON text inside a JSON string (Amazon SNS's platform values, its HTTP envelope's
/// `Message`): the decoded bytes, a parser for them, and where each byte came from in the
/// outermost text, so that diagnostics point into the file.
// `@unchecked Sendable`: only the reader that holds the one reference to it writes to it
// (`EmbeddedTexts.level` makes a new one for a copy that shares it).
final class EmbeddedText: @unchecked Sendable {
  var parser = JSONParser()
  var bytes = ByteBuffer(capacity: 4096)
  /// Where the decoded bytes came from, a run at a time, in ascending order: from decoded
  /// offset `decoded` on, the bytes of a run of plain bytes come one for one from the offsets
  /// of the string's text from `source` on; every byte an escape decodes to points at its
  /// backslash, at `source`, stored negated (less one). A run, not a byte, a place: the map of
  /// a megabyte string without escapes is one entry, not a megabyte of them.
  private var runs: [(decoded: Int32, source: Int32)] = []
  /// The offset in the string's text of the string's end.
  private var end = 0
  /// The text the string was in, when that was an embedded text too.
  private var parent: EmbeddedText?

  /// Decodes the string at `index` of `view` into `bytes`, with its map; `parent` maps
  /// `view`'s offsets to the outermost text (nil when `view` is the outermost text).
  func decode(_ view: JSONView, _ index: Int, parent: EmbeddedText?) {
    bytes.removeAll()
    runs.removeAll(keepingCapacity: true)
    self.parent = parent
    let raw = view.rawString(index)
    let base = Int(view.tokens[index].start) + 1
    func run(_ source: Int, escape: Bool) {
      runs.append(
        (
          Int32(truncatingIfNeeded: bytes.count),
          Int32(truncatingIfNeeded: escape ? -source - 1 : source)
        ))
    }
    var i = 0
    while i < raw.count {
      if raw[i] != UInt8(ascii: "\\") {
        var j = i + 1
        while j < raw.count && raw[j] != UInt8(ascii: "\\") { j += 1 }
        run(base + i, escape: false)
        bytes.append(UnsafeRawBufferPointer(rebasing: raw[i..<j]))
        i = j
      } else {
        // One escape, `\n` or `\uXXXX` (two for a surrogate pair): every byte it decodes to
        // points at its backslash.
        var end = i + 2
        if raw[i + 1] == UInt8(ascii: "u") {
          end = i + 6
          var high = 0
          for k in i + 2..<i + 6 {
            let byte = raw[k] | 0x20
            high = high << 4 + Int(byte <= UInt8(ascii: "9") ? byte &- 0x30 : byte &- 0x57)
          }
          // The parser checked that a low surrogate's escape follows a high one.
          if high >= 0xD800 && high < 0xDC00 { end = i + 12 }
        }
        run(base + i, escape: true)
        JSONEscapes.unescape(UnsafeRawBufferPointer(rebasing: raw[i..<end]), into: &bytes)
        i = end
      }
    }
    end = base + raw.count
  }

  /// The number of runs of the map (for the tests of its size).
  var runCount: Int { runs.count }

  /// The offset in the outermost text of `offset` in the decoded bytes (the end for one past
  /// them).
  ///
  /// - Complexity: O(log r) for r runs, at each level.
  func outerOffset(_ offset: Int) -> Int {
    var source = end
    let offset = max(0, offset)
    if offset < bytes.count {
      // The last run that starts at or before `offset`.
      var low = 0
      var high = runs.count
      while high - low > 1 {
        let middle = (low + high) / 2
        if Int(runs[middle].decoded) <= offset { low = middle } else { high = middle }
      }
      if low < runs.count {
        let run = runs[low]
        source =
          run.source < 0 ? -Int(run.source) - 1 : Int(run.source) + offset - Int(run.decoded)
      }
    }
    return parent?.outerOffset(source) ?? source
  }
}

/// The embedded texts of one reader, by depth: an SNS envelope's `Message` is depth 0, a
/// platform's JSON inside it depth 1.
///
/// A copy of a reader (one per worker thread) shares them until it first uses one; then it
/// makes its own, so that no two threads ever parse into the same buffers.
struct EmbeddedTexts: Sendable {
  private var levels: [EmbeddedText] = []

  /// The text at `depth`, owned by this copy alone.
  mutating func level(_ depth: Int) -> EmbeddedText {
    while levels.count <= depth { levels.append(EmbeddedText()) }
    if !isKnownUniquelyReferenced(&levels[depth]) { levels[depth] = EmbeddedText() }
    return levels[depth]
  }

  /// The text at `depth`, if one was made.
  func existing(_ depth: Int) -> EmbeddedText? {
    depth >= 0 && depth < levels.count ? levels[depth] : nil
  }
}
