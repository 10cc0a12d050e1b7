import NotifJSON
import NotifModel
import NotifSweep

/// notif-expire's command line: options, the policy file, and the exit status.
struct ExpireCommand {
  static let name = "notif-expire"
  static let version = "0.1.0"
  static let usage =
    "usage: notif-expire -p policy [-nh] [--archive file] [--now time] [--[no-]progress]\n"
    + "                    [--store file [--wait seconds] | file ...]\n"

  static let help =
    usage + """

      Remove expired, read-expired, over-cap and collapsed notification records, as a filter
      or in place on a store file. See notif-expire(1) and notif(5).

        -p, --policy file         time to live per category (format in notif-expire(1))
        -n, --dry-run             write what would be removed, with reasons; change nothing
            --archive file        append every removed record, with removed_at and
                                  removed_reason
            --now time            the time to expire against (RFC 3339 or @epoch)
            --store file          sweep this store file in place, under its lock
            --wait seconds        with --store: wait this long for the lock (default 0)
            --progress            show progress on standard error (default: when a terminal)
            --no-progress         do not show progress
        -h, --help                show this help and exit
            --version             show the version and exit

      """

  static let tool = CommandLineTool(name: name, version: version, usage: usage, help: help)

  static let options: [OptionSpec] = [
    .value("policy", "p"), .flag("dry-run", "n"), .value("archive"), .value("now"),
    .value("store"), .value("wait"), .flag("progress"), .flag("no-progress"),
    .flag("help", "h"), .flag("version"),
  ]

  /// What the command line asked for.
  struct Configuration {
    var policyPath = ""
    var now = Timestamp(seconds: 0)
    /// `--dry-run`, `--archive`, `--store`, `--wait`, progress and the file operands.
    var sweep = SweepOptions()
  }

  /// What the process gives the command: environment, clocks, whether stderr is a terminal.
  struct Environment {
    var sourceDateEpoch: String?
    var clock: () -> Timestamp
    var monotonicClock: () -> Double
    var stderrIsTerminal = false
    var pid: Int32 = 0
    var temporaryDirectory = "/tmp"
    /// The bytes of input per batch of lines; smaller only in tests.
    var batchSize = ExpireRun.batchSize
    /// The collapse marks kept in memory before they go to a temporary file; smaller only in
    /// tests.
    var collapseLogMemoryLimit = CollapseLog.defaultMemoryLimit
  }

  /// Runs the command and returns its exit status; the only output is through `stdout` and
  /// `stderr` (and, in place, the store, its lock and journal, and the archive).
  static func run(
    arguments: [String], environment: Environment, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus {
    let configuration: Configuration
    do {
      let scanned = try OptionScanner.scan(arguments, options)
      if let status = tool.answerHelpOrVersion(scanned, stdout: &stdout, stderr: &stderr) {
        return status
      }
      configuration = try configure(scanned, environment: environment)
    } catch {
      return tool.reportUsageError(error, stderr: &stderr)
    }
    let policy: ExpirePolicy
    switch loadPolicy(configuration.policyPath) {
    case .policy(let loaded): policy = loaded
    case .problem(let diagnostic):
      try? stderr.write(DiagnosticFormat.text.render(diagnostic, program: name))
      try? stderr.flush()
      return .failure
    }
    var run = ExpireRun(configuration: configuration, policy: policy, environment: environment)
    return run.execute(stdout: &stdout, stderr: &stderr)
  }

  static func configure(_ scanned: ScannedArguments, environment: Environment)
    throws(UsageError) -> Configuration
  {
    var configuration = Configuration()
    guard let policy = scanned.last("policy") else {
      throw UsageError("--policy is required: it says how long each category lives")
    }
    configuration.policyPath = policy
    configuration.now = try CommandLineTool.now(
      scanned, sourceDateEpoch: environment.sourceDateEpoch, clock: environment.clock)
    configuration.sweep = try SweepOptions(
      scanned, storeVerb: "sweeps", stderrIsTerminal: environment.stderrIsTerminal)
    return configuration
  }

  /// A policy file, read, or what is wrong with it.
  enum PolicyOutcome {
    case policy(ExpirePolicy)
    case problem(Diagnostic)
  }

  /// Loads the policy with NotifModel's `ConfigFile`, the loader of every config file.
  static func loadPolicy(_ path: String) -> PolicyOutcome {
    do {
      return .policy(
        try ConfigFile.load(path, as: "a policy", code: "BadPolicy") {
          view throws(ExpirePolicy.FormatError) in try ExpirePolicy(view)
        }.value)
    } catch {
      return .problem(error.diagnostic)
    }
  }
}
