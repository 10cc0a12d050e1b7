import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_group

// Helpers shared by the unit tests of notif-group: records in the documented shape, runs of the
// command with files, and a look at the group objects that come out.

/// A record with the keys notif-group ranks, counts and groups by, in the order of notif(5),
/// and a title, so that the device lists it (`DeviceListing`); other keys left out.
func record(
  _ id: String, app: String? = "com.example.chat", thread: String? = nil,
  at createdAt: String = "2026-11-22T09:00:00Z", relevance: String = "null",
  category: String? = nil, title: String? = "Message", summaryArg: String? = nil,
  summaryArgCount: String = "1", readAt: String? = nil, seenAt: String? = nil
) -> String {
  func text(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "null" }
  return
    "{\"id\":\"\(id)\",\"app\":\(text(app)),\"thread_id\":\(text(thread)),"
    + "\"category\":\(text(category)),\"title\":\(text(title)),"
    + "\"created_at\":\"\(createdAt)\",\"relevance\":\(relevance),"
    + "\"summary_arg\":\(text(summaryArg)),\"summary_arg_count\":\(summaryArgCount),"
    + "\"read_at\":\(text(readAt)),\"seen_at\":\(text(seenAt))}"
}

/// A new temporary file holding `text`; the caller removes it.
func temporaryFile(holding text: String) -> String {
  var template = Array("/tmp/notif-group-test-XXXXXX".utf8CString)
  let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
  precondition(fd >= 0, "mkstemp failed")
  let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
  let bytes = Array(text.utf8)
  var offset = 0
  while offset < bytes.count {
    let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
    precondition(written > 0)
    offset += written
  }
  close(fd)
  return path
}

/// A file holding `text`, removed when the body returns; the body gets its path.
func withFile<R>(_ text: String, _ body: (String) throws -> R) rethrows -> R {
  let path = temporaryFile(holding: text)
  defer { unlink(path) }
  return try body(path)
}

/// What one run of the command left.
struct RunResult {
  var status: NotifModel.ExitStatus
  var stdout: String
  var stderr: String

  /// The group objects written, one per line.
  var lines: [String] { stdout.split(separator: "\n").map(String.init) }
}

/// Runs notif-group with `arguments` and, after them, one file operand per input text.
func group(_ arguments: [String], inputs: [String]) -> RunResult {
  var paths = inputs.map { temporaryFile(holding: $0) }
  defer {
    for path in paths { unlink(path) }
  }
  func scratch() -> (Int32, String) {
    var template = Array("/tmp/notif-group-out-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    precondition(fd >= 0)
    return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
  }
  let (outFD, outPath) = scratch()
  let (errFD, errPath) = scratch()
  paths += [outPath, errPath]
  var stdout = OutputWriter(fd: outFD, name: "<stdout>")
  var stderr = OutputWriter(fd: errFD, name: "<stderr>")
  let status = GroupCommand.run(
    environment: ToolEnvironment(arguments: arguments + paths.prefix(inputs.count)),
    stdout: &stdout, stderr: &stderr)
  close(outFD)
  close(errFD)
  var err = fileText(errPath)
  // Diagnostics name the temporary files: show them as input1, input2, ...
  for (position, path) in paths.prefix(inputs.count).enumerated() {
    err = err.replacing(path, with: "input\(position + 1)")
  }
  return RunResult(status: status, stdout: fileText(outPath), stderr: err)
}

/// Runs notif-group with `arguments` over one input made of `records`, one per line.
func group(_ arguments: [String], _ records: [String]) -> RunResult {
  group(arguments, inputs: [records.map { $0 + "\n" }.joined()])
}

/// Runs notif-group with no options over one input made of `records`, one per line.
func group(_ records: [String]) -> RunResult {
  group([], records)
}

/// The value of `key` in the JSON object `line`, compact; nil if there is no such key.
func value(_ key: String, in line: String) -> String? {
  var parser = JSONParser()
  let bytes = Array(line.utf8)
  return bytes.withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else { return nil }
    return parser.withView(over: raw) { view in
      var found: String? = nil
      view.forEachMember(of: 0) { name, member in
        if view.string(name) == key {
          var out = ByteBuffer()
          JSONWriter.writeCompact(view, member, into: &out)
          found = out.text
        }
      }
      return found
    }
  }
}

/// The `id` of each record in the array or object text `json`, in order.
func ids(_ json: String?) -> [String] {
  guard let json else { return [] }
  var result: [String] = []
  var rest = Substring(json)
  while let range = rest.firstRange(of: "{\"id\":\"") {
    rest = rest[range.upperBound...]
    if let end = rest.firstIndex(of: "\"") { result.append(String(rest[..<end])) }
  }
  return result
}
