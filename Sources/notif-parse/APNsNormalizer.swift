import NotifJSON
import NotifModel

/// What fills the fields an input does not give.
struct InputDefaults {
  /// `--app`.
  var app: String?
  /// `--push-type`.
  var pushType: String?
  /// `--now`, `SOURCE_DATE_EPOCH` or the clock: the `created_at` of inputs with no
  /// `received_at`.
  var now: Timestamp
  /// `--platform`: which override block of a cross-platform message (FCM HTTP v1, Amazon SNS)
  /// the record shows.
  var platform = Platform.ios
}

/// Turns one JSON text into a notification record, checking it the way the push service it is
/// written for, and the device, would: an APNs payload (bare, a simulator `.apns` file or an
/// envelope with APNs headers) by Apple's rules, here; an FCM HTTP v1 or legacy message, a Web
/// Push message, an Amazon SNS message or an Expo push message by their own, in
/// `APNsNormalizer+FCM.swift`, `+WebPush`, `+SNS` and `+Expo`. The APNs payloads inside FCM and
/// SNS messages go through the same APNs rules as a bare payload.
///
/// One instance is reused for every record: its buffers keep their storage.
struct APNsNormalizer {
  let defaults: InputDefaults
  /// The record's fields.
  var values = RecordValues()
  /// The payload, compact, as it goes into the record.
  var payload = ByteBuffer(capacity: 8192)
  /// What was found wrong, in the order found.
  var findings: [Finding] = []

  // Facts gathered while reading, used by the checks that span several keys.
  var headers = Headers()
  private var aps = ApsFacts()
  private var apsNames: [ApsKey?] = []
  /// The format read, for `source`.
  var source = PushSource.apns
  /// When the event happened, by the message (FCM's `event_time`, a Web Push `timestamp`):
  /// `created_at` when no envelope says when it arrived.
  var eventTime: Timestamp?
  /// A time to live in seconds (FCM's `ttl`, Web Push's `TTL`, Expo's `ttl`): `expires_at`
  /// counts from `created_at`.
  var timeToLive: Int64?
  /// The app a message names in its own terms (an Android package name).
  var impliedApp: String?
  /// Where the value of each field is in the outermost text, for values read from JSON inside
  /// a JSON string (Amazon SNS); -1 where the field's value is on the outermost tape itself.
  var fieldOffsets: [Int] = Array(repeating: -1, count: RecordField.allCases.count)
  /// Whether any of `fieldOffsets` is set: most texts have none to clear.
  var hasFieldOffsets = false
  /// The parsers and buffers of JSON texts inside JSON strings.
  var embedded = EmbeddedTexts()
  /// Findings already placed in the outermost text (from JSON inside a JSON string).
  var placedFindings: [Finding] = []
  /// Whether the text being read is compact, so that a value's raw size is its compact size.
  var textIsCompact = false
  /// Room to write a value compact, to measure it.
  var scratch = ByteBuffer(capacity: 1024)

  static let pushTypes: Set<String> = [
    "alert", "background", "location", "voip", "complication", "fileprovider", "mdm",
    "liveactivity", "pushtotalk", "widgets", "controls",
  ]
  static let interruptionLevels: Set<String> = ["passive", "active", "time-sensitive", "critical"]
  // The same sets as key tables, to look a value up by its bytes: no string built.
  private static let pushTypeTable = KeyTable(pushTypes.map { ($0, $0) })
  static let interruptionLevelTable = KeyTable(interruptionLevels.map { ($0, $0) })
  private static let eventTable = KeyTable([("start", 0), ("update", 1), ("end", 2)])
  static let topicSuffixes = [
    ".voip", ".complication", ".pushkit.fileprovider", ".push-type.liveactivity", ".voip-ptt",
  ]

  init(defaults: InputDefaults) {
    self.defaults = defaults
  }

  /// Appends the record of the last text normalized, as one NDJSON line.
  mutating func writeRecord(_ view: JSONView, into out: inout ByteBuffer) {
    values.write(view: view, payload: payload, into: &out)
  }

  /// Whether the last text normalized has an error.
  var rejected: Bool { findings.contains { $0.severity == .error } }

  /// Where the value of `field` of the last text normalized is, as an offset in that text; 0
  /// when it has none there.
  func offset(of field: RecordField, in view: JSONView) -> Int {
    if fieldOffsets[field.rawValue] >= 0 { return fieldOffsets[field.rawValue] }
    if case .input(let index) = values[field] { return Int(view.tokens[index].start) }
    return 0
  }

  /// Sets everything back to the state before a text.
  private mutating func reset() {
    values.reset()
    payload.removeAll()
    findings.removeAll(keepingCapacity: true)
    headers = Headers()
    aps = ApsFacts()
    source = .apns
    eventTime = nil
    timeToLive = nil
    impliedApp = nil
    if !placedFindings.isEmpty { placedFindings.removeAll(keepingCapacity: true) }
    if hasFieldOffsets {
      fieldOffsets.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
      hasFieldOffsets = false
    }
  }

