import NotifCLI
import NotifJSON
import NotifListing
import NotifModel

/// notif-group's command line: options, the run over the inputs, and the exit status.
struct GroupCommand: ToolCommand {
  static let name = "notif-group"
  static let usage =
    "usage: notif-group [-h] [--all-pushes] [--by thread|app|none] [--format text|github|json|sarif]\n"
    + "                   [--quiet] [--max-errors n] [--color auto|always|never] [--[no-]progress]\n"
    + "                   [--item-limit n] [-j jobs] [--last-seen time] [--max-record-bytes size]\n"
    + "                   [--merge] [--no-items] [--order feed|chat] [--sort time|relevance]\n"
    + "                   [file ...]\n"

  static let help =
    usage + """

      Read notification records (notif(5)) and write one group object per group, leading
      record first: the records of one app and thread, as Notification Center stacks them.
      See notif-group(1) and the "Group objects" section of notif(5).

            --all-pushes          group pushes the device does not list (background, ...) too
            --by key              group by thread (app and thread_id, the default), app or none
            --format format       diagnostics as text (default), github, json or sarif
            --item-limit n        keep at most the first n items of each group in feed order
        -j, --jobs n              threads that group a large file (default: cores, at most 2)
            --last-seen time      count as new only records created after time (RFC 3339 or @epoch)
            --max-record-bytes size
                                  longest JSON text accepted (default 64m)
            --merge               read group objects and merge those of the same group
            --no-items            write only counts and the leading record (items: null)
            --order order         list items newest first (feed, the default) or last (chat)
            --sort key            rank by time (the default) or by relevance, then time

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// What the command line asked for: the options, the file operands, and how the run talks
  /// on standard error (`--format`, `--quiet`, `--max-errors`, `--color`, `--progress`).
  struct Configuration {
    var options: GroupOptions
    var files: [String]
    var reporting = ReportOptions()
  }

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  {
    Configuration(
      options: try groupOptions(scanned), files: scanned.files,
      reporting: try ReportOptions(scanned, environment: environment))
  }

  static func run(
    _ configuration: Configuration, environment: ToolEnvironment, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus {
    var run = GroupRun(
      options: configuration.options,
      reporter: Reporter(
        program: name, options: configuration.reporting, environment: environment))
    return run.execute(files: configuration.files, stdout: &stdout, stderr: &stderr)
  }

  static func groupOptions(_ scanned: ScannedArguments) throws(UsageError) -> GroupOptions {
    var options = GroupOptions()
    options.merge = scanned.has("merge")
    if let by = scanned.last("by") {
      guard let chosen = GroupOptions.Key(rawValue: by) else {
        throw UsageError("--by: '\(by)' is not thread, app or none")
      }
      options.by = chosen
    }
    options.order = try ListingOptions.order(scanned) ?? options.order
    options.ranking = try ListingOptions.ranking(scanned) ?? options.ranking
    options.limit = try ListingOptions.limit(scanned, option: "item-limit")
    let spelled: [(String, GroupField.GroupingEntry)] = [
      ("by", .by), ("sort", .sort), ("order", .order), ("item-limit", .limit),
    ]
    options.given = Set(spelled.filter { scanned.last($0.0) != nil }.map(\.1))
    options.allPushes = ListingOptions.allPushes(scanned)
    if options.allPushes { options.given.insert(.allPushes) }
    options.items = !scanned.has("no-items")
    if !options.items && options.limit != nil {
      throw UsageError("--item-limit and --no-items cannot be used together")
    }
    if options.merge && scanned.last("last-seen") != nil {
      throw UsageError(
        "--last-seen cannot be used with --merge: group objects carry their new_count")
    }
    options.lastSeen = try ListingOptions.lastSeen(scanned)
    options.jobs = try CommandLineTool.jobs(scanned) ?? CommandLineTool.defaultJobs
    options.maxRecordBytes =
      try CommandLineTool.maxRecordBytes(scanned) ?? CommandLineTool.defaultMaxRecordBytes
    return options
  }
}

/// What the command line asked for.
struct GroupOptions: Sendable {
  /// What makes two records belong to one group.
  enum Key: String, Sendable {
    /// The app and the thread: Notification Center's automatic grouping.
    case thread
    /// The app only: the user setting "By App".
    case app
    /// Nothing: one group per record.
    case none
  }

  var by = Key.thread
  var order = ListOrder.feed
  var ranking = Ranking.time
  var limit: Int? = nil
  var items = true
  var lastSeen: Timestamp? = nil
  var merge = false
  /// `--all-pushes`: group the records the device does not list too (`DeviceListing`).
  var allPushes = false
  var maxRecordBytes = CommandLineTool.defaultMaxRecordBytes
  /// Threads that group a large file (`--jobs`).
  var jobs = CommandLineTool.defaultJobs
  /// Which of `--by`, `--sort`, `--order`, `--item-limit` and `--all-pushes` the command line gave:
  /// with `--merge`, the others come from the group objects.
  var given: Set<GroupField.GroupingEntry> = []
}
