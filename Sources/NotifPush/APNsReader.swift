import NotifJSON
import NotifModel

/// Reads APNs payloads and their headers by Apple's rules (notif-rules(7), "APNs"): a bare
/// payload, a simulator `.apns` file, an envelope's payload, and the APNs payloads inside FCM
/// messages (`apns.payload`) and SNS messages (`APNS`, `APNS_SANDBOX`, ...).
///
/// APNs refuses a request for its headers, an empty payload and its size (Apple, "Handling
/// notification responses from APNs"): those are errors. It does not look inside `aps`: a
/// value of the wrong type or range there is delivered, and the device ignores or misreads it,
/// so each such rule is a warning that says what the device does (`Effect.device`). SNS passes
/// the payload on to APNs as it is, so the same holds for its; FCM does too, but first refuses
/// an `apns.payload` without `aps`, or whose `aps` is no dictionary or an empty one (`viaFCM`).
public enum APNsReader: FormatReader {
  public static let pushTypes: Set<String> = [
    "alert", "background", "location", "voip", "complication", "fileprovider", "mdm",
    "liveactivity", "pushtotalk", "widgets", "controls",
  ]
  // The set as a key table, to look a value up by its bytes: no string built.
  private static let pushTypeTable = KeyTable(pushTypes.map { ($0, $0) })
  private static let eventTable = KeyTable([("start", 0), ("update", 1), ("end", 2)])

  // What the device does with a value of the wrong type or range in `aps`, which APNs
  // delivers: the ends of the warnings.
  private static let ignoresKey = Effect.device("iOS ignores the key")
  private static let ignoresDate = Effect.device("ActivityKit ignores the date")
  private static let withoutIt = Effect.device("iOS shows the alert without it")
  private static let unlocalized = Effect.device("iOS cannot fill in the localized text")
  private static let noSound = Effect.device("iOS plays no sound")
  private static let unread = Effect.device("iOS does not read it")
  private static let noLiveText = Effect.device("ActivityKit shows no alert text")

  /// The APNs rules on the payload at `root` of `view` (`payloadSize` bytes written compact),
  /// with the headers already read: the bare payloads, envelopes and `.apns` files, and the
  /// APNs payloads inside FCM and SNS messages.
  static func read(
    _ view: JSONView, payload root: Int, payloadSize: Int, mdm: Bool, sizeAt: Int = 0,
    viaFCM: Bool = false, into m: inout MessageReader
  ) {
    read(
      view, payload: root, aps: view.member(root, "aps"), payloadSize: payloadSize, mdm: mdm,
      sizeAt: sizeAt, viaFCM: viaFCM, into: &m)
  }

