import NotifJSON
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
  /// The repair `notif-parse --fix` makes, for a rule whose row has one (`RuleEntry.fix`).
  public var fix: Fix?

  /// Creates a finding.
  public init(severity: Severity, rule: Rule, message: String, offset: Int, fix: Fix? = nil) {
    self.severity = severity
    self.rule = rule
    self.message = message
    self.offset = offset
    self.fix = fix
  }

  /// A repair: the bytes `start..<end` of the text become `replacement`, the smallest edit
  /// that does it. Its safety is the rule's (`RuleEntry.fix`).
  public struct Fix: Equatable, Sendable {
    /// Where the bytes replaced start, in the text the finding's offset counts in.
    public var start: Int
    /// Just past them.
    public var end: Int
    /// What they become: JSON text, escaped for the string it is in when the text was
    /// embedded in one (an SNS platform's message).
    public var replacement: String

    public init(start: Int, end: Int, replacement: String) {
      self.start = start
      self.end = end
      self.replacement = replacement
    }

    /// The value at `index` of `view`, whole, becomes `replacement`.
    static func replacing(_ view: JSONView, _ index: Int, with replacement: String) -> Fix {
      Fix(
        start: Int(view.tokens[index].start), end: Int(view.tokens[index].end),
        replacement: replacement)
    }
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
