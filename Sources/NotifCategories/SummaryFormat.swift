/// A summary format cut into its pieces: the one definition of the directives that
/// `category_summary_format`, `hidden_previews_body_placeholder`, `digest_format` and their
/// translations may use (`notif-categories(5)`).
///
/// The category registry checks its formats with it when it is loaded, so notif-parse,
/// notif-summarize and notif-digest refuse the same ones; the last two build their templates
/// from the pieces.
///
/// The directives: `%u`, `%d`, `%i` (with `l`, `ll`, `q` or `z` length modifiers: `%lu`,
/// `%lld`) for the count, `%@` for the list, `%%` for a percent sign, the positional forms
/// `%1$u` (argument 1 is the count) and `%2$@` (argument 2 is the list), and `%#@name@` /
/// `%1$#@name@` for a plural variable that the caller defines.
public struct SummaryFormat: Sendable, Equatable {
  /// One piece of a format.
  public enum Piece: Sendable, Equatable {
    /// Text shown as it is (`%%` already made `%`).
    case literal(String)
    /// The count.
    case count
    /// The list of summary arguments.
    case arguments
    /// A plural variable, one of those the caller defined.
    case plural(name: String)
  }

  /// A directive that is not one of ours, in one lowercase line.
  public struct DirectiveError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, quoting the directive and the format.
    public var message: String
    public var description: String { message }

    /// Creates an error.
    public init(message: String) {
      self.message = message
    }
  }

  /// The pieces, in order; adjacent literal text is one piece.
  public var pieces: [Piece] = []

  /// Cuts `format` into pieces; `variables` names the plural variables it may use.
  ///
  /// - Throws: `DirectiveError` for any other directive, a width or precision, a `%` at the
  ///   end, an argument number other than 1 for the count or 2 for the list, or a plural
  ///   variable not in `variables`.
  /// - Complexity: O(n) in the length of `format`.
  public init(_ format: String, variables: Set<String> = []) throws(DirectiveError) {
    var literal = ""
    var scalars = format.unicodeScalars[...]
    func flush() {
      if !literal.isEmpty { pieces.append(.literal(literal)) }
      literal = ""
    }
    func fail(_ message: String) -> DirectiveError { DirectiveError(message: message) }
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
          let next = scalars.first.map { String($0) } ?? ""
          throw fail(
            "unsupported directive '\(shown())\(next)' in '\(format)': widths and precisions are not supported"
          )
        }
        scalars.removeFirst()
        position = number
      }
      if scalars.first == "#" {
        scalars.removeFirst()
        guard scalars.first == "@" else {
          throw fail("unsupported directive '\(shown())' in '\(format)'")
        }
        scalars.removeFirst()
        var name = ""
        while let next = scalars.popFirst(), next != "@" { name.unicodeScalars.append(next) }
        guard variables.contains(name) else {
          throw fail("'\(shown())' names a plural variable '\(name)' that is not defined")
        }
        guard position == nil || position == 1 else {
          throw fail(
            "'\(shown())' takes argument \(position ?? 0): the count is argument 1, the list argument 2"
          )
        }
        flush()
        pieces.append(.plural(name: name))
        continue
      }
      var length = ""
      while let next = scalars.first, "lqzh".unicodeScalars.contains(next), length.count < 2 {
        length.unicodeScalars.append(next)
        scalars.removeFirst()
      }
      guard let conversion = scalars.popFirst() else {
        throw fail("'\(shown())' at the end of '\(format)' is not a directive")
      }
      let isNumber = conversion == "u" || conversion == "d" || conversion == "i"
      guard
        (isNumber && ["", "l", "ll", "q", "z"].contains(length))
          || (conversion == "@" && length.isEmpty)
      else {
        throw fail(
          "unsupported directive '\(shown())' in '\(format)': use %u, %d, %lu, %@, %1$u, %2$@ or %%"
        )
      }
      if let position, position != (isNumber ? 1 : 2) {
        throw fail(
          "'\(shown())' takes argument \(position): the count is argument 1 (%1$u), the list argument 2 (%2$@)"
        )
      }
      flush()
      pieces.append(isNumber ? .count : .arguments)
    }
    flush()
  }
}
