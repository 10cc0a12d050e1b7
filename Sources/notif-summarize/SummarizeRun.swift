import NotifCLI
import NotifCategories
import NotifJSON
import NotifListing
import NotifLocalization
import NotifModel

/// One run of notif-summarize: prepares the formats, then reads, summarizes and writes groups.
struct SummarizeRun: ToolRun {
  let configuration: SummarizeCommand.Configuration
  /// Writes every diagnostic and the progress line (`--quiet`, `--max-errors`, `--progress`).
  private var reporter: Reporter
  private var output = ByteBuffer(capacity: 64 * 1024)
  private var status = ExitStatus.success
  /// The group objects read so far, and the bytes of the inputs read before the current one,
  /// for the progress line.
  private var records = 0
  private var bytesBefore: Int64 = 0
  private var warned: Fallbacks = []
  /// The records of the input being read in group objects left out because the device lists
  /// none of them.
  private var unlisted = UnlistedTally()
  /// The texts of the input being read that are another stage's (records, payloads): rejected,
  /// and reported once at its end.
  private var wrongStage = WrongStageTally()

  init(configuration: SummarizeCommand.Configuration, environment: ToolEnvironment) {
    self.configuration = configuration
    reporter = Reporter(
      program: SummarizeCommand.name, options: configuration.reporting, environment: environment)
  }

