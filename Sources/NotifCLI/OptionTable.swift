import NotifModel

/// One option of the notif vocabulary: its name, what it takes, the one thing it means in
/// every tool that has it, and those tools.
public struct OptionEntry: Sendable {
  /// The long form, without the dashes.
  public let long: String
  /// The one-letter form, the same in every tool that has the option.
  public let short: Character?
  /// What the option takes (`file`, `time`), or nil for a flag.
  public let argument: String?
  /// What it means, in one line: the same in every tool.
  public let meaning: String
  /// The tools that take it (`parse` for notif-parse).
  public let tools: [String]

  /// The spec the option scanner reads.
  public var spec: OptionSpec {
    argument == nil ? .flag(long, short) : .value(long, short)
  }
}

/// A name a tool took before the vocabulary was made one: either a spelling that still works
/// in that tool for a release, with a warning (`keepsMeaning`), or a name that now means
/// something else, whose old use is a usage error naming the new spelling.
public struct RenamedOption: Sendable {
  /// The old long form, without the dashes.
  public let old: String
  /// The long form that replaces it in these tools.
  public let new: String
  /// The tools that took the old name.
  public let tools: [String]
  /// Whether only the spelling changed: the old name is read as the new one, with a warning.
  /// When false the name means something else in the vocabulary (another tool's option), and
  /// rereading it silently would change what a command line does.
  public let keepsMeaning: Bool
}

/// The options of every notif tool, in one table: each name has one meaning, wherever it is
/// taken. Each tool's scanner reads its specs from here (`specs(for:)`), and the tests hold
/// its `--help`, its man page and its three completions to the same list.
///
/// Adding an option: a row here (or a tool added to a row whose meaning is the one wanted), then
/// the tool reads it, and its help, man page and completions say it (CONTRIBUTING.md, "Adding
/// or changing an option").
public enum OptionTable {
  /// Every tool, by its short name (`parse` for notif-parse).
  public static let all = [
    "parse", "group", "summarize", "expire", "mark", "responses", "show", "digest",
  ]
  static let records = ["parse", "group", "summarize", "expire", "mark", "responses", "show"]
  static let sweeps = ["expire", "mark"]
  /// The tools that rewrite a file: `--store` (`--prune` in notif-responses).
  static let rewrites = ["parse", "expire", "mark", "responses", "digest"]

  private static func flag(
    _ long: String, _ meaning: String, _ tools: [String], short: Character? = nil
  ) -> OptionEntry {
    OptionEntry(long: long, short: short, argument: nil, meaning: meaning, tools: tools)
  }

  private static func value(
    _ long: String, _ argument: String, _ meaning: String, _ tools: [String],
    short: Character? = nil
  ) -> OptionEntry {
    OptionEntry(long: long, short: short, argument: argument, meaning: meaning, tools: tools)
  }

