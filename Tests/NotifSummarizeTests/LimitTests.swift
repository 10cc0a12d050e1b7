import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifLocalization
@testable import notif_summarize

/// Counts and weights at their limits: notif-summarize reads every group object notif-group
/// writes (counts and weights up to 2^53 - 1, weights saturated there), says the real range of
/// what it refuses, and writes big counts whole in every language.
@Suite struct SummarizeLimitTests {
  static let largest = Int(FieldLimits.largest)

  /// A group object of two records: the leading one's `summary_arg_count` and the other's
  /// counts, with the numbers as JSON text.
  static func object(
    count: String = "2", moreCount: String = "1", moreWeight: String,
    categories: [(String, String, String)], leadingWeight: String = "1"
  ) -> String {
    let entries = categories.map { #"{"category":"\#($0.0)","count":\#($0.1),"weight":\#($0.2)}"# }
    return #"{"app":"a","thread_id":null,"count":\#(count),"unread_count":1,"new_count":0,"#
      + #""latest_at":"2026-11-22T09:00:00Z","#
      + #""leading":{"category":"message","summary_arg_count":\#(leadingWeight)},"#
      + #""more_count":\#(moreCount),"more_weight":\#(moreWeight),"#
      + #""more_categories":[\#(entries.joined(separator: ","))],"#
      + #""more_summary_args":[{"summary_arg":"Bo","count":1,"latest_at":"2026-11-22T08:00:00Z"}],"#
      + #""items":null,"items_omitted":\#(count)}"#
  }

  static func read(_ text: String) throws(RecordProblem) -> (GroupFacts, RecordProblem?) {
    var warning: RecordProblem? = nil
    var result: Result<GroupFacts, RecordProblem>?
    withView(of: text) { view in
      result = Result { () throws(RecordProblem) in
        try GroupObject.read(
          view, profile: .ios12, locator: RecordFieldLocator(), warning: &warning
        ).facts
      }
    }
    guard let result else { fatalError("not JSON: \(text)") }
    return (try result.get(), warning)
  }

  /// The issue: notif-group writes `more_weight` 3000000000 for a `summary_arg_count` of
  /// 3000000000, which notif-summarize refused as "an integer of at least 0".
  @Test func readsWeightsPast2To31() throws {
    let (facts, warning) = try Self.read(
      Self.object(
        moreWeight: "3000000000", categories: [("message", "1", "3000000000")],
        leadingWeight: "3000000000"))
    #expect(warning == nil)
    #expect(facts.moreWeight == 3_000_000_000)
    #expect(facts.leadingWeight == 3_000_000_000)
    let summarizer = try summarizer()
    var fallbacks = Fallbacks()
    #expect(summarizer.summary(facts, fallbacks: &fallbacks) == "3000000000 more messages from Bo")
    #expect(summarizer.hiddenSummary(facts, fallbacks: &fallbacks) == "6000000000 messages")
  }

  /// Weights notif-group saturated: the categories add up past 2^53 - 1, `more_weight` stops
  /// there.
  @Test func readsSaturatedWeights() throws {
    let largest = "\(Self.largest)"
    let (facts, _) = try Self.read(
      Self.object(
        count: "3", moreCount: "2", moreWeight: largest,
        categories: [("chat", "1", largest), ("photo", "1", largest)], leadingWeight: largest))
    #expect(facts.moreWeight == Self.largest)
    let summarizer = try summarizer()
    var fallbacks = Fallbacks()
    #expect(
      summarizer.summary(facts, fallbacks: &fallbacks)
        == "9007199254740991 more messages and 9007199254740991 more photos")
    // The leading record's weight added saturates as notif-group's sums do.
    #expect(
      summarizer.hiddenSummary(facts, fallbacks: &fallbacks) == "9007199254740991 notifications")
  }

  @Test(arguments: [
    ("count", "9007199254740992", "'count' is not a whole number from 1 to 9007199254740991"),
    ("count", "-1", "'count' is not a whole number from 1 to 9007199254740991"),
    (
      "more_weight", "9223372036854775808",
      "'more_weight' is not a whole number from 0 to 9007199254740991"
    ),
    ("more_weight", "1.0", "'more_weight' is not a whole number from 0 to 9007199254740991"),
    ("more_count", "2", "'more_count' is not a whole number equal to 1, 'count' - 1"),
  ])
  func refusesWithTheRealRange(_ key: String, _ number: String, _ message: String) throws {
    let text = Self.object(moreWeight: "1", categories: [("message", "1", "1")]).replacing(
      "\"\(key)\":\(key == "count" ? "2" : "1"),", with: "\"\(key)\":\(number),")
    #expect(throws: RecordProblem.self) { try Self.read(text) }
    do {
      _ = try Self.read(text)
    } catch {
      #expect(error.code == "BadGroup")
      #expect(error.message == message)
    }
  }

  /// Entries of 2^53 - 1 each, many of them: the sums are checked, never trap.
  @Test func countsThatAddUpPastEveryIntegerAreRefused() throws {
    let largest = "\(Self.largest)"
    let entries = (0..<2000).map { ("c\($0)", largest, largest) }
    #expect(throws: RecordProblem.self) {
      try Self.read(Self.object(moreWeight: largest, categories: entries))
    }
  }

  @Test(arguments: ["9007199254740992", "0", "-0", "1.0", "1e308", "18446744073709551616"])
  func aLeadingWeightOutOfRangeWarnsAndCountsOne(_ number: String) throws {
    let (facts, warning) = try Self.read(
      Self.object(moreWeight: "1", categories: [("message", "1", "1")], leadingWeight: number))
    #expect(facts.leadingWeight == 1)
    #expect(
      warning?.message
        == "the leading record's 'summary_arg_count' '\(number)' is not a whole number from 1 to 9007199254740991: counted as 1"
    )
  }

  /// `--max-args` up to what a count holds, and "at most" past it.
  @Test func maxArgsTooLargeSaysTheMost() throws {
    let scanned = try OptionScanner.scan(
      ["--max-args", "9007199254740992"], SummarizeCommand.options)
    #expect(
      throws: UsageError("--max-args: '9007199254740992' is too large: at most 9007199254740991")
    ) {
      try SummarizeCommand.configure(scanned, environment: ToolEnvironment())
    }
    let most = try OptionScanner.scan(["--max-args", "9007199254740991"], SummarizeCommand.options)
    #expect(
      try SummarizeCommand.configure(most, environment: ToolEnvironment()).maxArguments
        == Self.largest)
  }

  /// CLDR's rules look at `n % 10`, `n % 100`, `i % 1000000`: big counts fall in the category
  /// their last digits give, and are written whole, as `%u`, `%d` and `%lu` all take them.
  @Test(arguments: [
    ("ru", 9_007_199_254_740_991, "one"), ("ru", 4_294_967_292, "few"),
    ("ru", 3_000_000_000, "many"), ("ru", 2_147_483_648, "many"),
    ("pl", 9_007_199_254_740_991, "many"), ("pl", 4_294_967_292, "few"),
    ("ar", 4_294_967_303, "few"), ("ar", 9_007_199_254_740_991, "many"),
    ("ar", 9_007_199_254_740_900, "other"),
    ("fr", 3_000_000_000, "many"), ("fr", 9_007_199_254_740_991, "other"),
    ("cy", 9_007_199_254_740_991, "other"), ("en", 9_007_199_254_740_991, "other"),
  ])
  func bigCountsFallInTheirCategories(_ locale: String, _ number: Int, _ category: String) throws {
    let rules = try CLDRLocale(locale).plural
    #expect(rules.category(number).rawValue == category)
    for directive in ["%u", "%d", "%lu", "%lld", "%1$u"] {
      let template = try FormatTemplate("\(directive) more")
      #expect(template.render(count: number, arguments: "", rules: rules) == "\(number) more")
    }
  }
}
