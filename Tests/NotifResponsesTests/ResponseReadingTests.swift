import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_responses

/// notif-responses reads its operands through the engine's `RecordReader`, as every tool reads
/// JSON texts, with the apns2 command's line (`410: 'Unregistered'`) handed to it whole
/// (`RecordReader.nextOrLine`): a text over the limit is one diagnostic, a malformed one gets
/// the diagnostic every tool gives it, and the answers after either are decided. (That texts
/// with a member a line are read in linear time is counted in `RecordReaderTests`.)
@Suite struct ResponseReadingTests {
  typealias Outcome = CapturedRun<NotifModel.ExitStatus>

  /// How the operand reaches the tool.
  enum Operand: Sendable, CustomTestStringConvertible {
    case file
    /// A named pipe written in pieces of this many bytes, with pauses (`withPipe`).
    case pipe(Int)

    var testDescription: String {
      switch self {
      case .file: return "file"
      case .pipe(let size): return "pipe(\(size))"
      }
    }
  }

  static let operands: [Operand] = [.file, .pipe(5), .pipe(4096)]

  /// Runs notif-responses with `arguments` on one operand holding `bytes`; the operand is
  /// named `input` in what it writes to standard error.
  static func run(_ bytes: [UInt8], _ arguments: [String] = [], _ operand: Operand = .file)
    throws -> Outcome
  {
    func run(on path: String) throws -> Outcome {
      let environment = ToolEnvironment(
        arguments: ["--now", "2026-11-26T10:00:00Z"] + arguments + [path])
      let (status, out, err) = try capturingOutput { stdout, stderr in
        ResponsesCommand.run(environment: environment, stdout: &stdout, stderr: &stderr)
      }
      return Outcome(
        status: status, stdout: out, stderr: err.replacingOccurrences(of: path, with: "input"))
    }
    switch operand {
    case .file:
      let folder = try makeScratchFolder("notif-responses-reading")
      defer { try? FileManager.default.removeItem(at: folder) }
      let file = folder.appendingPathComponent("input")
      try Data(bytes).write(to: file)
      return try run(on: file.path)
    case .pipe(let size):
      return try withPipe(feeding: bytes, pieceSize: size) { try run(on: $0) }
    }
  }

  static func run(_ text: String, _ arguments: [String] = [], _ operand: Operand = .file)
    throws -> Outcome
  {
    try run(Array(text.utf8), arguments, operand)
  }

  /// The `request_id` of each record written, in order (`null` when it has none).
  static func requestIDs(_ stdout: String) -> [String] {
    members(["request_id"], stdout)
  }

  /// The values of `keys` in each record written, in order, as JSON, separated by spaces.
  static func members(_ keys: [String], _ stdout: String) -> [String] {
    stdout.split(separator: "\n").map { line in
      withView(of: String(line)) { view -> String in
        var values = [String](repeating: "?", count: keys.count)
        view.forEachMember(of: 0) { key, value in
          guard let index = keys.firstIndex(of: view.string(key)) else { return }
          var out = ByteBuffer()
          JSONWriter.writeCompact(view, value, into: &out)
          values[index] = view.kind(value) == .string ? view.string(value) : out.text
        }
        return values.joined(separator: " ")
      } ?? "not JSON"
    }
  }

  /// The diagnostics every tool gives `bytes`: `RecordReader.next()`'s failures, as
  /// notif-responses writes them.
  static func engineDiagnostics(_ bytes: [UInt8], maxRecordBytes: Int = 64 << 20) -> String {
    bytes.withUnsafeBytes { raw in
      var reader = RecordReader(
        borrowing: raw, name: "input", maxRecordBytes: maxRecordBytes, line: 1,
        atStreamStart: true)
      var lines = ""
      while let event = try? reader.next(), event != .end {
        if case .failure(let error, let line, let column) = event {
          lines += DiagnosticFormat.text.render(
            Diagnostic(
              .error, error.code.rawValue, error.message, file: "input", line: line,
              column: column), program: "notif-responses")
        }
      }
      return lines
    }
  }

  // MARK: - Texts over the limit

