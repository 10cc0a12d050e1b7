import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifCLI

@Suite struct ReportOptionsTests {
  static func options(_ arguments: [String], terminal: Bool = false, noColor: Bool = false)
    throws(UsageError) -> ReportOptions
  {
    var environment = ToolEnvironment()
    environment.stderrIsTerminal = terminal
    environment.noColor = noColor
    return try ReportOptions(
      try OptionScanner.scan(arguments, OptionTable.specs(for: "notif-group")),
      environment: environment)
  }

  @Test func defaultsFollowStandardError() throws {
    let pipe = try Self.options([])
    #expect(!pipe.progress && !pipe.color && !pipe.quiet && pipe.maxErrors == nil)
    let terminal = try Self.options([], terminal: true)
    #expect(terminal.progress && terminal.color)
    #expect(try !Self.options([], terminal: true, noColor: true).color)
    #expect(try Self.options(["--color", "always"], noColor: true).color)
    #expect(try !Self.options(["--color", "never"], terminal: true).color)
    #expect(try !Self.options(["--quiet"], terminal: true).progress)
    #expect(try Self.options(["--quiet", "--progress"]).progress)
    #expect(try !Self.options(["--progress", "--no-progress"], terminal: true).progress)
    #expect(try Self.options(["--max-errors", "0"]).maxErrors == 0)
  }

  @Test(arguments: [
    (["--max-errors", "-1"], "--max-errors: '-1' is not a number from 0 up"),
    (["--max-errors", "ten"], "--max-errors: 'ten' is not a number from 0 up"),
    (
      ["--max-errors", "99999999999999999999"],
      "--max-errors: '99999999999999999999' is not a number from 0 up"
    ),
    (["--color", "yes"], "--color: 'yes' is not auto, always or never"),
    (["--format", "xml"], "--format: 'xml' is not text, github, json or sarif"),
  ])
  func mistakesAreUsageErrors(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { _ = try Self.options(arguments) }
  }
}

@Suite struct ReporterTests {
  static let error = Diagnostic(.error, "BadThing", "bad", file: "a.ndjson", line: 3)
  static let warning = Diagnostic(.warning, "OddThing", "odd", file: "b.ndjson", line: 4)
  static let note = Diagnostic(.note, "NotListed", "left out 2", file: "a.ndjson")

  static func run(_ options: ReportOptions, _ diagnostics: [Diagnostic]) throws -> String {
    let (_, _, stderr) = try capturingOutput { _, stderr in
      var reporter = Reporter(program: "notif-x", options: options)
      for diagnostic in diagnostics { reporter.report(diagnostic, &stderr) }
      reporter.finish(&stderr)
    }
    return stderr
  }

