import NotifJSON
import NotifModel

/// Reads Amazon SNS messages (notif-rules(7), "Amazon SNS"): a message published with
/// MessageStructure json, whose platform keys hold each platform's message as a JSON string,
/// and the JSON body SNS posts to an HTTP subscriber. The JSON inside a string is parsed on its
/// own, and every position in it is carried back to the file.
enum SNSReader: FormatReader {
  /// The keys SNS documents for a `MessageStructure: json` message to mobile endpoints:
  /// `default` and the platforms. SNS ignores any other key, `FCM` among them: the key of
  /// Firebase's platform is `GCM`.
  static let documentedKeys = KeyTable<String>(
    [
      "default", "APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS",
      "MACOS_SANDBOX", "GCM", "ADM", "BAIDU", "MPNS", "WNS",
    ].map { ($0, $0) })

  /// The platform keys each `--platform` reads, most wanted first.
  static func platformKeys(_ platform: Platform) -> [String] {
    switch platform {
    case .ios:
      return ["APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS", "MACOS_SANDBOX"]
    case .android: return ["GCM", "ADM", "BAIDU"]
    case .web: return ["GCM"]
    }
  }

  /// The order in which a platform's message stands in for one `--platform` does not find.
  static let fallbackKeys = [
    "APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS", "MACOS_SANDBOX", "GCM",
    "ADM", "BAIDU",
  ]

  /// A `MessageStructure: json` message at `root` of `view`; `depth` is the depth of the
  /// embedded texts its platform strings are read into.
  ///
  /// SNS delivers each endpoint its platform's string, else `default`; it ignores a key it does
  /// not know and a value that is not a string (a warning each), and Publish refuses a message
  /// that leaves no string to deliver (`SNSNoDefault`).
  static func readMessage(_ view: JSONView, _ root: Int, depth: Int, into m: inout MessageReader) {
    var platforms: [(name: String, value: Int)] = []
    var defaultText: Int?
    view.forEachMember(of: root) { key, value in
      guard let name = documentedKeys.find(view, key) else {
        if let slip = PushFormat.slip(view, key), slip == .snsDefault || slip == .snsPlatform {
          m.warning(
            .snsPlatformCase,
            "\(Self.quoted(view.string(key))) is not a key SNS knows: SNS reads keys as written (default, APNS, GCM, ...) and sends nothing for it",
            view, at: key)
          return
        }
        m.warning(
          .snsUnknown,
          "unknown platform \(Self.quoted(view.string(key))): SNS sends nothing for it"
            + (view.keyEquals(key, "FCM") ? "; Firebase's platform key is GCM" : ""), view,
          at: key)
        return
      }
      guard view.kind(value) == .string else {
        m.warning(
          .snsValueType,
          "\(Self.quoted(name)) is \(Self.kindName(view, value)), not a string\(name == "default" ? "" : " holding the platform's message as JSON"): SNS ignores it"
            + (name == "default" ? "" : " and sends 'default'"), view, at: value)
        return
      }
      if name == "default" {
        defaultText = value
      } else {
        platforms.append((name, value))
      }
    }
    if defaultText == nil && platforms.isEmpty {
      m.error(
        .snsNothing,
        "no 'default' string and no platform's message: SNS Publish answers 400 InvalidParameter (the JSON must contain an entry for 'default')",
        view, at: root)
    }
    let wanted = Self.platformKeys(m.defaults.platform)
    var chosen = wanted.lazy.compactMap { name in platforms.first { $0.name == name } }.first
    if chosen == nil && defaultText == nil {
      chosen =
        Self.fallbackKeys.lazy.compactMap { name in platforms.first { $0.name == name } }
        .first
    }
    for platform in platforms where platform.name != "MPNS" && platform.name != "WNS" {
      // MPNS and WNS messages are XML; every other platform's is JSON, and is checked.
      let isChosen = platform.value == chosen?.value
      m.withState(kept: isChosen) { reader in
        readEmbedded(view, platform.value, depth: depth, naming: platform.name, into: &reader) {
          readPlatform(platform.name, $1, into: &$0)
        }
      }
    }
    if chosen == nil, let defaultText {
      m.values[.body] = .input(defaultText)
    }
  }

