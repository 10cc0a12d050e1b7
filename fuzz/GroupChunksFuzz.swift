// Fuzz target `group-chunks`: notif-group's `--jobs`, which reads a regular file in chunks cut
// after line feeds on worker threads (`GroupRun` over `FileChunks` and `RecordReader(borrowing:)`),
// against one thread on the same file. The input is the file; its last byte picks the chunk
// size (16 to 271 bytes, so that most inputs are cut many times) and the options (--no-items,
// --limit 2 --order chat, --by app --sort relevance, --by none).
//
// Properties:
//   (a) both runs exit 0, 1 or 2;
//   (b) with 3 threads, and no leading record kept in memory (each is read back from the file
//       when its group object is written, `RecordFiles`), the run writes the bytes of one
//       thread that keeps them all, on standard output and standard error alike, and exits
//       with the same status;
//   (c) so does a run with 3 threads on the same bytes through a pipe (chunks taken while their
//       lines read alone, then one reader, the workers' groups kept), which a thread fills in
//       pieces of 1 to 64 bytes (the first byte picks the size).

func fuzzGroupChunks(_ input: UnsafeRawBufferPointer) {
  let flags = Int(input.last ?? 0)
  let chunkSize = 16 + flags
  let variants: [[String]] = [
    ["--no-items"], ["--item-limit", "2", "--order", "chat"],
    ["--by", "app", "--sort", "relevance"],
    ["--by", "none"],
  ]
  let options = variants[flags % variants.count]
  let records = scratchPath("chunked-records.ndjson", holding: input)
  let one = groupRun(options + ["--jobs", "1", records], chunkSize: chunkSize, output: "one")
  let many = groupRun(
    options + ["--jobs", "3", records], chunkSize: chunkSize, leadingMemory: 0, output: "many")
  requireSameRuns(one, many, "\(options), chunks of \(chunkSize) bytes")
  let pieceSize = 1 + Int(input.first ?? 0) % 64
  let piped = throughPipe(Array(input), pieceSize: pieceSize) { name in
    let ran = groupRun(options + ["--jobs", "3", name], chunkSize: chunkSize, output: "piped")
    let named = Array(name.utf8)
    let path = Array(records.utf8)
    return (
      ran.status, ran.stdout.replacing(named, with: path), ran.stderr.replacing(named, with: path)
    )
  }
  requireSameRuns(one, piped, "\(options), through a pipe, chunks of \(chunkSize) bytes")
}

/// Requires the run with `--jobs 3` (`many`) to have written what the run with one thread
/// (`one`) wrote, and exited as it did; `what` says which runs.
func requireSameRuns(
  _ one: (status: ExitStatus, stdout: [UInt8], stderr: [UInt8]),
  _ many: (status: ExitStatus, stdout: [UInt8], stderr: [UInt8]), _ what: String
) {
  require(
    one.status == many.status, "--jobs 3 exits \(many.status), --jobs 1 \(one.status), \(what)")
  require(one.stdout == many.stdout, "--jobs 3 wrote another output than --jobs 1, \(what)")
  require(
    one.stderr == many.stderr,
    "--jobs 3 wrote other diagnostics than --jobs 1, \(what):\n"
      + String(decoding: one.stderr, as: UTF8.self) + "then:\n"
      + String(decoding: many.stderr, as: UTF8.self))
}

/// Runs notif-group's `GroupRun` on `arguments` with the chunk size and the memory for leading
/// records given, its standard output and standard error to scratch files named after
/// `output`; returns what it wrote.
func groupRun(
  _ arguments: [String], chunkSize: Int, leadingMemory: Int = RecordFiles.defaultMemoryBudget,
  output: String
) -> (status: ExitStatus, stdout: [UInt8], stderr: [UInt8]) {
  let configuration: GroupCommand.Configuration
  do {
    let scanned = try OptionScanner.scan(arguments, GroupCommand.options)
    configuration = try GroupCommand.configure(scanned, environment: ToolEnvironment())
  } catch {
    fail("notif-group \(arguments): \(error)")
  }
  let ran = capturedRun(output: output) { stdout, stderr in
    var run = GroupRun(
      options: configuration.options,
      reporter: Reporter(program: GroupCommand.name, options: configuration.reporting),
      chunkSize: chunkSize, leadingMemory: leadingMemory)
    return run.execute(files: configuration.files, stdout: &stdout, stderr: &stderr)
  }
  require(
    [ExitStatus.success, .rejected, .failure].contains(ran.status),
    "notif-group \(arguments) exits \(ran.status)")
  return ran
}

/// Calls `body` with standard output and standard error going to scratch files named after
/// `output`; returns the status it returned and what it wrote to each.
func capturedRun(
  output: String, _ body: (inout OutputWriter, inout OutputWriter) -> ExitStatus
) -> (status: ExitStatus, stdout: [UInt8], stderr: [UInt8]) {
  let outPath = scratchFolder + "/" + output + ".out"
  let errPath = scratchFolder + "/" + output + ".err"
  let outFD = open(outPath, O_RDWR | O_CREAT | O_TRUNC, 0o600)
  let errFD = open(errPath, O_RDWR | O_CREAT | O_TRUNC, 0o600)
  require(outFD >= 0 && errFD >= 0, "cannot create the scratch files: errno \(errno)")
  defer {
    close(outFD)
    close(errFD)
  }
  var stdout = OutputWriter(fd: outFD, name: "<stdout>")
  var stderr = OutputWriter(fd: errFD, name: "<stderr>")
  let status = body(&stdout, &stderr)
  return (status, contents(outFD, name: outPath), contents(errFD, name: errPath))
}
