import NotifModel

/// A problem found in one JSON text, located by byte offset within that text.
///
/// The caller turns the offset into a line and column, which only the reader can do.
public struct Finding: Equatable, Sendable {
  /// An error (the vendor refuses the message, or the device shows nothing of it) or a
  /// warning.
  public var severity: Severity
  /// The diagnostic's code, a row of the rule book.
  public var code: String
  /// One lowercase line, user values in single quotes, no final period.
  public var message: String
  /// The byte offset in the text the finding is about.
  public var offset: Int

  /// Creates a finding.
  public init(severity: Severity, code: String, message: String, offset: Int) {
    self.severity = severity
    self.code = code
    self.message = message
    self.offset = offset
  }

  public static func error(_ code: String, _ message: String, at offset: Int) -> Finding {
    Finding(severity: .error, code: code, message: message, offset: offset)
  }

  public static func warning(_ code: String, _ message: String, at offset: Int) -> Finding {
    Finding(severity: .warning, code: code, message: message, offset: offset)
  }
}
