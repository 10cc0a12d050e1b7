import NotifCategories
import NotifJSON
import NotifLocalization
import NotifModel
import NotifPush
import NotifText

/// The copy rules of Apple's Human Interface Guidelines for notifications (seed 002), applied
/// with `--lint`, and the same guidelines applied to a category registry.
struct CopyLint {
  /// Columns a banner line holds: an iPhone in portrait at the default text size. Ours, not
  /// Apple's: a rough width, documented in notif-parse(1).
  static let lineWidth = 40
  /// Lines of body text a banner shows before it truncates.
  static let visibleLines = 2
  /// Characters an action button shows without truncating: ours, documented.
  static let actionTitleLimit = 20

  /// The app's display name (`--app-name`).
  let appName: String?
  /// Events seen so far, by hash, with where they were first seen.
  private var seen: [UInt64: (file: String, line: Int)] = [:]

  init(appName: String?) {
    self.appName = appName
  }

  /// Checks the text of one record; `offsetOf` gives where to point for a field.
  mutating func check(
    _ values: RecordValues, _ view: JSONView, file: String, line: Int,
    offsetOf: (RecordField) -> Int
  ) -> [Finding] {
    var findings: [Finding] = []
    let title = values.string(.title, in: view)
    let subtitle = values.string(.subtitle, in: view)
    let body = values.string(.body, in: view)

    if let body {
      let lines = Self.lineCount(body)
      if lines > Self.visibleLines {
        findings.append(
          .warning(
            .lintLongBody,
            "the body takes about \(lines) lines at \(Self.lineWidth) columns; iOS shows \(Self.visibleLines) and truncates the rest",
            at: offsetOf(.body)))
      }
      if let last = body.last(where: { !$0.isWhitespace }), last.isLetter || last.isNumber {
        findings.append(
          .warning(
            .lintPunctuation, "the body does not end with sentence punctuation",
            at: offsetOf(.body)))
      }
    }
    if let appName, !appName.isEmpty {
      let needle = appName.lowercased()
      for (field, text) in [(RecordField.title, title), (.subtitle, subtitle), (.body, body)] {
        if let text, text.lowercased().contains(needle) {
          findings.append(
            .warning(
              .lintAppName,
              "the \(field.key) names the app '\(appName)'; iOS already shows the app's name",
              at: offsetOf(field)))
        }
      }
    }

    let app = values.string(.app, in: view) ?? ""
    var keys: [(UInt64, String)] = []
    if let collapseID = values.string(.collapseID, in: view) {
      keys.append((Self.hash([app, "collapse", collapseID]), "collapse id '\(collapseID)'"))
    }
    if title != nil || body != nil {
      let thread = values.string(.threadID, in: view) ?? ""
      keys.append(
        (Self.hash([app, "text", thread, title ?? "", body ?? ""]), "app, thread, title and body"))
    }
    for (key, what) in keys {
      if let first = seen[key] {
        findings.append(
          .warning(
            .lintDuplicate,
            "the same event as \(first.file):\(first.line) (same \(what)): send one notification per event",
            at: 0))
        break
      }
    }
    for (key, _) in keys where seen[key] == nil {
      seen[key] = (file, line)
    }
    return findings
  }

  /// Checks a category registry against the guidelines for action buttons.
  static func check(_ registry: CategoryRegistry) -> [Finding] {
    var findings: [Finding] = []
    for category in registry.categories {
      if category.actions.count > 4 {
        findings.append(
          .warning(
            .categoryActions,
            "category '\(category.identifier)' has \(category.actions.count) actions: iOS shows at most 4, and only the first 2 on a banner",
            at: category.offset))
      }
      for action in category.actions {
        let title = action.title ?? ""
        let name = action.identifier ?? ""
        if title.allSatisfy(\.isWhitespace) {
          findings.append(
            .warning(
              .categoryEmptyTitle, "action '\(name)' has an empty title", at: action.titleOffset))
        } else {
          if title.count > actionTitleLimit {
            findings.append(
              .warning(
                .categoryLongTitle,
                "action title '\(title)' is \(title.count) characters; keep it under \(actionTitleLimit) so the button does not truncate it",
                at: action.titleOffset))
          }
          if !isTitleCase(title) {
            findings.append(
              .warning(
                .categoryTitleCase, "action title '\(title)' is not in title case",
                at: action.titleOffset))
          }
        }
        if action.options.contains("destructive")
          && !action.options.contains("authentication-required")
        {
          findings.append(
            .warning(
              .categoryDestructive,
              "destructive action '\(name)' does not require authentication: anyone holding a locked device can use it",
              at: action.offset))
        }
      }
    }
    return findings
  }

