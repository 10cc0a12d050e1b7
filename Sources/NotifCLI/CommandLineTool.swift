import NotifJSON
import NotifModel

/// The command-line plumbing every notif tool shares: `--help` and `--version`, the usage
/// error (message, usage line, exit 2), and the option values several tools read the same way
/// (`--format`, `--max-record-bytes`, `--jobs`; `--now` is `ToolEnvironment.now`).
///
/// Each tool keeps its own name, version, usage and help text and hands them here. Output goes
/// only through the writers the tool passes in; nothing here reads the clock or the
/// environment, or exits.
public struct CommandLineTool: Sendable {
  /// The code of the diagnostic that reports a failed write to standard output.
  public static let writeFailed = "WriteFailed"

  /// The program name, the prefix of every message: `notif-parse`.
  public let name: String
  /// The version `--version` prints after the name.
  public let version: String
  /// The usage lines (the man page's SYNOPSIS), ending in a newline.
  public let usage: String
  /// The tool's own `--help` text, before the lines every tool shares (`commonHelp`).
  private let ownHelp: String

  /// The whole `--help` text, ending in a newline: made when asked for, since looking for
  /// the shared options in the tool's text costs more than the rest of a short run's
  /// start-up.
  public var help: String {
    let common = Self.commonHelp.filter { option, _ in !ownHelp.contains("  \(option) ") }
    return ownHelp + common.map(\.line).joined()
      + "  -h, --help                show this help and exit\n"
      + "      --version             show the version and exit\n"
  }

  /// The version of the toolkit, which every tool's `--version` gives: the tools are released
  /// together, and read what one another write.
  public static let toolkitVersion = "0.1.0"

  /// Describes a tool by its texts. `help` is the text of `--help` up to the lines of `-h`
  /// and `--version`, which end every tool's and are added here.
  public init(
    name: String, version: String = CommandLineTool.toolkitVersion, usage: String, help: String
  ) {
    self.name = name
    self.version = version
    self.usage = usage
    ownHelp = help
  }

  /// The `--help` lines of the options every tool takes the same way (`ReportOptions`), which
  /// end every tool's help before `-h` and `--version`, but where the tool says it itself.
  static let commonHelp: [(option: String, line: String)] = [
    ("--quiet", "      --quiet               no notes: only warnings and errors\n"),
    (
      "--max-errors",
      "      --max-errors n        write at most n errors and n warnings, then how many more\n"
    ),
    (
      "--color",
      "      --color when          color the diagnostics: auto (a terminal; the default),\n"
        + "                            always or never; NO_COLOR turns auto off\n"
    ),
    (
      "--progress",
      "      --progress            show progress on standard error (default: on a terminal)\n"
    ),
    ("--no-progress", "      --no-progress         do not show progress\n"),
  ]

