import NotifCLI
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
  // A compressed file is one error, as a compressed operand is: a regular file's start is
  // looked at now, a pipe's at its first line.
  func compressed(_ compression: Compression) -> SideFileError {
    SideFileError(
      diagnostic: Diagnostic(
        .error, Compression.code, "\(option): \(compression.message)", file: input.name))
  }
  if let compression = InputFile.compression(ofRegularFile: input.fd) {
    throw compressed(compression)
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
    if reader.lineNumber == 1, let compression = Compression(startOf: line) {
      throw compressed(compression)
    }
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

/// When each token was registered: for APNs's 410 timestamp rule as answers are decided
/// (`--tokens`), and for the prune, from the token files as they are under their locks.
///
/// A token's registration time is its latest, whatever the order of its lines: a file of
/// registrations appended as they come, sorted or merged lists the same token more than once.
/// A token whose time cannot be read is remembered as such: it is never pruned.
struct TokenRegistry: Sendable {
  private var registered: [[UInt8]: Timestamp] = [:]
  private var unreadable: Set<[UInt8]> = []

  /// How many tokens have a registration time.
  var count: Int { registered.count }

  /// When `token` was last registered, if a line says.
  func registeredAt(_ token: [UInt8]) -> Timestamp? { registered[token] }

  /// Whether a line of `token` has a registration time that cannot be read.
  func hasUnreadableTime(_ token: [UInt8]) -> Bool { unreadable.contains(token) }

  init() {}

  /// Takes in what one line of a token file says of `token`'s registration.
  mutating func add(_ line: TokenLine) {
    switch line {
    case .token(let token, let time?):
      if let known = registered[token], known >= time { return }
      registered[token] = time
    case .unreadableTime(let token, _): unreadable.insert(token)
    case .token(_, nil), .blank, .other: break
    }
  }

  /// Reads `--tokens FILE`, held in memory: every line must be a token with the time it was
  /// registered.
  ///
  /// - Throws: `SideFileError` for a file that cannot be read, and for its first line that is
  ///   not a token and a time that can be read: the run stops before any answer is decided.
  init(path: String, maxLineBytes: Int) throws(SideFileError) {
    var parser = JSONParser()
    var registry = TokenRegistry()
    try forEachSideFileLine(of: path, option: "--tokens", maxLineBytes: maxLineBytes) {
      (text, number) throws(SideFileError) in
      func bad(_ message: String) -> SideFileError {
        SideFileError(
          diagnostic: Diagnostic(
            .error, "BadToken", "--tokens: \(message)", file: path, line: number))
      }
      let line = TokenLine.read(text, parser: &parser)
      switch line {
      case .blank, .token(_, registeredAt: .some): registry.add(line)
      case .token(_, registeredAt: nil):
        throw bad(
          "the line has no registration time: a token and its time, or a JSON object with "
            + "'token' and 'registered_at' (RFC 3339 or whole seconds since 1970)")
      case .unreadableTime(_, let why), .other(let why): throw bad(why)
      }
    }
    self = registry
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
