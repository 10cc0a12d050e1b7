import NotifModel

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// notif-parse's command line: options, the loop over inputs, and the exit status.
struct ParseCommand {
  static let name = "notif-parse"
  static let version = "0.1.0"
  static let usage =
    "usage: notif-parse [-clsh] [--app bundle-id] [--app-name name] [--categories file]\n"
    + "                   [--format text|github|json] [-j jobs] [--max-record-bytes size]\n"
    + "                   [--now time] [--push-type type] [file ...]\n"

  static let help =
    usage + """

      Read APNs payloads (NDJSON, whole JSON files such as .apns, or concatenated JSON) and
      write one notification record per payload as NDJSON. See notif-parse(1) and notif(5).

        -c, --check               write only diagnostics and a count line; no records
        -s, --strict              treat warnings as errors
        -l, --lint                also check the copy: length, punctuation, app name, repeats
            --app bundle-id       app for payloads that name none
            --app-name name       the app's display name, for --lint
            --categories file     category registry (notif-categories(5)) to check against
            --format format       diagnostics as text (default), github or json
        -j, --jobs n              threads that parse a large file (default: cores, at most 2)
            --max-record-bytes size
                                  longest JSON text accepted (default 1m; k and m suffixes)
            --now time            created_at for inputs without received_at (RFC 3339 or @epoch)
            --push-type type      push type for inputs without an apns-push-type header
        -h, --help                show this help and exit
            --version             show the version and exit

      """

  static let options: [OptionSpec] = [
    .flag("check", "c"), .flag("strict", "s"), .flag("lint", "l"), .value("app"),
    .value("app-name"), .value("categories"), .value("format"), .value("jobs", "j"),
    .value("max-record-bytes"),
    .value("now"), .value("push-type"), .flag("help", "h"), .flag("version"),
  ]

  /// Threads when `--jobs` is not given: one per core, at most 2, so that a run on a shared
  /// machine takes a fair share; more can be asked for.
  static var defaultJobs: Int {
    min(max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1), 2)
  }

  /// What the command line asked for.
  struct Configuration {
    var check = false
    var strict = false
    var lint = false
    var appName: String?
    var categoriesPath: String?
    var format = DiagnosticFormat.text
    var maxRecordBytes = 1 << 20
    var jobs = ParseCommand.defaultJobs
    var defaults: InputDefaults
    var files: [String] = []
  }

  /// Runs the command and returns its exit status; the only output is through `stdout` and
  /// `stderr`.
  static func run(
    arguments: [String], sourceDateEpoch: String?, clock: () -> Timestamp,
    stdout: inout OutputWriter, stderr: inout OutputWriter,
    chunkSize: Int = ParseRun.defaultChunkSize
  ) -> ExitStatus {
    let configuration: Configuration
    do {
      let scanned = try OptionScanner.scan(arguments, options)
      if scanned.has("help") {
        return finish(writing: help, to: &stdout, stderr: &stderr)
      }
      if scanned.has("version") {
        return finish(writing: "\(name) \(version)\n", to: &stdout, stderr: &stderr)
      }
      configuration = try configure(scanned, sourceDateEpoch: sourceDateEpoch, clock: clock)
    } catch {
      try? stderr.write("\(name): \(error.message)\n\(usage)")
      try? stderr.flush()
      return .failure
    }
    var run = ParseRun(configuration: configuration, chunkSize: chunkSize)
    return run.execute(stdout: &stdout, stderr: &stderr)
  }

  private static func finish(
    writing text: String, to out: inout OutputWriter, stderr: inout OutputWriter
  )
    -> ExitStatus
  {
    do {
      try out.write(text)
      try out.flush()
      return .success
    } catch {
      try? stderr.write("\(name): \(error)\n")
      try? stderr.flush()
      return .failure
    }
  }

  static func configure(
    _ scanned: ScannedArguments, sourceDateEpoch: String?, clock: () -> Timestamp
  ) throws(UsageError) -> Configuration {
    let now: Timestamp
    do {
      now = try Timestamp.reference(
        option: scanned.last("now"), sourceDateEpoch: sourceDateEpoch, clock: clock)
    } catch {
      throw UsageError(error.message)
    }
    var configuration = Configuration(
      defaults: InputDefaults(app: scanned.last("app"), pushType: nil, now: now))
    configuration.check = scanned.has("check")
    configuration.strict = scanned.has("strict")
    configuration.lint = scanned.has("lint")
    configuration.appName = scanned.last("app-name")
    configuration.categoriesPath = scanned.last("categories")
    if let format = scanned.last("format") {
      guard let chosen = DiagnosticFormat(rawValue: format) else {
        throw UsageError("--format: '\(format)' is not text, github or json")
      }
      configuration.format = chosen
    }
    if let type = scanned.last("push-type") {
      guard APNsNormalizer.pushTypes.contains(type) else {
        throw UsageError(
          "--push-type: '\(type)' is not one of \(APNsNormalizer.pushTypes.sorted().joined(separator: ", "))"
        )
      }
      configuration.defaults.pushType = type
    }
    if let size = scanned.last("max-record-bytes") {
      guard let bytes = parseSize(size), bytes >= 2, bytes <= 1 << 30 else {
        throw UsageError(
          "--max-record-bytes: '\(size)' is not a size from 2 to 1g, such as 65536, 64k or 1m")
      }
      configuration.maxRecordBytes = bytes
    }
    if let jobs = scanned.last("jobs") {
      guard jobs.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let count = Int(jobs),
        (1...64).contains(count)
      else {
        throw UsageError("--jobs: '\(jobs)' is not a number of threads from 1 to 64")
      }
      configuration.jobs = count
    }
    if let app = configuration.defaults.app, app.isEmpty {
      throw UsageError("--app: the bundle identifier is empty")
    }
    configuration.files = scanned.operands.isEmpty ? ["-"] : scanned.operands
    return configuration
  }

  /// Reads `65536`, `64k`, `1m` or `1g` (binary multiples).
  static func parseSize(_ text: String) -> Int? {
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
