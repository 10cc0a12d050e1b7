import NotifJSON
import NotifModel
import NotifPush
import NotifSweep

/// One run of notif-responses: reads the side files, then every answer of every operand in
/// turn, writing a record for each; then the summary, then the prune of the token file.
struct ResponsesRun: ~Copyable {
  let configuration: ResponsesCommand.Configuration
  let environment: ToolEnvironment
  private let table = ResponseTable()
  private let retryTime: RetryTime
  private var output = ByteBuffer(capacity: 160 * 1024)
  private var status = ExitStatus.success
  private var tokens = TokenRegistry()
  private var requests: RequestIndex?
  private var messageReader: MessageReader
  /// How many answers each row of the table decided, for `--summary`.
  private var rowCounts: [Int]
  private var responses = 0
  private var rejected = 0
  /// The tokens to prune, decoded, with `--prune`.
  private var pruned: Set<[UInt8]> = []
  private var nowText = ByteBuffer(capacity: 32)

  init(configuration: ResponsesCommand.Configuration, environment: ToolEnvironment) {
    self.configuration = configuration
    self.environment = environment
    retryTime = RetryTime(seed: configuration.seed)
    rowCounts = [Int](repeating: 0, count: ResponseRule.table.count)
    messageReader = MessageReader(
      defaults: InputDefaults(app: nil, pushType: nil, now: configuration.now))
  }