  /// Reads the JSON text in `view` into `values` and `payload`, recording `findings`.
  ///
  /// `isCompact` says the text is already compact and canonical, so the payload's bytes are
  /// copied rather than written anew.
  mutating func normalize(_ view: JSONView, isCompact: Bool = false) {
    reset()
    textIsCompact = isCompact
    guard view.kind(0) == .object else {
      findings.append(
        .error(
          "NotAnObject", "a payload must be a JSON object, not \(Self.kindName(view, 0))", at: 0))
      return
    }
    var root = 0
    var members = Self.members(view, 0)
    var format = PushFormat.apns
    if members.aps == nil, let inner = members.payload, view.kind(inner) == .object {
      root = inner
      members = Self.members(view, root)
      if members.aps == nil && members.mdm == nil { format = PushFormat.detect(view, root) }
      readEnvelope(view, webPush: format == .webPush)
    } else if members.aps == nil && members.mdm == nil {
      format = PushFormat.detect(view, root)
    }
    if isCompact {
      payload.append(view.raw(root))
    } else {
      JSONWriter.writeCompact(view, root, into: &payload)
    }
    var simulatorApp: String?
    switch format {
    case .apns:
      simulatorApp = members.simulatorTarget.flatMap { view.stringValue($0) }
      readAPNs(
        view, payload: root, aps: members.aps, payloadSize: payload.count,
        mdm: members.mdm != nil)
    case .fcm(let message):
      source = .fcm
      readFCM(view, message: message, root: root)
    case .fcmLegacy:
      source = .fcmLegacy
      readFCMLegacy(view, root)
    case .webPush:
      source = .webPush
      readWebPush(view, root)
    case .snsMessage:
      source = .sns
      readSNSMessage(view, root, depth: 0)
    case .snsEnvelope:
      source = .sns
      readSNSEnvelope(view, root)
    case .expo:
      source = .expo
      readExpo(view, root)
    }
    finish(view, simulatorApp: simulatorApp)
    if !placedFindings.isEmpty { findings += placedFindings }
  }

  /// The APNs rules on the payload at `root` of `view` (`payloadSize` bytes written compact),
  /// with the headers already read: the bare payloads, envelopes and `.apns` files, and the
  /// APNs payloads inside FCM and SNS messages.
  mutating func readAPNs(
    _ view: JSONView, payload root: Int, payloadSize: Int, mdm: Bool, sizeAt: Int = 0
  ) {
    readAPNs(
      view, payload: root, aps: view.member(root, "aps"), payloadSize: payloadSize, mdm: mdm,
      sizeAt: sizeAt)
  }

  /// `readAPNs` with the payload's `aps` already found (nil: it has none).
  private mutating func readAPNs(
    _ view: JSONView, payload root: Int, aps apsMember: Int?, payloadSize: Int, mdm: Bool,
    sizeAt: Int = 0
  ) {
    if view.tokens[root].count == 0 {
      findings.append(
        .error("PayloadEmpty", "the payload is empty: APNs rejects '{}'", at: offset(view, root)))
    }
    aps = ApsFacts()
    aps.isMDM = mdm
    if let apsIndex = apsMember {
      if view.kind(apsIndex) == .object {
        readAps(view, apsIndex)
      } else {
        findings.append(
          .error(
            "BadType", "'aps' must be a dictionary, not \(Self.kindName(view, apsIndex))",
            at: offset(view, apsIndex)))
      }
    } else if !aps.isMDM && view.tokens[root].count > 0 {
      var message = "no 'aps' dictionary: iOS shows nothing and does not wake the app"
      if let format = ForeignFormat.guess(view, root) {
        message = "no 'aps' dictionary: this looks like \(format), which has no notification in it"
      }
      findings.append(.warning("NoAps", message, at: offset(view, root)))
    }
    finishAPNs(payloadSize: payloadSize, sizeAt: sizeAt)
  }

  private enum RootKey: Sendable { case aps, payload, simulatorTarget, mdm }
  private static let rootKeys = KeyTable<RootKey>([
    ("aps", .aps), ("payload", .payload), ("Simulator Target Bundle", .simulatorTarget),
    ("mdm", .mdm),
  ])

  /// The values of the members of the object at `index` that decide how it is read, in one
  /// pass over its keys.
  private static func members(_ view: JSONView, _ index: Int) -> (
    aps: Int?, payload: Int?, simulatorTarget: Int?, mdm: Int?
  ) {
    var found: (aps: Int?, payload: Int?, simulatorTarget: Int?, mdm: Int?) = (nil, nil, nil, nil)
    view.forEachMember(of: index) { key, value in
      switch rootKeys.find(view, key) {
      case .aps: found.aps = value
      case .payload: found.payload = value
      case .simulatorTarget: found.simulatorTarget = value
      case .mdm: found.mdm = value
      case nil: break
      }
    }
    return found
  }

  // MARK: - Envelope

  struct Headers {
    var app: String?
    var receivedAt: Timestamp?
    var topic: String?
    var pushType: String?
    var priority: (value: Int64, at: Int)?
    var hasID = false
    /// A broadcast push's `apns-channel-id`, and where it is.
    var channelID: String?
    var channelIDAt = 0
  }

  private enum EnvelopeKey: Sendable { case headers, payload, app, receivedAt }
  private static let envelopeKeys = KeyTable<EnvelopeKey>([
    ("headers", .headers), ("payload", .payload), ("app", .app), ("received_at", .receivedAt),
  ])

  private enum HeaderKey: Sendable {
    case id, expiration, collapseID, priority, pushType, topic, channelID, requestID
  }
  private static let headerKeys = KeyTable<HeaderKey>([
    ("apns-id", .id), ("apns-expiration", .expiration), ("apns-collapse-id", .collapseID),
    ("apns-priority", .priority), ("apns-push-type", .pushType), ("apns-topic", .topic),
    ("apns-channel-id", .channelID), ("apns-request-id", .requestID),
  ])

