import NotifCategories
import NotifModel

/// Which iOS rules to follow.
enum Profile: String, Sendable, CaseIterable {
  /// iOS 12 to 14 (WWDC 2018 session 711): summary arguments and their counts are used.
  case ios12
  /// iOS 15 and later as we read it: `summaryArgument` and `summaryArgumentCount` are ignored,
  /// each notification counts 1 and a format that shows the list falls back to the default.
  case ios15
}

/// A format ready to render: its parsed template and the plural rules of its language.
struct LocalizedFormat: Sendable {
  var template: FormatTemplate
  var rules: PluralRules
  var usesArguments: Bool

  init(_ template: FormatTemplate, rules: PluralRules) {
    self.template = template
    self.rules = rules
    usesArguments = template.usesArguments
  }

  func render(_ count: Int, _ arguments: String = "") -> String {
    template.render(count: count, arguments: arguments, rules: rules)
  }
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

/// A problem found while preparing the formats: where, and what; an error stops the run, a
/// warning (a missing translation, a strings folder with nothing in it) is reported.
struct SetupProblem: Error, Equatable {
  var file: String
  var line: Int?
  var code: String
  var message: String
  var column: Int? = nil
  var severity = Severity.error
}

extension SetupProblem {
  /// The problem a diagnostic (a config file's error) reports.
  init(_ diagnostic: Diagnostic) {
    self.init(
      file: diagnostic.file, line: diagnostic.line, code: diagnostic.code,
      message: diagnostic.message, column: diagnostic.column)
  }
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
    let english = Self.englishLocale
    func builtin(_ variants: [PluralCategory: String], rules: PluralRules) -> LocalizedFormat {
      do {
        return LocalizedFormat(
          try FormatTemplate("%#@n@", variables: ["n": variants]), rules: rules)
      } catch {
        preconditionFailure("built-in text \(variants): \(error)")  // the unit tests check them
      }
    }
    func fromStrings(_ key: String) throws(SetupProblem) -> LocalizedFormat? {
      guard let entry = strings[key] else { return nil }
      do {
        return LocalizedFormat(
          try FormatTemplate(entry.format, variables: entry.variables), rules: locale.plural)
      } catch {
        throw SetupProblem(
          file: entry.file, line: entry.line, code: "BadFormat",
          message: "localized '\(key)': \(error.message)", column: entry.column)
      }
    }
    let language = locale.chain.first { BuiltinTexts.languages[$0] != nil }
    let texts = language.flatMap { BuiltinTexts.languages[$0] }
    let textRules =
      language.map { (try? CLDRLocale($0))?.plural ?? english.plural } ?? english.plural
    if let found = try fromStrings(Self.summaryKey) {
      defaultSummary = found
    } else if let texts {
      defaultSummary = builtin(texts.summary, rules: textRules)
    } else {
      defaultSummary = builtin(BuiltinTexts.languages["en"]?.summary ?? [:], rules: english.plural)
      englishFallbacks.insert(.summary)
    }
    if let found = try fromStrings(Self.hiddenKey) {
      defaultHidden = found
    } else if let texts {
      defaultHidden = builtin(texts.hidden, rules: textRules)
    } else {
      defaultHidden = builtin(BuiltinTexts.languages["en"]?.hidden ?? [:], rules: english.plural)
      englishFallbacks.insert(.hidden)
    }
    if let found = try fromStrings(Self.othersKey) {
      others = found
    } else {
      others = builtin(BuiltinTexts.others, rules: english.plural)
      if language != "en" { englishFallbacks.insert(.others) }
    }
    guard let registry else { return }
    for category in registry.categories {
      let position = categoryLines[category.identifier]
      let line = position?.line
      let column = position?.column
      let identifier = Array(category.identifier.utf8)
      func prepare(_ format: String?, _ field: String) throws(SetupProblem) -> LocalizedFormat? {
        guard let format, !format.isEmpty else { return nil }
        if let found = try fromStrings(format) { return found }
        // The registry's formats are the development language's (English, as Apple's
        // examples are): only another language misses a translation.
        if stringsGiven && !locale.chain.contains("en") {
          warnings.append(
            SetupProblem(
              file: registryFile, line: line, code: "MissingTranslation",
              message:
                "no translation of '\(format)' for locale '\(locale.requested)' in the strings files: used as written",
              column: column, severity: .warning))
        }
        do {
          return LocalizedFormat(try FormatTemplate(format), rules: locale.plural)
        } catch {
          throw SetupProblem(
            file: registryFile, line: line, code: "BadFormat",
            message: "\(field) of category '\(category.identifier)': \(error.message)",
            column: column)
        }
      }
      categories[identifier] = (
        try prepare(category.summaryFormat, "category_summary_format"),
        try prepare(category.hiddenPreviewsBodyPlaceholder, "hidden_previews_body_placeholder")
      )
    }
  }

  static let englishLocale: CLDRLocale = {
    do {
      return try CLDRLocale("en")
    } catch {
      preconditionFailure("the generated CLDR data has no 'en'")
    }
  }()

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
    guard let limit = maxArguments, values.count > limit else { return locale.list.format(values) }
    fallbacks.formUnion(englishFallbacks.intersection(.others))
    return locale.list.format(Array(values.prefix(limit)) + [others.render(values.count - limit)])
  }
}
