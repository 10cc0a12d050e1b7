import NotifCLI
import NotifCategories
import NotifJSON
import NotifListing
import NotifLocalization
import NotifModel
import NotifSweep

/// notif-digest's command line: options, configuration, and the exit status.
struct DigestCommand: ToolCommand {
  static let name = "notif-digest"
  static let usage =
    "usage: notif-digest [-hn] --window duration [--align time] | --at hh:mm [--tz zone]\n"
    + "                    [--actor path] [--all-pushes] [--categories file] [--flush]\n"
    + "                    [--format text|github|json|sarif] [--quiet] [--max-errors n]\n"
    + "                    [--color auto|always|never] [--[no-]progress] [--item-end first|last]\n"
    + "                    [--item-limit n] [--key paths] [--locale locale] [--lookback duration]\n"
    + "                    [--max-args k] [--max-items n] [--max-record-bytes size] [--now time]\n"
    + "                    [--strings path] [--store file [--out file] [--missing-ok]\n"
    + "                    [--wait seconds] [--verbose] | file ...]\n"
    + "       notif-digest --merge [-h] [--merge-unread] [--categories file]\n"
    + "                    [--format text|github|json|sarif] [--quiet] [--max-errors n]\n"
    + "                    [--color auto|always|never] [--[no-]progress] [--locale locale]\n"
    + "                    [--max-args k] [--max-record-bytes size] [--strings path] [file ...]\n"

