import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifCLI

/// What each stage of the pipeline reads and writes is told by its keys, conservatively: a
/// text that does not say stays unknown, and its tool reports it as before.
@Suite struct StageTextTests {
  static let kinds: [(String, StageText?)] = [
    // What notif-parse reads.
    (#"{"aps":{"alert":"Hi"}}"#, .pushPayload),
    (#"{"aps":{"alert":"Hi"},"id":"order-7","status":200}"#, .pushPayload),
    (#"{"message":{"token":"t","notification":{"title":"Hi"}}}"#, .pushPayload),
    (#"{"to":"t","notification":{"title":"Hi"}}"#, .pushPayload),
    (#"{"registration_ids":["t"],"data":{"a":"b"}}"#, .pushPayload),
    (#"{"web_push":8030,"notification":{"title":"Hi","navigate":"https://x"}}"#, .pushPayload),
    (#"{"default":"Hi","APNS":"{\"aps\":{}}"}"#, .pushPayload),
    (#"{"Type":"Notification","Message":"Hi"}"#, .pushPayload),
    (#"{"headers":{"apns-topic":"x"},"payload":{"aps":{"alert":"Hi"}}}"#, .pushPayload),
    // What notif-responses reads.
    (#"{"status":200,"apns-id":"0a1b"}"#, .pushResponse),
    (#"{"token":"t","status":410,"body":{"reason":"Unregistered"}}"#, .pushResponse),
    (#"{":status":400,"reason":"BadDeviceToken"}"#, .pushResponse),
    (#"{"endpoint":"https://push.example/x","status":410}"#, .pushResponse),
    (#"{"status":"ok","id":"XXXX-XXXX"}"#, .pushResponse),
    (
      #"{"status":"error","message":"no","details":{"error":"DeviceNotRegistered"}}"#, .pushResponse
    ),
    (#"{"data":[{"status":"ok","id":"a"}]}"#, .pushResponse),
    (#"{"data":{"a":{"status":"ok"}}}"#, .pushResponse),
    (
      #"{"notification":{"messageId":"m"},"delivery":{"token":"t"},"status":"SUCCESS"}"#,
      .pushResponse
    ),
    (#"{"error":{"code":404,"message":"gone","status":"NOT_FOUND"}}"#, .pushResponse),
    // What notif-parse, notif-group and notif-digest write.
    (#"{"id":"a","app":"x","created_at":"2026-11-22T09:00:00Z","payload":{"aps":{}}}"#, .record),
    (#"{"app":"x","count":2,"leading":{"id":"a"}}"#, .groupObject),
    (#"{"digest_id":"d","key":{"app":"x"},"count":2}"#, .digestObject),
    // Texts that do not say.
    (#"{"id":"a","payload":{"aps":{}}}"#, nil),
    (#"{"id":"a","title":"Hi"}"#, nil),
    (#"{"status":200}"#, nil),
    (#"{"status":"ok"}"#, nil),
    (#"{"title":"Hi","body":"there"}"#, nil),
    (#"{}"#, nil),
    (#"[{"aps":{}}]"#, nil),
    (#""aps""#, nil),
  ]

  @Test(arguments: kinds)
  func tellsWhatStageATextIsFrom(_ text: String, _ kind: StageText?) throws {
    #expect(try #require(withView(of: text) { StageText.kind(of: $0) }) == kind)
  }
}

@Suite struct WrongStageTallyTests {
  @Test func saysOnceForEachKindFromItsFirstLineWithHowManyMore() {
    var tally = WrongStageTally()
    #expect(tally.isEmpty)
    tally.add(.groupObject, line: 9)
    tally.add(.pushPayload, line: 3)
    tally.add(.pushPayload, line: 4)
    tally.add(.pushPayload, line: 12)
    let diagnostics = tally.diagnostics(
      file: "in.ndjson", severity: .error, wanted: "a notification record"
    ) { kind in
      kind == .pushPayload
        ? "run notif-parse first (\(WrongStageTally.pipeline("in.ndjson", "notif-parse", "notif-group")))"
        : nil
    }
    #expect(
      diagnostics == [
        Diagnostic(
          .error, "WrongStage",
          "a push payload, not a notification record, and 2 more texts like it: run notif-parse "
            + "first (notif-parse 'in.ndjson' | notif-group)", file: "in.ndjson", line: 3)
      ])
    #expect(tally.total == 4)
  }

  @Test func oneTextIsNamedAlone() {
    var tally = WrongStageTally()
    tally.add(.pushResponse, line: 2)
    tally.add(.digestObject, line: 1)
    let messages = tally.diagnostics(file: "<stdin>", severity: .warning, wanted: "a push message")
    {
      $0.readerAdvice(file: "<stdin>")
    }.map { "\($0.line ?? 0) \($0.message)" }
    #expect(
      messages == [
        "1 a digest object, not a push message: notif-show shows digest objects (notif-show)",
        "2 a push service's answer, not a push message: notif-responses reads push services' "
          + "answers (notif-responses)",
      ])
  }

  /// Chunks read by workers are counted apart and added up in whatever order they are taken:
  /// the first line is the smallest.
  @Test func talliesAddUpWhateverTheOrder() {
    var early = WrongStageTally()
    early.add(.record, line: 5)
    var late = WrongStageTally()
    late.add(.record, line: 40)
    late.add(.record, line: 41)
    var one = early
    one.add(late)
    var other = late
    other.add(early)
    #expect(one == other)
    #expect(one.counts[StageText.record.rawValue] == 3)
    #expect(one.firstLines[StageText.record.rawValue] == 5)
  }

  @Test func thePipelineQuotesTheFileAndLeavesStandardInputOut() {
    #expect(
      WrongStageTally.pipeline("a b.ndjson", "notif-parse", "notif-group")
        == "notif-parse 'a b.ndjson' | notif-group")
    #expect(
      WrongStageTally.pipeline("<stdin>", "notif-parse", "notif-group", "notif-summarize")
        == "notif-parse | notif-group | notif-summarize")
  }
}

@Suite struct CompressedFileTests {
  /// A regular file's first bytes are read where they are, from where its descriptor stands,
  /// and it is not moved: the reader that goes on reads them again.
  @Test func aRegularFileIsLookedAtWithoutMovingIt() throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("in.gz").path
    try Data([0x7B, 0x7D, 0x0A, 0x1F, 0x8B, 0x08]).write(to: URL(fileURLWithPath: path))
    let fd = open(path, O_RDONLY)
    defer { close(fd) }
    #expect(InputFile.compression(ofRegularFile: fd) == nil)
    lseek(fd, 3, SEEK_SET)
    #expect(InputFile.compression(ofRegularFile: fd) == .gzip)
    #expect(lseek(fd, 0, SEEK_CUR) == 3)
    #expect(
      Compression.gzip.diagnostic(file: path)
        == Diagnostic(
          .error, "Compressed", "the input is gzip-compressed: decompress it first (gzip -dc)",
          file: path))
  }

  @Test func aPipeIsNotLookedAt() throws {
    let ends = try #require(makePipe())
    defer { close(ends.read) }
    _ = [UInt8]([0x1F, 0x8B, 0x08]).withUnsafeBytes { write(ends.write, $0.baseAddress!, 3) }
    close(ends.write)
    #expect(InputFile.compression(ofRegularFile: ends.read) == nil)
    var left = [UInt8](repeating: 0, count: 8)
    #expect(left.withUnsafeMutableBytes { read(ends.read, $0.baseAddress!, 8) } == 3)
  }
}
