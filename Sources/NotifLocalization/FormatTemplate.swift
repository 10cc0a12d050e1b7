import NotifCategories
import NotifModel

/// A summary format, parsed once: literal text, the count, the list of summary arguments, and
/// plural variables whose variant is chosen by the count.
///
/// The directives are those of NotifModel's `SummaryFormat`, which the category registry also
/// checks its formats with: `%u`, `%d`, `%i` (with `l`, `ll`, `q` or `z`), `%@`, `%%`, `%1$u`,
/// `%2$@`, and, in localized entries, `%#@name@` / `%1$#@name@` for a plural variable. Without a
/// position, a number directive takes the count and `%@` the list. Arguments are put in
/// literally: a `%` inside a summary argument is never read as a directive.
public struct FormatTemplate: Sendable, Equatable {
  /// One piece of a template.
  public indirect enum Piece: Sendable, Equatable {
    case literal(String)
    case count
    case arguments
    case plural(name: String, variants: [PluralCategory: FormatTemplate])
  }

  /// The pieces, in order.
  public var pieces: [Piece]

  /// Whether the format shows the list of summary arguments (`%@`), in any variant.
  public var usesArguments: Bool {
    pieces.contains {
      switch $0 {
      case .arguments: return true
      case .plural(_, let variants): return variants.values.contains { $0.usesArguments }
      default: return false
      }
    }
  }

  /// A problem with a format, in one lowercase line.
  public struct FormatError: Error, Equatable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    public var description: String { message }
  }

  /// Parses `format`; `variables` gives the variants of each plural variable it may name.
  public init(_ format: String, variables: [String: [PluralCategory: String]] = [:])
    throws(FormatError)
  {
    try self.init(format, variables: variables, depth: 0)
  }

  private init(_ format: String, variables: [String: [PluralCategory: String]], depth: Int)
    throws(FormatError)
  {
    guard depth < 4 else {
      throw FormatError(message: "plural variables nest more than 4 deep in '\(format)'")
    }
    let scanned: SummaryFormat
    do {
      scanned = try SummaryFormat(format, variables: Set(variables.keys))
    } catch {
      throw FormatError(message: error.message)
    }
    pieces = []
    for piece in scanned.pieces {
      switch piece {
      case .literal(let text): pieces.append(.literal(text))
      case .count: pieces.append(.count)
      case .arguments: pieces.append(.arguments)
      case .plural(let name):
        var variants: [PluralCategory: FormatTemplate] = [:]
        for (category, text) in variables[name] ?? [:] {
          variants[category] = try FormatTemplate(text, variables: variables, depth: depth + 1)
        }
        pieces.append(.plural(name: name, variants: variants))
      }
    }
  }

  /// The text for `count` and the already joined `arguments`; `rules` choose plural variants,
  /// with Apple's rule that a `zero` variant wins for 0 in every language.
  public func render(count: Int, arguments: String, rules: PluralRules) -> String {
    var text = ""
    render(count: count, arguments: arguments, rules: rules, into: &text)
    return text
  }

  private func render(count: Int, arguments: String, rules: PluralRules, into text: inout String) {
    for piece in pieces {
      switch piece {
      case .literal(let literal): text += literal
      case .count: text += String(count)
      case .arguments: text += arguments
      case .plural(_, let variants):
        let category: PluralCategory =
          count == 0 && variants[.zero] != nil ? .zero : rules.category(count)
        if let variant = variants[category] ?? variants[.other] {
          variant.render(count: count, arguments: arguments, rules: rules, into: &text)
        }
      }
    }
  }
}
