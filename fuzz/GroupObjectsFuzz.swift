// Fuzz target `group-objects`: the readers of group objects, driven through the tools' own
// command lines on the input as a file: `notif-group --merge` (`Grouper.add(object:...)` over
// `RecordReader`, as `GroupRun` drives it), with `--order chat` or `--no-items` when the
// input's last byte says so, and `notif-summarize` (`GroupObject.read`).
//
// Then the same tools on group objects made from the input's bytes (`limitGroupObjects`): two
// to five objects, most of one group, each number of each (counts, weights, the entries',
// `items_omitted`, `grouping.limit`) either agreeing with the others or one of the limit
// numbers (2^31, 2^32, 2^53, 2^63, 2^64 and their neighbours, negative ones, `1e308`, `-0`,
// `1.0`), so that `--merge` adds up, saturates and refuses counts at their limits.
//
// Properties:
//   (a) each tool exits 0, 1 or 2;
//   (b) every line either writes is one JSON object, and nothing follows the last newline;
//   (c) merging is idempotent: when `--merge` exits 0, merging its output again, with the same
//       options, exits 0 and writes the same bytes;
//   (d) every tool takes what another writes: notif-summarize exits 0 on what `--merge` wrote,
//       and, for the objects made from limit numbers, so does notif-show on what
//       notif-summarize wrote;
//   (e) every count and weight `--merge` writes is a whole number from 0 to 2^53 - 1.

/// `/dev/null`, opened once: where the tools' diagnostics go.
let devNull: Int32 = {
  let fd = open("/dev/null", O_WRONLY)
  require(fd >= 0, "cannot open /dev/null: errno \(errno)")
  return fd
}()

func fuzzGroupObjects(_ input: UnsafeRawBufferPointer) {
  let flags = input.last ?? 0
  var options = ["--merge"]
  if flags & 1 != 0 { options += ["--order", "chat"] }
  if flags & 2 != 0 { options.append("--no-items") }
  let groups = scratchPath("groups.ndjson", holding: input)

  let (merged, status) = runTool(GroupCommand.self, options + [groups], output: "merged.ndjson")
  checkJSONLines(merged, of: "notif-group --merge")
  if status == .success {
    let again = merged.withUnsafeBytes { scratchPath("merged-input.ndjson", holding: $0) }
    let (remerged, restatus) = runTool(
      GroupCommand.self, options + [again], output: "remerged.ndjson")
    require(restatus == .success, "merging the merged output exits \(restatus)")
    require(
      remerged == merged,
      "merging is not idempotent:\n\(String(decoding: merged, as: UTF8.self))\n"
        + "then:\n\(String(decoding: remerged, as: UTF8.self))")
  }

  let (summaries, _) = runTool(SummarizeCommand.self, [groups], output: "summaries.ndjson")
  checkJSONLines(summaries, of: "notif-summarize")
  checkTaken(merged, showing: false)

  let limits = limitGroupObjects(input)
  let objects = limits.withUnsafeBytes { scratchPath("limit-objects.ndjson", holding: $0) }
  let (limitMerged, limitStatus) = runTool(
    GroupCommand.self, ["--merge", objects], output: "limit-merged.ndjson")
  require(limitStatus != .failure, "--merge of made objects exits \(limitStatus)")
  checkJSONLines(limitMerged, of: "notif-group --merge")
  checkTaken(limitMerged, showing: true)
  let (limitSummaries, _) = runTool(
    SummarizeCommand.self, [objects], output: "limit-summaries.ndjson")
  checkJSONLines(limitSummaries, of: "notif-summarize")
  _ = runTool(
    ShowCommand.self, ["--now", "2026-11-22T09:00:00Z", objects], output: "limit-shown.txt")
}