  /// One platform's message, parsed from its string.
  private static func readPlatform(_ name: String, _ view: JSONView, into m: inout MessageReader) {
    guard m.checkObject(view, 0, name, .snsPlatformJson) else { return }
    switch name {
    case "APNS", "APNS_SANDBOX", "MACOS", "MACOS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX":
      if name.hasPrefix("APNS_VOIP") && m.headers.pushType == nil { m.headers.pushType = "voip" }
      APNsReader.read(
        view, payload: 0, payloadSize: m.compactSize(view, 0),
        mdm: view.member(0, "mdm") != nil, into: &m)
    case "GCM":
      // FCM HTTP v1 as SNS takes it (`{"fcmV1Message": {"message": ...}}`), or the legacy
      // shape, which SNS translates into an HTTP v1 message; SNS supplies the target either way.
      if let wrapper = view.member(0, "fcmV1Message") {
        if m.checkObject(view, wrapper, "fcmV1Message", .snsGcmV1Message),
          let message = view.member(wrapper, "message")
        {
          FCMReader.read(view, message: message, root: wrapper, requiresTarget: false, into: &m)
        } else if view.kind(wrapper) == .object {
          m.error(
            .snsGcmV1Message, "'fcmV1Message' needs a 'message'", at: m.offset(view, wrapper))
        }
      } else if case .fcm(let message) = PushFormat.detect(view, 0), message != 0 {
        FCMReader.read(view, message: message, root: 0, requiresTarget: false, into: &m)
      } else {
        FCMLegacyReader.read(view, 0, translatedBySNS: true, into: &m)
      }
    default:
      break  // ADM and Baidu: JSON, checked as JSON
    }
  }

  private enum EnvelopeKey: Sendable {
    case type, messageID, topicArn, subject, message, timestamp, known
  }
  private static let envelopeKeys = KeyTable<EnvelopeKey>([
    ("Type", .type), ("MessageId", .messageID), ("TopicArn", .topicArn), ("Subject", .subject),
    ("Message", .message), ("Timestamp", .timestamp), ("SignatureVersion", .known),
    ("Signature", .known), ("SigningCertURL", .known), ("SigningCertUrl", .known),
    ("UnsubscribeURL", .known), ("UnsubscribeUrl", .known), ("MessageAttributes", .known),
    ("SubscribeURL", .known), ("Token", .known),
  ])

  /// The JSON body of an HTTP notification from SNS: `Message` is the text published, plain
  /// or a JSON text (a `MessageStructure: json` message, or one platform's message).
  static func readEnvelope(_ view: JSONView, _ root: Int, into m: inout MessageReader) {
    var members: [EnvelopeKey: Int] = [:]
    view.forEachMember(of: root) { key, value in
      switch Self.envelopeKeys.find(view, key) {
      case .known: break
      case let name?: members[name] = value
      case nil:
        m.warning(
          .snsEnvelopeUnknown,
          "unknown key \(Self.quoted(view.string(key))) in an SNS notification",
          at: m.offset(view, key))
      }
    }
    // The message first: what it holds is read from another text, whose fields are copied
    // once it is read; the envelope's own fields come after.
    if let message = members[.message] {
      if view.kind(message) != .string {
        m.error(
          .snsEnvelope, "'Message' must be a string, not \(Self.kindName(view, message))",
          at: m.offset(view, message))
      } else if Self.withText(view, message, { Self.firstNonSpace($0) == UInt8(ascii: "{") }) {
        readEmbedded(view, message, depth: 0, naming: "Message", into: &m) { reader, inner in
          switch PushFormat.detect(inner, 0) {
          case .snsMessage:
            readMessage(inner, 0, depth: 1, into: &reader)
          case .fcm(let fcm):
            FCMReader.read(inner, message: fcm, root: 0, requiresTarget: false, into: &reader)
          case .webPush:
            WebPushReader.read(inner, 0, into: &reader)
          case .expo:
            ExpoReader.read(inner, 0, into: &reader)
          case .fcmLegacy:
            FCMLegacyReader.read(inner, 0, into: &reader)
          case .apns, .snsEnvelope:
            APNsReader.read(
              inner, payload: 0, payloadSize: reader.compactSize(inner, 0),
              mdm: inner.member(0, "mdm") != nil, into: &reader)
          }
        }
      } else {
        m.values[.body] = .input(message)
      }
    } else {
      m.error(.snsEnvelope, "an SNS notification needs a 'Message'", at: m.offset(view, root))
    }
    if let type = members[.type] {
      if !(view.kind(type) == .string && view.keyEquals(type, "Notification")) {
        m.error(
          .snsEnvelopeType,
          "'Type' is \(Self.quotedValue(view, type)): only a Notification carries a message to show",
          at: m.offset(view, type))
      }
    }
    if let id = members[.messageID] {
      if view.kind(id) == .string && view.tokens[id].end - view.tokens[id].start > 2 {
        m.values[.id] = .input(id)
      } else {
        m.error(.snsEnvelope, "'MessageId' must be a string", at: m.offset(view, id))
      }
    } else {
      m.error(
        .snsEnvelope, "an SNS notification needs a 'MessageId'", at: m.offset(view, root))
    }
    if let subject = members[.subject] {
      if view.kind(subject) != .string {
        m.error(
          .snsEnvelope, "'Subject' must be a string, not \(Self.kindName(view, subject))",
          at: m.offset(view, subject))
      } else if case .null = m.values[.title] {
        m.values[.title] = .input(subject)
      }
    }
    if let time = members[.timestamp] {
      if let text = view.stringValue(time), let instant = try? Timestamp(rfc3339: text) {
        m.headers.receivedAt = instant
      } else {
        m.error(
          .snsEnvelope,
          "'Timestamp' must be an RFC 3339 time such as 2026-11-22T09:00:00.000Z, not \(Self.quotedValue(view, time))",
          at: m.offset(view, time))
      }
    }
    if let topic = members[.topicArn], view.kind(topic) != .string {
      m.error(.snsEnvelope, "'TopicArn' must be a string", at: m.offset(view, topic))
    }
  }