  /// Answers `--help` or `--version` when given (help first): writes the text to `stdout` and
  /// returns the exit status. Returns nil when neither was given, and the tool goes on.
  public func answerHelpOrVersion(
    _ scanned: ScannedArguments, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus? {
    if scanned.has("help") {
      return finish(writing: help, to: &stdout, stderr: &stderr)
    }
    if scanned.has("version") {
      return finish(writing: "\(name) \(version)\n", to: &stdout, stderr: &stderr)
    }
    return nil
  }

  /// Writes `text` to `out` and flushes it: success, or, when the write fails, the failure
  /// reported on `stderr` (`reportFailedWrite`) and `.failure`.
  public func finish(
    writing text: String, to out: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    do throws(SystemError) {
      try out.write(text)
      try out.flush()
      return .success
    } catch {
      return reportFailedWrite(error, stderr: &stderr)
    }
  }

  /// Reports a failed write of `--help` or `--version` on `stderr`, before any run has a
  /// `Reporter` of its own: as `Reporter.reportFailedWrite` does, in text.
  public func reportFailedWrite(_ error: SystemError, stderr: inout OutputWriter) -> ExitStatus {
    var reporter = Reporter(program: name)
    return reporter.reportFailedWrite(error, &stderr)
  }

  /// Reports a usage error on `stderr` (`PROG: message`, then the usage lines) and returns
  /// `.failure` (exit 2). The message quotes the command line, which is as untrusted as any
  /// input: it is written visibly (`Diagnostic.visible`), as every diagnostic is, so it stays
  /// one line and cannot drive the terminal.
  public func reportUsageError(_ error: UsageError, stderr: inout OutputWriter) -> ExitStatus {
    try? stderr.write("\(name): \(Diagnostic.visible(error.message))\n\(usage)")
    try? stderr.flush()
    return .failure
  }

  /// Writes a warning for each old spelling the command line gave (`RenamedOption`):
  /// `PROG: warning: '--view' is deprecated: it is '--order', ...`.
  public func warnDeprecated(_ scanned: ScannedArguments, stderr: inout OutputWriter) {
    guard !scanned.deprecated.isEmpty else { return }
    for warning in scanned.deprecated {
      try? stderr.write("\(name): warning: \(Diagnostic.visible(warning))\n")
    }
    try? stderr.flush()
  }

  /// `--format text|github|json|sarif`, the diagnostics' form; nil when not given.
  public static func diagnosticFormat(_ scanned: ScannedArguments) throws(UsageError)
    -> DiagnosticFormat?
  {
    guard let format = scanned.last("format") else { return nil }
    guard let chosen = DiagnosticFormat(rawValue: format) else {
      throw UsageError("--format: '\(format)' is not text, github, json or sarif")
    }
    return chosen
  }

  /// The longest JSON text a tool reads when `--max-record-bytes` is not given: 64 MiB, in every
  /// tool that reads records or group objects.
  ///
  /// One number, so that every tool accepts what another writes: a record notif-parse wrote is
  /// read by notif-group, notif-expire, notif-mark and notif-show, and a group object
  /// notif-group wrote by notif-group --merge, notif-summarize and notif-show, under the same
  /// limit. It bounds a tool's memory whatever its input: a longer text is a `RecordTooLarge`
  /// diagnostic and is read past, not kept. A group object carries its items, so that of a big
  /// group written without `--item-limit` may be longer: `--max-record-bytes` raises the limit (to
  /// 1 GiB) in the tools that read it.
  public static let defaultMaxRecordBytes = 64 << 20

  /// `--max-record-bytes SIZE`, 2 bytes to 1 GiB (see `parseSize`); nil when not given.
  public static func maxRecordBytes(_ scanned: ScannedArguments) throws(UsageError) -> Int? {
    guard let size = scanned.last("max-record-bytes") else { return nil }
    guard let bytes = parseSize(size), bytes >= 2, bytes <= 1 << 30 else {
      throw UsageError(
        "--max-record-bytes: '\(size)' is not a size from 2 to 1g, such as 65536, 64k or 1m")
    }
    return bytes
  }

  /// `-j/--jobs N`, threads from 1 to 64; nil when not given.
  public static func jobs(_ scanned: ScannedArguments) throws(UsageError) -> Int? {
    guard let jobs = scanned.last("jobs") else { return nil }
    guard jobs.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(jobs),
      (1...64).contains(count)
    else {
      throw UsageError("--jobs: '\(jobs)' is not a number of threads from 1 to 64")
    }
    return count
  }

  /// Threads when `--jobs` is not given: one per core, at most 2, so that a run on a shared
  /// machine takes a fair share; more can be asked for.
  public static var defaultJobs: Int {
    min(max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1), 2)
  }

  /// Reads `65536`, `64k`, `1m` or `1g` (binary multiples); nil when it is not such a size.
  public static func parseSize(_ text: String) -> Int? {
    var digits = Substring(text)
    var scale = 1
    switch text.last?.lowercased() {
    case "k": scale = 1 << 10
    case "m": scale = 1 << 20
    case "g": scale = 1 << 30
    default: break
    }
    if scale > 1 { digits = digits.dropLast() }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let value = Int(digits),
      value <= Int.max / scale
    else {
      return nil
    }
    return value * scale
  }
}

