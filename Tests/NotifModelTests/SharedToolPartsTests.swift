import Foundation
import Testing

@testable import NotifModel

/// A new empty folder under the temporary directory.
private func folder() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "notif-shared-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

@Suite struct StoreSessionTests {
  @Test func aMissingStoreIsAnErrorAndGetsNoLockFile() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    #expect(
      throws: StoreLockError.system(
        SystemError(path: store, message: "cannot open the store: no such file or directory"))
    ) {
      _ = try StoreSession(store: store, wait: 0, recover: true, monotonicClock: { 0 }) { _ in }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
  }

  @Test func aHeldLockIsHeldAndDroppingTheSessionReleasesIt() throws {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    try Data("a\n".utf8).write(to: URL(fileURLWithPath: store))
    do {
      let session = try StoreSession(
        store: store, wait: 0, recover: true, monotonicClock: { 0 }
      ) { warning in Issue.record("unexpected warning \(warning)") }
      #expect(session.status.st_size == 2)
      #expect(throws: StoreLockError.held(path: store + ".lock")) {
        _ = try StoreSession(store: store, wait: 0, recover: false, monotonicClock: { 0 }) { _ in
        }
      }
    }
    _ = try StoreSession(store: store, wait: 0, recover: false, monotonicClock: { 0 }) { _ in }
  }

  @Test func theLockedDiagnosticIsTheDocumentedOne() {
    let text = DiagnosticFormat.text.render(
      StoreSession.lockedDiagnostic(lockPath: "inbox.ndjson.lock"), program: "notif-expire")
    #expect(
      text
        == "notif-expire: inbox.ndjson.lock: error: another sweep or appender holds the lock [Locked]\n"
    )
  }
}

@Suite struct InputFileTests {
  @Test func aDashIsStandardInputByName() throws {
    let input = try InputFile(operand: "-")
    #expect(input.name == "<stdin>")
    #expect(input.fd == STDIN_FILENO)
  }

  @Test func aMissingFileSaysItCannotBeOpened() {
    #expect(
      throws: SystemError(
        path: "/nonexistent/x.ndjson", message: "cannot open: no such file or directory")
    ) {
      _ = try InputFile(operand: "/nonexistent/x.ndjson")
    }
  }
}

@Suite struct SweepOptionsTests {
  static func options(_ arguments: [String], terminal: Bool = false) throws(UsageError)
    -> SweepOptions
  {
    let specs: [OptionSpec] = [
      .flag("dry-run", "n"), .value("archive"), .value("store"), .value("wait"),
      .flag("progress"), .flag("no-progress"),
    ]
    return try SweepOptions(
      try OptionScanner.scan(arguments, specs), storeVerb: "sweeps", stderrIsTerminal: terminal)
  }

  @Test(arguments: [
    (["--wait", "1"], "--wait needs --store: only a store is locked"),
    (["--store", "s", "--wait", "1d"], "--wait: '1d' is not a number of seconds from 0 to 86400"),
    (
      ["--store", "s", "--wait", "86401"],
      "--wait: '86401' is not a number of seconds from 0 to 86400"
    ),
    (["--store", "s", "f"], "--store sweeps one file in place: give no file operands with it"),
    (["--store", ""], "--store: the file name is empty"),
    (["--store", "", "--wait", "x", "f"], "--store: the file name is empty"),
  ])
  func mistakesAreUsageErrors(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { _ = try Self.options(arguments) }
  }

  @Test func readsEveryOption() throws {
    let options = try Self.options([
      "-n", "--archive", "a", "--store", "s", "--wait", "2.5", "--no-progress", "--progress",
    ])
    #expect(options.dryRun)
    #expect(options.archive == "a")
    #expect(options.store == "s")
    #expect(options.wait == 2.5)
    #expect(options.progress)
    #expect(try Self.options(["f", "-"]).files == ["f", "-"])
    #expect(try Self.options([]).files == ["-"])
    #expect(try Self.options([], terminal: true).progress)
    #expect(try !Self.options(["--no-progress"], terminal: true).progress)
  }
}

@Suite struct CommandLineToolTests {
  static let tool = CommandLineTool(
    name: "notif-x", version: "0.1.0", usage: "usage: notif-x\n", help: "usage: notif-x\n\nHelp.\n")

  @Test(arguments: [
    ("0", 0), ("65536", 65536), ("64k", 65536), ("1M", 1 << 20), ("1g", 1 << 30),
  ])
  func sizesAreBinaryMultiples(_ text: String, _ bytes: Int) {
    #expect(CommandLineTool.parseSize(text) == bytes)
  }

  @Test(arguments: ["", "k", "-1", "1.5k", "1t", "99999999999999999999"])
  func otherTextIsNoSize(_ text: String) {
    #expect(CommandLineTool.parseSize(text) == nil)
  }

