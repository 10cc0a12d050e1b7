import NotifCLI
import NotifJSON
import NotifModel
import Testing

@testable import NotifLocalization
@testable import notif_summarize

private func configure(_ arguments: [String]) throws(UsageError) -> SummarizeCommand.Configuration {
  try SummarizeCommand.configure(
    try OptionScanner.scan(arguments, SummarizeCommand.options), environment: ToolEnvironment())
}

/// Runs `body` on one group object's view.
private func withGroup<R>(_ json: String, _ body: (JSONView) throws -> R) throws -> R {
  var parser = JSONParser()
  let bytes = Array(json.utf8)
  return try bytes.withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else {
      throw TestFailure(description: "bad JSON: \(json)")
    }
    return try parser.withView(over: raw, body)
  }
}

private let group =
  #"{"app":"a","thread_id":null,"count":2,"unread_count":2,"new_count":0,"latest_at":"2026-11-22T09:00:00Z","leading":{"category":"chat","summary_arg_count":0},"more_count":1,"more_weight":3,"more_categories":[{"category":"chat","count":1,"weight":3}],"more_summary_args":[{"summary_arg":"Bo","count":1,"latest_at":"2026-11-22T08:00:00Z"}],"items":null,"items_omitted":2}"#

struct SummarizeCommandTests {
  /// notif-group's `grouping` is copied as it is, in its place, compact or not, old summaries
  /// replaced or not; an object without it (an older notif-group's) is read as before.
  @Test(arguments: [false, true])
  func groupingIsPassedThroughUnchanged(_ hadSummary: Bool) throws {
    let grouping =
      #""grouping":{"by":"app","sort":"relevance","order":"chat","limit":3,"#
      + #""last_seen":"2026-11-22T08:58:00.250Z"}"#
    let old = hadSummary ? #","summary":"old","hidden_summary":null"# : ""
    let object = String(group.dropLast()) + "," + grouping + old + "}"
    for text in [object, object.replacing(",", with: ", ")] {
      var out = ByteBuffer()
      var warning: RecordProblem? = nil
      try withGroup(text) { view in
        let read = try GroupObject.read(
          view, profile: .ios12, locator: RecordFieldLocator(), warning: &warning)
        #expect(read.hasSummaries == hadSummary)
        GroupObject.write(
          view, isCompact: text == object, summary: "1 more", hidden: "2", into: &out)
      }
      #expect(
        out.text
          == String(group.dropLast()) + "," + grouping
          + #","summary":"1 more","hidden_summary":"2"}"# + "\n")
    }
    var none: RecordProblem? = nil
    let facts = try withGroup(group) {
      try GroupObject.read($0, profile: .ios12, locator: RecordFieldLocator(), warning: &none).facts
    }
    #expect(facts.count == 2)
  }

  @Test func defaultsAreEnglishAndIOS12() throws {
    let configuration = try configure([])
    #expect(configuration.locale.identifier == "en")
    #expect(configuration.profile == .ios12)
    #expect(configuration.maxArguments == nil)
    #expect(!configuration.hiddenPreviews)
    #expect(configuration.files == ["-"])
  }

  @Test func everyOptionIsRead() throws {
    let configuration = try configure([
      "--categories=c.json", "--strings", "a.xcstrings", "--strings", "b", "--locale", "pt_BR",
      "--profile", "ios15", "--hidden-previews", "--max-args", "3", "--format", "json", "x", "-",
    ])
    #expect(configuration.categoriesPath == "c.json")
    #expect(configuration.stringsPaths == ["a.xcstrings", "b"])
    #expect(configuration.locale.identifier == "pt_BR")
    #expect(configuration.locale.chain == ["pt_BR", "pt", "root"])
    #expect(configuration.profile == .ios15)
    #expect(configuration.hiddenPreviews)
    #expect(configuration.maxArguments == 3)
    #expect(configuration.reporting.format == .json)
    #expect(configuration.files == ["x", "-"])
  }

