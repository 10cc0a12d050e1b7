import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifCLI

@Suite struct InputFileTests {
  @Test func aDashIsStandardInputByName() throws {
    let input = try InputFile(operand: "-")
    #expect(input.name == "<stdin>")
    #expect(input.fd == STDIN_FILENO)
  }

  @Test func aMissingFileSaysItCannotBeOpened() {
    #expect(
      throws: SystemError(
        path: "/nonexistent/x.ndjson", message: "cannot open: no such file or directory")
    ) {
      _ = try InputFile(operand: "/nonexistent/x.ndjson")
    }
  }
}

@Suite struct CommandLineToolTests {
  static let tool = CommandLineTool(
    name: "notif-x", version: "0.1.0", usage: "usage: notif-x\n", help: "usage: notif-x\n\nHelp.\n")

  @Test(arguments: [
    ("0", 0), ("65536", 65536), ("64k", 65536), ("1M", 1 << 20), ("1g", 1 << 30),
  ])
  func sizesAreBinaryMultiples(_ text: String, _ bytes: Int) {
    #expect(CommandLineTool.parseSize(text) == bytes)
  }

  @Test(arguments: ["", "k", "-1", "1.5k", "1t", "99999999999999999999"])
  func otherTextIsNoSize(_ text: String) {
    #expect(CommandLineTool.parseSize(text) == nil)
  }

  @Test func optionValuesBecomeUsageErrors() throws {
    let specs: [OptionSpec] = [.value("now"), .value("format"), .value("max-record-bytes")]
    let bad = try OptionScanner.scan(
      ["--format", "xml", "--max-record-bytes", "1", "--now", "x"], specs)
    #expect(throws: UsageError("--format: 'xml' is not text, github, json or sarif")) {
      _ = try CommandLineTool.diagnosticFormat(bad)
    }
    #expect(
      throws: UsageError(
        "--max-record-bytes: '1' is not a size from 2 to 1g, such as 65536, 64k or 1m")
    ) {
      _ = try CommandLineTool.maxRecordBytes(bad)
    }
    #expect(throws: UsageError.self) {
      _ = try ToolEnvironment().now(bad)
    }
    let none = try OptionScanner.scan([], specs)
    #expect(try CommandLineTool.diagnosticFormat(none) == nil)
    #expect(try CommandLineTool.maxRecordBytes(none) == nil)
    #expect(try ToolEnvironment(sourceDateEpoch: "60").now(none) == Timestamp(seconds: 60))
  }

  @Test func aUsageErrorIsTheMessageThenTheUsage() throws {
    let (status, _, stderr) = try capturingOutput { _, stderr in
      Self.tool.reportUsageError(UsageError("bad"), stderr: &stderr)
    }
    #expect(status == .failure)
    #expect(stderr == "notif-x: bad\nusage: notif-x\n")
  }

  /// Arguments are untrusted text: a usage error quotes them as every diagnostic does.
  @Test func aUsageErrorWritesTheArgumentsItQuotesVisibly() throws {
    let arguments = ["--by", "\u{1B}[2J\u{61C}", "--\u{202E}x"]
    let (status, _, stderr) = try capturingOutput { stdout, stderr in
      let tool = Self.tool
      do throws(UsageError) {
        _ = try OptionScanner.scan(arguments, [.value("by")])
        return ExitStatus.success
      } catch {
        return tool.reportUsageError(error, stderr: &stderr)
      }
    }
    #expect(status == .failure)
    #expect(stderr == "notif-x: unknown option '--\\u{202E}x'\nusage: notif-x\n")
    let (_, _, byError) = try capturingOutput { _, stderr in
      Self.tool.reportUsageError(
        UsageError("--by: '\u{1B}[2J\u{61C}' is not thread, app or none"), stderr: &stderr)
    }
    #expect(
      byError == "notif-x: --by: '\\e[2J\\u{61C}' is not thread, app or none\nusage: notif-x\n")
  }

  /// The tool's text, then the options every tool takes (`commonHelp`), `-h` and `--version`.
  static let help =
    "usage: notif-x\n\nHelp.\n"
    + "      --quiet               no notes: only warnings and errors\n"
    + "      --max-errors n        write at most n errors and n warnings, then how many more\n"
    + "      --color when          color the diagnostics: auto (a terminal; the default),\n"
    + "                            always or never; NO_COLOR turns auto off\n"
    + "      --progress            show progress on standard error (default: on a terminal)\n"
    + "      --no-progress         do not show progress\n"
    + "  -h, --help                show this help and exit\n"
    + "      --version             show the version and exit\n"

  @Test(arguments: [
    (["--help"], help), (["--version"], "notif-x 0.1.0\n"), (["--version", "-h"], help),
  ])
  func helpAndVersionAnswer(_ arguments: [String], _ expected: String) throws {
    let scanned = try OptionScanner.scan(arguments, [.flag("help", "h"), .flag("version")])
    let (status, stdout, _) = try capturingOutput { stdout, stderr in
      Self.tool.answerHelpOrVersion(scanned, stdout: &stdout, stderr: &stderr)
    }
    #expect(status == .success)
    #expect(stdout == expected)
  }

  @Test func neitherHelpNorVersionGoesOn() throws {
    let scanned = try OptionScanner.scan([], [.flag("help", "h"), .flag("version")])
    let (status, stdout, _) = try capturingOutput { stdout, stderr in
      Self.tool.answerHelpOrVersion(scanned, stdout: &stdout, stderr: &stderr)
    }
    #expect(status == nil)
    #expect(stdout.isEmpty)
  }
}
