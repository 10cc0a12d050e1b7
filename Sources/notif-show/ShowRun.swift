import NotifCategories
import NotifJSON
import NotifListing
import NotifModel

/// One run of notif-show: reads every input, keeps what the view shows (all of it, or the
/// first `--limit` in a heap), then writes the page.
struct ShowRun {
  let options: ShowOptions
  private var reader: EntryReader
  private var status = ExitStatus.success
  /// The entries shown: every one read, or the first `--limit` in feed order.
  private var entries: TopList<ShownEntry>
  /// The input order of the next JSON text.
  private var nextMajor = 0

  init(options: ShowOptions) {
    self.options = options
    reader = EntryReader(
      lastSeen: options.lastSeen, shown: ShownText(options), longestCategory: 0,
      allPushes: options.allPushes)
    entries = TopList(limit: options.limit, ranking: options.ranking)
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    var apps = AppDirectory()
    if let path = options.appsPath {
      do {
        apps = try AppDirectory.load(path)
      } catch {
        report(error.diagnostic, &stderr)
        return .failure
      }
    }
    var registry: CategoryRegistry? = nil
    if let path = options.categoriesPath {
      do {
        registry = try CategoryRegistry.load(path).registry
      } catch {
        report(error.diagnostic, &stderr)
        return .failure
      }
      reader = EntryReader(
        lastSeen: options.lastSeen, shown: ShownText(options),
        longestCategory: registry?.categories.map(\.identifier.utf8.count).max() ?? 0,
        allPushes: options.allPushes)
    }
    for file in options.files {
      read(file, stderr: &stderr)
    }
    // With --limit, the first entries in feed order, the newest, whichever the view: in chat
    // order, listed newest last.
    let shown = entries.sorted(options.view)
    var page = ByteBuffer(capacity: 64 * 1024)
    switch options.format {
    case .text:
      TextPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    case .html:
      HTMLPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    case .email:
      EmailPage(options: options, registry: registry, apps: apps).write(shown, into: &page)
    }
    do {
      try stdout.write(page)
      try stdout.flush()
    } catch {
      return ShowCommand.tool.reportFailedWrite(error, stderr: &stderr)
    }
    return status
  }

  private mutating func read(_ file: String, stderr: inout OutputWriter) {
    var name = file  // as the reader names it, once it has read a text
    let read = InputFile.forEachRecord(
      of: file, maxRecordBytes: options.maxRecordBytes,
      report: { diagnostic in report(diagnostic, &stderr) },
      whenIdle: {}  // the page is written at the end: nothing is ready before
    ) { reader in
      name = reader.name
      let isCompact = reader.recordIsCompact
      let problem = reader.withRecord { view in take(view, isCompact: isCompact) }
      if let problem {
        status = max(status, .rejected)
        report(
          reader.diagnostic(.error, problem.code, problem.message, atRecordOffset: problem.offset),
          &stderr)
      }
    }
    status = max(status, read)
    // What the device does not list was left out: said once per input, never silently.
    if let note = reader.takeUnlisted().note(file: name) {
      report(note, &stderr)
    }
  }

  /// Reads the JSON text in `view` and keeps what it shows when the view shows it; returns the
  /// problem that rejects it, if any.
  private mutating func take(_ view: JSONView, isCompact: Bool) -> RecordProblem? {
    let major = nextMajor
    nextMajor += 1
    guard view.kind(0) == .object else {
      return .notAnObject
    }
    let fields = ShownFields(view, locator: reader.locator)
    do throws(RecordProblem) {
      let entry: ShownEntry
      if fields.digestID >= 0 && fields.leading < 0 {
        entry = .digest(try reader.digest(view, major: major))
      } else if fields.leading >= 0 {
        let stack = try reader.stack(
          view, isCompact: isCompact, major: major, ranking: options.ranking, order: options.view)
        guard let stack else { return nil }
        entry = .stack(stack)
      } else {
        let key = try reader.key(view, fields, major: major, minor: 0)
        try reader.checkStrings(view, fields)
        if reader.leavesOut(try reader.unlisted(view, fields)) { return nil }
        guard entries.admits(key) else { return nil }
        entry = .item(reader.item(view, fields, key: key))
      }
      entries.insert(entry)
      return nil
    } catch {
      return error
    }
  }

  /// Writes a diagnostic to standard error at once, so it shows while the run goes on. A failed
  /// write to standard error cannot be reported anywhere: it does not stop the run.
  private func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    try? stderr.write(DiagnosticFormat.text.render(diagnostic, program: ShowCommand.name))
    try? stderr.flush()
  }
}
