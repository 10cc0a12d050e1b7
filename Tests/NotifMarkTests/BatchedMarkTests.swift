import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_mark

/// A record line: `index` picks its app, thread and whether it was read.
private func record(_ index: Int) -> String {
  let app = index % 3 == 0 ? "com.example.other" : "com.example.chat"
  let read = index % 4 == 0 ? #""2026-11-21T10:00:00Z""# : "null"
  return
    #"{"id":"r\#(index)","app":"\#(app)","thread_id":"t\#(index % 5)","category":"MESSAGE","#
    + #""title":"Alice","body":"Lunch? é","created_at":"2026-11-2\#(index % 10)T08:00:00Z","#
    + #""read_at":\#(read),"seen_at":null,"payload":{"aps":{"alert":"Lunch?"}}}"#
}

/// Lines of every kind a sweep meets, `count` of them: records, some without `seen_at`, blank
/// lines, lines that are not JSON or not objects, a CRLF ending, lines longer than the 400-byte
/// `--max-record-bytes` the runs give; a byte order mark first, and no line feed at the end.
private func input(_ count: Int) -> String {
  var lines: [String] = []
  for index in 0..<count {
    switch index % 23 {
    case 5: lines.append("")
    case 7: lines.append(#"{"id":"broken","#)
    case 11: lines.append("[1,2,3]")
    case 13: lines.append(record(index) + "\r")
    case 17: lines.append(#"{"id":"long","body":""# + String(repeating: "x", count: 500) + #""}"#)
    case 19: lines.append(record(index).replacing(#","seen_at":null"#, with: ""))
    default: lines.append(record(index))
    }
  }
  return "\u{FEFF}" + lines.joined(separator: "\n")
}

/// What one run of notif-mark left: its status, standard output and error, and the files it
/// wrote (the store, the archive, the quarantine file), by name.
private struct MarkOutcome: Equatable {
  var run: CapturedRun<NotifModel.ExitStatus>
  var files: [String: String]
}

/// Runs notif-mark with `arguments` and `--now 2026-11-22T09:00:00Z`, its clock at 42 s, in
/// batches of `batchSize` bytes: its exit status and what it wrote.
func runMark(_ arguments: [String], batchSize: Int) throws
  -> (status: NotifModel.ExitStatus, stdout: String, stderr: String)
{
  let environment = ToolEnvironment(
    arguments: arguments + ["--now", "2026-11-22T09:00:00Z"], clock: { Timestamp(seconds: 42) })
  let scanned = try OptionScanner.scan(environment.arguments, MarkCommand.options)
  var configuration = try MarkCommand.configure(scanned, environment: environment)
  configuration.batchSize = batchSize
  return try capturingOutput { stdout, stderr in
    MarkCommand.run(configuration, environment: environment, stdout: &stdout, stderr: &stderr)
  }
}

/// Runs notif-mark with `arguments` over `text` (as a file operand, or as the store with
/// `inPlace`), in batches of `batchSize` bytes.
private func mark(
  _ arguments: [String], _ text: String, inPlace: Bool, batchSize: Int
) throws -> MarkOutcome {
  let folder = try makeScratchFolder("notif-mark-batches")
  defer { try? FileManager.default.removeItem(at: folder) }
  let path = { (name: String) in folder.appendingPathComponent(name).path }
  try text.write(toFile: path("store.ndjson"), atomically: false, encoding: .utf8)
  let expanded = arguments.map { $0.hasPrefix("@") ? path(String($0.dropFirst())) : $0 }
  let operands = inPlace ? ["--store", path("store.ndjson")] : [path("store.ndjson")]
  let (status, out, err) = try runMark(
    expanded + ["--max-record-bytes", "400"] + operands, batchSize: batchSize)
  var files: [String: String] = [:]
  for name in ["store.ndjson", "archive.ndjson", "quarantine.ndjson"] {
    files[name] = fileText(path(name))
  }
  return MarkOutcome(
    run: CapturedRun(
      status: status, stdout: out, stderr: err.replacing(folder.path, with: "<folder>")),
    files: files)
}

/// The lines go to the deciders in batches, and come back in input order: whatever the batch
/// size (one line a batch, a few, all of them in one), every output, file and diagnostic is
/// the same, as a filter and in place.
@Suite struct BatchedMarkTests {
  static let optionSets: [([String], Bool)] = [
    (["--read", "--all"], false),
    (["--unread", "--all"], false),
    (["--seen", "--app", "com.example.other"], false),
    (["--delete", "--thread", "t2", "--archive", "@archive.ndjson"], false),
    (["-n", "--read", "--app", "com.example.chat"], false),
    (["-n", "--delete", "--all", "--quarantine", "@quarantine.ndjson"], false),
    (["--read", "--all", "--quarantine", "@quarantine.ndjson"], false),
    // In place: the first change comes late, so the store's prefix is copied as it was.
    (["--read", "--id", "r150"], true),
    (["--delete", "--id", "r151", "--archive", "@archive.ndjson"], true),
    (["--seen", "--all", "--quarantine", "@quarantine.ndjson"], true),
    // In place, nothing to change: the store is not rewritten.
    (["--read", "--id", "none"], true),
  ]

  @Test(arguments: optionSets)
  func everyBatchSizeWritesTheSame(_ arguments: [String], _ inPlace: Bool) throws {
    let text = input(230)
    let whole = try mark(arguments, text, inPlace: inPlace, batchSize: MarkRun.batchSize)
    // The whole run is one batch: what the golden cases and the unit tests check line by line.
    #expect(whole.run.stdout.count + whole.files.values.map(\.count).reduce(0, +) > 0)
    for batchSize in [1, 150, 2000] {
      let batched = try mark(arguments, text, inPlace: inPlace, batchSize: batchSize)
      #expect(batched == whole, "batches of \(batchSize) bytes, \(arguments)")
    }
  }

  @Test func aLateFirstChangeKeepsTheStoresPrefixByteForByte() throws {
    let text = input(230)
    let outcome = try mark(["--read", "--id", "r150"], text, inPlace: true, batchSize: 150)
    let store = try #require(outcome.files["store.ndjson"])
    let changed = try #require(text.range(of: #"{"id":"r150""#))
    // Up to the changed record, every byte (the byte order mark dropped with the rewrite).
    #expect(store.hasPrefix(String(text[text.index(after: text.startIndex)..<changed.lowerBound])))
    #expect(store.contains(#""id":"r150","#))
    #expect(outcome.run.status == .rejected)
  }
}