  /// Parses the JSON text inside the string at `index` of `view` (the outermost text at depth
  /// 0, else the embedded text of depth - 1) and reads it with `body`. Findings in it are
  /// placed in the outermost text, and the record fields it set are copied out of it, since
  /// its tape is gone once the next text is read.
  /// `text` as the inside of a JSON string holds it: its quotes and backslashes escaped.
  static func escapedForString(_ text: String) -> String {
    var out = ByteBuffer(capacity: text.utf8.count + 8)
    var copy = text
    copy.withUTF8 { JSONEscapes.appendEscaped(UnsafeRawBufferPointer($0), into: &out) }
    return out.text
  }

  static func readEmbedded(
    _ view: JSONView, _ index: Int, depth: Int, naming name: String, into m: inout MessageReader,
    _ body: (inout MessageReader, JSONView) -> Void
  ) {
    guard depth < 2 else { return }  // an envelope, then a platform's message: no deeper
    let text = m.embedded.level(depth)
    text.decode(view, index, parent: depth > 0 ? m.embedded.existing(depth - 1) : nil)
    let wasCompact = m.textIsCompact
    m.textIsCompact = false
    defer { m.textIsCompact = wasCompact }
    let before = m.findings.count
    let snapshot = m.values.values
    text.bytes.withUnsafeBytes { bytes in
      let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } ?? 0
      let trimmed = UnsafeRawBufferPointer(rebasing: bytes[start...])
      switch text.parser.parse(trimmed, isFinal: true) {
      case .failed(let error):
        m.findings.append(
          Finding(
            severity: .error,
            rule: error.code == .invalidJSON ? .snsPlatformJson : .json(error.code),
            message: "in the JSON inside \(Self.quoted(name)): \(error.message)",
            offset: text.outerOffset(start + error.offset)))
      case .incomplete:
        m.error(
          .snsPlatformJson, "in the JSON inside \(Self.quoted(name)): unexpected end of input",
          at: text.outerOffset(bytes.count))
      case .complete(let end):
        if let rest = Self.firstNonSpace(UnsafeRawBufferPointer(rebasing: trimmed[end...])) {
          _ = rest
          let after =
            trimmed[end...].firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            ?? end
          m.error(
            .snsPlatformJson, "in the JSON inside \(Self.quoted(name)): more text after the JSON",
            at: text.outerOffset(start + after))
          return
        }
        text.parser.withView(over: trimmed) { inner in
          body(&m, inner)
          // Copy the fields set from this text, and place their values in the file.
          for field in RecordField.allCases {
            guard case .input(let token) = m.values[field],
              snapshot[field.rawValue] != m.values[field]
            else { continue }
            m.fieldOffsets[field.rawValue] = text.outerOffset(
              start + Int(inner.tokens[token].start))
            m.hasFieldOffsets = true
            m.values.set(field, copying: token, of: inner)
          }
        }
        for k in before..<m.findings.count {
          m.findings[k].offset = text.outerOffset(start + m.findings[k].offset)
          if let fix = m.findings[k].fix {
            // Placed in the outermost text, and written as the strings there hold it: escaped
            // once for each text it is in (the envelope's Message, a platform's string).
            var replacement = fix.replacement
            for _ in 0...depth { replacement = Self.escapedForString(replacement) }
            m.findings[k].fix = Finding.Fix(
              start: text.outerOffset(start + fix.start), end: text.outerOffset(start + fix.end),
              replacement: replacement)
          }
        }
      }
    }
    // Placed: set aside, so that a text around this one does not move them again.
    m.placedFindings += m.findings[before...]
    m.findings.removeSubrange(before...)
  }
}
