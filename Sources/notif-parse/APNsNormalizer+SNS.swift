import NotifJSON
import NotifModel

// Amazon SNS: a message published with MessageStructure json, whose platform keys hold each
// platform's message as a JSON string, and the JSON body SNS posts to an HTTP subscriber
// (notif-parse(1), "Amazon SNS"; the sources are cited in notif(5)). The JSON inside a string
// is parsed on its own, and every position in it is carried back to the file.

extension APNsNormalizer {
  /// The platform keys each `--platform` reads, most wanted first.
  static func snsPlatformKeys(_ platform: Platform) -> [String] {
    switch platform {
    case .ios:
      return ["APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS", "MACOS_SANDBOX"]
    case .android: return ["GCM", "FCM", "ADM", "BAIDU"]
    case .web: return ["GCM", "FCM"]
    }
  }

  /// The order in which a platform's message stands in for one `--platform` does not find.
  static let snsFallbackKeys = [
    "APNS", "APNS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX", "MACOS", "MACOS_SANDBOX", "GCM",
    "FCM", "ADM", "BAIDU",
  ]

  /// A `MessageStructure: json` message at `root` of `view`; `depth` is the depth of the
  /// embedded texts its platform strings are read into.
  mutating func readSNSMessage(_ view: JSONView, _ root: Int, depth: Int) {
    var platforms: [(name: String, value: Int)] = []
    var defaultText: Int?
    view.forEachMember(of: root) { key, value in
      guard let name = PushFormat.snsPlatforms.find(view, key) else {
        findings.append(
          .warning(
            "SNSUnknownPlatform",
            "unknown platform \(Self.quoted(view.string(key))): SNS sends nothing for it",
            at: offset(view, key)))
        return
      }
      guard view.kind(value) == .string else {
        findings.append(
          .error(
            "SNSBadPlatformValue",
            "\(Self.quoted(name)) must be a string\(name == "default" ? "" : " holding the platform's message as JSON"), not \(Self.kindName(view, value))",
            at: offset(view, value)))
        return
      }
      if name == "default" {
        defaultText = value
      } else {
        platforms.append((name, value))
      }
    }
    let wanted = Self.snsPlatformKeys(defaults.platform)
    var chosen = wanted.lazy.compactMap { name in platforms.first { $0.name == name } }.first
    if chosen == nil && defaultText == nil {
      chosen =
        Self.snsFallbackKeys.lazy.compactMap { name in platforms.first { $0.name == name } }
        .first
    }
    for platform in platforms where platform.name != "MPNS" && platform.name != "WNS" {
      // MPNS and WNS messages are XML; every other platform's is JSON, and is checked.
      let isChosen = platform.value == chosen?.value
      withState(kept: isChosen) { normalizer in
        normalizer.readEmbedded(view, platform.value, depth: depth, naming: platform.name) {
          $0.readSNSPlatform(platform.name, $1)
        }
      }
    }
    if chosen == nil, let defaultText {
      values[.body] = .input(defaultText)
    }
  }

