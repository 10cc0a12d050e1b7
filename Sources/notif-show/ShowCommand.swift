import NotifCLI
import NotifJSON
import NotifListing
import NotifLocalization
import NotifModel

/// notif-show's command line: options, the run over the inputs, and the exit status.
struct ShowCommand: ToolCommand {
  static let name = "notif-show"
  static let usage =
    "usage: notif-show [-h] [--all-pushes] [--apps file] [--ascii] [--categories file]\n"
    + "                  [--color auto|always|never] [--format text|github|json|sarif] [--quiet]\n"
    + "                  [--max-errors n] [--[no-]progress] [--hidden-previews] [-j jobs]\n"
    + "                  [--last-seen time] [--limit n] [--link-key path] [--link-scheme schemes]\n"
    + "                  [--locale locale] [--max-record-bytes size] [--now time] [--oneline]\n"
    + "                  [--order feed|chat] [--sort time|relevance] [--to text|html|email]\n"
    + "                  [--tz zone] [--width columns] [file ...]\n"

  static let help =
    usage + """

      Read notification records, group objects or digest objects and show them as a person
      sees them: the feed or chat view for a terminal, a web page, or a page to mail. See
      notif-show(1).

            --order order         feed: newest first (the default); chat: newest last
            --sort key            rank by time (the default) or by relevance, then time
            --limit n             show only the first n items of the view; say how many older
            --now time            reference for relative times (RFC 3339 or @epoch)
            --last-seen time      mark as new only records created after time
            --oneline             one line per notification, as git log --oneline
            --locale locale       the language of the day names (Today, Yesterday; default en)
            --link-scheme schemes link a payload's URL of these app schemes too (https and
                                  http always; javascript, data and vbscript never)
            --link-key path       the payload member with the URL a tap opens, as data.url,
                                  for a push whose service has no field of its own for it
            --categories file     category registry (notif-categories(5)): action buttons
            --apps file           apps file (notif-apps(5)): each app's name and icon
            --hidden-previews     show placeholders instead of titles and bodies
        -j, --jobs n              threads that read a large file (default: cores, at most 2)
            --all-pushes          show pushes the device does not list (background, ...) too
            --to format           text for a terminal (the default), html (one web page) or
                                  email (one page a mail client shows: inline styles, tables)
            --tz zone             write times in this time zone (default UTC), as Europe/Berlin
            --width columns       line width of the text (default: the terminal's, COLUMNS, 80)
            --color when          color the text and the diagnostics: auto (each that is a
                                  terminal, without NO_COLOR; the default), always or never
            --format format       diagnostics as text (default), github, json or sarif
            --ascii               draw marks and the ellipsis in ASCII (... for …)
            --max-record-bytes size
                                  longest JSON text accepted (default 64m)

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// The narrowest `--width`: room for the marks, the time and a few columns of text.
  static let minimumWidth = 20
  /// The widest `--width`.
  static let maximumWidth = 1000

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> ShowOptions
  {
    var options = ShowOptions(now: try environment.now(scanned))
    options.files = scanned.files
    options.view = try ListingOptions.order(scanned) ?? options.view
    options.ranking = try ListingOptions.ranking(scanned) ?? options.ranking
    // Before, --format said what to write; it is the diagnostics' form now, as in every tool.
    if let old = scanned.last("format"), ShowOptions.Format(rawValue: old) != nil, old != "text" {
      throw UsageError(
        "--format: '\(old)' is not text, github, json or sarif: --format is the diagnostics' form;"
          + " what to write is '--to \(old)'")
    }
    if let format = scanned.last("to") {
      guard let chosen = ShowOptions.Format(rawValue: format) else {
        throw UsageError("--to: '\(format)' is not text, html or email")
      }
      options.format = chosen
    }
    options.limit = try ListingOptions.limit(scanned, option: "limit")
    options.lastSeen = try ListingOptions.lastSeen(scanned)
    options.width = try width(scanned, environment)
    options.color = try ColorChoice(scanned).resolve(
      isTerminal: environment.stdoutIsTerminal, noColor: environment.noColor)
    options.ascii = scanned.has("ascii")
    options.hiddenPreviews = scanned.has("hidden-previews")
    options.allPushes = ListingOptions.allPushes(scanned)
    options.categoriesPath = scanned.last("categories")
    options.appsPath = scanned.last("apps")
    if let bytes = try CommandLineTool.maxRecordBytes(scanned) {
      options.maxRecordBytes = bytes
    }
    options.jobs = try CommandLineTool.jobs(scanned) ?? CommandLineTool.defaultJobs
    options.zone = try ZoneRules.option(scanned)
    options.oneline = scanned.has("oneline")
    if options.oneline && options.format != .text {
      throw UsageError(
        "--oneline: it is a view for a terminal; it does not go with --to \(options.format)")
    }
    options.dayNames = try CLDRLocale(scanned.last("locale") ?? "en").relativeDays
    options.tapLink = try TapLink(
      schemes: scanned.all("link-scheme"), key: scanned.last("link-key"))
    options.reporting = try ReportOptions(scanned, environment: environment)
    return options
  }

  /// `--width`, else the terminal's width, else `COLUMNS` when it is a width, else 80.
  static func width(_ scanned: ScannedArguments, _ environment: ToolEnvironment)
    throws(UsageError) -> Int
  {
    let range = minimumWidth...maximumWidth
    if let text = scanned.last("width") {
      guard let value = OptionScanner.wholeNumber(text), range.contains(value) else {
        throw UsageError(
          "--width: '\(text)' is not a whole number from \(minimumWidth) to \(maximumWidth)")
      }
      return value
    }
    if let columns = environment.terminalColumns {
      return min(max(columns, minimumWidth), maximumWidth)
    }
    if let text = environment.columnsVariable, let value = OptionScanner.wholeNumber(text),
      value > 0
    {
      return min(max(value, minimumWidth), maximumWidth)
    }
    return 80
  }

  static func run(
    _ options: ShowOptions, environment: ToolEnvironment, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus {
    var run = ShowRun(
      options: options,
      reporter: Reporter(program: name, options: options.reporting, environment: environment))
    return run.execute(stdout: &stdout, stderr: &stderr)
  }
}

/// What the command line asked for.
struct ShowOptions: Sendable {
  /// What is written.
  enum Format: String {
    /// Lines for a terminal.
    case text
    /// One HTML page.
    case html
    /// One HTML page for a mail (`EmailPage`).
    case email
  }

  var now: Timestamp
  var files: [String] = ["-"]
  var view = ListOrder.feed
  var ranking = Ranking.time
  var format = Format.text
  var limit: Int? = nil
  var lastSeen: Timestamp? = nil
  var width = 80
  var color = false
  var ascii = false
  var hiddenPreviews = false
  /// `--all-pushes`: show what the device does not list too.
  var allPushes = false
  var categoriesPath: String? = nil
  var appsPath: String? = nil
  var maxRecordBytes = CommandLineTool.defaultMaxRecordBytes
  /// Threads that read a large file (`--jobs`).
  var jobs = CommandLineTool.defaultJobs
  /// `--tz`: the time zone the times are written in.
  var zone = ZoneRules.utc
  /// `--oneline`: one line a notification.
  var oneline = false
  /// CLDR's names of today and yesterday in `--locale`, for the day sections.
  var dayNames = (today: "Today", yesterday: "Yesterday")
  /// `--link-scheme` and `--link-key`: which payload URLs a tap opens.
  var tapLink = TapLink()
  /// How the run talks on standard error (`--quiet`, `--max-errors`, `--color`,
  /// `--progress`); its diagnostics are always text.
  var reporting = ReportOptions()
}
