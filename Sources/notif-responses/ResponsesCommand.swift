import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep

/// notif-responses's command line: the options, and the exit status.
struct ResponsesCommand: RunningToolCommand {
  static let name = "notif-responses"
  static let usage =
    "usage: notif-responses [-h] [--now time] [--attempt n] [--max-attempts n] [--seed n]\n"
    + "                       [--summary] [--tokens file] [--requests file]\n"
    + "                       [--prune file [-n] [--archive file] [--wait seconds] [--verbose]]\n"
    + "                       [--format text|github|json|sarif] [--quiet] [--max-errors n]\n"
    + "                       [--color auto|always|never] [--[no-]progress]\n"
    + "                       [--max-record-bytes size] [file ...]\n"

  static let help =
    usage + """

      Read what push services answered (APNs, FCM, Web Push, Expo, Amazon SNS), one answer
      a line, and write what to do about each: delivered, prune_token, retry, slow_down,
      fix_payload, fix_topic, fix_credentials or give_up. See notif-responses(1), notif(5)
      and notif-rules(7).

      Options:
            --now time            the time retries count from (RFC 3339 or @epoch)
            --attempt n           the attempt of answers that do not say (default 1)
            --max-attempts n      give up a retry from this attempt on (default 10)
            --seed n              the seed of the back-off's jitter (default 0)
            --summary             end with one line of counts per action and rule
            --tokens file         when each token was registered (token, registered_at):
                                  APNs's 410 keeps a token registered after its timestamp
            --requests file       the requests by id (request_id, request): a fix_payload
                                  answer carries notif-parse's diagnostics of its request
            --prune file          remove the pruned tokens from this token file, in place,
                                  under its lock, unless registered after the answer
        -n, --dry-run             with --prune: write the lines it would remove after the
                                  records, and change nothing
            --archive file        with --prune: append the removed tokens here (default:
                                  the token file's name and .pruned)
            --wait seconds        with --prune: wait this long for the lock (default 0)
            --verbose             with --prune: end with the tokens kept, pruned and archived,
                                  and the time (default: when standard error is a terminal)
            --format format       diagnostics as text (default), github, json or sarif
            --max-record-bytes size
                                  longest JSON text accepted (default 64m); a longer
                                  line is reported and skipped

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// What runs once the command line is read.
  typealias Run = ResponsesRun

  /// What the command line asked for.
  struct Configuration {
    var now = Timestamp(seconds: 0)
    var attempt: Int64 = 1
    var maxAttempts: Int64 = 10
    var seed: UInt64 = 0
    var summary = false
    var tokensPath: String?
    var requestsPath: String?
    /// `--prune`, `--archive` and `--wait`, as a sweep of the token file takes them.
    var prune: SweepOptions?
    /// `--format`, `--quiet`, `--max-errors`, `--color`, `--progress`: of the whole run, the
    /// prune's too.
    var reporting = ReportOptions()
    var maxRecordBytes = CommandLineTool.defaultMaxRecordBytes
    var files: [String] = ["-"]
  }

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  {
    var configuration = Configuration()
    configuration.files = scanned.files
    configuration.reporting = try ReportOptions(scanned, environment: environment)
    configuration.maxRecordBytes =
      try CommandLineTool.maxRecordBytes(scanned) ?? configuration.maxRecordBytes
    configuration.attempt = try number(scanned, "attempt", 1...1_000_000) ?? 1
    configuration.maxAttempts = try number(scanned, "max-attempts", 1...1_000_000) ?? 10
    configuration.seed = UInt64(try number(scanned, "seed", 0...Int64.max) ?? 0)
    configuration.summary = scanned.has("summary")
    configuration.tokensPath = try path(scanned, "tokens")
    configuration.requestsPath = try path(scanned, "requests")
    if let prune = try path(scanned, "prune") {
      var sweep = SweepOptions()
      sweep.store = prune
      sweep.storeOption = "--prune"
      sweep.dryRun = scanned.has("dry-run")
      sweep.archive = try path(scanned, "archive") ?? prune + ".pruned"
      sweep.wait = try SweepOptions.parseWait(scanned.last("wait"), store: prune)
      sweep.reporting = configuration.reporting
      sweep.verbose = configuration.reporting.verbose
      sweep.maxRecordBytes = configuration.maxRecordBytes
      var reading = configuration.files.filter { $0 != "-" }.map { ("the file operand", $0) }
      if let requests = configuration.requestsPath { reading.append(("--requests", requests)) }
      // The token file may be --tokens too: it is read before it is swept.
      if let tokens = configuration.tokensPath, tokens != prune {
        reading.append(("--tokens", tokens))
      }
      try sweep.checkFiles(
        reading: reading,
        standardOutput: RunFile(role: "standard output", fd: STDOUT_FILENO, isWritten: true))
      configuration.prune = sweep
    } else {
      if scanned.has("archive") { throw UsageError("--archive needs --prune") }
      if scanned.has("dry-run") {
        throw UsageError("--dry-run needs --prune: only a token file is changed")
      }
      if scanned.has("wait") {
        throw UsageError("--wait needs --prune: only a token file is locked")
      }
      if scanned.has("verbose") {
        throw UsageError("--verbose needs --prune: it says what the prune did to the token file")
      }
    }
    configuration.now = try environment.now(scanned)
    return configuration
  }

  private static func number(
    _ scanned: ScannedArguments, _ name: String, _ range: ClosedRange<Int64>
  ) throws(UsageError) -> Int64? {
    guard let text = scanned.last(name) else { return nil }
    guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text),
      range.contains(value)
    else {
      throw UsageError(
        "--\(name): '\(text)' is not a whole number from \(range.lowerBound) to \(range.upperBound)"
      )
    }
    return value
  }

  private static func path(_ scanned: ScannedArguments, _ name: String) throws(UsageError)
    -> String?
  {
    guard let path = scanned.last(name) else { return nil }
    if path.isEmpty { throw UsageError("--\(name): the file name is empty") }
    return path
  }
}
