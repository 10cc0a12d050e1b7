import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep

/// notif-mark's command line: the actions, the selectors, and the exit status.
struct MarkCommand: RunningToolCommand {
  static let name = "notif-mark"
  static let usage =
    "usage: notif-mark --read | --unread | --seen | --delete [-nh] [--all] [--id id]\n"
    + "                  [--ids-from file] [--app bundle-id] [--thread id] [--category name]\n"
    + "                  [--before time] [--archive file] [--format text|github|json|sarif] [--quiet]\n"
    + "                  [--max-errors n] [--color auto|always|never] [--max-record-bytes size]\n"
    + "                  [--now time] [--[no-]progress] [--verbose] [--quarantine file]\n"
    + "                  [--store file [--missing-ok] [--wait seconds] | file ...]\n"

  static let help =
    usage + """

      Mark notification records read, unread or seen, or delete them, one at a time or en
      masse, as a filter or in place on a store file. See notif-mark(1) and notif(5).

      Actions (--read and --unread may go with --seen):
            --read                set read_at (and seen_at, if unset) to the time; a read
                                  record keeps its first read_at
            --unread              set read_at to null
            --seen                set seen_at to the time, if unset
            --delete              remove the records (to the --archive, reason deleted)
      Selectors (different ones must all match; a repeated one matches any of its values):
            --all                 every record (alone: it must be explicit)
            --id id               the record with this id
            --ids-from file       the records whose ids are listed, one per line
            --app bundle-id       records of this app
            --thread id           records of this thread_id
            --category name       records of this category
            --before time         records created strictly before this time
      Output:
        -n, --dry-run             write the records as they would become (deleted ones as
                                  archive lines); change nothing
            --archive file        append every deleted record, with removed_at and
                                  removed_reason
            --format format       diagnostics as text (default), github, json or sarif
            --now time            the time to set (RFC 3339 or @epoch)
            --store file          change this store file in place, under its lock
      \(SweepOptions.help)

      """

  static let tool = CommandLineTool(name: name, usage: usage, help: help)

  static let options = OptionTable.specs(for: name)

  /// What runs once the command line is read.
  typealias Run = MarkRun

  /// What to do to the selected records.
  struct Actions: Equatable {
    var read = false
    var unread = false
    var seen = false
    var delete = false
  }

  /// Which records to act on: every selector given must match.
  struct Selection: Equatable {
    var all = false
    var ids: IDSet?
    var apps: [[UInt8]] = []
    var threads: [[UInt8]] = []
    var categories: [[UInt8]] = []
    var before: Timestamp?
  }

  /// What the command line asked for.
  struct Configuration {
    var actions = Actions()
    var selection = Selection()
    var now = Timestamp(seconds: 0)
    /// `--dry-run`, `--archive`, `--store`, `--wait`, progress and the file operands.
    var sweep = SweepOptions()
    /// The size of a batch of lines that a worker decides (`MarkRun.batchSize`).
    var batchSize = MarkRun.batchSize
  }

  static func configure(_ scanned: ScannedArguments, environment: ToolEnvironment)
    throws(UsageError) -> Configuration
  {
    var configuration = Configuration()
    var actions = Actions()
    actions.read = scanned.has("read")
    actions.unread = scanned.has("unread")
    actions.seen = scanned.has("seen")
    actions.delete = scanned.has("delete")
    guard actions.read || actions.unread || actions.seen || actions.delete else {
      throw UsageError("give an action: --read, --unread, --seen or --delete")
    }
    if actions.read && actions.unread {
      throw UsageError("--read and --unread contradict each other")
    }
    if actions.delete && (actions.read || actions.unread || actions.seen) {
      throw UsageError("--delete goes alone: a deleted record is not marked")
    }
    configuration.actions = actions

    // The files first, before --ids-from is read: none may be a file the sweep writes.
    configuration.sweep = try SweepOptions(
      scanned, storeVerb: "changes", environment: environment,
      reading: scanned.all("ids-from").map { ("--ids-from", $0) })

    var selection = Selection()
    selection.all = scanned.has("all")
    let ids = scanned.all("id")
    if !ids.isEmpty || scanned.has("ids-from") {
      var set = IDSet()
      for id in ids { set.insert(id.utf8) }
      for path in scanned.all("ids-from") {
        try readIDs(path, into: &set, limit: configuration.sweep.maxRecordBytes)
      }
      selection.ids = set
    }
    selection.apps = scanned.all("app").map { Array($0.utf8) }
    selection.threads = scanned.all("thread").map { Array($0.utf8) }
    selection.categories = scanned.all("category").map { Array($0.utf8) }
    if let before = scanned.last("before") {
      do {
        selection.before = try Timestamp(argument: before)
      } catch {
        throw UsageError("--before: \(error.message)")
      }
    }
    let narrowed =
      selection.ids != nil || !selection.apps.isEmpty || !selection.threads.isEmpty
      || !selection.categories.isEmpty || selection.before != nil
    if selection.all && narrowed {
      throw UsageError("--all selects every record: give it without other selectors")
    }
    guard selection.all || narrowed else {
      throw UsageError(
        "give a selector: --id, --ids-from, --app, --thread, --category, --before, or --all")
    }
    configuration.selection = selection

    configuration.now = try environment.now(scanned)
    return configuration
  }

  /// Adds the ids listed in a file, one per line (blank lines and surrounding white space
  /// ignored), to `ids`, as long as all the ids together take at most `limit` bytes
  /// (`--max-record-bytes`): memory stays bounded whatever the file.
  static func readIDs(_ path: String, into ids: inout IDSet, limit: Int) throws(UsageError) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw UsageError("--ids-from: \(SystemError(path: path, doing: "cannot open", errno: errno))")
    }
    defer { close(fd) }
    if let failure = InputFile.checkReadable(fd, name: path) {
      throw UsageError("--ids-from: \(failure)")
    }
    if let compression = InputFile.compression(ofRegularFile: fd) {
      throw UsageError("--ids-from: '\(path)': \(compression.message)")
    }
    var reader = LineReader(fd: fd, name: path, maxLineBytes: limit)
    var tooMany = false
    do throws(SystemError) {
      while !tooMany, let line = try reader.next() {
        let id = LineReader.trimmed(line)
        tooMany = reader.isOverlong || ids.byteCount + id.count > limit
        if !id.isEmpty && !tooMany { ids.insert(id) }
      }
    } catch {
      throw UsageError("--ids-from: \(error)")
    }
    if tooMany {
      throw UsageError(
        "--ids-from: '\(path)' holds more than \(limit) bytes of ids (--max-record-bytes): "
          + "give them in parts, or a larger limit")
    }
  }
}