  @Test func quietLeavesOutTheNotesOnly() throws {
    var options = ReportOptions()
    options.quiet = true
    #expect(
      try Self.run(options, [Self.note, Self.warning, Self.error])
        == "notif-x: b.ndjson:4: warning: odd [OddThing]\n"
        + "notif-x: a.ndjson:3: error: bad [BadThing]\n")
  }

  @Test func maxErrorsCountsWhatItLeavesOutInOneLine() throws {
    var options = ReportOptions()
    options.maxErrors = 1
    options.quiet = true
    let out = try Self.run(
      options, [Self.error, Self.warning, Self.error, Self.warning, Self.error, Self.note])
    #expect(
      out
        == "notif-x: a.ndjson:3: error: bad [BadThing]\n"
        + "notif-x: b.ndjson:4: warning: odd [OddThing]\n"
        + "notif-x: a.ndjson: note: 2 more errors and 1 more warning were not shown "
        + "(--max-errors 1) [NotShown]\n")
  }

  @Test func maxErrorsZeroWritesOnlyTheCount() throws {
    var options = ReportOptions()
    options.maxErrors = 0
    #expect(
      try Self.run(options, [Self.warning])
        == "notif-x: b.ndjson: note: 1 more warning was not shown (--max-errors 0) [NotShown]\n")
    #expect(
      try Self.run(options, [Self.note]) == "notif-x: a.ndjson: note: left out 2 [NotListed]\n")
  }

  @Test func aCapNotReachedSaysNothing() throws {
    var options = ReportOptions()
    options.maxErrors = 5
    #expect(try Self.run(options, [Self.error]) == "notif-x: a.ndjson:3: error: bad [BadThing]\n")
  }

  @Test func colorPaintsTheSeverityOfTextOnly() throws {
    var options = ReportOptions()
    options.color = true
    #expect(
      try Self.run(options, [Self.error])
        == "notif-x: a.ndjson:3: \u{1B}[1;31merror\u{1B}[0m: bad [BadThing]\n")
    options.format = .json
    #expect(try !Self.run(options, [Self.error]).contains("\u{1B}"))
  }

  @Test func theProgressLineIsClearedBeforeADiagnostic() throws {
    var options = ReportOptions()
    options.progress = true
    var environment = ToolEnvironment()
    var now = 0.0
    environment.monotonicClock = { now }
    var expected = ProgressMeter(start: 0, total: 4_000)
    let shown = expected.update(records: 10, bytes: 2_000, now: 2)
    let text = try #require(shown)
    let (_, _, stderr) = try capturingOutput { _, stderr in
      var reporter = Reporter(program: "notif-x", options: options, environment: environment)
      reporter.startProgress(totalBytes: 4_000)
      now = 1
      reporter.showProgress(records: 5, bytes: 1_000, &stderr)  // too soon: nothing
      now = 2
      reporter.showProgress(records: 10, bytes: 2_000, &stderr)
      reporter.report(Self.error, &stderr)
      reporter.finish(&stderr)  // nothing shown since: nothing to clear
    }
    #expect(
      stderr
        == "\rnotif-x: \(text)\u{1B}[K" + "\r\u{1B}[K"
        + "notif-x: a.ndjson:3: error: bad [BadThing]\n")
  }

  @Test func noProgressWithoutTheOption() throws {
    let (_, _, stderr) = try capturingOutput { _, stderr in
      var reporter = Reporter(program: "notif-x")
      reporter.startProgress(totalBytes: nil)
      reporter.showProgress(records: 1, bytes: 1, &stderr)
      reporter.finish(&stderr)
    }
    #expect(stderr.isEmpty)
  }
}

@Suite struct ProgressMeterTests {
  @Test func waitsTwoSecondsThenSpeaksAtMostOnceASecond() {
    var meter = ProgressMeter(start: 100)
    #expect(meter.update(records: 10, bytes: 10, now: 101.5) == nil)
    #expect(!meter.shown)
    #expect(
      meter.update(records: 2_500_000, bytes: 1_234_567_890, now: 102)
        == "2,500,000 records, 1.2 GB, 1,250,000 records/s")
    #expect(meter.shown)
    #expect(meter.update(records: 2_600_000, bytes: 1, now: 102.9) == nil)
  }

  @Test func aKnownSizeGivesTheFractionAndTheTimeLeft() {
    var meter = ProgressMeter(start: 0, total: 4_000_000_000)
    #expect(
      meter.update(records: 1_000_000, bytes: 1_000_000_000, now: 10)
        == "1,000,000 records, 1.0 GB of 4.0 GB (25%), 100,000 records/s, 30 s left")
    #expect(
      meter.update(records: 1_100_000, bytes: 1_100_000_000, now: 100)
        == "1,100,000 records, 1.1 GB of 4.0 GB (27%), 11,000 records/s, 4:24 left")
  }

  @Test(arguments: [
    (0.2, "1 s"), (59.0, "59 s"), (61.0, "1:01"), (3_725.0, "1:02:05"),
    (90_000.0, "more than a day"), (Double.infinity, "more than a day"),
  ])
  func durations(_ seconds: Double, _ text: String) {
    #expect(ProgressMeter.duration(seconds) == text)
  }

  @Test(arguments: [(Int64(999), "999 B"), (1_000, "1.0 kB"), (15_250_000, "15.3 MB")])
  func sizesInPowersOfAThousand(_ bytes: Int64, _ text: String) {
    #expect(ProgressMeter.size(bytes) == text)
  }
}
