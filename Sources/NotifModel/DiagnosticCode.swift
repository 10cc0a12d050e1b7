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
    var scalars = text.unicodeScalars[...]
    var end = scalars.startIndex
    while let dot = scalars.firstIndex(of: ".") {
      end = scalars.index(after: dot)
      if end == scalars.endIndex || scalars[end] == " " { break }
      scalars = scalars[end...]
    }
    return end == text.unicodeScalars.startIndex ? text : String(text.unicodeScalars[..<end])
  }

  /// The code named `name`, if notif-diagnostics(7) lists it.
  public static func named(_ name: String) -> DiagnosticCode? {
    byName[name].map { table[$0] }
  }

  private static let byName: [String: Int] = Dictionary(
    table.enumerated().map { ($0.element.name, $0.offset) },
    uniquingKeysWith: { first, _ in first })
}
