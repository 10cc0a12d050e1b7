import NotifCLI
import NotifCategories
import NotifJSON
import NotifListing
import NotifLocalization
import NotifModel

/// One run of notif-summarize: prepares the formats, then reads, summarizes and writes groups.
struct SummarizeRun {
  let configuration: SummarizeCommand.Configuration
  private var output = ByteBuffer(capacity: 64 * 1024)
  private var status = ExitStatus.success
  private var warned: Fallbacks = []
  /// The records of the input being read in group objects left out because the device lists
  /// none of them.
  private var unlisted = UnlistedTally()
  /// The texts of the input being read that are another stage's (records, payloads): rejected,
  /// and reported once at its end.
  private var wrongStage = WrongStageTally()

  init(configuration: SummarizeCommand.Configuration) {
    self.configuration = configuration
  }

  /// A write to standard output failed: processing stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    let summarizer: Summarizer
    switch prepare() {
    case .success(let prepared):
      summarizer = prepared.0
      for warning in prepared.1 { report(warning, stderr: &stderr) }
    case .failure(let problem):
      report(problem, stderr: &stderr)
      return .failure
    }
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
      return SummarizeCommand.tool.reportFailedWrite(
        error.error, format: configuration.format, stderr: &stderr)
    }
    return status
  }

  // MARK: - Setup

  private func prepare() -> Result<(Summarizer, [SetupProblem]), SetupProblem> {
    var registry: CategoryRegistry? = nil
    var lines: [String: (line: Int, column: Int)] = [:]
    if let path = configuration.categoriesPath {
      switch Self.loadRegistry(path) {
      case .success(let loaded):
        registry = loaded.0
        lines = loaded.1
      case .failure(let problem):
        return .failure(problem)
      }
    }
    let strings: LocalizedStrings
    do {
      strings = try LocalizedStrings(
        paths: configuration.stringsPaths, locale: configuration.locale)
    } catch {
      return .failure(SetupProblem(error))
    }
    do {
      let summarizer = try Summarizer(
        profile: configuration.profile, maxArguments: configuration.maxArguments,
        locale: configuration.locale, registry: registry,
        registryFile: configuration.categoriesPath ?? "", categoryLines: lines, strings: strings,
        stringsGiven: !configuration.stringsPaths.isEmpty)
      return .success((summarizer, strings.warnings + summarizer.warnings))
    } catch {
      return .failure(error)
    }
  }

  /// Reads the category registry (`CategoryRegistry.load`, as notif-parse does), with the line
  /// of each category.
  static func loadRegistry(_ path: String) -> Result<
    (CategoryRegistry, [String: (line: Int, column: Int)]), SetupProblem
  > {
    let loaded: (registry: CategoryRegistry, file: ConfigFile)
    do {
      loaded = try CategoryRegistry.load(path)
    } catch {
      return .failure(SetupProblem(error.diagnostic))
    }
    var lines: [String: (line: Int, column: Int)] = [:]
    for category in loaded.registry.categories {
      lines[category.identifier] = loaded.file.position(of: category.offset)
    }
    return .success((loaded.registry, lines))
  }

  // MARK: - Groups

  private mutating func read(
    _ file: String, _ summarizer: Summarizer, stdout: inout OutputWriter,
    stderr: inout OutputWriter
  ) throws(OutputFailed) {
    let profile = configuration.profile
    let hiddenPreviews = configuration.hiddenPreviews
    let allPushes = configuration.allPushes
    var name = file  // as the reader names it, once it has read a text
    let read = try InputFile.forEachRecord(
      of: file, maxRecordBytes: configuration.maxRecordBytes,
      report: { diagnostic in report(diagnostic, stderr: &stderr) },
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
      let isCompact = reader.recordIsCompact
      var fallbacks: Fallbacks = []
      var warning: GroupObject.Problem? = nil
      output.removeAll()
      // The group object goes out from where the reader holds it, then the summaries after it
      // (`output`): a group object is never copied whole.
      var copiesKeptPart = false
      var leftOut: UnlistedTally? = nil
      // What a rejected text is, when it is another stage's: told only of those rejected.
      var otherStage: StageText? = nil
      let problem: GroupObject.Problem? = reader.withRecord { view in
        do throws(GroupObject.Problem) {
          let facts = try GroupObject.read(view, profile: profile, warning: &warning)
          // A group in which the device lists nothing (one background push) is no stack.
          if !allPushes, let listing = try GroupObject.listing(view),
            listing.listsNothing(count: facts.count)
          {
            leftOut = listing.unlisted
            warning = nil  // about a count no summary uses
            return nil
          }
          let hidden = summarizer.hiddenSummary(facts, fallbacks: &fallbacks)
          let summary =
            hiddenPreviews ? hidden : summarizer.summary(facts, fallbacks: &fallbacks)
          copiesKeptPart = GroupObject.keptPart(view, isCompact: isCompact) != nil
          GroupObject.write(
            view, isCompact: isCompact, summary: summary, hidden: hidden, after: &output)
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
        report(
          reader.diagnostic(
            found.code == "BadGroup" ? .error : .warning, found.code, found.message,
            atRecordOffset: found.offset), stderr: &stderr)
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
            guard let kept = GroupObject.keptPart(view, isCompact: isCompact) else { return nil }
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
    // Another stage's texts were rejected: said once per input, with what to run first.
    for diagnostic in Self.wrongStageDiagnostics(wrongStage, file: name) {
      report(diagnostic, stderr: &stderr)
    }
    wrongStage = WrongStageTally()
    // What the device does not list was left out: said once per input, never silently.
    if let note = unlisted.note(file: name) { report(note, stderr: &stderr) }
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

  private func warnEnglish(
    _ fallbacks: Fallbacks, file: String, line: Int, stderr: inout OutputWriter
  ) {
    let keys: [(Fallbacks, String)] = [
      (.summary, Summarizer.summaryKey), (.hidden, Summarizer.hiddenKey),
      (.others, Summarizer.othersKey),
    ]
    for (kind, key) in keys where fallbacks.contains(kind) {
      report(
        Diagnostic(
          .warning, "MissingTranslation",
          "no built-in translation for locale '\(configuration.locale.requested)' and no '\(key)' in the strings files: English used",
          file: file, line: line), stderr: &stderr)
    }
  }

  // MARK: - Diagnostics

  private func report(_ problem: SetupProblem, stderr: inout OutputWriter) {
    report(
      Diagnostic(
        problem.severity, problem.code, problem.message, file: problem.file, line: problem.line,
        column: problem.column), stderr: &stderr)
  }

  private func report(_ diagnostic: Diagnostic, stderr: inout OutputWriter) {
    // A failed write to standard error cannot be reported anywhere: it does not stop the run.
    try? stderr.write(configuration.format.render(diagnostic, program: SummarizeCommand.name))
    try? stderr.flush()
  }
}