  /// Reads the envelope at the root of `view`: its headers are APNs headers, or for a Web
  /// Push payload the RFC 8030 headers of the push service.
  private mutating func readEnvelope(_ view: JSONView, webPush: Bool) {
    view.forEachMember(of: 0) { key, value in
      switch Self.envelopeKeys.find(view, key) {
      case .payload: break
      case .headers:
        if view.kind(value) == .object {
          if webPush {
            readWebPushHeaders(view, value)
          } else {
            readHeaders(view, value)
          }
        } else {
          findings.append(
            .error(
              "BadEnvelope",
              "'headers' must be a dictionary of \(webPush ? "Web Push" : "APNs") headers",
              at: offset(view, value)))
        }
      case .app:
        if let app = view.stringValue(value), !app.isEmpty {
          headers.app = app
        } else {
          findings.append(
            .error(
              "BadEnvelope", "'app' must be a bundle identifier string", at: offset(view, value)))
        }
      case .receivedAt:
        readReceivedAt(view, value)
      case nil:
        findings.append(
          .warning(
            "UnknownEnvelopeKey",
            "unknown envelope key \(Self.quoted(view.string(key))): an envelope has headers, payload, app and received_at",
            at: offset(view, key)))
      }
    }
  }

  mutating func readReceivedAt(_ view: JSONView, _ value: Int) {
    if view.kind(value) == .string, !view.tokens[value].flag,
      let instant = Timestamp(rfc3339: view.rawString(value))
    {
      headers.receivedAt = instant
    } else if let text = view.stringValue(value) {
      do {
        headers.receivedAt = try Timestamp(rfc3339: text)
      } catch {
        findings.append(
          .error("BadEnvelope", "'received_at': \(error.message)", at: offset(view, value)))
      }
    } else if view.kind(value) == .number, view.tokens[value].flag {
      // An integer of any length: in the supported range, or an error that names the range.
      let digits = String(decoding: view.raw(value), as: UTF8.self)
      do {
        headers.receivedAt = try Timestamp.epochSeconds(digits[...], naming: digits)
      } catch {
        findings.append(
          .error("BadEnvelope", "'received_at': \(error.message)", at: offset(view, value)))
      }
    } else {
      findings.append(
        .error(
          "BadEnvelope", "'received_at' must be an RFC 3339 time or whole seconds since 1970",
          at: offset(view, value)))
    }
  }

  /// Reads the APNs headers in the object at `index`: an envelope's, or an FCM message's
  /// `apns.headers`.
  mutating func readHeaders(_ view: JSONView, _ index: Int) {
    view.forEachMember(of: index) { readHeader(view, $0, $1) }
  }

  private mutating func readHeader(_ view: JSONView, _ key: Int, _ value: Int) {
    let at = offset(view, value)
    switch Self.headerKeys.find(view, key) {
    case .id:
      if view.kind(value) == .string, Self.withText(view, value, Self.isUUID) {
        values[.id] = .input(value)
        headers.hasID = true
      } else {
        findings.append(
          .error(
            "BadMessageId", "'apns-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0",
            at: at))
      }
    case .expiration:
      if let digits = Self.overflowingDigits(view, value) {
        findings.append(
          .error("BadExpirationDate", "'apns-expiration' \(digits) is after the year 9999", at: at))
        return
      }
      guard let seconds = Self.headerInteger(view, value), seconds >= 0 else {
        findings.append(
          .error("BadExpirationDate", "'apns-expiration' must be whole seconds since 1970", at: at))
        return
      }
      if seconds > 0,
        let instant = epoch(seconds, key: "apns-expiration", code: "BadExpirationDate", at: at)
      {
        values[.expiresAt] = .time(instant)
      }
    case .collapseID:
      guard let id = view.stringValue(value) else {
        findings.append(.error("BadCollapseId", "'apns-collapse-id' must be a string", at: at))
        return
      }
      if id.utf8.count > 64 {
        findings.append(
          .error(
            "BadCollapseId",
            "'apns-collapse-id' is \(id.utf8.count) bytes; APNs accepts at most 64", at: at))
      } else {
        values[.collapseID] = .input(value)
      }
    case .priority:
      guard let priority = Self.headerInteger(view, value), [1, 5, 10].contains(priority) else {
        findings.append(.error("BadPriority", "'apns-priority' must be 10, 5 or 1", at: at))
        return
      }
      headers.priority = (priority, at)
      values[.priority] = .integer(priority)
    case .pushType:
      guard view.kind(value) == .string, let type = Self.pushTypeTable.find(view, value) else {
        findings.append(
          .error(
            "InvalidPushType",
            "'apns-push-type' \(Self.quotedValue(view, value)) is not one of \(Self.pushTypes.sorted().joined(separator: ", "))",
            at: at))
        return
      }
      headers.pushType = type
    case .topic:
      guard let topic = view.stringValue(value), !topic.isEmpty else {
        findings.append(
          .error("BadEnvelope", "'apns-topic' must be a bundle identifier string", at: at))
        return
      }
      headers.topic = topic
      values[.topic] = .input(value)
    case .channelID:
      // A broadcast channel: an identifier APNs made, base64 (Apple, "Sending broadcast push
      // notification requests to APNs").
      guard let channel = view.stringValue(value), !channel.isEmpty,
        channel.utf8.allSatisfy(Self.isBase64Byte)
      else {
        findings.append(
          .error(
            "BadChannelId",
            "'apns-channel-id' must be the base64 channel identifier APNs returned, not \(Self.quotedValue(view, value))",
            at: at))
        return
      }
      headers.channelID = channel
      headers.channelIDAt = at
    case .requestID:
      if view.kind(value) != .string || !Self.withText(view, value, Self.isUUID) {
        findings.append(
          .error(
            "BadMessageId",
            "'apns-request-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0",
            at: at))
      }
    case nil:
      findings.append(
        .warning(
          "UnknownHeader",
          "unknown header \(Self.quoted(view.string(key))): APNs headers are apns-id, apns-expiration, apns-collapse-id, apns-priority, apns-push-type, apns-topic, and for broadcasts apns-channel-id and apns-request-id",
          at: offset(view, key)))
    }
  }

