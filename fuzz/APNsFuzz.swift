// Fuzz target `apns`: what notif-parse does with a file of push messages, as one of its worker
// threads does it: `RecordReader` over the bytes, then `RecordProcessor` (the envelope, the
// reader of every format: APNs, FCM, Web Push, SNS with the JSON inside its strings, Expo;
// the registry check, `--lint`), with `--check`, `--lint`, `--app` and `--platform` set from the
// input's last byte so that each combination is reached, and `--dense` from its top bit.
//
// Then the same on payloads made from the input's bytes (`limitPayloads`): an APNs payload in
// an envelope, an FCM message, an Expo message and request whose every numeric field (`badge`,
// `summary-arg-count`, `relevance-score`, the sound's `volume`, `apns-priority`,
// `apns-expiration`, `timestamp`, `ttl`, `notification_count`, ...) is one of the limit
// numbers of fuzz/GroupObjectsFuzz.swift, or a small one.
//
// Properties:
//   (a) every record written is one line holding one JSON object, with the record's keys in
//       `RecordField` order (notif(5)), `id`, `created_at`, `source` and `payload` always, the
//       others only where they are not null (every one with `--dense`), and nothing after the
//       object but the newline;
//   (b) every diagnostic is one line in the documented shape,
//       `notif-parse: <fuzz>:LINE:COL: error|warning: message [Code]`;
//   (c) the tally counts every record: one for each text read, or for an Expo request (an
//       array of messages) one for each message; accepted plus rejected is what it counts;
//   (d) every record's `badge` and `summary_arg_count` is null or in its range of
//       `FieldLimits`, so that notif-group reads it without a warning.

func fuzzAPNs(_ input: UnsafeRawBufferPointer) {
  parseAndCheck(input, flags: input.last ?? 0)
  let payloads = limitPayloads(input)
  payloads.withUnsafeBytes { parseAndCheck($0, flags: input.first ?? 0) }
}

/// Parses `input` as notif-parse does with the options `flags` picks, and checks (a) to (d).
func parseAndCheck(_ input: UnsafeRawBufferPointer, flags: UInt8) {
  var configuration = ParseCommand.Configuration(
    defaults: InputDefaults(
      app: flags & 4 != 0 ? "com.example.fuzz" : nil, pushType: nil,
      now: Timestamp(seconds: 1_795_338_000),
      platform: Platform.allCases[Int(flags >> 3) % Platform.allCases.count]))
  configuration.check = flags & 1 != 0
  configuration.lint = flags & 2 != 0
  configuration.defaults.dense = flags & 0x80 != 0
  configuration.maxRecordBytes = 4096
  var processor = RecordProcessor(configuration: configuration, registry: nil)
  var reader = RecordReader(
    fd: nil, name: "<fuzz>", maxRecordBytes: 4096, pending: input, line: 1, atStreamStart: true)
  var out = ByteBuffer()
  var found = FoundDiagnostics()
  var tally = Tally()
  var records = 0
  while let event = try? reader.next() {
    if case .end = event { break }
    processor.handle(event, of: reader, out: &out, found: &found, tally: &tally)
    records += 1
  }
  require(tally.records >= records, "tally counts \(tally.records) of \(records) texts")
  for diagnostic in found.list + (found.unreadInput.map { [$0] } ?? []) {
    let line = DiagnosticFormat.text.render(diagnostic, program: ParseCommand.name)
    checkDiagnosticShape(String(line.dropLast()))
  }
  guard !configuration.check else { return }
  var accepted = 0
  out.withUnsafeBytes { lines in
    var start = 0
    while start < lines.count {
      let stop = lines[start...].firstIndex(of: 0x0A) ?? lines.count
      checkRecordLine(
        UnsafeRawBufferPointer(rebasing: lines[start..<stop]), dense: configuration.defaults.dense)
      accepted += 1
      start = stop + 1
    }
  }
  require(
    accepted + tally.rejected == tally.records,
    "\(accepted) written, \(tally.rejected) rejected of \(tally.records)")
}

