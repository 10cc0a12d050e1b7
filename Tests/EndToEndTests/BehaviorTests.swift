import Foundation
import NotifCLI
import NotifModel
import TestSupport
import Testing

/// What golden cases cannot show: how the tools behave toward the processes around them.
@Suite struct BehaviorTests {
  static let packageRoot = GoldenCase.casesFolder.deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  /// Every tool of the package: the `Sources/notif-*` folders, so a new tool is checked too.
  static let tools: [String] =
    ((try? FileManager.default.contentsOfDirectory(
      atPath: packageRoot.appendingPathComponent("Sources").path)) ?? [])
    .filter { $0.hasPrefix("notif-") }.sorted()
  static let environment = ["TZ": "UTC", "LC_ALL": "C", "PATH": "/usr/bin:/bin"]

  /// A payload file big enough to fill any pipe buffer many times over.
  static func bigInput() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-big-\(UUID().uuidString).ndjson")
    let line =
      #"{"aps":{"alert":{"title":"Hello","body":"A line that repeats."},"badge":1}}"# + "\n"
    try Data(String(repeating: line, count: 20_000).utf8).write(to: url)
    return url
  }

  @Test func closedPipeEndsQuietlyWithSigpipe() throws {
    let input = try Self.bigInput()
    defer { try? FileManager.default.removeItem(at: input) }
    let script = "\"$1\" --now @0 \"$2\" | head -n 1 > /dev/null; echo \"${PIPESTATUS[0]}\""
    let outcome = try Binaries.run(
      "/bin/bash", ["-c", script, "bash", Binaries.url("notif-parse").path, input.path],
      in: Self.packageRoot, environment: Self.environment)
    #expect(String(decoding: outcome.stdout, as: UTF8.self) == "141\n")
    #expect(outcome.stderr.isEmpty)
  }

  @Test func failedWriteIsAnErrorWithStatus2() throws {
    let input = try Self.bigInput()
    defer { try? FileManager.default.removeItem(at: input) }
    let outcome = try Binaries.run(
      "notif-parse", ["--now", "@0", input.path], in: Self.packageRoot,
      environment: Self.environment,
      stdoutFile: URL(fileURLWithPath: "/dev/full"))
    #expect(outcome.status == 2)
    #expect(
      String(decoding: outcome.stderr, as: UTF8.self)
        == "notif-parse: <stdout>: error: write error: no space left on device [WriteFailed]\n")
  }

  // part-1.ndjson holds only what the device lists: records.ndjson's Live Activity update
  // would add the note NotListed before the error.
  @Test(arguments: [
    ("notif-parse", ["--now", "@0", "examples/chat.apns"]),
    ("notif-group", ["examples/part-1.ndjson"]),
    ("notif-summarize", ["examples/groups.ndjson"]),
    ("notif-expire", ["-p", "examples/policy.json", "--now", "@0", "examples/inbox.ndjson"]),
    ("notif-mark", ["--read", "--all", "--now", "@0", "examples/records.ndjson"]),
    ("notif-show", ["--now", "@0", "examples/part-1.ndjson"]),
    ("notif-responses", ["--now", "@0", "examples/responses.ndjson"]),
    ("notif-digest", ["--window", "1h", "--now", "@1795338000", "examples/part-1.ndjson"]),
  ])
  func everyToolReportsAFailedWriteOneWay(_ tool: String, _ arguments: [String]) throws {
    let outcome = try Binaries.run(
      tool, arguments, in: Self.packageRoot, environment: Self.environment,
      stdoutFile: URL(fileURLWithPath: "/dev/full"))
    #expect(outcome.status == 2)
    #expect(
      String(decoding: outcome.stderr, as: UTF8.self)
        == "\(tool): <stdout>: error: write error: no space left on device [WriteFailed]\n")
  }

  @Test func sameInputGivesSameBytes() throws {
    let input = try Self.bigInput()
    defer { try? FileManager.default.removeItem(at: input) }
    let first = try Binaries.run(
      "notif-parse", ["--now", "@0", input.path], in: Self.packageRoot,
      environment: Self.environment)
    let second = try Binaries.run(
      "notif-parse", ["--now", "@0", input.path], in: Self.packageRoot,
      environment: Self.environment)
    #expect(first.status == 0)
    #expect(first.stdout == second.stdout)
    #expect(first.stdout.split(separator: UInt8(ascii: "\n")).count == 20_000)
  }

  /// Every long option in `--help` is in the man page and the three completions, and the man
  /// page documents no option the tool lacks.
  @Test(arguments: tools)
  func optionsAgreeAcrossHelpManAndCompletions(_ tool: String) throws {
    let help = try Binaries.run(
      tool, ["--help"], in: Self.packageRoot, environment: Self.environment)
    let helpOptions = Self.longOptions(
      in: String(decoding: help.stdout, as: UTF8.self), pattern: #"--[a-z][a-z-]*"#)
    #expect(helpOptions.contains("--help") && helpOptions.contains("--version"))
    let root = Self.packageRoot
    let man = try String(contentsOf: root.appendingPathComponent("man/\(tool).1"), encoding: .utf8)
    let manOptions = Self.longOptions(in: man, pattern: #"Fl -[a-z][a-z-]*"#).map {
      "-" + $0.dropFirst(3)
    }
    let files = [
      "completions/bash/\(tool)", "completions/zsh/_\(tool)", "completions/fish/\(tool).fish",
    ]
    for option in helpOptions {
      #expect(manOptions.contains(option), "\(option) of --help is not in man/\(tool).1")
      for file in files {
        let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
        let spelled = file.hasSuffix(".fish") ? "-l \(option.dropFirst(2))" : option
        #expect(text.contains(spelled), "\(option) is not offered by \(file)")
      }
    }
    for option in manOptions where !helpOptions.contains(option) {
      Issue.record("man/\(tool).1 documents \(option), which --help does not list")
    }
  }

  /// The usage lines of `--help` (and of a usage error) are the man page's SYNOPSIS, as mandoc
  /// renders it, white space aside.
  @Test(.needs(.mandoc), arguments: tools)
  func usageIsTheManSynopsis(_ tool: String) throws {
    let help = try Binaries.run(
      tool, ["--help"], in: Self.packageRoot, environment: Self.environment)
    let text = String(decoding: help.stdout, as: UTF8.self)
    let usage = String(text[..<(text.range(of: "\n\n")?.lowerBound ?? text.endIndex)])
    let page = try Binaries.run(
      "/usr/bin/env", ["mandoc", "-T", "ascii", "man/\(tool).1"], in: Self.packageRoot,
      environment: Self.environment)
    try #require(page.status == 0, "mandoc is needed (make check-deps installs it)")
    // Bold and underlined letters are overstruck: "x\bx", "_\bx".
    var rendered = String(decoding: page.stdout, as: UTF8.self)
    rendered = rendered.replacingOccurrences(
      of: #"[^\n]\x{08}"#, with: "", options: .regularExpression)
    let synopsis = rendered.components(separatedBy: "\nSYNOPSIS\n").dropFirst().first?
      .components(separatedBy: "\nDESCRIPTION\n").first
    #expect(
      Self.words(usage) == Self.words("usage: " + (synopsis ?? "")),
      "the usage of \(tool) --help is not the SYNOPSIS of man/\(tool).1")
  }

  /// `text` with its runs of white space made one space, and none around `|`.
  static func words(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      .replacingOccurrences(of: " | ", with: "|")
  }

  /// Every tool that reads records or group objects takes `--max-record-bytes`, with one
  /// default (`CommandLineTool.defaultMaxRecordBytes`), which its `--help`, its man page and its
  /// zsh and fish completions all give.
  @Test(arguments: tools)
  func maxRecordBytesHasOneDefaultEverywhere(_ tool: String) throws {
    let help = try Binaries.run(
      tool, ["--help"], in: Self.packageRoot, environment: Self.environment)
    let text = String(decoding: help.stdout, as: UTF8.self)
    guard text.contains("--max-record-bytes") else {
      Issue.record("\(tool) --help does not list --max-record-bytes")
      return
    }
    let size = "\(CommandLineTool.defaultMaxRecordBytes >> 20)m"
    #expect(text.contains("longest JSON text accepted (default \(size))"))
    let root = Self.packageRoot
    func file(_ path: String) throws -> String {
      try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
    let man = try file("man/\(tool).1")
    let item = man.components(separatedBy: ".It Fl -max-record-bytes").dropFirst().first?
      .components(separatedBy: "\n.It ").first
    #expect(item?.contains("The default is\n.Cm \(size) ,") == true, "man/\(tool).1")
    #expect(try file("completions/zsh/_\(tool)").contains("(default \(size))"))
    #expect(try file("completions/fish/\(tool).fish").contains("(default \(size);"))
  }

  static func longOptions(in text: String, pattern: String) -> Set<String> {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return Set(
      regex.matches(in: text, range: range).compactMap {
        Range($0.range, in: text).map { String(text[$0]) }
      })
  }
}
