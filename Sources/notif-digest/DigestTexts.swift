import NotifCategories
import NotifLocalization
import NotifModel

/// Writes a digest's `summary` and `hidden_summary`, with NotifLocalization's machinery, as
/// notif-summarize writes a group's: every format parsed and localized once, at start.
///
/// The summary of a digest whose records all have one category with a `digest_format` is
/// that format, with `%u` the number of records and `%@` the list of distinct actors, newest
/// first, cut by `--max-args` ("Alice and 5 others"); otherwise, and when the format shows a
/// list but the digest names no actor, it is the default text (`NOTIF_DIGEST_DEFAULT` of the
/// strings files, else the built-in "3 notifications"). The hidden-previews form is the one
/// category's `hidden_previews_body_placeholder`, else the default (`NOTIF_HIDDEN_DEFAULT`,
/// else the built-in "3 notifications"). Counts saturate at `FieldLimits.largest`.
struct DigestTexts {
  /// The registry's `digest_format` and placeholder of each category.
  private(set) var categories = CategoryFormats()
  private(set) var defaultSummary: LocalizedFormat
  private(set) var defaultHidden: LocalizedFormat
  private(set) var others: LocalizedFormat
  let maxArguments: Int?
  let book: FormatBook
  /// Warnings found while preparing: a format with no translation, an English fallback.
  private(set) var warnings: [Diagnostic] = []

  static let summaryKey = "NOTIF_DIGEST_DEFAULT"
  static let hiddenKey = "NOTIF_HIDDEN_DEFAULT"
  static let othersKey = "NOTIF_SUMMARY_OTHERS"

  /// The texts of the built-in locale English, with no registry: for tests and as the
  /// fallback of `--merge` objects that cannot be rewritten otherwise.
  static let english: DigestTexts = {
    do {
      return try DigestTexts(sources: TextSources(), maxArguments: nil)
    } catch {
      preconditionFailure("the built-in digest texts: \(error)")
    }
  }()

  /// Prepares the texts of `sources`: the registry's formats and the default texts, in the
  /// language of its book.
  ///
  /// - Throws: `Diagnostic` for a format with a directive we do not support.
  init(sources: TextSources, maxArguments: Int?) throws(Diagnostic) {
    let book = sources.book
    self.book = book
    self.maxArguments = maxArguments
    let english = FormatBook.english.plural
    let texts = book.builtinTexts
    let hiddenText = FormatBook.builtin(
      texts?.hidden ?? BuiltinTexts.languages["en"]?.hidden ?? [:],
      rules: texts == nil ? english : book.builtinRules)
    var fallbacks: [String] = []
    if let found = try book.localized(Self.hiddenKey) {
      defaultHidden = found
    } else {
      defaultHidden = hiddenText
      if texts == nil { fallbacks.append(Self.hiddenKey) }
    }
    if let found = try book.localized(Self.summaryKey) {
      defaultSummary = found
    } else {
      defaultSummary = defaultHidden
      if texts == nil && book.strings[Self.hiddenKey] == nil { fallbacks.append(Self.summaryKey) }
    }
    if let found = try book.localized(Self.othersKey) {
      others = found
    } else {
      others = FormatBook.builtin(BuiltinTexts.others, rules: english)
      if book.builtinLanguage != "en" && maxArguments != nil { fallbacks.append(Self.othersKey) }
    }
    for key in fallbacks {
      warnings.append(
        Diagnostic(
          .warning, "MissingTranslation",
          "no built-in translation for locale '\(book.locale.requested)' and no '\(key)' in the strings files: English used",
          file: "<command line>"))
    }
    categories = try sources.categoryFormats(
      field: "digest_format", format: \.digestFormat, warnings: &warnings)
  }

  /// The one category of a digest's records, if they have one, and only one, that is not null.
  private static func single(_ digest: Digest) -> [UInt8]? {
    guard digest.categories.count == 1, let only = digest.categories.first?.key else { return nil }
    return only.bytes
  }

  private static func count(_ digest: Digest) -> Int {
    Int(min(digest.count, FieldLimits.largest))
  }

  /// The summary of a digest.
  func summary(_ digest: Digest) -> String {
    let total = Self.count(digest)
    guard let category = Self.single(digest), let format = categories[category]?.format else {
      return defaultSummary.render(total)
    }
    guard format.usesArguments else { return format.render(total) }
    let actors = digest.actorsInOrder.map { String(decoding: $0.actor, as: UTF8.self) }
    guard !actors.isEmpty else { return defaultSummary.render(total) }
    return format.render(total, book.list(actors, limit: maxArguments, others: others))
  }

  /// The hidden-previews form of a digest.
  func hiddenSummary(_ digest: Digest) -> String {
    let total = Self.count(digest)
    if let category = Self.single(digest), let format = categories[category]?.hidden,
      !format.usesArguments
    {
      return format.render(total)
    }
    return defaultHidden.render(total)
  }
}
