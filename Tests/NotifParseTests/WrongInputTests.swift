import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_parse

/// Push services' answers are valid APNs payloads: read as ever, with one warning per input
/// that names notif-responses; a compressed input is one error, and nothing more of it is
/// read. The same whatever the chunks of `--jobs`, from a file or a pipe.
@Suite struct WrongInputTests {
  typealias Outcome = CapturedRun<NotifModel.ExitStatus>

  /// Runs notif-parse on `bytes` (one file, or a pipe that holds them all) with `arguments`
  /// and the chunk size given, its name in the diagnostics made `input`.
  static func run(
    _ bytes: [UInt8], _ arguments: [String], chunkSize: Int = ParseRun.defaultChunkSize,
    throughPipe: Bool = false
  ) throws -> Outcome {
    try capturingRun(on: bytes, throughPipe: throughPipe) { path in
      let configuration = try ParseCommand.configure(
        ["--now", "2026-11-22T09:00:00Z"] + arguments + [path])
      return { stdout, stderr in
        var run = ParseRun(configuration: configuration, chunkSize: chunkSize)
        return run.execute(stdout: &stdout, stderr: &stderr)
      }
    }
  }

  /// Payloads, and answers among them: an APNs answer and an Expo ticket, which have no
  /// `aps` (a warning each, as ever), and a payload that has a `status` of its own.
  static let lines = (0..<200).map { index in
    switch index % 10 {
    case 3: return #"{"status":200,"apns-id":"0a1b-\#(index)"}"#
    case 7: return #"{"status":"ok","id":"ticket-\#(index)"}"#
    default: return #"{"aps":{"alert":{"title":"Hi \#(index)"}},"status":200}"#
    }
  }

  @Test func answersAreReadAsEverWithOneWarningWhateverTheChunks() throws {
    let input = Array(Self.lines.map { $0 + "\n" }.joined().utf8)
    let one = try Self.run(input, ["--jobs", "1"])
    #expect(one.status == .success)
    #expect(one.stdout.split(separator: "\n").count == 200)
    let warnings = one.stderr.split(separator: "\n").map(String.init)
    #expect(warnings.filter { $0.hasSuffix("[NoAps]") }.count == 40)
    #expect(
      warnings.last
        == "notif-parse: input:4: warning: a push service's answer, not a push message, and 39 "
        + "more texts like it: notif-responses reads push services' answers (notif-responses "
        + "'input') [WrongStage]")
    #expect(warnings.count == 41)
    for size in [300, 4096] {
      for pipe in [false, true] {
        let many = try Self.run(input, ["--jobs", "3"], chunkSize: size, throughPipe: pipe)
        #expect(many == one, "chunks of \(size) bytes, \(pipe ? "pipe" : "file")")
      }
    }
    // With --check the warning is counted with the others, and rejects nothing, even under
    // --strict, where the answers' own warnings reject them.
    let check = try Self.run(input, ["--check", "--strict"])
    #expect(
      check.stdout.hasSuffix(
        "notif-parse: 200 records in 1 file: 160 accepted, 40 rejected (40 for warnings under "
          + "--strict); 0 errors, 41 warnings\n"), "\(check.stdout.suffix(300))")
  }

  @Test(arguments: [Compression.zstd, .bzip2])
  func aCompressedInputIsOneErrorWhateverTheChunks(_ format: Compression) throws {
    var input = format.magic
    for index in 0..<12_000 {
      input.append(index % 43 == 0 ? 0x0A : UInt8(truncatingIfNeeded: index &* 97))
    }
    let expected = Outcome(
      status: .failure, stdout: "",
      stderr: "notif-parse: input: error: the input is \(format.rawValue)-compressed: decompress "
        + "it first (\(format.rawValue) -dc) [Compressed]\n")
    #expect(try Self.run(input, ["--jobs", "1"]) == expected)
    for size in [300, 4096] {
      for pipe in [false, true] {
        let many = try Self.run(input, ["--jobs", "3"], chunkSize: size, throughPipe: pipe)
        #expect(many == expected, "chunks of \(size) bytes, \(pipe ? "pipe" : "file")")
      }
    }
    // With --check, as an input that cannot be read: on the standard error, and counted.
    let check = try Self.run(input, ["--check"])
    #expect(check.stderr == expected.stderr)
    #expect(
      check.stdout
        == "notif-parse: 0 records in 1 file: 0 accepted, 0 rejected; 1 error, 0 warnings\n")
  }
}
