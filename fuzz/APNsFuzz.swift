// Fuzz target `apns`: what notif-parse does with a file of push messages, as one of its worker
// threads does it: `RecordReader` over the bytes, then `RecordProcessor` (the envelope, the
// normalizer of every format: APNs, FCM, Web Push, SNS with the JSON inside its strings, Expo;
// the registry check, `--lint`), with `--check`, `--lint`, `--app` and `--platform` set from the
// input's last byte so that each combination is reached.
//
// Properties:
//   (a) every record written is one line holding one JSON object, with the record's keys in
//       `RecordField` order (notif(5)) and nothing after the object but the newline;
//   (b) every diagnostic is one line in the documented shape,
//       `notif-parse: <fuzz>:LINE:COL: error|warning: message [Code]`;
//   (c) the tally counts every record: accepted plus rejected is what was read.

func fuzzAPNs(_ input: UnsafeRawBufferPointer) {
  let flags = input.last ?? 0
  var configuration = ParseCommand.Configuration(
    defaults: InputDefaults(
      app: flags & 4 != 0 ? "com.example.fuzz" : nil, pushType: nil,
      now: Timestamp(seconds: 1_795_338_000),
      platform: Platform.allCases[Int(flags >> 3) % Platform.allCases.count]))
  configuration.check = flags & 1 != 0
  configuration.lint = flags & 2 != 0
  configuration.maxRecordBytes = 4096
  var processor = RecordProcessor(configuration: configuration, registry: nil)
  var reader = RecordReader(
    fd: nil, name: "<fuzz>", maxRecordBytes: 4096, pending: input, line: 1, atStreamStart: true)
  var out = ByteBuffer()
  var err = ByteBuffer()
  var tally = Tally()
  var records = 0
  while let event = try? reader.next() {
    if case .end = event { break }
    processor.handle(event, of: reader, out: &out, err: &err, tally: &tally)
    records += 1
  }
  require(tally.records == records, "tally counts \(tally.records) of \(records) records")
  let diagnostics = configuration.check ? out : err
  let lines = diagnostics.text.split(separator: "\n", omittingEmptySubsequences: false)
  for line in lines.dropLast() { checkDiagnosticShape(String(line)) }
  guard !configuration.check else { return }
  var accepted = 0
  out.withUnsafeBytes { lines in
    var start = 0
    while start < lines.count {
      let stop = lines[start...].firstIndex(of: 0x0A) ?? lines.count
      checkRecordLine(UnsafeRawBufferPointer(rebasing: lines[start..<stop]))
      accepted += 1
      start = stop + 1
    }
  }
  require(
    accepted + tally.rejected == records,
    "\(accepted) written, \(tally.rejected) rejected of \(records)")
}

/// Checks that `line` is one JSON object whose keys are the record's, in order.
func checkRecordLine(_ line: UnsafeRawBufferPointer) {
  var parser = JSONParser()
  guard case .complete(let end) = parser.parse(line, isFinal: true) else {
    fail("a record line does not parse: \(String(decoding: line, as: UTF8.self))")
  }
  require(end == line.count, "text after the record: \(String(decoding: line, as: UTF8.self))")
  parser.withView(over: line) { view in
    require(view.kind(0) == .object, "a record line is not an object")
    var keys: [String] = []
    view.forEachMember(of: 0) { key, _ in keys.append(view.string(key)) }
    require(keys == RecordField.allCases.map(\.key), "record keys \(keys)")
  }
}

/// Checks the text form of a diagnostic: `notif-parse: FILE:LINE:COL: error|warning: ... [Code]`.
func checkDiagnosticShape(_ line: String) {
  let prefix = "notif-parse: <fuzz>:"
  require(line.hasPrefix(prefix), "diagnostic without its place: \(line)")
  let rest = line.dropFirst(prefix.count)
  let place = rest.prefix { $0.isNumber || $0 == ":" }
  let numbers = place.split(separator: ":")
  require(numbers.count == 2, "diagnostic without LINE:COL: \(line)")
  let afterPlace = rest.dropFirst(place.count)
  require(
    afterPlace.hasPrefix(" error: ") || afterPlace.hasPrefix(" warning: "),
    "diagnostic without its severity: \(line)")
  require(line.hasSuffix("]") && line.contains(" ["), "diagnostic without a code: \(line)")
  require(!line.utf8.contains { $0 < 0x20 }, "diagnostic with a control character: \(line)")
}
