import NotifModel
import TestSupport
import Testing

@testable import NotifPush

private let pushTypeList =
  "alert, background, complication, controls, fileprovider, liveactivity, location, mdm, pushtotalk, voip, widgets"
private let headerList =
  "apns-id, apns-expiration, apns-collapse-id, apns-priority, apns-push-type, apns-topic, and for broadcasts apns-channel-id and apns-request-id"

/// An envelope with `headers` (the inside of the headers object) around `{"aps":{"alert":"x"}}`.
private func enveloped(_ headers: String) -> String {
  #"{"headers":{"# + headers + #"},"payload":{"aps":{"alert":"x"}}}"#
}

@Suite struct MessageReaderFindingTests {
  // MARK: - Errors

  static let errors: [FindingCase] = [
    // FCMLegacyShutDown
    FindingCase(
      #"{"to":"t","notification":{"title":"x"}}"#,
      [
        (
          .error, "FCMLegacyShutDown",
          "this is an FCM legacy HTTP message: Google shut that API down in 2024, and it answers 404; send an HTTP v1 message",
          nil
        )
      ]),
    // NotAnObject
    FindingCase(
      "[1]", [(.error, "NotAnObject", "a payload must be a JSON object, not an array", nil)]),
    FindingCase(
      #""x""#, [(.error, "NotAnObject", "a payload must be a JSON object, not a string", nil)]),
    FindingCase(
      "null", [(.error, "NotAnObject", "a payload must be a JSON object, not null", nil)]),
    FindingCase(
      "5", [(.error, "NotAnObject", "a payload must be a JSON object, not a number", nil)]),
    // PayloadEmpty
    FindingCase("{}", [(.error, "PayloadEmpty", "the payload is empty: APNs rejects '{}'", nil)]),
    FindingCase(
      #"{"payload":{}}"#,
      [(.error, "PayloadEmpty", "the payload is empty: APNs rejects '{}'", #""payload":|{}"#)]),
    // BadPriority
    FindingCase(
      #"{"headers":{"apns-priority":10},"payload":{"aps":{"content-available":1}}}"#,
      [
        (
          .error, "BadPriority", "priority 10 is not allowed for a background push: use 5",
          #""apns-priority":|10"#
        )
      ]),
    FindingCase(
      #"{"headers":{"apns-priority":"10","apns-push-type":"background"},"payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadPriority", "priority 10 is not allowed for a background push: use 5",
          #""apns-priority":|"10""#
        )
      ]),
    FindingCase(
      enveloped(#""apns-priority":7"#),
      [(.error, "BadPriority", "'apns-priority' must be 10, 5 or 1", #""apns-priority":|7"#)]),
    FindingCase(
      enveloped(#""apns-priority":"high""#),
      [(.error, "BadPriority", "'apns-priority' must be 10, 5 or 1", #""apns-priority":|"high""#)]),
    FindingCase(
      enveloped(#""apns-priority":10.0"#),
      [(.error, "BadPriority", "'apns-priority' must be 10, 5 or 1", #""apns-priority":|10.0"#)]),
    // InvalidPushType
    FindingCase(
      enveloped(#""apns-push-type":"Alert""#),
      [
        (
          .error, "InvalidPushType", #"'apns-push-type' '"Alert"' is not one of "# + pushTypeList,
          #""apns-push-type":|"Alert""#
        )
      ]),
    FindingCase(
      enveloped(#""apns-push-type":1"#),
      [
        (
          .error, "InvalidPushType", "'apns-push-type' '1' is not one of " + pushTypeList,
          #""apns-push-type":|1"#
        )
      ]),
    // BadExpirationDate
    FindingCase(
      enveloped(#""apns-expiration":-1"#),
      [
        (
          .error, "BadExpirationDate", "'apns-expiration' must be whole seconds since 1970",
          #""apns-expiration":|-1"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-expiration":"soon""#),
      [
        (
          .error, "BadExpirationDate", "'apns-expiration' must be whole seconds since 1970",
          #""apns-expiration":|"soon""#
        )
      ]),
    FindingCase(
      enveloped(#""apns-expiration":1.5"#),
      [
        (
          .error, "BadExpirationDate", "'apns-expiration' must be whole seconds since 1970",
          #""apns-expiration":|1.5"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-expiration":99999999999999"#),
      [
        (
          .error, "BadExpirationDate", "'apns-expiration' 99999999999999 is after the year 9999",
          #""apns-expiration":|9"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-expiration":99999999999999999999"#),
      [
        (
          .error, "BadExpirationDate",
          "'apns-expiration' 99999999999999999999 is after the year 9999", #""apns-expiration":|9"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-expiration":"9223372036854775808""#),
      [
        (
          .error, "BadExpirationDate",
          "'apns-expiration' 9223372036854775808 is after the year 9999", #""apns-expiration":|"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-expiration":-99999999999999999999"#),
      [
        (
          .error, "BadExpirationDate", "'apns-expiration' must be whole seconds since 1970",
          #""apns-expiration":|-"#
        )
      ]),
    // BadMessageId
    FindingCase(
      enveloped(#""apns-id":"nope""#),
      [
        (
          .error, "BadMessageId",
          "'apns-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0", #""apns-id":|"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-id":"123e4567e-89b-12d3-a456-4266554400a0""#),
      [
        (
          .error, "BadMessageId",
          "'apns-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0", #""apns-id":|"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-id":"123e4567-e89b-12d3-a456-4266554400ag""#),
      [
        (
          .error, "BadMessageId",
          "'apns-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0", #""apns-id":|"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-id":5"#),
      [
        (
          .error, "BadMessageId",
          "'apns-id' must be a UUID such as 123e4567-e89b-12d3-a456-4266554400a0", #""apns-id":|5"#
        )
      ]),
    // BadCollapseId
    FindingCase(
      enveloped(#""apns-collapse-id":5"#),
      [(.error, "BadCollapseId", "'apns-collapse-id' must be a string", #""apns-collapse-id":|5"#)]),
    // BadBadge
    // BadSound
    // BadRelevanceScore
    // BadInterruptionLevel
    // BadSummaryArgCount
    // Past 2^53 - 1, what every JSON reader of the record holds exactly (FieldLimits).
    // BadLocArgs
    // BadDate
    // BadType
    // BadEnvelope
    FindingCase(
      #"{"headers":[],"payload":{"aps":{"alert":"x"}}}"#,
      [(.error, "BadEnvelope", "'headers' must be a dictionary of APNs headers", "[")]),
    FindingCase(
      #"{"app":5,"payload":{"aps":{"alert":"x"}}}"#,
      [(.error, "BadEnvelope", "'app' must be a bundle identifier string", "5")]),
    FindingCase(
      #"{"app":"","payload":{"aps":{"alert":"x"}}}"#,
      [(.error, "BadEnvelope", "'app' must be a bundle identifier string", #""app":|"#)]),
    FindingCase(
      #"{"received_at":"yesterday","payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadEnvelope",
          "'received_at': 'yesterday' is not an RFC 3339 time such as 2026-11-22T09:05:00Z",
          #""yesterday""#
        )
      ]),
    FindingCase(
      #"{"received_at":"2024-02-30T00:00:00Z","payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadEnvelope", "'received_at': '2024-02-30T00:00:00Z' is not a calendar date",
          #""2024"#
        )
      ]),
    FindingCase(
      #"{"received_at":1.5,"payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadEnvelope",
          "'received_at' must be an RFC 3339 time or whole seconds since 1970", "1.5"
        )
      ]),
    FindingCase(
      #"{"received_at":99999999999999,"payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadEnvelope",
          "'received_at': '99999999999999' is after the latest supported time, 9999-12-31T23:59:59.999999999Z",
          "999"
        )
      ]),
    FindingCase(
      #"{"received_at":-99999999999999999999,"payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadEnvelope",
          "'received_at': '-99999999999999999999' is before the earliest supported time, 0001-01-01T00:00:00Z",
          "-999"
        )
      ]),
    FindingCase(
      #"{"received_at":"0000-01-01T00:30:00+01:00","payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadEnvelope",
          "'received_at': '0000-01-01T00:30:00+01:00' is before the earliest supported time, 0001-01-01T00:00:00Z",
          #""0000"#
        )
      ]),
    FindingCase(
      #"{"received_at":"9999-12-31T23:59:59-01:00","payload":{"aps":{"alert":"x"}}}"#,
      [
        (
          .error, "BadEnvelope",
          "'received_at': '9999-12-31T23:59:59-01:00' is after the latest supported time, 9999-12-31T23:59:59.999999999Z",
          #""9999"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-topic":"""#),
      [
        (
          .error, "BadEnvelope", "'apns-topic' must be a bundle identifier string",
          #""apns-topic":|"#
        )
      ]),
    FindingCase(
      enveloped(#""apns-topic":5"#),
      [
        (
          .error, "BadEnvelope", "'apns-topic' must be a bundle identifier string",
          #""apns-topic":|"#
        )
      ]),
  ]

  @Test(arguments: errors)
  func reportsEachError(_ check: FindingCase) {
    let result = normalize(check.payload)
    #expect(result.findings.map(StatedFinding.init) == check.expected)
    #expect(result.findings.contains { $0.severity == .error })
  }

  // MARK: - Warnings

  static let warnings: [FindingCase] = [
    // Values inside aps that APNs delivers and iOS ignores (notif-rules(7), APNs)
    FindingCase(
      #"{"aps":{"badge":-1}}"#,
      [
        (
          .warning, "BadBadge",
          "'badge' must be a whole number from 0 to 9007199254740991, not '-1': iOS sets no badge",
          "-1"
        )
      ]),
    FindingCase(
      #"{"aps":{"badge":"3"}}"#,
      [
        (
          .warning, "BadBadge",
          #"'badge' must be a whole number from 0 to 9007199254740991, not '"3"': iOS sets no badge"#,
          #""3""#
        )
      ]),
    FindingCase(
      #"{"aps":{"badge":1.5}}"#,
      [
        (
          .warning, "BadBadge",
          "'badge' must be a whole number from 0 to 9007199254740991, not '1.5': iOS sets no badge",
          "1.5"
        )
      ]),
    FindingCase(
      #"{"aps":{"badge":null}}"#,
      [
        (
          .warning, "BadBadge",
          "'badge' must be a whole number from 0 to 9007199254740991, not 'null': iOS sets no badge",
          "null"
        )
      ]),
    FindingCase(
      #"{"aps":{"badge":99999999999999999999}}"#,
      [
        (
          .warning, "BadBadge",
          "'badge' must be a whole number from 0 to 9007199254740991, not '99999999999999999999': iOS sets no badge",
          "999"
        )
      ]),
    FindingCase(
      #"{"aps":{"sound":{"volume":0.5}}}"#,
      [
        (
          .warning, "BadSound", "a sound dictionary needs a 'name': iOS plays no sound",
          #""sound":|{"#
        )
      ]),
    FindingCase(
      #"{"aps":{"sound":{"name":"a","volume":1.5}}}"#,
      [
        (
          .warning, "BadSound",
          "the sound's 'volume' must be a number from 0 to 1, not '1.5': iOS does not read it",
          "1.5"
        )
      ]),
    FindingCase(
      #"{"aps":{"sound":{"name":"a","volume":"loud"}}}"#,
      [
        (
          .warning, "BadSound",
          #"the sound's 'volume' must be a number from 0 to 1, not '"loud"': iOS does not read it"#,
          #""loud""#
        )
      ]),
    FindingCase(
      #"{"aps":{"sound":{"name":"a","critical":2}}}"#,
      [
        (
          .warning, "BadSound", "the sound's 'critical' must be 0 or 1: iOS does not read it",
          #""critical":|2"#
        )
      ]),
    FindingCase(
      #"{"aps":{"sound":{"name":5}}}"#,
      [
        (.warning, "BadSound", "the sound's 'name' must be a string: iOS plays no sound", "5"),
        (
          .warning, "BadSound", "a sound dictionary needs a 'name': iOS plays no sound",
          #""sound":|{"#
        ),
      ]),
    FindingCase(
      #"{"aps":{"sound":5}}"#,
      [
        (
          .warning, "BadSound",
          "'sound' must be a sound name or a dictionary with name, critical and volume: iOS plays no sound",
          "5"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","relevance-score":1.5}}"#,
      [
        (
          .warning, "BadRelevanceScore",
          "'relevance-score' '1.5' is outside 0 to 1: iOS ranks the notification without it", "1.5"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","relevance-score":-0.1}}"#,
      [
        (
          .warning, "BadRelevanceScore",
          "'relevance-score' '-0.1' is outside 0 to 1: iOS ranks the notification without it",
          "-0.1"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","relevance-score":"high"}}"#,
      [
        (
          .warning, "BadRelevanceScore",
          "'relevance-score' must be a number: iOS ranks the notification without it", #""high""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","interruption-level":"urgent"}}"#,
      [
        (
          .warning, "BadInterruptionLevel",
          #"'interruption-level' '"urgent"' is not passive, active, time-sensitive or critical: iOS uses active"#,
          #""urgent""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","interruption-level":"Active"}}"#,
      [
        (
          .warning, "BadInterruptionLevel",
          #"'interruption-level' '"Active"' is not passive, active, time-sensitive or critical: iOS uses active"#,
          #""Active""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","summary-arg-count":0}}}"#,
      [
        (
          .warning, "BadSummaryArgCount",
          "'summary-arg-count' must be a whole number from 1 to 9007199254740991, not '0': iOS counts the notification once",
          ":|0"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","summary-arg-count":"2"}}}"#,
      [
        (
          .warning, "BadSummaryArgCount",
          #"'summary-arg-count' must be a whole number from 1 to 9007199254740991, not '"2"': iOS counts the notification once"#,
          #""2""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","summary-arg-count":1.5}}}"#,
      [
        (
          .warning, "BadSummaryArgCount",
          "'summary-arg-count' must be a whole number from 1 to 9007199254740991, not '1.5': iOS counts the notification once",
          "1.5"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","summary-arg-count":9007199254740992}}}"#,
      [
        (
          .warning, "BadSummaryArgCount",
          "'summary-arg-count' must be a whole number from 1 to 9007199254740991, not '9007199254740992': iOS counts the notification once",
          "9007"
        )
      ]),
    FindingCase(
      #"{"aps":{"badge":9007199254740992}}"#,
      [
        (
          .warning, "BadBadge",
          "'badge' must be a whole number from 0 to 9007199254740991, not '9007199254740992': iOS sets no badge",
          "9007"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"loc-key":"K","loc-args":["a",1]}}}"#,
      [
        (
          .warning, "BadLocArgs",
          "'loc-args' must be an array of strings: iOS cannot fill in the localized text", "["
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"title-loc-key":"K","title-loc-args":"a"}}}"#,
      [
        (
          .warning, "BadLocArgs",
          "'title-loc-args' must be an array of strings: iOS cannot fill in the localized text",
          #""title-loc-args":|"#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","subtitle-loc-args":{}}}}"#,
      [
        (
          .warning, "BadLocArgs",
          "'subtitle-loc-args' must be an array of strings: iOS cannot fill in the localized text",
          #""subtitle-loc-args":|"#
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"update","timestamp":-5}}"#,
      [
        (
          .warning, "BadDate",
          "'timestamp' must be whole seconds since 1970, not '-5': ActivityKit ignores the date",
          "-5"
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"update","stale-date":"soon"}}"#,
      [
        (
          .warning, "BadDate",
          #"'stale-date' must be whole seconds since 1970, not '"soon"': ActivityKit ignores the date"#,
          #""soon""#
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"end","dismissal-date":9999999999999999}}"#,
      [
        (
          .warning, "BadDate",
          "'dismissal-date' 9999999999999999 is after the year 9999: ActivityKit ignores the date",
          "999"
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"update","stale-date":99999999999999999999}}"#,
      [
        (
          .warning, "BadDate",
          "'stale-date' 99999999999999999999 is after the year 9999: ActivityKit ignores the date",
          "999"
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"update","timestamp":253402300800}}"#,
      [
        (
          .warning, "BadDate",
          "'timestamp' 253402300800 is after the year 9999: ActivityKit ignores the date", "253"
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"update","stale-date":"99999999999999999999"}}"#,
      [
        (
          .warning, "BadDate",
          #"'stale-date' must be whole seconds since 1970, not '"99999999999999999999"': ActivityKit ignores the date"#,
          #""999"#
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"update","timestamp":1.5e9}}"#,
      [
        (
          .warning, "BadDate",
          "'timestamp' must be whole seconds since 1970, not '1.5e9': ActivityKit ignores the date",
          "1.5e9"
        )
      ]),
    FindingCase(
      #"{"aps":[1]}"#,
      [
        (
          .warning, "BadType",
          "'aps' must be a dictionary, not an array: iOS shows nothing and does not wake the app",
          "["
        )
      ]),
    FindingCase(
      #"{"aps":"x"}"#,
      [
        (
          .warning, "BadType",
          "'aps' must be a dictionary, not a string: iOS shows nothing and does not wake the app",
          #""x""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":5}}"#,
      [
        (
          .warning, "BadType",
          "'alert' must be a string or a dictionary, not a number: iOS shows no alert", "5"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","category":5}}"#,
      [(.warning, "BadType", "'category' must be a string, not a number: iOS ignores the key", "5")]
    ),
    FindingCase(
      #"{"aps":{"alert":"x","thread-id":null}}"#,
      [(.warning, "BadType", "'thread-id' must be a string, not null: iOS ignores the key", "null")]
    ),
    FindingCase(
      #"{"aps":{"alert":"x","target-content-id":true}}"#,
      [
        (
          .warning, "BadType",
          "'target-content-id' must be a string, not a boolean: iOS ignores the key", "true"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","filter-criteria":1}}"#,
      [
        (
          .warning, "BadType",
          "'filter-criteria' must be a string, not a number: iOS ignores the key", ":|1"
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"begin"}}"#,
      [
        (
          .warning, "BadType",
          #"'event' must be start, update or end, not '"begin"': ActivityKit ignores the update"#,
          #""begin""#
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"update","content-state":1}}"#,
      [
        (
          .warning, "BadType",
          "'content-state' must be a dictionary: ActivityKit ignores the update", "1"
        )
      ]),
    FindingCase(
      #"{"aps":{"event":"start","attributes":[]}}"#,
      [
        (
          .warning, "BadType", "'attributes' must be a dictionary: ActivityKit ignores the update",
          "["
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","url-args":["a",1]}}"#,
      [
        (
          .warning, "BadType",
          "'url-args' must be an array of strings: Safari cannot fill in the website push's URL",
          "["
        )
      ]),
    FindingCase(
      #"{"aps":{"content-available":2}}"#,
      [
        (
          .warning, "BadType",
          "'content-available' must be 1, not '2': iOS does not wake the app for it", "2"
        ),
        (
          .warning, "ApsDoesNothing",
          "'aps' shows nothing, plays no sound, sets no badge and wakes nothing: iOS takes the push and does nothing with it",
          #""aps":|{"#
        ),
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","mutable-content":"1"}}"#,
      [
        (
          .warning, "BadType",
          #"'mutable-content' must be 1, not '"1"': iOS does not run the notification service extension"#,
          #""1""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"title":5}}}"#,
      [
        (
          .warning, "BadType",
          "'title' must be a string, not a number: iOS shows the alert without it", "5"
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","launch-image":[]}}}"#,
      [
        (
          .warning, "BadType",
          "'launch-image' must be a string, not an array: iOS shows the alert without it", "["
        )
      ]),
    // MisplacedKey
    FindingCase(
      #"{"aps":{"alert":"x","summary-arg":"Ann"}}"#,
      [
        (
          .warning, "MisplacedKey", "'summary-arg' belongs inside 'alert'; iOS ignores it in 'aps'",
          #""summary-arg""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":"x","summary-arg-count":2}}"#,
      [
        (
          .warning, "MisplacedKey",
          "'summary-arg-count' belongs inside 'alert'; iOS ignores it in 'aps'",
          #""summary-arg-count""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","sound":"a"}}}"#,
      [
        (
          .warning, "MisplacedKey",
          "'sound' belongs directly in 'aps'; outside a Live Activity iOS ignores it inside 'alert'",
          #""sound""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","thread-id":"t"}}}"#,
      [
        (
          .warning, "MisplacedKey",
          "'thread-id' belongs directly in 'aps'; iOS ignores it inside 'alert'", #""thread-id""#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{"body":"x","content-available":1}}}"#,
      [
        (
          .warning, "MisplacedKey",
          "'content-available' belongs directly in 'aps'; iOS ignores it inside 'alert'",
          #""content-available""#
        )
      ]),
    // CustomKeyInAps
    FindingCase(
      #"{"aps":{"alert":"x","foo":1}}"#,
      [
        (
          .warning, "CustomKeyInAps",
          "custom key 'foo' inside 'aps': Apple reserves 'aps'; put custom keys beside it",
          #""foo""#
        )
      ]),
    // UnknownKey
    FindingCase(
      #"{"aps":{"alert":{"title":"t","colour":"red"}}}"#,
      [(.warning, "UnknownKey", "unknown key 'colour' in 'alert'", #""colour""#)]),
    FindingCase(
      #"{"aps":{"sound":{"name":"a","loud":1}}}"#,
      [(.warning, "UnknownKey", "unknown key 'loud' in 'sound'", #""loud""#)]),
    // BoolForNumber
    FindingCase(
      #"{"aps":{"content-available":true}}"#,
      [(.warning, "BoolForNumber", "'content-available' is true; Apple documents 1", "true")]),
    FindingCase(
      #"{"aps":{"alert":"x","mutable-content":false}}"#,
      [
        (
          .warning, "BoolForNumber",
          "'mutable-content' is false; Apple documents 1 for on; leave the key out for off", "false"
        )
      ]),
    FindingCase(
      #"{"aps":{"sound":{"name":"a","critical":true}}}"#,
      [(.warning, "BoolForNumber", "the sound's 'critical' is true; Apple documents 1", "true")]),
    FindingCase(
      #"{"aps":{"sound":{"name":"a","critical":false}}}"#,
      [(.warning, "BoolForNumber", "the sound's 'critical' is false; Apple documents 0", "false")]),
    // ProbableMilliseconds
    FindingCase(
      #"{"aps":{"event":"update","timestamp":1700000000000}}"#,
      [
        (
          .warning, "ProbableMilliseconds",
          "'timestamp' 1700000000000 has 13 digits: probably milliseconds, not seconds; left null",
          "17"
        )
      ]),
    FindingCase(
      enveloped(#""apns-expiration":1700000000000"#),
      [
        (
          .warning, "ProbableMilliseconds",
          "'apns-expiration' 1700000000000 has 13 digits: probably milliseconds, not seconds; left null",
          "17"
        )
      ]),
    // NoAps
    FindingCase(
      #"{"foo":1}"#,
      [(.warning, "NoAps", "no 'aps' dictionary: iOS shows nothing and does not wake the app", nil)]
    ),
    FindingCase(
      #"{"payload":{"foo":1}}"#,
      [
        (
          .warning, "NoAps", "no 'aps' dictionary: iOS shows nothing and does not wake the app",
          #""payload":|"#
        )
      ]),
    // NoAlertText
    FindingCase(
      #"{"aps":{"alert":{"launch-image":"a.png"}}}"#,
      [
        (
          .warning, "NoAlertText",
          "'alert' has no title, subtitle or body and no localization key: iOS shows nothing",
          #""alert":|{"#
        )
      ]),
    FindingCase(
      #"{"aps":{"alert":{}}}"#,
      [
        (
          .warning, "NoAlertText",
          "'alert' has no title, subtitle or body and no localization key: iOS shows nothing",
          #""alert":|{"#
        )
      ]),
    // UnknownEnvelopeKey
    FindingCase(
      #"{"payload":{"aps":{"alert":"x"}},"extra":1}"#,
      [
        (
          .warning, "UnknownEnvelopeKey",
          "unknown envelope key 'extra': an envelope has headers, payload, app and received_at",
          #""extra""#
        )
      ]),
    // UnknownHeader
    FindingCase(
      enveloped(#""apns-foo":"x""#),
      [
        (
          .warning, "UnknownHeader", "unknown header 'apns-foo': APNs headers are " + headerList,
          #""apns-foo""#
        )
      ]),
    FindingCase(
      enveloped(#""APNS-ID":"x""#),
      [
        (
          .warning, "UnknownHeader", "unknown header 'APNS-ID': APNs headers are " + headerList,
          #""APNS-ID""#
        )
      ]),
  ]

  @Test(arguments: warnings)
  func reportsEachWarning(_ check: FindingCase) {
    let result = normalize(check.payload)
    #expect(result.findings.map(StatedFinding.init) == check.expected)
    #expect(!result.line.isEmpty)
  }

  static let clean: [String] = [
    #"{"aps":{"alert":"Hello"}}"#,
    #"{"aps":{"alert":{"title":"Hi","subtitle":"there","body":"How are you?"},"badge":0,"sound":"default"}}"#,
    #"{"aps":{"alert":{"title-loc-key":"T","title-loc-args":["a"],"loc-key":"B","loc-args":[],"summary-arg":"Ann","summary-arg-count":3}}}"#,
    #"{"aps":{"content-available":1},"custom":{"k":[1,2]}}"#,
    #"{"aps":{"alert":"x","interruption-level":"time-sensitive","relevance-score":0.5,"thread-id":"t","category":"c","target-content-id":"w","mutable-content":1,"url-args":["a"],"filter-criteria":"f"}}"#,
    #"{"aps":{"sound":{"name":"alarm.caf","critical":1,"volume":1}}}"#,
    #"{"aps":{"event":"update","content-state":{"n":1},"timestamp":1700000000,"stale-date":1700003600,"dismissal-date":1700007200,"relevance-score":100,"attributes-type":"A","attributes":{},"input-push-token":1,"input-push-channel":"c"}}"#,
    #"{"mdm":"00000000-1111-2222-3333-444444444444"}"#,
    #"{"aps":{"alert":"x"},"Simulator Target Bundle":"com.example.app"}"#,
    #"{"app":"com.a","received_at":"2026-11-22T09:05:00Z","headers":{"apns-id":"123E4567-E89B-12D3-A456-4266554400A0","apns-expiration":0,"apns-collapse-id":"c","apns-priority":"5","apns-push-type":"alert","apns-topic":"com.a"},"payload":{"aps":{"alert":"x"}}}"#,
    #"{"headers":{"apns-priority":5},"payload":{"aps":{"content-available":1}}}"#,
    #"{"aps":{"content-available":0,"alert":"x","mutable-content":0}}"#,
  ]

  @Test(arguments: clean)
  func findsNothingWrongInAValidPayload(_ payload: String) {
    let result = normalize(payload)
    #expect(result.findings == [])
    // Every key in order, but digested_at, which only notif-digest adds.
    #expect(result.keys == RecordField.written.map(\.key))
  }

  // MARK: - Limits

  /// `{"aps":{"alert":"xxx"}}` with `size` bytes in all.
  private static func alert(size: Int) -> String {
    #"{"aps":{"alert":""# + String(repeating: "x", count: size - 20) + #""}}"#
  }

  @Test func acceptsAPayloadOfExactly4096Bytes() {
    #expect(Self.alert(size: 4096).utf8.count == 4096)
    #expect(normalize(Self.alert(size: 4096)).findings == [])
  }

  @Test func rejectsAPayloadOf4097Bytes() {
    #expect(
      normalize(Self.alert(size: 4097)).findings == [
        .error(
          .apnsPayloadSize,
          "the payload is 4097 bytes; APNs accepts at most 4096 for alert pushes", at: 0)
      ])
  }

  @Test func measuresThePayloadInCompactCanonicalForm() {
    let spaced =
      #"{ "aps" : { "alert" : ""# + String(repeating: #"\u0078"#, count: 4076) + #"" } }"#
    #expect(spaced.utf8.count > 20_000)
    #expect(normalize(spaced).findings == [])
  }

  @Test func allowsVoIPPayloadsUpTo5120Bytes() {
    func voip(_ size: Int) -> String {
      #"{"headers":{"apns-push-type":"voip"},"payload":"# + Self.alert(size: size) + "}"
    }
    #expect(normalize(voip(5120)).findings == [])
    #expect(
      normalize(voip(5121)).findings == [
        .error(
          .apnsPayloadSize, "the payload is 5121 bytes; APNs accepts at most 5120 for voip pushes",
          at: 0)
      ])
    #expect(normalize(Self.alert(size: 5120), pushType: "voip").findings == [])
  }

  @Test func namesThePushTypeInTheSizeMessage() {
    let background =
      #"{"aps":{"content-available":1},"d":""# + String(repeating: "x", count: 4096) + #""}"#
    #expect(
      normalize(background).findings.map(\.message) == [
        "the payload is 4134 bytes; APNs accepts at most 4096 for background pushes"
      ])
    let unknown = #"{"custom":""# + String(repeating: "x", count: 4096) + #""}"#
    #expect(normalize(unknown).findings.map(\.code) == ["NoAps", "PayloadTooLarge"])
    #expect(normalize(unknown).findings.last?.message.hasSuffix("for alert pushes") == true)
  }

  @Test(arguments: [
    (String(repeating: "c", count: 64), nil as Int?),
    (String(repeating: "c", count: 65), 65),
    (String(repeating: "é", count: 32), nil),
    (String(repeating: "é", count: 33), 66),
    (String(repeating: "😀", count: 16), nil),
    (String(repeating: "😀", count: 17), 68),
  ])
  func limitsTheCollapseIdTo64Bytes(_ id: String, _ rejectedBytes: Int?) {
    let payload = enveloped(#""apns-collapse-id":""# + id + #"""#)
    let result = normalize(payload)
    if let rejectedBytes {
      #expect(
        result.findings == [
          .error(
            .apnsCollapseId,
            "'apns-collapse-id' is \(rejectedBytes) bytes; APNs accepts at most 64",
            at: offset(of: #""apns-collapse-id":|"#, in: payload))
        ])
    } else {
      #expect(result.findings == [])
      #expect(result["collapse_id"] == "\"\(id)\"")
    }
  }

  @Test(arguments: [1, 5])
  func acceptsPriorities1And5ForBackgroundPushes(_ priority: Int) {
    let result = normalize(
      #"{"headers":{"apns-priority":\#(priority)},"payload":{"aps":{"content-available":1}}}"#)
    #expect(result.findings == [])
    #expect(result["priority"] == "\(priority)")
  }

  @Test func acceptsPriority10ForAnAlert() {
    let result = normalize(enveloped(#""apns-priority":10"#))
    #expect(result.findings == [])
    #expect(result["priority"] == "10")
  }

  // MARK: - Live Activities

  @Test func allowsAnyRelevanceScoreInALiveActivity() {
    let result = normalize(#"{"aps":{"relevance-score":1.5,"event":"update","content-state":{}}}"#)
    #expect(result.findings == [])
    #expect(result["relevance"] == "1.5")
    #expect(result["push_type"] == #""liveactivity""#)
  }

  @Test func theLiveActivityPushTypeHeaderAllowsAnyRelevanceScore() {
    let result = normalize(
      #"{"headers":{"apns-push-type":"liveactivity"},"payload":{"aps":{"alert":"x","relevance-score":150}}}"#
    )
    #expect(result.findings == [])
    #expect(result["relevance"] == "150")
  }

  @Test func readsTheSoundOfALiveActivityAlert() {
    let result = normalize(
      #"{"aps":{"event":"update","content-state":{},"alert":{"title":"t","body":"b","sound":"chime.caf"}}}"#
    )
    #expect(result.findings == [])
    #expect(result["sound"] == #""chime.caf""#)
  }

  @Test func theApsSoundWinsOverTheAlertSoundOfALiveActivity() {
    let result = normalize(
      #"{"aps":{"event":"end","sound":"a.caf","alert":{"title":"t","sound":"b.caf"}}}"#)
    #expect(result.findings == [])
    #expect(result["sound"] == #""a.caf""#)
  }

  // MARK: - Several findings

  @Test func reportsEveryProblemInTheOrderFound() {
    let payload =
      #"{"headers":{"apns-priority":7,"x-custom":1},"payload":{"aps":{"badge":-1,"foo":2,"alert":{"colour":1}}},"extra":true}"#
    #expect(
      normalize(payload).findings == [
        .error(
          .apnsPriority, "'apns-priority' must be 10, 5 or 1",
          at: offset(of: #""apns-priority":|7"#, in: payload)),
        .warning(
          .apnsUnknownHeader, "unknown header 'x-custom': APNs headers are " + headerList,
          at: offset(of: #""x-custom""#, in: payload)),
        .warning(
          .envelopeUnknownKey,
          "unknown envelope key 'extra': an envelope has headers, payload, app and received_at",
          at: offset(of: #""extra""#, in: payload)),
        .warning(
          .apnsBadge,
          "'badge' must be a whole number from 0 to 9007199254740991, not '-1': iOS sets no badge",
          at: offset(of: "-1", in: payload)),
        .warning(
          .apnsCustomInAps,
          "custom key 'foo' inside 'aps': Apple reserves 'aps'; put custom keys beside it",
          at: offset(of: #""foo""#, in: payload)),
        .warning(
          .apnsAlertUnknown, "unknown key 'colour' in 'alert'",
          at: offset(of: #""colour""#, in: payload)
        ),
        .warning(
          .apnsAlertNoText,
          "'alert' has no title, subtitle or body and no localization key: iOS shows nothing",
          at: offset(of: #""alert":|{"#, in: payload)),
      ])
  }

  @Test func recognizesKeysWrittenWithEscapes() {
    let result = normalize(#"{"\u0061ps":{"\u0062adge":2,"alert":"x"}}"#)
    #expect(result.findings == [])
    #expect(result["badge"] == "2")
  }

  @Test func aTextWithBothApsAndPayloadIsNotAnEnvelope() {
    let result = normalize(#"{"aps":{"alert":"x"},"payload":{"k":1}}"#)
    #expect(result.findings == [])
    #expect(result["payload"] == #"{"aps":{"alert":"x"},"payload":{"k":1}}"#)
  }

  @Test func rejectedIsTrueOnlyForErrors() {
    var normalizer = MessageReader(
      defaults: InputDefaults(app: nil, pushType: nil, now: Timestamp(seconds: 0)))
    _ = normalize(#"{"foo":1}"#, with: &normalizer)
    #expect(!normalizer.rejected)
    _ = normalize(#"{"aps":{"badge":-1}}"#, with: &normalizer)
    #expect(!normalizer.rejected)  // APNs delivers it: a warning
    _ = normalize(
      #"{"headers":{"apns-priority":7},"payload":{"aps":{"badge":1}}}"#, with: &normalizer)
    #expect(normalizer.rejected)
    _ = normalize(#"{"aps":{"badge":1}}"#, with: &normalizer)
    #expect(!normalizer.rejected)
  }
}
