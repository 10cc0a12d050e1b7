import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep

/// notif-expire's command line: options, the policy file, and the exit status.
struct ExpireCommand: ToolCommand {
  static let name = "notif-expire"
  static let usage =
    "usage: notif-expire -p policy [-nh] [--archive file] [--format text|github|json|sarif] [--quiet]\n"
    + "                    [--max-errors n] [--color auto|always|never] [--max-record-bytes size]\n"
    + "                    [--now time] [--[no-]progress] [--verbose] [--quarantine file]\n"
    + "                    [--store file [--missing-ok] [--wait seconds] | file ...]\n"

  static let help =
    usage + """

      Remove expired, read-expired, over-cap and collapsed notification records, as a filter
      or in place on a store file. See notif-expire(1) and notif(5).

        -p, --policy file         time to live per category (format in notif-expire(1))
        -n, --dry-run             write what would be removed, with reasons; change nothing
            --archive file        append every removed record, with removed_at and
                                  removed_reason
            --format format       diagnostics as text (default), github, json or sarif
            --now time            the time to expire against (RFC 3339 or @epoch)
            --store file          sweep this store file in place, under its lock
      \(SweepOptions.help)

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// What the command line asked for.
  struct Configuration {
    var policyPath = ""
    var now = Timestamp(seconds: 0)
    /// `--dry-run`, `--archive`, `--store`, `--wait`, progress and the file operands.
    var sweep = SweepOptions()
    /// The bytes of input per batch of lines; no option sets it: smaller only in tests.
    var batchSize = ExpireRun.batchSize
    /// The collapse marks kept in memory before they go to a temporary file; no option sets
    /// it: smaller only in tests.
    var collapseLogMemoryLimit = CollapseLog.defaultMemoryLimit
    /// The bytes of a pipe kept in memory for the passes after the first, before they go to a
    /// temporary file; no option sets it: smaller only in tests.
    var pipeMemoryLimit = PipeCopy.defaultMemoryLimit
  }

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  {
    var configuration = Configuration()
    guard let policy = scanned.last("policy") else {
      throw UsageError("--policy is required: it says how long each category lives")
    }
    configuration.policyPath = policy
    configuration.now = try environment.now(scanned)
    configuration.sweep = try SweepOptions(
      scanned, storeVerb: "sweeps", environment: environment)
    return configuration
  }

  /// Loads the policy, then sweeps.
  static func run(
    _ configuration: Configuration, environment: ToolEnvironment, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus {
    let policy: ExpirePolicy
    switch loadPolicy(configuration.policyPath) {
    case .policy(let loaded): policy = loaded
    case .problem(let diagnostic):
      var reporter = Reporter(program: name, options: configuration.sweep.reporting)
      reporter.report(diagnostic, &stderr)
      return .failure
    }
    var run = ExpireRun(configuration: configuration, policy: policy, environment: environment)
    return run.execute(stdout: &stdout, stderr: &stderr)
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
