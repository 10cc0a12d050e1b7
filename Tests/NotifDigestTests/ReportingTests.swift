import Foundation
import NotifCLI
import NotifModel
import TestSupport
import Testing

@testable import notif_digest

/// notif-digest talks on standard error through one `Reporter`, the sweep's: the texts'
/// warnings count with the run's diagnostics, `--verbose` goes with `--store` only, and a
/// compressed standard input is one `Compressed` error.
@Suite struct DigestReportingTests {
  @Test func onlyAStoreRunEndsWithItsAccount() throws {
    let store = ["--window", "1h", "--store", "inbox.ndjson"]
    #expect(
      try DigestCommand.configure(["--window", "1h"], stderrIsTerminal: true).sweep.verbose == false
    )
    #expect(try DigestCommand.configure(store, stderrIsTerminal: true).sweep.verbose)
    #expect(
      try DigestCommand.configure(store + ["--quiet"], stderrIsTerminal: true).sweep.verbose
        == false)
    #expect(try DigestCommand.configure(store + ["--verbose"]).sweep.verbose)
  }

  @Test(arguments: [["--window", "1h", "--verbose"], ["--merge", "--verbose"]])
  func verboseWithoutStoreIsAUsageError(_ arguments: [String]) {
    #expect(throws: UsageError("--verbose goes with --store: it says what a run did to the store"))
    {
      try DigestCommand.configure(arguments)
    }
  }

  @Test func mergeReadsTheReportOptions() throws {
    let reporting = try DigestCommand.configure(["--merge", "--quiet", "--max-errors", "3"]).sweep
      .reporting
    #expect(reporting.quiet && reporting.maxErrors == 3)
  }

  @Test func theTextsWarningsCountWithTheRunsDiagnostics() throws {
    let outcome = try digest(
      ["--window", "1h", "--now", digestNow, "--locale", "sw", "--max-errors", "1"],
      input: [record("a", "2026-11-22T08:00:00Z"), "{\"id\":\"b\"}", "[]"])
    #expect(outcome.status == .rejected)
    let lines = outcome.stderr.split(separator: "\n")
    #expect(lines.count == 3, "\(outcome.stderr)")
    #expect(lines.first?.hasSuffix("[MissingTranslation]") == true)
    #expect(lines.dropFirst().first?.hasSuffix("[BadRecord]") == true)
    #expect(
      lines.last?.hasSuffix(
        "1 more error and 1 more warning were not shown (--max-errors 1) [NotShown]") == true)
  }
}
