// The libFuzzer entry of notif's fuzz targets. fuzz/run.sh compiles the files of this folder
// into one module with the sources of every library module and every tool (their main.swift
// files left out), so that each target reaches internal API; none of it is part of the package
// build. NOTIF_FUZZ_TARGET names the target a run fuzzes.
//
// Every target checks, on every input, that nothing crashes, traps, overflows or reads out of
// bounds (AddressSanitizer), and the properties its own file lists; a violated property calls
// `fail`, which libFuzzer reports as a crash and saves the input.

/// The targets, by the names that fuzz/run.sh and NOTIF_FUZZ_TARGET use (run.sh reads this
/// list: keep one target a line).
let fuzzTargets: [(name: String, run: (UnsafeRawBufferPointer) -> Void)] = [
  ("json-reader", fuzzJSONReader),
  ("json-vector", fuzzJSONVector),
  ("time", fuzzTime),
  ("apns", fuzzAPNs),
  ("strings", fuzzStrings),
  ("config", fuzzConfig),
  ("group-objects", fuzzGroupObjects),
  ("group-chunks", fuzzGroupChunks),
  ("pipe-chunks", fuzzPipeChunks),
  ("store-recovery", fuzzStoreRecovery),
  ("show", fuzzShow),
  ("sweep-lines", fuzzSweepLines),
  ("responses", fuzzResponses),
  ("token-files", fuzzTokenFiles),
  ("digest-objects", fuzzDigestObjects),
  ("digest-records", fuzzDigestRecords),
  ("fix", fuzzFix),
]

/// The target NOTIF_FUZZ_TARGET names, looked up once.
let selectedTarget: (UnsafeRawBufferPointer) -> Void = {
  let names = fuzzTargets.map(\.name).joined(separator: ", ")
  guard let name = getenv("NOTIF_FUZZ_TARGET").map({ String(cString: $0) }) else {
    fail("set NOTIF_FUZZ_TARGET to one of: \(names)")
  }
  guard let target = fuzzTargets.first(where: { $0.name == name }) else {
    fail("no fuzz target '\(name)'; there are: \(names)")
  }
  return target.run
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  selectedTarget(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
  return 0
}

// MARK: - Helpers

func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fail(message()) }
}

func fail(_ message: String) -> Never {
  let target = getenv("NOTIF_FUZZ_TARGET").map { String(cString: $0) } ?? "fuzz"
  fatalError("\(target): " + message)
}

/// A temporary file, created once and already unlinked, that each input is written to.
let scratchFile: Int32 = {
  var path = Array("/tmp/notif-fuzz-XXXXXX".utf8CString)
  let fd = path.withUnsafeMutableBufferPointer { buffer in
    buffer.baseAddress.map { mkstemp($0) } ?? -1
  }
  require(fd >= 0, "mkstemp failed: errno \(errno)")
  _ = path.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { unlink($0) } }
  return fd
}()

/// A folder of this process's own, for the targets whose code under test opens files by name.
let scratchFolder: String = {
  var path = Array("/tmp/notif-fuzz-XXXXXX".utf8CString)
  let made = path.withUnsafeMutableBufferPointer { buffer in
    buffer.baseAddress.flatMap { mkdtemp($0) } != nil
  }
  require(made, "mkdtemp failed: errno \(errno)")
  return String(decoding: path.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}()

/// Writes `input` to the file `name` in `scratchFolder`, replacing it, and returns its path.
func scratchPath(_ name: String, holding input: UnsafeRawBufferPointer) -> String {
  let path = scratchFolder + "/" + name
  writeReplacing(path, input)
  return path
}

/// Writes `input` to the file at `path`, replacing it.
func writeReplacing(_ path: String, _ input: UnsafeRawBufferPointer) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
  require(fd >= 0, "cannot create \(path): errno \(errno)")
  defer { close(fd) }
  var done = 0
  while done < input.count {
    guard let base = input.baseAddress else { break }
    let wrote = write(fd, base + done, input.count - done)
    require(wrote > 0, "cannot write \(path): errno \(errno)")
    done += wrote
  }
}

/// The input as text, invalid UTF-8 repaired, as a command-line argument would reach a tool.
func text(_ input: UnsafeRawBufferPointer) -> String {
  String(decoding: input, as: UTF8.self)
}
