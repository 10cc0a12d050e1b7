import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_parse

/// A monotonic clock for a test: each reading is `step` seconds after the last.
private final class SteppingClock: @unchecked Sendable {
  private var now: Double
  private let step: Double

  init(start: Double = 100, step: Double) {
    now = start
    self.step = step
  }

  func read() -> Double {
    defer { now += step }
    return now
  }
}

/// What one run wrote and returned, with the input named `input` in it; and how many chunks
/// it wrote.
private struct Ran {
  var outcome: CapturedRun<NotifModel.ExitStatus>
  var chunksWritten: Int
}

/// Runs notif-parse on `bytes` (a file, or a pipe that a thread fills in pieces) with
/// `arguments`, chunks of `chunkSize` bytes, and an environment whose monotonic clock is
/// `clock` and whose standard error is a terminal or not.
private func run(
  _ bytes: [UInt8], _ arguments: [String], chunkSize: Int = ParseRun.defaultChunkSize,
  throughPipe: Bool = false, clock: SteppingClock? = nil, stderrIsTerminal: Bool = false
) throws -> Ran {
  func run(_ path: String) throws -> Ran {
    var environment = ToolEnvironment()
    environment.stderrIsTerminal = stderrIsTerminal
    if let clock { environment.monotonicClock = clock.read }
    let scanned = try OptionScanner.scan(
      ["--now", "2026-11-22T09:00:00Z"] + arguments + [path], ParseCommand.options)
    let configuration = try ParseCommand.configure(scanned, environment: environment)
    var written = 0
    let (status, out, err) = try capturingOutput { stdout, stderr in
      var run = ParseRun(
        configuration: configuration, chunkSize: chunkSize, environment: environment)
      defer { written = run.chunkCounts.written }
      return run.execute(stdout: &stdout, stderr: &stderr)
    }
    return Ran(
      outcome: CapturedRun(
        status: status, stdout: out.replacing(path, with: "input"),
        stderr: err.replacing(path, with: "input")),
      chunksWritten: written)
  }
  guard throughPipe else { return try withInput(bytes, throughPipe: false, run) }
  return try withPipe(feeding: bytes, run)
}

