import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_show

/// `--jobs`: a large file read in chunks by worker threads shows what one thread shows, page
/// and diagnostics alike, whatever the chunk size and wherever the trouble falls.
@Suite struct ChunkedShowTests {
  typealias Outcome = CapturedRun<NotifModel.ExitStatus>

  /// Runs notif-show on files holding `inputs`, in order, with `arguments` and the chunk
  /// size given: what it wrote, and how many chunks it took from the workers and fell back
  /// from.
  static func run(_ inputs: [String], _ arguments: [String], chunkSize: Int) throws
    -> (Outcome, accepted: Int, fallBacks: Int)
  {
    let dir = try makeScratchFolder("notif-show-chunks")
    defer { try? FileManager.default.removeItem(at: dir) }
    let paths = try inputs.enumerated().map { index, text in
      let file = dir.appendingPathComponent("input\(index).ndjson")
      try Data(text.utf8).write(to: file)
      return file.path
    }
    let scanned = try OptionScanner.scan(arguments + paths, ShowCommand.options)
    let options = try ShowCommand.configure(scanned, environment: ToolEnvironment())
    var counts = (accepted: 0, fallBacks: 0)
    let (status, out, err) = try capturingOutput { stdout, stderr in
      var run = ShowRun(options: options, chunkSize: chunkSize)
      defer { counts = run.chunkCounts }
      return run.execute(stdout: &stdout, stderr: &stderr)
    }
    var cleaned = err
    for (index, path) in paths.enumerated() {
      cleaned = cleaned.replacingOccurrences(of: path, with: "input\(index)")
    }
    return (
      Outcome(status: status, stdout: out, stderr: cleaned), counts.accepted, counts.fallBacks
    )
  }

  /// A record; `at` gives many records the same time, so that ties across chunks rank by
  /// input order.
  static func record(_ index: Int) -> String {
    let minute = (index * 7) % 50
    let kind = index % 11 == 3 ? #","push_type":"background""# : ""
    return #"{"id":"r\#(index)","app":"com.example.app\#(index % 3)","title":"T\#(index)","#
      + #""body":"Body \#(index)","created_at":"2026-11-22T08:\#(minute < 10 ? "0" : "")\#(minute):00Z""#
      + kind + "}"
  }

  static let records = (0..<300).map(record)
  static let clean = records.map { $0 + "\n" }.joined()
  static let group =
    #"{"app":"com.example.chat","thread_id":"t","count":2,"unread_count":1,"new_count":1,"#
    + #""latest_at":"2026-11-22T08:55:00Z","leading":{"app":"com.example.chat","title":"Ann","#
    + #""created_at":"2026-11-22T08:55:00Z"},"more_count":1,"more_weight":1,"#
    + #""more_categories":[{"category":null,"count":1,"weight":1}],"more_summary_args":[],"#
    + #""items":null,"items_omitted":2}"#

  static let inputs: [(String, String)] = [
    ("ndjson", clean),
    (
      "bad records, bad JSON and group objects among records",
      records.enumerated().map { index, line in
        switch index % 13 {
        case 1: return #"{"id":"cut","created_at":"2026-11-22T09:0"#
        case 2: return "not json at all"
        case 3: return #"{"id":"x","created_at":"soon"}"#
        case 5: return #"{"id":"d","id":"d","created_at":"2026-11-22T08:00:00Z"}"#
        case 7: return group
        case 8: return "[1,2]"
        default: return line
        }
      }.map { $0 + "\n" }.joined()
    ),
    (
      "pretty-printed records among lines", someRecordsSpreadOverLines(records)
    ),
    ("crlf and blank lines", records.map { $0 + "\r\n\n" }.joined()),
    ("byte order mark", "\u{FEFF}" + clean),
    ("no final newline", String(clean.dropLast())),
  ]

  static let optionSets: [[String]] = [
    ["--limit", "50"], ["--limit", "7", "--order", "chat"], [],
    ["--limit", "20", "--all-pushes", "--to", "html"],
    ["--limit", "5", "--max-errors", "3"], ["--quiet", "--max-errors", "0"],
  ]

  @Test(arguments: inputs.map(\.0))
  func chunksShowWhatOneThreadShows(_ name: String) throws {
    let input = try #require(Self.inputs.first { $0.0 == name }).1
    for options in Self.optionSets {
      let base = options + ["--now", "2026-11-22T09:00:00Z", "--width", "60", "--color", "never"]
      let one = try Self.run([input], base + ["--jobs", "1"], chunkSize: 512)
      #expect(one.accepted == 0 && one.fallBacks == 0)
      for size in [64, 300, 1000, 4096] {
        let many = try Self.run([input], base + ["--jobs", "3"], chunkSize: size)
        #expect(many.0 == one.0, "\(options), chunks of \(size) bytes")
        #expect(many.accepted > 0 || many.fallBacks > 0, "\(options), chunks of \(size) bytes")
      }
    }
  }

