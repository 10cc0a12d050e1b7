import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_group

/// Another stage's texts among the records (payloads, group objects without `--merge`) are
/// one error per input, at the first of them, with what to run first; a compressed input is
/// one error, and nothing more of it is read. The same whatever the chunks of `--jobs`, from a
/// file or a pipe.
@Suite struct WrongInputTests {
  typealias Outcome = CapturedRun<NotifModel.ExitStatus>

  /// Runs notif-group on `bytes` (one file, or a pipe) with `arguments` and the chunk size
  /// given, its name in the diagnostics made `input`.
  static func run(
    _ bytes: [UInt8], _ arguments: [String], chunkSize: Int = GroupRun.defaultChunkSize,
    throughPipe: Bool = false
  ) throws -> Outcome {
    try capturingRun(on: bytes, throughPipe: throughPipe) { path in
      let configuration = try GroupCommand.configure(arguments + [path])
      return { stdout, stderr in
        var run = GroupRun(
          options: configuration.options,
          reporter: Reporter(program: GroupCommand.name, options: configuration.reporting),
          chunkSize: chunkSize)
        run.group(configuration.files, stderr: &stderr)
        return run.write(stdout: &stdout, stderr: &stderr)
      }
    }
  }

  static let records = MergeTests.records(count: 300, seed: 11)

  /// Every fifth record, from the third, is a push payload instead.
  static let withPayloads = records.enumerated().map { index, line in
    index % 5 == 2 ? #"{"aps":{"alert":{"title":"Hi \#(index)"}},"n":\#(index)}"# : line
  }

  @Test func payloadsAmongRecordsAreOneErrorWhateverTheChunks() throws {
    let input = Array(Self.withPayloads.map { $0 + "\n" }.joined().utf8)
    let kept = Self.withPayloads.enumerated().filter { $0.offset % 5 != 2 }.map(\.element)
    let alone = try Self.run(Array(kept.map { $0 + "\n" }.joined().utf8), ["--jobs", "1"])
    let one = try Self.run(input, ["--jobs", "1"])
    #expect(one.status == .rejected)
    #expect(one.stdout == alone.stdout)
    #expect(
      one.stderr
        == "notif-group: input:3: error: a push payload, not a notification record, and 59 more "
        + "texts like it: run notif-parse first (notif-parse 'input' | notif-group) [WrongStage]\n")
    for size in [300, 4096] {
      for pipe in [false, true] {
        let many = try Self.run(input, ["--jobs", "3"], chunkSize: size, throughPipe: pipe)
        #expect(many == one, "chunks of \(size) bytes, \(pipe ? "pipe" : "file")")
      }
    }
  }

  @Test func groupObjectsWithoutMergeSayMerge() throws {
    let object = try #require(
      group([], inputs: [Self.records.prefix(20).map { $0 + "\n" }.joined()]).lines.first)
    let input = Array((Self.records.prefix(3) + [object, object]).map { $0 + "\n" }.joined().utf8)
    let run = try Self.run(input, [])
    #expect(run.status == .rejected)
    #expect(
      run.stderr
        == "notif-group: input:4: error: a group object, not a notification record, and 1 more "
        + "text like it: --merge merges group objects (notif-group --merge 'input') [WrongStage]\n")
    let merged = try Self.run(input, ["--merge"])
    #expect(
      merged.stderr.hasPrefix(
        "notif-group: input:1: error: a notification record, not a group object, and 2 more "
          + "texts like it: notif-group groups records without --merge (notif-group 'input') "
          + "[WrongStage]\n"))
  }

  /// Bytes a compressed stream could hold after its magic number, with line feeds now and
  /// then, so that chunks are cut after them.
  static func noise(after magic: [UInt8], count: Int) -> [UInt8] {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var bytes = magic
    while bytes.count < count {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let byte = UInt8(truncatingIfNeeded: state >> 56)
      bytes.append(bytes.count % 37 == 0 ? 0x0A : byte)
    }
    return bytes
  }

  @Test(arguments: Compression.allCases)
  func aCompressedInputIsOneErrorWhateverTheChunks(_ format: Compression) throws {
    let input = Self.noise(after: format.magic, count: 20_000)
    let expected = Outcome(
      status: .failure, stdout: "",
      stderr: "notif-group: input: error: the input is \(format.rawValue)-compressed: "
        + "decompress it first (\(format.rawValue) -dc) [Compressed]\n")
    #expect(try Self.run(input, ["--jobs", "1"]) == expected)
    for size in [300, 4096] {
      for pipe in [false, true] {
        let many = try Self.run(input, ["--jobs", "3"], chunkSize: size, throughPipe: pipe)
        #expect(many == expected, "chunks of \(size) bytes, \(pipe ? "pipe" : "file")")
      }
    }
  }
}