/// Checks that what `--merge` wrote is taken whole: notif-summarize exits 0 on it (and
/// notif-show on what that writes, when `showing`), and its counts are in range.
func checkTaken(_ merged: [UInt8], showing: Bool) {
  checkCountsInRange(merged)
  let path = merged.withUnsafeBytes { scratchPath("taken.ndjson", holding: $0) }
  let (summaries, status) = runTool(SummarizeCommand.self, [path], output: "taken-summaries.ndjson")
  require(
    status == .success,
    "notif-summarize exits \(status) on what --merge wrote:\n\(String(decoding: merged, as: UTF8.self))"
  )
  guard showing else { return }
  let summarized = summaries.withUnsafeBytes { scratchPath("taken-summarized.ndjson", holding: $0) }
  let (_, shown) = runTool(
    ShowCommand.self, ["--now", "2026-11-22T09:00:00Z", summarized], output: "taken-shown.txt")
  require(
    shown == .success,
    "notif-show exits \(shown) on what notif-summarize wrote:\n\(String(decoding: summaries, as: UTF8.self))"
  )
}

/// Checks that every count and weight of every group object in `output` is a whole number from
/// 0 to `FieldLimits.largest`.
func checkCountsInRange(_ output: [UInt8]) {
  checkTallies(
    output, of: "--merge",
    counts: [
      GroupField.count, .unreadCount, .newCount, .moreCount, .moreWeight, .itemsOmitted,
    ].map(\.key),
    lists: [GroupField.moreCategories.key, GroupField.moreSummaryArgs.key],
    inner: ["count", "weight"])
}

/// Checks that in each object line of `output` the members named in `counts`, and in each
/// entry of the arrays named in `lists` the members named in `inner`, are whole numbers from 0
/// to `FieldLimits.largest`. Lines that are not JSON are left to `checkJSONLines`.
func checkTallies(
  _ output: [UInt8], of tool: String, counts: [String], lists: [String], inner: [String]
) {
  output.withUnsafeBytes { raw in
    var start = 0
    while start < raw.count {
      let stop = raw[start...].firstIndex(of: 0x0A) ?? raw.count
      let line = UnsafeRawBufferPointer(rebasing: raw[start..<stop])
      start = stop + 1
      var parser = JSONParser()
      guard case .complete = parser.parse(line, isFinal: true) else { continue }
      parser.withView(over: line) { view in
        func check(_ index: Int, _ name: String) {
          require(
            view.integer(index).map(FieldLimits.tally.contains) ?? false,
            "\(tool) wrote '\(name)' \(String(decoding: view.raw(index), as: UTF8.self))")
        }
        view.forEachMember(of: 0) { key, value in
          let name = view.string(key)
          if counts.contains(name) { check(value, name) }
          guard lists.contains(name) else { return }
          view.forEachElement(of: value) { entry in
            view.forEachMember(of: entry) { key, value in
              let member = view.string(key)
              if inner.contains(member) { check(value, "\(name).\(member)") }
            }
          }
        }
      }
    }
  }
}

/// The numbers at the limits of what JSON readers hold (those of
/// Tests/TestSupport/LimitNumbers.swift): put in the numeric fields of records and group
/// objects.
let limitNumbers: [String] = [
  "0", "1", "-0", "1.0", "1e0", "1e308", "-1e308", "0.5",
  "2147483647", "2147483648", "2147483649", "4294967295", "4294967296", "4294967297",
  "4503599627370495", "4503599627370496",
  "9007199254740990", "9007199254740991", "9007199254740992", "9007199254740993",
  "9223372036854775807", "9223372036854775808", "9223372036854775809",
  "18446744073709551615", "18446744073709551616", "18446744073709551617",
  "-1", "-2147483648", "-2147483649", "-4294967296", "-9007199254740991", "-9007199254740993",
  "-9223372036854775808", "-9223372036854775809",
]

/// The input's bytes, one at a time; zeros once they run out.
struct ByteStream {
  let bytes: UnsafeRawBufferPointer
  var position = 0

  mutating func next() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// `agreeing` most of the time, else a limit number the next byte picks.
  mutating func number(_ agreeing: String) -> String {
    let byte = next()
    return byte < 160 ? agreeing : limitNumbers[Int(byte) % limitNumbers.count]
  }
}

