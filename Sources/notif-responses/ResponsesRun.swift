import NotifCLI
import NotifJSON
import NotifModel
import NotifPush
import NotifSweep

/// One run of notif-responses: reads the side files, then every answer of every operand in
/// turn, writing a record for each; then the summary, then the prune of the token file.
struct ResponsesRun: ToolRun {
  let configuration: ResponsesCommand.Configuration
  let environment: ToolEnvironment
  /// Writes the diagnostics of the answers and the side files, and the progress line
  /// (`--quiet`, `--max-errors`, `--progress`); the prune has the sweep's.
  var reporter: Reporter
  /// The bytes of the operands read before the current one, for the progress line.
  var bytesBefore: Int64 = 0
  private let table = ResponseTable()
  private let retryTime: RetryTime
  var output = ByteBuffer(capacity: 160 * 1024)
  var status = ExitStatus.success
  private var tokens = TokenRegistry()
  private var requests: RequestIndex?
  private var messageReader: MessageReader
  /// How many answers each row of the table decided, for `--summary`.
  private var rowCounts: [Int]
  private(set) var responses = 0
  var rejected = 0
  /// The tokens the answers say to prune, with `--prune`.
  private var prune = PruneCandidates()
  private var nowText = ByteBuffer(capacity: 32)

  init(configuration: ResponsesCommand.Configuration, environment: ToolEnvironment) {
    self.configuration = configuration
    self.environment = environment
    reporter = Reporter(
      program: ResponsesCommand.name, options: configuration.reporting, environment: environment)
    retryTime = RetryTime(seed: configuration.seed)
    rowCounts = [Int](repeating: 0, count: ResponseRule.table.count)
    messageReader = MessageReader(
      defaults: InputDefaults(app: nil, pushType: nil, now: configuration.now))
  }

