import NotifCategories
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifPush
@testable import notif_parse

/// Lints each payload in turn with one `CopyLint`, as `--lint` does for the records of a file
/// named `in.ndjson`; returns the findings of each.
private func lint(_ payloads: [String], appName: String? = nil) -> [[Finding]] {
  var lint = CopyLint(appName: appName)
  var normalizer = MessageReader(
    defaults: InputDefaults(app: "com.example", pushType: nil, now: Timestamp(seconds: 0)))
  return payloads.enumerated().map { index, text in
    var parser = JSONParser()
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { raw -> [Finding] in
      guard case .complete = parser.parse(raw, isFinal: true) else { return [] }
      let isCompact = parser.isCompact
      return parser.withView(over: raw) { view in
        normalizer.read(view, isCompact: isCompact)
        let values = normalizer.values
        return lint.check(values, view, file: "in.ndjson", line: index + 1) { field in
          if case .input(let value) = values[field] { return Int(view.tokens[value].start) }
          return 0
        }
      }
    }
  }
}

private func body(_ text: String) -> String {
  #"{"aps":{"alert":{"title":"T","body":"# + text + "}}}"
}

@Suite struct CopyLintTests {
  @Test(arguments: [
    ("Reply", true), ("Mark as Read", true), ("Mark As Read", true), ("Add to Cart", true),
    ("Open the Door", true), ("Go", true), ("", true), ("返信", true), ("Sign In", true),
    ("Add To", true), ("mark as read", false), ("Reply later", false), ("Sign in", false),
    ("a Test", false), ("Mark as read", false), ("Save for Later", true), ("View On Map", true),
  ])
  func checksTitleCase(_ title: String, _ isTitleCase: Bool) {
    #expect(CopyLint.isTitleCase(title) == isTitleCase)
  }