  // MARK: - aps

  private struct ApsFacts {
    var isMDM = false
    var isLiveActivity = false
    var hasAlert = false
    var hasBadge = false
    var hasSound = false
    var contentAvailable = false
    var mutableContentAt: Int?  // where mutable-content: 1 is, to warn when there is no alert
    var contentChanged = false
    var otherKeys = false  // anything but content-available, for "background only"
  }

  private enum ApsKey: Sendable {
    case alert, badge, sound, threadID, category, contentAvailable, mutableContent
    case targetContentID, interruptionLevel, relevanceScore, filterCriteria
    case event, timestamp, staleDate, dismissalDate, contentState, attributes, attributesType
    case inputPushToken, inputPushChannel, urlArgs, contentChanged
    case summaryArg, summaryArgCount
  }
  private static let apsKeys = KeyTable<ApsKey>([
    ("alert", .alert), ("badge", .badge), ("sound", .sound), ("thread-id", .threadID),
    ("category", .category), ("content-available", .contentAvailable),
    ("mutable-content", .mutableContent), ("target-content-id", .targetContentID),
    ("interruption-level", .interruptionLevel), ("relevance-score", .relevanceScore),
    ("filter-criteria", .filterCriteria), ("event", .event), ("timestamp", .timestamp),
    ("stale-date", .staleDate), ("dismissal-date", .dismissalDate),
    ("content-state", .contentState), ("attributes", .attributes),
    ("attributes-type", .attributesType), ("input-push-token", .inputPushToken),
    ("input-push-channel", .inputPushChannel), ("url-args", .urlArgs),
    ("content-changed", .contentChanged), ("summary-arg", .summaryArg),
    ("summary-arg-count", .summaryArgCount),
  ])

