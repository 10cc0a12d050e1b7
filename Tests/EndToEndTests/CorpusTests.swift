import Foundation
import Testing

/// What every payload of the shared corpus must produce, read against the payload and the
/// note on where it came from (its ORIGIN file), not copied from the tool: the line and column
/// of each diagnostic, its code, the exit status, and the record fields that say the payload
/// was understood. The golden files hold the full output; this table says why it is right.
@Suite struct CorpusTests {
  struct Expectation: CustomStringConvertible, Sendable {
    var name: String
    var status: Int32
    var diagnostics: [String]  // "LINE:COLUMN severity Code", in output order
    var fields: [String: String]  // record key -> its JSON text, for the first record

    init(_ name: String, status: Int32, diagnostics: [String], fields: [String: String]) {
      self.name = name
      self.status = status
      self.diagnostics = diagnostics
      self.fields = fields
    }

    var description: String { name }
  }

  static let expectations: [Expectation] = [
    // .apns simulator file
    .init(
      "001-simulator-sound-inside-alert", status: 0, diagnostics: ["6:7 warning MisplacedKey"],
      fields: [
        "app": "\"com.glowingsoft.carecall\"", "push_type": "\"alert\"", "title": "\"Test Push\"",
        "body": "\"Success! Push notification in simulator! 🎉\"",
      ]),
    // .apns Live Activity update (event=update, timestamp, content-state with nested array of ob
    .init(
      "002-liveactivity-update-stocklist", status: 0, diagnostics: [],
      fields: ["app": "\"com.ann.LiveActivities\"", "push_type": "\"liveactivity\""]),
    // alert as plain string + sound default + badge 1
    .init(
      "003-simulator-alert-string-badge", status: 0, diagnostics: [],
      fields: ["app": "\"com.ann.LiveActivities\"", "push_type": "\"alert\"", "body": "\"Hello!\""]),
    // alert dict title/body
    .init(
      "004-simulator-alert-dict-badge7", status: 0, diagnostics: [],
      fields: [
        "app": "\"com.ann.LiveActivities\"", "push_type": "\"alert\"",
        "title": "\"Push On Simulator\"", "body": "\"You have sent it on simulator\"",
      ]),
    // Go raw-string literal, no unescaping needed
    .init(
      "005-apns2go-empty-aps", status: 0, diagnostics: ["1:8 warning ApsDoesNothing"],
      fields: [:]),
    // Go raw-string literal, no unescaping needed
    .init(
      "006-apns2go-badge-zero", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "007-apns2go-sound-critical-dict", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "008-apns2go-sound-volume-int1", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "009-apns2go-content-available-only", status: 0, diagnostics: [],
      fields: ["push_type": "\"background\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "010-apns2go-mutable-content-only", status: 0,
      diagnostics: ["1:9 warning MutableContentWithoutAlert"],
      fields: [:]),
    // Go raw-string literal, no unescaping needed
    .init(
      "011-apns2go-custom-nested", status: 0, diagnostics: ["1:8 warning ApsDoesNothing"],
      fields: [:]),
    // Go raw-string literal, no unescaping needed
    .init(
      "012-apns2go-title-loc-key-only", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "013-apns2go-loc-args-without-loc-key", status: 0, diagnostics: ["1:17 warning NoAlertText"],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "014-apns2go-subtitle-loc-args", status: 0, diagnostics: ["1:17 warning NoAlertText"],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "015-apns2go-launch-image", status: 0, diagnostics: ["1:17 warning NoAlertText"],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "016-apns2go-action-legacy", status: 0, diagnostics: ["1:17 warning NoAlertText"],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "017-apns2go-action-loc-key", status: 0, diagnostics: ["1:17 warning NoAlertText"],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "018-apns2go-content-state-only", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "019-apns2go-dismissal-date-only", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "020-apns2go-attributes-only", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "021-apns2go-mdm", status: 0, diagnostics: [],
      fields: ["push_type": "\"mdm\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "022-apns2go-url-args", status: 0, diagnostics: ["1:8 warning ApsDoesNothing"],
      fields: [:]),
    // Go raw-string literal, no unescaping needed
    .init(
      "023-apns2go-summary-arg", status: 0, diagnostics: ["1:17 warning NoAlertText"],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "024-apns2go-summary-arg-count", status: 0, diagnostics: ["1:17 warning NoAlertText"],
      fields: ["push_type": "\"alert\""]),
    // Go raw-string literal, no unescaping needed
    .init(
      "025-apns2go-thread-id", status: 0, diagnostics: ["1:8 warning ApsDoesNothing"],
      fields: [:]),
    // Go raw-string literal, no unescaping needed
    .init(
      "026-apns2go-interruption-critical", status: 0, diagnostics: ["1:8 warning ApsDoesNothing"],
      fields: [:]),
    // Go raw-string literal, no unescaping needed
    .init(
      "027-apns2go-relevance-zero", status: 0, diagnostics: ["1:8 warning ApsDoesNothing"],
      fields: [:]),
    // Go raw-string literal, no unescaping needed
    .init(
      "028-apns2go-combined", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "body": "\"hello\""]),
    // UNESCAPED from Java string literal "{\"mdm\":\"Magic!\"}"
    .init(
      "029-pushy-mdm-no-aps", status: 0, diagnostics: [],
      fields: ["push_type": "\"mdm\""]),
    // extracted README.md line 132 (json code block)
    .init(
      "030-nodeapn-readme-surrogate-escapes", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "body": "\"📧 ✉ You have a new message\""]),
    // extracted README.md line 195
    .init(
      "031-nodeapn-readme-liveactivity-mixed", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\"", "body": "\"📧 ✉ You have a new message\""]),
    // extracted lines 74-80 of rawPayload example
    .init(
      "032-nodeapn-doc-rawpayload-background", status: 0, diagnostics: [],
      fields: ["push_type": "\"background\""]),
    // extracted lines 146-157
    .init(
      "033-nodeapn-doc-alert-action-mutable", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "title": "\"node-apn\"", "body": "\"Hello, world!\""]),
    // full-featured alert: critical sound dict, interruption-level critical, target-content-id,
    .init(
      "034-apnswift-alert-full-critical-sound", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "title": "\"title\"", "body": "\"body\""]),
    // LA update with alert containing "sound" INSIDE alert (correct for Live Activity alerts, wr
    .init(
      "035-apnswift-la-update-alert-with-sound", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\"", "title": "\"Hi\"", "body": "\"Hello\""]),
    // push-to-start: event start + attributes-type + attributes + content-state + alert + stale-
    .init(
      "036-apnswift-la-start-push-to-start", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\"", "title": "\"Hi\"", "body": "\"Hello\""]),
    // event end with dismissal-date
    .init(
      "037-apnswift-la-end-dismissal", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\""]),
    // aps.content-changed as JSON boolean true (widgets push type) -- not the 1 integer used for
    .init(
      "038-apnswift-widgets-content-changed-bool", status: 0, diagnostics: [],
      fields: ["push_type": "\"widgets\""]),
    // custom key foo before aps, content-available 1
    .init(
      "039-apnswift-background-custom-first", status: 0, diagnostics: [],
      fields: ["push_type": "\"background\""]),
    // UNESCAPED from Objective-C string literal (\n, \t, \" escapes)
    .init(
      "040-knuff-default-payload-tabs", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "body": "\"Test\""]),
    // quirk: custom key "ejson" holds a JSON document serialized AS A STRING (escaped quotes)
    .init(
      "041-rocketchat-ejson-stringified", status: 0, diagnostics: [],
      fields: [
        "app": "\"chat.rocket.reactnative\"", "push_type": "\"alert\"", "title": "\"Hey!\"",
        "body": "\"You have a new push\"",
      ]),
    // German text with umlauts, guillemets «», Turkish ğ
    .init(
      "042-republik-long-german-custom-dupes", status: 0, diagnostics: [],
      fields: [
        "app": "\"app.republik\"", "push_type": "\"alert\"",
        "title": "\"«Was diese Woche wichtig war» jetzt online\"",
        "body":
          "\"Das Nachrichtenbriefing: Europa in der zweiten Welle, Abtreibungsverbot in Polen, Abwehrschlacht in der Ägäis und Macron gegen Erdoğan\"",
      ]),
    // no Simulator Target Bundle (bundle passed on CLI)
    .init(
      "043-siimon-mixed-tab-space-indent", status: 0, diagnostics: [],
      fields: [
        "push_type": "\"alert\"", "title": "\"Hello, Notification!\"",
        "body": "\"This notification is pushed through simctl\"",
      ]),
    // quirk: "mutable-content": false (JSON boolean instead of integer 0/1)
    .init(
      "047-smashpros-mutable-content-false-bool", status: 0,
      diagnostics: ["7:25 warning BoolForNumber"],
      fields: ["push_type": "\"alert\"", "title": "\"Default title\"", "body": "\"Default body\""]),
    // WWDC 2016 session 707 sample: title/subtitle/body, non-ASCII right single quotation mark i
    .init(
      "048-wwdc2016-subtitle-curly-apostrophe", status: 0, diagnostics: [],
      fields: [
        "push_type": "\"alert\"", "title": "\"Introduction to Notifications\"",
        "body": "\"Woah! These new notifications look amazing! Don’t you agree?\"",
      ]),
    // extracted lines 38-54 (Swift multi-line string endPayload
    .init(
      "052-higlab-la-end-null-emoji-korean", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\"", "title": "\"배달 완료!\"", "body": "\"맛있게 드세요 🍕\""]),
    // whole file is a bare JSON payload despite .swift extension
    .init(
      "053-higlab-la-update-json-in-swift-file", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\""]),
    // extracted lines 12-41
    .init(
      "066-fcm-v1-webpush-actions-emoji", status: 0, diagnostics: [],
      fields: ["source": "\"fcm\""]),
    // extracted lines 44-66
    .init(
      "068-fcm-v1-ios-apns-override", status: 0, diagnostics: [],
      fields: [
        "source": "\"fcm\"", "title": "\"title IOS\"", "body": "\"Body IOS\"",
        "push_type": "\"alert\"",
      ]),
    // extracted lines 57-65 (HTTP section body)
    .init(
      // The legacy endpoint is shut down: the message is refused.
      "071-fcm-legacy-http-web-notification", status: 1,
      diagnostics: ["1:1 error FCMLegacyShutDown"], fields: [:]),
    // AWS SNS envelope: platform payload is a JSON document ENCODED AS A STRING under key "GCM"
    .init(
      // SNS translates the legacy shape into an FCM HTTP v1 message.
      "072-sns-envelope-gcm-stringified", status: 0,
      diagnostics: [],
      fields: [
        "source": "\"sns\"", "title": "\"TitleTest\"",
        "body": "\"Sample message for Android or iOS endpoints\"",
      ]),
    // stringified FCM legacy payload with time_to_live (number) and collapse_key placed INSIDE d
    .init(
      "073-sns-envelope-gcm-time-to-live-in-data", status: 1,
      diagnostics: ["2:145 error FCMDataNotString"],
      fields: [:]),
    // stringified APNs background payload under "APNS" with custom Foo1/Foo2
    .init(
      "074-sns-envelope-apns-background-stringified", status: 0, diagnostics: [],
      fields: ["source": "\"sns\"", "push_type": "\"background\""]),
    // extracted lines 203-233
    .init(
      "077-webkit-declarative-push-explainer-early-format", status: 1,
      diagnostics: [
        "6:12 error WebPushBadValue", "7:15 error BadType", "28:3 warning WebPushUnknownKey",
      ],
      fields: [:]),
    // Declarative Web Push (web_push 8030) with every option: app_badge 0, mutable true, actions
    .init(
      "078-swiftwebpush-declarative-complete-dir-rtf", status: 0,
      diagnostics: [
        "2:3 warning WebPushSafariDiffers", "3:3 warning WebPushSafariDiffers",
        "21:13 warning WebPushSafariDiffers",
      ],
      fields: [:]),
    // minimal Declarative Web Push: notification{navigate,timestamp,title} + web_push 8030
    .init(
      "079-swiftwebpush-declarative-simple", status: 0, diagnostics: [],
      fields: ["source": "\"webpush\"", "title": "\"New Anime\""]),
    // same notification WITHOUT the web_push marker (legacy/service-worker shape) -- a validator
    .init(
      "080-swiftwebpush-legacy-no-web-push-key", status: 0,
      diagnostics: ["1:1 warning WebPushNotDeclarative"],
      fields: ["source": "\"webpush\"", "title": "\"New Anime\""]),
    // generated by Xcode watchOS app template: top-level "WatchKit Simulator Actions" array (Xco
    .init(
      "082-xcode-watchkit-template-simulator-actions", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "title": "\"Optional title\"", "body": "\"Test message\""]),
    // one-line aps with alert string containing "@" and IP:port
    .init(
      "084-udo-mqtt-custom-object-ip", status: 0, diagnostics: [],
      fields: [
        "app": "\"cn.edu.nju.czh.UDO-Client\"", "push_type": "\"alert\"",
        "body": "\"This device will connect to the UDO MQTT service @ 210.28.132.168:31768\"",
      ]),
    // content-available only + nested customData object
    .init(
      "086-kmp-background-nested-custom", status: 0, diagnostics: [],
      fields: ["push_type": "\"background\""]),
    // QUIRKS from a shipping Swift app: "content-available": true (JSON boolean, Apple documents
    .init(
      "090-isowords-content-available-bool-sound-in-alert", status: 0,
      diagnostics: ["10:7 warning MisplacedKey", "14:27 warning BoolForNumber"],
      fields: [
        "push_type": "\"alert\"", "title": "\"isowords\"",
        "body": "\"Blob reacted to your move: 😛\"",
      ]),
    // custom top-level "route" object (deep-link data) beside aps
    .init(
      "091-isowords-custom-route-object", status: 0, diagnostics: [],
      fields: [
        "push_type": "\"alert\"", "title": "\"isowords\"",
        "body": "\"Blob reacted to your move: 😛\"",
      ]),
    // alert STRING containing \n escape sequences with leading spaces (multi-line banner), emoji
    .init(
      "092-isowords-report-escaped-newlines-emoji", status: 0, diagnostics: [],
      fields: [
        "app": "\"co.pointfree.IsoWordsTesting\"", "push_type": "\"alert\"",
        "body":
          "\"Today’s challenge is ready! Yesterday’s results:\\n  🥉 Timed: you ranked #3 out of 345\\n  ✔️ Unlimited: #23 out of 5,423\\nPlay again today!\"",
      ]),
    // FCM message with top-level "name" (an output-only field in FCM v1 Message) + notification
    .init(
      "096-firebasex-fcm-apns-sound-badge-content-available", status: 1,
      diagnostics: ["1:1 error FCMTargetCount"],
      fields: [:]),
    // what an FCM-originated APNs push looks like on device: FCM-injected google.c.a.e and gcm.m
    .init(
      "097-firebasex-ios-received-userinfo-google-keys", status: 0, diagnostics: [],
      fields: [
        "push_type": "\"alert\"", "title": "\"iOS Actionable Notification\"",
        "body": "\"With custom buttons\"",
      ]),
    // data-only message where every value is a string by FCM rule: priority "2", visibility "1",
    .init(
      "098-firebasex-android-data-message-stringly-typed", status: 1,
      diagnostics: ["1:1 error FCMTargetCount"],
      fields: [:]),
    // RECONSTRUCTED by concatenating two PHP single-quoted string pieces (no escapes)
    .init(
      "099-pushok-full-critical-sound-time-sensitive-thread", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "title": "\"title\""]),
    // extracted JSON between curl -d quotes at line 78
    .init(
      "100-voip-pushkit-callkit-payload", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "body": "\"Hien Nguyen Call\""]),
    // legacy Safari website push: alert dict with title/body/action (action = button label) + ur
    .init(
      "101-buford-safari-website-push", status: 0, diagnostics: [],
      fields: [
        "push_type": "\"alert\"", "title": "\"Flight A998 Now Boarding\"",
        "body": "\"Boarding has begun for Flight A998.\"",
      ]),
    // custom top-level key sorted BEFORE aps with an array value
    .init(
      "102-buford-custom-array-key-first", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "body": "\"Message received from Bob\""]),
    // whitespace inside braces and around colons, alert string containing a slash
    .init(
      "103-buford-spaces-around-colons", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\"", "body": "\"Hello HTTP/2\""]),
    // extracted lines 10-36
    .init(
      "104-la-push-to-start-timestamp-zero-emoji", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\"", "title": "\"Test\"", "body": "\"Hello World\""]),
    // extracted lines 42-64
    .init(
      "105-la-update-timestamp-milliseconds", status: 0,
      diagnostics: ["17:22 warning ProbableMilliseconds"],
      fields: ["push_type": "\"liveactivity\"", "title": "\"Test\"", "body": "\"Hello World\""]),
    // extracted lines 26-48
    .init(
      "106-webpushbook-notification-options-duplicate-comment-keys", status: 1,
      diagnostics: ["11:3 error DuplicateKey"],
      fields: [:]),
    // title-loc-key + loc-key + loc-args with dotted key names (notification.title), no title/bo
    .init(
      "107-pushhandle-localized-title-loc-key", status: 0, diagnostics: [],
      fields: ["push_type": "\"alert\""]),
    // custom coords object with negative float longitude, array custom key, badge
    .init(
      "108-pushhandle-custom-coords-floats", status: 0, diagnostics: [],
      fields: [
        "push_type": "\"alert\"", "title": "\"Push handle\"", "body": "\"This is a test message\"",
      ]),
    // category NEW_MESSAGE_CATEGORY
    .init(
      "109-pushhandle-custom-keys-inside-aps", status: 0,
      diagnostics: ["8:5 warning CustomKeyInAps", "9:5 warning CustomKeyInAps"],
      fields: [
        "push_type": "\"alert\"", "title": "\"Push handle\"", "body": "\"This is a test message\"",
      ]),
    // critical sound dict volume 0.75 without interruption-level
    .init(
      "110-pushhandle-critical-volume-075", status: 0, diagnostics: [],
      fields: [
        "push_type": "\"alert\"", "title": "\"Push handle\"", "body": "\"This is a test message\"",
      ]),
    // valid JSON
    .init(
      "119-maui-content-available-inside-alert", status: 0,
      diagnostics: ["6:13 warning MisplacedKey"],
      fields: [
        "app": "\"com.dordenov.mauipushnotifications\"", "push_type": "\"alert\"",
        "title": "\"Push notification\"", "body": "\"You have sent it on simulator\"",
      ]),
    // Go raw-string literal
    .init(
      "120-apns2go-interruption-passive", status: 0, diagnostics: ["1:8 warning ApsDoesNothing"],
      fields: [:]),
    // Go raw-string literal
    .init(
      "121-apns2go-stale-date-only", status: 0, diagnostics: [],
      fields: ["push_type": "\"liveactivity\""]),
    // trailing comma after "type": "authorization"
    .init(
      "invalid-044-republik-trailing-comma", status: 1, diagnostics: ["11:28 error InvalidJSON"],
      fields: [:]),
    // file from Apple SwiftUI tutorial Landmarks (watchOS notification) as copied into this repo
    .init(
      "invalid-045-apple-landmarks-watch-trailing-comma", status: 1,
      diagnostics: ["10:23 error InvalidJSON"],
      fields: [:]),
    // two trailing commas (inside alert and inside aps)
    .init(
      "invalid-046-hotwire-trailing-commas-nested", status: 1,
      diagnostics: ["7:54 error InvalidJSON"],
      fields: [:]),
    // trailing comma inside alert dict
    .init(
      "invalid-049-evwatcher-trailing-comma-korean", status: 1,
      diagnostics: ["7:67 error InvalidJSON"],
      fields: [:]),
    // trailing comma
    .init(
      "invalid-050-squawker-fcm-style-keys-trailing-comma", status: 1,
      diagnostics: ["16:35 error InvalidJSON"],
      fields: [:]),
    // placeholders {app_bundle_id}/{key}:{value}
    .init(
      "invalid-051-template-placeholders-trailing-commas", status: 1,
      diagnostics: ["10:20 error InvalidJSON"],
      fields: [:]),
    // extracted lines 6-15 of markdown
    .init(
      "invalid-054-flyfishering-missing-comma-nonstandard-thread-keys", status: 1,
      diagnostics: ["9:5 error InvalidJSON"],
      fields: [:]),
    // extracted lines 71-75
    .init(
      "invalid-055-flyfishering-silent-trailing-comma", status: 1,
      diagnostics: ["3:30 error InvalidJSON"],
      fields: [:]),
    // extracted heredoc lines 20-42
    .init(
      "invalid-056-liveactivity-template-bare-placeholder", status: 1,
      diagnostics: ["3:22 error InvalidJSON"],
      fields: [:]),
    // extracted lines 50-60
    .init(
      "invalid-067-fcm-v1-comments-trailing-comma", status: 1,
      diagnostics: ["3:5 error InvalidJSON"],
      fields: [:]),
    // extracted lines 21-35
    .init(
      "invalid-069-fcm-v1-android-data-trailing-comma", status: 1,
      diagnostics: ["11:84 error InvalidJSON"],
      fields: [:]),
    // structure mirrors the old Firebase docs webpush sample: "token" sibling of "message" + unb
    .init(
      "invalid-070-fcm-v1-webpush-unbalanced-braces", status: 1,
      diagnostics: [
        "2:14 error FCMTargetCount", "13:31 error BadType", "18:3 error FCMUnknownField",
        "20:1 error InvalidJSON",
      ],
      fields: [:]),
    // AWS doc silent-notification example: inner string has 3 opening braces but 2 closing
    .init(
      "invalid-075-sns-envelope-gcm-inner-string-unbalanced", status: 1,
      diagnostics: ["2:162 error InvalidJSON"],
      fields: [:]),
    // AWS doc multi-platform message (default/APNS/GCM/ADM)
    .init(
      "invalid-076-sns-envelope-multiplatform-raw-newline-in-string", status: 1,
      diagnostics: ["2:173 error InvalidJSON"],
      fields: [:]),
    // file ends with "}\u201d" -- a smart quote pasted after the document (3 extra UTF-8 bytes E
    .init(
      "invalid-083-curly-quote-after-final-brace", status: 1,
      diagnostics: ["9:2 error InvalidJSON"],
      fields: [
        "push_type": "\"alert\"", "title": "\"Your food is done.\"",
        "body": "\"Be careful, it's really hot!\"",
      ]),
    // leading blank line, trailing commas in alert and aps, QUIRK "mutable-content":"1" as a STR
    .init(
      "invalid-085-mutable-content-string-trailing-commas-emoji", status: 1,
      diagnostics: ["6:32 error InvalidJSON"],
      fields: [:]),
    // extracted lines 75-85
    .init(
      "invalid-087-critical-alert-string-alert-sound-dict", status: 1,
      diagnostics: ["4:1 error InvalidJSON"],
      fields: [:]),
    // UNESCAPED from the Elixir debug-log string (backslash-quote -> quote)
    .init(
      "invalid-089-fcm-v1-android-data-number-value-rejected", status: 1,
      diagnostics: ["1:116 error FCMDataNotString"],
      fields: [:]),
    // extracted lines 10-27
    .init(
      "invalid-093-fcm-legacy-duplicate-data-key-trailing-comma", status: 1,
      diagnostics: ["17:6 error InvalidJSON"],
      fields: [:]),
    // extracted lines 22-31
    .init(
      "invalid-094-fcm-legacy-missing-comma-data-to", status: 1,
      diagnostics: ["9:3 error InvalidJSON"],
      fields: [:]),
    // trailing comma after icon
    .init(
      "invalid-095-fcm-legacy-notification-nested-in-data-trailing-comma", status: 1,
      diagnostics: ["6:42 error InvalidJSON"],
      fields: [:]),
    // NO aps dictionary
    .init(
      "invalid-111-pushhandle-silent-without-aps-fcm-style", status: 0,
      diagnostics: ["1:1 warning NoAps"],
      fields: [:]),
    // extracted PHP single-quoted literal lines 53-75
    .init(
      "invalid-112-hms-apns-misplaced-sound-launch-image-token-placeholder", status: 1,
      diagnostics: ["2:12 error InvalidJSON"],
      fields: [:]),
    // extracted lines 30-65
    .init(
      "invalid-113-hms-webpush-full-token-placeholder", status: 1,
      diagnostics: ["2:12 error InvalidJSON"],
      fields: [:]),
    // extracted docstring lines 112-127 (4-space docstring indentation kept)
    .init(
      "invalid-114-hms-docstring-missing-comma-content-available-in-alert", status: 1,
      diagnostics: ["7:17 error InvalidJSON"],
      fields: [:]),
  ]

  @Test(arguments: expectations)
  func corpusPayload(_ expected: Expectation) throws {
    let golden = GoldenCase(
      tool: "notif-parse", name: "corpus-" + expected.name,
      folder: GoldenCase.casesFolder.appendingPathComponent("notif-parse/corpus-" + expected.name))
    let outcome = try Binaries.run(
      "notif-parse", golden.arguments, in: golden.folder, environment: golden.environment)
    #expect(outcome.status == expected.status)
    let diagnostics = String(decoding: outcome.stderr, as: UTF8.self).split(separator: "\n").map {
      line -> String in
      // notif-parse: FILE:LINE:COL: severity: message [Code]
      let parts = line.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false)
      let code = line.split(separator: "[").last.map { String($0.dropLast()) } ?? ""
      guard parts.count >= 5 else { return String(line) }
      return "\(parts[2]):\(parts[3]) \(parts[4].trimmingCharacters(in: .whitespaces)) \(code)"
    }
    #expect(diagnostics == expected.diagnostics)
    let firstRecord = outcome.stdout.split(separator: UInt8(ascii: "\n")).first.map { Data($0) }
    for (key, json) in expected.fields {
      guard let firstRecord,
        let object = try JSONSerialization.jsonObject(with: firstRecord) as? [String: Any],
        let value = object[key]
      else {
        Issue.record("no record with '\(key)' for \(expected.name)")
        continue
      }
      let text = try JSONSerialization.data(
        withJSONObject: value, options: [.fragmentsAllowed, .withoutEscapingSlashes])
      #expect(String(decoding: text, as: UTF8.self) == json, "\(key) of \(expected.name)")
    }
  }

  @Test func tableCoversEveryCorpusCase() throws {
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: GoldenCase.casesFolder.appendingPathComponent("notif-parse").path
    ).filter { $0.hasPrefix("corpus-") }
    #expect(
      Set(folders.map { String($0.dropFirst("corpus-".count)) })
        == Set(Self.expectations.map(\.name)))
    #expect(folders.count == 106)
  }
}
