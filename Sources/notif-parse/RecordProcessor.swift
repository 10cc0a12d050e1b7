import NotifCLI
import NotifCategories
import NotifJSON
import NotifModel
import NotifPush

/// What a stretch of input came to: texts read and rejected, diagnostics written, and the exit
/// status they call for.
struct Tally: Equatable {
  var records = 0
  var rejected = 0
  /// Of the rejected records, those with warnings only, rejected because of `--strict`.
  var rejectedForWarnings = 0
  var errors = 0
  var warnings = 0
  var status = ExitStatus.success
  /// The texts of the input being read that look like another stage's (push services'
  /// answers): read all the same, and warned about once at its end.
  var wrongStage = WrongStageTally()

  mutating func add(_ other: Tally) {
    records += other.records
    rejected += other.rejected
    rejectedForWarnings += other.rejectedForWarnings
    errors += other.errors
    warnings += other.warnings
    status = max(status, other.status)
    wrongStage.add(other.wrongStage)
  }
}

/// The diagnostics of a stretch of input, kept as values for the thread that writes to report
/// through the run's `Reporter`, in input order: so `--max-errors` shows the first ones, and
/// counts the rest, the same way whatever `--jobs` is. Empty, it holds no memory: most texts
/// have no diagnostic.
struct FoundDiagnostics {
  /// An input that is not read (a compressed one): reported on the standard error even with
  /// `--check`. It is the first and only event of its input, so it comes before `list`.
  var unreadInput: Diagnostic? = nil
  /// The diagnostics of the texts, in input order; with `--check` they are the output.
  var list: [Diagnostic] = []

  var isEmpty: Bool { list.isEmpty && unreadInput == nil }

  /// Empties it, keeping the memory of `list` for the next stretch.
  mutating func removeAll() {
    unreadInput = nil
    list.removeAll(keepingCapacity: true)
  }
}

/// Turns what a reader read into record lines, appended to a buffer that the caller writes
/// out, and diagnostics, kept as values for the caller to report: the part of notif-parse
/// that one text at a time needs.
///
/// Every thread that reads has its own, reused from text to text. With `--lint` it remembers
/// every event seen, to find repeats: then one processor must see every text, in order.
struct RecordProcessor {
  let configuration: ParseCommand.Configuration
  private let registry: CategoryRegistry?
  private var messageReader: MessageReader
  private var lint: CopyLint?
  /// The rules checked (`--select`, `--ignore`): the findings of the others are dropped.
  private let selection: RuleSelection
  /// With `--fix` or `--diff`: the safeties of the repairs to make (`--unsafe-fixes` adds
  /// `unsafe`); empty otherwise.
  var fixing: Set<FixSafety> = []
  /// The findings that offer a repair of the safeties `fixing` names, their repairs placed in
  /// the input (in the order found).
  var fixes: [Finding] = []

  init(
    configuration: ParseCommand.Configuration, registry: CategoryRegistry?,
    selection: RuleSelection = RuleSelection()
  ) {
    self.configuration = configuration
    self.registry = registry
    self.selection = selection
    messageReader = MessageReader(defaults: configuration.defaults)
    lint = configuration.lint ? CopyLint(appName: configuration.appName) : nil
  }

  /// Handles what `reader.next()` returned, other than `.end` and `.idle`: appends the record line to
  /// `out` and the diagnostics to `found`, and counts them in `tally`.
  mutating func handle(
    _ event: RecordEvent, of reader: borrowing RecordReader, out: inout ByteBuffer,
    found: inout FoundDiagnostics, tally: inout Tally
  ) {
    switch event {
    case .end, .idle:
      return
    case .failure(let error, let line, let column):
      var (diagnostic, calledFor) = reader.failure(error, line: line, column: column)
      tally.status = max(tally.status, calledFor)
      guard calledFor == .rejected else {
        // A compressed input, not read: no record, and like an input that cannot be read,
        // reported on the standard error even with --check.
        tally.errors += 1
        found.unreadInput = diagnostic
        return
      }
      tally.records += 1
      tally.rejected += 1
      diagnostic.rule = Rule.json(error.code).id
      report(diagnostic, found: &found, tally: &tally)
    case .record:
      if reader.withRecord({ $0.kind(0) == .array && ExpoReader.isRequest($0, 0) }) {
        processRequest(reader, out: &out, found: &found, tally: &tally)
      } else {
        tally.records += 1
        process(reader, out: &out, found: &found, tally: &tally)
      }
    }
  }

  private mutating func process(
    _ reader: borrowing RecordReader, out: inout ByteBuffer, found: inout FoundDiagnostics,
    tally: inout Tally
  ) {
    let text = (isCompact: reader.recordIsCompact, name: reader.name, line: reader.recordLine)
    let (findings, isAnswer) = reader.withRecord { view in
      let findings = read(
        view, isCompact: text.isCompact, file: text.name, line: text.line, out: &out)
      // A push service's answer reads as a payload with findings (no aps, or an FCM message
      // with unknown fields): a text without any is not asked about.
      return (findings, !findings.isEmpty && StageText.kind(of: view) == .pushResponse)
    }
    if isAnswer { tally.wrongStage.add(.pushResponse, line: text.line) }
    report(findings, refused: false, of: reader, found: &found, tally: &tally)
  }

