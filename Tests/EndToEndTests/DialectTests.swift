import Foundation
import TestSupport
import Testing

/// What every tool does the same way, tried on each (`ProgressTests.runs` gives a run of each):
/// `--help` and `-h` on standard output with status 0; `-` for standard input and `--` before
/// an operand that starts with a dash; `--color` and `NO_COLOR` for the diagnostics;
/// `--quiet` and `--max-errors` on the same bad input.
@Suite struct DialectTests {
  static var tools: [String] { ProgressTests.runs.map(\.tool) }

  /// The run of `tool`, its arguments with `examples/` made absolute, and its input's bytes.
  static func run(_ tool: String) throws -> (arguments: [String], input: Data) {
    let run = try #require(ProgressTests.runs.first { $0.tool == tool })
    let root = BehaviorTests.packageRoot.path
    let arguments = run.arguments.map { $0.hasPrefix("examples/") ? root + "/" + $0 : $0 }
    let input = try Data(contentsOf: URL(fileURLWithPath: root + "/examples/" + run.input))
    return (arguments, input)
  }

  @Test(arguments: tools)
  func helpGoesToStandardOutputWithStatus0(_ tool: String) throws {
    let long = try Binaries.run(
      tool, ["--help"], in: BehaviorTests.packageRoot, environment: BehaviorTests.environment)
    let short = try Binaries.run(
      tool, ["-h"], in: BehaviorTests.packageRoot, environment: BehaviorTests.environment)
    #expect(long.status == 0 && short.status == 0)
    #expect(long.stderr.isEmpty && short.stderr.isEmpty)
    #expect(String(decoding: long.stdout, as: UTF8.self).hasPrefix("usage: \(tool) "))
    #expect(long.stdout == short.stdout)
  }

  /// The same input read from standard input, from `-`, and from a file whose name starts with
  /// a dash after `--`, gives the same bytes.
  @Test(arguments: tools)
  func dashIsStandardInputAndDoubleDashEndsTheOptions(_ tool: String) throws {
    let (arguments, input) = try Self.run(tool)
    let dir = try makeScratchFolder("notif-dialect")
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("-input.ndjson")
    try input.write(to: file)
    let plain = try Binaries.run(
      tool, arguments, in: dir, stdin: file, environment: BehaviorTests.environment)
    let dash = try Binaries.run(
      tool, arguments + ["-"], in: dir, stdin: file, environment: BehaviorTests.environment)
    let named = try Binaries.run(
      tool, arguments + ["--", "-input.ndjson"], in: dir, environment: BehaviorTests.environment)
    #expect(
      !plain.stdout.isEmpty,
      "\(tool) wrote nothing: \(String(decoding: plain.stderr, as: UTF8.self))")
    #expect(dash.stdout == plain.stdout && dash.status == plain.status)
    #expect(named.stdout == plain.stdout && named.status == plain.status)
    // Without `--` the name is an option, which no tool has.
    let option = try Binaries.run(
      tool, arguments + ["-input.ndjson"], in: dir, environment: BehaviorTests.environment)
    #expect(option.status == 2 && option.stdout.isEmpty)
  }

  /// Two lines no tool reads, then its input: each tool reports both the same way.
  static func badInput(_ tool: String) throws -> (arguments: [String], input: Data) {
    let (arguments, input) = try run(tool)
    return (arguments, Data("not json\n{\"a\":}\n".utf8) + input)
  }

  @Test(arguments: tools)
  func colorIsForATerminalWithoutNoColorOrWhenAskedFor(_ tool: String) throws {
    let (arguments, input) = try Self.badInput(tool)
    let red = "\u{1B}[1;31merror\u{1B}[0m"
    let terminal = try ProgressTests.standardError(
      tool, arguments + ["--no-progress"], input: input, terminal: true, pause: 0)
    #expect(terminal.text.contains(red), "\(terminal.text)")
    let noColor = try ProgressTests.standardError(
      tool, arguments + ["--no-progress"], input: input, terminal: true, pause: 0,
      environment: ["NO_COLOR": "1"])
    #expect(!noColor.text.contains("\u{1B}["), "\(noColor.text)")
    #expect(noColor.text.contains(": error: "))
    let pipe = try ProgressTests.standardError(
      tool, arguments, input: input, terminal: false, pause: 0)
    #expect(!pipe.text.contains("\u{1B}["))
    let always = try ProgressTests.standardError(
      tool, arguments + ["--color", "always"], input: input, terminal: false, pause: 0,
      environment: ["NO_COLOR": "1"])
    #expect(always.text.contains(red))
  }

  @Test(arguments: tools)
  func maxErrorsCountsTheRestAndKeepsTheExitStatus(_ tool: String) throws {
    let (arguments, input) = try Self.badInput(tool)
    let all = try ProgressTests.standardError(
      tool, arguments, input: input, terminal: false, pause: 0)
    let capped = try ProgressTests.standardError(
      tool, arguments + ["--max-errors", "1"], input: input, terminal: false, pause: 0)
    #expect(all.status == capped.status)
    let errors = { (text: String) in text.components(separatedBy: ": error: ").count - 1 }
    #expect(errors(all.text) >= 2, "\(all.text)")
    #expect(errors(capped.text) == 1, "\(capped.text)")
    #expect(capped.text.contains(" not shown (--max-errors 1) [NotShown]\n"), "\(capped.text)")
    let quiet = try ProgressTests.standardError(
      tool, arguments + ["--quiet"], input: input, terminal: false, pause: 0)
    #expect(!quiet.text.contains(": note: "))
    #expect(errors(quiet.text) == errors(all.text) && quiet.status == all.status)
  }
}
