import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifPush

/// The formats other than APNs: which one a text is, what the record takes from it, and where
/// problems inside JSON escaped in a string are placed.
@Suite struct PushFormatTests {
  private func normalized(_ text: String, platform: Platform = .ios) -> Normalized {
    var normalizer = MessageReader(
      defaults: InputDefaults(
        app: nil, pushType: nil, now: Timestamp(seconds: 1_795_338_000), platform: platform))
    return normalize(text, with: &normalizer)
  }

  @Test(arguments: [
    (#"{"aps":{"alert":"x"}}"#, #""apns""#),
    (#"{"message":{"token":"t","notification":{"title":"x"}}}"#, #""fcm""#),
    (#"{"topic":"news","notification":{"title":"x"}}"#, #""fcm""#),
    (#"{"to":"t","notification":{"title":"x"}}"#, #""fcm-legacy""#),
    (#"{"registration_ids":["a"],"data":{"a":"b"}}"#, #""fcm-legacy""#),
    (#"{"web_push":8030,"notification":{"title":"x","navigate":"https://e.com"}}"#, #""webpush""#),
    (#"{"title":"x","options":{"body":"y"}}"#, #""webpush""#),
    (#"{"default":"x","APNS":"{\"aps\":{}}"}"#, #""sns""#),
    (#"{"Type":"Notification","MessageId":"m","Message":"hi"}"#, #""sns""#),
    (#"{"to":"ExponentPushToken[abc]","body":"x"}"#, #""expo""#),
    (#"{"to":["ExpoPushToken[a]","ExpoPushToken[b]"]}"#, #""expo""#),
  ])
  func recordsItsSource(text: String, source: String) {
    #expect(normalized(text)["source"] == source)
  }

  /// A message that is plainly another vendor's but for a slip in one key is read as that
  /// vendor's (issue 40), not as a bare APNs payload with no aps.
  @Test(arguments: [
    (#"{"Message":{"token":"t","notification":{"title":"x"}}}"#, #""fcm""#),
    (#"{"message":"x","validate_only":true}"#, #""fcm""#),
    (#"{"registration_id":["a"],"notification":{"title":"x"}}"#, #""fcm-legacy""#),
    (#"{"RegistrationIds":["a"],"data":{"a":"b"}}"#, #""fcm-legacy""#),
    (#"{"web-push":8030,"notification":{"title":"x"}}"#, #""webpush""#),
    (#"{"default":"x","apns":"{\"aps\":{}}"}"#, #""sns""#),
    (#"{"Default":"x","gcm":"{}","email":"x"}"#, #""sns""#),
    (#"{"Apns":"{}"}"#, #""sns""#),
  ])
  func readsASlipAsTheVendorItPlainlyIs(text: String, source: String) {
    #expect(normalized(text)["source"] == source)
  }

  /// What only looks like a slip stays what it is: FCM's own `apns` and `webpush` blocks, an
  /// SNS envelope's `Message`, and a custom key beside aps.
  @Test(arguments: [
    (#"{"apns":{"payload":{"aps":{}}},"token":"t"}"#, #""fcm""#),
    (#"{"webpush":{"notification":{"title":"x"}},"token":"t"}"#, #""fcm""#),
    (#"{"Type":"Notification","MessageId":"m","Message":"{}"}"#, #""sns""#),
    (#"{"aps":{"alert":"x"},"Message":{"a":1},"apns":"x"}"#, #""apns""#),
    (#"{"message":"Your order shipped"}"#, #""apns""#),
    (#"{"registration_id":"a"}"#, #""apns""#),
  ])
  func keepsWhatOnlyLooksLikeASlip(text: String, source: String) {
    #expect(normalized(text)["source"] == source)
  }

  @Test func platformPicksTheOverrideBlock() {
    let message = #"""
      {"message":{"token":"t","notification":{"title":"All","body":"b"},
       "android":{"notification":{"title":"Android","tag":"t1"},"priority":"high","ttl":"60s"},
       "apns":{"headers":{"apns-collapse-id":"c1"},"payload":{"aps":{"alert":{"title":"iOS"}}}},
       "webpush":{"headers":{"Urgency":"low","Topic":"w1"},"notification":{"title":"Web"}}}}
      """#
    let ios = normalized(message, platform: .ios)
    #expect(ios["title"] == #""iOS""#)
    #expect(ios["body"] == #""b""#)  // from the cross-platform notification
    #expect(ios["collapse_id"] == #""c1""#)
    let android = normalized(message, platform: .android)
    #expect(android["title"] == #""Android""#)
    #expect(android["collapse_id"] == #""t1""#)
    #expect(android["priority"] == "10")
    #expect(android["expires_at"] == #""2026-11-22T09:01:00Z""#)
    let web = normalized(message, platform: .web)
    #expect(web["title"] == #""Web""#)
    #expect(web["collapse_id"] == #""w1""#)
    #expect(web["priority"] == "1")
    // Every block is checked, whichever is shown.
    #expect(ios.findings.isEmpty && android.findings.isEmpty && web.findings.isEmpty)
  }

  @Test func findingInsideAnSNSStringPointsIntoTheFile() {
    // The APNs payload is escaped once; the bad value comes after an escaped é and an emoji
    // written as a surrogate pair, each several bytes in the file for fewer decoded.
    let text = #"{"APNS":"{\"aps\":{\"alert\":\"caf\\u00e9 \\ud83c\\udf89\",\"badge\":\"x\"}}"}"#
    let result = normalized(text)
    let badge = result.findings.first { $0.code == "BadBadge" }
    #expect(badge?.offset == offset(of: #"\"badge\":|\"x\""#, in: text))
    #expect(result["body"] == "\"café 🎉\"")
  }

  @Test func findingsTwoStringsDeepPointIntoTheFile() {
    // An SNS HTTP notification whose Message holds a MessageStructure json message whose
    // APNS string holds the payload: escaped twice.
    let text =
      #"{"Type":"Notification","MessageId":"m1","Message":"{\"APNS\":\"{\\\"aps\\\":{\\\"badge\\\":-1}}\"}","Timestamp":"2026-11-22T09:00:00Z"}"#
    let result = normalized(text)
    #expect(result.findings.map(\.code) == ["BadBadge"])
    #expect(result.findings.first?.offset == offset(of: #":|-1"#, in: text))
    #expect(result["id"] == #""m1""#)
    #expect(result["created_at"] == #""2026-11-22T09:00:00Z""#)
  }

  /// The map from decoded bytes to the file is a run, not a byte, a place: the JSON inside a
  /// 16 MB SNS message took 128 MB a level (an offset a byte); a long body with no escape is one
  /// run. Each escape starts a run, and the plain bytes after it another.
  @Test func theMapOfAnEmbeddedTextIsAPlaceARun() {
    let body = String(repeating: "x", count: 1 << 20)
    let text = #"{"APNS":"{\"aps\":{\"alert\":\"\#(body)\",\"badge\":\"x\"}}"}"#
    var normalizer = MessageReader(
      defaults: InputDefaults(app: nil, pushType: nil, now: Timestamp(seconds: 0)))
    let result = normalize(text, with: &normalizer)
    #expect(
      result.findings.first { $0.code == "BadBadge" }?.offset
        == offset(of: #"\"badge\":|\"x\""#, in: text))
    // 10 escaped quotes, and 11 plain runs around them: `{`, `aps`, `:{`, `alert`, `:`, the
    // body, `,`, `badge`, `:`, `x`, `}}`.
    #expect(normalizer.embedded.existing(0)?.runCount == 21)
  }

  @Test func brokenJSONInsideAStringIsPlacedToo() {
    let text = #"{"GCM":"{\"data\":{\"a\":}}"}"#
    let result = normalized(text)
    #expect(result.findings.map(\.code) == ["InvalidJSON"])
    #expect(result.findings.first?.offset == offset(of: #"\"a\":|}"#, in: text))
  }

  @Test func fieldsCopiedFromAStringOutliveIt() {
    // The record is written after the embedded text's buffers are reused by the next text.
    var normalizer = MessageReader(
      defaults: InputDefaults(app: nil, pushType: nil, now: Timestamp(seconds: 0)))
    let first = normalize(
      #"{"APNS":"{\"aps\":{\"alert\":{\"title\":\"One\",\"loc-args\":[\"a\"]}}}"}"#,
      with: &normalizer)
    let second = normalize(
      #"{"APNS":"{\"aps\":{\"alert\":{\"title\":\"Two\"}}}"}"#, with: &normalizer)
    #expect(first["title"] == #""One""#)
    #expect(first["loc_args"] == #"["a"]"#)
    #expect(second["title"] == #""Two""#)
  }

  @Test func copiesOfANormalizerParseIntoTheirOwnBuffers() {
    var first = MessageReader(
      defaults: InputDefaults(app: nil, pushType: nil, now: Timestamp(seconds: 0)))
    _ = normalize(#"{"APNS":"{\"aps\":{\"alert\":\"a\"}}"}"#, with: &first)
    var second = first  // as ChunkWorkers copies one processor per thread
    let a = normalize(#"{"APNS":"{\"aps\":{\"alert\":\"from a\"}}"}"#, with: &first)
    let b = normalize(#"{"APNS":"{\"aps\":{\"alert\":\"from b\"}}"}"#, with: &second)
    #expect(a["body"] == #""from a""#)
    #expect(b["body"] == #""from b""#)
    #expect(first.embedded.existing(0) !== second.embedded.existing(0))
  }
}

@Suite struct UUIDTextTests {
  /// The rule, a byte at a time.
  private func isUUIDByBytes(_ bytes: [UInt8]) -> Bool {
    guard bytes.count == 36 else { return false }
    for (i, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(i) {
        if byte != UInt8(ascii: "-") { return false }
      } else if !(0x30...0x39).contains(byte) && !(0x61...0x66).contains(byte | 0x20) {
        return false
      }
    }
    return true
  }

  private func isUUID(_ bytes: [UInt8]) -> Bool {
    bytes.withUnsafeBytes { MessageReader.isUUID($0) }
  }

  /// Every byte value at every position of a UUID, each digit case, and lengths around 36:
  /// the word-at-a-time check agrees with the byte-at-a-time rule on each.
  @Test func agreesWithTheRuleAtEveryPositionForEveryByte() {
    for valid in ["0123abcd-ef45-6789-ABCD-EF0123456789", "00000000-0000-0000-0000-000000000000"] {
      let uuid = Array(valid.utf8)
      #expect(isUUID(uuid))
      var accepted = 0
      for position in uuid.indices {
        for byte in UInt8.min...UInt8.max {
          var changed = uuid
          changed[position] = byte
          let expected = isUUIDByBytes(changed)
          if expected { accepted += 1 }
          #expect(isUUID(changed) == expected, "byte \(byte) at \(position)")
        }
      }
      // 22 hex digits a digit position (0-9, a-f, A-F), one dash a dash position.
      #expect(accepted == 32 * 22 + 4)
    }
    #expect(!isUUID(Array("0123abcd-ef45-6789-abcd-ef012345678".utf8)))
    #expect(!isUUID(Array("0123abcd-ef45-6789-abcd-ef01234567890".utf8)))
    #expect(!isUUID([]))
    #expect(!isUUID(Array("0123abcdef4567890abcdef0123456789abc".utf8)))
  }

  @Test func eachWordSeesAllItsBytes() {
    // Letters just outside a-f and A-F, and the bytes next to the digits, in every place.
    for byte in Array("/:@G`g".utf8) + [0x7F, 0x80, 0xB0, 0xE1] {
      for position in 0..<36 where ![8, 13, 18, 23].contains(position) {
        var uuid = Array("0123abcd-ef45-6789-abcd-ef0123456789".utf8)
        uuid[position] = byte
        #expect(!isUUID(uuid), "byte \(byte) at \(position)")
      }
    }
  }
}