  /// `read` with the payload's `aps` already found (nil: it has none).
  ///
  /// `viaFCM` reads an FCM message's `apns.payload`, which FCM checks itself before it hands
  /// it to APNs: it refuses a payload without `aps`, and an `aps` that is no dictionary or an
  /// empty one (`fcm-apns-no-aps`, `fcm-apns-aps-type`), where APNs takes the payload.
  static func read(
    _ view: JSONView, payload root: Int, aps apsMember: Int?, payloadSize: Int, mdm: Bool,
    sizeAt: Int = 0, viaFCM: Bool = false, into m: inout MessageReader
  ) {
    if view.tokens[root].count == 0 && !viaFCM {
      m.error(.apnsEmptyObject, "the payload is empty: APNs rejects '{}'", at: m.offset(view, root))
    }
    m.aps = Facts()
    m.aps.isMDM = mdm
    if let apsIndex = apsMember {
      if view.kind(apsIndex) == .object {
        if viaFCM && view.tokens[apsIndex].count == 0 && !m.alertElsewhere {
          m.error(
            .fcmApnsApsType,
            "'apns.payload.aps' is empty and no 'notification' fills its alert: FCM answers 400 INVALID_ARGUMENT (aps must be a dictionary that is not empty)",
            at: m.offset(view, apsIndex))
        }
        readAps(view, apsIndex, into: &m)
      } else if viaFCM {
        m.error(
          .fcmApnsApsType,
          "'apns.payload.aps' must be a dictionary, not \(Self.kindName(view, apsIndex)): FCM answers 400 INVALID_ARGUMENT",
          at: m.offset(view, apsIndex))
      } else {
        m.report(
          .device("iOS shows nothing and does not wake the app"), .apnsApsType,
          "'aps' must be a dictionary, not \(Self.kindName(view, apsIndex))",
          at: m.offset(view, apsIndex))
      }
    } else if viaFCM {
      m.error(
        .fcmApnsNoAps,
        "'apns.payload' has no 'aps' dictionary: FCM answers 400 INVALID_ARGUMENT, where APNs would take the payload",
        at: m.offset(view, root))
    } else if !m.aps.isMDM && view.tokens[root].count > 0 {
      if let message = view.member(root, "message") ?? slippedMessage(view, root),
        view.kind(message) != .object
      {
        // `{"message": "..."}`: a bare payload with a key of the app's own, or an FCM request
        // whose message is no dictionary. Neither reading is plainly the one meant.
        m.warning(
          .apnsOrFcm,
          "no 'aps' dictionary, and a 'message' that is \(Self.kindName(view, message)): as a bare APNs payload iOS shows nothing; as an FCM HTTP v1 request, FCM answers 400 INVALID_ARGUMENT ('message' must be a dictionary)",
          at: m.offset(view, root))
      } else {
        var message = "no 'aps' dictionary: iOS shows nothing and does not wake the app"
        if let format = ForeignFormat.guess(view, root) {
          message =
            "no 'aps' dictionary: this looks like \(format), which has no notification in it"
        }
        m.warning(.apnsNoAps, message, at: m.offset(view, root))
      }
    }
    finish(payloadSize: payloadSize, sizeAt: sizeAt, into: &m)
  }

  /// The value of the first key of the object at `root` that is `message` in another case.
  private static func slippedMessage(_ view: JSONView, _ root: Int) -> Int? {
    var found: Int?
    view.forEachMember(of: root) { key, value in
      if found == nil && PushFormat.slip(view, key) == .message && !view.keyEquals(key, "message") {
        found = value
      }
    }
    return found
  }

  // MARK: - Headers

  private enum HeaderKey: Sendable {
    case id, expiration, collapseID, priority, pushType, topic, channelID, requestID
  }
  private static let headerKeys = KeyTable<HeaderKey>([
    ("apns-id", .id), ("apns-expiration", .expiration), ("apns-collapse-id", .collapseID),
    ("apns-priority", .priority), ("apns-push-type", .pushType), ("apns-topic", .topic),
    ("apns-channel-id", .channelID), ("apns-request-id", .requestID),
  ])

  /// Reads the APNs headers in the object at `index`: an envelope's, or an FCM message's
  /// `apns.headers`.
  static func readHeaders(_ view: JSONView, _ index: Int, into m: inout MessageReader) {
    view.forEachMember(of: index) { readHeader(view, $0, $1, into: &m) }
  }

