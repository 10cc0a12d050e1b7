import NotifCLI
import NotifJSON
import NotifModel

/// The options of a sweep that may run in place (notif-expire, notif-mark): `--dry-run`,
/// `--archive`, `--store`, `--missing-ok` and `--wait`, `--progress` and `--no-progress`, and
/// the file operands, read and checked the same way in both tools.
public struct SweepOptions: Sendable, Equatable {
  /// `-n`/`--dry-run`: write what would change; change nothing.
  public var dryRun = false
  /// `--archive FILE`: where removed records go, appended.
  public var archive: String?
  /// What messages call the file `archive` names: `archive`; notif-digest appends the digests
  /// it writes there instead (`output file`).
  public var archiveName = "archive"
  /// The option that names `archive`: `--archive`; notif-digest's `--out`.
  public var archiveOption = "--archive"
  /// `--quarantine FILE`: where lines that are not records go, appended, instead of staying
  /// where they are (see `QuarantineEntry`).
  public var quarantine: String?
  /// `--store FILE`: change this file in place, under its lock; nil for a filter.
  public var store: String?
  /// The option that names `store`, as messages name it: `--store`; notif-responses's
  /// `--prune`.
  public var storeOption = "--store"
  /// The file `--store` names once symbolic links in its last component are followed: the
  /// file a sweep locks, journals and replaces, beside which its lock, journal and new
  /// version are made, so that a link stays a link (see `FileIdentity.followingLinks`).
  public var storeTarget: String? {
    store.map { FileIdentity.followingLinks($0) ?? $0 }
  }
  /// `--missing-ok`, only with `--store`: a store that is not there is nothing to sweep yet
  /// (status 0, nothing written, no lock file made), not an error.
  public var missingOK = false
  /// `--wait SECONDS` for the store's lock (0: do not wait).
  public var wait: Double = 0
  /// Whether to end with one line on standard error that says what the sweep did
  /// (`SweepTally`): with `--verbose`, or when standard error is a terminal and `--quiet` is
  /// not given; never from cron.
  public var verbose = false
  /// How the sweep talks on standard error: `--format`, `--quiet`, `--max-errors`,
  /// `--color`, `--progress` (`ReportOptions`).
  public var reporting = ReportOptions()
  /// `--format text|github|json`: the form of the diagnostics.
  public var format: DiagnosticFormat {
    get { reporting.format }
    set { reporting.format = newValue }
  }
  /// `--max-record-bytes SIZE`: a longer line is not a record (`RecordTooLarge`), kept as it
  /// is or quarantined without being held in memory whole.
  public var maxRecordBytes = CommandLineTool.defaultMaxRecordBytes

  /// What a line longer than `maxRecordBytes` is reported as (`RecordTooLarge`).
  public var tooLongMessage: String { Self.tooLongMessage(limit: maxRecordBytes) }

  /// What a line longer than `limit` bytes is reported as (`RecordTooLarge`).
  public static func tooLongMessage(limit: Int) -> String {
    "the line is longer than the limit of \(limit) bytes (--max-record-bytes)"
  }
  /// The file operands (`-` for standard input when none; unused with `--store`).
  public var files: [String] = []

  /// The `--help` lines of `--max-record-bytes`, `--quarantine`, `--missing-ok`, `--wait`
  /// and `--verbose`, which say the same in both tools (the others say what the tool does),
  /// without a final newline.
  // One literal: `joined(separator:)` here cost notif-expire and notif-mark a fifth of their
  // start-up, in the runtime's lookup of its generic witnesses.
  public static let help = """
          --max-record-bytes size
                                longest JSON text accepted (default 64m); a longer line is
                                no record, kept or quarantined as it is
          --quarantine file     move lines that are not records to this file, with why
          --missing-ok          with --store: a missing store is nothing to sweep (exit 0)
          --wait seconds        with --store: wait this long for the lock (default 0)
          --verbose             end with what was kept, removed and moved, and the time
                                (default: when standard error is a terminal)
    """

  /// No options: a dry filter of standard input.
  public init() {}

