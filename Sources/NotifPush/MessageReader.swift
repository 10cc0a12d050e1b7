import NotifJSON
import NotifModel

/// What fills the fields an input does not give.
public struct InputDefaults: Sendable {
  /// `--default-app`.
  public var app: String?
  /// `--push-type`.
  public var pushType: String?
  /// `--now`, `SOURCE_DATE_EPOCH` or the clock: the `created_at` of inputs with no
  /// `received_at`.
  public var now: Timestamp
  /// `--platform`: which override block of a cross-platform message (FCM HTTP v1, Amazon SNS)
  /// the record shows.
  public var platform = Platform.ios
  /// `--dense`: write every field of a record, its null ones too, rather than leave those out.
  public var dense = false

  /// Defaults from the options.
  public init(app: String?, pushType: String?, now: Timestamp, platform: Platform = .ios) {
    self.app = app
    self.pushType = pushType
    self.now = now
    self.platform = platform
  }
}

/// Reads one push message into a notification record, checking it the way the push service
/// it is written for, and the device, would.
///
/// This is the driver and the state every reader fills: it tells the format (`PushFormat`),
/// reads an envelope, hands the message to the reader of its format and fills the fields every
/// record has. Each format's rules are in the reader named for it: `APNsReader` (bare payloads,
/// simulator `.apns` files, envelopes with APNs headers, and the APNs payloads inside FCM and
/// SNS messages), `FCMReader` (HTTP v1), `FCMLegacyReader`, `WebPushReader`, `SNSReader` and
/// `ExpoReader`; the rules they share are in `MessageReader+Rules.swift`. Each rule is a row of
/// notif-rules(7), whose data is `rules/rules.tsv`.
///
/// One instance is reused for every message: its buffers keep their storage.
public struct MessageReader: Sendable {
  let defaults: InputDefaults
  /// The record's fields.
  public internal(set) var values = RecordValues()
  /// The payload, compact, as it goes into the record, when the text was not compact.
  var payload = ByteBuffer(capacity: 8192)
  /// The payload's token when the text was compact: its bytes in the text go into the record
  /// as they are, not through `payload` (a copy of every payload, 2% of notif-parse's time).
  var payloadToken: Int?
  /// What was found wrong, in the order found.
  public internal(set) var findings: [Finding] = []

  // Facts gathered while reading, used by the checks that span several keys.
  var headers = Headers()
  var aps = APNsReader.Facts()
  /// The `aps` keys of the payload being read, found once and reused by the second pass.
  var apsNames: [APNsReader.ApsKey?] = []
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
  /// Whether the APNs payload being read gets its alert from elsewhere: FCM puts the title and
  /// body of `message.notification` into the `aps` of its `apns.payload`.
  var alertElsewhere = false
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

  /// `defaults.dense`, kept apart: reading it from `defaults` for each record would copy the
  /// struct, and retain and release its strings.
  private let dense: Bool

  /// A reader that fills what a message does not give from `defaults`.
  public init(defaults: InputDefaults) {
    self.defaults = defaults
    dense = defaults.dense
  }

  /// Appends the record of the last message read, as one NDJSON line.
  ///
  /// `view` is the one the message was read from.
  public mutating func writeRecord(_ view: JSONView, into out: inout ByteBuffer) {
    values.write(view: view, payload: payloadBytes(view), dense: dense, into: &out)
  }

  /// The compact payload of the message read from `view`: the text's own bytes when it was
  /// compact (`payloadToken`), else `payload`'s, which do not move until `payload` changes.
  private func payloadBytes(_ view: JSONView) -> UnsafeRawBufferPointer {
    if let payloadToken { return view.raw(payloadToken) }
    return payload.withUnsafeBytes { $0 }
  }

  /// Whether the last message read has an error.
  public var rejected: Bool { findings.contains { $0.severity == .error } }

  /// Where the value of `field` of the last message read is, as an offset in its text; 0 when
  /// it has none there.
  public func offset(of field: RecordField, in view: JSONView) -> Int {
    if fieldOffsets[field.rawValue] >= 0 { return fieldOffsets[field.rawValue] }
    if case .input(let index) = values[field] { return Int(view.tokens[index].start) }
    return 0
  }

  /// Sets everything back to the state before a message.
  private mutating func reset() {
    values.reset()
    payload.removeAll()
    payloadToken = nil
    findings.removeAll(keepingCapacity: true)
    headers = Headers()
    aps = APNsReader.Facts()
    source = .apns
    eventTime = nil
    timeToLive = nil
    impliedApp = nil
    alertElsewhere = false
    if !placedFindings.isEmpty { placedFindings.removeAll(keepingCapacity: true) }
    if hasFieldOffsets {
      fieldOffsets.withUnsafeMutableBufferPointer { $0.update(repeating: -1) }
      hasFieldOffsets = false
    }
  }

