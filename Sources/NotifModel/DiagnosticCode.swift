// What notif-diagnostics(7) says of each code, as code: the SARIF writer (NotifCLI's Reporter,
// for every tool) describes by it a code that no row of the rule book names.

/// A diagnostic code of notif-diagnostics(7), with its entry's words.
public struct DiagnosticCode: Sendable, Equatable {
  /// The code: `Unreadable`, `BadRecord`...
  public var name: String
  /// The entry's first paragraph, less the sentence that names the tools that write it.
  public var text: String

  init(_ name: String, _ text: String) {
    self.name = name
    self.text = text
  }

  /// The first sentence of `text`: what the problem is.
  public var summary: String {
    let scalars = text.unicodeScalars
    var index = scalars.startIndex
    // A period that ends the text or comes before a space ends the sentence; one inside a
    // word (a file's `.json`, a version) does not.
    while let dot = scalars[index...].firstIndex(of: ".") {
      let after = scalars.index(after: dot)
      if after == scalars.endIndex || scalars[after] == " " {
        return String(scalars[..<after])
      }
      index = after
    }
    return text
  }

  /// The code named `name`, if notif-diagnostics(7) lists it.
  public static func named(_ name: String) -> DiagnosticCode? {
    byName[name].map { table[$0] }
  }

  private static let byName: [String: Int] = Dictionary(
    table.enumerated().map { ($0.element.name, $0.offset) },
    uniquingKeysWith: { first, _ in first })
}
