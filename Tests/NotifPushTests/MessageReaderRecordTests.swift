import NotifJSON
import NotifModel
import Testing

@testable import NotifPush

/// Every key notif-parse writes: all but `digested_at`, which only notif-digest adds.
private let allKeys = RecordField.written.map(\.key)

@Suite struct MessageReaderRecordTests {
  @Test func fillsEveryFieldFromAnEnvelope() throws {
    let payload =
      #"{"aps":{"alert":{"title":"Hi","subtitle":"Sub","body":"There","title-loc-key":"TK","title-loc-args":["a"],"subtitle-loc-key":"SK","subtitle-loc-args":["b"],"loc-key":"LK","loc-args":["c","d"],"summary-arg":"Ann","summary-arg-count":2},"thread-id":"t1","category":"MSG","relevance-score":0.50,"interruption-level":"active","badge":3,"sound":{"name":"ping.caf","critical":1,"volume":0.8},"content-available":1,"mutable-content":1,"target-content-id":"w1"},"k":"v"}"#
    let text =
      #"{"received_at":"2026-11-22T10:05:00+01:00","headers":{"apns-collapse-id":"c1","apns-expiration":1700000000,"apns-priority":10,"apns-topic":"com.example.app","apns-push-type":"alert"},"payload":"#
      + payload + "}"
    let result = normalize(text)
    #expect(result.findings == [])
    #expect(result.keys == allKeys)
    let expected: [String: String] = [
      "app": #""com.example.app""#, "thread_id": #""t1""#, "category": #""MSG""#, "title": #""Hi""#,
      "subtitle": #""Sub""#, "body": #""There""#, "title_loc_key": #""TK""#,
      "title_loc_args": #"["a"]"#,
      "subtitle_loc_key": #""SK""#, "subtitle_loc_args": #"["b"]"#, "loc_key": #""LK""#,
      "loc_args": #"["c","d"]"#, "created_at": #""2026-11-22T09:05:00Z""#, "relevance": "0.50",
      "interruption_level": #""active""#, "badge": "3", "sound": #""ping.caf""#,
      "sound_critical": "true",
      "sound_volume": "0.8", "summary_arg": #""Ann""#, "summary_arg_count": "2",
      "collapse_id": #""c1""#,
      "expires_at": #""2023-11-14T22:13:20Z""#, "priority": "10", "push_type": #""alert""#,
      "topic": #""com.example.app""#, "content_available": "true", "mutable_content": "true",
      "target_content_id": #""w1""#, "event": "null", "timestamp": "null", "stale_at": "null",
      "dismiss_at": "null", "read_at": "null", "seen_at": "null", "source": #""apns""#,
      "payload": payload,
    ]
    for key in allKeys where key != "id" {
      #expect(result[key] == expected[key], "\(key)")
    }
    let id = try #require(result["id"])
    #expect(
      id.count == 18 && id.dropFirst().dropLast().allSatisfy { $0.isHexDigit && !$0.isUppercase })
    #expect(result.line.hasSuffix("}\n"))
  }

  @Test func fillsTheLiveActivityFields() {
    let result = normalize(
      #"{"aps":{"event":"update","content-state":{"n":1},"timestamp":1700000000,"stale-date":1700003600,"dismissal-date":1700007200}}"#
    )
    #expect(result.findings == [])
    #expect(result["event"] == #""update""#)
    #expect(result["timestamp"] == #""2023-11-14T22:13:20Z""#)
    #expect(result["stale_at"] == #""2023-11-14T23:13:20Z""#)
    #expect(result["dismiss_at"] == #""2023-11-15T00:13:20Z""#)
    #expect(result["push_type"] == #""liveactivity""#)
  }

  @Test func aBareStringAlertIsTheBody() {
    let result = normalize(#"{"aps":{"alert":"Hello \u00e9"}}"#)
    #expect(result["body"] == #""Hello é""#)
    #expect(result["title"] == "null")
  }

  /// 2^53 - 1, the largest whole number a record holds (FieldLimits): written as it came, so
  /// that notif-group, notif-summarize and jq read it exactly.
  @Test func theLargestCountsAreKeptExactly() {
    let result = normalize(
      #"{"aps":{"alert":{"body":"x","summary-arg-count":9007199254740991},"badge":9007199254740991}}"#
    )
    #expect(result["summary_arg_count"] == "9007199254740991")
    #expect(result["badge"] == "9007199254740991")
  }

  @Test func givesDefaultsForWhatThePayloadLeavesOut() {
    let result = normalize(#"{"aps":{"alert":"x"}}"#, now: Timestamp(seconds: 1_795_338_300))
    #expect(result.keys == allKeys)
    #expect(result["summary_arg_count"] == "1")
    #expect(result["content_available"] == "false")
    #expect(result["mutable_content"] == "false")
    #expect(result["sound_critical"] == "false")
    #expect(result["created_at"] == #""2026-11-22T09:05:00Z""#)
    for key in [
      "app", "badge", "sound", "priority", "expires_at", "collapse_id", "topic", "read_at",
      "seen_at",
    ] {
      #expect(result[key] == "null", "\(key)")
    }
  }

  @Test func aStringSoundIsNotCritical() {
    let result = normalize(#"{"aps":{"sound":"default"}}"#)
    #expect(result["sound"] == #""default""#)
    #expect(result["sound_critical"] == "false")
    #expect(result["sound_volume"] == "null")
  }

  // MARK: - app

  @Test(arguments: [
    (
      #"{"app":"com.env","headers":{"apns-topic":"com.topic.voip"},"payload":{"aps":{"alert":"x"},"Simulator Target Bundle":"com.sim"}}"#,
      "com.flag" as String?, #""com.env""#
    ),
    (
      #"{"headers":{"apns-topic":"com.topic.voip"},"payload":{"aps":{"alert":"x"},"Simulator Target Bundle":"com.sim"}}"#,
      "com.flag", #""com.topic""#
    ),
    (#"{"aps":{"alert":"x"},"Simulator Target Bundle":"com.sim"}"#, "com.flag", #""com.sim""#),
    (#"{"aps":{"alert":"x"},"Simulator Target Bundle":5}"#, "com.flag", #""com.flag""#),
    (#"{"aps":{"alert":"x"}}"#, "com.flag", #""com.flag""#),
    (#"{"aps":{"alert":"x"}}"#, nil, "null"),
  ])
  func takesTheAppFromEnvelopeTopicSimulatorBundleThenOption(
    _ text: String, _ option: String?, _ app: String
  ) {
    #expect(normalize(text, app: option)["app"] == app)
  }

  @Test(arguments: [
    ("com.t.voip", "com.t"), ("com.t.complication", "com.t"),
    ("com.t.pushkit.fileprovider", "com.t"),
    ("com.t.push-type.liveactivity", "com.t"), ("com.t.voip-ptt", "com.t"), ("com.t", "com.t"),
    ("com.t.voipx", "com.t.voipx"), ("com.t.fileprovider", "com.t.fileprovider"),
  ])
  func removesThePushTypeSuffixOfTheTopic(_ topic: String, _ app: String) {
    let result = normalize(
      #"{"headers":{"apns-topic":"\#(topic)"},"payload":{"aps":{"alert":"x"}}}"#)
    #expect(result["app"] == "\"\(app)\"")
    #expect(result["topic"] == "\"\(topic)\"")
  }

  // MARK: - push_type

  @Test(arguments: [
    (#"{"aps":{"event":"update","content-state":{}}}"#, nil as String?, #""liveactivity""#),
    (#"{"aps":{"alert":"x","stale-date":1700000000}}"#, nil, #""liveactivity""#),
    (#"{"aps":{"content-available":1}}"#, nil, #""background""#),
    (#"{"aps":{"content-available":1},"custom":1}"#, nil, #""background""#),
    (#"{"mdm":"x"}"#, nil, #""mdm""#),
    (#"{"aps":{"alert":"x"}}"#, nil, #""alert""#),
    (#"{"aps":{"badge":1}}"#, nil, #""alert""#),
    (#"{"aps":{"sound":"a"}}"#, nil, #""alert""#),
    (#"{"aps":{"category":"c"}}"#, nil, "null"),
    (#"{"aps":{"content-available":1,"thread-id":"t"}}"#, nil, "null"),
    (#"{"aps":{"content-available":0}}"#, nil, "null"),
    (#"{"foo":1}"#, nil, "null"),
    (#"{"aps":{"alert":"x"}}"#, "location", #""location""#),
    (#"{"headers":{"apns-push-type":"voip"},"payload":{"aps":{"alert":"x"}}}"#, nil, #""voip""#),
    (
      #"{"headers":{"apns-push-type":"alert"},"payload":{"aps":{"content-available":1}}}"#, "voip",
      #""alert""#
    ),
  ])
  func takesThePushTypeFromHeaderThenOptionThenPayload(
    _ text: String, _ option: String?, _ pushType: String
  ) {
    #expect(normalize(text, pushType: option)["push_type"] == pushType)
  }

  // MARK: - id

  @Test func theSamePayloadWrittenDifferentlyGetsTheSameId() {
    let compact = normalize(#"{"aps":{"alert":{"title":"Café","body":"x"}}}"#, app: "com.a")
    let pretty = normalize(
      "{\n  \"aps\": {\n    \"alert\": {\"title\": \"Caf\\u00e9\", \"body\": \"x\"}\n  }\n}",
      app: "com.a")
    #expect(compact["id"] != nil)
    #expect(compact["id"] == pretty["id"])
    #expect(compact.line == pretty.line)
  }

  @Test func anEnvelopeWithoutReceivedAtGetsTheIdOfItsBarePayload() {
    let bare = normalize(#"{"aps":{"alert":"x"}}"#, app: "com.a")
    let envelope = normalize(#"{"app":"com.a","payload":{"aps":{"alert":"x"}}}"#)
    #expect(bare["id"] == envelope["id"])
  }

  @Test func theIdDependsOnAppReceivedAtAndPayload() {
    let ids = [
      normalize(#"{"aps":{"alert":"x"}}"#, app: "com.a")["id"],
      normalize(#"{"aps":{"alert":"x"}}"#, app: "com.b")["id"],
      normalize(#"{"aps":{"alert":"y"}}"#, app: "com.a")["id"],
      normalize(#"{"app":"com.a","received_at":0,"payload":{"aps":{"alert":"x"}}}"#)["id"],
      normalize(#"{"app":"com.a","received_at":1,"payload":{"aps":{"alert":"x"}}}"#)["id"],
    ]
    #expect(Set(ids).count == ids.count)
  }

  @Test func theIdIsTheStableHashOfAppReceivedAtAndCompactPayload() {
    let result = normalize(
      #"{"app":"com.a","received_at":"2026-11-22T09:05:00Z","payload":{ "aps" : {"alert":"x"} }}"#)
    let id = Array(#"{"aps":{"alert":"x"}}"#.utf8).withUnsafeBytes {
      MessageReader.stableID(
        app: "com.a", receivedAt: Timestamp(seconds: 1_795_338_300), payload: $0)
    }
    var hex = ByteBuffer()
    hex.append(hex: id)
    #expect(result["id"] == "\"\(hex.text)\"")
  }

  /// Ids are stored in users' inboxes: the hash must never change.
  @Test func theIdOfAKnownPayloadNeverChanges() {
    #expect(normalize(#"{"aps":{"alert":"x"}}"#)["id"] == #""b1582e679901b57f""#)
  }

  @Test func theApnsIdHeaderIsTheIdAsGiven() {
    let result = normalize(
      #"{"headers":{"apns-id":"123E4567-e89b-12D3-A456-4266554400A0"},"payload":{"aps":{"alert":"x"}}}"#
    )
    #expect(result["id"] == #""123E4567-e89b-12D3-A456-4266554400A0""#)
  }

  // MARK: - Times

  @Test(arguments: [
    (#""2026-11-22T10:05:00+01:00""#, #""2026-11-22T09:05:00Z""#),
    (#""2026-11-22T09:05:00.250Z""#, #""2026-11-22T09:05:00.250Z""#),
    ("1763802300", #""2025-11-22T09:05:00Z""#),
    ("0", #""1970-01-01T00:00:00Z""#),
  ])
  func createdAtIsTheEnvelopesReceivedAt(_ receivedAt: String, _ createdAt: String) {
    let result = normalize(
      #"{"received_at":\#(receivedAt),"payload":{"aps":{"alert":"x"}}}"#,
      now: Timestamp(seconds: 99))
    #expect(result.findings == [])
    #expect(result["created_at"] == createdAt)
  }

  @Test(arguments: [
    ("0", "null"), ("1700000000", #""2023-11-14T22:13:20Z""#),
    (#""1700000000""#, #""2023-11-14T22:13:20Z""#),
    ("1700000000000", "null"),
  ])
  func expiresAtIsTheExpirationHeaderAndZeroIsNull(_ header: String, _ expiresAt: String) {
    let result = normalize(
      #"{"headers":{"apns-expiration":\#(header)},"payload":{"aps":{"alert":"x"}}}"#)
    #expect(result["expires_at"] == expiresAt)
  }

  @Test func aProbableMillisecondsTimestampIsLeftNull() {
    let result = normalize(#"{"aps":{"event":"update","timestamp":1700000000000}}"#)
    #expect(result.findings.map(\.code) == ["ProbableMilliseconds"])
    #expect(result["timestamp"] == "null")
  }

  // MARK: - payload

  @Test func thePayloadOfAnEnvelopeIsItsInnerPayloadCompact() {
    let result = normalize(
      #"{"app":"com.a","payload":{ "aps" : { "alert" : "\u0078" }, "Simulator Target Bundle" : "com.sim", "n": 1.0 }}"#
    )
    #expect(
      result["payload"] == #"{"aps":{"alert":"x"},"Simulator Target Bundle":"com.sim","n":1.0}"#)
  }

  @Test func copyingACompactTextGivesTheSameRecordAsWritingIt() {
    let text = #"{"aps":{"alert":{"title":"é","body":"b"},"badge":1},"n":[1.0,1e5]}"#
    var normalizer = MessageReader(
      defaults: InputDefaults(app: "com.a", pushType: nil, now: Timestamp(seconds: 0)))
    let copied = normalize(text, with: &normalizer, isCompact: true)
    let written = normalize(text, with: &normalizer, isCompact: false)
    #expect(copied.line == written.line)
  }

  @Test func aReusedNormalizerKeepsNothingFromTheLastText() {
    let defaults = InputDefaults(app: nil, pushType: nil, now: Timestamp(seconds: 0))
    var reused = MessageReader(defaults: defaults)
    _ = normalize(
      #"{"app":"com.a","received_at":5,"headers":{"apns-id":"123e4567-e89b-12d3-a456-4266554400a0","apns-collapse-id":"c","apns-priority":5,"apns-push-type":"voip","apns-topic":"com.a.voip","apns-expiration":1700000000},"payload":{"aps":{"alert":{"title":"t","body":"b"},"badge":2,"sound":{"name":"s","critical":1},"content-available":1,"mutable-content":1,"event":"update"}}}"#,
      with: &reused)
    let second = #"{"aps":{"alert":"y"}}"#
    var fresh = MessageReader(defaults: defaults)
    #expect(normalize(second, with: &reused).line == normalize(second, with: &fresh).line)
    #expect(reused.findings == [])
  }
}
