import NotifCLI
import NotifModel
import Testing

@testable import NotifLocalization

struct CLDRLocaleTests {
  @Test(arguments: [
    ("pt-BR", "pt_BR"), ("pt_BR", "pt_BR"), ("sr-latn", "sr_Latn"), ("SR-LATN-rs", "sr_Latn_RS"),
    ("de_DE.UTF-8", "de_DE"), ("ca_ES@valencia", "ca_ES"), ("und", "root"), ("EN", "en"),
  ])
  func tagsAreWrittenInCLDRForm(tag: String, canonical: String) {
    #expect(CLDRLocale.canonical(tag) == canonical)
  }

  @Test(arguments: ["", "e", "en--US", "en_", "12", "en US", "ru-Кир"])
  func malformedTagsAreNotLocales(tag: String) {
    #expect(CLDRLocale.canonical(tag) == nil)
  }

  @Test(arguments: [
    ("de-AT", "de_AT", ["de_AT", "de", "root"]),
    ("de-XX", "de", ["de_XX", "de", "root"]),
    ("en-GB", "en_GB", ["en_GB", "en_001", "en", "root"]),
    ("es-MX", "es_MX", ["es_MX", "es_419", "es", "root"]),
    ("pt-AO", "pt_AO", ["pt_AO", "pt_PT", "pt", "root"]),
    ("sr_Latn", "sr_Latn", ["sr_Latn", "root"]),
    ("root", "root", ["root"]),
    ("zh-TW", "zh_Hant_TW", ["zh_TW", "zh_Hant_TW", "zh_Hant", "root"]),
    ("zh_HK", "zh_Hant_HK", ["zh_HK", "zh_Hant_HK", "zh_Hant", "root"]),
    ("zh-CN", "zh", ["zh_CN", "zh", "root"]),
    ("sr-ME", "sr_Latn_ME", ["sr_ME", "sr_Latn_ME", "sr_Latn", "root"]),
  ])
  func localesFallBackAlongCLDRsParentChain(tag: String, identifier: String, chain: [String])
    throws
  {
    let locale = try CLDRLocale(tag)
    #expect(locale.identifier == identifier)
    #expect(locale.chain == chain)
  }

  @Test func unknownLocalesAreUsageErrors() {
    #expect(throws: UsageError("--locale: 'xx-YY' is not a locale CLDR 47 defines")) {
      try CLDRLocale("xx-YY")
    }
    #expect(
      throws: UsageError(
        "--locale: 'en--US' is not a locale identifier such as en, pt-BR or sr_Latn")
    ) {
      try CLDRLocale("en--US")
    }
  }

  @Test(arguments: [
    ("en", ["A"], "A"),
    ("en", ["A", "B"], "A and B"),
    ("en", ["A", "B", "C"], "A, B, and C"),
    ("en", ["A", "B", "C", "D"], "A, B, C, and D"),
    ("en-GB", ["A", "B", "C"], "A, B and C"),
    ("de", ["A", "B", "C"], "A, B und C"),
    ("fr", ["A", "B", "C"], "A, B et C"),
    ("ru", ["A", "B", "C"], "A, B и C"),
    ("pl", ["A", "B", "C"], "A, B i C"),
    ("ja", ["A", "B", "C"], "A、B、C"),
    ("ar", ["A", "B", "C"], "A وB وC"),
    ("cy", ["A", "B"], "A a(c) B"),
    ("cy", ["A", "B", "C"], "A, B, a(c) C"),
    ("es", ["A", "B", "C"], "A, B y C"),
    ("zh", ["A", "B", "C"], "A、B和C"),
    ("en", [], ""),
  ])
  func listsFollowTheLocalesStandardPattern(locale: String, items: [String], expected: String)
    throws
  {
    #expect(try CLDRLocale(locale).list.format(items) == expected)
  }

  @Test func listItemsAreInsertedLiterally() throws {
    #expect(try CLDRLocale("en").list.format(["{0}", "{1}", "%@"]) == "{0}, {1}, and %@")
  }

  /// Patterns with text before and after their items nest as CLDR says: `start` holds the
  /// `middle`s, which hold `end`, each pattern closed after what it holds.
  @Test(arguments: 0...6)
  func patternsNestInsideOneAnother(_ count: Int) {
    let list = ListPattern(
      start: "<{0}|{1}>", middle: "({0}/{1})", end: "[{0}&{1}]", two: "{0}+{1}")
    let items = (0..<count).map { "i\($0)" }
    let expected = [
      "", "i0", "i0+i1", "<i0|[i1&i2]>", "<i0|(i1/[i2&i3])>", "<i0|(i1/(i2/[i3&i4]))>",
      "<i0|(i1/(i2/(i3/[i4&i5])))>",
    ]
    #expect(list.format(items) == expected[count])
  }

  /// A list of many summary arguments costs its length: it was built by copying the whole
  /// tail once an item (these 20,000 took the old join 0.8 s, four times as long for each
  /// doubling).
  @Test func aLongListIsJoinedWhole() throws {
    let items = (0..<20_000).map { "Sender \($0)" }
    let text = try CLDRLocale("en").list.format(items)
    #expect(text.hasPrefix("Sender 0, Sender 1, Sender 2, "))
    #expect(text.hasSuffix(", Sender 19998, and Sender 19999"))
    #expect(text.utf8.count == items.reduce(0) { $0 + $1.utf8.count } + 2 * 19_999 + 4)
  }
}