  /// A write to standard output failed: the run stops.
  struct OutputFailed: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    decideAll(&stdout, &stderr)
    if let sweep = configuration.prune, status != .failure {
      sweepTokenFile(sweep, &stdout, &stderr)
    }
    reporter.finish(&stderr)
    return status
  }

  /// Reads the side files and every answer, and writes the records and the summary.
  private mutating func decideAll(_ stdout: inout OutputWriter, _ stderr: inout OutputWriter) {
    do throws(SideFileError) {
      if let path = configuration.tokensPath {
        tokens = try TokenRegistry(path: path, maxLineBytes: configuration.maxRecordBytes)
      }
      if let path = configuration.requestsPath {
        requests = try RequestIndex(path: path, maxLineBytes: configuration.maxRecordBytes)
      }
    } catch {
      reporter.report(error.diagnostic, &stderr)
      status = .failure
      return
    }
    reporter.startProgress(totalBytes: InputFile.totalBytes(of: configuration.files))
    do throws(OutputFailed) {
      for file in configuration.files {
        try read(file, &stdout, &stderr)
      }
      if configuration.summary { writeSummary() }
      do throws(SystemError) {
        try stdout.write(output)
        output.removeAll()
        try stdout.flush()
      } catch {
        throw OutputFailed(error: error)
      }
    } catch {
      status = reporter.reportFailedWrite(error.error, &stderr)
    }
  }

  /// `--prune`: the sweep of the token file, which reports through the run's reporter.
  private mutating func sweepTokenFile(
    _ sweep: SweepOptions, _ stdout: inout OutputWriter, _ stderr: inout OutputWriter
  ) {
    // `--tokens` is read again under its own lock where it is another file than the one
    // pruned: the prune decides from the registrations as they are then.
    let tokens = configuration.tokensPath.flatMap { path -> String? in
      guard let store = sweep.store, let a = FileIdentity(path: path),
        let b = FileIdentity(path: store)
      else { return path }
      return a == b ? nil : path
    }
    var prune = TokenPrune(
      candidates: prune, tokensFile: tokens, now: configuration.now,
      monotonicClock: environment.monotonicClock)
    let swept = SweepDriver.run(
      &prune, program: ResponsesCommand.name, options: sweep, environment: environment,
      reporter: &reporter, stdout: &stdout, stderr: &stderr)
    status = max(status, swept)
  }

  // MARK: - Deciding

  /// Decides one answer and writes its record. `locate` gives the line and column of a byte
  /// offset in the answer's JSON text (`view`), for a warning about one of its values.
  mutating func decide(
    _ response: inout Response, _ view: JSONView?, _ file: String,
    _ stderr: inout OutputWriter, locate: (Int) -> (line: Int, column: Int)
  ) {
    responses += 1
    let status = response.vendor == .expo ? nil : response.status
    var row = table.row(response.vendor, status: status, reason: response.reason)
    let attempt = response.attempt ?? configuration.attempt
    // The token, decoded, only for the answers that may prune it.
    func token() -> [UInt8]? { view.flatMap { view in response.tokenIndex.map(view.stringBytes) } }
    // When the service last knew the token to be gone: APNs's timestamp, else the time of the
    // run (the answer came before it, or during it from a sender's pipe).
    var goneAt = configuration.now
    if table.rows[row].action == .pruneToken, let timestamp = response.timestamp {
      switch timestamp {
      case .time(let time):
        goneAt = time
        if tokens.count > 0, let token = token(), let registered = tokens.registeredAt(token),
          registered > time
        {
          row = table.reregistered
        }
      case .unreadable(let text):
        row = table.unreadableTimestamp
        let at = locate(0)
        reporter.report(
          Diagnostic(
            .warning, "BadTimestamp",
            "APNs's 'timestamp' '\(text)' is not milliseconds since 1970 from 0001 to 9999: "
              + "the token is kept", file: file, line: at.line, column: at.column), &stderr)
      }
    }
    if table.rows[row].id == "fcm-invalid-argument" && response.aboutToken {
      row = table.invalidRegistrationToken
    }
    if table.rows[row].action.retries && attempt >= configuration.maxAttempts {
      row = table.pastMaxAttempts
    }
    if table.isNotFinal(row), let status {
      let at = locate(0)
      reporter.report(
        Diagnostic(
          .warning, "NotFinalStatus",
          "status \(status) is no final answer of a push service: the request is not sent again",
          file: file, line: at.line, column: at.column), &stderr)
    }
    let rule = table.rows[row]
    rowCounts[row] += 1
    if rule.action == .pruneToken, configuration.prune != nil, let token = token() {
      prune.add(token, goneAt: goneAt)
    }

    output.append("{\"source\":\"")
    output.append(response.source.name)
    output.append("\",\"token\":")
    if let token = response.token { output.append(token) } else { output.append("null") }
    output.append(",\"request_id\":")
    if let id = response.requestID { output.append(id) } else { output.append("null") }
    output.append(",\"status\":")
    output.append(orNull: response.status.map(Int64.init))
    output.append(",\"reason\":")
    if let reason = response.reason {
      JSONEscapes.writeString(reason, into: &output)
    } else {
      output.append("null")
    }
    output.append(",\"action\":\"")
    output.append(rule.action.name)
    output.append("\",\"why\":")
    JSONEscapes.writeString(rule.why, into: &output)
    output.append(",\"retry_at\":")
    if rule.action.retries {
      output.append(UInt8(ascii: "\""))
      let at = retryAt(
        response, attempt, slowDown: rule.action == .slowDown, view, file, &stderr,
        locate: locate)
      at.write(into: &output)
      output.append(UInt8(ascii: "\""))
    } else {
      output.append("null")
    }
    output.append(",\"attempt\":")
    output.append(decimal: attempt)
    output.append(",\"rule\":")
    JSONEscapes.writeString(rule.id, into: &output)
    if requests != nil {
      output.append(",\"diagnostics\":")
      if rule.action == .fixPayload, let view, let id = response.requestIDIndex {
        writeDiagnostics(view.stringBytes(id))
      } else {
        output.append("null")
      }
    }
    if let view, let object = response.object {
      view.forEachMember(of: object) { key, value in
        guard Self.ownKeys.find(view, key) == nil else { return }
        output.append(UInt8(ascii: ","))
        JSONWriter.writeCompact(view, key, into: &output)
        output.append(UInt8(ascii: ":"))
        JSONWriter.writeCompact(view, value, into: &output)
      }
    }
    output.append("}\n")
  }

  /// The keys the record writes itself: the answer's members of these names are not kept.
  private static let ownKeys = KeyTable<Bool>(
    [
      "source", "token", "request_id", "status", "reason", "action", "why", "retry_at",
      "attempt", "rule", "diagnostics",
    ].map { ($0, true) })

  /// When to send again: `Retry-After` (seconds from now, or its date, never before now),
  /// else the back-off of this attempt.
  private mutating func retryAt(
    _ response: Response, _ attempt: Int64, slowDown: Bool, _ view: JSONView?, _ file: String,
    _ stderr: inout OutputWriter, locate: (Int) -> (line: Int, column: Int)
  ) -> Timestamp {
    let now = configuration.now
    if let view, let index = response.retryAfter {
      switch RetryTime.retryAfter(view, index, now: now) {
      case .seconds(let seconds):
        // Never past the last instant RFC 3339 writes (a Retry-After of 2^40 seconds).
        return min(
          Timestamp(seconds: now.seconds + seconds, nanoseconds: now.nanoseconds), .maximum)
      case .time(let time):
        return max(time, now)
      case .pastLatest:
        let at = locate(Int(view.tokens[index].start))
        reporter.report(
          Diagnostic(
            .warning, "BadRetryAfter",
            "'Retry-After' is more than 2^40 seconds: retry_at is the latest time notif "
              + "writes, \(Timestamp.maximum)", file: file, line: at.line, column: at.column),
          &stderr)
        return .maximum
      case nil:
        let at = locate(Int(view.tokens[index].start))
        reporter.report(
          Diagnostic(
            .warning, "BadRetryAfter",
            "'Retry-After' is neither whole seconds nor an HTTP date: the back-off is used",
            file: file, line: at.line, column: at.column), &stderr)
      }
    }
    let delay = retryTime.backoff(
      attempt: attempt, slowDown: slowDown,
      key: response.token, salt: response.requestID)
    return min(Timestamp(seconds: now.seconds + delay, nanoseconds: now.nanoseconds), .maximum)
  }

  /// What notif-parse finds in the request with this id: an array of the diagnostics, or null
  /// when `--requests` does not have it.
  private mutating func writeDiagnostics(_ id: [UInt8]) {
    guard let requests, let request = requests.request(id) else {
      output.append("null")
      return
    }
    output.append(UInt8(ascii: "["))
    var requestParser = JSONParser()
    var checker = messageReader
    request.text.withUnsafeBytes { text in
      guard case .complete = requestParser.parse(text, isFinal: true) else { return }
      requestParser.withView(over: text) { view in
        checker.read(view)
      }
    }
    messageReader = checker
    do {
      for (i, finding) in checker.findings.enumerated() {
        output.append(i == 0 ? "{\"file\":" : ",{\"file\":")
        JSONEscapes.writeString(requests.path, into: &output)
        output.append(",\"line\":")
        output.append(decimal: Int64(request.line))
        output.append(",\"severity\":\"")
        output.append(utf8: finding.severity.rawValue)
        output.append("\",\"code\":")
        JSONEscapes.writeString(finding.code, into: &output)
        output.append(",\"message\":")
        JSONEscapes.writeString(finding.message, into: &output)
        output.append(UInt8(ascii: "}"))
      }
    }
    output.append(UInt8(ascii: "]"))
  }

  // MARK: - Summary

  /// The last line with `--summary`: how many answers, how many lines were rejected, the count
  /// of each action (all of them, in their order) and of each rule that decided any (in the
  /// table's order).
  private mutating func writeSummary() {
    var actions = [Int](repeating: 0, count: ResponseAction.allCases.count)
    for (row, count) in rowCounts.enumerated() {
      actions[Int(table.rows[row].action.rawValue)] += count
    }
    output.append("{\"summary\":{\"responses\":")
    output.append(decimal: Int64(responses))
    output.append(",\"rejected\":")
    output.append(decimal: Int64(rejected))
    output.append(",\"actions\":{")
    for action in ResponseAction.allCases {
      output.append(action.rawValue == 0 ? "\"" : ",\"")
      output.append(action.name)
      output.append("\":")
      output.append(decimal: Int64(actions[Int(action.rawValue)]))
    }
    output.append("},\"rules\":[")
    var first = true
    for (row, count) in rowCounts.enumerated() where count > 0 {
      let rule = table.rows[row]
      output.append(first ? "{\"rule\":" : ",{\"rule\":")
      first = false
      JSONEscapes.writeString(rule.id, into: &output)
      output.append(",\"action\":\"")
      output.append(rule.action.name)
      output.append("\",\"count\":")
      output.append(decimal: Int64(count))
      output.append(UInt8(ascii: "}"))
    }
    output.append("]}}\n")
  }

  // MARK: - Diagnostics

  /// Reports an answer that cannot be decided; `locate` places its offset in the text.
  mutating func reject(
    _ problem: RecordProblem, _ file: String, _ stderr: inout OutputWriter,
    locate: (Int) -> (line: Int, column: Int)
  ) {
    rejected += 1
    status = max(status, .rejected)
    let at = locate(problem.offset)
    reporter.report(
      Diagnostic(
        .error, problem.code, problem.message, file: file, line: at.line, column: at.column),
      &stderr)
  }

}

extension ByteBuffer {
  /// Appends `value` in decimal, or `null` when there is none.
  fileprivate mutating func append(orNull value: Int64?) {
    if let value { append(decimal: value) } else { append("null") }
  }
}
