import NotifModel

/// A problem found in one JSON text, located by byte offset within that text.
///
/// The caller turns the offset into a line and column, which only the reader can do.
struct Finding: Equatable {
  var severity: Severity
  var code: String
  var message: String
  var offset: Int

  static func error(_ code: String, _ message: String, at offset: Int) -> Finding {
    Finding(severity: .error, code: code, message: message, offset: offset)
  }

  static func warning(_ code: String, _ message: String, at offset: Int) -> Finding {
    Finding(severity: .warning, code: code, message: message, offset: offset)
  }
}
