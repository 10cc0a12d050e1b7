import NotifCLI
import NotifJSON
import NotifModel
import NotifPush

/// How notif-responses reads its operands: through the engine's `RecordReader`, as every tool
/// reads JSON texts (NDJSON, pretty-printed and concatenated texts, with the same diagnostics),
/// with the reader's `nextOrLine()`, which hands over whole the lines that start no JSON text:
/// the apns2 command's line (`410: 'Unregistered'`) is one. Each answer goes to `decide`.
extension ResponsesRun {

  mutating func read(
    _ file: String, _ stdout: inout OutputWriter, _ stderr: inout OutputWriter
  ) throws(OutputFailed) {
    let input: InputFile
    do {
      input = try InputFile(operand: file)
    } catch {
      reporter.report(Diagnostic(.error, "Unreadable", error.message, file: error.path), &stderr)
      status = max(status, .failure)
      return
    }
    var reader = RecordReader(
      fd: input.fd, name: input.name, maxRecordBytes: configuration.maxRecordBytes,
      announcesIdle: true)
    // With progress: where the operand starts, to add the bytes read of it at its end.
    let start = reporter.showsProgress ? lseek(input.fd, 0, SEEK_CUR) : -1
    var answers = ResponseReader()
    while true {
      let found: RecordOrLine
      do {
        found = try reader.nextOrLine()
      } catch {
        reporter.report(Diagnostic(.error, "Unreadable", error.message, file: reader.name), &stderr)
        status = max(status, .failure)
        return
      }
      switch found {
      case .event(.end):
        showProgress(reader, &stderr)
        if reporter.showsProgress {
          let end = lseek(input.fd, 0, SEEK_CUR)
          bytesBefore +=
            start >= 0 && end >= start ? Int64(end - start) : Int64(reader.recordOffset)
        }
        return
      case .event(.idle):
        // Nothing more to read for now (a pipe): what is decided goes out before the wait.
        try writeOutput(&stdout, flushing: true)
        showProgress(reader, &stderr)
      case .event(.failure(let error, let line, let column)):
        // A JSON error rejects its text; a compressed input is one error, and none of it is
        // read (`RecordReader.failure`).
        let (diagnostic, calledFor) = reader.failure(error, line: line, column: column)
        if calledFor == .rejected { rejected += 1 }
        status = max(status, calledFor)
        reporter.report(diagnostic, &stderr)
      case .event(.record):
        decideText(reader, &answers, &stderr)
      case .line:
        decideLine(reader, &stderr)
      }
      // Progress goes with the output's writes: the answers themselves cost nothing more.
      if output.count >= 128 * 1024 {
        try writeOutput(&stdout, flushing: false)
        showProgress(reader, &stderr)
      }
    }
  }

  /// Shows how far the run has come, when the progress line is on.
  private mutating func showProgress(
    _ reader: borrowing RecordReader, _ stderr: inout OutputWriter
  ) {
    guard reporter.showsProgress else { return }
    reporter.showProgress(
      records: responses + rejected, bytes: bytesBefore + Int64(reader.recordOffset), &stderr)
  }

  /// Decides the answers of the JSON text the reader is at: one, or one per Expo ticket or
  /// receipt.
  private mutating func decideText(
    _ reader: borrowing RecordReader, _ answers: inout ResponseReader,
    _ stderr: inout OutputWriter
  ) {
    let file = reader.name
    reader.withRecord { view in
      do throws(RecordProblem) {
        try answers.read(view) { response in
          decide(&response, view, file, &stderr) { reader.position(ofRecordOffset: $0) }
        }
      } catch {
        reject(error, file, &stderr) { reader.position(ofRecordOffset: $0) }
      }
    }
  }

  /// Decides the line the reader is at, which starts no JSON text: the apns2 command's line,
  /// or else a `BadResponse`.
  private mutating func decideLine(_ reader: borrowing RecordReader, _ stderr: inout OutputWriter) {
    let file = reader.name
    reader.withLine { line in
      var end = line.count
      while end > 0 && LineReader.isSpace(line[end - 1]) { end -= 1 }
      if var response = Self.apns2Line(UnsafeRawBufferPointer(rebasing: line[..<end])) {
        decide(&response, nil, file, &stderr) { reader.position(ofRecordOffset: $0) }
        return
      }
      reject(
        RecordProblem(
          code: "BadResponse",
          message: "not a JSON object, nor the apns2 command's line ('410: 'Unregistered'')",
          offset: 0), file, &stderr
      ) { reader.position(ofRecordOffset: $0) }
    }
  }

  /// Writes out the records decided so far; with `flushing`, all the way to standard output.
  private mutating func writeOutput(_ stdout: inout OutputWriter, flushing: Bool)
    throws(OutputFailed)
  {
    do throws(SystemError) {
      try stdout.write(output)
      output.removeAll()
      if flushing { try stdout.flush() }
    } catch {
      throw OutputFailed(error: error)
    }
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
}
