// Fuzz target `pipe-chunks`: notif-parse's `--jobs` over a pipe (`ParseRun` over
// `FileChunks.readStart` and `FileChunks.read` with idle announced), whose chunks end where the
// pipe pauses as well as after line feeds, against one thread reading the same bytes through a
// pipe. A thread writes the input to each pipe in pieces of 1 to 64 bytes (the first byte picks
// the size), yielding between them, so the pauses fall wherever the scheduler lets them (the
// readers' grace is 0 here: any instant with nothing to read is a pause). The
// last byte picks the chunk size (16 to 271 bytes) and the options (none, --check,
// --max-record-bytes 120, --format json --strict).
//
// Properties:
//   (a) both runs exit 0, 1 or 2;
//   (b) with 3 threads the run writes the bytes of one thread, on standard output and standard
//       error alike, and exits with the same status, wherever the pipe paused.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

func fuzzPipeChunks(_ input: UnsafeRawBufferPointer) {
  InputPause.standardGrace = 0
  let flags = Int(input.last ?? 0)
  let chunkSize = 16 + flags
  let pieceSize = 1 + Int(input.first ?? 0) % 64
  let variants: [[String]] = [
    [], ["--check"], ["--max-record-bytes", "120"], ["--format", "json", "--strict"],
  ]
  let options = ["--now", "2026-11-22T09:00:00Z"] + variants[flags % variants.count]
  let bytes = Array(input)
  let one = parseThroughPipe(bytes, pieceSize: pieceSize, options + ["--jobs", "1"], chunkSize)
  let many = parseThroughPipe(bytes, pieceSize: pieceSize, options + ["--jobs", "3"], chunkSize)
  requireSameRuns(one, many, "\(options), chunks of \(chunkSize) bytes")
}

/// Runs notif-parse's `ParseRun` with `arguments` on a pipe that a thread fills with `input`
/// in pieces of `pieceSize` bytes.
private func parseThroughPipe(
  _ input: [UInt8], pieceSize: Int, _ arguments: [String], _ chunkSize: Int
) -> (status: ExitStatus, stdout: [UInt8], stderr: [UInt8]) {
  throughPipe(input, pieceSize: pieceSize) { name in
    parseRun(arguments + [name], chunkSize: chunkSize, pipeName: name)
  }
}

/// Calls `body` with the name (`/dev/fd/N`) of a pipe that a thread fills with `input` in
/// pieces of `pieceSize` bytes, yielding between them, then closes. `body` reads it to its
/// end, or stops at a compressed input's first bytes: the pipe holds all of an input of the
/// fuzzer's size (`-max_len`), so the thread ends either way.
func throughPipe<R>(_ input: [UInt8], pieceSize: Int, _ body: (String) -> R) -> R {
  var ends: [Int32] = [0, 0]
  require(pipe(&ends) == 0, "pipe failed: errno \(errno)")
  defer { close(ends[0]) }
  let writer = PipeWriter(fd: ends[1], bytes: input, pieceSize: pieceSize)
  writer.start()
  defer { writer.join() }
  return body("/dev/fd/\(ends[0])")
}

/// Runs notif-parse's `ParseRun` on `arguments`; returns what it wrote, with `pipeName`
/// replaced by `<pipe>` (its descriptor's number differs from run to run).
private func parseRun(_ arguments: [String], chunkSize: Int, pipeName name: String)
  -> (status: ExitStatus, stdout: [UInt8], stderr: [UInt8])
{
  let configuration: ParseCommand.Configuration
  do {
    let scanned = try OptionScanner.scan(arguments, ParseCommand.options)
    configuration = try ParseCommand.configure(scanned, environment: ToolEnvironment())
  } catch {
    fail("notif-parse \(arguments): \(error)")
  }
  let ran = capturedRun(output: "pipe") { stdout, stderr in
    var run = ParseRun(configuration: configuration, chunkSize: chunkSize)
    return run.execute(stdout: &stdout, stderr: &stderr)
  }
  require(
    [ExitStatus.success, .rejected, .failure].contains(ran.status),
    "notif-parse \(arguments) exits \(ran.status)")
  let named = Array(name.utf8)
  return (
    ran.status, ran.stdout.replacing(named, with: Array("<pipe>".utf8)),
    ran.stderr.replacing(named, with: Array("<pipe>".utf8))
  )
}

/// A thread that writes bytes to a pipe in pieces, yielding between them, then closes it.
final class PipeWriter: @unchecked Sendable {
  let fd: Int32
  let bytes: [UInt8]
  let pieceSize: Int
  private var thread = pthread_t()

  init(fd: Int32, bytes: [UInt8], pieceSize: Int) {
    self.fd = fd
    self.bytes = bytes
    self.pieceSize = pieceSize
  }

  func start() {
    let box = Unmanaged.passRetained(self).toOpaque()
    let started = pthread_create(
      &thread, nil,
      { box in
        guard let box else { return nil }
        Unmanaged<PipeWriter>.fromOpaque(box).takeRetainedValue().run()
        return nil
      }, box)
    require(started == 0, "pthread_create failed: \(started)")
  }

  func join() {
    pthread_join(thread, nil)
  }

  private func run() {
    defer { close(fd) }
    let size = max(pieceSize, 1)
    for start in stride(from: 0, to: bytes.count, by: size) {
      let piece = bytes[start..<min(start + size, bytes.count)]
      let failure = piece.withUnsafeBytes { OutputWriter.writeAll($0, to: fd, name: "<pipe>") }
      // The reader stopped early (a compressed input's first bytes): nothing more to write.
      guard failure == nil else { return }
      sched_yield()
    }
  }
}