  private mutating func readAps(_ view: JSONView, _ apsIndex: Int) {
    // Two passes: the first finds Live Activity keys, which change how others are read. Each
    // key is looked up once; the second pass takes its name from `apsNames`.
    let count = Int(view.tokens[apsIndex].count)
    if apsNames.count < count { apsNames = Array(repeating: nil, count: count) }
    var found = 0
    view.forEachMember(of: apsIndex) { key, _ in
      let name = Self.apsKeys.find(view, key)
      apsNames[found] = name
      found += 1
      switch name {
      case .event, .timestamp, .staleDate, .dismissalDate, .contentState, .attributes,
        .attributesType, .inputPushToken, .inputPushChannel:
        aps.isLiveActivity = true
      default: break
      }
    }
    if headers.pushType == "liveactivity" { aps.isLiveActivity = true }
    var alertIndex: Int? = nil
    var member = 0
    view.forEachMember(of: apsIndex) { key, value in
      let at = offset(view, value)
      let name = apsNames[member]
      member += 1
      if name != .contentAvailable { aps.otherKeys = true }
      switch name {
      case .alert:
        aps.hasAlert = true
        alertIndex = value
        switch view.kind(value) {
        case .string: values[.body] = .input(value)
        case .object: break  // read after the loop, once Live Activity keys are known
        default:
          findings.append(
            .error(
              "BadType",
              "'alert' must be a string or a dictionary, not \(Self.kindName(view, value))", at: at)
          )
        }
      case .badge:
        aps.hasBadge = true
        readBadge(view, value, "badge")
      case .sound:
        aps.hasSound = true
        readSound(view, value)
      case .threadID: string(view, key, value, into: .threadID)
      case .category: string(view, key, value, into: .category)
      case .targetContentID: string(view, key, value, into: .targetContentID)
      case .filterCriteria, .attributesType:
        string(view, key, value, into: nil)
      case .inputPushChannel:
        // Push-to-start into a broadcast channel: the channel's base64 identifier.
        if view.kind(value) != .string
          || !Self.withText(view, value, { !$0.isEmpty && $0.allSatisfy(Self.isBase64Byte) })
        {
          findings.append(
            .error(
              "BadChannelId",
              "'input-push-channel' must be a broadcast channel's base64 identifier, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .contentAvailable:
        let on = flag(view, value, "content-available")
        aps.contentAvailable = on
        values[.contentAvailable] = .bool(on)
      case .mutableContent:
        let on = flag(view, value, "mutable-content")
        values[.mutableContent] = .bool(on)
        if on { aps.mutableContentAt = offset(view, key) }
      case .interruptionLevel:
        interruptionLevel(view, value, spelled: "interruption-level", at: at)
      case .relevanceScore:
        guard let score = view.double(value) else {
          findings.append(.error("BadRelevanceScore", "'relevance-score' must be a number", at: at))
          return
        }
        if !aps.isLiveActivity && !(0...1).contains(score) {
          findings.append(
            .error(
              "BadRelevanceScore",
              "'relevance-score' \(Self.quotedValue(view, value)) is outside 0 to 1", at: at))
        } else {
          values[.relevance] = .input(value)
        }
      case .event:
        if view.kind(value) == .string, Self.eventTable.find(view, value) != nil {
          values[.event] = .input(value)
        } else {
          findings.append(
            .error(
              "BadType",
              "'event' must be start, update or end, not \(Self.quotedValue(view, value))", at: at))
        }
      case .timestamp: date(view, value, "timestamp", into: .timestamp)
      case .staleDate: date(view, value, "stale-date", into: .staleAt)
      case .dismissalDate: date(view, value, "dismissal-date", into: .dismissAt)
      case .contentState, .attributes:
        if view.kind(value) != .object {
          findings.append(
            .error("BadType", "\(Self.quoted(view.string(key))) must be a dictionary", at: at))
        }
      case .urlArgs:
        if !Self.isStringArray(view, value) {
          findings.append(.error("BadType", "'url-args' must be an array of strings", at: at))
        }
      case .contentChanged:
        // Apple's WidgetKit push example sends true; 1, as other flags take, is read the same.
        aps.contentChanged = true
        if view.bool(value) == nil && view.integer(value) != 1 {
          findings.append(
            .error(
              "BadType", "'content-changed' must be true, not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .inputPushToken:
        // Push-to-start asks for an update token with 1.
        _ = flag(view, value, "input-push-token")
      case .summaryArg, .summaryArgCount:
        findings.append(
          .warning(
            "MisplacedKey",
            "\(Self.quoted(view.string(key))) belongs inside 'alert'; iOS ignores it in 'aps'",
            at: offset(view, key)))
      case nil:
        findings.append(
          .warning(
            "CustomKeyInAps",
            "custom key \(Self.quoted(view.string(key))) inside 'aps': Apple reserves 'aps'; put custom keys beside it",
            at: offset(view, key)))
      }
    }
    if let alertIndex, view.kind(alertIndex) == .object {
      readAlert(view, alertIndex)
    }
  }

  private enum AlertKey: Sendable {
    case title, subtitle, body, launchImage, titleLocKey, titleLocArgs, subtitleLocKey
    case subtitleLocArgs, locKey, locArgs, actionLocKey, action, summaryArg, summaryArgCount
    case sound, threadID, contentAvailable
  }
  private static let alertKeys = KeyTable<AlertKey>([
    ("title", .title), ("subtitle", .subtitle), ("body", .body), ("launch-image", .launchImage),
    ("title-loc-key", .titleLocKey), ("title-loc-args", .titleLocArgs),
    ("subtitle-loc-key", .subtitleLocKey), ("subtitle-loc-args", .subtitleLocArgs),
    ("loc-key", .locKey), ("loc-args", .locArgs), ("action-loc-key", .actionLocKey),
    ("action", .action), ("summary-arg", .summaryArg), ("summary-arg-count", .summaryArgCount),
    ("sound", .sound), ("thread-id", .threadID), ("content-available", .contentAvailable),
  ])

  private mutating func readAlert(_ view: JSONView, _ alert: Int) {
    var hasText = false
    view.forEachMember(of: alert) { key, value in
      let at = offset(view, value)
      let name = Self.alertKeys.find(view, key)
      switch name {
      case .title where aps.isLiveActivity && view.kind(value) == .object,
        .body where aps.isLiveActivity && view.kind(value) == .object:
        // ActivityKit's alert: title and body may each be a localized string, a dictionary
        // with loc-key and loc-args (Apple, "Starting and updating Live Activities with
        // ActivityKit push notifications").
        hasText = true
        readLocalized(view, value, title: name == .title)
      case .title, .subtitle, .body, .titleLocKey, .subtitleLocKey, .locKey:
        hasText = true
        let field: RecordField
        switch name {
        case .title: field = .title
        case .subtitle: field = .subtitle
        case .body: field = .body
        case .titleLocKey: field = .titleLocKey
        case .subtitleLocKey: field = .subtitleLocKey
        default: field = .locKey
        }
        string(view, key, value, into: field)
      case .launchImage, .actionLocKey, .action:
        string(view, key, value, into: nil)
      case .titleLocArgs, .subtitleLocArgs, .locArgs:
        readLocArgs(
          view, key, value,
          into: name == .titleLocArgs
            ? .titleLocArgs : name == .subtitleLocArgs ? .subtitleLocArgs : .locArgs)
      case .summaryArg:
        string(view, key, value, into: .summaryArg)
      case .summaryArgCount:
        let range = FieldLimits.positive
        if let count = view.integer(value), range.contains(count) {
          values[.summaryArgCount] = .integer(count)
        } else {
          findings.append(
            .error(
              "BadSummaryArgCount",
              "'summary-arg-count' must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(Self.quotedValue(view, value))",
              at: at))
        }
      case .sound where aps.isLiveActivity:
        aps.hasSound = true
        if case .null = values[.sound] { readSound(view, value) }
      case .sound, .threadID, .contentAvailable:
        let where_ =
          name == .sound
          ? "directly in 'aps'; outside a Live Activity iOS ignores it inside 'alert'"
          : "directly in 'aps'; iOS ignores it inside 'alert'"
        findings.append(
          .warning(
            "MisplacedKey", "\(Self.quoted(view.string(key))) belongs \(where_)",
            at: offset(view, key)))
      case nil:
        findings.append(
          .warning(
            "UnknownKey", "unknown key \(Self.quoted(view.string(key))) in 'alert'",
            at: offset(view, key)))
      }
    }
    if !hasText {
      findings.append(
        .warning(
          "NoAlertText",
          "'alert' has no title, subtitle or body and no localization key: iOS shows nothing",
          at: offset(view, alert)))
    }
  }

  private enum LocalizedKey: Sendable { case locKey, locArgs }
  private static let localizedKeys = KeyTable<LocalizedKey>([
    ("loc-key", .locKey), ("loc-args", .locArgs),
  ])

  /// A Live Activity alert's title or body given as `{"loc-key": ..., "loc-args": [...]}`:
  /// its key and arguments go where `title-loc-key` and `loc-key` would put them.
  private mutating func readLocalized(_ view: JSONView, _ text: Int, title: Bool) {
    var hasKey = false
    view.forEachMember(of: text) { key, value in
      switch Self.localizedKeys.find(view, key) {
      case .locKey:
        hasKey = true
        string(view, key, value, into: title ? .titleLocKey : .locKey)
      case .locArgs:
        readLocArgs(view, key, value, into: title ? .titleLocArgs : .locArgs)
      case nil:
        findings.append(
          .warning(
            "UnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in a localized \(title ? "title" : "body")",
            at: offset(view, key)))
      }
    }
    if !hasKey {
      findings.append(
        .error(
          "BadType",
          "a Live Activity alert's \(title ? "title" : "body") must be a string or a dictionary with 'loc-key'",
          at: offset(view, text)))
    }
  }

  private enum SoundKey: Sendable { case name, critical, volume }
  private static let soundKeys = KeyTable<SoundKey>([
    ("name", .name), ("critical", .critical), ("volume", .volume),
  ])

  mutating func readSound(_ view: JSONView, _ sound: Int) {
    let at = offset(view, sound)
    switch view.kind(sound) {
    case .string:
      values[.sound] = .input(sound)
      values[.soundCritical] = .bool(false)
    case .object:
      var named = false
      view.forEachMember(of: sound) { key, value in
        let valueAt = offset(view, value)
        switch Self.soundKeys.find(view, key) {
        case .name:
          if view.kind(value) == .string {
            named = true
            values[.sound] = .input(value)
          } else {
            findings.append(.error("BadSound", "the sound's 'name' must be a string", at: valueAt))
          }
        case .critical:
          if let critical = view.integer(value), critical == 0 || critical == 1 {
            values[.soundCritical] = .bool(critical == 1)
          } else if let critical = view.bool(value) {
            values[.soundCritical] = .bool(critical)
            findings.append(
              .warning(
                "BoolForNumber",
                "the sound's 'critical' is \(critical); Apple documents \(critical ? 1 : 0)",
                at: valueAt))
          } else {
            findings.append(
              .error("BadSound", "the sound's 'critical' must be 0 or 1", at: valueAt))
          }
        case .volume:
          if let volume = view.double(value), (0...1).contains(volume) {
            values[.soundVolume] = .input(value)
          } else {
            findings.append(
              .error(
                "BadSound",
                "the sound's 'volume' must be a number from 0 to 1, not \(Self.quotedValue(view, value))",
                at: valueAt))
          }
        case nil:
          findings.append(
            .warning(
              "UnknownKey", "unknown key \(Self.quoted(view.string(key))) in 'sound'",
              at: offset(view, key)))
        }
      }
      if !named {
        findings.append(.error("BadSound", "a sound dictionary needs a 'name'", at: at))
      }
    default:
      findings.append(
        .error(
          "BadSound", "'sound' must be a sound name or a dictionary with name, critical and volume",
          at: at))
    }
  }

  // MARK: - Values

  /// A badge: a whole number from 0 to `maximum` (`FieldLimits.tally`, what every reader of
  /// the record holds exactly, unless the format allows less), into `badge`; else a `BadBadge`
  /// error naming `key`.
  mutating func readBadge(
    _ view: JSONView, _ value: Int, _ key: String, maximum: Int64 = FieldLimits.largest
  ) {
    if let badge = view.integer(value), badge >= 0, badge <= maximum {
      values[.badge] = .integer(badge)
    } else {
      findings.append(Self.badBadge(view, value, key, maximum: maximum, at: offset(view, value)))
    }
  }

  /// The `BadBadge` error of a badge `key` that is not a whole number from 0 to `maximum`.
  static func badBadge(_ view: JSONView, _ value: Int, _ key: String, maximum: Int64, at: Int)
    -> Finding
  {
    .error(
      "BadBadge",
      "\(quoted(key)) must be a whole number from 0 to \(maximum), not \(quotedValue(view, value))",
      at: at)
  }

  /// True or false, into `field` if one is given; else a `BadType` error naming `key`.
  mutating func readBool(_ view: JSONView, _ key: Int, _ value: Int, into field: RecordField? = nil)
  {
    if let on = view.bool(value) {
      if let field { values[field] = .bool(on) }
    } else {
      findings.append(
        .error(
          "BadType", "\(Self.quoted(view.string(key))) must be true or false",
          at: offset(view, value)))
    }
  }

  /// Localization arguments (`loc-args`, `body_loc_args`, ... as the format spells `key`): an
  /// array of strings, into `field`; else a `BadLocArgs` error.
  mutating func readLocArgs(_ view: JSONView, _ key: Int, _ value: Int, into field: RecordField) {
    if Self.isStringArray(view, value) {
      values[field] = .input(value)
    } else {
      findings.append(
        .error(
          "BadLocArgs", "\(Self.quoted(view.string(key))) must be an array of strings",
          at: offset(view, value)))
    }
  }

  mutating func string(_ view: JSONView, _ key: Int, _ value: Int, into field: RecordField?) {
    guard view.kind(value) == .string else {
      findings.append(
        .error(
          "BadType",
          "\(Self.quoted(view.string(key))) must be a string, not \(Self.kindName(view, value))",
          at: offset(view, value)))
      return
    }
    if let field { values[field] = .input(value) }
  }

  /// Reads an interruption level (`key`, as the format spells it): passive, active,
  /// time-sensitive or critical, as APNs and Expo take them.
  mutating func interruptionLevel(_ view: JSONView, _ value: Int, spelled key: String, at: Int) {
    if view.kind(value) == .string, Self.interruptionLevelTable.find(view, value) != nil {
      values[.interruptionLevel] = .input(value)
    } else {
      findings.append(
        .error(
          "BadInterruptionLevel",
          "'\(key)' \(Self.quotedValue(view, value)) is not passive, active, time-sensitive or critical",
          at: at))
    }
  }

  /// Reads content-available or mutable-content: Apple documents 1 (and absent for off).
  mutating func flag(_ view: JSONView, _ value: Int, _ key: String) -> Bool {
    let at = offset(view, value)
    if let number = view.integer(value), number == 0 || number == 1 {
      return number == 1
    }
    if let on = view.bool(value) {
      let advice = on ? "Apple documents 1" : "Apple documents 1 for on; leave the key out for off"
      findings.append(.warning("BoolForNumber", "\(Self.quoted(key)) is \(on); \(advice)", at: at))
      return on
    }
    findings.append(
      .error(
        "BadType", "\(Self.quoted(key)) must be 1, not \(Self.quotedValue(view, value))", at: at))
    return false
  }

  mutating func date(_ view: JSONView, _ value: Int, _ key: String, into field: RecordField) {
    let at = offset(view, value)
    if view.kind(value) == .number, let digits = Self.overflowingDigits(view, value) {
      findings.append(
        .error("BadDate", "\(Self.quoted(key)) \(digits) is after the year 9999", at: at))
      return
    }
    guard let seconds = view.integer(value), seconds >= 0 else {
      findings.append(
        .error(
          "BadDate",
          "\(Self.quoted(key)) must be whole seconds since 1970, not \(Self.quotedValue(view, value))",
          at: at))
      return
    }
    if let instant = epoch(seconds, key: key, code: "BadDate", at: at) {
      values[field] = .time(instant)
    }
  }

  /// An epoch-seconds value as an instant; a 13-digit value is flagged, never guessed.
  mutating func epoch(_ seconds: Int64, key: String, code: String, at: Int) -> Timestamp? {
    if seconds >= 1_000_000_000_000 && seconds < 10_000_000_000_000 {
      findings.append(
        .warning(
          "ProbableMilliseconds",
          "\(Self.quoted(key)) \(seconds) has 13 digits: probably milliseconds, not seconds; left null",
          at: at))
      return nil
    }
    let instant = Timestamp(seconds: seconds)
    guard instant.isWritable else {
      findings.append(.error(code, "\(Self.quoted(key)) \(seconds) is after the year 9999", at: at))
      return nil
    }
    return instant
  }

  // MARK: - Checks across keys, and the derived fields

  /// The APNs checks across keys, and the push type: `payloadSize` is the size of the APNs
  /// payload written compact, reported at `sizeAt`.
  private mutating func finishAPNs(payloadSize: Int, sizeAt: Int = 0) {
    var pushType = headers.pushType ?? defaults.pushType
    let backgroundOnly = aps.contentAvailable && !aps.otherKeys
    if pushType == nil {
      if aps.isMDM {
        pushType = "mdm"
      } else if aps.isLiveActivity {
        pushType = "liveactivity"
      } else if aps.contentChanged {
        pushType = "widgets"
      } else if aps.hasAlert || aps.hasBadge || aps.hasSound {
        pushType = "alert"
      } else if backgroundOnly {
        pushType = "background"
      }
    }
    if let pushType { values.set(.pushType, text: pushType) }

    if let at = aps.mutableContentAt, !aps.hasAlert {
      findings.append(
        .warning(
          "MutableContentWithoutAlert",
          "'mutable-content' without an 'alert': iOS runs the notification service extension only for alerts",
          at: at))
    }
    if let priority = headers.priority, priority.value == 10,
      pushType == "background" || backgroundOnly
    {
      findings.append(
        .error(
          "BadPriority", "priority 10 is not allowed for a background push: use 5", at: priority.at)
      )
    }
    if headers.channelID != nil && pushType != "liveactivity" {
      findings.append(
        .error(
          "BadChannelId",
          "'apns-channel-id' is for broadcast Live Activity updates: the push type must be liveactivity, not '\(pushType ?? "alert")'",
          at: headers.channelIDAt))
    }
    let limit = pushType == "voip" ? 5120 : 4096
    if payloadSize > limit {
      findings.append(
        .error(
          "PayloadTooLarge",
          "the payload is \(payloadSize) bytes; APNs accepts at most \(limit) for \(pushType ?? "alert") pushes",
          at: sizeAt))
    }
  }

  /// The fields every record has, from what the format's reader found.
  private mutating func finish(_ view: JSONView, simulatorApp: String?) {
    var app = headers.app
    if app == nil, let topic = headers.topic {
      app = topic
      for suffix in Self.topicSuffixes where topic.hasSuffix(suffix) {
        app = String(topic.dropLast(suffix.count))
        break
      }
    }
    app = app ?? simulatorApp ?? impliedApp ?? defaults.app
    if let app { values.set(.app, text: app) }

    let createdAt = headers.receivedAt ?? eventTime ?? defaults.now
    values[.createdAt] = .time(createdAt)
    if let timeToLive, timeToLive > 0, case .null = values[.expiresAt] {
      let (seconds, overflow) = createdAt.seconds.addingReportingOverflow(timeToLive)
      let expiresAt = Timestamp(seconds: seconds, nanoseconds: createdAt.nanoseconds)
      if !overflow && expiresAt.isWritable { values[.expiresAt] = .time(expiresAt) }
    }
    if case .null = values[.summaryArgCount] { values[.summaryArgCount] = .integer(1) }
    if case .null = values[.contentAvailable] { values[.contentAvailable] = .bool(false) }
    if case .null = values[.mutableContent] { values[.mutableContent] = .bool(false) }
    if case .null = values[.soundCritical] { values[.soundCritical] = .bool(false) }
    values[.source] = .source(source)
    if !headers.hasID, case .null = values[.id] {
      values[.id] = .hash(Self.stableID(app: app, receivedAt: headers.receivedAt, payload: payload))
    }
  }

  /// A 64-bit hash of the app, the envelope's received_at and the compact payload: the same
  /// notification parsed again gets the same id.
  static func stableID(app: String?, receivedAt: Timestamp?, payload: ByteBuffer) -> UInt64 {
    var hasher = StableHasher()
    var app = app ?? ""
    app.withUTF8 { hasher.combine(UnsafeRawBufferPointer($0)) }
    if let receivedAt {
      var text = ByteBuffer(capacity: 32)
      receivedAt.write(into: &text)
      text.withUnsafeBytes { hasher.combine($0) }
    }
    payload.withUnsafeBytes { hasher.combine($0) }
    return hasher.finalize()
  }

  // MARK: - Helpers

  func offset(_ view: JSONView, _ index: Int) -> Int { Int(view.tokens[index].start) }

  /// Calls `body` with the decoded UTF-8 bytes of the string at `index`: its raw bytes when it
  /// has no escape, so that no string is built.
  static func withText<R>(
    _ view: JSONView, _ index: Int, _ body: (UnsafeRawBufferPointer) -> R
  ) -> R {
    guard view.tokens[index].flag else { return body(view.rawString(index)) }
    var text = view.string(index)
    return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
  }

  /// Whether `byte` may appear in base64 text (RFC 4648, either alphabet, with padding).
  static func isBase64Byte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
      UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="):
      return true
    default:
      return false
    }
  }

  static func isUUID(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { isUUID(UnsafeRawBufferPointer($0)) }
  }

  static func isUUID(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count == 36 else { return false }
    for (i, byte) in bytes.enumerated() {
      if i == 8 || i == 13 || i == 18 || i == 23 {
        if byte != UInt8(ascii: "-") { return false }
      } else if !(byte >= 0x30 && byte <= 0x39) && !(byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) {
        return false
      }
    }
    return true
  }

  /// A header value that may be a number or, as on the wire, a string of digits.
  static func headerInteger(_ view: JSONView, _ value: Int) -> Int64? {
    if let number = view.integer(value) { return number }
    guard view.kind(value) == .string else { return nil }
    return withText(view, value) { digits -> Int64? in
      guard !digits.isEmpty else { return nil }
      var number: Int64 = 0
      for byte in digits {
        guard byte >= 0x30 && byte <= 0x39 else { return nil }
        let (times10, o1) = number.multipliedReportingOverflow(by: 10)
        let (sum, o2) = times10.addingReportingOverflow(Int64(byte - 0x30))
        if o1 || o2 { return nil }
        number = sum
      }
      return number
    }
  }

  /// The digits of a whole number of seconds too big for 64 bits (a JSON integer, or a string of
  /// digits as headers are on the wire): a time past the year 9999, not a malformed one.
  static func overflowingDigits(_ view: JSONView, _ value: Int) -> String? {
    let digits: String
    switch view.kind(value) {
    case .number: digits = String(decoding: view.raw(value), as: UTF8.self)
    case .string: digits = view.string(value)
    default: return nil
    }
    guard digits.utf8.count > 18, digits.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") <= 9 }),
      Int64(digits) == nil
    else { return nil }
    return digits
  }

  static func isStringArray(_ view: JSONView, _ value: Int) -> Bool {
    guard view.kind(value) == .array else { return false }
    var allStrings = true
    view.forEachElement(of: value) { if view.kind($0) != .string { allStrings = false } }
    return allStrings
  }

  static func kindName(_ view: JSONView, _ index: Int) -> String {
    switch view.kind(index) {
    case .object: return "a dictionary"
    case .array: return "an array"
    case .string: return "a string"
    case .number: return "a number"
    case .bool: return "a boolean"
    case .null: return "null"
    }
  }

  static func quoted(_ text: String) -> String { "'\(text)'" }

  /// The value as written, shortened, in quotes: `'"1"'`, `'true'`.
  static func quotedValue(_ view: JSONView, _ index: Int) -> String {
    var out = ByteBuffer(capacity: 64)
    JSONWriter.writeCompact(view, index, into: &out)
    var text = out.text
    if text.count > 40 { text = String(text.prefix(37)) + "..." }
    return "'\(text)'"
  }
}