  @Test func optionValuesBecomeUsageErrors() throws {
    let specs: [OptionSpec] = [.value("now"), .value("format"), .value("max-record-bytes")]
    let bad = try OptionScanner.scan(
      ["--format", "xml", "--max-record-bytes", "1", "--now", "x"], specs)
    #expect(throws: UsageError("--format: 'xml' is not text, github or json")) {
      _ = try CommandLineTool.diagnosticFormat(bad)
    }
    #expect(
      throws: UsageError(
        "--max-record-bytes: '1' is not a size from 2 to 1g, such as 65536, 64k or 1m")
    ) {
      _ = try CommandLineTool.maxRecordBytes(bad)
    }
    #expect(throws: UsageError.self) {
      _ = try CommandLineTool.now(bad, sourceDateEpoch: nil) { Timestamp(seconds: 0) }
    }
    let none = try OptionScanner.scan([], specs)
    #expect(try CommandLineTool.diagnosticFormat(none) == nil)
    #expect(try CommandLineTool.maxRecordBytes(none) == nil)
    #expect(
      try CommandLineTool.now(none, sourceDateEpoch: "60") { Timestamp(seconds: 0) }
        == Timestamp(seconds: 60))
  }

  @Test func aUsageErrorIsTheMessageThenTheUsage() throws {
    let (status, _, stderr) = try Self.capture { _, stderr in
      Self.tool.reportUsageError(UsageError("bad"), stderr: &stderr)
    }
    #expect(status == .failure)
    #expect(stderr == "notif-x: bad\nusage: notif-x\n")
  }

  @Test(arguments: [
    (["--help"], "usage: notif-x\n\nHelp.\n"), (["--version"], "notif-x 0.1.0\n"),
    (["--version", "-h"], "usage: notif-x\n\nHelp.\n"),
  ])
  func helpAndVersionAnswer(_ arguments: [String], _ expected: String) throws {
    let scanned = try OptionScanner.scan(arguments, [.flag("help", "h"), .flag("version")])
    let (status, stdout, _) = try Self.capture { stdout, stderr in
      Self.tool.answerHelpOrVersion(scanned, stdout: &stdout, stderr: &stderr)
    }
    #expect(status == .success)
    #expect(stdout == expected)
  }

  @Test func neitherHelpNorVersionGoesOn() throws {
    let scanned = try OptionScanner.scan([], [.flag("help", "h"), .flag("version")])
    let (status, stdout, _) = try Self.capture { stdout, stderr in
      Self.tool.answerHelpOrVersion(scanned, stdout: &stdout, stderr: &stderr)
    }
    #expect(status == nil)
    #expect(stdout.isEmpty)
  }

  /// Runs `body` with writers to two temporary files; returns its result and what they hold.
  static func capture<R>(_ body: (inout OutputWriter, inout OutputWriter) -> R) throws -> (
    R, String, String
  ) {
    let dir = try folder()
    defer { try? FileManager.default.removeItem(at: dir) }
    let outPath = dir.appendingPathComponent("out").path
    let errPath = dir.appendingPathComponent("err").path
    let outFD = open(outPath, O_WRONLY | O_CREAT, 0o600)
    let errFD = open(errPath, O_WRONLY | O_CREAT, 0o600)
    var stdout = OutputWriter(fd: outFD, name: "<stdout>")
    var stderr = OutputWriter(fd: errFD, name: "<stderr>")
    let result = body(&stdout, &stderr)
    try? stdout.flush()
    try? stderr.flush()
    close(outFD)
    close(errFD)
    return (
      result, try String(contentsOfFile: outPath, encoding: .utf8),
      try String(contentsOfFile: errPath, encoding: .utf8)
    )
  }
}

@Suite struct ProgressLineTests {
  @Test func showsTheMeterAndClearsItBeforeADiagnostic() throws {
    var expectedMeter = ProgressMeter(start: 0)
    let shown = expectedMeter.update(records: 10, bytes: 2_000, now: 2)
    let text = try #require(shown)
    let diagnostic = Diagnostic(.warning, "Recovered", "x", file: "s")
    let (_, _, stderr) = try CommandLineToolTests.capture { _, stderr in
      var line = ProgressLine(program: "notif-x")
      line.update(records: 1, bytes: 1, now: { 5 }, &stderr)
      #expect(!line.isStarted)
      line.start(now: 0)
      line.update(records: 10, bytes: 2_000, now: { 2 }, &stderr)
      line.report(diagnostic, now: { 3 }, &stderr)
      line.clear(now: { 4 }, &stderr)
    }
    #expect(
      stderr
        == "\rnotif-x: \(text)\u{1B}[K" + "\r\u{1B}[K"
        + DiagnosticFormat.text.render(diagnostic, program: "notif-x"))
  }
}