/// Two to five group objects made from `input` (see the top of this file): most of one app
/// and thread, so that `--merge` adds them up.
func limitGroupObjects(_ input: UnsafeRawBufferPointer) -> [UInt8] {
  var stream = ByteStream(bytes: input)
  var text = ""
  let limit = stream.next() & 1 == 0 ? "null" : stream.number("3")
  for n in 0..<(2 + Int(stream.next() % 4)) {
    let app = stream.next() % 5 == 0 ? "com.example.mail" : "com.example.chat"
    let count = stream.number(["1", "2", "3"][n % 3])
    let whole = Int64(count).flatMap { FieldLimits.positive.contains($0) ? $0 : nil }
    let more = whole.map { "\($0 - 1)" } ?? "1"
    let weight = stream.number(more == "0" ? "0" : more)
    let entries =
      more == "0" && weight == "0"
      ? ""
      : #"{"category":"MESSAGE","count":\#(stream.number(more)),"weight":\#(stream.number(weight))}"#
    let arguments =
      stream.next() & 1 == 0 || more == "0"
      ? ""
      : #"{"summary_arg":"Ann","count":\#(stream.number("1")),"latest_at":"2026-11-22T09:00:00Z"}"#
    let time = "2026-11-22T09:0\(n):00Z"
    let lead =
      #"{"id":"l\#(n)","app":"\#(app)","thread_id":"t","title":"T","created_at":"\#(time)","#
      + #""summary_arg_count":\#(stream.number("1"))}"#
    let items = limit == "null" ? "null" : "[\(lead)]"
    let omitted = limit == "null" ? count : whole.map { "\($0 - 1)" } ?? "0"
    text +=
      #"{"app":"\#(app)","thread_id":"t","count":\#(count),"unread_count":\#(stream.number("1")),"#
      + #""new_count":\#(stream.number("0")),"latest_at":"\#(time)","leading":\#(lead),"#
      + #""more_count":\#(stream.number(more)),"more_weight":\#(weight),"#
      + #""more_categories":[\#(entries)],"more_summary_args":[\#(arguments)],"#
      + #""items":\#(items),"items_omitted":\#(stream.number(omitted)),"#
      + #""grouping":{"by":"thread","sort":"time","order":"feed","limit":\#(limit),"#
      + #""last_seen":null}}"# + "\n"
  }
  return Array(text.utf8)
}

/// Runs `Tool` on `arguments` with standard output to the scratch file `output` and standard
/// error to /dev/null; returns what it wrote and its status, which must be 0, 1 or 2.
func runTool<Tool: ToolCommand>(_ tool: Tool.Type, _ arguments: [String], output: String)
  -> (bytes: [UInt8], status: ExitStatus)
{
  let path = scratchFolder + "/" + output
  let fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
  require(fd >= 0, "cannot create \(path): errno \(errno)")
  defer { close(fd) }
  var stdout = OutputWriter(fd: fd, name: "<stdout>")
  var stderr = OutputWriter(fd: devNull, name: "<stderr>")
  let status = Tool.run(
    environment: ToolEnvironment(arguments: arguments), stdout: &stdout, stderr: &stderr)
  try? stdout.flush()
  let name = Tool.tool.name
  require(
    [ExitStatus.success, .rejected, .failure].contains(status),
    "\(name) \(arguments) exits \(status)")
  return (contents(fd, name: path), status)
}

/// Everything in the file open at `fd`, read from its start; `name` names it in a failure.
func contents(_ fd: Int32, name: String) -> [UInt8] {
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 64 * 1024)
  var offset: off_t = 0
  while true {
    let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
    require(count >= 0, "cannot read \(name): errno \(errno)")
    if count == 0 { break }
    bytes += chunk[0..<count]
    offset += off_t(count)
  }
  return bytes
}

/// Checks that `output` is lines of one JSON object each, ending in a newline.
func checkJSONLines(_ output: [UInt8], of tool: String) {
  require(output.last.map { $0 == 0x0A } ?? true, "\(tool): output without a final newline")
  output.withUnsafeBytes { raw in
    var start = 0
    while start < raw.count {
      let stop = raw[start...].firstIndex(of: 0x0A) ?? raw.count
      let line = UnsafeRawBufferPointer(rebasing: raw[start..<stop])
      var parser = JSONParser()
      guard case .complete(let end) = parser.parse(line, isFinal: true), end == line.count else {
        fail(
          "\(tool) wrote a line that is not one JSON text: \(String(decoding: line, as: UTF8.self))"
        )
      }
      parser.withView(over: line) { view in
        require(view.kind(0) == .object, "\(tool) wrote a line that is not an object")
      }
      start = stop + 1
    }
  }
}
