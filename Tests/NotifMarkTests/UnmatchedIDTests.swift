import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_mark

/// An id of `--id` or `--ids-from` that no record has (a typo, a record gone already) is one
/// warning at the end, naming the ids, the first few of many; the run succeeds as before.
@Suite struct UnmatchedIDTests {
  @Test(
    arguments: [
      ([], nil),
      (["x"], "no record has the id 'x'"),
      (["x", "y"], "no record has the ids 'x' and 'y'"),
      (["a", "b", "c", "d", "e"], "no record has the ids 'a', 'b', 'c', 'd' and 'e'"),
      (
        ["a", "b", "c", "d", "e", "f", "g"],
        "no record has 7 of the ids: 'a', 'b', 'c', 'd', 'e' and 2 more"
      ),
    ] as [([String], String?)])
  func namesTheIDsNoRecordHas(_ ids: [String], _ message: String?) {
    let warning = MarkRun.unmatchedIDsWarning(ids.map { Array($0.utf8) })
    #expect(warning?.message == message)
    if let warning {
      #expect(warning.severity == .warning && warning.code == "UnmatchedID")
      #expect(warning.file == "<command line>" && warning.line == nil)
    }
  }

  @Test func listsTheIDsNotFoundInTheOrderGiven() {
    var ids = IDSet()
    for id in ["k", "b", "z", "a", "q"] { ids.insert(id.utf8) }
    var found = Array(repeating: false, count: ids.slotCount)
    for id in ["z", "q"] { found[ids.slot(of: Array(id.utf8))!] = true }
    #expect(ids.ids(notIn: found).map { String(decoding: $0, as: UTF8.self) } == ["k", "b", "a"])
    #expect(ids.slot(of: Array("nope".utf8)) == nil)
  }

  /// Runs notif-mark with `arguments` on a file of `count` records, `r0` to `r<count-1>`, in
  /// batches of `batchSize` bytes.
  static func mark(_ arguments: [String], count: Int, batchSize: Int) throws
    -> CapturedRun<NotifModel.ExitStatus>
  {
    let folder = try makeScratchFolder("notif-mark-ids")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("inbox.ndjson").path
    let records = (0..<count).map { index in
      #"{"id":"r\#(index)","app":"com.example.\#(index % 2 == 0 ? "chat" : "mail")","title":"T","#
        + #""created_at":"2026-11-22T08:00:00Z","read_at":null,"seen_at":null}"#
    }
    try records.map { $0 + "\n" }.joined().write(toFile: path, atomically: false, encoding: .utf8)
    let (status, out, err) = try runMark(arguments + [path], batchSize: batchSize)
    return CapturedRun(status: status, stdout: out, stderr: err)
  }

  /// Whichever batch (and worker) finds an id, it is found; an id whose record another
  /// selector leaves out is found too: the warning is about ids no record has.
  @Test func anIDIsFoundWhicheverBatchHasItsRecord() throws {
    let arguments = [
      "--read", "--app", "com.example.chat", "--id", "r3", "--id", "typo1", "--id", "r0",
      "--id", "r199", "--id", "r77", "--id", "typo2",
    ]
    let whole = try Self.mark(arguments, count: 200, batchSize: MarkRun.batchSize)
    #expect(whole.status == .success)
    #expect(
      whole.stderr == "notif-mark: <command line>: warning: no record has the ids 'typo1' and "
        + "'typo2' [UnmatchedID]\n")
    #expect(whole.stdout.split(separator: "\n").count == 200)
    for batchSize in [1, 150, 2000] {
      #expect(try Self.mark(arguments, count: 200, batchSize: batchSize) == whole)
    }
    // Every id found: nothing to say.
    let found = try Self.mark(["--seen", "--id", "r5", "--id", "r6"], count: 10, batchSize: 150)
    #expect(found.stderr.isEmpty && found.status == .success)
  }

  @Test func aCompressedIDsFileIsAUsageError() throws {
    let folder = try makeScratchFolder("notif-mark-ids")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("ids.txt.gz").path
    try Data([0x1F, 0x8B, 0x08, 0x00, 0x0A, 0x61]).write(to: URL(fileURLWithPath: path))
    let scanned = try OptionScanner.scan(["--read", "--ids-from", path], MarkCommand.options)
    #expect(
      throws: UsageError(
        "--ids-from: '\(path)': the input is gzip-compressed: decompress it first (gzip -dc)")
    ) {
      _ = try MarkCommand.configure(scanned, environment: ToolEnvironment())
    }
  }
}