  private static func readHeader(
    _ view: JSONView, _ key: Int, _ value: Int, into m: inout MessageReader
  ) {
    let at = m.offset(view, value)
    switch headerKeys.find(view, key) {
    case .id:
      if view.kind(value) == .string, Self.withText(view, value, Self.isUUID) {
        m.values[.id] = .input(value)
        m.headers.hasID = true
      } else {
        m.error(
          .apnsId, "'apns-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0",
          at: at)
      }
    case .expiration:
      if let digits = Self.overflowingDigits(view, value) {
        m.error(.apnsExpiration, "'apns-expiration' \(digits) is after the year 9999", at: at)
        return
      }
      guard let seconds = Self.headerInteger(view, value), seconds >= 0 else {
        m.error(.apnsExpiration, "'apns-expiration' must be whole seconds since 1970", at: at)
        return
      }
      if seconds > 0,
        let instant = m.epoch(
          seconds, key: "apns-expiration", .apnsExpiration, milliseconds: .apnsMilliseconds, at: at)
      {
        m.values[.expiresAt] = .time(instant)
      }
    case .collapseID:
      guard let id = view.stringValue(value) else {
        m.error(.apnsCollapseId, "'apns-collapse-id' must be a string", at: at)
        return
      }
      guard id.utf8.count <= 64 else {
        m.error(
          .apnsCollapseId,
          "'apns-collapse-id' is \(id.utf8.count) bytes; APNs accepts at most 64", at: at)
        return
      }
      m.values[.collapseID] = .input(value)
    case .priority:
      guard let priority = Self.headerInteger(view, value), [1, 5, 10].contains(priority) else {
        m.error(.apnsPriority, "'apns-priority' must be 10, 5 or 1", at: at)
        return
      }
      m.headers.priority = (priority, at)
      m.values[.priority] = .integer(priority)
    case .pushType:
      guard view.kind(value) == .string, let type = pushTypeTable.find(view, value) else {
        m.error(
          .apnsPushType,
          "'apns-push-type' \(Self.quotedValue(view, value)) is not one of \(pushTypes.sorted().joined(separator: ", "))",
          at: at)
        return
      }
      m.headers.pushType = type
    case .topic:
      guard let topic = view.stringValue(value), !topic.isEmpty else {
        m.error(.apnsTopic, "'apns-topic' must be a bundle identifier string", at: at)
        return
      }
      m.headers.topic = topic
      m.values[.topic] = .input(value)
    case .channelID:
      // A broadcast channel: an identifier APNs made, base64 (Apple, "Sending broadcast push
      // notification requests to APNs").
      guard let channel = view.stringValue(value), !channel.isEmpty,
        channel.utf8.allSatisfy(Self.isBase64Byte)
      else {
        m.error(
          .apnsChannelId,
          "'apns-channel-id' must be the base64 channel identifier APNs returned, not \(Self.quotedValue(view, value))",
          at: at)
        return
      }
      m.headers.channelID = channel
      m.headers.channelIDAt = at
    case .requestID:
      if view.kind(value) != .string || !Self.withText(view, value, Self.isUUID) {
        m.error(
          .apnsRequestId,
          "'apns-request-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0",
          at: at)
      }
    case nil:
      m.warning(
        .apnsUnknownHeader,
        "unknown header \(Self.quoted(view.string(key))): APNs headers are apns-id, apns-expiration, apns-collapse-id, apns-priority, apns-push-type, apns-topic, and for broadcasts apns-channel-id and apns-request-id",
        at: m.offset(view, key))
    }
  }

  // MARK: - aps

  /// What the `aps` dictionary of the payload being read holds, for the checks across keys.
  struct Facts {
    var isMDM = false
    var isLiveActivity = false
    var hasAlert = false
    var hasBadge = false
    var hasSound = false
    var contentAvailable = false
    var mutableContentAt: Int?  // where mutable-content: 1 is, to warn when there is no alert
    var contentChanged = false
    var otherKeys = false  // anything but content-available, for "background only"
    var apsAt: Int?  // where the aps dictionary read is
  }

  enum ApsKey: Sendable {
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

