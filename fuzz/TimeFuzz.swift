// Fuzz target `time`: every time and length of time a tool reads from its user's text: RFC 3339
// (as a String and as raw bytes, the form the hot loops use), `--now` and SOURCE_DATE_EPOCH
// (`Timestamp.reference`: RFC 3339 or `@` and seconds), and durations (`TimeToLive`).
//
// Properties:
//   (a) the byte and String readers of RFC 3339 agree on valid UTF-8, and the reader of the
//       canonical form (`YYYY-MM-DDTHH:MM:SSZ`) reads no text the general reader refuses or
//       reads otherwise, and refuses none in that form that it reads;
//   (b) a time that is read can be written, and writing it and reading that back gives the
//       same instant;
//   (c) a duration that is read is positive or zero, and its description reads back as itself;
//   (d) an error has a message, and it is reported in one line.

func fuzzTime(_ input: UnsafeRawBufferPointer) {
  let value = text(input)
  // (a)
  let fromBytes = Timestamp(rfc3339: input)
  let canonical = Timestamp.canonicalRFC3339(input)
  let general = try? Timestamp.generalRFC3339(input).get()
  if let canonical {
    require(canonical == general, "canonical \(canonical), general \(String(describing: general))")
  } else if let general, general.nanoseconds == 0, input.count == 20, input[19] == 0x5A,
    input[10] == 0x54
  {
    fail("the general reader reads \(general), the canonical one nothing")
  }
  if let valid = String(validating: input, as: UTF8.self) {
    let fromText = try? Timestamp(rfc3339: valid)
    require(
      fromBytes == fromText,
      "bytes read \(String(describing: fromBytes)), text \(String(describing: fromText))")
  }
  // (b), (d)
  let clock = { Timestamp(seconds: 0) }
  check { () throws(TimeError) in try Timestamp(rfc3339: value) }
  check { () throws(TimeError) in try Timestamp(argument: value) }
  check { () throws(TimeError) in
    try Timestamp.reference(option: value, sourceDateEpoch: nil, clock: clock)
  }
  check { () throws(TimeError) in
    try Timestamp.reference(option: nil, sourceDateEpoch: value, clock: clock)
  }
  // (c), (d)
  do {
    let length = try TimeToLive(value)
    require(length.seconds >= 0, "'\(value)' reads as \(length.seconds) s")
    require(
      (try? TimeToLive(length.description)) == length,
      "'\(value)' is \(length.seconds) s, written '\(length.description)', which reads otherwise")
  } catch {
    checkMessage(error.message, of: value)
  }
}

/// Reads a time with `read`: checks the instant (`checkRoundTrip`) or the error's message.
func check(_ read: () throws(TimeError) -> Timestamp) {
  do {
    checkRoundTrip(try read())
  } catch {
    checkMessage(error.message, of: "a time")
  }
}

/// Checks that `instant` can be written and that its text reads back as the same instant.
func checkRoundTrip(_ instant: Timestamp) {
  require(instant.isWritable, "read \(instant.seconds) s, which RFC 3339 cannot write")
  var out = ByteBuffer()
  instant.write(into: &out)
  let again = out.withUnsafeBytes { Timestamp(rfc3339: $0) }
  require(again == instant, "\(instant.seconds) s is written '\(out.text)', which reads otherwise")
}

/// Checks that an error message is not empty and is reported in one line that writes no
/// control character, in each diagnostic format.
func checkMessage(_ message: String, of value: String) {
  require(!message.isEmpty, "empty message for '\(value)'")
  for format in DiagnosticFormat.allCases {
    let line = format.render(Diagnostic(.error, "Fuzz", message, file: "f"), program: "notif")
    require(
      line.utf8.firstIndex { $0 < 0x20 } == line.utf8.index(before: line.utf8.endIndex),
      "\(format) diagnostic of more than one line or with a control character: \(line)")
  }
}
