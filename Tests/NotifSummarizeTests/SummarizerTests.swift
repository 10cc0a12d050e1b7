import NotifModel
import Testing

@testable import NotifLocalization
@testable import notif_summarize

private let podcasts: [(String?, String?, Int)] = [
  ("episode", "Song by Song", 2), ("episode", "Song by Song", 3), ("episode", "Song by Song", 1),
  ("episode", "Song by Song", 3),
]
private let messages: [(String?, String?, Int)] = [
  ("message", "Me", 1), ("message", "Alice", 1), ("message", "Bob", 1), ("message", "Alice", 1),
  ("message", "Bob", 1), ("message", "Alice", 1),
]

private func texts(_ summarizer: Summarizer, _ records: [(String?, String?, Int)]) -> (
  String?, String
) {
  var fallbacks: Fallbacks = []
  let facts = group(records)
  return (
    summarizer.summary(facts, fallbacks: &fallbacks),
    summarizer.hiddenSummary(facts, fallbacks: &fallbacks)
  )
}

struct SummarizerTests {
  @Test func podcastsCountTheNonLeadingEpisodesByWeight() throws {
    let (summary, hidden) = texts(try summarizer(), podcasts)
    #expect(summary == "7 more episodes")
    #expect(hidden == "9 episodes")
  }

  @Test func messagesListTheDistinctArguments() throws {
    let (summary, hidden) = texts(try summarizer(), messages)
    #expect(summary == "5 more messages from Alice and Bob")
    #expect(hidden == "6 messages")
  }

  @Test func aFormatWithTheListAndNoArgumentsFallsBackToTheDefault() throws {
    let records: [(String?, String?, Int)] = [
      ("message", nil, 1), ("message", "", 1), ("message", nil, 1),
    ]
    #expect(texts(try summarizer(), records).0 == "2 more notifications")
  }

  @Test func severalCategoriesWithoutTheListAreJoined() throws {
    let records: [(String?, String?, Int)] =
      [("chat", "A", 1)] + Array(repeating: ("chat", "A", 1), count: 5)
      + Array(repeating: ("photo", "A", 1), count: 3)
    let (summary, hidden) = texts(try summarizer(), records)
    #expect(summary == "5 more messages and 3 more photos")
    #expect(hidden == "9 notifications")
  }

