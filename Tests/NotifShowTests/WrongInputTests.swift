import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// Push payloads among the records are one error per input, at the first of them, with what
/// to run first; a compressed input is one error, and nothing more of it is read. The same
/// whatever the chunks of `--jobs`, from a file or a pipe.
@Suite struct WrongInputTests {
  typealias Outcome = CapturedRun<NotifModel.ExitStatus>

  /// Runs notif-show on `bytes` (one file, or a pipe that holds them all) with `arguments` and
  /// the chunk size given, its name in the diagnostics made `input`.
  static func run(
    _ bytes: [UInt8], _ arguments: [String], chunkSize: Int = ShowRun.defaultChunkSize,
    throughPipe: Bool = false
  ) throws -> Outcome {
    try capturingRun(on: bytes, throughPipe: throughPipe) { path in
      let options = try ShowCommand.configure(
        ["--now", "2026-11-22T09:00:00Z"] + arguments + [path])
      return { stdout, stderr in
        var run = ShowRun(options: options, chunkSize: chunkSize)
        return run.execute(stdout: &stdout, stderr: &stderr)
      }
    }
  }

  @Test func payloadsAmongRecordsAreOneErrorWhateverTheChunks() throws {
    let lines = ChunkedShowTests.records.prefix(150).enumerated().map { index, line in
      index % 4 == 1 ? #"{"message":{"token":"t","notification":{"title":"Hi \#(index)"}}}"# : line
    }
    let kept = lines.enumerated().filter { $0.offset % 4 != 1 }.map(\.element)
    let input = Array(lines.map { $0 + "\n" }.joined().utf8)
    let alone = try Self.run(Array(kept.map { $0 + "\n" }.joined().utf8), ["--jobs", "1"])
    let one = try Self.run(input, ["--jobs", "1"])
    #expect(one.status == .rejected)
    #expect(one.stdout == alone.stdout)
    #expect(
      one.stderr.hasPrefix(
        "notif-show: input:2: error: a push payload, not a record, group object or digest "
          + "object, and 37 more texts like it: run notif-parse first (notif-parse 'input' | "
          + "notif-show) [WrongStage]\n"), "\(one.stderr)")
    #expect(
      one.stderr.split(separator: "\n").count == alone.stderr.split(separator: "\n").count + 1)
    for size in [300, 4096] {
      for pipe in [false, true] {
        let many = try Self.run(input, ["--jobs", "3"], chunkSize: size, throughPipe: pipe)
        #expect(many == one, "chunks of \(size) bytes, \(pipe ? "pipe" : "file")")
      }
    }
  }

  @Test(arguments: [Compression.gzip, .xz])
  func aCompressedInputIsOneErrorWhateverTheChunks(_ format: Compression) throws {
    var input = format.magic
    for index in 0..<12_000 {
      input.append(index % 41 == 0 ? 0x0A : UInt8(truncatingIfNeeded: index &* 131))
    }
    let one = try Self.run(input, ["--jobs", "1"])
    #expect(one.status == .failure)
    #expect(
      one.stderr
        == "notif-show: input: error: the input is \(format.rawValue)-compressed: decompress it "
        + "first (\(format.rawValue) -dc) [Compressed]\n")
    for size in [300, 4096] {
      for pipe in [false, true] {
        let many = try Self.run(input, ["--jobs", "3"], chunkSize: size, throughPipe: pipe)
        #expect(many == one, "chunks of \(size) bytes, \(pipe ? "pipe" : "file")")
      }
    }
  }
}
