import NotifModel

/// A problem found in one JSON text, located by byte offset within that text.
///
/// The caller turns the offset into a line and column, which only the reader can do.
public struct Finding: Equatable, Sendable {
  /// An error (the vendor refuses the message, or the device shows nothing of it) or a
  /// warning.
  public var severity: Severity
  /// The row of the rule book the finding applies, which gives its code and id.
  public var rule: Rule
  /// The diagnostic's code: the row's.
  public var code: String { rule.code }
  /// One lowercase line, user values in single quotes, no final period.
  public var message: String
  /// The byte offset in the text the finding is about.
  public var offset: Int

  /// Creates a finding.
  public init(severity: Severity, rule: Rule, message: String, offset: Int) {
    self.severity = severity
    self.rule = rule
    self.message = message
    self.offset = offset
  }

  public static func error(_ rule: Rule, _ message: String, at offset: Int) -> Finding {
    Finding(severity: .error, rule: rule, message: message, offset: offset)
  }

  public static func warning(_ rule: Rule, _ message: String, at offset: Int) -> Finding {
    Finding(severity: .warning, rule: rule, message: message, offset: offset)
  }
}

extension Finding {
  /// The diagnostic of this finding, placed at `line` and `column` of `file`, naming its rule.
  public func diagnostic(file: String, line: Int?, column: Int?) -> Diagnostic {
    Diagnostic(
      severity, code, message, file: file, line: line, column: column, rule: rule.id)
  }
}