  /// Every option of every tool.
  public static let entries: [OptionEntry] = [
    // Every tool.
    flag("help", "print the usage and the options, and exit", all, short: "h"),
    flag("version", "print the version, and exit", all),
    value(
      "format", "format", "the diagnostics' form: text (the default), github, json or sarif",
      all),
    flag("quiet", "no notes: only warnings and errors (not grep's -q: output is written)", all),
    value(
      "max-errors", "n",
      "write at most n errors and n warnings, then one line of how many more", all),
    value(
      "color", "when",
      "color what is written for a person (diagnostics, notif-show's text): auto, always "
        + "or never", all),
    flag("progress", "show progress on standard error (default: when a terminal)", all),
    flag("no-progress", "do not show progress", all),
    value(
      "max-record-bytes", "size",
      "the longest JSON text read (default 64m); a longer one is "
        + "reported", all),
    value(
      "now", "time", "the time the run takes as now (RFC 3339 or @epoch)",
      ["parse", "expire", "mark", "responses", "show", "digest"]),
    // Reading and listing.
    value(
      "jobs", "n", "threads that read a large file (default: cores, at most 2)",
      ["parse", "group", "show"], short: "j"),
    flag(
      "all-pushes", "take in the pushes the device does not list (background, ...) too",
      ["group", "summarize", "show", "digest"]),
    value(
      "sort", "key", "rank by time (the default) or by relevance, then time", ["group", "show"]),
    value(
      "order", "order", "list newest first (feed, the default) or last (chat)", ["group", "show"]),
    value(
      "last-seen", "time", "count as new only the records created after this time",
      ["group", "show"]),
    value("limit", "n", "write at most n entries: the first n of the view", ["show"]),
    value(
      "item-limit", "n", "list at most n items of each group or digest; the others are counted",
      ["group", "digest"]),
    flag(
      "merge", "read this tool's own output objects and merge those of one key",
      ["group", "digest"]),
    // Texts.
    value(
      "categories", "file", "the app's category registry (notif-categories(5))",
      ["parse", "summarize", "show", "digest"]),
    value(
      "strings", "path",
      "the app's strings: .stringsdict, .strings, .xcstrings, or a folder of "
        + "LANG.lproj; may be repeated", ["parse", "summarize", "digest"]),
    value(
      "locale", "locale", "the language of the texts (BCP 47 or POSIX; default en)",
      ["parse", "summarize", "show", "digest"]),
    value(
      "max-args", "k", "name at most k people or things, then \"N others\"",
      ["summarize", "digest"]),
    flag(
      "hidden-previews", "show the hidden-previews placeholder for the text",
      ["summarize", "show"]),
    // Files changed in place.
    value(
      "store", "file", "the inbox file this run writes, in place, under its lock",
      ["parse", "expire", "mark", "digest"]),
    flag(
      "dry-run", "write what would change; change no file", rewrites, short: "n"),
    value(
      "archive", "file", "append every removed line here, with why and when",
      ["expire", "mark", "responses"]),
    value("quarantine", "file", "move lines that are not records to this file, with why", sweeps),
    flag(
      "missing-ok", "a missing file to change in place is nothing to do (exit 0)",
      ["expire", "mark", "digest"]),
    value(
      "wait", "seconds", "wait this long for the lock of the file changed (default 0)",
      ["expire", "mark", "responses", "digest"]),
    flag(
      "verbose",
      "end with one line of what the run changed, and the time (default: when a "
        + "terminal)", rewrites),
    // notif-parse.
    flag("check", "write only the diagnostics and a count line, no records", ["parse"], short: "c"),
    value(
      "explain", "rule",
      "print a rule of notif-rules(7) (an id, or a code for all its rules) and exit", ["parse"]),
    flag("strict", "treat warnings as errors", ["parse"], short: "s"),
    value(
      "select", "rules",
      "check only these rules of notif-rules(7): ids or codes, separated by commas", ["parse"]),
    value(
      "ignore", "rules", "do not check these rules: ids or codes, separated by commas", ["parse"]),
    value(
      "config", "file", "read select and ignore from this file, not .notif-parse.json", ["parse"]),
    flag("no-config", "read no configuration file", ["parse"]),
    flag("fix", "repair in place what the safe fixes of notif-rules(7) repair", ["parse"]),
    flag("unsafe-fixes", "with --fix or --diff, make the unsafe fixes too", ["parse"]),
    flag("diff", "write the fixes as a unified diff; change no file", ["parse"]),
    flag(
      "lint", "also check the copy: length, punctuation, app name, repeats", ["parse"],
      short: "l"),
    value("default-app", "bundle-id", "the app of payloads that name none", ["parse"]),
    value("app-name", "name", "the app's display name, for --lint", ["parse"]),
    value(
      "platform", "platform", "the override block an FCM or SNS message shows: ios, android or web",
      ["parse"]),
    value(
      "push-type", "type", "the push type of inputs without an apns-push-type header", ["parse"]),
    flag(
      "dense", "write every field of a record, null ones too",
      ["parse"]),
    // notif-group.
    value("by", "key", "group by thread (app and thread_id, the default), app or none", ["group"]),
    flag("no-items", "write only the counts and the leading record (items: null)", ["group"]),
    // notif-summarize.
    value("profile", "profile", "the iOS rules: ios12 (the default) or ios15", ["summarize"]),
    // notif-expire.
    value(
      "policy", "file", "time to live per category (notif-expire(1))", ["expire"], short: "p"),
    // notif-mark: what to do, and to which records.
    flag("read", "set read_at (and seen_at, if unset) to the time", ["mark"]),
    flag("unread", "set read_at to null", ["mark"]),
    flag("seen", "set seen_at to the time, if unset", ["mark"]),
    flag("delete", "remove the records (to the --archive, reason deleted)", ["mark"]),
    flag("all", "every record (alone: it must be explicit)", ["mark"]),
    value("id", "id", "the record with this id", ["mark"]),
    value("ids-from", "file", "the records whose ids are listed, one per line", ["mark"]),
    value("app", "bundle-id", "the records of this app", ["mark"]),
    value("thread", "id", "the records of this thread_id", ["mark"]),
    value("category", "name", "the records of this category", ["mark"]),
    value("before", "time", "the records created strictly before this time", ["mark"]),
    // notif-responses.
    value("attempt", "n", "the attempt of answers that do not say (default 1)", ["responses"]),
    value("max-attempts", "n", "give up a retry from this attempt on (default 10)", ["responses"]),
    value("seed", "n", "the seed of the back-off's jitter (default 0)", ["responses"]),
    flag("summary", "end with one line of counts per action and rule", ["responses"]),
    value("tokens", "file", "when each token was registered", ["responses"]),
    value(
      "requests", "file", "the requests by id, for the diagnostics of fix_payload answers",
      ["responses"]),
    value(
      "prune", "file", "remove the pruned tokens from this token file, in place",
      ["responses"]),
    // notif-show.
    value(
      "to", "format", "what to write: text for a terminal (the default), html or email",
      ["show"]),
    value("apps", "file", "the apps file (notif-apps(5)): each app's name and icon", ["show"]),
    value("width", "columns", "the line width of the text (default: the terminal's, 80)", ["show"]),
    flag("ascii", "draw marks and the ellipsis in ASCII", ["show"]),
    flag("oneline", "one line per notification, as git log --oneline", ["show"]),
    value(
      "link-scheme", "schemes",
      "link payload URLs of these app schemes too (https and http always)", ["show"]),
    value(
      "link-key", "path", "the payload member with the URL a tap opens, as data.url", ["show"]),
    // notif-digest.
    value("window", "duration", "tumbling windows of this length (1h, 1d)", ["digest"]),
    value("align", "time", "where windows start (default 1970-01-01T00:00:00Z)", ["digest"]),
    value("at", "hh:mm", "every day at these local times (08:00,18:00)", ["digest"]),
    value(
      "tz", "zone", "the time zone of local times (default UTC), as Europe/Berlin",
      ["digest", "show"]),
    value(
      "lookback", "duration", "pass a record through at once after a quiet period this long",
      ["digest"]),
    value("max-items", "n", "close a digest once it holds n records", ["digest"]),
    flag("flush", "write the digests of windows still open too", ["digest"]),
    value("key", "paths", "what makes records one key (default app,thread_id)", ["digest"]),
    value(
      "actor", "path", "the record value that names an actor (default summary_arg)",
      ["digest"]),
    value("item-end", "end", "list the first (the default) or last items of a digest", ["digest"]),
    flag("merge-unread", "with --merge: merge every unread digest of a key into one", ["digest"]),
    value(
      "out", "file", "append the output to this file, synced (default: standard output)",
      ["digest"]),
  ]

