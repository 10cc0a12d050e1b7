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
  /// Every entry read, without `--limit`.
  private var entries: [ShownEntry] = []
  /// The first `--limit` entries in feed order, with it.
  private var top: TopList<ShownEntry>?
  /// The input order of the next JSON text.
  private var nextMajor = 0

  init(options: ShowOptions) {
    self.options = options
    reader = EntryReader(lastSeen: options.lastSeen)
    if let limit = options.limit {
      let ranking = options.ranking
      top = TopList(limit: limit) { ranking.precedes($0.key, $1.key) }
    }
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    var registry: CategoryRegistry? = nil
    if let path = options.categoriesPath {
      do {
        registry = try CategoryRegistry.load(path).registry
      } catch {
        report(error.diagnostic, &stderr)
        return .failure
      }
    }
    for file in options.files {
      read(file, stderr: &stderr)
    }
    let shown = viewOrder()
    var page = ByteBuffer(capacity: 64 * 1024)
    switch options.format {
    case .text: TextPage(options: options, registry: registry).write(shown, into: &page)
    case .html: HTMLPage(options: options, registry: registry).write(shown, into: &page)
    }
    do {
      try stdout.write(page)
      try stdout.flush()
    } catch {
      return ShowCommand.tool.reportFailedWrite(error, stderr: &stderr)
    }
    return status
  }

  /// The entries kept, in the order of the view: feed order, or chat order (the same entries
  /// when `--limit` picked them: the first in feed order, the newest, listed newest last).
  private func viewOrder() -> [ShownEntry] {
    let ranking = options.ranking
    var kept = top?.sorted() ?? entries
    switch options.view {
    case .feed:
      if top == nil { kept.sort { ranking.precedes($0.key, $1.key) } }
    case .chat:
      kept.sort { ranking.precedesInChat($0.key, $1.key) }
    }
    return kept
  }

  private mutating func read(_ file: String, stderr: inout OutputWriter) {
    let read = InputFile.forEachRecord(
      of: file, maxRecordBytes: options.maxRecordBytes,
      report: { diagnostic in report(diagnostic, &stderr) },
      whenIdle: {}  // the page is written at the end: nothing is ready before
    ) { reader in
      let problem = reader.withRecord { view in take(view) }
      if let problem {
        status = max(status, .rejected)
        let at = reader.position(ofRecordOffset: problem.offset)
        report(
          Diagnostic(
            .error, problem.code, problem.message, file: reader.name, line: at.line,
            column: at.column), &stderr)
      }
    }
    status = max(status, read)
  }

  /// Reads the JSON text in `view` and keeps what it shows when the view shows it; returns the
  /// problem that rejects it, if any.
  private mutating func take(_ view: JSONView) -> RecordProblem? {
    let major = nextMajor
    nextMajor += 1
    guard view.kind(0) == .object else {
      return .notAnObject
    }
    let fields = ShownFields(view)
    do throws(RecordProblem) {
      let entry: ShownEntry
      if fields.leading >= 0 {
        let ranking = options.ranking
        let order = options.view
        let stack = try reader.stack(view, major: major) { a, b in
          order == .feed ? ranking.precedes(a, b) : ranking.precedesInChat(a, b)
        }
        guard let stack else { return nil }
        entry = .stack(stack)
      } else {
        let key = try reader.key(view, fields, major: major, minor: 0)
        try reader.checkStrings(view, fields)
        guard fields.hasContent(view) else { return nil }
        if let top, !top.admits(.item(placeholder(key))) { return nil }
        entry = .item(reader.item(view, fields, key: key))
      }
      if top != nil {
        top?.insert(entry)
      } else {
        entries.append(entry)
      }
      return nil
    } catch {
      return error
    }
  }

  /// An item with nothing but `key`: what `TopList.admits` compares.
  private func placeholder(_ key: SortKey) -> ShownItem {
    ShownItem(
      key: key, app: nil, category: nil, title: nil, subtitle: nil, body: nil, relevance: nil,
      target: nil, isUnread: false, isNew: false)
  }

  /// Writes a diagnostic to standard error at once, so it shows while the run goes on. A failed
  /// write to standard error cannot be reported anywhere: it does not stop the run.
  private func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    try? stderr.write(DiagnosticFormat.text.render(diagnostic, program: ShowCommand.name))
    try? stderr.flush()
  }
}
