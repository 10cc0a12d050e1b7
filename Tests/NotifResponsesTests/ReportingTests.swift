import Foundation
import NotifCLI
import NotifModel
import TestSupport
import Testing

@testable import notif_responses

/// notif-responses talks on standard error through one `Reporter` (the prune through its
/// sweep's): `--quiet`, `--max-errors`, and `--verbose` only with `--prune`; a compressed
/// operand or side file is one `Compressed` error, as in every tool.
@Suite struct ResponsesReportingTests {
  @Test func theAccountOfAPruneIsWrittenOnATerminalOrWithVerbose() throws {
    let prune = ["--prune", "tokens.ndjson"]
    #expect(try ResponsesCommand.configure(prune, stderrIsTerminal: true).prune?.verbose == true)
    #expect(
      try ResponsesCommand.configure(prune + ["--quiet"], stderrIsTerminal: true).prune?.verbose
        == false)
    #expect(try ResponsesCommand.configure(prune).prune?.verbose == false)
    #expect(
      try ResponsesCommand.configure(prune + ["--verbose", "--quiet"]).prune?.verbose == true)
  }

  @Test func thePruneTalksAsTheRunDoes() throws {
    let configuration = try ResponsesCommand.configure([
      "--prune", "tokens.ndjson", "--quiet", "--max-errors", "2", "--format", "json",
    ])
    #expect(configuration.prune?.reporting == configuration.reporting)
    #expect(configuration.reporting.quiet && configuration.reporting.maxErrors == 2)
    #expect(configuration.reporting.format == .json)
  }

  @Test func verboseWithoutPruneIsAUsageError() {
    #expect(
      throws: UsageError("--verbose needs --prune: it says what the prune did to the token file")
    ) { try ResponsesCommand.configure(["--verbose"]) }
  }

  @Test func maxErrorsLeavesTheStatusAsItIs() throws {
    let input =
      "not an answer\n{\"status\":302,\"token\":\"t\",\"apns-id\":\"a\"}\n[1]\n"
      + "{\"service\":\"pigeon\",\"status\":200}\n{\"status\":200,\"apns-id\":\"b\"}\n"
    let all = try ResponseReadingTests.run(input)
    let capped = try ResponseReadingTests.run(input, ["--max-errors", "0"])
    #expect(all.stderr.split(separator: "\n").count == 4)
    #expect(all.status == .rejected && capped.status == .rejected)
    #expect(capped.stdout == all.stdout)
    #expect(
      capped.stderr
        == "notif-responses: input: note: 3 more errors and 1 more warning were not shown "
        + "(--max-errors 0) [NotShown]\n")
  }

  /// Gzip's magic and a few bytes: what a rotated log starts with.
  static let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x0A]

  /// (A file: a pipe's writer would get SIGPIPE once the tool stops reading at the magic.)
  @Test func aCompressedOperandIsOneError() throws {
    let outcome = try ResponseReadingTests.run(Self.gzip + Array("\n{\"x\":1}\n".utf8))
    #expect(outcome.status == .failure)
    #expect(outcome.stdout.isEmpty)
    #expect(
      outcome.stderr
        == "notif-responses: input: error: the input is gzip-compressed: decompress it first "
        + "(gzip -dc) [Compressed]\n")
  }

  @Test(arguments: ["--tokens", "--requests"])
  func aCompressedSideFileStopsTheRun(_ option: String) throws {
    let folder = try makeScratchFolder("notif-responses-compressed")
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("side.gz")
    try Data(Self.gzip).write(to: file)
    let outcome = try ResponseReadingTests.run("{\"status\":200}\n", [option, file.path])
    #expect(outcome.status == .failure)
    #expect(outcome.stdout.isEmpty)
    #expect(
      outcome.stderr
        == "notif-responses: \(file.path): error: \(option): the input is gzip-compressed: "
        + "decompress it first (gzip -dc) [Compressed]\n")
  }
}