  /// Reads the options from `scanned`.
  ///
  /// - Parameters:
  ///   - storeVerb: what the tool does to a store, for the message against operands with
  ///     `--store`: `sweeps` in `--store sweeps one file in place`.
  ///   - environment: whether standard error is a terminal, the default of `--progress`,
  ///     `--verbose` and `--color`, and `NO_COLOR`.
  ///   - reading: the other files the tool reads (`--ids-from`), by role and path, which
  ///     must not be any file the sweep writes.
  /// - Throws: `UsageError` for an empty `--store`, a `--missing-ok` or `--wait` without
  ///   `--store`, a `--wait` out of range, file operands with `--store`, and files that clash
  ///   (see `checkFiles`).
  public init(
    _ scanned: ScannedArguments, storeVerb: String, environment: ToolEnvironment,
    reading: [(role: String, path: String)] = []
  ) throws(UsageError) {
    dryRun = scanned.has("dry-run")
    archive = scanned.last("archive")
    quarantine = scanned.last("quarantine")
    store = scanned.last("store")
    if let store, store.isEmpty {
      throw UsageError("--store: the file name is empty")
    }
    missingOK = scanned.has("missing-ok")
    if missingOK && store == nil {
      throw UsageError("--missing-ok needs --store: only a store is swept in place")
    }
    wait = try Self.parseWait(scanned.last("wait"), store: store)
    reporting = try ReportOptions(scanned, environment: environment)
    verbose = reporting.verbose
    if store != nil && !scanned.operands.isEmpty {
      throw UsageError("--store \(storeVerb) one file in place: give no file operands with it")
    }
    files = scanned.files
    maxRecordBytes = try CommandLineTool.maxRecordBytes(scanned) ?? maxRecordBytes
    try checkFiles(
      reading: reading,
      standardOutput: RunFile(
        role: "standard output", fd: STDOUT_FILENO, isWritten: true))
  }

  /// Checks the files of the sweep before anything is touched: the store, its journal and
  /// lock, the archive, the quarantine file, the file operands, the files in `reading` and
  /// standard output must be files of their own (a file only read may be read twice), by
  /// identity (`FileIdentity`: `./x`, a symbolic link to it and a hard link of it are one
  /// file); the store, the archive and the quarantine file must be regular files where they
  /// exist, and no file the sweep writes may be named as the store's temporary files are,
  /// which recovery removes.
  ///
  /// - Throws: `UsageError` naming the two files that are one, or the file that is not a
  ///   regular file.
  public func checkFiles(
    reading: [(role: String, path: String)] = [], standardOutput: RunFile? = nil
  ) throws(UsageError) {
    try StoreFiles.requireRegular([
      (storeOption, store), (archiveOption, archive), ("--quarantine", quarantine),
    ])
    var written: [RunFile] = []
    if let store { written += StoreFiles.storeFiles(store, journal: true, option: storeOption) }
    // Checked in a dry run too, which must fail as the run it shows would.
    let appended = [(archiveOption, archive), ("--quarantine", quarantine)].compactMap { option in
      option.1.map { RunFile(role: "\(option.0) '\($0)'", path: $0, isWritten: true) }
    }
    if let target = storeTarget {
      for file in appended where StoreRewrite.isTemporaryFile(file.path, of: target) {
        throw UsageError(
          "\(file.role) is named as the store's temporary files are, which a sweep removes")
      }
    }
    written += appended
    if let standardOutput { written.append(standardOutput) }
    var read = reading
    if store == nil { read += files.filter { $0 != "-" }.map { ("the file operand", $0) } }
    try StoreFiles.requireDistinct(written, reading: read)
  }

  /// `--wait SECONDS`, only with `--store`: whole or decimal seconds, 0 to a day, unsigned; 0
  /// when not given.
  ///
  /// A sign is refused, as every number option of the tools refuses it. `-0` and `+5` name
  /// seconds in range, so their message says the sign is what is wrong; a negative number
  /// is out of range.
  public static func parseWait(_ text: String?, store: String?) throws(UsageError) -> Double {
    guard let text else { return 0 }
    guard store != nil else { throw UsageError("--wait needs --store: only a store is locked") }
    func seconds(_ digits: Substring) -> Double? {
      guard digits.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
        let seconds = Double(digits), seconds <= 86_400
      else { return nil }
      return seconds
    }
    if let seconds = seconds(text[...]) { return seconds }
    if let sign = text.first, sign == "-" || sign == "+",
      let unsigned = seconds(text.dropFirst()), sign == "+" || unsigned == 0
    {
      throw UsageError("--wait: '\(text)' has a sign: write '\(text.dropFirst())', without one")
    }
    throw UsageError("--wait: '\(text)' is not a number of seconds from 0 to 86400")
  }
}
