// Fuzz target `group-objects`: the readers of group objects, driven through the tools' own
// command lines on the input as a file: `notif-group --merge` (`Grouper.add(object:...)` over
// `RecordReader`, as `GroupRun` drives it), with `--order chat` or `--no-items` when the
// input's last byte says so, and `notif-summarize` (`GroupObject.read`).
//
// Properties:
//   (a) each tool exits 0, 1 or 2;
//   (b) every line either writes is one JSON object, and nothing follows the last newline;
//   (c) merging is idempotent: when `--merge` exits 0, merging its output again, with the same
//       options, exits 0 and writes the same bytes.

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