  @Test func severalCategoriesJoinWithTheLocalesListPattern() throws {
    let records: [(String?, String?, Int)] = [
      ("chat", nil, 1), ("chat", nil, 1), ("episode", nil, 2), ("photo", nil, 1),
    ]
    #expect(
      texts(try summarizer(), records).0 == "1 more messages, 2 more episodes, and 1 more photos")
  }

  @Test func severalCategoriesAnyWithTheListGiveTheDefault() throws {
    let records: [(String?, String?, Int)] =
      [("message", "Me", 1)] + Array(repeating: ("message", "Alice", 1), count: 5)
      + Array(repeating: ("photo", "Bob", 1), count: 3)
    #expect(texts(try summarizer(), records).0 == "8 more notifications")
  }

  @Test(arguments: ["unregistered", "empty", nil] as [String?])
  func noFormatGivesTheDefault(category: String?) throws {
    let records: [(String?, String?, Int)] = [
      (category, "A", 1), (category, "B", 1), (category, "C", 1),
    ]
    let (summary, hidden) = texts(try summarizer(), records)
    #expect(summary == "2 more notifications")
    #expect(hidden == "3 notifications")
  }

  @Test func oneCategoryWithoutAFormatAmongSeveralGivesTheDefault() throws {
    let records: [(String?, String?, Int)] = [("chat", nil, 1), ("chat", nil, 1), (nil, nil, 1)]
    #expect(texts(try summarizer(), records).0 == "2 more notifications")
  }

  @Test func aGroupOfOneHasNoSummaryButAPlaceholder() throws {
    let (summary, hidden) = texts(try summarizer(), [("message", "Alice", 1)])
    #expect(summary == nil)
    #expect(hidden == "1 messages")
    #expect(texts(try summarizer(), [("chat", "Alice", 1)]).1 == "1 notification")
  }

  @Test func theHiddenFormCountsTheLeadingRecordsCategoryToo() throws {
    let records: [(String?, String?, Int)] = [
      ("photo", nil, 1), ("message", "A", 1), ("message", "B", 1),
    ]
    #expect(texts(try summarizer(), records).1 == "3 notifications")
  }

  @Test func iOS15IgnoresArgumentsAndTheirCounts() throws {
    let ios15 = try summarizer(profile: .ios15)
    #expect(texts(ios15, podcasts).0 == "3 more episodes")
    #expect(texts(ios15, podcasts).1 == "4 episodes")
    #expect(texts(ios15, messages).0 == "5 more notifications")
    #expect(texts(ios15, messages).1 == "6 messages")
  }

  @Test(arguments: [
    (1, "Alice and 4 others"), (2, "Alice, Bob, and 3 others"),
    (4, "Alice, Bob, Carol, Dan, and 1 other"),
    (5, "Alice, Bob, Carol, Dan, and Eve"), (9, "Alice, Bob, Carol, Dan, and Eve"),
  ])
  func maxArgumentsShortensTheList(limit: Int, list: String) throws {
    let records: [(String?, String?, Int)] =
      [("message", "Me", 1)]
      + ["Alice", "Bob", "Carol", "Dan", "Eve"].map { ("message", $0, 1) }
    #expect(texts(try summarizer(maxArguments: limit), records).0 == "5 more messages from \(list)")
  }

  @Test(arguments: [
    ("ru", 21, "ещё 21 уведомление", "22 уведомления"),
    ("ru", 24, "ещё 24 уведомления", "25 уведомлений"),
    ("pl", 1, "jeszcze 1 powiadomienie", "2 powiadomienia"),
    ("pl", 21, "jeszcze 21 powiadomień", "22 powiadomienia"),
    ("ar", 2, "إشعاران آخران", "%u إشعارات"),
    ("fr", 1, "1 autre notification", "2 notifications"),
    ("ja", 3, "ほか3件の通知", "4件の通知"),
    ("cy", 1, "1 hysbysiad arall", "2 hysbysiad"),
    ("de-AT", 1, "1 weitere Mitteilung", "2 Mitteilungen"),
    ("pt-PT", 2, "mais 2 notificações", "3 notificações"),
    ("zh-Hant-TW", 2, "還有2則通知", "3則通知"),
    ("ko", 2, "그 외 알림 2개", "알림 3개"),
  ])
  func defaultsAreBuiltInForCommonLanguages(
    locale: String, more: Int, summary: String, hidden: String
  )
    throws
  {
    let records = Array(
      repeating: ("unregistered", nil, 1) as (String?, String?, Int), count: more + 1)
    let (gotSummary, gotHidden) = texts(try summarizer(locale: locale), records)
    #expect(gotSummary == summary)
    #expect(gotHidden == hidden.replacingPercentU(with: more + 1))
  }

  @Test func aLanguageWithoutBuiltInDefaultsFallsBackToEnglish() throws {
    let swahili = try summarizer(locale: "sw")
    var fallbacks: Fallbacks = []
    let facts = group([(nil, nil, 1), (nil, nil, 1)])
    #expect(swahili.summary(facts, fallbacks: &fallbacks) == "1 more notification")
    #expect(fallbacks == .summary)
    #expect(swahili.hiddenSummary(facts, fallbacks: &fallbacks) == "2 notifications")
    #expect(fallbacks == [.summary, .hidden])
  }

  @Test func everyBuiltInTextHasOtherAndOnlyItsLanguagesCategories() throws {
    for (language, texts) in BuiltinTexts.languages {
      let categories = Set(try CLDRLocale(language).plural.categories)
      for variants in [texts.summary, texts.hidden] {
        #expect(variants[.other] != nil, "\(language)")
        #expect(Set(variants.keys).subtracting([.zero]).isSubset(of: categories), "\(language)")
        #expect(categories.subtracting(variants.keys).isEmpty, "\(language) lacks a category")
      }
    }
  }

  /// The registry refuses it when it is read, as for notif-parse: no summarizer is made.
  @Test func aBadDirectiveInACategoryIsRejectedWithTheRegistry() {
    #expect(
      throws: ConfigFile.Rejection(
        offset: 34,
        message:
          "category_summary_format of category 'x': unsupported directive '%s' in '%s more': use %u, %d, %lu, %@, %1$u, %2$@ or %%"
      )
    ) {
      try summarizer(categories: #"{"x": {"category_summary_format": "%s more"}}"#)
    }
  }

  /// Identifiers are compared code point by code point, as iOS does: precomposed and
  /// decomposed spellings, or K and the Kelvin sign, are different categories.
  @Test(arguments: [("\u{E9}", "e\u{301}"), ("K", "\u{212A}")])
  func categoriesThatDifferInNormalizationAreDistinct(_ first: String, _ second: String) throws {
    let categories = """
      {"\(first)": {"category_summary_format": "%u more A", "hidden_previews_body_placeholder": "%u A"},
       "\(second)": {"category_summary_format": "%u more B", "hidden_previews_body_placeholder": "%u B"}}
      """
    let summarizer = try summarizer(categories: categories)
    let firsts: [(String?, String?, Int)] = Array(repeating: (first, nil, 1), count: 3)
    let seconds: [(String?, String?, Int)] = Array(repeating: (second, nil, 1), count: 3)
    #expect(texts(summarizer, firsts) == ("2 more A", "3 A"))
    #expect(texts(summarizer, seconds) == ("2 more B", "3 B"))
    var fallbacks: Fallbacks = []
    let mixed = GroupFacts(
      count: 3, moreCount: 2, moreWeight: 2,
      moreCategories: [.init(category: second, count: 2, weight: 2)], moreArguments: [],
      leadingCategory: first, leadingWeight: 1)
    #expect(summarizer.summary(mixed, fallbacks: &fallbacks) == "2 more B")
    #expect(summarizer.hiddenSummary(mixed, fallbacks: &fallbacks) == "3 notifications")
  }
}

extension String {
  fileprivate func replacingPercentU(with count: Int) -> String {
    var out = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: "%u") {
      out += rest[..<range.lowerBound] + String(count)
      rest = rest[range.upperBound...]
    }
    return out + rest
  }
}
