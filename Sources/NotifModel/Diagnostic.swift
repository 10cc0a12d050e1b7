import NotifJSON

/// How serious a diagnostic is.
public enum Severity: String, Sendable, Comparable {
  case warning, error

  public static func < (a: Severity, b: Severity) -> Bool { a == .warning && b == .error }
}

/// One problem found in the input, with where it is.
///
/// Tools build diagnostics as values; `DiagnosticFormat` turns them into one line each.
public struct Diagnostic: Sendable, Equatable {
  /// Whether the record was rejected (`error`) or kept (`warning`).
  public var severity: Severity
  /// A stable name for the kind of problem, such as `PayloadTooLarge`.
  public var code: String
  /// One lowercase line with user values in single quotes and no final period.
  public var message: String
  /// The file as named on the command line, or `<stdin>`.
  public var file: String
  /// The 1-based line, if the problem has one.
  public var line: Int?
  /// The 1-based column in Unicode scalars, if the problem has one.
  public var column: Int?

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ code: String, _ message: String, file: String, line: Int? = nil,
    column: Int? = nil
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.file = file
    self.line = line
    self.column = column
  }
}

extension Diagnostic {
  /// `text` with each character that could break a diagnostic's line or drive the terminal it
  /// is shown on written visibly: `\n`, `\r`, `\t`, `\e` for escape, and `\u{XX}` for the
  /// other C0 and C1 controls, DEL, the line and paragraph separators and the bidirectional
  /// formatting characters (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069).
  ///
  /// Messages quote what the input holds (a key, a value, a file name), which is untrusted: a
  /// newline in it would make two lines of one diagnostic, and an escape sequence would reach
  /// the user's terminal.
  public static func visible(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var out = ""
    for scalar in text.unicodeScalars {
      guard needsEscape(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{1B}": out += "\\e"
      default: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      }
    }
    return out
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0..<0x20, 0x7F...0x9F, 0x200E, 0x200F, 0x2028...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }
}

/// The ways diagnostics can be written.
public enum DiagnosticFormat: String, Sendable, CaseIterable {
  /// `PROG: FILE:LINE:COL: error: message [Code]`
  case text
  /// GitHub Actions workflow commands: `::error file=F,line=L,col=C,title=Code::message`
  case github
  /// One JSON object per diagnostic.
  case json

  /// The line (with its newline) that reports `diagnostic` for program `program`.
  public func render(_ diagnostic: Diagnostic, program: String) -> String {
    switch self {
    case .text:
      var location = diagnostic.file
      if let line = diagnostic.line {
        location += ":\(line)"
        if let column = diagnostic.column { location += ":\(column)" }
      }
      return
        "\(program): \(Diagnostic.visible(location)): \(diagnostic.severity.rawValue): \(Diagnostic.visible(diagnostic.message)) [\(diagnostic.code)]\n"
    case .github:
      var properties = "file=\(Self.githubProperty(diagnostic.file))"
      if let line = diagnostic.line {
        properties += ",line=\(line)"
        if let column = diagnostic.column { properties += ",col=\(column)" }
      }
      properties += ",title=\(Self.githubProperty(diagnostic.code))"
      return
        "::\(diagnostic.severity.rawValue) \(properties)::\(Self.githubData(diagnostic.message))\n"
    case .json:
      var out = ByteBuffer(capacity: 160)
      out.append("{\"file\":")
      JSONEscapes.writeString(diagnostic.file, into: &out)
      out.append(",\"line\":")
      if let line = diagnostic.line { out.append(decimal: Int64(line)) } else { out.append("null") }
      out.append(",\"column\":")
      if let column = diagnostic.column {
        out.append(decimal: Int64(column))
      } else {
        out.append("null")
      }
      out.append(",\"severity\":")
      JSONEscapes.writeString(diagnostic.severity.rawValue, into: &out)
      out.append(",\"code\":")
      JSONEscapes.writeString(diagnostic.code, into: &out)
      out.append(",\"message\":")
      JSONEscapes.writeString(diagnostic.message, into: &out)
      out.append("}\n")
      return out.text
    }
  }

  /// Escapes a workflow command's message: `%`, CR and LF, then what `Diagnostic.visible`
  /// writes visibly.
  static func githubData(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "%": out += "%25"
      case "\r": out += "%0D"
      case "\n": out += "%0A"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return Diagnostic.visible(out)
  }

  /// Escapes a workflow command's property value: as data, plus `:` and `,`.
  static func githubProperty(_ text: String) -> String {
    githubData(text).replacingColonsAndCommas()
  }
}

extension String {
  fileprivate func replacingColonsAndCommas() -> String {
    var out = ""
    for scalar in unicodeScalars {
      switch scalar {
      case ":": out += "%3A"
      case ",": out += "%2C"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}

extension JSONKind {
  /// The kind as a diagnostic names it, with its article: `an object`, `a string`, `null`:
  /// "'relevance' is a string, not a number".
  public var phrase: String {
    switch self {
    case .object: "an object"
    case .array: "an array"
    case .string: "a string"
    case .number: "a number"
    case .bool: "a boolean"
    case .null: "null"
    }
  }
}
