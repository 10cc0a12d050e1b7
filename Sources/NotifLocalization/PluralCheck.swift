import NotifCategories
import NotifModel

/// Whether a format that shows a count has the plural forms its language needs: the check of
/// `notif-parse --lint` and `--check --categories` (`CountWithoutPlural`), made on the format
/// as notif-summarize would render it, localized through the same strings files
/// (`FormatBook.registryFormat`).
///
/// A language needs plural forms when its CLDR cardinal rules give a whole number from 1 to
/// 1000 a category other than `other` (English: `one` for 1; Russian: `one`, `few`, `many`;
/// Japanese: none). Larger counts are not tried: French, Spanish, Italian and Portuguese set a
/// million apart (`many`), which an app's notifications never count, and a missing variant
/// falls back to `other` there as it reads well enough.
/// A format that shows the count (`%u`, `%d`, `%lu`, `%1$u`, in any variant) then needs a
/// plural variable (`%#@name@`, from a `.stringsdict` or `.xcstrings` entry with plural
/// variations) with a variant for each of those categories; without one, the count's words
/// stay as written whatever the number: "1 messages".
public enum PluralCheck {
  /// The whole numbers the check tries: the counts a group of notifications takes.
  static let samples = 1...1000

  /// What a format lacks: each plural category of whole numbers it has no form for, with the
  /// smallest number in it and what the format says for that number.
  public struct Gap: Sendable, Equatable {
    /// A category the format has no form for, in CLDR's order.
    public struct Missing: Sendable, Equatable {
      /// The category.
      public var category: PluralCategory
      /// The smallest whole number from 1 in it.
      public var count: Int
      /// The format rendered for `count`, with the list (if it shows one) as `…`.
      public var text: String
    }

    /// The categories missing, at least one.
    public var missing: [Missing]
    /// Whether the format has a plural variable at all (its variants lack some categories) or
    /// none.
    public var hasPluralVariable: Bool
  }

  /// The gap of `format`: nil when it shows no count, when its language has one form for
  /// every whole number, or when a plural variable of it has a variant for every category its
  /// whole numbers take.
  public static func gap(_ format: LocalizedFormat) -> Gap? {
    guard shows(.count, format.template) else { return nil }
    let variables = format.template.pieces.compactMap {
      piece -> [PluralCategory: FormatTemplate]? in
      if case .plural(_, let variants) = piece { return variants }
      return nil
    }
    var missing: [Gap.Missing] = []
    for count in samples {
      let category = format.rules.category(count)
      guard category != .other, !missing.contains(where: { $0.category == category }) else {
        continue
      }
      if variables.contains(where: { $0[category] != nil }) { continue }
      missing.append(Gap.Missing(category: category, count: count, text: format.render(count, "…")))
    }
    guard !missing.isEmpty else { return nil }
    return Gap(
      missing: missing.sorted { $0.category < $1.category }, hasPluralVariable: !variables.isEmpty)
  }

  /// Whether `template`, or a variant of one of its plural variables, shows the count.
  static func shows(_ wanted: FormatTemplate.Piece, _ template: FormatTemplate) -> Bool {
    template.pieces.contains { piece in
      if piece == wanted { return true }
      if case .plural(_, let variants) = piece {
        return variants.values.contains { shows(wanted, $0) }
      }
      return false
    }
  }
}