/// Payloads with errors and warnings all along: a malformed line every seventh (an error), a
/// negative badge every fifth from the second (a warning), and good payloads between.
private let troubled: [UInt8] = Array(
  (0..<600).map { index in
    if index % 7 == 3 { return "nope \(index)\n" }
    if index % 5 == 1 { return #"{"aps":{"alert":"w\#(index)","badge":-\#(index)}}"# + "\n" }
    return #"{"aps":{"alert":"message \#(index)"}}"# + "\n"
  }.joined().utf8)

/// The lines of `text` (without their line feeds).
private func lines(_ text: String) -> [String] {
  text.split(separator: "\n").map(String.init)
}

/// The first `limit` error lines and the first `limit` warning lines of `diagnostics`, in
/// their order, and the line of how many more were left out.
private func capped(_ diagnostics: [String], limit: Int) -> [String] {
  var (errors, warnings) = (0, 0)
  var kept: [String] = []
  var firstHidden: String?
  for line in diagnostics {
    let isError = line.contains(": error: ")
    let shown = isError ? errors < limit : warnings < limit
    if isError {
      errors += 1
    } else {
      warnings += 1
    }
    if shown {
      kept.append(line)
    } else if firstHidden == nil {
      firstHidden = line
    }
  }
  guard firstHidden != nil else { return kept }
  let (moreErrors, moreWarnings) = (max(errors - limit, 0), max(warnings - limit, 0))
  let parts = [
    moreErrors > 0 ? "\(moreErrors) more error\(moreErrors == 1 ? "" : "s")" : nil,
    moreWarnings > 0 ? "\(moreWarnings) more warning\(moreWarnings == 1 ? "" : "s")" : nil,
  ].compactMap { $0 }
  let verb = moreErrors + moreWarnings == 1 ? "was" : "were"
  return kept + [
    "notif-parse: input: note: \(parts.joined(separator: " and ")) \(verb) not shown "
      + "(--max-errors \(limit)) [NotShown]"
  ]
}

@Suite struct ReportingTests {
  // MARK: - --max-errors

  @Test func maxErrorsWritesTheFirstErrorsAndWarningsThenHowManyMore() throws {
    let all = try run(troubled, ["--jobs", "1"]).outcome
    let three = try run(troubled, ["--jobs", "1", "--max-errors", "3"]).outcome
    #expect(three.status == all.status)
    #expect(three.stdout == all.stdout)
    #expect(lines(three.stderr) == capped(lines(all.stderr), limit: 3))
    #expect(lines(three.stderr).count == 7)
    let none = try run(troubled, ["--jobs", "1", "--max-errors", "0"]).outcome
    #expect(none.status == .rejected)
    #expect(
      none.stderr
        == "notif-parse: input: note: 86 more errors and 103 more warnings were not shown "
        + "(--max-errors 0) [NotShown]\n")
  }

  @Test func maxErrorsWithCheckWritesTheNoteBeforeTheCountLine() throws {
    let all = try run(troubled, ["--check", "--jobs", "1"]).outcome
    let capped2 = try run(troubled, ["--check", "--jobs", "1", "--max-errors", "2"]).outcome
    #expect(capped2.status == all.status)
    #expect(capped2.stderr == "")
    let count = try #require(lines(all.stdout).last)
    #expect(count.hasPrefix("notif-parse: 600 records in 1 file: "))
    #expect(lines(capped2.stdout) == capped(lines(all.stdout).dropLast(), limit: 2) + [count])
  }

  /// `--max-errors` keeps the first diagnostics of the input whatever the threads and the
  /// chunks: the workers keep theirs as values, which one thread reports in input order.
  @Test(arguments: [
    ["--max-errors", "3"], ["--max-errors", "1", "--check"], ["--max-errors", "0"],
  ])
  func maxErrorsIsTheSameWithAnyJobs(_ arguments: [String]) throws {
    let one = try run(troubled, arguments + ["--jobs", "1"])
    for size in [64, 257, 4096] {
      let many = try run(troubled, arguments + ["--jobs", "2"], chunkSize: size)
      #expect(many.outcome == one.outcome, "\(arguments), chunks of \(size) bytes")
      #expect(many.chunksWritten > 0, "chunks of \(size) bytes")
      let piped = try run(
        troubled, arguments + ["--jobs", "3"], chunkSize: size, throughPipe: true)
      #expect(piped.outcome == one.outcome, "\(arguments) from a pipe, chunks of \(size) bytes")
    }
  }

  @Test func quietChangesNothingNotifParseWrites() throws {
    for arguments in [[], ["--check"], ["--max-errors", "2"], ["--format", "json"]] {
      let loud = try run(troubled, arguments).outcome
      let quiet = try run(troubled, arguments + ["--quiet"]).outcome
      #expect(quiet == loud, "\(arguments)")
    }
  }

  // MARK: - --progress

  @Test(arguments: [("1", ParseRun.defaultChunkSize), ("2", 4096)])
  func progressIsShownWhenAskedAndClearedAtTheEnd(_ jobs: String, _ chunkSize: Int) throws {
    // Enough records for one reader to look at the progress line twice, and diagnostics
    // among them, which clear it.
    let input = Array(
      (0..<9000).map { index in
        index % 1000 == 999 ? "nope\n" : #"{"aps":{"alert":"m\#(index)"}}"# + "\n"
      }.joined().utf8)
    let plain = try run(input, ["--jobs", jobs], chunkSize: chunkSize).outcome
    let shown = try run(
      input, ["--jobs", jobs, "--progress"], chunkSize: chunkSize,
      clock: SteppingClock(step: 1.5)
    ).outcome
    #expect(shown.stdout == plain.stdout)
    #expect(shown.status == plain.status)
    #expect(shown.stderr.contains("\rnotif-parse: "))
    #expect(shown.stderr.contains(" records, "))
    // The last progress line is cleared: by a diagnostic, or at the end.
    let lastShown = try #require(shown.stderr.ranges(of: "\rnotif-parse: ").last)
    #expect(shown.stderr[lastShown.upperBound...].contains("\r\u{1B}[K"))
    // Without the progress lines and their clearing, the diagnostics are as without them.
    let cleared = shown.stderr.replacing(#/\r[^\r\n]*\x{1B}\[K/#, with: "")
    #expect(cleared == plain.stderr)
    #expect(plain.stderr.split(separator: "\n").count == 9)
  }

  @Test func noProgressInAPipeOrWhenQuietOrTurnedOff() throws {
    let input = Array(
      (0..<9000).map { #"{"aps":{"alert":"m\#($0)"}}"# + "\n" }.joined().utf8)
    for (arguments, terminal) in [
      ([], false), (["--quiet"], true), (["--no-progress"], true),
      (["--progress", "--no-progress"], false),
    ] {
      let ran = try run(
        input, ["--jobs", "1"] + arguments, clock: SteppingClock(step: 1.5),
        stderrIsTerminal: terminal
      ).outcome
      #expect(ran.stderr == "", "\(arguments)")
    }
    let onATerminal = try run(
      input, ["--jobs", "1"], clock: SteppingClock(step: 1.5), stderrIsTerminal: true
    ).outcome
    #expect(onATerminal.stderr.contains(" records, "))
  }

  // MARK: - --store

  @Test(arguments: [
    ([String](), false, false), ([], true, true), (["--quiet"], true, false),
    (["--verbose"], false, true), (["--quiet", "--verbose"], true, true),
  ])
  func verboseIsOnByDefaultOnATerminalWithoutQuiet(
    _ arguments: [String], _ terminal: Bool, _ verbose: Bool
  ) throws {
    var environment = ToolEnvironment()
    environment.stderrIsTerminal = terminal
    let scanned = try OptionScanner.scan(
      ["--store", "inbox.ndjson"] + arguments, ParseCommand.options)
    let configuration = try ParseCommand.configure(scanned, environment: environment)
    #expect(configuration.verbose == verbose)
    #expect(!configuration.dryRun)
    // Without --store there is nothing to say.
    let filter = try ParseCommand.configure(
      OptionScanner.scan(arguments.filter { $0 != "--verbose" }, ParseCommand.options),
      environment: environment)
    #expect(!filter.verbose)
  }

  @Test func checkColorsItsOutputWhenStandardOutputIsATerminal() throws {
    var environment = ToolEnvironment()
    environment.stderrIsTerminal = true
    let scanned = try OptionScanner.scan(["--check"], ParseCommand.options)
    #expect(!(try ParseCommand.configure(scanned, environment: environment).reporting.color))
    environment.stdoutIsTerminal = true
    #expect(try ParseCommand.configure(scanned, environment: environment).reporting.color)
    environment.noColor = true
    #expect(!(try ParseCommand.configure(scanned, environment: environment).reporting.color))
  }

  @Test func dryRunWritesWhatItWouldAppendAndLeavesTheStore() throws {
    let folder = try makeScratchFolder("notif-parse-dry-run")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("inbox.ndjson").path
    let old = #"{"id":"old"}"# + "\n"
    try Data(old.utf8).write(to: URL(fileURLWithPath: store))
    let plain = try run(troubled, ["--jobs", "1"]).outcome
    for jobs in ["1", "2"] {
      let dry = try run(troubled, ["--store", store, "-n", "--jobs", jobs], chunkSize: 4096)
        .outcome
      #expect(dry == plain, "--jobs \(jobs)")
      #expect(fileText(store) == old)
      #expect(!FileManager.default.fileExists(atPath: store + ".lock"))
    }
  }

  @Test func verboseSaysWhatWasAppendedAndTheTime() throws {
    let folder = try makeScratchFolder("notif-parse-verbose")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("inbox.ndjson").path
    let input = Array(
      (#"{"aps":{"alert":"a"}}"# + "\nnope\n" + #"{"aps":{"alert":"b"}}"# + "\n").utf8)
    let dry = try run(
      input, ["--store", store, "--dry-run", "--verbose"], clock: SteppingClock(step: 0.25)
    ).outcome
    #expect(dry.stdout.split(separator: "\n").count == 2)
    #expect(
      dry.stderr.hasSuffix(
        "notif-parse: \(store): would append 2 records (1 rejected), in 0.25 s\n"))
    let appended = try run(
      input, ["--store", store, "--quiet", "--verbose"], clock: SteppingClock(step: 0.01)
    ).outcome
    #expect(appended.stdout == "")
    #expect(fileText(store).split(separator: "\n").count == 2)
    let said = lines(appended.stderr)
    #expect(said.count == 2)
    #expect(said.first?.hasPrefix("notif-parse: input:2:1: error: ") == true)
    // The store's appender reads the clock too: the time is some hundredths.
    #expect(
      said.last?.wholeMatch(
        of: #/notif-parse: .*inbox\.ndjson: appended 2 records \(1 rejected\), in \d+\.\d\d s/#)
        != nil, "\(said)")
  }

  @Test func verboseLeavesOutTheRejectedWhenNoneWas() throws {
    let folder = try makeScratchFolder("notif-parse-verbose")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("inbox.ndjson").path
    let one = try run(
      Array((#"{"aps":{"alert":"a"}}"# + "\n").utf8), ["--store", store, "-n", "--no-progress"],
      clock: SteppingClock(step: 1.5), stderrIsTerminal: true
    ).outcome
    #expect(one.stderr == "notif-parse: \(store): would append 1 record, in 1.50 s\n")
  }
}
