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
  /// The registry's `category_summary_format` and placeholder of each category.
  private(set) var categories = CategoryFormats()
  private(set) var defaultSummary: LocalizedFormat
  private(set) var defaultHidden: LocalizedFormat
  private(set) var others: LocalizedFormat
  /// The formats of the run, localized.
  private(set) var book: FormatBook
  /// The defaults that are the English text because the locale has no translation.
  private(set) var englishFallbacks: Fallbacks = []
  /// Warnings found while preparing, such as a format with no translation.
  private(set) var warnings: [Diagnostic] = []

  static let summaryKey = "NOTIF_SUMMARY_DEFAULT"
  static let hiddenKey = "NOTIF_HIDDEN_DEFAULT"
  static let othersKey = "NOTIF_SUMMARY_OTHERS"

  /// Prepares the formats of the registry and the default texts of `sources`, localized
  /// through its strings files for its locale.
  ///
  /// - Throws: `Diagnostic` for a format with a directive we do not support.
  init(profile: Profile, maxArguments: Int?, sources: TextSources) throws(Diagnostic) {
    self.profile = profile
    self.maxArguments = maxArguments
    let book = sources.book
    locale = book.locale
    let summary = try Self.defaultText(Self.summaryKey, \.summary, book: book)
    defaultSummary = summary.format
    if summary.isEnglish { englishFallbacks.insert(.summary) }
    let hidden = try Self.defaultText(Self.hiddenKey, \.hidden, book: book)
    defaultHidden = hidden.format
    if hidden.isEnglish { englishFallbacks.insert(.hidden) }
    if let found = try book.localized(Self.othersKey) {
      others = found
    } else {
      others = FormatBook.builtin(BuiltinTexts.others, rules: FormatBook.english.plural)
      if book.builtinLanguage != "en" { englishFallbacks.insert(.others) }
    }
    self.book = book
    categories = try sources.categoryFormats(
      field: "category_summary_format", format: \.summaryFormat, warnings: &warnings)
  }

  /// A default text: the strings files' `key`, else the built-in text (`variants` of its
  /// language) of the locale's language, else of English, which `isEnglish` says.
  private static func defaultText(
    _ key: String, _ variants: (BuiltinTexts.Language) -> BuiltinTexts.Variants,
    book: FormatBook
  ) throws(Diagnostic) -> (format: LocalizedFormat, isEnglish: Bool) {
    if let found = try book.localized(key) { return (found, false) }
    if let texts = book.builtinTexts {
      return (FormatBook.builtin(variants(texts), rules: book.builtinRules), false)
    }
    let english = BuiltinTexts.languages["en"].map(variants) ?? [:]
    return (FormatBook.builtin(english, rules: FormatBook.english.plural), true)
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
      entry.category.flatMap { categories[Array($0.utf8)]?.format }
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
