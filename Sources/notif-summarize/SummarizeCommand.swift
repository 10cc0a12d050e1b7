import NotifCLI
import NotifJSON
import NotifListing
import NotifLocalization
import NotifModel

/// notif-summarize's command line: options, configuration, and the exit status.
struct SummarizeCommand: RunningToolCommand {
  static let name = "notif-summarize"
  static let usage =
    "usage: notif-summarize [-h] [--all-pushes] [--hidden-previews] [--categories file]\n"
    + "                       [--format text | github | json | sarif] [--quiet] [--max-errors n]\n"
    + "                       [--color auto|always|never] [--[no-]progress] [--locale locale]\n"
    + "                       [--max-args k] [--max-record-bytes size] [--profile ios12 | ios15]\n"
    + "                       [--strings path] [file ...]\n"

  static let help =
    usage + """

      Read group objects (notif-group's output) and add "summary" and "hidden_summary": the
      text iOS shows under a notification group. See notif-summarize(1).

            --categories file     category registry (notif-categories(5)): summary formats
            --strings path        .stringsdict, .strings, .xcstrings, or a folder of
                                  <lang>.lproj; may be repeated (earlier ones win)
            --locale locale       BCP 47 or POSIX locale (default en)
            --profile profile     ios12 (default: iOS 12-14 rules) or ios15
            --hidden-previews     write the hidden-previews placeholder as the summary too
            --max-args k          list at most k summary arguments, then "N others"
            --all-pushes          summarize groups the device lists nothing of (background, ...)
            --format format       diagnostics as text (default), github, json or sarif
            --max-record-bytes size
                                  longest JSON text accepted (default 64m)

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// What runs once the command line is read.
  typealias Run = SummarizeRun

  /// What the command line asked for.
  struct Configuration {
    var categoriesPath: String?
    var stringsPaths: [String] = []
    var locale: CLDRLocale
    var profile = Profile.ios12
    var hiddenPreviews = false
    /// `--all-pushes`: summarize the groups in which the device lists nothing too.
    var allPushes = false
    var maxArguments: Int?
    /// `--max-record-bytes`: the longest group object read.
    var maxRecordBytes = CommandLineTool.defaultMaxRecordBytes
    /// `--format`, `--quiet`, `--max-errors`, `--color`, `--progress`.
    var reporting = ReportOptions()
    var files: [String] = []
  }

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  {
    var configuration = Configuration(locale: try CLDRLocale(scanned.last("locale") ?? "en"))
    configuration.categoriesPath = scanned.last("categories")
    configuration.stringsPaths = scanned.all("strings")
    configuration.hiddenPreviews = scanned.has("hidden-previews")
    configuration.allPushes = ListingOptions.allPushes(scanned)
    if let profile = scanned.last("profile") {
      guard let chosen = Profile(rawValue: profile) else {
        throw UsageError("--profile: '\(profile)' is not ios12 or ios15")
      }
      configuration.profile = chosen
    }
    if let limit = scanned.last("max-args") {
      configuration.maxArguments = try FieldLimits.option(
        "max-args", limit, in: FieldLimits.positive)
    }
    configuration.reporting = try ReportOptions(scanned, environment: environment)
    if let bytes = try CommandLineTool.maxRecordBytes(scanned) {
      configuration.maxRecordBytes = bytes
    }
    configuration.files = scanned.files
    return configuration
  }
}
