import NotifCategories
import NotifLocalization
import NotifModel

/// Which iOS rules to follow.
enum Profile: String, Sendable, CaseIterable {
  /// iOS 12 to 14 (WWDC 2018 session 711): summary arguments and their counts are used.
  case ios12
  /// iOS 15 and later as we read it: `summaryArgument` and `summaryArgumentCount` are ignored,
  /// each notification counts 1 and a format that shows the list falls back to the default.
  case ios15
}

/// What a group object says that a summary needs.
struct GroupFacts: Equatable {
  struct CategoryCount: Equatable {
    var category: String?
    var count: Int
    var weight: Int
  }

  var count: Int
  var moreCount: Int
  var moreWeight: Int
  var moreCategories: [CategoryCount]
  /// The distinct summary arguments of the non-leading records, newest first.
  var moreArguments: [String]
  var leadingCategory: String?
  /// The leading record's `summary_arg_count` as a weight (1 when absent or invalid).
  var leadingWeight: Int
}

/// The default texts a summary may fall back to, for the warning about English fallbacks.
struct Fallbacks: OptionSet, Hashable {
  let rawValue: UInt8
  static let summary = Fallbacks(rawValue: 1)
  static let hidden = Fallbacks(rawValue: 2)
  static let others = Fallbacks(rawValue: 4)
}

/// Builds the `summary` and `hidden_summary` of groups: every format parsed and localized once,
/// when the summarizer is made, so a group costs only lookups and string building.
struct Summarizer {
  var profile: Profile
  var maxArguments: Int?
  var locale: CLDRLocale
  /// By the identifier's UTF-8 bytes, as iOS compares them: never `String` keys, which would
  /// make `"\u00e9"` and `"e\u0301"` one category.
  private(set) var categories: [[UInt8]: (summary: LocalizedFormat?, hidden: LocalizedFormat?)] =
    [:]
  private(set) var defaultSummary: LocalizedFormat
  private(set) var defaultHidden: LocalizedFormat
  private(set) var others: LocalizedFormat
  /// The formats of the run, localized.
  private(set) var book: FormatBook
  /// The defaults that are the English text because the locale has no translation.
  private(set) var englishFallbacks: Fallbacks = []
  /// Warnings found while preparing, such as a format with no translation.
  private(set) var warnings: [SetupProblem] = []

  static let summaryKey = "NOTIF_SUMMARY_DEFAULT"
  static let hiddenKey = "NOTIF_HIDDEN_DEFAULT"
  static let othersKey = "NOTIF_SUMMARY_OTHERS"

  /// Prepares the formats of `registry` (named `registryFile`, its categories at the lines
  /// `categoryLines` gives: the line and column of each one's key) localized through `strings` for `locale`.
  ///
  /// - Throws: `SetupProblem` for a format with a directive we do not support.
  init(
    profile: Profile, maxArguments: Int?, locale: CLDRLocale, registry: CategoryRegistry?,
    registryFile: String, categoryLines: [String: (line: Int, column: Int)],
    strings: LocalizedStrings,
    stringsGiven: Bool
  ) throws(SetupProblem) {
    self.profile = profile
    self.maxArguments = maxArguments
    self.locale = locale
    let book = FormatBook(locale: locale, strings: strings, stringsGiven: stringsGiven)
    let english = FormatBook.english
    let texts = book.builtinTexts
    let textRules = book.builtinRules
    if let found = try book.localized(Self.summaryKey) {
      defaultSummary = found
    } else if let texts {
      defaultSummary = FormatBook.builtin(texts.summary, rules: textRules)
    } else {
      defaultSummary = FormatBook.builtin(
        BuiltinTexts.languages["en"]?.summary ?? [:], rules: english.plural)
      englishFallbacks.insert(.summary)
    }
    if let found = try book.localized(Self.hiddenKey) {
      defaultHidden = found
    } else if let texts {
      defaultHidden = FormatBook.builtin(texts.hidden, rules: textRules)
    } else {
      defaultHidden = FormatBook.builtin(
        BuiltinTexts.languages["en"]?.hidden ?? [:], rules: english.plural)
      englishFallbacks.insert(.hidden)
    }
    if let found = try book.localized(Self.othersKey) {
      others = found
    } else {
      others = FormatBook.builtin(BuiltinTexts.others, rules: english.plural)
      if book.builtinLanguage != "en" { englishFallbacks.insert(.others) }
    }
    self.book = book
    guard let registry else { return }
    for category in registry.categories {
      let position = categoryLines[category.identifier]
      func prepare(_ format: String?, _ field: String) throws(SetupProblem) -> LocalizedFormat? {
        try book.registryFormat(
          format, field: field, category: category.identifier, registryFile: registryFile,
          position: position, warnings: &warnings)
      }
      categories[Array(category.identifier.utf8)] = (
        try prepare(category.summaryFormat, "category_summary_format"),
        try prepare(category.hiddenPreviewsBodyPlaceholder, "hidden_previews_body_placeholder")
      )
    }
  }

  static var englishLocale: CLDRLocale { FormatBook.english }

  /// The shown summary of a group: nil for a group of one.
  func summary(_ group: GroupFacts, fallbacks: inout Fallbacks) -> String? {
    guard group.moreCount > 0 else { return nil }
    let weighted = profile == .ios12
    let total = weighted ? group.moreWeight : group.moreCount
    func fallback() -> String {
      fallbacks.formUnion(englishFallbacks.intersection(.summary))
      return defaultSummary.render(total)
    }
    let formats = group.moreCategories.map { entry in
      entry.category.flatMap { categories[Array($0.utf8)]?.summary }
    }
    if formats.isEmpty || formats.contains(where: { $0 == nil }) { return fallback() }
    if formats.count == 1, let format = formats[0] {
      guard !format.usesArguments else {
        guard weighted, !group.moreArguments.isEmpty else { return fallback() }
        return format.render(total, arguments(group.moreArguments, fallbacks: &fallbacks))
      }
      return format.render(total)
    }
    var parts: [String] = []
    for (entry, format) in zip(group.moreCategories, formats) {
      guard let format, !format.usesArguments else { return fallback() }
      parts.append(format.render(weighted ? entry.weight : entry.count))
    }
    return locale.list.format(parts)
  }

  /// The hidden-previews placeholder of a group: counts every record, the leading one too, and
  /// saturates, as notif-group's sums do, at `FieldLimits.largest`.
  func hiddenSummary(_ group: GroupFacts, fallbacks: inout Fallbacks) -> String {
    let total =
      profile == .ios12
      ? min(group.moreWeight + group.leadingWeight, Int(FieldLimits.largest)) : group.count
    let leading = group.leadingCategory.map { Array($0.utf8) }
    let single = group.moreCategories.allSatisfy { $0.category.map { Array($0.utf8) } == leading }
    if single, let leading, let format = categories[leading]?.hidden,
      !format.usesArguments
    {
      return format.render(total)
    }
    fallbacks.formUnion(englishFallbacks.intersection(.hidden))
    return defaultHidden.render(total)
  }

  /// The list of summary arguments in the locale's list pattern, cut to `maxArguments` and
  /// "N others".
  func arguments(_ values: [String], fallbacks: inout Fallbacks) -> String {
    if let limit = maxArguments, values.count > limit {
      fallbacks.formUnion(englishFallbacks.intersection(.others))
    }
    return book.list(values, limit: maxArguments, others: others)
  }
}
