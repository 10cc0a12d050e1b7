/// A summary format, parsed once: literal text, the count, the list of summary arguments, and
/// plural variables whose variant is chosen by the count.
///
/// The directives are those `categorySummaryFormat` uses: `%u`, `%d`, `%i` (with `l`, `ll`,
/// `q` or `z` length modifiers: `%lu`, `%lld`) for the count, `%@` for the list, `%%` for a
/// percent sign, the positional forms `%1$u` (argument 1 is the count) and `%2$@` (argument 2
/// is the list), and, in localized entries, `%#@name@` / `%1$#@name@` for a plural variable.
/// Without a position, a number directive takes the count and `%@` the list. Arguments are put
/// in literally: a `%` inside a summary argument is never read as a directive.
struct FormatTemplate: Sendable, Equatable {
  indirect enum Piece: Sendable, Equatable {
    case literal(String)
    case count
    case arguments
    case plural(name: String, variants: [PluralCategory: FormatTemplate])
  }

  var pieces: [Piece]

  /// Whether the format shows the list of summary arguments (`%@`), in any variant.
  var usesArguments: Bool {
    pieces.contains {
      switch $0 {
      case .arguments: return true
      case .plural(_, let variants): return variants.values.contains { $0.usesArguments }
      default: return false
      }
    }
  }

  /// A problem with a format, in one lowercase line.
  struct FormatError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Parses `format`; `variables` gives the variants of each plural variable it may name.
  init(_ format: String, variables: [String: [PluralCategory: String]] = [:]) throws(FormatError) {
    try self.init(format, variables: variables, depth: 0)
  }

  private init(_ format: String, variables: [String: [PluralCategory: String]], depth: Int)
    throws(FormatError)
  {
    guard depth < 4 else {
      throw FormatError(message: "plural variables nest more than 4 deep in '\(format)'")
    }
    pieces = []
    var literal = ""
    var scalars = format.unicodeScalars[...]
    func flush() {
      if !literal.isEmpty { pieces.append(.literal(literal)) }
      literal = ""
    }
    while let scalar = scalars.popFirst() {
      guard scalar == "%" else {
        literal.unicodeScalars.append(scalar)
        continue
      }
      let directiveStart = scalars
      func shown() -> String {
        let used = directiveStart.count - scalars.count
        return "%" + String(String.UnicodeScalarView(directiveStart.prefix(used)))
      }
      if scalars.first == "%" {
        scalars.removeFirst()
        literal += "%"
        continue
      }
      var position: Int? = nil
      var digits = ""
      while let next = scalars.first, ("0"..."9").contains(next) {
        digits.unicodeScalars.append(next)
        scalars.removeFirst()
      }
      if !digits.isEmpty {
        guard scalars.first == "$", let number = Int(digits) else {
          throw FormatError(
            message:
              "unsupported directive '\(shown())\(scalars.first.map { String($0) } ?? "")' in '\(format)': widths and precisions are not supported"
          )
        }
        scalars.removeFirst()
        position = number
      }
      if scalars.first == "#" {
        scalars.removeFirst()
        guard scalars.first == "@" else {
          throw FormatError(message: "unsupported directive '\(shown())' in '\(format)'")
        }
        scalars.removeFirst()
        var name = ""
        while let next = scalars.popFirst(), next != "@" { name.unicodeScalars.append(next) }
        guard let texts = variables[name] else {
          throw FormatError(
            message: "'\(shown())' names a plural variable '\(name)' that is not defined")
        }
        guard position == nil || position == 1 else {
          throw FormatError(
            message:
              "'\(shown())' takes argument \(position ?? 0): the count is argument 1, the list argument 2"
          )
        }
        var variants: [PluralCategory: FormatTemplate] = [:]
        for (category, text) in texts {
          variants[category] = try FormatTemplate(text, variables: variables, depth: depth + 1)
        }
        flush()
        pieces.append(.plural(name: name, variants: variants))
        continue
      }
      var length = ""
      while let next = scalars.first, "lqzh".unicodeScalars.contains(next), length.count < 2 {
        length.unicodeScalars.append(next)
        scalars.removeFirst()
      }
      guard let conversion = scalars.popFirst() else {
        throw FormatError(message: "'\(shown())' at the end of '\(format)' is not a directive")
      }
      let isNumber = conversion == "u" || conversion == "d" || conversion == "i"
      guard
        (isNumber && ["", "l", "ll", "q", "z"].contains(length))
          || (conversion == "@" && length.isEmpty)
      else {
        throw FormatError(
          message:
            "unsupported directive '\(shown())' in '\(format)': use %u, %d, %lu, %@, %1$u, %2$@ or %%"
        )
      }
      if let position {
        guard position == (isNumber ? 1 : 2) else {
          throw FormatError(
            message:
              "'\(shown())' takes argument \(position): the count is argument 1 (%1$u), the list argument 2 (%2$@)"
          )
        }
      }
      flush()
      pieces.append(isNumber ? .count : .arguments)
    }
    flush()
  }

  /// The text for `count` and the already joined `arguments`; `rules` choose plural variants,
  /// with Apple's rule that a `zero` variant wins for 0 in every language.
  func render(count: Int, arguments: String, rules: PluralRules) -> String {
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