  /// Reads the JSON text in `view` into `values` and `payload`, recording `findings`.
  ///
  /// `isCompact` says the text is already compact and canonical, so the payload's bytes are
  /// copied rather than written anew. `root` and `format` read one message of an Expo request
  /// (an array of messages): the message at `root`, as an Expo message.
  public mutating func read(
    _ view: JSONView, isCompact: Bool = false, root message: Int = 0, as given: PushFormat? = nil
  ) {
    reset()
    textIsCompact = isCompact
    guard view.kind(message) == .object else {
      error(
        .jsonObject,
        "a payload must be a JSON object, not \(Self.kindName(view, message))",
        at: message == 0 ? 0 : offset(view, message))
      return
    }
    var root = message
    var members = Self.members(view, root)
    var format = given ?? PushFormat.apns
    if given != nil {
      // A message of a request: no envelope around it.
    } else if members.aps == nil, let inner = members.payload, view.kind(inner) == .object {
      root = inner
      members = Self.members(view, root)
      if members.aps == nil && members.mdm == nil { format = PushFormat.detect(view, root) }
      readEnvelope(view, webPush: format == .webPush)
    } else if members.aps == nil && members.mdm == nil {
      format = PushFormat.detect(view, root)
    }
    if isCompact {
      payloadToken = root
    } else {
      JSONWriter.writeCompact(view, root, into: &payload)
    }
    var simulatorApp: String?
    source = format.source
    switch format {
    case .apns:
      simulatorApp = members.simulatorTarget.flatMap { view.stringValue($0) }
      APNsReader.read(
        view, payload: root, aps: members.aps,
        payloadSize: payloadBytes(view).count,
        mdm: members.mdm != nil, into: &self)
    case .fcm(let message): FCMReader.read(view, message: message, root: root, into: &self)
    case .fcmLegacy: FCMLegacyReader.read(view, root, into: &self)
    case .webPush: WebPushReader.read(view, root, into: &self)
    case .snsMessage: SNSReader.readMessage(view, root, depth: 0, into: &self)
    case .snsEnvelope: SNSReader.readEnvelope(view, root, into: &self)
    case .expo: ExpoReader.read(view, root, into: &self)
    }
    finish(view, simulatorApp: simulatorApp)
    if !placedFindings.isEmpty { findings += placedFindings }
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

  /// What an envelope's headers (APNs's, or a Web Push message's RFC 8030 headers) say.
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

  /// Reads the envelope at the root of `view` (notif(5), "Envelopes"): its headers are APNs
  /// headers, or for a Web Push payload the RFC 8030 headers of the push service.
  private mutating func readEnvelope(_ view: JSONView, webPush: Bool) {
    view.forEachMember(of: 0) { key, value in
      switch Self.envelopeKeys.find(view, key) {
      case .payload: break
      case .headers:
        if view.kind(value) == .object {
          if webPush {
            WebPushReader.readHeaders(view, value, into: &self)
          } else {
            APNsReader.readHeaders(view, value, into: &self)
          }
        } else {
          error(
            .envelopeValues,
            "'headers' must be a dictionary of \(webPush ? "Web Push" : "APNs") headers",
            at: offset(view, value))
        }
      case .app:
        if let app = view.stringValue(value), !app.isEmpty {
          headers.app = app
        } else {
          error(
            .envelopeValues, "'app' must be a bundle identifier string", at: offset(view, value))
        }
      case .receivedAt:
        readReceivedAt(view, value)
      case nil:
        warning(
          .envelopeUnknownKey,
          "unknown envelope key \(Self.quoted(view.string(key))): an envelope has headers, payload, app and received_at",
          at: offset(view, key))
      }
    }
  }

  private mutating func readReceivedAt(_ view: JSONView, _ value: Int) {
    if view.kind(value) == .string, !view.tokens[value].flag,
      let instant = Timestamp(rfc3339: view.rawString(value))
    {
      headers.receivedAt = instant
    } else if let text = view.stringValue(value) {
      do {
        headers.receivedAt = try Timestamp(rfc3339: text)
      } catch {
        self.error(.envelopeValues, "'received_at': \(error.message)", at: offset(view, value))
      }
    } else if view.kind(value) == .number, view.tokens[value].flag {
      // An integer of any length: in the supported range, or an error that names the range.
      let digits = String(decoding: view.raw(value), as: UTF8.self)
      do {
        headers.receivedAt = try Timestamp.epochSeconds(digits[...], naming: digits)
      } catch {
        self.error(.envelopeValues, "'received_at': \(error.message)", at: offset(view, value))
      }
    } else {
      error(
        .envelopeValues, "'received_at' must be an RFC 3339 time or whole seconds since 1970",
        at: offset(view, value))
    }
  }

  // MARK: - The fields every record has

  static let topicSuffixes = [
    ".voip", ".complication", ".pushkit.fileprovider", ".push-type.liveactivity", ".voip-ptt",
  ]

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
      let id = Self.stableID(app: app, receivedAt: headers.receivedAt, payload: payloadBytes(view))
      values[.id] = .hash(id)
    }
  }

  /// A 64-bit hash of the app, the envelope's received_at and the compact payload: the same
  /// notification parsed again gets the same id.
  static func stableID(
    app: String?, receivedAt: Timestamp?, payload: UnsafeRawBufferPointer
  ) -> UInt64 {
    var hasher = StableHasher()
    var app = app ?? ""
    app.withUTF8 { hasher.combine(UnsafeRawBufferPointer($0)) }
    if let receivedAt {
      var text = ByteBuffer(capacity: 32)
      receivedAt.write(into: &text)
      text.withUnsafeBytes { hasher.combine($0) }
    }
    hasher.combine(payload)
    return hasher.finalize()
  }
}
