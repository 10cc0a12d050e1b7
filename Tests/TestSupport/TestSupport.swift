// Helpers that more than one test target uses: scratch folders and files, writers whose output
// a test reads back, and parsed JSON views. Test targets only; no tool imports this.
import Foundation
import NotifJSON

// Testing is there for the test targets; `swift build -c release --static-swift-stdlib` builds
// this module too, without it (the static resources have no Testing).
#if canImport(Testing)
  import Testing
#endif

/// A new empty folder under the temporary directory, named with `prefix`.
public func makeScratchFolder(_ prefix: String = "notif-test") throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// A pipe whose ends no child process inherits (`O_CLOEXEC`): the tests run side by side, and
/// a process another test starts while the write end is open would hold it open after this
/// test closed it, so that its reader would not see the end. Nil if the system refused.
public func makePipe() -> (read: Int32, write: Int32)? {
  var ends: [Int32] = [0, 0]
  guard systemPipe2(&ends, O_CLOEXEC) == 0 else { return nil }
  return (ends[0], ends[1])
}

/// pipe2(2), which Glibc's module leaves out (it is behind _GNU_SOURCE): pipe(2) then fcntl
/// would leave a moment in which a process started by another test inherits the ends.
@_silgen_name("pipe2")
private func systemPipe2(_ ends: UnsafeMutablePointer<Int32>, _ flags: Int32) -> Int32

/// Calls `body` with a path that reads `bytes`: a scratch file, or with `throughPipe` a pipe
/// that holds them all, and its end. No thread writes the pipe, so a reader that stops early
/// (at a compressed input's first bytes) leaves no writer to a pipe no one reads.
public func withInput<R>(
  _ bytes: [UInt8], throughPipe: Bool, _ body: (String) throws -> R
) throws -> R {
  guard throughPipe else {
    let folder = try makeScratchFolder("notif-input")
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("input.ndjson").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return try body(path)
  }
  precondition(bytes.count < 65536, "more than a pipe holds")
  guard let pipe = makePipe() else {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "pipe2 failed"])
  }
  defer { close(pipe.read) }
  let written = bytes.withUnsafeBytes { write(pipe.write, $0.baseAddress, $0.count) }
  close(pipe.write)
  precondition(written == bytes.count, "write to the pipe failed")
  return try body("/dev/fd/\(pipe.read)")
}

/// Calls `body` with the path of a named pipe that a thread fills with `bytes`, in pieces of
/// `pieceSize` bytes with a short pause after every third (so a reader finds it empty now and
/// then, wherever the scheduler lets it), then closes; waits for the thread before returning.
/// The reader `body` starts must read the pipe to its end.
public func withPipe<R>(
  feeding bytes: [UInt8], pieceSize: Int = 97, _ body: (String) throws -> R
) throws -> R {
  let folder = try makeScratchFolder("notif-pipe")
  defer { try? FileManager.default.removeItem(at: folder) }
  let path = folder.appendingPathComponent("fifo").path
  guard mkfifo(path, 0o600) == 0 else {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
  }
  let done = DispatchSemaphore(value: 0)
  Thread.detachNewThread {
    defer { done.signal() }
    let fd = open(path, O_WRONLY | O_CLOEXEC)  // see `makePipe`
    guard fd >= 0 else { return }
    defer { close(fd) }
    let size = max(pieceSize, 1)
    for (index, start) in stride(from: 0, to: bytes.count, by: size).enumerated() {
      let piece = bytes[start..<min(start + size, bytes.count)]
      let failure = piece.withUnsafeBytes { OutputWriter.writeAll($0, to: fd, name: path) }
      guard failure == nil else { return }
      if index % 3 == 2 { usleep(300) }
    }
  }
  defer { done.wait() }
  return try body(path)
}

/// A small deterministic generator (SplitMix64) of test data and test timing, so that a failing
/// seed can be run again.
public struct SplitMix {
  public var state: UInt64
  public init(seed: UInt64) { state = seed }
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  /// A number from 0 to `n` - 1.
  public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
  /// One of `items`.
  public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
}

/// The text of the file at `path`, invalid UTF-8 replaced; empty when it cannot be read.
public func fileText(_ path: String) -> String {
  String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
}

