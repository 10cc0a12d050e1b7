import NotifJSON
import NotifModel

/// A problem in a file an option names (`--tokens`, `--requests`): reported, and the run
/// stops (status 2) before any response is read.
struct SideFileError: Error {
  var diagnostic: Diagnostic
}

/// Reads each line of the file at `path` and calls `body` with the line (without its
/// newline; a `\r` before it dropped) and its number; blank lines are skipped.
func forEachSideFileLine(
  of path: String, option: String, maxLineBytes: Int,
  _ body: (UnsafeRawBufferPointer, Int) throws(SideFileError) -> Void
) throws(SideFileError) {
  let input: InputFile
  do {
    input = try InputFile(operand: path)
  } catch {
    throw SideFileError(
      diagnostic: Diagnostic(.error, "Unreadable", "\(option): \(error.message)", file: path))
  }
  var reader = LineReader(fd: input.fd, name: input.name, maxLineBytes: maxLineBytes)
  while true {
    let next: UnsafeRawBufferPointer?
    do throws(SystemError) {
      next = try reader.next()
    } catch {
      throw SideFileError(
        diagnostic: Diagnostic(
          .error, "Unreadable", "\(option): \(error.message)", file: input.name))
    }
    guard let line = next else { break }
    do {
      if reader.isOverlong {
        throw SideFileError(
          diagnostic: Diagnostic(
            .error, "RecordTooLarge",
            "\(option): the line is longer than the limit of \(maxLineBytes) bytes (--max-record-bytes)",
            file: input.name, line: reader.lineNumber))
      }
      let trimmed = LineReader.trimmed(line)
      if trimmed.isEmpty { continue }
      try body(trimmed, reader.lineNumber)
    }
  }
}

/// `--tokens FILE`: when each token was registered, for APNs's 410 timestamp rule. One token a
/// line: a JSON object with `token` and `registered_at` (RFC 3339, or whole seconds since
/// 1970), or the token and the time separated by white space. The file is held in memory.
struct TokenRegistry: Sendable {
  private var registered: [[UInt8]: Timestamp] = [:]

  /// How many tokens the file lists.
  var count: Int { registered.count }

  /// When `token` was registered, if the file says.
  func registeredAt(_ token: [UInt8]) -> Timestamp? { registered[token] }

  init() {}

  init(path: String, maxLineBytes: Int) throws(SideFileError) {
    var parser = JSONParser()
    var registered: [[UInt8]: Timestamp] = [:]
    try forEachSideFileLine(of: path, option: "--tokens", maxLineBytes: maxLineBytes) {
      (line, number) throws(SideFileError) in
      func bad(_ message: String) -> SideFileError {
        SideFileError(
          diagnostic: Diagnostic(.error, "BadToken", message, file: path, line: number))
      }
      if line[0] == UInt8(ascii: "{") {
        guard case .complete(let end) = parser.parse(line, isFinal: true), end == line.count else {
          throw bad("--tokens: not a JSON object on one line")
        }
        let found: (token: [UInt8], at: Timestamp)? = parser.withView(over: line) { view in
          guard let token = view.member(0, "token"), view.kind(token) == .string,
            let at = view.member(0, "registered_at")
          else { return nil }
          if let seconds = view.integer(at) {
            return (view.stringBytes(token), Timestamp(seconds: seconds))
          }
          guard let text = view.stringValue(at), let time = try? Timestamp(rfc3339: text) else {
            return nil
          }
          return (view.stringBytes(token), time)
        }
        guard let found else {
          throw bad(
            "--tokens: a line needs 'token' and 'registered_at' (RFC 3339 or seconds since 1970)")
        }
        registered[found.token] = found.at
        return
      }
      let fields = line.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
      guard fields.count == 2 else {
        throw bad("--tokens: a line is a token and the time it was registered")
      }
      let text = String(decoding: fields[1], as: UTF8.self)
      let time: Timestamp
      do throws(TimeError) {
        time = try Timestamp(argument: text.allSatisfy(\.isNumber) ? "@" + text : text)
      } catch {
        throw bad("--tokens: \(error.message)")
      }
      registered[Array(fields[0])] = time
    }
    self.registered = registered
  }
}

/// `--requests FILE`: the requests behind the answers, by request id, so that an answer that
/// asks to fix the payload carries what notif-parse finds in it. One request a line: a JSON
/// object with `request_id` and `request`, the message as notif-parse reads it (a payload, an
/// envelope, an FCM, Web Push, SNS or Expo message). The file is held in memory.
struct RequestIndex: Sendable {
  /// Each request's JSON text and its line in the file.
  private var requests: [[UInt8]: (text: [UInt8], line: Int)] = [:]
  /// The file, as diagnostics name it.
  let path: String

  /// The request with this id, if the file has it.
  func request(_ id: [UInt8]) -> (text: [UInt8], line: Int)? { requests[id] }

  init(path: String, maxLineBytes: Int) throws(SideFileError) {
    self.path = path
    var parser = JSONParser()
    var requests: [[UInt8]: (text: [UInt8], line: Int)] = [:]
    try forEachSideFileLine(of: path, option: "--requests", maxLineBytes: maxLineBytes) {
      (line, number) throws(SideFileError) in
      guard case .complete(let end) = parser.parse(line, isFinal: true), end == line.count else {
        throw SideFileError(
          diagnostic: Diagnostic(
            .error, "BadRequest", "--requests: not a JSON object on one line", file: path,
            line: number))
      }
      let found: ([UInt8], [UInt8])? = parser.withView(over: line) { view in
        guard let id = view.member(0, "request_id"), view.kind(id) == .string,
          let request = view.member(0, "request")
        else { return nil }
        return (view.stringBytes(id), Array(view.raw(request)))
      }
      guard let found else {
        throw SideFileError(
          diagnostic: Diagnostic(
            .error, "BadRequest", "--requests: a line needs 'request_id' and 'request'",
            file: path, line: number))
      }
      requests[found.0] = (found.1, number)
    }
    self.requests = requests
  }
}
