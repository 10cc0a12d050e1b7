import Foundation
import TestSupport
import Testing

/// notif-group on a standard input that a command before it read partly (`(head -1 >
/// /dev/null; notif-group) < FILE`, where the shell's descriptor stands after the first
/// line): what it groups starts where the input stood, also when a file read in chunks must be
/// grouped again from its start (a text across a chunk's cut), which read it again from the
/// start of the file before.
@Suite struct GroupInputOffsetTests {
  /// Records long enough that the default chunk (256 KiB) is cut twice.
  static func records() -> [String] {
    (0..<1800).map { n in
      #"{"id":"r\#(n)","app":"com.example.chat","thread_id":"t\#(n % 40)","title":"Message \#(n)","#
        + #""body":"\#(String(repeating: "x", count: 120))","created_at":"2026-11-22T09:\#(String(format: "%02d", n % 60)):00Z","#
        + #""relevance":null,"summary_arg":null,"summary_arg_count":1,"read_at":null,"seen_at":null}"#
    }
  }

  @Test(arguments: [["--jobs", "1"], ["--jobs", "2"]])
  func groupsFromWhereTheInputStands(_ jobs: [String]) throws {
    let folder = try makeScratchFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let skipped =
      #"{"id":"skipped","app":"com.example.skipped","thread_id":"no","title":"Not read","#
      + #""created_at":"2026-11-23T09:00:00Z","relevance":null,"summary_arg":null,"#
      + #""summary_arg_count":1,"read_at":null,"seen_at":null}"# + "\n"
    // Every record over lines: a chunk cut after a line feed is cut inside a text.
    let rest = Self.records().map { $0.replacing(",", with: ",\n  ") + "\n" }.joined()
    #expect(rest.utf8.count > 2 * 262_144)
    let whole = folder.appendingPathComponent("whole.ndjson")
    let tail = folder.appendingPathComponent("rest.ndjson")
    try Data((skipped + rest).utf8).write(to: whole)
    try Data(rest.utf8).write(to: tail)
    let arguments = jobs + ["--no-items"]
    let expected = try Binaries.run(
      "notif-group", arguments, in: folder, stdin: tail,
      environment: BehaviorTests.environment)
    let offset = try Binaries.run(
      "notif-group", arguments, in: folder, stdin: whole,
      stdinOffset: UInt64(skipped.utf8.count), environment: BehaviorTests.environment)
    #expect(expected.status == 0)
    #expect(offset == expected)
    #expect(!String(decoding: offset.stdout, as: UTF8.self).contains("skipped"))
  }
}