/// Runs `body` with writers to two scratch files, standing for standard output and standard
/// error; returns its result and the text each writer wrote.
public func capturingOutput<R>(
  _ body: (inout OutputWriter, inout OutputWriter) -> R
) throws -> (R, String, String) {
  let dir = try makeScratchFolder("notif-capture")
  defer { try? FileManager.default.removeItem(at: dir) }
  let outPath = dir.appendingPathComponent("out").path
  let errPath = dir.appendingPathComponent("err").path
  let outFD = open(outPath, O_WRONLY | O_CREAT, 0o600)
  let errFD = open(errPath, O_WRONLY | O_CREAT, 0o600)
  var stdout = OutputWriter(fd: outFD, name: "<stdout>")
  var stderr = OutputWriter(fd: errFD, name: "<stderr>")
  let result = body(&stdout, &stderr)
  try? stdout.flush()
  try? stderr.flush()
  close(outFD)
  close(errFD)
  return (
    result, try String(contentsOfFile: outPath, encoding: .utf8),
    try String(contentsOfFile: errPath, encoding: .utf8)
  )
}

/// NDJSON of `records` where every ninth one, from the fifth, is spread over lines after its
/// commas: texts across lines among one-line records, which a reader of chunks cut after line
/// feeds cannot read on its own.
public func someRecordsSpreadOverLines(_ records: [String]) -> String {
  records.enumerated().map { index, line in
    index % 9 == 4 ? line.replacing(",", with: ",\n  ") : line
  }.map { $0 + "\n" }.joined()
}

/// What one run of a tool wrote to standard output and standard error, and how it exited:
/// what two runs that must agree (one thread and many, say) are compared by.
public struct CapturedRun<Status: Equatable>: Equatable {
  public var status: Status
  public var stdout: String
  public var stderr: String

  public init(status: Status, stdout: String, stderr: String) {
    self.status = status
    self.stdout = stdout
    self.stderr = stderr
  }
}

/// Runs a tool on `bytes`, as a file or a pipe (`withInput`), and captures what it wrote, the
/// name of its input in the diagnostics made `input`: `prepare` reads the command line with
/// the input's path, and returns the run, which writes to the two writers it is given.
public func capturingRun<Status: Equatable>(
  on bytes: [UInt8], throughPipe: Bool,
  _ prepare: (_ path: String) throws -> (inout OutputWriter, inout OutputWriter) -> Status
) throws -> CapturedRun<Status> {
  try withInput(bytes, throughPipe: throughPipe) { path in
    let run = try prepare(path)
    let (status, out, err) = try capturingOutput { stdout, stderr in run(&stdout, &stderr) }
    return CapturedRun(status: status, stdout: out, stderr: err.replacing(path, with: "input"))
  }
}

/// Calls `body` with a view of the parsed `text`; nil if the text is not valid JSON.
@discardableResult
public func withView<R>(of text: String, _ body: (JSONView) throws -> R) rethrows -> R? {
  var parser = JSONParser()
  let bytes = Array(text.utf8)
  return try bytes.withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else { return nil }
    return try parser.withView(over: raw, body)
  }
}

/// Whether the slow tests run: the ones that take ten seconds or more on two cores (the inbox
/// soak, sweeps killed at many points, every CLDR locale against Babel). `NOTIF_SLOW_TESTS=skip`
/// skips them, as `make test` does outside CI; unset, or `run`, runs them, as `swift test` and
/// `make check` do. CI (`CI` set) refuses to skip: there `skip` is an error in each slow test.
public enum SlowTests {
  /// What a skipped slow test says in the test output.
  public static let skipped =
    "slow: skipped by NOTIF_SLOW_TESTS=skip (make test); make check runs it"

  /// The refusal: CI runs every test.
  public struct RefusedInCI: Error, CustomStringConvertible {
    public var description: String {
      "NOTIF_SLOW_TESTS=skip with CI set: CI runs every test; unset NOTIF_SLOW_TESTS"
    }
  }

  /// A value of `NOTIF_SLOW_TESTS` other than `run` and `skip`.
  public struct UnknownSetting: Error, CustomStringConvertible {
    public var value: String
    public var description: String { "NOTIF_SLOW_TESTS='\(value)': it is 'run' or 'skip'" }
  }

  /// True when slow tests run; throws when CI is asked to skip them, or on a setting neither
  /// `run` nor `skip`.
  public static func enabled(
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Bool {
    switch environment["NOTIF_SLOW_TESTS"] ?? "" {
    case "", "run":
      return true
    case "skip":
      if let ci = environment["CI"], !ci.isEmpty { throw RefusedInCI() }
      return false
    case let value:
      throw UnknownSetting(value: value)
    }
  }
}

/// A program some tests run that the Swift toolchain does not bring: `make test` passes on a
/// machine with the toolchain alone, and `make check-deps` installs these for the rest.
public struct OutsideProgram: Sendable, Hashable, CustomStringConvertible {
  /// The name it is run by.
  public var name: String
  /// The package that installs it.
  public var package: String
  /// Where the package comes from: `Debian package`, or `PyPI package` for what Debian lacks.
  public var index: String

