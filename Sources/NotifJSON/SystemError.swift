/// A failed system call on a named file, ready to be reported in one line.
public struct SystemError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The file the call was about, as the user named it (`<stdin>`, `<stdout>` for the streams).
  public var path: String
  /// What was being done and why it failed, lowercase: `cannot open: no such file or directory`.
  public var message: String

  /// Creates an error from a verb and an `errno` value.
  public init(path: String, doing verb: String, errno code: Int32) {
    self.path = path
    self.message = "\(verb): \(SystemError.describe(errno: code))"
  }

  /// Creates an error with a message of its own.
  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { "\(path): \(message)" }

  /// Whether a read failed (`read error: ...`): a file that cannot be read is reported as
  /// `Unreadable` by every tool.
  public var isReadError: Bool { message.hasPrefix("read error: ") }

  /// The C library's text for `errno`, with a lowercase first letter.
  public static func describe(errno code: Int32) -> String {
    guard let text = strerror(code) else { return "error \(code)" }
    let message = String(cString: text)
    return message.prefix(1).lowercased() + message.dropFirst()
  }
}