  /// An Expo push request, an array of messages: each message is a record of its own, with its
  /// diagnostics at their places in the array. A request that sends more notifications than
  /// Expo takes is refused whole: every message is rejected, and the error is reported once.
  private mutating func processRequest(
    _ reader: borrowing RecordReader, out: inout ByteBuffer, found: inout FoundDiagnostics,
    tally: inout Tally
  ) {
    let text = (isCompact: reader.recordIsCompact, name: reader.name, line: reader.recordLine)
    let (messages, refused) = reader.withRecord { view -> ([[Finding]], Bool) in
      let count = ExpoReader.notificationCount(view, 0)
      let refused = count > ExpoReader.maxNotifications && selection.checks(.expoTooMany)
      var messages: [[Finding]] = []
      view.forEachElement(of: 0) { element in
        var findings = read(
          view, isCompact: text.isCompact, root: element, as: .expo, writes: !refused,
          file: text.name, line: text.line, out: &out)
        if refused && messages.isEmpty {
          findings.append(ExpoReader.tooMany(count, at: Int(view.tokens[0].start)))
        }
        messages.append(findings)
      }
      return (messages, refused)
    }
    for findings in messages {
      tally.records += 1
      report(findings, refused: refused, of: reader, found: &found, tally: &tally)
    }
  }

  /// Reads the message at `root` of `view` (`format`, else the format its keys say), with the
  /// registry's and `--lint`'s checks, and appends its record to `out` unless it is rejected,
  /// `--check` is on or `writes` is false. Returns its findings.
  private mutating func read(
    _ view: JSONView, isCompact: Bool, root: Int = 0, as format: PushFormat? = nil,
    writes: Bool = true, file name: String, line: Int, out: inout ByteBuffer
  ) -> [Finding] {
    messageReader.read(view, isCompact: isCompact, root: root, as: format)
    var findings = messageReader.findings
    selection.filter(&findings)
    // Not `messageReader.rejected`: a call to a getter of the reader copied the whole reader
    // (1.4 KB) to the stack for each record.
    let readerRejects = findings.contains { $0.severity == .error }
    guard !readerRejects || configuration.check else { return findings }
    if let registry, let category = messageReader.values.string(.category, in: view),
      registry[category] == nil
    {
      findings.append(
        .warning(
          .categoryUnknown,
          "category '\(category)' is not in the registry: iOS shows no actions and no custom summary",
          at: messageReader.offset(of: .category, in: view)))
    }
    if lint != nil {
      // Optional chaining mutates the lint in place: a copy would duplicate its memory of
      // every event seen, once per record.
      let values = messageReader.values
      let messageReader = messageReader
      findings +=
        lint?.check(values, view, file: name, line: line) { field in
          messageReader.offset(of: field, in: view)
        } ?? []
    }
    selection.filter(&findings)
    let rejected = findings.contains { $0.severity == .error || configuration.strict }
    if !rejected && !configuration.check && writes {
      messageReader.writeRecord(view, into: &out)
    }
    return findings
  }

  /// Reports the findings of one record at their places in the text `reader` read, and counts
  /// the record as rejected if they have an error (with `--strict`, any finding), or if it is
  /// `refused` (a message of a request refused whole).
  ///
  /// `mutating`, as the other `report`, though neither changes the processor: called from
  /// `process`, a method that was not got a copy of the whole processor (1.8 KB) each record.
  private mutating func report(
    _ findings: [Finding], refused: Bool, of reader: borrowing RecordReader,
    found: inout FoundDiagnostics, tally: inout Tally
  ) {
    let hasError = findings.contains { $0.severity == .error }
    let rejected = refused || hasError || (configuration.strict && !findings.isEmpty)
    if !fixing.isEmpty && !findings.isEmpty { gatherFixes(findings, of: reader) }
    // Most texts have no finding: sorting even an empty array costs an allocation, and so does
    // placing none.
    if findings.count == 1, let finding = findings.first {
      let at = reader.position(ofRecordOffset: finding.offset)
      report(
        finding.diagnostic(file: reader.name, line: at.line, column: at.column),
        found: &found, tally: &tally)
    } else if findings.count > 1 {
      let sorted = findings.sorted(by: { $0.offset < $1.offset })
      // In one pass: a long text with a finding every few bytes costs its length.
      let positions = reader.positions(ofRecordOffsets: sorted.map(\.offset))
      for (finding, at) in zip(sorted, positions) {
        report(
          finding.diagnostic(file: reader.name, line: at.line, column: at.column),
          found: &found, tally: &tally)
      }
    }
    if rejected {
      tally.rejected += 1
      if !hasError && !refused { tally.rejectedForWarnings += 1 }
      tally.status = max(tally.status, .rejected)
    }
  }

  /// Keeps the repairs `findings` offer, of the safeties asked for, placed in the input.
  private mutating func gatherFixes(_ findings: [Finding], of reader: borrowing RecordReader) {
    let base = reader.recordOffset
    for var finding in findings {
      guard let fix = finding.fix, let safety = finding.rule.entry.fix, fixing.contains(safety)
      else { continue }
      finding.fix = Finding.Fix(
        start: base + fix.start, end: base + fix.end, replacement: fix.replacement)
      fixes.append(finding)
    }
  }

  /// Counts a diagnostic and keeps it for the caller to report.
  private mutating func report(
    _ diagnostic: Diagnostic, found: inout FoundDiagnostics, tally: inout Tally
  ) {
    switch diagnostic.severity {
    case .error: tally.errors += 1
    case .warning: tally.warnings += 1
    case .note: break  // notif-parse writes none: a note is counted nowhere
    }
    found.list.append(diagnostic)
  }
}
