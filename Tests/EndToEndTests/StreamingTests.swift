import Foundation
import Testing

/// Filters that write as they read put each result out while their input is still open, as
/// grep and jq do: `tail -f pushes.log | notif-parse | ...` shows each record as it comes.
@Suite struct StreamingTests {
  /// Starts `tool` with `arguments`, writes `first` to its standard input and keeps it open;
  /// returns what it wrote to standard output before its input was closed (at most `limit`
  /// seconds of waiting), then closes its input and waits for it.
  static func firstOutput(
    _ tool: String, _ arguments: [String], first: String, limit: Double = 20
  ) throws -> String {
    let process = Process()
    process.executableURL = Binaries.url(tool)
    process.arguments = arguments
    process.environment = ["TZ": "UTC", "LC_ALL": "C"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(first.utf8))
    var seen = Data()
    let deadline = Date().addingTimeInterval(limit)
    let fd = output.fileHandleForReading.fileDescriptor
    while !seen.contains(0x0A) && Date() < deadline {
      var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 100) > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 65536)
      let count = read(fd, &chunk, chunk.count)
      guard count > 0 else { break }
      seen.append(contentsOf: chunk[0..<count])
    }
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return String(decoding: seen, as: UTF8.self)
  }

  @Test func notifParseWritesEachRecordBeforeItsInputEnds() throws {
    let out = try Self.firstOutput(
      "notif-parse", ["--now", "2026-11-22T09:00:00Z"], first: "{\"aps\":{\"alert\":\"one\"}}\n")
    #expect(out.hasPrefix("{\"id\":") && out.contains("\"body\":\"one\""))
  }

  @Test func notifSummarizeWritesEachGroupBeforeItsInputEnds() throws {
    let group =
      #"{"app":"a","thread_id":"t","count":1,"unread_count":1,"new_count":1,"#
      + #""latest_at":"2026-11-22T08:00:00Z","leading":{"app":"a","title":"x","created_at":"#
      + #""2026-11-22T08:00:00Z"},"more_count":0,"more_weight":0,"more_categories":[],"#
      + #""more_summary_args":[],"items":null,"items_omitted":1}"# + "\n"
    let out = try Self.firstOutput("notif-summarize", [], first: group)
    #expect(out.hasPrefix("{\"app\":\"a\"") && out.contains("\"hidden_summary\":"))
  }

  @Test func notifMarkWritesEachRecordBeforeItsInputEnds() throws {
    let out = try Self.firstOutput(
      "notif-mark", ["--read", "--all", "--now", "2026-11-22T09:00:00Z"],
      first: "{\"id\":\"a\",\"app\":\"x\"}\n")
    #expect(
      out
        == "{\"id\":\"a\",\"app\":\"x\",\"read_at\":\"2026-11-22T09:00:00Z\",\"seen_at\":\"2026-11-22T09:00:00Z\"}\n"
    )
  }

  // notif-digest reads and parses on a thread of its own: a pause of the input still reaches
  // the thread that writes, which puts out the digest that closed.
  @Test func notifDigestWritesEachDigestBeforeItsInputEnds() throws {
    let records = [("a", "08:10"), ("b", "08:20"), ("c", "09:05")].map { id, time in
      #"{"id":"\#(id)","app":"x","title":"t","created_at":"2026-11-22T\#(time):00Z"}"# + "\n"
    }
    let out = try Self.firstOutput(
      "notif-digest", ["--window", "1h", "--now", "2026-11-22T10:00:00Z"],
      first: records.joined())
    #expect(
      out.hasPrefix(#"{"digest_id":"#) && out.contains(#""window_start":"2026-11-22T08:00:00Z""#)
        && out.contains(#""count":2,"#))
  }

  @Test func notifResponsesWritesEachRecordBeforeItsInputEnds() throws {
    let out = try Self.firstOutput(
      "notif-responses", ["--now", "2026-11-26T10:00:00Z"],
      first: "{\"status\":410,\"token\":\"t\",\"body\":{\"reason\":\"Unregistered\"}}\n")
    #expect(out.hasPrefix("{\"source\":\"apns\",\"token\":\"t\"") && out.contains("prune_token"))
  }

  @Test func notifParseStoreAppendsEachRecordBeforeItsInputEnds() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-stream-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson")
    let process = Process()
    process.executableURL = Binaries.url("notif-parse")
    process.arguments = ["--now", "2026-11-22T09:00:00Z", "--store", store.path]
    process.environment = ["TZ": "UTC", "LC_ALL": "C"]
    let input = Pipe()
    process.standardInput = input
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data("{\"aps\":{\"alert\":\"one\"}}\n".utf8))
    // The store has the record while notif-parse still waits for more input.
    let deadline = Date().addingTimeInterval(20)
    var stored = ""
    while !stored.hasSuffix("\n") && Date() < deadline {
      usleep(10_000)
      stored = (try? String(contentsOf: store, encoding: .utf8)) ?? ""
    }
    #expect(process.isRunning)
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    #expect(stored.hasPrefix("{\"id\":") && stored.contains("\"body\":\"one\""))
    #expect(process.terminationStatus == 0)
  }
}