  static let help =
    usage + """

      Turn many notification records of one key into one digest per key and window, as a
      filter or from a store, marking each record that went into a digest. See
      notif-digest(1) and the "Digest objects" section of notif(5).

      Windows (one of --window and --at):
            --window duration     tumbling windows of this length (1h, 1d), aligned to --align
            --align time          where windows start (default 1970-01-01T00:00:00Z)
            --at hh:mm            every day at these local times (08:00,18:00): all since the
                                  last one
            --tz zone             the time zone of --at (default UTC), as Europe/Berlin
            --lookback duration   pass a record through at once after a quiet period this long
            --max-items n         close a digest once it holds n records
            --flush               write the digests of windows still open too
            --now time            the time windows close by (RFC 3339 or @epoch)
      What a digest holds:
            --key paths           what makes records one key: record keys or payload paths,
                                  separated by commas (default app,thread_id)
            --actor path          the record value that names an actor (default summary_arg)
            --item-end end        list the first (default) or last records of a digest
            --item-limit n        list at most n records of each digest
            --all-pushes          digest pushes the device does not list (background, ...) too
      Texts:
            --categories file     category registry (notif-categories(5)): digest formats
            --strings path        .stringsdict, .strings, .xcstrings, or a folder of
                                  <lang>.lproj; may be repeated (earlier ones win)
            --locale locale       BCP 47 or POSIX locale (default en)
            --max-args k          name at most k actors, then "N others"
      Digests of digests:
            --merge               read digest objects and merge those of one key and window
            --merge-unread        with --merge: merge every unread digest of a key into one
      A store, from cron:
            --store file          digest the records of this store file in place, under its
                                  lock, and mark them digested_at
        -n, --dry-run             write the digests that would be written; change nothing
            --out file            append the digests to this file, synced before the store
                                  is marked (default: standard output)
            --missing-ok          with --store: a missing store is nothing to digest (exit 0)
            --wait seconds        with --store: wait this long for the lock (default 0)
            --verbose             with --store: end with what was digested and kept, and the
                                  time (default: when standard error is a terminal)
            --format format       diagnostics as text (default), github, json or sarif
            --max-record-bytes size
                                  longest JSON text accepted (default 64m)

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// The options of the texts.
  struct TextOptions {
    var categoriesPath: String? = nil
    var stringsPaths: [String] = []
    var locale: CLDRLocale
    var maxArguments: Int? = nil
  }

  /// What the command line asked for.
  struct Configuration {
    var digest: DigestOptions
    var text: TextOptions
    /// `--dry-run`, `--store`, `--missing-ok`, `--wait`, the limit and the file operands; in
    /// place, its archive is where the digests go: `--out`, or the outbox.
    var sweep = SweepOptions()
    /// `--out`.
    var out: String? = nil
    /// In place: the store's outbox, `STORE.digests`.
    var outbox: String? = nil
    var merge = false
    var unread = false
  }

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  {
    var text = TextOptions(locale: try CLDRLocale(scanned.last("locale") ?? "en"))
    text.categoriesPath = scanned.last("categories")
    text.stringsPaths = scanned.all("strings")
    if let limit = scanned.last("max-args") {
      text.maxArguments = try FieldLimits.option("max-args", limit, in: FieldLimits.positive)
    }
    var digest = DigestOptions(actor: try RecordPath("summary_arg", option: "--actor"))
    var configuration = Configuration(digest: digest, text: text)
    configuration.merge = scanned.has("merge")
    configuration.unread = scanned.has("merge-unread")
    if configuration.unread && !configuration.merge {
      throw UsageError("--merge-unread goes with --merge: it merges the unread digests of a key")
    }
    if scanned.has("verbose") && scanned.last("store") == nil {
      throw UsageError("--verbose goes with --store: it says what a run did to the store")
    }
    if configuration.merge {
      let digesting = [
        "window", "align", "at", "tz", "lookback", "max-items", "flush", "now", "key", "actor",
        "item-end", "item-limit", "all-pushes", "store", "out", "dry-run", "missing-ok", "wait",
      ]
      if let given = digesting.first(where: { name in scanned.options.contains { $0.name == name } }
      ) {
        throw UsageError(
          "--\(given) cannot be used with --merge: digest objects carry the options that made them")
      }
      configuration.sweep.files = scanned.files
      configuration.sweep.reporting = try ReportOptions(scanned, environment: environment)
      configuration.sweep.maxRecordBytes =
        try CommandLineTool.maxRecordBytes(scanned) ?? configuration.sweep.maxRecordBytes
      return configuration
    }

    // The windows.
    let window = scanned.last("window")
    let at = scanned.all("at")
    switch (window, at.isEmpty) {
    case (nil, true):
      throw UsageError("give the windows: --window duration, or --at hh:mm")
    case (_?, false):
      throw UsageError("--window and --at cannot be used together: give one kind of window")
    case (let window?, true):
      if scanned.last("tz") != nil {
        throw UsageError(
          "--tz goes with --at: --window windows are the same length everywhere; "
            + "for days in a time zone, give --at 00:00 --tz zone")
      }
      let seconds = try duration("window", window)
      guard seconds <= WindowRule.longest else {
        throw UsageError("--window: '\(window)' is longer than 100 years")
      }
      var align = Timestamp(seconds: 0)
      if let text = scanned.last("align") {
        do {
          align = try Timestamp(argument: text)
        } catch {
          throw UsageError("--align: \(error.message)")
        }
      }
      digest.rule = .tumbling(seconds: seconds, align: align)
    case (nil, false):
      if scanned.last("align") != nil {
        throw UsageError("--align goes with --window: --at windows start at its times")
      }
      let times = try WindowRule.times(at)
      digest.rule = .schedule(times: times, zone: try ZoneRules.option(scanned))
    }
    if let lookback = scanned.last("lookback") {
      let seconds = try duration("lookback", lookback)
      guard seconds <= WindowRule.longest else {
        throw UsageError("--lookback: '\(lookback)' is longer than 100 years")
      }
      digest.lookback = seconds
    }
    if let maxItems = scanned.last("max-items") {
      digest.maxItems = try FieldLimits.option("max-items", maxItems, in: FieldLimits.positive)
    }
    if let limit = scanned.last("item-limit") {
      digest.limit = try FieldLimits.option("item-limit", limit, in: FieldLimits.positive)
    }
    if let items = scanned.last("item-end") {
      guard let end = ItemsEnd(rawValue: items) else {
        throw UsageError("--item-end: '\(items)' is not first or last")
      }
      digest.items = end
    }
    digest.flush = scanned.has("flush")
    digest.allPushes = ListingOptions.allPushes(scanned)
    digest.key = try RecordPath.list(scanned.all("key"))
    if digest.key.isEmpty {
      digest.key = try RecordPath.list(["app,thread_id"])
    }
    if let actor = scanned.last("actor") {
      digest.actor = try RecordPath(actor, option: "--actor")
    }
    digest.now = try environment.now(scanned)
    configuration.digest = digest

    // The store, and where its digests go.
    var sweep = try SweepOptions(
      scanned, storeVerb: "digests", environment: environment,
      reading: text.stringsPaths.map { ("--strings", $0) }
        + (text.categoriesPath.map { [("--categories", $0)] } ?? []))
    configuration.out = scanned.last("out")
    if let out = configuration.out {
      guard sweep.store != nil else {
        throw UsageError(
          "--out goes with --store: as a filter, the digests go to standard output")
      }
      guard !out.isEmpty else { throw UsageError("--out: the file name is empty") }
    }
    if sweep.dryRun && sweep.store == nil {
      throw UsageError("--dry-run goes with --store: a filter changes nothing anyway")
    }
    // The account at the end is of a store: a filter's digests are its output.
    if sweep.store == nil { sweep.verbose = false }
    if let target = sweep.storeTarget {
      let outbox = target + ".digests"
      configuration.outbox = outbox
      sweep.archive = configuration.out ?? outbox
      sweep.archiveName = configuration.out == nil ? "outbox" : "output file"
      sweep.archiveOption = configuration.out == nil ? "the outbox" : "--out"
      // The outbox of runs without --out must be no other file of this one.
      try sweep.checkFiles(
        reading: configuration.out == nil ? [] : [("the store's outbox", outbox)],
        standardOutput: RunFile(role: "standard output", fd: STDOUT_FILENO, isWritten: true))
    }
    configuration.sweep = sweep
    return configuration
  }

  /// A duration option: `1h`, `1d12h`; more than zero.
  static func duration(_ name: String, _ text: String) throws(UsageError) -> Int64 {
    let length: TimeToLive
    do {
      length = try TimeToLive(text)
    } catch {
      throw UsageError("--\(name): \(error.message)")
    }
    guard length.seconds > 0 else { throw UsageError("--\(name): '\(text)' is no time at all") }
    return length.seconds
  }

  static func run(
    _ configuration: Configuration, environment: ToolEnvironment, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) -> ExitStatus {
    // The texts' warnings go with the run's diagnostics (through the sweep's reporter), so
    // that --max-errors counts them all.
    let prepared: (texts: DigestTexts, warnings: [Diagnostic])
    switch prepareTexts(configuration.text) {
    case .success(let texts):
      prepared = texts
    case .failure(let problem):
      var reporter = Reporter(
        program: name, options: configuration.sweep.reporting, environment: environment)
      reporter.report(problem, &stderr)
      reporter.finish(&stderr)
      return .failure
    }
    let warnings = prepared.warnings
    if configuration.merge {
      var run = DigestMergeRun(
        configuration: configuration, texts: prepared.texts, environment: environment)
      return run.execute(warnings: warnings, stdout: &stdout, stderr: &stderr)
    }
    var run = DigestRun(configuration: configuration, texts: prepared.texts, warnings: warnings)
    return run.execute(environment: environment, stdout: &stdout, stderr: &stderr)
  }

  /// Reads the registry and the strings files, and prepares the texts.
  static func prepareTexts(_ options: TextOptions) -> Result<
    (texts: DigestTexts, warnings: [Diagnostic]), Diagnostic
  > {
    do throws(Diagnostic) {
      let sources = try TextSources(
        categories: options.categoriesPath, strings: options.stringsPaths,
        locale: options.locale)
      let texts = try DigestTexts(sources: sources, maxArguments: options.maxArguments)
      return .success((texts, sources.warnings + texts.warnings))
    } catch {
      return .failure(error)
    }
  }
}
