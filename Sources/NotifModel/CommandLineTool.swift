import NotifJSON

/// The command-line plumbing every notif tool shares: `--help` and `--version`, the usage
/// error (message, usage line, exit 2), and the option values several tools read the same way
/// (`--now`, `--format`, `--max-record-bytes`).
///
/// Each tool keeps its own name, version, usage and help text and hands them here. Output goes
/// only through the writers the tool passes in; nothing here reads the clock or the
/// environment, or exits.
public struct CommandLineTool: Sendable {
  /// The program name, the prefix of every message: `notif-parse`.
  public let name: String
  /// The version `--version` prints after the name.
  public let version: String
  /// The usage lines (the man page's SYNOPSIS), ending in a newline.
  public let usage: String
  /// The whole `--help` text, ending in a newline.
  public let help: String

  /// Describes a tool by its texts.
  public init(name: String, version: String, usage: String, help: String) {
    self.name = name
    self.version = version
    self.usage = usage
    self.help = help
  }

  /// Answers `--help` or `--version` when given (help first): writes the text to `stdout` and
  /// returns the exit status. Returns nil when neither was given, and the tool goes on.
  public func answerHelpOrVersion(
    _ scanned: ScannedArguments, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus? {
    if scanned.has("help") {
      return finish(writing: help, to: &stdout, stderr: &stderr)
    }
    if scanned.has("version") {
      return finish(writing: "\(name) \(version)\n", to: &stdout, stderr: &stderr)
    }
    return nil
  }

  /// Writes `text` to `out` and flushes it: success, or, when the write fails, the failure
  /// reported on `stderr` as `PROG: FILE: message` and `.failure`.
  public func finish(
    writing text: String, to out: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    do {
      try out.write(text)
      try out.flush()
      return .success
    } catch {
      try? stderr.write("\(name): \(error)\n")
      try? stderr.flush()
      return .failure
    }
  }

  /// Reports a usage error on `stderr` (`PROG: message`, then the usage lines) and returns
  /// `.failure` (exit 2).
  public func reportUsageError(_ error: UsageError, stderr: inout OutputWriter) -> ExitStatus {
    try? stderr.write("\(name): \(error.message)\n\(usage)")
    try? stderr.flush()
    return .failure
  }

  /// The reference time: `--now` (RFC 3339 or `@epoch`), else `SOURCE_DATE_EPOCH`, else
  /// `clock`, as `Timestamp.reference` chooses; its errors become usage errors.
  public static func now(
    _ scanned: ScannedArguments, sourceDateEpoch: String?, clock: () -> Timestamp
  ) throws(UsageError) -> Timestamp {
    do {
      return try Timestamp.reference(
        option: scanned.last("now"), sourceDateEpoch: sourceDateEpoch, clock: clock)
    } catch {
      throw UsageError(error.message)
    }
  }

  /// `--format text|github|json`, the diagnostics' form; nil when not given.
  public static func diagnosticFormat(_ scanned: ScannedArguments) throws(UsageError)
    -> DiagnosticFormat?
  {
    guard let format = scanned.last("format") else { return nil }
    guard let chosen = DiagnosticFormat(rawValue: format) else {
      throw UsageError("--format: '\(format)' is not text, github or json")
    }
    return chosen
  }

  /// `--max-record-bytes SIZE`, 2 bytes to 1 GiB (see `parseSize`); nil when not given.
  public static func maxRecordBytes(_ scanned: ScannedArguments) throws(UsageError) -> Int? {
    guard let size = scanned.last("max-record-bytes") else { return nil }
    guard let bytes = parseSize(size), bytes >= 2, bytes <= 1 << 30 else {
      throw UsageError(
        "--max-record-bytes: '\(size)' is not a size from 2 to 1g, such as 65536, 64k or 1m")
    }
    return bytes
  }

  /// Reads `65536`, `64k`, `1m` or `1g` (binary multiples); nil when it is not such a size.
  public static func parseSize(_ text: String) -> Int? {
    var digits = Substring(text)
    var scale = 1
    switch text.last?.lowercased() {
    case "k": scale = 1 << 10
    case "m": scale = 1 << 20
    case "g": scale = 1 << 30
    default: break
    }
    if scale > 1 { digits = digits.dropLast() }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int(digits),
      value <= Int.max / scale
    else {
      return nil
    }
    return value * scale
  }
}
