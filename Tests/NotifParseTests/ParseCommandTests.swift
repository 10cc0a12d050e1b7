import NotifCLI
import NotifJSON
import NotifModel
import Testing

@testable import notif_parse

private let pushTypeList =
  "alert, background, complication, controls, fileprovider, liveactivity, location, mdm, pushtotalk, voip, widgets"

private func configure(_ arguments: [String], sourceDateEpoch: String? = nil) throws(UsageError)
  -> ParseCommand.Configuration
{
  let scanned = try OptionScanner.scan(arguments, ParseCommand.options)
  return try ParseCommand.configure(
    scanned,
    environment: ToolEnvironment(
      sourceDateEpoch: sourceDateEpoch, clock: { Timestamp(seconds: 42) }))
}

/// Runs notif-parse with `arguments`, its output going to pipes; returns status, stdout, stderr.
private func run(_ arguments: [String]) -> (NotifModel.ExitStatus, String, String) {
  var out: [Int32] = [0, 0]
  var err: [Int32] = [0, 0]
  precondition(pipe(&out) == 0 && pipe(&err) == 0)
  var stdout = OutputWriter(fd: out[1], name: "<stdout>")
  var stderr = OutputWriter(fd: err[1], name: "<stderr>")
  let status = ParseCommand.run(
    environment: ToolEnvironment(arguments: arguments), stdout: &stdout, stderr: &stderr)
  close(out[1])
  close(err[1])
  func drain(_ fd: Int32) -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
      if count <= 0 { break }
      bytes += chunk[0..<count]
    }
    close(fd)
    return String(decoding: bytes, as: UTF8.self)
  }
  return (status, drain(out[0]), drain(err[0]))
}

/// A file holding `text`, removed when the body returns; the body gets its path.
private func withFile<R>(_ text: String, _ body: (String) throws -> R) rethrows -> R {
  var template = Array("/tmp/notif-parse-test-XXXXXX".utf8CString)
  let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  precondition(fd >= 0, "mkstemp failed")
  let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  defer { unlink(path) }
  var bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes.withUnsafeMutableBytes {
      write(fd, $0.baseAddress! + offset, $0.count - offset)
    }
    precondition(written > 0)
    offset += written
  }
  close(fd)
  return try body(path)
}

// The second payload is refused by APNs: its apns-priority is not one of 10, 5 and 1.
private let mixed =
  "{\"aps\":{\"alert\":\"ok\"}}\n{\n  \"payload\": {\"aps\": {\"badge\": 1}}, \"headers\": {\"apns-priority\": 7}\n}\n"

@Suite struct ParseCommandTests {
  @Test(arguments: [
    ("65536", 65536 as Int?), ("64k", 65536), ("64K", 65536), ("1m", 1 << 20), ("1M", 1 << 20),
    ("1g", 1 << 30), ("0", 0), ("007", 7),
    ("0x10", nil), ("", nil), ("k", nil), ("1.5m", nil), ("-1", nil), ("+1", nil), ("1kb", nil),
    (" 1", nil), ("1 ", nil), ("١٢", nil), ("99999999999999999999", nil),
    ("9223372036854775807k", nil),
    ("1t", nil),
  ])
  func readsSizesWithBinarySuffixes(_ text: String, _ bytes: Int?) {
    #expect(CommandLineTool.parseSize(text) == bytes)
  }

  @Test func readsEveryOption() throws {
    let configuration = try configure([
      "-cs", "--lint", "--format=json", "--max-record-bytes", "64k", "--push-type", "voip",
      "--default-app",
      "com.x",
      "--app-name", "X", "--categories", "c.json", "--now", "@5", "--quiet", "--max-errors", "5",
      "--color", "always", "--progress", "a.ndjson", "-",
    ])
    #expect(configuration.check && configuration.strict && configuration.lint)
    #expect(configuration.format == .json)
    #expect(configuration.reporting.quiet && configuration.reporting.progress)
    #expect(configuration.reporting.maxErrors == 5 && configuration.reporting.color)
    #expect(configuration.maxRecordBytes == 65536)
    #expect(configuration.defaults.pushType == "voip")
    #expect(configuration.defaults.app == "com.x")
    #expect(configuration.defaults.now == Timestamp(seconds: 5))
    #expect(configuration.appName == "X")
    #expect(configuration.categoriesPath == "c.json")
    #expect(configuration.files == ["a.ndjson", "-"])
  }

  @Test func hasDefaultsForEveryOption() throws {
    let configuration = try configure([])
    #expect(!configuration.check && !configuration.strict && !configuration.lint)
    #expect(configuration.format == .text)
    #expect(configuration.reporting == ReportOptions())
    #expect(!configuration.dryRun && !configuration.verbose)
    #expect(configuration.maxRecordBytes == CommandLineTool.defaultMaxRecordBytes)
    #expect(configuration.defaults.pushType == nil)
    #expect(configuration.defaults.app == nil)
    #expect(configuration.defaults.now == Timestamp(seconds: 42))
    #expect(configuration.files == ["-"])
  }

