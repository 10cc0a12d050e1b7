import NotifCLI
import NotifJSON
import NotifLocalization
import NotifModel
import NotifPush
import NotifSweep

/// notif-parse's command line: options, the loop over inputs, and the exit status.
struct ParseCommand: RunningToolCommand {
  static let name = "notif-parse"
  static let usage =
    "usage: notif-parse [-clsh] [--app-name name] [--categories file] [--default-app bundle-id]\n"
    + "                   [--select rules] [--ignore rules] [--config file | --no-config]\n"
    + "                   [--fix | --diff] [--unsafe-fixes]\n"
    + "                   [--format text|github|json|sarif] [--quiet] [--max-errors n]\n"
    + "                   [--color auto|always|never] [--[no-]progress] [-j jobs] [--locale locale]\n"
    + "                   [--dense] [--max-record-bytes size] [--now time]\n"
    + "                   [--platform ios|android|web]\n"
    + "                   [--push-type type] [--store file [-n] [--verbose]] [--strings path]\n"
    + "                   [file ...]\n"
    + "       notif-parse --explain rule\n"

  static let help =
    usage + """

      Read push messages (APNs payloads, FCM, Web Push, Amazon SNS and Expo messages; NDJSON,
      whole JSON files such as .apns, or concatenated JSON) and write one notification record
      per message as NDJSON. See notif-parse(1) and notif(5).

        -c, --check               write only diagnostics and a count line; no records
            --explain rule        print a rule of notif-rules(7), by its id or code, and exit
        -s, --strict              treat warnings as errors
            --select rules        check only these rules: ids or codes of notif-rules(7),
                                  separated by commas; may be repeated
            --ignore rules        do not check these rules; may be repeated
            --config file         read select and ignore from file (default: the nearest
                                  .notif-parse.json, here or above)
            --no-config           read no configuration file
            --fix                 repair the files in place where a rule's fix is safe,
                                  then report what remains (standard input to output)
            --diff                write those repairs as a unified diff; change no file
            --unsafe-fixes        with --fix or --diff, also the fixes that change what
                                  the device does (a badge "5" becomes 5)
        -l, --lint                also check the copy: length, punctuation, app name, repeats
            --app-name name       the app's display name, for --lint
            --default-app bundle-id
                                  app for payloads that name none
            --categories file     category registry (notif-categories(5)) to check against
            --strings path        .stringsdict, .strings, .xcstrings, or a folder of
                                  <lang>.lproj, for the registry's plural forms; may be
                                  repeated (earlier ones win)
            --locale locale       locale of those plural forms (default en)
            --format format       diagnostics as text (default), github, json or sarif
        -j, --jobs n              threads that parse a large file (default: cores, at most 2)
            --dense               write every field of a record, null ones too; without it a
                                  field left out is null (notif(5))
            --max-record-bytes size
                                  longest JSON text accepted (default 64m)
            --now time            created_at for inputs without received_at (RFC 3339 or @epoch)
            --platform platform   the override block an FCM or SNS message shows: ios
                                  (default), android or web
            --push-type type      push type for inputs without an apns-push-type header
            --store file          append the records to an inbox file under its lock, a
                                  batch at a time, instead of writing them
        -n, --dry-run             with --store: write the records that would be appended
                                  to standard output; leave the store alone
            --verbose             with --store: end with how many records were appended,
                                  and the time; with --fix, how many problems were fixed
                                  (default: when standard error is a terminal)

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// What runs once the command line is read.
  typealias Run = ParseRun

  /// What the command line asked for.
  struct Configuration {
    var check = false
    var strict = false
    var lint = false
    var appName: String?
    var categoriesPath: String?
    /// `--strings`: the strings files the registry's formats are localized through, for the
    /// plural check (`PluralCheck`).
    var stringsPaths: [String] = []
    /// `--locale`: the locale of that check.
    var locale: CLDRLocale?

    /// The locale of the plural check: `--locale`, else English, the development language of
    /// the registry's formats.
    var pluralLocale: CLDRLocale { locale ?? FormatBook.english }
    /// How the run talks on standard error (`ReportOptions`): `--format`, `--quiet`,
    /// `--max-errors`, `--color`, `--progress`.
    var reporting = ReportOptions()
    /// `--format text|github|json`: the form of the diagnostics.
    var format: DiagnosticFormat {
      get { reporting.format }
      set { reporting.format = newValue }
    }
    var maxRecordBytes = CommandLineTool.defaultMaxRecordBytes
    var jobs = CommandLineTool.defaultJobs
    /// `--store`: the inbox the records are appended to, instead of standard output.
    var storePath: String?
    /// `-n`/`--dry-run`, only with `--store`: the records that would be appended are written
    /// to standard output, and the store is not touched (no lock file, no append).
    var dryRun = false
    /// Whether to end with one line on standard error that says how many records were
    /// appended to the store: with `--store`, and `--verbose` or standard error a terminal
    /// without `--quiet`, as the sweeps do.
    var verbose = false
    /// `--explain ID|CODE`: print the rules it names (notif-rules(7)) instead of reading.
    var explain: String?
    /// `--select`: the rules to check, which replace the configuration file's; nil when not
    /// given.
    var select: [Rule]?
    /// `--ignore`: rules not to check, besides the configuration file's.
    var ignore: [Rule] = []
    /// `--config`: the configuration file; nil to look for `.notif-parse.json`.
    var configPath: String?
    /// `--no-config`: read none.
    var noConfig = false
    /// `--fix` or `--diff`: repair the files (`FixRun`) instead of writing records.
    var fix: FixRun.Mode?
    /// `--unsafe-fixes`: with `fix`, the unsafe repairs too.
    var unsafeFixes = false
    var defaults: InputDefaults
    var files: [String] = []
  }

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  {
    let now = try environment.now(scanned)
    var configuration = Configuration(
      defaults: InputDefaults(app: scanned.last("default-app"), pushType: nil, now: now))
    configuration.explain = scanned.last("explain")
    if let topic = configuration.explain {
      guard scanned.operands.isEmpty else {
        throw UsageError("--explain reads no input: give it alone")
      }
      guard Explain.text(topic) != nil else {
        throw UsageError("--explain: " + Explain.nearest(topic))
      }
    }
    configuration.check = scanned.has("check")
    configuration.strict = scanned.has("strict")
    if scanned.has("select") {
      configuration.select = try RuleSelection.rules(scanned.all("select"), option: "select")
    }
    configuration.ignore = try RuleSelection.rules(scanned.all("ignore"), option: "ignore")
    configuration.configPath = scanned.last("config")
    configuration.noConfig = scanned.has("no-config")
    if configuration.noConfig && configuration.configPath != nil {
      throw UsageError("--config and --no-config contradict each other: give one")
    }
    if configuration.configPath?.isEmpty == true {
      throw UsageError("--config: the file name is empty")
    }
    switch (scanned.has("fix"), scanned.has("diff")) {
    case (true, true): throw UsageError("--fix and --diff contradict each other: give one")
    case (true, false): configuration.fix = .write
    case (false, true): configuration.fix = .diff
    case (false, false): break
    }
    configuration.unsafeFixes = scanned.has("unsafe-fixes")
    if configuration.unsafeFixes && configuration.fix == nil {
      throw UsageError("--unsafe-fixes needs --fix or --diff: it says which fixes they make")
    }
    if let fix = configuration.fix, configuration.check {
      throw UsageError(
        fix == .diff
          ? "--check and --diff cannot be used together: --diff writes the repairs, not diagnostics"
          : "--check and --fix cannot be used together: --fix reports what remains as --check"
            + " does, on standard error")
    }
    if configuration.fix != nil && scanned.last("store") != nil {
      throw UsageError("--store and --fix or --diff cannot be used together: they write no records")
    }
    configuration.lint = scanned.has("lint")
    configuration.appName = scanned.last("app-name")
    configuration.categoriesPath = scanned.last("categories")
    configuration.stringsPaths = scanned.all("strings")
    if let tag = scanned.last("locale") { configuration.locale = try CLDRLocale(tag) }
    if configuration.categoriesPath == nil
      && (!configuration.stringsPaths.isEmpty || configuration.locale != nil)
    {
      throw UsageError(
        "--strings and --locale localize the formats of --categories: give it too")
    }
    configuration.reporting = try ReportOptions(scanned, environment: environment)
    if configuration.check {
      // The diagnostics are the output then: colored when standard output is a terminal, so
      // that `notif-parse --check > report.txt` writes no escape sequences into the file.
      configuration.reporting.color = try ColorChoice(scanned).resolve(
        isTerminal: environment.stdoutIsTerminal, noColor: environment.noColor)
    }
    if let type = scanned.last("push-type") {
      guard APNsReader.pushTypes.contains(type) else {
        throw UsageError(
          "--push-type: '\(type)' is not one of \(APNsReader.pushTypes.sorted().joined(separator: ", "))"
        )
      }
      configuration.defaults.pushType = type
    }
    configuration.defaults.dense = scanned.has("dense")
    if let name = scanned.last("platform") {
      guard let platform = Platform(rawValue: name) else {
        throw UsageError("--platform: '\(name)' is not one of ios, android, web")
      }
      configuration.defaults.platform = platform
    }
    if let bytes = try CommandLineTool.maxRecordBytes(scanned) {
      configuration.maxRecordBytes = bytes
    }
    if let jobs = try CommandLineTool.jobs(scanned) {
      configuration.jobs = jobs
    }
    if let app = configuration.defaults.app, app.isEmpty {
      throw UsageError("--default-app: the bundle identifier is empty")
    }
    if let store = scanned.last("store") {
      guard !store.isEmpty else { throw UsageError("--store: the file name is empty") }
      guard !configuration.check else {
        throw UsageError("--store and --check cannot be used together: --check writes no records")
      }
      configuration.storePath = store
      // Checked in a dry run too, which must fail as the run it shows would.
      try StoreAppender.checkFiles(store: store, reading: scanned.files)
      configuration.dryRun = scanned.has("dry-run")
      configuration.verbose = configuration.reporting.verbose
    } else if scanned.has("dry-run") {
      throw UsageError("--dry-run needs --store: without it no file is changed")
    } else if scanned.has("verbose") && configuration.fix != .write {
      throw UsageError(
        "--verbose needs --store or --fix: it says what was appended to the store or fixed")
    }
    configuration.files = scanned.files
    return configuration
  }
}