/// A notif tool's command line, as its `main.swift` runs it (`main()`): read the environment,
/// scan the arguments, answer `--help` and `--version` or report a usage error, else configure
/// and run. Each tool supplies its texts and options, `configure` and `run`.
public protocol ToolCommand {
  /// What the command line asked for.
  associatedtype Configuration
  /// The tool's name, version, usage and help.
  static var tool: CommandLineTool { get }
  /// The options the tool accepts.
  static var options: [OptionSpec] { get }
  /// Reads the scanned command line (`--help` and `--version` already answered).
  ///
  /// - Throws: `UsageError`, reported with the usage line (exit 2).
  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  /// Does what the command line asked for and returns the exit status; the only output is
  /// through `stdout` and `stderr` (and the files the tool is asked to change).
  static func run(
    _ configuration: Configuration, environment: ToolEnvironment, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus
}

/// A tool's run over its inputs, made from what its command line asked for: the logic a
/// `ToolCommand` hands its configuration to (`ToolCommand.run` makes one and executes it).
public protocol ToolRun {
  /// What the command line asked for.
  associatedtype Configuration
  /// A run of `configuration` in `environment`.
  init(configuration: Configuration, environment: ToolEnvironment)
  /// Does what the command line asked for and returns the exit status.
  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus
}

/// A `ToolCommand` whose work is a `ToolRun`: its `run` is the run's `execute`.
public protocol RunningToolCommand: ToolCommand {
  /// The tool's run.
  associatedtype Run: ToolRun where Run.Configuration == Configuration
}

extension RunningToolCommand {
  /// Makes the tool's run and executes it.
  @inlinable public static func run(
    _ configuration: Configuration, environment: ToolEnvironment, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus {
    var run = Run(configuration: configuration, environment: environment)
    return run.execute(stdout: &stdout, stderr: &stderr)
  }
}

extension ToolCommand {
  /// The configuration `arguments` ask for, read as `run(environment:)` reads it, in a fixed
  /// environment whose standard error is a terminal or not: what a test of the options reads.
  ///
  /// - Throws: `UsageError`, as the command line would report it.
  public static func configure(_ arguments: [String], stderrIsTerminal: Bool = false)
    throws(UsageError) -> Configuration
  {
    var environment = ToolEnvironment(arguments: arguments)
    environment.stderrIsTerminal = stderrIsTerminal
    return try configure(try OptionScanner.scan(arguments, options), environment: environment)
  }
}

// `main()` and `run(environment:)` are inlinable so that each tool's module specializes and
// optimizes its whole call chain, as when its main.swift called it directly: as a plain call
// into this module, notif-parse's hot path was inlined differently (0.4% more instructions).
extension ToolCommand {
  /// Runs the tool in this process: reads its environment once (`ToolEnvironment.current()`),
  /// writes through checked writers to standard output and standard error, and returns the
  /// exit status, for `main.swift` to exit with.
  @inlinable public static func main() -> ExitStatus {
    // A pipe to the next stage gets 1 MiB too, as the tools' inputs do: the stage that reads
    // it need not be one of ours (jq, gzip, cat), and a 128 KiB write to a 64 KiB pipe waits.
    InputFile.widenPipe(STDOUT_FILENO)
    var stdout = OutputWriter(fd: STDOUT_FILENO, name: "<stdout>")
    var stderr = OutputWriter(fd: STDERR_FILENO, name: "<stderr>", bufferSize: 4096)
    return run(environment: .current(), stdout: &stdout, stderr: &stderr)
  }

  /// Runs the command line of `environment` and returns the exit status: `--help` or
  /// `--version` answered, a usage error reported (exit 2), or what `run` returns.
  @inlinable public static func run(
    environment: ToolEnvironment, stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    let configuration: Configuration
    do {
      let scanned = try OptionScanner.scan(environment.arguments, options)
      if let status = tool.answerHelpOrVersion(scanned, stdout: &stdout, stderr: &stderr) {
        return status
      }
      tool.warnDeprecated(scanned, stderr: &stderr)
      configuration = try configure(scanned, environment: environment)
    } catch {
      return tool.reportUsageError(error, stderr: &stderr)
    }
    return run(configuration, environment: environment, stdout: &stdout, stderr: &stderr)
  }
}