  /// The names tools took before: a spelling read for a release with a warning, or a name
  /// whose old use is a usage error naming the new one.
  public static let renamed: [RenamedOption] = [
    RenamedOption(old: "view", new: "order", tools: ["show"], keepsMeaning: true),
    RenamedOption(old: "app", new: "default-app", tools: ["parse"], keepsMeaning: false),
    RenamedOption(
      old: "limit", new: "item-limit", tools: ["group", "digest"], keepsMeaning: false),
    RenamedOption(old: "items", new: "item-end", tools: ["digest"], keepsMeaning: false),
    RenamedOption(old: "unread", new: "merge-unread", tools: ["digest"], keepsMeaning: false),
  ]

  /// The options of `tool` (`notif-show` or `show`), in the table's order: its own, then the
  /// names it took before (`RenamedOption`).
  public static func specs(for tool: String) -> [OptionSpec] {
    let name = tool.hasPrefix("notif-") ? String(tool.dropFirst(6)) : tool
    return entries.filter { $0.tools.contains(name) }.map(\.spec)
      + renamed.filter { $0.tools.contains(name) }.compactMap { rename in
        guard let current = entries.first(where: { $0.long == rename.new }) else { return nil }
        return OptionSpec(
          short: nil, long: rename.old, takesValue: current.argument != nil,
          renamed: (rename.new, rename.keepsMeaning))
      }
  }
}