  @Test func takesTheTimeFromSourceDateEpochWithoutNow() throws {
    #expect(try configure([], sourceDateEpoch: "7").defaults.now == Timestamp(seconds: 7))
    #expect(
      try configure(["--now", "@9"], sourceDateEpoch: "7").defaults.now == Timestamp(seconds: 9))
  }

  @Test(arguments: ["2", "1g", "2k"])
  func acceptsRecordLimitsFrom2BytesTo1g(_ size: String) throws {
    #expect(
      try configure(["--max-record-bytes", size]).maxRecordBytes == CommandLineTool.parseSize(size))
  }

  @Test(arguments: [
    (["--format", "xml"], nil as String?, "--format: 'xml' is not text, github, json or sarif"),
    (["--format=TEXT"], nil, "--format: 'TEXT' is not text, github, json or sarif"),
    (["--push-type", "push"], nil, "--push-type: 'push' is not one of " + pushTypeList),
    (
      ["--max-record-bytes", "1"], nil,
      "--max-record-bytes: '1' is not a size from 2 to 1g, such as 65536, 64k or 1m"
    ),
    (
      ["--max-record-bytes", "2g"], nil,
      "--max-record-bytes: '2g' is not a size from 2 to 1g, such as 65536, 64k or 1m"
    ),
    (
      ["--max-record-bytes", "0x10"], nil,
      "--max-record-bytes: '0x10' is not a size from 2 to 1g, such as 65536, 64k or 1m"
    ),
    (["--default-app", ""], nil, "--default-app: the bundle identifier is empty"),
    (
      ["--now", "yesterday"], nil,
      "--now: 'yesterday' is not an RFC 3339 time such as 2026-11-22T09:05:00Z"
    ),
    (
      ["--now", "2024-02-30T00:00:00Z"], nil, "--now: '2024-02-30T00:00:00Z' is not a calendar date"
    ),
    ([], "x", "SOURCE_DATE_EPOCH: 'x' is not whole seconds since 1970"),
    (["--max-errors", "-1"], nil, "--max-errors: '-1' is not a number from 0 up"),
    (["--color", "yes"], nil, "--color: 'yes' is not auto, always or never"),
    (["--dry-run"], nil, "--dry-run needs --store: without it no file is changed"),
    (["-n", "--verbose"], nil, "--dry-run needs --store: without it no file is changed"),
    (
      ["--verbose"], nil,
      "--verbose needs --store or --fix: it says what was appended to the store or fixed"
    ),
    (
      ["--store", "inbox.ndjson", "--check", "-n"], nil,
      "--store and --check cannot be used together: --check writes no records"
    ),
  ])
  func rejectsBadOptionValues(_ arguments: [String], _ sourceDateEpoch: String?, _ message: String)
  {
    #expect(throws: UsageError(message)) {
      try configure(arguments, sourceDateEpoch: sourceDateEpoch)
    }
  }

  @Test func printsTheVersion() {
    let (status, stdout, stderr) = run(["--version"])
    #expect(status == .success)
    #expect(stdout == "notif-parse 0.1.0\n")
    #expect(stderr == "")
  }

  @Test func printsHelpStartingWithTheUsage() {
    let (status, stdout, stderr) = run(["-h"])
    #expect(status == .success)
    #expect(stdout == ParseCommand.tool.help)
    #expect(stdout.hasPrefix(ParseCommand.usage))
    #expect(stderr == "")
  }

  @Test(arguments: [
    (["--bogus"], "unknown option '--bogus'"),
    (["--format", "xml"], "--format: 'xml' is not text, github, json or sarif"),
    (["--default-app"], "option '--default-app' needs a value"),
  ])
  func aUsageErrorPrintsTheMessageAndUsageWithStatus2(_ arguments: [String], _ message: String) {
    let (status, stdout, stderr) = run(arguments)
    #expect(status == .failure)
    #expect(status.rawValue == 2)
    #expect(stdout == "")
    #expect(stderr == "notif-parse: \(message)\n" + ParseCommand.usage)
  }

  @Test func anUnreadableFileIsReportedWithStatus2() {
    let (status, stdout, stderr) = run(["--now", "@0", "/nonexistent/notif-test.ndjson"])
    #expect(status == .failure)
    #expect(stdout == "")
    #expect(
      stderr
        == "notif-parse: /nonexistent/notif-test.ndjson: error: cannot open: no such file or directory [Unreadable]\n"
    )
  }

  // MARK: - Runs over files

  @Test func writesAcceptedRecordsAndReportsRejectedOnesWithTheirPosition() throws {
    withFile(mixed) { path in
      let (status, stdout, stderr) = run(["--now", "@0", path])
      #expect(status == .rejected)
      let lines = stdout.split(separator: "\n")
      #expect(lines.count == 1)
      #expect(lines.first?.hasPrefix(#"{"id":""#) == true)
      #expect(lines.first?.contains(#""body":"ok""#) == true)
      #expect(
        stderr
          == "notif-parse: \(path):3:66: error: 'apns-priority' must be 10, 5 or 1 [BadPriority]\n"
      )
    }
  }

  @Test func checkWritesDiagnosticsAndACountToStandardOutput() throws {
    withFile(mixed) { path in
      let (status, stdout, stderr) = run(["-c", "--now", "@0", path])
      #expect(status == .rejected)
      #expect(
        stdout
          == "notif-parse: \(path):3:66: error: 'apns-priority' must be 10, 5 or 1 [BadPriority]\n"
          + "notif-parse: 2 records in 1 file: 1 accepted, 1 rejected; 1 error, 0 warnings\n")
      #expect(stderr == "")
    }
  }

  @Test func checkCountsInJSON() throws {
    withFile(mixed + "{\"foo\":1}\n") { path in
      let (status, stdout, _) = run(["--check", "--format=json", "--now", "@0", path])
      #expect(status == .rejected)
      let lines = stdout.split(separator: "\n").map(String.init)
      #expect(lines.count == 3)
      #expect(
        lines.last == #"{"files":1,"records":3,"accepted":2,"rejected":1,"errors":1,"warnings":1}"#)
      #expect(lines.first?.hasPrefix(#"{"file":""#) == true)
    }
  }

  @Test func strictRejectsARecordWithOnlyAWarning() throws {
    withFile("{\"foo\":1}\n") { path in
      let (status, stdout, stderr) = run(["-s", "--now", "@0", path])
      #expect(status == .rejected)
      #expect(stdout == "")
      #expect(
        stderr
          == "notif-parse: \(path):1:1: warning: no 'aps' dictionary: iOS shows nothing and does not wake the app [NoAps]\n"
      )
    }
  }

  @Test func aWarningAloneLeavesTheStatusAtZero() throws {
    withFile("{\"foo\":1}\n") { path in
      let (status, stdout, _) = run(["--now", "@0", path])
      #expect(status == .success)
      #expect(stdout.split(separator: "\n").count == 1)
    }
  }

  @Test func reportsMalformedJSONAndGoesOn() throws {
    withFile("{\"aps\":{\"alert\":\"é\",}}\n{\"aps\":{\"alert\":\"ok\"}}\n") { path in
      let (status, stdout, stderr) = run(["--format", "github", "--now", "@0", path])
      #expect(status == .rejected)
      #expect(stdout.split(separator: "\n").count == 1)
      #expect(
        stderr
          == "::error file=\(path),line=1,col=20,title=InvalidJSON::trailing comma before '}'\n")
    }
  }

  @Test func warnsAboutACategoryMissingFromTheRegistry() throws {
    withFile(#"{"MSG":{"actions":[{"identifier":"r","title":"Reply"}]}}"#) { registry in
      withFile(
        #"{"aps":{"alert":"x","category":"MSG"}}"# + "\n"
          + #"{"aps":{"alert":"y","category":"NEW"}}"# + "\n"
      ) {
        path in
        let (status, stdout, stderr) = run(["--categories", registry, "--now", "@0", path])
        #expect(status == .success)
        #expect(stdout.split(separator: "\n").count == 2)
        #expect(
          stderr
            == "notif-parse: \(path):2:32: warning: category 'NEW' is not in the registry: iOS shows no actions and no custom summary [UnknownCategory]\n"
        )
      }
    }
  }

  /// Category identifiers are compared code point by code point, as iOS does: the Kelvin sign
  /// is not K, and precomposed and decomposed spellings are two categories.
  @Test func categoriesThatDifferInNormalizationAreDistinct() throws {
    withFile(#"{"K":{}, "\u00e9":{}, "e\u0301":{}}"#) { registry in
      withFile(
        #"{"aps":{"alert":"x","category":"\u212A"}}"# + "\n"
          + #"{"aps":{"alert":"y","category":"\u00e9"}}"# + "\n"
          + #"{"aps":{"alert":"z","category":"e\u0301"}}"# + "\n"
      ) {
        path in
        let (status, stdout, stderr) = run(["--categories", registry, "--now", "@0", path])
        #expect(status == .success)
        #expect(stdout.split(separator: "\n").count == 3)
        #expect(
          stderr
            == "notif-parse: \(path):1:32: warning: category '\u{212A}' is not in the registry: iOS shows no actions and no custom summary [UnknownCategory]\n"
        )
      }
    }
  }

  @Test(arguments: [
    ("", ":1:1: error: the file is empty: a category registry is one JSON object [InvalidJSON]"),
    (
      #"{"A":{}} {"B":{}}"#,
      ":1:10: error: a category registry is one JSON object; more text follows it [InvalidJSON]"
    ),
    ("[1]", ":1:1: error: a category registry is one JSON object, not an array [BadRegistry]"),
  ])
  func aBadRegistryStopsTheRunWithStatus2(_ text: String, _ diagnostic: String) throws {
    withFile(text) { registry in
      let (status, stdout, stderr) = run(["--categories", registry, "--now", "@0", "/dev/null"])
      #expect(status == .failure)
      #expect(stdout == "")
      #expect(stderr == "notif-parse: \(registry)\(diagnostic)\n")
    }
  }
}