  @Test func aPipeIsReadInChunksToo() throws {
    // A named pipe that `cat` fills: not a regular file, so read in chunks as it comes, and
    // the pretty-printed records among its lines leave one reader to go on from there.
    let input = try #require(Self.inputs.first { $0.0 == "pretty-printed records among lines" }).1
    let dir = try makeScratchFolder("notif-show-pipe")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("records.ndjson")
    try Data(input.utf8).write(to: file)
    let fifo = dir.appendingPathComponent("fifo").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = Process()
    writer.executableURL = URL(fileURLWithPath: "/bin/sh")
    writer.arguments = ["-c", "cat \"$1\" > \"$2\"", "sh", file.path, fifo]
    try writer.run()
    let arguments = ["--limit", "20", "--now", "2026-11-22T09:00:00Z", "--width", "60"]
    let scanned = try OptionScanner.scan(arguments + ["--jobs", "2", fifo], ShowCommand.options)
    let options = try ShowCommand.configure(scanned, environment: ToolEnvironment())
    var counts = (accepted: 0, fallBacks: 0)
    let (status, out, _) = try capturingOutput { stdout, stderr in
      var run = ShowRun(options: options, chunkSize: 300)
      defer { counts = run.chunkCounts }
      return run.execute(stdout: &stdout, stderr: &stderr)
    }
    writer.waitUntilExit()
    let one = try Self.run([input], arguments + ["--jobs", "1"], chunkSize: 300)
    #expect(status == one.0.status)
    #expect(out == one.0.stdout)
    #expect(counts.accepted > 0 && counts.fallBacks == 1)
  }

  /// `--max-errors` writes the first errors in input order, then how many more there were,
  /// the same whatever the chunks and threads; the page and the exit status are those of the
  /// run without it.
  @Test func maxErrorsKeepsTheFirstInInputOrderWhateverTheChunks() throws {
    let input = try #require(
      Self.inputs.first { $0.0 == "bad records, bad JSON and group objects among records" }
    ).1
    let base = ["--limit", "5", "--now", "2026-11-22T09:00:00Z", "--width", "60"]
    let all = try Self.run([input], base + ["--jobs", "1"], chunkSize: 512).0
    let lines = all.stderr.split(separator: "\n", omittingEmptySubsequences: true)
    let errors = lines.filter { $0.contains(": error: ") }
    #expect(errors.count > 3)
    var kept = 0
    var expected = lines.filter { line in
      guard line.contains(": error: ") else { return true }
      kept += 1
      return kept <= 3
    }.map { $0 + "\n" }.joined()
    expected +=
      "notif-show: input0: note: \(errors.count - 3) more errors were not shown "
      + "(--max-errors 3) [NotShown]\n"
    let capped = base + ["--max-errors", "3"]
    let one = try Self.run([input], capped + ["--jobs", "1"], chunkSize: 512).0
    #expect(one == Outcome(status: all.status, stdout: all.stdout, stderr: expected))
    for size in [64, 300, 4096] {
      let many = try Self.run([input], capped + ["--jobs", "2"], chunkSize: size)
      #expect(many.0 == one, "chunks of \(size) bytes")
      #expect(many.accepted > 0 || many.fallBacks > 0, "chunks of \(size) bytes")
    }
  }

  @Test func manyFilesKeepTheirOrder() throws {
    // Each file takes a number, and its texts' order starts there: 70 files of one record,
    // all at one time, rank in the order of the files, as one file of them all does.
    let tied = (0..<70).map {
      #"{"id":"t\#($0)","app":"a","title":"T\#($0)","created_at":"2026-11-22T08:00:00Z"}"# + "\n"
    }
    let options = ["--now", "2026-11-22T09:00:00Z", "--width", "60", "--jobs", "1"]
    let whole = try Self.run([tied.joined()], options, chunkSize: 1 << 20)
    let apart = try Self.run(tied, options, chunkSize: 1 << 20)
    #expect(apart.0.stdout == whole.0.stdout)
  }

  @Test func filesReadInChunksAndWholeKeepTheirOrder() throws {
    // Three files: a big one in chunks, a small one whole, a big one in chunks again; every
    // record at one time, so that the page's order is the input's.
    let tied = (0..<200).map {
      #"{"id":"t\#($0)","app":"a","title":"T\#($0)","created_at":"2026-11-22T08:00:00Z"}"# + "\n"
    }
    let parts = [tied[..<120].joined(), tied[120..<125].joined(), tied[125...].joined()]
    let options = ["--limit", "150", "--now", "2026-11-22T09:00:00Z", "--width", "60"]
    let whole = try Self.run([parts.joined()], options + ["--jobs", "1"], chunkSize: 700)
    let split = try Self.run(parts, options + ["--jobs", "2"], chunkSize: 700)
    #expect(split.accepted > 4)
    #expect(split.0.stdout == whole.0.stdout)
  }
}