  /// One platform's message, parsed from its string.
  private mutating func readSNSPlatform(_ name: String, _ view: JSONView) {
    guard checkObject(view, 0, name) else { return }
    switch name {
    case "APNS", "APNS_SANDBOX", "MACOS", "MACOS_SANDBOX", "APNS_VOIP", "APNS_VOIP_SANDBOX":
      if name.hasPrefix("APNS_VOIP") && headers.pushType == nil { headers.pushType = "voip" }
      readAPNs(
        view, payload: 0, payloadSize: compactSize(view, 0),
        mdm: view.member(0, "mdm") != nil)
    case "GCM", "FCM":
      // FCM HTTP v1 as SNS takes it (`{"fcmV1Message": {"message": ...}}`), or the legacy
      // shape; SNS supplies the target either way.
      if let wrapper = view.member(0, "fcmV1Message") {
        if checkObject(view, wrapper, "fcmV1Message"),
          let message = view.member(wrapper, "message")
        {
          readFCM(view, message: message, root: wrapper, requiresTarget: false)
        } else if view.kind(wrapper) == .object {
          findings.append(
            .error("BadType", "'fcmV1Message' needs a 'message'", at: offset(view, wrapper)))
        }
      } else if case .fcm(let message) = PushFormat.detect(view, 0), message != 0 {
        readFCM(view, message: message, root: 0, requiresTarget: false)
      } else {
        readFCMLegacy(view, 0)
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
  mutating func readSNSEnvelope(_ view: JSONView, _ root: Int) {
    var members: (type: Int?, id: Int?, topic: Int?, subject: Int?, message: Int?, time: Int?) =
      (nil, nil, nil, nil, nil, nil)
    view.forEachMember(of: root) { key, value in
      switch Self.envelopeKeys.find(view, key) {
      case .type: members.type = value
      case .messageID: members.id = value
      case .topicArn: members.topic = value
      case .subject: members.subject = value
      case .message: members.message = value
      case .timestamp: members.time = value
      case .known: break
      case nil:
        findings.append(
          .warning(
            "SNSUnknownKey",
            "unknown key \(Self.quoted(view.string(key))) in an SNS notification",
            at: offset(view, key)))
      }
    }
    // The message first: what it holds is read from another text, whose fields are copied
    // once it is read; the envelope's own fields come after.
    if let message = members.message {
      if view.kind(message) != .string {
        findings.append(
          .error(
            "SNSBadEnvelope", "'Message' must be a string, not \(Self.kindName(view, message))",
            at: offset(view, message)))
      } else if Self.withText(view, message, { Self.firstNonSpace($0) == UInt8(ascii: "{") }) {
        readEmbedded(view, message, depth: 0, naming: "Message") { normalizer, inner in
          switch PushFormat.detect(inner, 0) {
          case .snsMessage:
            normalizer.readSNSMessage(inner, 0, depth: 1)
          case .fcm(let fcm):
            normalizer.readFCM(inner, message: fcm, root: 0, requiresTarget: false)
          case .webPush:
            normalizer.readWebPush(inner, 0)
          case .expo:
            normalizer.readExpo(inner, 0)
          case .fcmLegacy:
            normalizer.readFCMLegacy(inner, 0)
          case .apns, .snsEnvelope:
            normalizer.readAPNs(
              inner, payload: 0, payloadSize: normalizer.compactSize(inner, 0),
              mdm: inner.member(0, "mdm") != nil)
          }
        }
      } else {
        values[.body] = .input(message)
      }
    } else {
      findings.append(
        .error("SNSBadEnvelope", "an SNS notification needs a 'Message'", at: offset(view, root)))
    }
    if let type = members.type {
      if !(view.kind(type) == .string && view.keyEquals(type, "Notification")) {
        findings.append(
          .error(
            "SNSNotANotification",
            "'Type' is \(Self.quotedValue(view, type)): only a Notification carries a message to show",
            at: offset(view, type)))
      }
    }
    if let id = members.id {
      if view.kind(id) == .string && view.tokens[id].end - view.tokens[id].start > 2 {
        values[.id] = .input(id)
      } else {
        findings.append(
          .error("SNSBadEnvelope", "'MessageId' must be a string", at: offset(view, id)))
      }
    } else {
      findings.append(
        .error("SNSBadEnvelope", "an SNS notification needs a 'MessageId'", at: offset(view, root)))
    }
    if let subject = members.subject, case .null = values[.title] {
      string(view, subject, subject, into: .title)
    }
    if let time = members.time {
      if let text = view.stringValue(time), let instant = try? Timestamp(rfc3339: text) {
        headers.receivedAt = instant
      } else {
        findings.append(
          .error(
            "SNSBadEnvelope",
            "'Timestamp' must be an RFC 3339 time such as 2026-11-22T09:00:00.000Z, not \(Self.quotedValue(view, time))",
            at: offset(view, time)))
      }
    }
    if let topic = members.topic, view.kind(topic) != .string {
      findings.append(
        .error("SNSBadEnvelope", "'TopicArn' must be a string", at: offset(view, topic)))
    }
  }

  static func firstNonSpace(_ raw: UnsafeRawBufferPointer) -> UInt8? {
    raw.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
  }

  /// Parses the JSON text inside the string at `index` of `view` (the outermost text at depth
  /// 0, else the embedded text of depth - 1) and reads it with `body`. Findings in it are
  /// placed in the outermost text, and the record fields it set are copied out of it, since
  /// its tape is gone once the next text is read.
  mutating func readEmbedded(
    _ view: JSONView, _ index: Int, depth: Int, naming name: String,
    _ body: (inout APNsNormalizer, JSONView) -> Void
  ) {
    guard depth < 2 else { return }  // an envelope, then a platform's message: no deeper
    let text = embedded.level(depth)
    text.decode(view, index, parent: depth > 0 ? embedded.existing(depth - 1) : nil)
    let wasCompact = textIsCompact
    textIsCompact = false
    defer { textIsCompact = wasCompact }
    let before = findings.count
    let snapshot = values.values
    text.bytes.withUnsafeBytes { bytes in
      let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 } ?? 0
      let trimmed = UnsafeRawBufferPointer(rebasing: bytes[start...])
      switch text.parser.parse(trimmed, isFinal: true) {
      case .failed(let error):
        findings.append(
          Finding(
            severity: .error, code: error.code.rawValue,
            message: "in the JSON inside \(Self.quoted(name)): \(error.message)",
            offset: text.outerOffset(start + error.offset)))
      case .incomplete:
        findings.append(
          .error(
            "InvalidJSON", "in the JSON inside \(Self.quoted(name)): unexpected end of input",
            at: text.outerOffset(bytes.count)))
      case .complete(let end):
        if let rest = Self.firstNonSpace(UnsafeRawBufferPointer(rebasing: trimmed[end...])) {
          _ = rest
          let after =
            trimmed[end...].firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }
            ?? end
          findings.append(
            .error(
              "InvalidJSON", "in the JSON inside \(Self.quoted(name)): more text after the JSON",
              at: text.outerOffset(start + after)))
          return
        }
        text.parser.withView(over: trimmed) { inner in
          body(&self, inner)
          // Copy the fields set from this text, and place their values in the file.
          for field in RecordField.allCases {
            guard case .input(let token) = values[field], snapshot[field.rawValue] != values[field]
            else { continue }
            fieldOffsets[field.rawValue] = text.outerOffset(start + Int(inner.tokens[token].start))
            hasFieldOffsets = true
            values.set(field, copying: token, of: inner)
          }
        }
        for k in before..<findings.count {
          findings[k].offset = text.outerOffset(start + findings[k].offset)
        }
      }
    }
    // Placed: set aside, so that a text around this one does not move them again.
    placedFindings += findings[before...]
    findings.removeSubrange(before...)
  }
}
