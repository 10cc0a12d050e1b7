import NotifCategories
import NotifModel

/// The formats a tool renders of each category of a registry, localized once: the one its
/// texts are made of (notif-summarize's `category_summary_format`, notif-digest's
/// `digest_format`) and the hidden-previews placeholder, by the identifier's UTF-8 bytes, as
/// iOS compares them (never `String` keys, which would make `"\u{e9}"` and `"e\u{301}"` one
/// category).
public struct CategoryFormats: Sendable {
  /// A category's two formats; either may be missing.
  public typealias Formats = (format: LocalizedFormat?, hidden: LocalizedFormat?)
  /// The categories with a format, by identifier; one with neither is left out.
  private var byIdentifier: [[UInt8]: Formats] = [:]

  /// No category.
  public init() {}

  /// The formats of every category of `registry` (named `registryFile`, its categories at
  /// `positions`) in the language of `book` (`FormatBook.registryFormat`): the one `field`
  /// names, read by `format`, and the placeholder; their warnings go to `warnings`.
  ///
  /// - Throws: `Diagnostic` (`BadFormat`) for a directive we do not support.
  public init(
    _ registry: CategoryRegistry, field: String, format: (NotificationCategory) -> String?,
    book: FormatBook, registryFile: String, positions: [String: (line: Int, column: Int)],
    warnings: inout [Diagnostic]
  ) throws(Diagnostic) {
    for category in registry.categories {
      let position = positions[category.identifier]
      func prepare(_ text: String?, _ field: String) throws(Diagnostic) -> LocalizedFormat? {
        try book.registryFormat(
          text, field: field, category: category.identifier, registryFile: registryFile,
          position: position, warnings: &warnings)
      }
      let main = try prepare(format(category), field)
      let hidden = try prepare(
        category.hiddenPreviewsBodyPlaceholder, "hidden_previews_body_placeholder")
      if main != nil || hidden != nil {
        byIdentifier[Array(category.identifier.utf8)] = (main, hidden)
      }
    }
  }

  /// The formats of the category `identifier` (UTF-8), if it has any.
  public subscript(_ identifier: [UInt8]) -> Formats? { byIdentifier[identifier] }
}

/// What a tool's texts are made from, read once where it starts (notif-summarize,
/// notif-digest): the category registry of `--categories` with the place of each category,
/// the strings files of `--strings` for the locale of `--locale`, and the `FormatBook` that
/// localizes the registry's formats through them.
public struct TextSources: Sendable {
  /// The registry, if `--categories` gave one.
  public let registry: CategoryRegistry?
  /// The registry's path as given, or empty.
  public let registryFile: String
  /// The line and column of each category's key in the registry.
  public let positions: [String: (line: Int, column: Int)]
  /// The book of the locale, through the strings files.
  public let book: FormatBook
  /// Warnings of reading the strings files (a folder with nothing to read).
  public let warnings: [Diagnostic]

  /// English, the built-in texts, no registry and no strings files.
  public init() {
    self.init(
      registry: nil, registryFile: "",
      book: FormatBook(
        locale: FormatBook.english, strings: LocalizedStrings(), stringsGiven: false))
  }

  /// Sources already read: `registry` (named `registryFile`, its categories at `positions`)
  /// and `book`.
  public init(
    registry: CategoryRegistry?, registryFile: String, book: FormatBook,
    positions: [String: (line: Int, column: Int)] = [:]
  ) {
    self.registry = registry
    self.registryFile = registryFile
    self.positions = positions
    self.book = book
    warnings = []
  }

  /// Reads the registry at `categories` (if given) and the strings files at `strings` for
  /// `locale`.
  ///
  /// - Throws: `Diagnostic`: the registry's error (`Unreadable`, `InvalidJSON`,
  ///   `BadRegistry` ...) or a strings file's.
  public init(categories: String?, strings: [String], locale: CLDRLocale) throws(Diagnostic) {
    if let categories {
      do {
        (registry, positions) = try CategoryRegistry.loadWithPositions(categories)
      } catch {
        throw error.diagnostic
      }
    } else {
      (registry, positions) = (nil, [:])
    }
    registryFile = categories ?? ""
    let files: LocalizedStrings
    do {
      files = try LocalizedStrings(paths: strings, locale: locale)
    } catch {
      throw error.diagnostic
    }
    book = FormatBook(locale: locale, strings: files, stringsGiven: !strings.isEmpty)
    warnings = files.warnings
  }

  /// The registry's formats of `field` (read by `format`) and placeholders, localized; none
  /// without a registry. Their warnings go to `warnings`.
  ///
  /// - Throws: `Diagnostic` (`BadFormat`) for a directive we do not support.
  public func categoryFormats(
    field: String, format: (NotificationCategory) -> String?, warnings: inout [Diagnostic]
  ) throws(Diagnostic) -> CategoryFormats {
    guard let registry else { return CategoryFormats() }
    return try CategoryFormats(
      registry, field: field, format: format, book: book, registryFile: registryFile,
      positions: positions, warnings: &warnings)
  }
}