  public init(_ name: String, package: String, index: String = "Debian package") {
    self.name = name
    self.package = package
    self.index = index
  }

  public var description: String { name }

  public static let jq = OutsideProgram("jq", package: "jq")
  public static let parallel = OutsideProgram("parallel", package: "parallel")
  public static let mandoc = OutsideProgram("mandoc", package: "mandoc")
  public static let python3 = OutsideProgram("python3", package: "python3")
  /// Miller, for the README's CSV examples.
  public static let mlr = OutsideProgram("mlr", package: "miller")
  /// sarif-tools's command, a SARIF reader; `make check-deps` installs it with PyPI's
  /// jsonschema, which scripts/check-sarif.py validates by.
  public static let sarif = OutsideProgram("sarif", package: "sarif-tools", index: "PyPI package")

  /// The programs `OutsidePrograms.used(in:)` looks for in a command.
  public static let known: [OutsideProgram] = [.parallel, .jq, .mlr, .mandoc, .python3]
}

/// Whether the tests that need an outside program run: where it is installed, they do; where it
/// is not, they are skipped, each test saying which program and package it needs, so that
/// `make test` passes with the toolchain alone. CI (`CI` set) refuses to skip, as it refuses
/// `NOTIF_SLOW_TESTS=skip` (`SlowTests`): there a missing program is an error in each test
/// that needs it.
public enum OutsidePrograms {
  /// What a test skipped for want of `program` says in the test output: one line.
  public static func skipped(_ program: OutsideProgram) -> String {
    "needs \(program.name), which is not installed (\(program.index) \(program.package));"
      + " make check-deps installs it"
  }

  /// The refusal: CI runs every test, so the programs must be there.
  public struct MissingInCI: Error, CustomStringConvertible {
    public var program: OutsideProgram
    public var description: String {
      "\(program.name) is not installed, and CI (CI set) runs every test: install"
        + " \(program.index) \(program.package) (make check-deps)"
    }
  }

  /// Whether an executable file named `name` is in one of the folders of `path` (a `PATH`),
  /// the process's own by default.
  public static func isInstalled(
    _ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]
  ) -> Bool {
    (path ?? "/usr/bin:/bin").split(separator: ":").contains {
      access("\($0)/\(name)", X_OK) == 0
    }
  }

  /// True when `program` is installed; false when it is not, outside CI; throws in CI when it
  /// is not.
  public static func enabled(
    _ program: OutsideProgram,
    _ environment: [String: String] = ProcessInfo.processInfo.environment
  ) throws -> Bool {
    if isInstalled(program.name, path: environment["PATH"]) { return true }
    if let ci = environment["CI"], !ci.isEmpty { throw MissingInCI(program: program) }
    return false
  }

  /// The known programs (`OutsideProgram.known`) a shell command runs, in the order of
  /// `known`: each word of the command, quoted or not, that is one's name or ends in `/` and
  /// its name.
  public static func used(in command: String) -> [OutsideProgram] {
    let wordCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+-/")
    let names = Set(
      command.split { !wordCharacters.contains($0) }.compactMap {
        $0.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init)
      })
    return OutsideProgram.known.filter { names.contains($0.name) }
  }
}

#if canImport(Testing)
  extension Trait where Self == ConditionTrait {
    /// Marks a test or suite slow (`SlowTests`): skipped, saying so, under
    /// `NOTIF_SLOW_TESTS=skip`; failed when CI is asked to skip it.
    public static var slow: Self {
      .enabled(Comment(rawValue: SlowTests.skipped)) { try SlowTests.enabled() }
    }

    /// Marks a test or suite that runs `program` (`OutsidePrograms`): skipped, naming the
    /// program and its package, where it is not installed; failed there in CI.
    public static func needs(_ program: OutsideProgram) -> Self {
      .enabled(Comment(rawValue: OutsidePrograms.skipped(program))) {
        try OutsidePrograms.enabled(program)
      }
    }
  }
#endif

/// The byte offset of `needle` in `text`. A `|` in the needle marks the point wanted, so
/// `"badge":|-1` is where `-1` starts after `"badge":`.
public func offset(of needle: String, in text: String) -> Int {
  let parts = needle.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
  let whole = Array(parts.joined().utf8)
  let shift = parts.count == 2 ? parts[0].utf8.count : 0
  let bytes = Array(text.utf8)
  guard whole.count <= bytes.count else { return -1 }
  for start in 0...(bytes.count - whole.count)
  where Array(bytes[start..<start + whole.count]) == whole {
    return start + shift
  }
  return -1
}
