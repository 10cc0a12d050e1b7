import NotifJSON

/// A file operand open for reading, as every filter opens its operands: `-` is standard input,
/// named `<stdin>` in diagnostics. Dropping the value closes the file (never standard input).
public struct InputFile: ~Copyable {
  /// The name diagnostics give the input: the operand, or `<stdin>` for `-`.
  public let name: String
  /// The descriptor to read from.
  public let fd: Int32

  /// Opens `operand` for reading (`-`: standard input).
  ///
  /// - Throws: `SystemError` naming the input, with the message `cannot open: ...`.
  public init(operand: String) throws(SystemError) {
    let name = operand == "-" ? "<stdin>" : operand
    let fd = operand == "-" ? STDIN_FILENO : open(operand, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw SystemError(path: name, doing: "cannot open", errno: errno) }
    self.name = name
    self.fd = fd
  }

  deinit {
    if fd != STDIN_FILENO { close(fd) }
  }
}
