import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One golden case: a folder under `cases/<tool>/<name>/` holding
///
/// - `args`: the arguments, one per line; or `cmd`: a shell command line, run by `/bin/sh -c`
///   with the built tools first on `PATH` (for man page examples with globs and pipelines);
/// - `stdin.ndjson`: standard input (missing: empty);
/// - `env`: extra environment variables, `NAME=value` per line (missing: none);
/// - any other input file the arguments or command name;
/// - `stdout.ndjson`, `stderr.txt`, `status`: what must come out (missing: empty, empty, 0).
///
/// The tool runs with the case folder as its working directory, so file operands are named
/// relative to it, and with `TZ=UTC LC_ALL=C` and no `SOURCE_DATE_EPOCH` unless `env` sets it.
///
/// An input that two or more cases read lives once, under `Fixtures/<tool>/` with a name that
/// says what it holds, and each of those cases has a relative symbolic link to it under the
/// name the case uses, e.g. `stdin.ndjson -> ../../../Fixtures/notif-mark/odd-lines.ndjson`.
/// The case reads it by that name like any of its own files (`cat stdin.ndjson` in the folder
/// shows it), `git diff` shows a link as the one line of its target, and a change to the shared
/// file shows up in every case that reads it. `GoldenTests` rejects two case inputs with the
/// same bytes, except in corpus cases (those with an `ORIGIN` file keep their bytes). A man page
/// example's case (`man-example-N-...`) links instead to the files of the repository's
/// `examples/` that the example names, so that it records what the example prints as written.
///
/// Record inputs carry only the keys the case is about: the tools read a missing key as null,
/// and `scripts/shrink-golden-inputs.py` drops the null keys from records pasted from
/// notif-parse.
///
/// `NOTIF_GOLDEN_CASE` picks the cases to run (and, with `NOTIF_UPDATE_GOLDEN=1`, to record);
/// see ``selected(by:)``. `make golden CASE=...` sets both.
struct GoldenCase: CustomStringConvertible, Sendable {
  let tool: String
  let name: String
  let folder: URL

  var description: String { "\(tool)/\(name)" }

  static let casesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("cases")

  /// Every case, sorted by tool and name.
  static func all() -> [GoldenCase] {
    let manager = FileManager.default
    guard let tools = try? manager.contentsOfDirectory(atPath: casesFolder.path) else { return [] }
    var cases: [GoldenCase] = []
    for tool in tools.sorted() {
      let toolFolder = casesFolder.appendingPathComponent(tool)
      guard let names = try? manager.contentsOfDirectory(atPath: toolFolder.path) else { continue }
      for name in names.sorted() {
        cases.append(
          GoldenCase(tool: tool, name: name, folder: toolFolder.appendingPathComponent(name)))
      }
    }
    return cases
  }

  /// The cases `NOTIF_GOLDEN_CASE` names, or every case when it is unset or empty.
  ///
  /// It holds shell patterns separated by commas or spaces. A case is picked when a pattern
  /// matches its `tool/name`, its tool or its name: `notif-group/by-app-one-group-per-app`,
  /// `notif-group`, `notif-*/man-example-*`, `*-usage-error`.
  static func selected(
    by filter: String? = ProcessInfo.processInfo.environment["NOTIF_GOLDEN_CASE"]
  ) -> [GoldenCase] {
    let patterns = selectionPatterns(filter)
    guard !patterns.isEmpty else { return all() }
    return all().filter { golden in patterns.contains { golden.matches($0) } }
  }

  static func selectionPatterns(_ filter: String?) -> [String] {
    (filter ?? "").split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
  }

  /// Whether the shell pattern matches this case's `tool/name`, its tool or its name.
  func matches(_ pattern: String) -> Bool {
    [description, tool, name].contains { (subject: String) in fnmatch(pattern, subject, 0) == 0 }
  }

  func read(_ file: String) -> Data? {
    try? Data(contentsOf: folder.appendingPathComponent(file))
  }

  var arguments: [String] {
    guard let data = read("args") else { return [] }
    return String(decoding: data, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    )
    .map(String.init).dropLastIfEmpty()
  }

  /// The shell command line, for a case that has one.
  var command: String? {
    read("cmd").map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .newlines) }
  }

  var environment: [String: String] {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    var environment = ["TZ": "UTC", "LC_ALL": "C", "PATH": Binaries.folder.path + ":" + path]
    if let data = read("env") {
      for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let parts = line.split(separator: "=", maxSplits: 1)
        if parts.count == 2 { environment[String(parts[0])] = String(parts[1]) }
      }
    }
    return environment
  }

  /// Writes an expectation, or removes its file when it would be the default.
  func update(_ file: String, _ data: Data, isDefault: Bool) throws {
    let url = folder.appendingPathComponent(file)
    if isDefault {
      try? FileManager.default.removeItem(at: url)
    } else {
      try data.write(to: url)
    }
  }
}

extension Array where Element == String {
  fileprivate func dropLastIfEmpty() -> [String] {
    last == "" ? Array(dropLast()) : self
  }
}

/// What a finished process left behind.
struct Outcome: Equatable {
  var stdout: Data
  var stderr: Data
  var status: Int32
}

/// Finds and runs the built executables.
enum Binaries {
  /// `NOTIF_BIN_DIR`, else the debug build folder of this package.
  static var folder: URL {
    if let dir = ProcessInfo.processInfo.environment["NOTIF_BIN_DIR"], !dir.isEmpty {
      return URL(fileURLWithPath: dir)
    }
    return GoldenCase.casesFolder.deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug")
  }

  static func url(_ tool: String) -> URL {
    tool.hasPrefix("/") ? URL(fileURLWithPath: tool) : folder.appendingPathComponent(tool)
  }

  /// Runs `tool` and waits for it; standard input comes from `stdin` (a file, read from byte
  /// `stdinOffset` on: the tool inherits a descriptor that stands there) or is empty.
  static func run(
    _ tool: String, _ arguments: [String], in directory: URL, stdin: URL? = nil,
    stdinOffset: UInt64 = 0, environment: [String: String], stdoutFile: URL? = nil
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = url(tool)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    // The JSON reader's path (notif(5), ENVIRONMENT) passes through the cases' fixed
    // environment: `make scalar-test` runs them again on the scalar one.
    var environment = environment
    if let path = ProcessInfo.processInfo.environment["NOTIF_JSON_SCALAR"] {
      environment["NOTIF_JSON_SCALAR"] = path
    }
    process.environment = environment
    if let stdin {
      let input = try FileHandle(forReadingFrom: stdin)
      try input.seek(toOffset: stdinOffset)
      process.standardInput = input
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    // Output goes to files, read once the process ends: no pipe can fill up and block it.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outURL = scratch.appendingPathComponent("stdout")
    let errURL = scratch.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: stdoutFile ?? outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    try process.run()
    process.waitUntilExit()
    let outData = stdoutFile == nil ? try Data(contentsOf: outURL) : Data()
    let errData = try Data(contentsOf: errURL)
    return Outcome(stdout: outData, stderr: errData, status: process.terminationStatus)
  }
}