  /// A write to standard output failed: processing stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  /// Runs, and ends what the run writes on standard error (`Reporter.finish`) however it ends.
  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    defer { reporter.finish(&stderr) }
    let summarizer: Summarizer
    switch prepare() {
    case .success(let prepared):
      summarizer = prepared.0
      for warning in prepared.1 { reporter.report(warning, &stderr) }
    case .failure(let problem):
      reporter.report(problem, &stderr)
      return .failure
    }
    reporter.startProgress(totalBytes: InputFile.totalBytes(of: configuration.files))
    do throws(OutputFailed) {
      for file in configuration.files {
        try read(file, summarizer, stdout: &stdout, stderr: &stderr)
      }
      do {
        try stdout.flush()
      } catch {
        throw OutputFailed(error: error)
      }
    } catch {
      return reporter.reportFailedWrite(error.error, &stderr)
    }
    return status
  }

  // MARK: - Setup

  private func prepare() -> Result<(Summarizer, [Diagnostic]), Diagnostic> {
    do throws(Diagnostic) {
      let sources = try TextSources(
        categories: configuration.categoriesPath, strings: configuration.stringsPaths,
        locale: configuration.locale)
      let summarizer = try Summarizer(
        profile: configuration.profile, maxArguments: configuration.maxArguments,
        sources: sources)
      return .success((summarizer, sources.warnings + summarizer.warnings))
    } catch {
      return .failure(error)
    }
  }

  // MARK: - Groups

  private mutating func read(
    _ file: String, _ summarizer: Summarizer, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) throws(OutputFailed) {
    let profile = configuration.profile
    let hiddenPreviews = configuration.hiddenPreviews
    let allPushes = configuration.allPushes
    // Where the listing rule's fields are in each leading record and item, found anew each time.
    let locator = RecordFieldLocator()
    var name = file  // as the reader names it, once it has read a text
    // With progress: the input's size, which the bytes before the next input grow by.
    let size = reporter.showsProgress ? InputFile.totalBytes(of: [file]) : nil
    var offset = 0
    let read = try InputFile.forEachRecord(
      of: file, maxRecordBytes: configuration.maxRecordBytes,
      report: { diagnostic in reporter.report(diagnostic, &stderr) },
      whenIdle: { () throws(OutputFailed) in
        // Nothing more to read for now (a pipe): what is summarized goes out before the wait.
        do throws(SystemError) {
          try stdout.flush()
        } catch {
          throw OutputFailed(error: error)
        }
      }
    ) { (reader: inout RecordReader) throws(OutputFailed) in
      name = reader.name
      records += 1
      if reporter.showsProgress {
        offset = reader.recordOffset
        reporter.showProgress(
          records: records, bytes: bytesBefore + Int64(offset), &stderr)
      }
      let isCompact = reader.recordIsCompact
      var fallbacks: Fallbacks = []
      var warning: RecordProblem? = nil
      output.removeAll()
      // The group object goes out from where the reader holds it, then the summaries after it
      // (`output`): a group object is never copied whole.
      var copiesKeptPart = false
      var hasSummaries = false
      var leftOut: UnlistedTally? = nil
      // What a rejected text is, when it is another stage's: told only of those rejected.
      var otherStage: StageText? = nil
      let problem: RecordProblem? = reader.withRecord { view in
        do throws(RecordProblem) {
          let group = try GroupObject.read(
            view, profile: profile, locator: locator, warning: &warning)
          let facts = group.facts
          // A group in which the device lists nothing (one background push) is no stack.
          if !allPushes,
            let listing = try GroupObject.listing(
              view, members: group.members, leadingFields: ListingFields(locator),
              locator: locator),
            listing.listsNothing(count: facts.count)
          {
            leftOut = listing.unlisted
            warning = nil  // about a count no summary uses
            return nil
          }
          let hidden = summarizer.hiddenSummary(facts, fallbacks: &fallbacks)
          let summary =
            hiddenPreviews ? hidden : summarizer.summary(facts, fallbacks: &fallbacks)
          hasSummaries = group.hasSummaries
          copiesKeptPart =
            GroupObject.keptPart(view, isCompact: isCompact, hasSummaries: hasSummaries) != nil
          GroupObject.write(
            view, isCompact: isCompact, hasSummaries: hasSummaries, summary: summary,
            hidden: hidden, after: &output)
          return nil
        } catch {
          if let kind = StageText.kind(of: view), kind != .groupObject { otherStage = kind }
          return error
        }
      }
      if let otherStage {
        wrongStage.add(otherStage, line: reader.recordLine)
        status = max(status, .rejected)
        return
      }
      for found in [warning, problem].compactMap({ $0 }) {
        reporter.report(
          reader.diagnostic(
            found.code == "BadGroup" ? .error : .warning, found.code, found.message,
            atRecordOffset: found.offset), &stderr)
      }
      if problem != nil {
        status = max(status, .rejected)
        return
      }
      if let leftOut {
        unlisted.add(leftOut)
        return
      }
      let unwarned = fallbacks.subtracting(warned)
      if !unwarned.isEmpty {
        warned.formUnion(unwarned)
        warnEnglish(unwarned, file: reader.name, line: reader.recordLine, stderr: &stderr)
      }
      do throws(SystemError) {
        if copiesKeptPart {
          let failure: SystemError? = reader.withRecord { view in
            guard
              let kept = GroupObject.keptPart(
                view, isCompact: isCompact, hasSummaries: hasSummaries)
            else { return nil }
            do throws(SystemError) {
              try stdout.write(kept)
              return nil
            } catch {
              return error
            }
          }
          if let failure { throw failure }
        }
        try stdout.write(output)
      } catch {
        throw OutputFailed(error: error)
      }
      // A long object written member by member made `output` large: let go of it.
      if output.capacity > 1 << 20 { output = ByteBuffer(capacity: 64 * 1024) }
    }
    status = max(status, read)
    bytesBefore += size ?? Int64(offset)
    // Another stage's texts were rejected: said once per input, with what to run first.
    for diagnostic in Self.wrongStageDiagnostics(wrongStage, file: name) {
      reporter.report(diagnostic, &stderr)
    }
    wrongStage = WrongStageTally()
    // What the device does not list was left out: said once per input, never silently.
    if let note = unlisted.note(file: name) { reporter.report(note, &stderr) }
    unlisted = UnlistedTally()
  }

  /// The one error of each kind of another stage's texts in `file` (`WrongStage`): what to run
  /// first, or instead.
  static func wrongStageDiagnostics(_ tally: WrongStageTally, file: String) -> [Diagnostic] {
    tally.diagnostics(file: file, severity: .error, wanted: StageText.groupObject.phrase) {
      kind in
      switch kind {
      case .record:
        return "run notif-group first "
          + "(\(WrongStageTally.pipeline(file, "notif-group", "notif-summarize")))"
      case .pushPayload:
        return "run notif-parse and notif-group first "
          + "(\(WrongStageTally.pipeline(file, "notif-parse", "notif-group", "notif-summarize")))"
      case .digestObject:
        return "notif-digest writes its summaries itself; "
          + (kind.readerAdvice(file: file) ?? "")
      case .pushResponse:
        return kind.readerAdvice(file: file)
      case .groupObject:
        return nil
      }
    }
  }

  private mutating func warnEnglish(
    _ fallbacks: Fallbacks, file: String, line: Int, stderr: inout OutputWriter
  ) {
    let keys: [(Fallbacks, String)] = [
      (.summary, Summarizer.summaryKey), (.hidden, Summarizer.hiddenKey),
      (.others, Summarizer.othersKey),
    ]
    for (kind, key) in keys where fallbacks.contains(kind) {
      reporter.report(
        Diagnostic(
          .warning, "MissingTranslation",
          "no built-in translation for locale '\(configuration.locale.requested)' and no '\(key)' in the strings files: English used",
          file: file, line: line), &stderr)
    }
  }
}
