/// A buffered writer over `write(2)` that checks every write.
///
/// Output collects in one buffer and goes out in large writes; partial writes are continued and
/// `EINTR` retried. Any other failure (a full disk, a closed pipe with SIGPIPE ignored) is
/// thrown, never lost: `print` would drop it silently. SIGPIPE is left as it is, so by default a
/// closed pipe ends the process quietly, as `head` expects.
public struct OutputWriter: ~Copyable {
  /// The name used in diagnostics, such as `<stdout>`.
  public let name: String
  private let fd: Int32
  private var pending: ByteBuffer
  private let limit: Int

  /// Creates a writer to `fd`, flushing whenever `bufferSize` bytes are pending.
  public init(fd: Int32, name: String, bufferSize: Int = 128 * 1024) {
    self.fd = fd
    self.name = name
    limit = bufferSize
    pending = ByteBuffer(capacity: bufferSize + 4096)
  }

  /// Queues bytes, writing out when the buffer is full. A run of at least a buffer's size is
  /// written straight from `raw`, after what is pending, rather than copied first.
  public mutating func write(_ raw: UnsafeRawBufferPointer) throws(SystemError) {
    if raw.count >= limit {
      try flush()
      if let failure = writeOut(raw) { throw failure }
      return
    }
    pending.append(raw)
    if pending.count >= limit { try flush() }
  }

  /// Queues the bytes of a buffer, as `write(_: UnsafeRawBufferPointer)` does.
  public mutating func write(_ bytes: ByteBuffer) throws(SystemError) {
    let failure = bytes.withUnsafeBytes { raw -> SystemError? in
      do throws(SystemError) {
        try write(raw)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Queues the UTF-8 bytes of a string.
  public mutating func write(_ text: String) throws(SystemError) {
    pending.append(utf8: text)
    if pending.count >= limit { try flush() }
  }

  /// Writes out everything pending.
  public mutating func flush() throws(SystemError) {
    guard pending.count > 0 else { return }
    let failure = pending.withUnsafeBytes { writeOut($0) }
    pending.removeAll()
    if let failure { throw failure }
  }

  private func writeOut(_ raw: UnsafeRawBufferPointer) -> SystemError? {
    Self.writeAll(raw, to: fd, name: name)
  }

  /// Writes all of `raw` to `fd`, continuing partial writes and retrying `EINTR`; returns the
  /// error that stopped it, naming `name`.
  public static func writeAll(_ raw: UnsafeRawBufferPointer, to fd: Int32, name: String)
    -> SystemError?
  {
    guard let base = raw.baseAddress else { return nil }
    var offset = 0
    while offset < raw.count {
      let written = systemWrite(fd, base + offset, raw.count - offset)
      if written >= 0 {
        offset += written
      } else if errno != EINTR {
        return SystemError(path: name, doing: "write error", errno: errno)
      }
    }
    return nil
  }
}