  @Test(arguments: [
    ("", 1), ("short", 1), (String(repeating: "x", count: 40), 1),
    (String(repeating: "x", count: 41), 2),
    (String(repeating: "x", count: 81), 3), ("a\nb", 2), ("a\n\nb", 3), ("a\n", 2),
    (String(repeating: "漢", count: 20), 1), (String(repeating: "漢", count: 21), 2),
    (String(repeating: "😀", count: 20), 1), (String(repeating: "😀", count: 21), 2),
    (String(repeating: "한", count: 21), 2),
    (String(repeating: "漢", count: 10) + String(repeating: "a", count: 20), 1),
    (String(repeating: "é", count: 40), 1), (String(repeating: "e\u{301}", count: 40), 1),
    // One emoji each, two columns: a ZWJ sequence, a flag, a skin tone, a heart with U+FE0F.
    (String(repeating: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", count: 20), 1),
    (String(repeating: "\u{1F1EB}\u{1F1F7}", count: 21), 2),
    (String(repeating: "\u{1F44D}\u{1F3FD}", count: 20), 1),
    (String(repeating: "\u{2764}\u{FE0F}", count: 21), 2),
    (String(repeating: "\u{5E9}\u{5B8}", count: 40), 1),
  ])
  func countsBannerLinesWithWideCharactersAsTwoColumns(_ text: String, _ lines: Int) {
    #expect(CopyLint.lineCount(text) == lines)
  }

  /// Emoji are East Asian wide (Unicode's East_Asian_Width W) in every block, as notif-parse(1)
  /// says wide characters take two columns.
  @Test(arguments: ["\u{1F680}", "\u{1F6B2}", "\u{1FAE0}", "\u{1FA77}", "\u{1FA80}"])
  func countsEveryEmojiAsTwoColumns(_ emoji: String) {
    #expect(CopyLint.lineCount(String(repeating: emoji, count: 21)) == 2)
  }

  @Test func warnsAboutABodyLongerThanTwoLines() {
    let long = #"""# + String(repeating: "word ", count: 16) + #"end.""#
    let payload = body(long)
    #expect(
      lint([payload]) == [
        [
          .warning(
            .lintLongBody,
            "the body takes about 3 lines at 40 columns; iOS shows 2 and truncates the rest",
            at: offset(of: long, in: payload))
        ]
      ])
    let fits = #"""# + String(repeating: "x", count: 79) + #".""#
    #expect(lint([body(fits)]) == [[]])
    let wide = #"""# + String(repeating: "漢", count: 40) + "。\""
    #expect(lint([body(wide)]).first?.map(\.code) == ["LongBody"])
  }

  @Test(arguments: [
    (#""Hello""#, true), (#""Call 911""#, true), (#""Hello.""#, false), (#""Hello! ""#, false),
    (#""Really?""#, false), (#""Done 😀""#, false), (#""(see above)""#, false), (#""Wait…""#, false),
  ])
  func warnsAboutABodyWithoutFinalPunctuation(_ text: String, _ warns: Bool) {
    let payload = body(text)
    let expected: [Finding] =
      warns
      ? [
        .warning(
          .lintPunctuation, "the body does not end with sentence punctuation",
          at: offset(of: text, in: payload))
      ]
      : []
    #expect(lint([payload]) == [expected])
  }

  @Test func warnsAboutTheAppNameInTheText() {
    let payload =
      #"{"aps":{"alert":{"title":"ACME deals","subtitle":"Today","body":"Open acme now."}}}"#
    #expect(
      lint([payload], appName: "Acme") == [
        [
          .warning(
            .lintAppName, "the title names the app 'Acme'; iOS already shows the app's name",
            at: offset(of: #""ACME deals""#, in: payload)),
          .warning(
            .lintAppName, "the body names the app 'Acme'; iOS already shows the app's name",
            at: offset(of: #""Open acme now.""#, in: payload)),
        ]
      ])
    #expect(lint([payload], appName: "") == [[]])
    #expect(lint([payload], appName: nil) == [[]])
  }

  @Test func warnsAboutTheSameEventSentAgain() {
    let first = #"{"aps":{"alert":{"title":"Sale","body":"Now on."},"thread-id":"t"}}"#
    let otherThread = #"{"aps":{"alert":{"title":"Sale","body":"Now on."},"thread-id":"u"}}"#
    let otherApp =
      #"{"app":"com.other","payload":{"aps":{"alert":{"title":"Sale","body":"Now on."},"thread-id":"t"}}}"#
    #expect(
      lint([first, otherThread, first, otherApp, otherThread]) == [
        [], [],
        [
          .warning(
            .lintDuplicate,
            "the same event as in.ndjson:1 (same app, thread, title and body): send one notification per event",
            at: 0)
        ],
        [],
        [
          .warning(
            .lintDuplicate,
            "the same event as in.ndjson:2 (same app, thread, title and body): send one notification per event",
            at: 0)
        ],
      ])
  }

  @Test func warnsAboutTheSameCollapseIdSentAgain() {
    func collapsing(_ body: String) -> String {
      #"{"headers":{"apns-collapse-id":"c1"},"payload":{"aps":{"alert":{"body":"\#(body)"}}}}"#
    }
    #expect(
      lint([collapsing("One."), collapsing("Two."), collapsing("One.")]) == [
        [],
        [
          .warning(
            .lintDuplicate,
            "the same event as in.ndjson:1 (same collapse id 'c1'): send one notification per event",
            at: 0)
        ],
        [
          .warning(
            .lintDuplicate,
            "the same event as in.ndjson:1 (same collapse id 'c1'): send one notification per event",
            at: 0)
        ],
      ])
  }

  @Test func aPayloadWithoutTextIsNeverADuplicate() {
    let badge = #"{"aps":{"badge":1}}"#
    #expect(lint([badge, badge]) == [[], []])
  }

  @Test func checksTheActionsOfACategoryRegistry() throws {
    let text = #"""
      {"msg":{"actions":[{"identifier":"a1","title":"Reply"},{"identifier":"a2","title":"mark as read"},{"identifier":"a3","title":"Delete Everything In This Thread Now","options":["destructive"]},{"identifier":"a4","title":"  "},{"identifier":"a5","title":"Open","options":["destructive","authentication-required"]}]},"ok":{"actions":[{"identifier":"b1","title":"Twenty Chars Exactly"}]}}
      """#
    var parser = JSONParser()
    let bytes = Array(text.utf8)
    let findings = try bytes.withUnsafeBytes { raw -> [Finding] in
      guard case .complete = parser.parse(raw, isFinal: true) else { return [] }
      return try parser.withView(over: raw) { view in CopyLint.check(try CategoryRegistry(view)) }
    }
    #expect(
      findings == [
        .warning(
          .categoryActions,
          "category 'msg' has 5 actions: iOS shows at most 4, and only the first 2 on a banner",
          at: offset(of: #""msg""#, in: text)),
        .warning(
          .categoryTitleCase, "action title 'mark as read' is not in title case",
          at: offset(of: #""mark as read""#, in: text)),
        .warning(
          .categoryLongTitle,
          "action title 'Delete Everything In This Thread Now' is 36 characters; keep it under 20 so the button does not truncate it",
          at: offset(of: #""Delete Everything"#, in: text)),
        .warning(
          .categoryDestructive,
          "destructive action 'a3' does not require authentication: anyone holding a locked device can use it",
          at: offset(of: #"{"identifier":"a3""#, in: text)),
        .warning(
          .categoryEmptyTitle, "action 'a4' has an empty title", at: offset(of: #""  ""#, in: text)),
      ])
  }
}