  /// An Expo receipts answer with `count` receipts, as Python's `json.dumps(_, indent=)`
  /// writes it (`indent` nil: on one line).
  static func receipts(_ count: Int, indent: Int?) -> String {
    guard let indent else {
      return #"{"data":{"#
        + (0..<count).map { #""r\#($0)":{"status":"ok"}"# }.joined(
          separator: ",") + "}}"
    }
    let one = String(repeating: " ", count: indent)
    let two = one + one
    let three = two + one
    return "{\n\(one)\"data\": {\n"
      + (0..<count).map { "\(two)\"r\($0)\": {\n\(three)\"status\": \"ok\"\n\(two)}" }.joined(
        separator: ",\n") + "\n\(one)}\n}"
  }

  /// Texts longer than 1 KiB in each layout, and what the diagnostic calls them.
  static func overlong(_ layout: String) -> (text: String, what: String) {
    switch layout {
    case "one line": return (receipts(200, indent: nil), "JSON text")
    case "indent=2": return (receipts(200, indent: 2), "JSON text")
    case "indent=0": return (receipts(200, indent: 0), "JSON text")
    default: return ("410: '" + String(repeating: "x", count: 5000) + "'", "the line")
    }
  }

  /// Whatever its layout, a text longer than `--max-record-bytes` is one `RecordTooLarge`,
  /// and the answers after it are decided (issue: one error for each line after it).
  @Test(arguments: ["one line", "indent=2", "indent=0", "a line that is not JSON"], operands)
  func aTextOverTheLimitIsOneDiagnosticAndTheAnswersAfterItAreDecided(
    _ layout: String, _ operand: Operand
  ) throws {
    let (text, what) = Self.overlong(layout)
    let input =
      "{\"status\":200,\"apns-id\":\"before\"}\n" + text + "\n"
      + "{\"status\":200,\"apns-id\":\"after\"}\n400: 'BadDeviceToken'\n"
    let outcome = try Self.run(input, ["--max-record-bytes", "1k"], operand)
    #expect(
      outcome.stderr
        == "notif-responses: input:2:1: error: \(what) is longer than the limit of 1024 "
        + "bytes (--max-record-bytes) [RecordTooLarge]\n", "\(layout)")
    #expect(Self.requestIDs(outcome.stdout) == ["before", "after", "null"], "\(layout)")
    #expect(outcome.status == .rejected)
  }

  // MARK: - The apns2 command's line

  /// The apns2 command's lines among JSON answers (one-line, pretty-printed with or without
  /// indentation, concatenated), each decided in order, from a file and from a pipe that
  /// brings them in pieces. An answer indented as a whole, its closing brace too, is read to
  /// its end before the line after it (which was taken for more of it, then for text after
  /// it).
  @Test(arguments: operands)
  func readsTheApns2LineAndJSONAnswersOnAlternateLines(_ operand: Operand) throws {
    let input = """
      410: 'Unregistered'
      {"status":200,"apns-id":"a"}
      400: 'BadDeviceToken'
      {
      "status": 503,
      "apns-id": "b",
      "body": {
      "reason": "ServiceUnavailable"
      }
      }
        200: ''\t\r
        {
          "status": 410,
          "apns-id": "c",
          "body": {"reason": "Unregistered"}
        }
      429: 'TooManyRequests'
      {"status":200,"apns-id":"d"} {"status":200,"apns-id":"e"}
      500: 'InternalServerError'
      """
    let outcome = try Self.run(input, [], operand)
    #expect(outcome.stderr == "")
    #expect(outcome.status == .success)
    #expect(
      Self.requestIDs(outcome.stdout) == [
        "null", "a", "null", "b", "null", "c", "null", "d", "e", "null",
      ])
    #expect(
      Self.members(["status", "reason"], outcome.stdout) == [
        "410 Unregistered", "200 null", "400 BadDeviceToken", "503 ServiceUnavailable",
        "200 null", "410 Unregistered", "429 TooManyRequests", "200 null", "200 null",
        "500 InternalServerError",
      ])
  }

  /// A line that is neither JSON nor the apns2 command's line is a `BadResponse` at its first
  /// byte that is not white space, and reading goes on.
  @Test func aLineThatIsNeitherIsABadResponse() throws {
    let outcome = try Self.run("  not a response\n410: 'Unregistered'\n")
    #expect(
      outcome.stderr
        == "notif-responses: input:1:3: error: not a JSON object, nor the apns2 command's line "
        + "('410: 'Unregistered'') [BadResponse]\n")
    #expect(Self.requestIDs(outcome.stdout) == ["null"])
    #expect(outcome.status == .rejected)
  }

  // MARK: - Malformed JSON

  /// Malformed texts, each followed by an answer on the next line; the answers decided.
  static let malformed: [String: ([UInt8], [String])] = [
    "a syntax error": (Array(#"{"status":200,,"apns-id":"a"}"#.utf8), ["after"]),
    "a line cut short": (Array(#"{"status":200,"apns-id":"a""#.utf8), ["after"]),
    "a line cut short before the apns2 line": (
      Array("{\"status\":200,\n410: 'Unregistered'".utf8), ["after"]
    ),
    "more on the line after a text": (
      Array(#"{"status":200,"apns-id":"a"} ]"#.utf8), ["a", "after"]
    ),
    "a bad literal": (Array(#"{"status": tru}"#.utf8), ["after"]),
    "a duplicate key": (Array(#"{"status":200,"status":410}"#.utf8), ["after"]),
    "invalid UTF-8": (Array(#"{"apns-id":""#.utf8) + [0xFF] + Array(#""}"#.utf8), ["after"]),
    "a pretty-printed text": (
      Array("{\n  \"status\": 200\n  \"apns-id\": \"a\"\n}".utf8), ["after"]
    ),
  ]

  /// A malformed text gets the diagnostic every tool gives it (the engine's code, message,
  /// line and column: `RecordReader.next()`'s), and the answer on the line after it is decided.
  @Test(arguments: malformed.keys.sorted())
  func aMalformedTextGetsTheEnginesDiagnosticAndTheNextAnswerIsDecided(_ name: String) throws {
    let (text, decided) = try #require(Self.malformed[name])
    let input = text + Array("\n{\"status\":200,\"apns-id\":\"after\"}\n".utf8)
    let outcome = try Self.run(input)
    let expected = Self.engineDiagnostics(input)
    #expect(expected.split(separator: "\n").count == 1)
    #expect(outcome.stderr == expected)
    #expect(Self.requestIDs(outcome.stdout) == decided)
    #expect(outcome.status == .rejected)
  }

  @Test func aTextCutShortByTheNextLineSaysWhereTheNextStarts() throws {
    let outcome = try Self.run(
      "{\"status\":200,\"apns-id\":\"a\"\n{\"status\":200,\"apns-id\":\"b\"}\n")
    #expect(
      outcome.stderr
        == "notif-responses: input:1:28: error: JSON text is cut short: a new one starts on line 2 "
        + "[InvalidJSON]\n")
    #expect(Self.requestIDs(outcome.stdout) == ["b"])
  }

  /// The problems `ResponseReader` finds in a text, and the warnings about its values, are
  /// placed where they are in the input, also in a text that starts after another on its
  /// line or goes on over lines.
  @Test func placesProblemsAndWarningsInTheText() throws {
    let input = """
      {"status":200,"apns-id":"y"} {"status":"999","apns-id":"x"}
      {
        "endpoint": "https://push.example.net/1", "status": 503,
        "headers": {"Retry-After": "later"}
      }
      """
    let outcome = try Self.run(input)
    #expect(
      outcome.stderr
        == "notif-responses: input:1:40: error: 'status' must be an HTTP status from 100 to 599, "
        + "not '\"999\"' [BadStatus]\n"
        + "notif-responses: input:4:30: warning: 'Retry-After' is neither whole seconds nor an "
        + "HTTP date: the back-off is used [BadRetryAfter]\n")
    #expect(Self.requestIDs(outcome.stdout).count == 2)
  }

  @Test func anOperandThatCannotBeOpenedIsUnreadable() throws {
    let (status, out, err) = try capturingOutput { stdout, stderr in
      ResponsesCommand.run(
        environment: ToolEnvironment(arguments: ["/nonexistent/answers.ndjson"]),
        stdout: &stdout, stderr: &stderr)
    }
    #expect(status == .failure)
    #expect(out == "")
    #expect(
      err
        == "notif-responses: /nonexistent/answers.ndjson: error: cannot open: no such file or "
        + "directory [Unreadable]\n")
  }
}
