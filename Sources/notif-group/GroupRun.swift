import NotifJSON
import NotifModel

/// One run of notif-group over its inputs: reads records (or group objects), reports what it
/// rejects, writes the groups at the end.
struct GroupRun {
  let options: GroupOptions
  /// The form the diagnostics are written in (`--format`).
  let format: DiagnosticFormat
  private var grouper: Grouper
  private var fields = FieldReader()
  private var status = ExitStatus.success
  /// Whether the group object just merged had no `grouping`.
  private var unrecorded = false
  /// Whether the file being read has had its `UnrecordedGrouping` warning.
  private var warnedUnrecorded = false

  init(options: GroupOptions, format: DiagnosticFormat = .text) {
    self.options = options
    self.format = format
    grouper = Grouper(options: options)
  }

  /// A write to standard output failed: processing stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  mutating func execute(files: [String], stdout: inout OutputWriter, stderr: inout OutputWriter)
    -> ExitStatus
  {
    for file in files {
      read(file, stderr: &stderr)
    }
    do {
      try grouper.write { (line: ByteBuffer) throws(SystemError) in try stdout.write(line) }
      try stdout.flush()
    } catch {
      return GroupCommand.tool.reportFailedWrite(error, format: format, stderr: &stderr)
    }
    return status
  }

  private mutating func read(_ file: String, stderr: inout OutputWriter) {
    warnedUnrecorded = false
    let read = InputFile.forEachRecord(
      of: file, maxRecordBytes: options.maxRecordBytes,
      report: { diagnostic in report(diagnostic, &stderr) },
      whenIdle: {}  // groups are written at the end: nothing is ready before
    ) { reader in
      let isCompact = reader.recordIsCompact
      let outcome: (problem: Problem?, badWeight: Int?) =
        options.merge
        ? mergeObject(&reader, isCompact: isCompact) : groupRecord(&reader, isCompact: isCompact)
      if let offset = outcome.badWeight {
        let at = reader.position(ofRecordOffset: offset)
        report(
          Diagnostic(
            .warning, "BadSummaryArgCount",
            "'\(RecordField.summaryArgCount.key)' is not a whole number of 1 or more: counted as 1",
            file: reader.name, line: at.line, column: at.column), &stderr)
      }
      if unrecorded {
        unrecorded = false
        if !warnedUnrecorded {
          warnedUnrecorded = true
          report(unrecordedWarning(file: reader.name, line: reader.recordLine), &stderr)
        }
      }
      if let problem = outcome.problem {
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

  /// Groups the current record; returns the problem that rejects it, if any, and the offset of
  /// a bad `summary_arg_count`, if any.
  private mutating func groupRecord(_ reader: inout RecordReader, isCompact: Bool) -> (
    Problem?, Int?
  ) {
    reader.withRecord { view in
      guard view.kind(0) == .object else {
        return (
          Problem(code: "NotAnObject", message: "the JSON text is not an object", offset: 0), nil
        )
      }
      let found = RecordFields(view)
      let facts: RecordFacts
      do throws(Problem) {
        facts = try fields.facts(view, found)
      } catch {
        return (error, nil)
      }
      grouper.add(record: view, isCompact: isCompact, fields: found, facts: facts)
      return (nil, facts.badWeight ? Int(view.tokens[found.summaryArgCount].start) : nil)
    }
  }

  private mutating func mergeObject(_ reader: inout RecordReader, isCompact: Bool) -> (
    Problem?, Int?
  ) {
    reader.withRecord { view in
      do throws(Problem) {
        if try !grouper.add(object: view, isCompact: isCompact, fieldReader: &fields) {
          unrecorded = true
        }
        return (nil, nil)
      } catch {
        return (error, nil)
      }
    }
  }

  /// The warning, given once per file at its first group object without `grouping`: it was
  /// merged as made with the merge's options.
  private func unrecordedWarning(file: String, line: Int) -> Diagnostic {
    let options = grouper.grouping
    let spelled = [GroupField.GroupingEntry.by, .sort, .order].map {
      Grouping.describe($0, of: options)
    }
    return Diagnostic(
      .warning, "UnrecordedGrouping",
      "a group object without '\(GroupField.grouping.key)' (made by an older notif-group): "
        + "merged unchecked, as if made with \(spelled.joined(separator: " "))",
      file: file, line: line, column: 1)
  }

  /// Writes a diagnostic to standard error at once, so it shows while the run goes on. A failed
  /// write to standard error cannot be reported anywhere: it does not stop the run.
  private func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    try? stderr.write(format.render(diagnostic, program: GroupCommand.name))
    try? stderr.flush()
  }
}