  /// Checks that each format of the registry that shows a count has the plural forms of
  /// `book`'s locale (`PluralCheck`), each localized through `book`'s strings files as
  /// notif-summarize localizes it: a warning `CountWithoutPlural` at the format.
  ///
  /// - Throws: `Diagnostic` (`BadFormat`) for a translation with a directive notif-summarize
  ///   refuses.
  static func checkPlurals(_ registry: CategoryRegistry, book: FormatBook) throws(Diagnostic)
    -> [Finding]
  {
    var findings: [Finding] = []
    var untranslated: [Diagnostic] = []  // notif-summarize's news (MissingTranslation)
    let locale = book.locale.requested
    for category in registry.categories {
      let formats = [
        ("category_summary_format", category.summaryFormat, category.summaryFormatOffset),
        (
          "hidden_previews_body_placeholder", category.hiddenPreviewsBodyPlaceholder,
          category.hiddenPreviewsBodyPlaceholderOffset
        ),
        ("digest_format", category.digestFormat, category.digestFormatOffset),
      ]
      for (field, format, offset) in formats {
        guard let format, let offset,
          let localized = try book.registryFormat(
            format, field: field, category: category.identifier, registryFile: "",
            position: nil, warnings: &untranslated),
          let gap = PluralCheck.gap(localized)
        else { continue }
        let what = "\(field) of category '\(category.identifier)'"
        let reads = gap.missing.map { "\($0.count) reads '\($0.text)'" }
          .joined(separator: ", ")
        let names = gap.missing.map { "'\($0.category.rawValue)'" }
        let variants =
          names.count == 1
          ? names[0] : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
        let message =
          gap.hasPluralVariable
          ? "\(what) has no \(variants) plural variant for locale '\(locale)': \(reads); "
            + "add it to the entry in the strings files"
          : "\(what) counts with no plural forms for locale '\(locale)': \(reads); "
            + "give it plural variants in a .stringsdict or .xcstrings entry (--strings)"
        findings.append(.warning(.categoryPlural, message, at: offset))
      }
    }
    return findings
  }

  static let minorWords: Set<String> = [
    "a", "an", "the", "and", "but", "or", "nor", "for", "so", "yet", "as", "at", "by", "in",
    "of", "off", "on", "per", "to", "up", "via",
  ]

  /// Whether every word but the minor ones (articles, short conjunctions and prepositions, not
  /// first or last) starts with a capital. Words in scripts without case pass.
  static func isTitleCase(_ title: String) -> Bool {
    let words = title.split(whereSeparator: \.isWhitespace)
    for (position, word) in words.enumerated() {
      guard let first = word.first, first.isLowercase else { continue }
      let isEdge = position == 0 || position == words.count - 1
      if isEdge || !minorWords.contains(word.lowercased()) { return false }
    }
    return true
  }

  /// About how many banner lines `text` fills: each line break starts a line, and a line
  /// holds `lineWidth` columns as a terminal counts them (`DisplayWidth`): two for a wide (East
  /// Asian) character or an emoji, none for a combining mark.
  static func lineCount(_ text: String) -> Int {
    var lines = 0
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let columns = DisplayWidth.of(paragraph)
      lines += max(1, (columns + lineWidth - 1) / lineWidth)
    }
    return lines
  }

  static func hash(_ parts: [String]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for part in parts {
      for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
      hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01b3  // a byte no UTF-8 text holds: a separator
    }
    return hash
  }
}