  /// A write to standard output failed: the run stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  mutating func execute(stdout: inout OutputWriter, stderr: inout OutputWriter) -> ExitStatus {
    do throws(SideFileError) {
      if let path = configuration.tokensPath {
        tokens = try TokenRegistry(path: path, maxLineBytes: configuration.maxRecordBytes)
      }
      if let path = configuration.requestsPath {
        requests = try RequestIndex(path: path, maxLineBytes: configuration.maxRecordBytes)
      }
    } catch {
      report(error.diagnostic, &stderr)
      return .failure
    }
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
      return ResponsesCommand.tool.reportFailedWrite(
        error.error, format: configuration.format, stderr: &stderr)
    }
    if let sweep = configuration.prune, status != .failure {
      var prune = TokenPrune(tokens: pruned, now: configuration.now)
      let swept = SweepDriver.run(
        &prune, program: ResponsesCommand.name, options: sweep, environment: environment,
        stdout: &stdout, stderr: &stderr)
      status = max(status, swept)
    }
    return status
  }

  // MARK: - Reading

  private mutating func read(
    _ file: String, _ stdout: inout OutputWriter, _ stderr: inout OutputWriter
  ) throws(OutputFailed) {
    let input: InputFile
    do {
      input = try InputFile(operand: file)
    } catch {
      report(Diagnostic(.error, "Unreadable", error.message, file: error.path), &stderr)
      status = max(status, .failure)
      return
    }
    var lines = LineReader(
      fd: input.fd, name: input.name, announcesIdle: true,
      maxLineBytes: configuration.maxRecordBytes)
    var parser = JSONParser()
    var reader = ResponseReader()
    // A JSON text that goes on over lines (a pretty-printed answer), from line `pendingLine`.
    var pending = ByteBuffer(capacity: 4096)
    var pendingLine = 1
    var parsedLength = 0
    while true {
      let line: UnsafeRawBufferPointer
      do throws(SystemError) {
        guard
          let next = try lines.next(whenIdle: { () throws(SystemError) in
            // Nothing more to read for now (a pipe): what is decided goes out before the wait.
            try stdout.write(output)
            output.removeAll()
            try stdout.flush()
          })
        else { break }
        line = next
      } catch {
        if error.path == input.name {
          report(Diagnostic(.error, "Unreadable", error.message, file: input.name), &stderr)
          status = max(status, .failure)
          return
        }
        throw OutputFailed(error: error)
      }
      if lines.isOverlong {
        if pending.count > 0 { tooLarge(pendingLine, input.name, &stderr) }
        pending.removeAll()
        tooLarge(lines.lineNumber, input.name, &stderr)
        continue
      }
      // A text that goes on is parsed again only where it may end: at a line that starts
      // with a bracket (a pretty-printed text's last line, or the next text after one cut
      // short), or once it has doubled since the last parse; so a long one is not parsed
      // again after every line.
      var worthParsing = pending.count == 0 || pending.count >= 2 * parsedLength
      if pending.count == 0 {
        pendingLine = lines.lineNumber
      } else {
        pending.append(UInt8(ascii: "\n"))
        if let first = line.first, "{}[]".utf8.contains(first) { worthParsing = true }
      }
      pending.append(line)
      if pending.count > configuration.maxRecordBytes {
        tooLarge(pendingLine, input.name, &stderr)
        pending.removeAll()
        continue
      }
      if worthParsing {
        parsedLength = pending.count
        keepRest(
          of: &pending, from: &pendingLine, final: false, input.name, &parser, &reader, &stderr)
      }
      if output.count >= 128 * 1024 {
        do throws(SystemError) {
          try stdout.write(output)
          output.removeAll()
        } catch {
          throw OutputFailed(error: error)
        }
      }
    }
    keepRest(of: &pending, from: &pendingLine, final: true, input.name, &parser, &reader, &stderr)
  }

  private mutating func tooLarge(_ line: Int, _ file: String, _ stderr: inout OutputWriter) {
    rejected += 1
    status = max(status, .rejected)
    report(
      Diagnostic(
        .error, "RecordTooLarge",
        SweepOptions.tooLongMessage(limit: configuration.maxRecordBytes), file: file, line: line,
        column: 1), &stderr)
  }

  /// Decides what `pending` holds in full, and keeps in it the start of a JSON text that goes
  /// on in the lines to come (unless `final`), with `line` the line it starts on.
  private mutating func keepRest(
    of pending: inout ByteBuffer, from line: inout Int, final: Bool, _ file: String,
    _ parser: inout JSONParser, _ reader: inout ResponseReader, _ stderr: inout OutputWriter
  ) {
    guard pending.count > 0 else { return }
    let firstLine = line
    let consumed = pending.withUnsafeBytes { bytes in
      handle(TextPlace(bytes: bytes, firstLine: firstLine), final, file, &parser, &reader, &stderr)
    }
    if consumed >= pending.count {
      pending.removeAll()
      return
    }
    let rest = pending.withUnsafeBytes { bytes -> [UInt8] in
      line += bytes[..<consumed].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
      return Array(bytes[consumed...])
    }
    pending.removeAll()
    rest.withUnsafeBytes { pending.append($0) }
  }

  /// Decides the answers of the JSON texts (or the apns2 line) `place` holds, one after the
  /// other, and writes their records; returns how many of its bytes it is done with: all, or
  /// (unless `final`) up to a JSON text that has not ended yet.
  private mutating func handle(
    _ place: TextPlace, _ final: Bool, _ file: String, _ parser: inout JSONParser,
    _ reader: inout ResponseReader, _ stderr: inout OutputWriter
  ) -> Int {
    let bytes = place.bytes
    var start = 0
    func skipSpace() {
      while start < bytes.count && (Self.isSpace(bytes[start]) || bytes[start] == 0x0A) {
        start += 1
      }
    }
    skipSpace()
    guard start < bytes.count else { return bytes.count }
    guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else {
      var end = bytes.count
      while end > start && Self.isSpace(bytes[end - 1]) { end -= 1 }
      guard var response = Self.apns2Line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
      else {
        reject(
          ResponseProblem(
            code: "BadResponse",
            message:
              "not a JSON object, nor the apns2 command's line ('410: 'Unregistered'')",
            offset: start), place, file, &stderr)
        return bytes.count
      }
      decide(&response, nil, file, place, &stderr)
      return bytes.count
    }
    // Concatenated texts, as jq reads them: one after the other, white space between.
    while start < bytes.count {
      guard bytes[start] == UInt8(ascii: "{") || bytes[start] == UInt8(ascii: "[") else {
        reject(
          ResponseProblem(
            code: "InvalidJSON", message: "more after the JSON text that is not JSON",
            offset: start), place, file, &stderr)
        return bytes.count
      }
      let text = UnsafeRawBufferPointer(rebasing: bytes[start...])
      let length: Int
      switch parser.parse(text, isFinal: final) {
      case .incomplete:
        if !final { return start }
        if let next = Self.nextTextLine(bytes, after: start, before: bytes.count) {
          return cutShort(at: next, place, file, &stderr)
        }
        reject(
          ResponseProblem(
            code: "InvalidJSON", message: "unexpected end of input", offset: bytes.count),
          place, file, &stderr)
        return bytes.count
      case .failed(let error):
        // A line that starts a text before the error: the text was cut short there (a line
        // of NDJSON cut off), and the next one starts at that line.
        if let next = Self.nextTextLine(bytes, after: start, before: start + error.offset + 1) {
          return cutShort(at: next, place, file, &stderr)
        }
        reject(
          ResponseProblem(
            code: error.code.rawValue, message: error.message, offset: start + error.offset),
          place, file, &stderr)
        return bytes.count
      case .complete(let end):
        length = end
      }
      let textStart = start
      var problem: ResponseProblem?
      parser.withView(over: UnsafeRawBufferPointer(rebasing: text[..<length])) { view in
        do throws(ResponseProblem) {
          try reader.read(view) { response in
            decide(&response, view, file, place, &stderr, textStart: textStart)
          }
        } catch {
          problem = error
        }
      }
      if var problem {
        problem.offset += textStart
        reject(problem, place, file, &stderr)
      }
      start += length
      skipSpace()
    }
    return bytes.count
  }

  /// Reports the text that ends before the line at `next` as cut short; returns `next`.
  private mutating func cutShort(
    at next: Int, _ place: TextPlace, _ file: String, _ stderr: inout OutputWriter
  ) -> Int {
    reject(
      ResponseProblem(
        code: "InvalidJSON", message: "unexpected end of input: the next line starts a text",
        offset: next - 1), place, file, &stderr)
    return next
  }

  /// The offset of the first line after `start` and before `end` that starts with `{` or `[`.
  static func nextTextLine(_ bytes: UnsafeRawBufferPointer, after start: Int, before end: Int)
    -> Int?
  {
    var i = start + 1
    while i < min(end, bytes.count) {
      if bytes[i - 1] == 0x0A && (bytes[i] == UInt8(ascii: "{") || bytes[i] == UInt8(ascii: "[")) {
        return i
      }
      i += 1
    }
    return nil
  }

  private static func isSpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0D
  }

  /// The apns2 command's output line, `410: 'Unregistered'` (status, colon, the reason in
  /// single quotes, empty for a success).
  static func apns2Line(_ text: UnsafeRawBufferPointer) -> Response? {
    guard text.count >= 7, text[3] == UInt8(ascii: ":"), text[4] == 0x20,
      text[5] == UInt8(ascii: "'"), text[text.count - 1] == UInt8(ascii: "'")
    else { return nil }
    var status = 0
    for i in 0..<3 {
      guard text[i] >= 0x30 && text[i] <= 0x39 else { return nil }
      status = status * 10 + Int(text[i] - 0x30)
    }
    guard (100...599).contains(status) else { return nil }
    let reason = UnsafeRawBufferPointer(rebasing: text[6..<text.count - 1])
    guard reason.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "'") }) else {
      return nil
    }
    var response = Response()
    response.status = status
    response.reason = reason.isEmpty ? nil : String(decoding: reason, as: UTF8.self)
    return response
  }

  // MARK: - Deciding

  private mutating func decide(
    _ response: inout Response, _ view: JSONView?, _ file: String, _ place: TextPlace,
    _ stderr: inout OutputWriter, textStart: Int = 0
  ) {
    responses += 1
    let status = response.vendor == .expo ? nil : response.status
    var row =
      table.row(response.vendor, status: status, reason: response.reason)
      ?? table.row(response.source, status: status, reason: nil)
      ?? table.row(response.source, status: 499, reason: "")
      ?? 0
    let attempt = response.attempt ?? configuration.attempt
    if table.rows[row].id == "apns-unregistered", let timestamp = response.timestamp,
      let view, let token = response.tokenIndex,
      let registered = tokens.registeredAt(view.stringBytes(token)),
      registered.seconds * 1000 + Int64(registered.nanoseconds / 1_000_000) > timestamp
    {
      row = table.reregistered
    }
    if table.rows[row].id == "fcm-invalid-argument" && response.aboutToken {
      row = table.invalidRegistrationToken
    }
    if table.rows[row].action.retries && attempt >= configuration.maxAttempts {
      row = table.pastMaxAttempts
    }
    let rule = table.rows[row]
    rowCounts[row] += 1
    if rule.action == .pruneToken, configuration.prune != nil, let view,
      let token = response.tokenIndex
    {
      pruned.insert(view.stringBytes(token))
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
      retryAt(
        response, attempt, slowDown: rule.action == .slowDown, view, file, place, &stderr,
        textStart: textStart
      )
      .write(into: &output)
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
  private func retryAt(
    _ response: Response, _ attempt: Int64, slowDown: Bool, _ view: JSONView?, _ file: String,
    _ place: TextPlace, _ stderr: inout OutputWriter, textStart: Int
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
      case nil:
        let at = place.position(of: textStart + Int(view.tokens[index].start))
        report(
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

  private mutating func reject(
    _ problem: ResponseProblem, _ place: TextPlace, _ file: String, _ stderr: inout OutputWriter
  ) {
    rejected += 1
    status = max(status, .rejected)
    let at = place.position(of: problem.offset)
    report(
      Diagnostic(
        .error, problem.code, problem.message, file: file, line: at.line, column: at.column),
      &stderr)
  }

  private func report(_ diagnostic: Diagnostic, _ stderr: inout OutputWriter) {
    // A failed write to standard error cannot be reported anywhere: it does not stop the run.
    try? stderr.write(configuration.format.render(diagnostic, program: ResponsesCommand.name))
    try? stderr.flush()
  }
}

extension ByteBuffer {
  /// Appends `value` in decimal, or `null` when there is none.
  fileprivate mutating func append(orNull value: Int64?) {
    if let value { append(decimal: value) } else { append("null") }
  }
}

/// The bytes of one or more lines of an input, from line `firstLine`: where a byte offset in
/// them is, for a diagnostic.
struct TextPlace {
  let bytes: UnsafeRawBufferPointer
  let firstLine: Int

  /// The 1-based line and column (in Unicode scalars) of byte `offset`.
  func position(of offset: Int) -> (line: Int, column: Int) {
    var line = firstLine
    var column = 1
    for i in 0..<min(max(offset, 0), bytes.count) {
      if bytes[i] == 0x0A {
        line += 1
        column = 1
      } else if bytes[i] & 0xC0 != 0x80 {
        column += 1
      }
    }
    return (line, column)
  }
}
