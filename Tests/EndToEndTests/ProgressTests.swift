import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `--progress` as a person sees it: every tool, its standard error a pseudo-terminal and its
/// input a pipe that pauses past the two seconds a run goes quiet, shows the progress line by
/// default (`\rPROG: N records, ...`) and clears it; the same run with standard error a pipe
/// writes none of it, and nor does `--quiet`. Slow: each run takes the pause.
@Suite struct ProgressTests {
  /// Each tool, the arguments of a run, and the file of `examples/` it reads.
  static let runs: [(tool: String, arguments: [String], input: String)] = [
    ("notif-parse", ["--now", "2026-11-22T09:00:00Z"], "payloads.ndjson"),
    ("notif-group", [], "inbox.ndjson"),
    ("notif-summarize", [], "groups.ndjson"),
    (
      "notif-expire", ["-p", "examples/policy.json", "--now", "2026-11-22T09:00:00Z"],
      "inbox.ndjson"
    ),
    ("notif-mark", ["--read", "--all", "--now", "2026-11-22T09:00:00Z"], "inbox.ndjson"),
    ("notif-responses", ["--now", "2026-11-22T09:00:00Z"], "responses.ndjson"),
    ("notif-show", ["--now", "2026-11-22T09:00:00Z"], "inbox.ndjson"),
    ("notif-digest", ["--window", "1h", "--flush"], "inbox.ndjson"),
  ]

  /// What `tool` writes on standard error, a terminal or a pipe, while its standard input
  /// gets `input`, then after a pause (2.5 s: past the quiet start of the progress line)
  /// `input` again, then its end.
  static func standardError(
    _ tool: String, _ arguments: [String], input: Data, terminal: Bool,
    pause: useconds_t = 2_500_000,
    environment: [String: String] = [:]
  ) throws -> (text: String, status: Int32) {
    var ends: (main: Int32, secondary: Int32) = (-1, -1)
    if terminal {
      try #require(openpty(&ends.main, &ends.secondary, nil, nil, nil) == 0)
    } else {
      var fds: [Int32] = [0, 0]
      try #require(pipe(&fds) == 0)
      ends = (fds[0], fds[1])
    }
    let (main, secondary) = ends
    let process = Process()
    process.executableURL = Binaries.url(tool)
    process.arguments = arguments
    process.currentDirectoryURL = BehaviorTests.packageRoot
    process.environment = ["TZ": "UTC", "LC_ALL": "C"].merging(environment) { $1 }
    let feed = Pipe()
    process.standardInput = feed
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(fileDescriptor: secondary, closeOnDealloc: false)
    try process.run()
    close(secondary)
    // Read what comes while it runs: a pseudo-terminal holds only a few KiB.
    let collected = Collected()
    let reader = Thread {
      var chunk = [UInt8](repeating: 0, count: 4096)
      while true {
        let count = read(main, &chunk, chunk.count)
        if count <= 0 { break }  // EIO once the terminal's last writer is gone
        collected.append(chunk[0..<count])
      }
    }
    reader.start()
    feed.fileHandleForWriting.write(input)
    usleep(pause)
    feed.fileHandleForWriting.write(input)
    try feed.fileHandleForWriting.close()
    process.waitUntilExit()
    while !collected.isDone(after: reader) { usleep(10_000) }
    close(main)
    return (String(decoding: collected.data, as: UTF8.self), process.terminationStatus)
  }

  /// Bytes one thread appends and another reads when it is done.
  final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes = Data()
    var data: Data { lock.withLock { bytes } }
    func append(_ more: ArraySlice<UInt8>) { lock.withLock { bytes.append(contentsOf: more) } }
    func isDone(after thread: Thread) -> Bool { thread.isFinished }
  }

  @Test(.slow, arguments: runs.map(\.tool))
  func aTerminalSeesTheProgressLineAndAPipeDoesNot(_ tool: String) throws {
    let run = try #require(Self.runs.first { $0.tool == tool })
    let input = try Data(
      contentsOf: BehaviorTests.packageRoot.appendingPathComponent("examples/" + run.input))
    let shown = try Self.standardError(tool, run.arguments, input: input, terminal: true)
    #expect(shown.text.contains("\r\(tool): "), "\(tool) showed no progress: \(shown.text)")
    #expect(shown.text.contains(" records/s"))
    #expect(shown.text.contains("\r\u{1B}[K"), "the line is cleared at the end")
    let piped = try Self.standardError(tool, run.arguments, input: input, terminal: false)
    #expect(!piped.text.contains("\r"), "\(tool) wrote progress to a pipe: \(piped.text)")
    #expect(shown.status == piped.status)
    let quiet = try Self.standardError(
      tool, run.arguments + ["--quiet"], input: input, terminal: true)
    #expect(!quiet.text.contains("\r"), "--quiet shows no progress")
  }
}