  @Test(arguments: [
    (["--max-args", "0"], "--max-args: '0' is not a whole number from 1 to 9007199254740991"),
    (["--max-args", "-1"], "--max-args: '-1' is not a whole number from 1 to 9007199254740991"),
    (["--max-args", "two"], "--max-args: 'two' is not a whole number from 1 to 9007199254740991"),
    (["--profile", "ios18"], "--profile: 'ios18' is not ios12 or ios15"),
    (["--format", "xml"], "--format: 'xml' is not text, github, json or sarif"),
    (["--locale", "xx"], "--locale: 'xx' is not a locale CLDR 47 defines"),
    (["--locale"], "option '--locale' needs a value"),
    (["--hidden-previews=yes"], "option '--hidden-previews' takes no value"),
    (["--summary"], "unknown option '--summary'"),
  ])
  func badOptionsAreUsageErrors(arguments: [String], message: String) {
    #expect(throws: UsageError(message)) { try configure(arguments) }
  }

  @Test func aGroupObjectsFactsAreRead() throws {
    var warning: RecordProblem? = nil
    let facts = try withGroup(group) {
      try GroupObject.read($0, profile: .ios12, locator: RecordFieldLocator(), warning: &warning)
        .facts
    }
    #expect(
      facts
        == GroupFacts(
          count: 2, moreCount: 1, moreWeight: 3,
          moreCategories: [.init(category: "chat", count: 1, weight: 3)], moreArguments: ["Bo"],
          leadingCategory: "chat", leadingWeight: 1))
    #expect(warning?.code == "BadSummaryArgCount")
    #expect(
      warning?.message
        == "the leading record's 'summary_arg_count' '0' is not a whole number from 1 to 9007199254740991: counted as 1"
    )
    var none: RecordProblem? = nil
    let ios15 = try withGroup(group) {
      try GroupObject.read($0, profile: .ios15, locator: RecordFieldLocator(), warning: &none).facts
    }
    #expect(none == nil)
    #expect(ios15.moreArguments.isEmpty)
  }

  @Test(arguments: [
    (#"{"count":1}"#, "not a group object: the key 'app' is missing"),
    ("[1]", "not a group object: a group object is a JSON object (notif-group writes them)"),
  ])
  func notAGroupObject(json: String, message: String) throws {
    var warning: RecordProblem? = nil
    _ = try withGroup(json) { view in
      #expect(throws: RecordProblem(code: "BadGroup", message: message, offset: 0)) {
        try GroupObject.read(
          view, profile: .ios12, locator: RecordFieldLocator(), warning: &warning
        ).facts
      }
    }
  }

  @Test func keysAreReadInAnyOrderAndSpelledWithEscapes() throws {
    // The keys moved around and escaped: `"co\u0075nt"` is `"count"`, and so on.
    let shuffled = group.replacing(#""app":"a","#, with: "")
      .replacing(#""count":2"#, with: #""co\u0075nt":2"#)
      .replacing(#""category":"chat","count""#, with: #""c\u0061tegory":"chat","count""#)
      .replacing(#""items_omitted":2}"#, with: #""items_omitted":2,"\u0061pp":"a"}"#)
    var warning: RecordProblem? = nil
    let plain = try withGroup(group) {
      try GroupObject.read($0, profile: .ios12, locator: RecordFieldLocator(), warning: &warning)
        .facts
    }
    let escaped = try withGroup(shuffled) {
      try GroupObject.read($0, profile: .ios12, locator: RecordFieldLocator(), warning: &warning)
        .facts
    }
    #expect(escaped == plain)
    var out = ByteBuffer()
    try withGroup(#"{"a":1,"summ\u0061ry":"old"}"#) {
      GroupObject.write($0, isCompact: false, summary: "s", hidden: nil, into: &out)
    }
    #expect(out.text == #"{"a":1,"summary":"s","hidden_summary":null}"# + "\n")
  }

  @Test func summariesAreAppendedOrReplaced() throws {
    var out = ByteBuffer()
    try withGroup(#"{"a":1,"b":"x"}"#) {
      GroupObject.write($0, isCompact: true, summary: "s \"q\"", hidden: nil, into: &out)
    }
    #expect(out.text == #"{"a":1,"b":"x","summary":"s \"q\"","hidden_summary":null}"# + "\n")
    out.removeAll()
    try withGroup(#"{"summary": "old", "a": [1, 2], "hidden_summary": null, "b": 2}"#) {
      GroupObject.write($0, isCompact: false, summary: nil, hidden: "h", into: &out)
    }
    #expect(out.text == #"{"a":[1,2],"b":2,"summary":null,"hidden_summary":"h"}"# + "\n")
  }
}