/// Checks that `line` is one JSON object whose keys are the record's, in order: every one when
/// `dense`, else those whose values are not null, and the four that never are.
func checkRecordLine(_ line: UnsafeRawBufferPointer, dense: Bool) {
  var parser = JSONParser()
  guard case .complete(let end) = parser.parse(line, isFinal: true) else {
    fail("a record line does not parse: \(String(decoding: line, as: UTF8.self))")
  }
  require(end == line.count, "text after the record: \(String(decoding: line, as: UTF8.self))")
  parser.withView(over: line) { view in
    require(view.kind(0) == .object, "a record line is not an object")
    var keys: [String] = []
    var nulls: [String] = []
    view.forEachMember(of: 0) { key, value in
      keys.append(view.string(key))
      if view.kind(value) == .null { nulls.append(view.string(key)) }
    }
    let order = RecordField.written.map(\.key)
    if dense {
      require(keys == order, "record keys \(keys)")
    } else {
      require(nulls.isEmpty, "a record written with null fields \(nulls)")
      var next = order.startIndex
      for key in keys {
        guard let place = order[next...].firstIndex(of: key) else {
          fail("record keys out of notif(5)'s order: \(keys)")
        }
        next = place + 1
      }
      for field in [RecordField.id, .createdAt, .source, .payload] {
        require(keys.contains(field.key), "a record without '\(field.key)': \(keys)")
      }
    }
    if let badge = view.member(0, bytes: Array(RecordField.badge.key.utf8)),
      view.kind(badge) != .null
    {
      require(
        view.integer(badge).map(FieldLimits.tally.contains) ?? false,
        "a record's badge: \(String(decoding: view.raw(badge), as: UTF8.self))")
    }
    let fields = RecordFields(view)
    var reader = RecordFieldReader()
    if let facts = try? reader.facts(view, fields) {
      require(!facts.badWeight, "notif-group warns of a summary_arg_count notif-parse wrote")
    }
  }
}

/// Payloads made from `input` (see the top of this file), one a line.
func limitPayloads(_ input: UnsafeRawBufferPointer) -> [UInt8] {
  var stream = ByteStream(bytes: input)
  func n(_ agreeing: String) -> String { stream.number(agreeing) }
  let apns =
    #"{"headers":{"apns-priority":\#(n("10")),"apns-expiration":\#(n("0")),"#
    + #""apns-push-type":"alert"},"payload":{"aps":{"alert":{"title":"T","body":"B","#
    + #""summary-arg":"Ann","summary-arg-count":\#(n("1"))},"badge":\#(n("1")),"#
    + #""relevance-score":\#(n("0.5")),"content-available":\#(n("1")),"#
    + #""mutable-content":\#(n("1")),"sound":{"name":"s","critical":\#(n("1")),"#
    + #""volume":\#(n("1"))},"timestamp":\#(n("1795338000"))}}}"#
  let live =
    #"{"aps":{"event":"update","timestamp":\#(n("1795338000")),"#
    + #""stale-date":\#(n("1795338000")),"dismissal-date":\#(n("1795338000")),"#
    + #""relevance-score":\#(n("100")),"content-state":{}}}"#
  let fcm =
    #"{"message":{"token":"t","android":{"ttl":"\#(n("60"))s","#
    + #""notification":{"notification_count":\#(n("1"))}},"#
    + #""apns":{"payload":{"aps":{"alert":"x","badge":\#(n("1"))}}}}}"#
  let expo =
    #"{"to":"ExponentPushToken[x]","title":"T","badge":\#(n("1")),"ttl":\#(n("60")),"#
    + #""expiration":\#(n("1795338000")),"priority":"high"}"#
  let legacy =
    #"{"to":"t","notification":{"title":"T","badge":"\#(n("1"))"},"time_to_live":\#(n("60"))}"#
  let webPush =
    #"{"web_push":8030,"app_badge":\#(n("1")),"notification":{"title":"T","#
    + #""navigate":"https://example.com/","timestamp":\#(n("1795338000000"))}}"#
  let request = "[\(expo),\(expo)]"
  return Array(
    [apns, live, fcm, expo, legacy, webPush, request].joined(separator: "\n").utf8) + [0x0A]
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