  private static func readAps(_ view: JSONView, _ apsIndex: Int, into m: inout MessageReader) {
    // Two passes: the first finds Live Activity keys, which change how others are read. Each
    // key is looked up once; the second pass takes its name from `apsNames`.
    m.aps.apsAt = m.offset(view, apsIndex)
    let count = Int(view.tokens[apsIndex].count)
    if m.apsNames.count < count { m.apsNames = Array(repeating: nil, count: count) }
    var found = 0
    view.forEachMember(of: apsIndex) { key, _ in
      let name = apsKeys.find(view, key)
      m.apsNames[found] = name
      found += 1
      switch name {
      case .event, .timestamp, .staleDate, .dismissalDate, .contentState, .attributes,
        .attributesType, .inputPushToken, .inputPushChannel:
        m.aps.isLiveActivity = true
      default: break
      }
    }
    if m.headers.pushType == "liveactivity" { m.aps.isLiveActivity = true }
    var alertIndex: Int? = nil
    var member = 0
    view.forEachMember(of: apsIndex) { key, value in
      let at = m.offset(view, value)
      let name = m.apsNames[member]
      member += 1
      if name != .contentAvailable { m.aps.otherKeys = true }
      switch name {
      case .alert:
        m.aps.hasAlert = true
        alertIndex = value
        switch view.kind(value) {
        case .string: m.values[.body] = .input(value)
        case .object: break  // read after the loop, once Live Activity keys are known
        default:
          m.report(
            .device("iOS shows no alert"), .apnsAlertType,
            "'alert' must be a string or a dictionary, not \(Self.kindName(view, value))", at: at)
        }
      case .badge:
        m.aps.hasBadge = true
        m.readBadge(view, value, "badge", .apnsBadge, .device("iOS sets no badge"))
      case .sound:
        m.aps.hasSound = true
        readSound(view, value, into: &m)
      case .threadID: m.string(view, key, value, into: .threadID, .apnsStrings, ignoresKey)
      case .category: m.string(view, key, value, into: .category, .apnsStrings, ignoresKey)
      case .targetContentID:
        m.string(view, key, value, into: .targetContentID, .apnsStrings, ignoresKey)
      case .filterCriteria, .attributesType:
        m.string(view, key, value, into: nil, .apnsStrings, ignoresKey)
      case .inputPushChannel:
        // Push-to-start into a broadcast channel: the channel's base64 identifier.
        if view.kind(value) != .string
          || !Self.withText(view, value, { !$0.isEmpty && $0.allSatisfy(Self.isBase64Byte) })
        {
          m.report(
            .device("ActivityKit starts no broadcast Live Activity"), .apnsInputPushChannel,
            "'input-push-channel' must be a broadcast channel's base64 identifier, not \(Self.quotedValue(view, value))",
            at: at)
        }
      case .contentAvailable:
        let on = m.flag(
          view, value, "content-available", .apnsFlagsType,
          .device("iOS does not wake the app for it"))
        m.aps.contentAvailable = on
        m.values[.contentAvailable] = .bool(on)
      case .mutableContent:
        let on = m.flag(
          view, value, "mutable-content", .apnsFlagsType,
          .device("iOS does not run the notification service extension"))
        m.values[.mutableContent] = .bool(on)
        if on { m.aps.mutableContentAt = m.offset(view, key) }
      case .interruptionLevel:
        m.interruptionLevel(
          view, value, spelled: "interruption-level", at: at, .apnsInterruptionLevel,
          .device("iOS uses active"))
      case .relevanceScore:
        let unranked = Effect.device("iOS ranks the notification without it")
        guard let score = view.double(value) else {
          m.report(unranked, .apnsRelevanceScore, "'relevance-score' must be a number", at: at)
          return
        }
        if !m.aps.isLiveActivity && !(0...1).contains(score) {
          m.report(
            unranked, .apnsRelevanceScore,
            "'relevance-score' \(Self.quotedValue(view, value)) is outside 0 to 1", at: at)
        } else {
          m.values[.relevance] = .input(value)
        }
      case .event:
        if view.kind(value) == .string, eventTable.find(view, value) != nil {
          m.values[.event] = .input(value)
        } else {
          m.report(
            .device("ActivityKit ignores the update"), .apnsEvent,
            "'event' must be start, update or end, not \(Self.quotedValue(view, value))", at: at)
        }
      case .timestamp:
        m.date(
          view, value, "timestamp", into: .timestamp, .apnsDates, milliseconds: .apnsMilliseconds,
          ignoresDate)
      case .staleDate:
        m.date(
          view, value, "stale-date", into: .staleAt, .apnsDates, milliseconds: .apnsMilliseconds,
          ignoresDate)
      case .dismissalDate:
        m.date(
          view, value, "dismissal-date", into: .dismissAt, .apnsDates,
          milliseconds: .apnsMilliseconds, ignoresDate)
      case .contentState, .attributes:
        if view.kind(value) != .object {
          m.report(
            .device("ActivityKit ignores the update"), .apnsContentState,
            "\(Self.quoted(view.string(key))) must be a dictionary", at: at)
        }
      case .urlArgs:
        if !Self.isStringArray(view, value) {
          m.report(
            .device("Safari cannot fill in the website push's URL"), .apnsUrlArgs,
            "'url-args' must be an array of strings", at: at)
        }
      case .contentChanged:
        // Apple's WidgetKit push example sends true; 1, as other flags take, is read the same.
        m.aps.contentChanged = true
        if view.bool(value) == nil && view.integer(value) != 1 {
          m.report(
            .device("WidgetKit reloads no widget"), .apnsContentChanged,
            "'content-changed' must be true, not \(Self.quotedValue(view, value))", at: at)
        }
      case .inputPushToken:
        // Push-to-start asks for an update token with 1.
        _ = m.flag(
          view, value, "input-push-token", .apnsFlagsType,
          .device("ActivityKit sends no push token for it"))
      case .summaryArg, .summaryArgCount:
        m.warning(
          .apnsAlertMisplaced,
          "\(Self.quoted(view.string(key))) belongs inside 'alert'; iOS ignores it in 'aps'",
          at: m.offset(view, key))
      case nil:
        m.warning(
          .apnsCustomInAps,
          "custom key \(Self.quoted(view.string(key))) inside 'aps': Apple reserves 'aps'; put custom keys beside it",
          at: m.offset(view, key))
      }
    }
    if let alertIndex, view.kind(alertIndex) == .object {
      readAlert(view, alertIndex, into: &m)
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

  private static func readAlert(_ view: JSONView, _ alert: Int, into m: inout MessageReader) {
    var hasText = false
    view.forEachMember(of: alert) { key, value in
      let at = m.offset(view, value)
      let name = alertKeys.find(view, key)
      switch name {
      case .title where m.aps.isLiveActivity && view.kind(value) == .object,
        .body where m.aps.isLiveActivity && view.kind(value) == .object:
        // ActivityKit's alert: title and body may each be a localized string, a dictionary
        // with loc-key and loc-args (Apple, "Starting and updating Live Activities with
        // ActivityKit push notifications").
        hasText = true
        readLocalized(view, value, title: name == .title, into: &m)
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
        m.string(view, key, value, into: field, .apnsAlertStrings, withoutIt)
      case .launchImage, .actionLocKey, .action:
        m.string(view, key, value, into: nil, .apnsAlertStrings, withoutIt)
      case .titleLocArgs, .subtitleLocArgs, .locArgs:
        m.readLocArgs(
          view, key, value,
          into: name == .titleLocArgs
            ? .titleLocArgs : name == .subtitleLocArgs ? .subtitleLocArgs : .locArgs, .apnsLocArgs,
          unlocalized)
      case .summaryArg:
        m.string(view, key, value, into: .summaryArg, .apnsAlertStrings, withoutIt)
      case .summaryArgCount:
        let range = FieldLimits.positive
        guard let count = view.integer(value), range.contains(count) else {
          m.report(
            .device("iOS counts the notification once"), .apnsSummaryArgCount,
            "'summary-arg-count' must be a whole number from \(range.lowerBound) to \(range.upperBound), not \(Self.quotedValue(view, value))",
            at: at)
          return
        }
        m.values[.summaryArgCount] = .integer(count)
      case .sound where m.aps.isLiveActivity:
        m.aps.hasSound = true
        if case .null = m.values[.sound] { readSound(view, value, into: &m) }
      case .sound, .threadID, .contentAvailable:
        let where_ =
          name == .sound
          ? "directly in 'aps'; outside a Live Activity iOS ignores it inside 'alert'"
          : "directly in 'aps'; iOS ignores it inside 'alert'"
        m.warning(
          .apnsAlertMisplaced, "\(Self.quoted(view.string(key))) belongs \(where_)",
          at: m.offset(view, key))
      case nil:
        m.warning(
          .apnsAlertUnknown, "unknown key \(Self.quoted(view.string(key))) in 'alert'",
          at: m.offset(view, key))
      }
    }
    if !hasText {
      m.warning(
        .apnsAlertNoText,
        "'alert' has no title, subtitle or body and no localization key: iOS shows nothing",
        at: m.offset(view, alert))
    }
  }

  private enum LocalizedKey: Sendable { case locKey, locArgs }
  private static let localizedKeys = KeyTable<LocalizedKey>([
    ("loc-key", .locKey), ("loc-args", .locArgs),
  ])

  /// A Live Activity alert's title or body given as `{"loc-key": ..., "loc-args": [...]}`:
  /// its key and arguments go where `title-loc-key` and `loc-key` would put them.
  private static func readLocalized(
    _ view: JSONView, _ text: Int, title: Bool, into m: inout MessageReader
  ) {
    var hasKey = false
    view.forEachMember(of: text) { key, value in
      switch localizedKeys.find(view, key) {
      case .locKey:
        hasKey = true
        m.string(
          view, key, value, into: title ? .titleLocKey : .locKey, .apnsLiveActivityLocalized,
          noLiveText)
      case .locArgs:
        m.readLocArgs(
          view, key, value, into: title ? .titleLocArgs : .locArgs, .apnsLocArgs, unlocalized)
      case nil:
        m.warning(
          .apnsAlertUnknown,
          "unknown key \(Self.quoted(view.string(key))) in a localized \(title ? "title" : "body")",
          at: m.offset(view, key))
      }
    }
    if !hasKey {
      m.report(
        noLiveText, .apnsLiveActivityLocalized,
        "a Live Activity alert's \(title ? "title" : "body") must be a string or a dictionary with 'loc-key'",
        at: m.offset(view, text))
    }
  }

  private enum SoundKey: Sendable { case name, critical, volume }
  private static let soundKeys = KeyTable<SoundKey>([
    ("name", .name), ("critical", .critical), ("volume", .volume),
  ])

  private static func readSound(_ view: JSONView, _ sound: Int, into m: inout MessageReader) {
    let at = m.offset(view, sound)
    switch view.kind(sound) {
    case .string:
      m.values[.sound] = .input(sound)
      m.values[.soundCritical] = .bool(false)
    case .object:
      var named = false
      view.forEachMember(of: sound) { key, value in
        let valueAt = m.offset(view, value)
        switch soundKeys.find(view, key) {
        case .name:
          if view.kind(value) == .string {
            named = true
            m.values[.sound] = .input(value)
          } else {
            m.report(noSound, .apnsSound, "the sound's 'name' must be a string", at: valueAt)
          }
        case .critical:
          if let critical = view.integer(value), critical == 0 || critical == 1 {
            m.values[.soundCritical] = .bool(critical == 1)
          } else if let critical = view.bool(value) {
            m.values[.soundCritical] = .bool(critical)
            m.warning(
              .apnsFlagsBool,
              "the sound's 'critical' is \(critical); Apple documents \(critical ? 1 : 0)",
              at: valueAt)
            m.findings[m.findings.count - 1].fix = .replacing(
              view, value, with: critical ? "1" : "0")
          } else {
            m.report(unread, .apnsSound, "the sound's 'critical' must be 0 or 1", at: valueAt)
          }
        case .volume:
          if let volume = view.double(value), (0...1).contains(volume) {
            m.values[.soundVolume] = .input(value)
          } else {
            m.report(
              unread, .apnsSound,
              "the sound's 'volume' must be a number from 0 to 1, not \(Self.quotedValue(view, value))",
              at: valueAt)
          }
        case nil:
          m.warning(
            .apnsAlertUnknown, "unknown key \(Self.quoted(view.string(key))) in 'sound'",
            at: m.offset(view, key))
        }
      }
      if !named {
        m.report(noSound, .apnsSound, "a sound dictionary needs a 'name'", at: at)
      }
    default:
      m.report(
        noSound, .apnsSound,
        "'sound' must be a sound name or a dictionary with name, critical and volume", at: at)
    }
  }

  // MARK: - Checks across keys, and the push type

  /// Whether an alert or background push with this `aps` does nothing on the device (other push
  /// types, VoIP or location for one, hand the payload to the app whatever `aps` says): no alert,
  /// sound or badge, no `content-available` to wake the app, and nothing of a Live Activity, a
  /// widget or MDM. (A payload with an error is refused, and not warned about this too.)
  private static func doesNothing(_ aps: Facts) -> Bool {
    !(aps.hasAlert || aps.hasBadge || aps.hasSound || aps.contentAvailable || aps.isLiveActivity
      || aps.contentChanged || aps.isMDM)
  }

  /// The APNs checks across keys, and the push type: `payloadSize` is the size of the APNs
  /// payload written compact, reported at `sizeAt`.
  private static func finish(payloadSize: Int, sizeAt: Int = 0, into m: inout MessageReader) {
    var pushType = m.headers.pushType ?? m.defaults.pushType
    let backgroundOnly = m.aps.contentAvailable && !m.aps.otherKeys
    if pushType == nil {
      if m.aps.isMDM {
        pushType = "mdm"
      } else if m.aps.isLiveActivity {
        pushType = "liveactivity"
      } else if m.aps.contentChanged {
        pushType = "widgets"
      } else if m.aps.hasAlert || m.aps.hasBadge || m.aps.hasSound {
        pushType = "alert"
      } else if backgroundOnly {
        pushType = "background"
      }
    }
    if let pushType { m.values.set(.pushType, text: pushType) }

    if let at = m.aps.mutableContentAt, !m.aps.hasAlert {
      m.warning(
        .apnsMutableNoAlert,
        "'mutable-content' without an 'alert': iOS runs the notification service extension only for alerts",
        at: at)
    } else if let at = m.aps.apsAt, !m.alertElsewhere, doesNothing(m.aps), !m.rejected,
      [nil, "alert", "background"].contains(m.headers.pushType ?? m.defaults.pushType)
    {
      m.warning(
        .apnsDoesNothing,
        "'aps' shows nothing, plays no sound, sets no badge and wakes nothing: iOS takes the push and does nothing with it",
        at: at)
    }
    if let priority = m.headers.priority, priority.value == 10,
      pushType == "background" || backgroundOnly
    {
      m.error(
        .apnsPriorityBackground, "priority 10 is not allowed for a background push: use 5",
        at: priority.at)
    }
    if m.headers.channelID != nil && pushType != "liveactivity" {
      m.error(
        .apnsChannelIdPushType,
        "'apns-channel-id' is for broadcast Live Activity updates: the push type must be liveactivity, not '\(pushType ?? "alert")'",
        at: m.headers.channelIDAt)
    }
    let limit = pushType == "voip" ? 5120 : 4096
    if payloadSize > limit {
      m.error(
        .apnsPayloadSize,
        "the payload is \(payloadSize) bytes; APNs accepts at most \(limit) for \(pushType ?? "alert") pushes",
        at: sizeAt)
    }
  }
}
