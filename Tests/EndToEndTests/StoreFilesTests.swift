import Foundation
import Testing

/// The files of one run that writes a store are files of their own (notif-expire(1), "FILES"):
/// every pair of the options that name them, spelled as a name, `./name`, a symbolic link and a
/// hard link, is refused before anything is touched; a store, archive or quarantine file that
/// is not a regular file is refused; a symbolic link to a store stays a link.
@Suite struct StoreFilesTests {
  static let now = "2026-11-22T09:00:00Z"
  static let environment = ["TZ": "UTC", "LC_ALL": "C", "PATH": "/usr/bin:/bin"]
  /// Two records, one expired and one kept, and a line that is not a record: a sweep that runs
  /// changes the store, the archive and the quarantine file.
  static let store = Data(
    (#"{"id":"old","created_at":"2026-11-01T00:00:00Z"}"# + "\n"
      + #"{"id":"new","created_at":"2026-11-22T08:00:00Z"}"# + "\n" + "garbage\n").utf8)

  /// How a second option names the file the first one names.
  enum Spelling: String, CaseIterable, CustomStringConvertible {
    case name, dotSlash, absolute, symbolicLink, hardLink
    var description: String { rawValue }
  }

  /// The arguments of a sweep in place on `inbox.ndjson` by `tool`, before the file options.
  static func sweep(_ tool: String) -> [String] {
    tool == "notif-expire"
      ? ["--policy", "policy.json", "--now", now]
      : ["--delete", "--before", "2026-11-10T00:00:00Z", "--now", now]
  }

  /// A folder with the store and the policy, removed after `body`.
  static func withFolder(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-files-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(#"{"default": {"ttl": "7d"}}"#.utf8).write(
      to: folder.appendingPathComponent("policy.json"))
    try store.write(to: folder.appendingPathComponent("inbox.ndjson"))
    try body(folder)
  }

  /// Every file in `folder` and its bytes (a link as its target's path).
  static func snapshot(_ folder: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let manager = FileManager.default
    for name in try manager.contentsOfDirectory(atPath: folder.path) {
      let path = folder.appendingPathComponent(name).path
      let type = try manager.attributesOfItem(atPath: path)[.type] as? FileAttributeType
      if let target = try? manager.destinationOfSymbolicLink(atPath: path) {
        files[name] = Data(("-> " + target).utf8)
      } else if type == .typeRegular {
        files[name] = manager.contents(atPath: path) ?? Data()
      } else {
        files[name] = Data("\(type?.rawValue ?? "?")".utf8)  // never read: a FIFO would block
      }
    }
    return files
  }

  /// Names `target` (a path in `folder`) as `spelling` says, making the link it needs;
  /// returns the spelling to pass.
  static func spell(_ target: String, _ spelling: Spelling, in folder: URL) throws -> String {
    let manager = FileManager.default
    switch spelling {
    case .name: return target
    case .dotSlash: return "./" + target
    case .absolute: return folder.appendingPathComponent(target).path
    case .symbolicLink:
      try manager.createSymbolicLink(
        atPath: folder.appendingPathComponent("link").path,
        withDestinationPath: target)
      return "link"
    case .hardLink:
      let path = folder.appendingPathComponent(target).path
      if !manager.fileExists(atPath: path) { _ = manager.createFile(atPath: path, contents: nil) }
      try manager.linkItem(atPath: path, toPath: folder.appendingPathComponent("hard").path)
      return "hard"
    }
  }

  /// A file option of a sweep in place and the file it names, or the store's own files.
  struct Pair: CustomStringConvertible {
    var tool: String
    /// The option that names the file first (`--store`) and the file.
    var first: (option: String, file: String)
    /// The option that names it again.
    var second: String
    var description: String { "\(tool) \(first.option) \(first.file) \(second)" }
  }

  /// Every pair of file options of both sweeping tools, and each option against the store's
  /// journal and lock.
  static let pairs: [Pair] = {
    var pairs: [Pair] = []
    for tool in ["notif-expire", "notif-mark"] {
      let options =
        ["--store", "--archive", "--quarantine"] + (tool == "notif-mark" ? ["--ids-from"] : [])
      for (i, first) in options.enumerated() {
        for second in options[(i + 1)...] {
          let file = first == "--store" ? "inbox.ndjson" : "other.ndjson"
          pairs.append(Pair(tool: tool, first: (first, file), second: second))
        }
      }
      for second in options.dropFirst() {
        pairs.append(Pair(tool: tool, first: ("journal", "inbox.ndjson.sweep"), second: second))
        pairs.append(Pair(tool: tool, first: ("lock", "inbox.ndjson.lock"), second: second))
      }
    }
    return pairs
  }()

  @Test(arguments: pairs, Spelling.allCases)
  func twoOptionsNamingOneFileAreRefusedBeforeAnythingIsTouched(
    _ pair: Pair, _ spelling: Spelling
  ) throws {
    try Self.withFolder { folder in
      var arguments = Self.sweep(pair.tool)
      if pair.first.option.hasPrefix("--") {
        arguments += [pair.first.option, pair.first.file]
      }
      if pair.first.option != "--store" && pair.second != "--store" {
        arguments += ["--store", "inbox.ndjson"]
      }
      if pair.first.file == "other.ndjson" && pair.first.option == "--ids-from" {
        try Data().write(to: folder.appendingPathComponent("other.ndjson"))
      }
      arguments += [pair.second, try Self.spell(pair.first.file, spelling, in: folder)]
      let before = try Self.snapshot(folder)
      let outcome = try Binaries.run(
        pair.tool, arguments, in: folder, environment: Self.environment)
      let stderr = String(decoding: outcome.stderr, as: UTF8.self)
      #expect(outcome.status == 2, "\(pair) \(spelling): \(stderr)")
      #expect(
        stderr.hasPrefix("\(pair.tool): \(pair.second) '")
          || stderr.contains(" is the same file as \(pair.second) '"), "\(stderr)")
      #expect(stderr.contains(": each must be a file of its own\nusage: "), "\(stderr)")
      #expect(try Self.snapshot(folder) == before, "\(pair) \(spelling) touched a file")
    }
  }

  /// The old build's findings: a quarantine file that is the store fed the store's rejects
  /// back into it (doubling it every run), an archive that is the store brought removed
  /// records back, an archive that is the journal was deleted with the records in it.
  @Test(arguments: [
    ["--quarantine", "inbox.ndjson"], ["--archive", "inbox.ndjson"],
    ["--archive", "inbox.ndjson.sweep"], ["--quarantine", "inbox.ndjson.sweep"],
  ])
  func theIssuesFindingsAreRefused(_ options: [String]) throws {
    try Self.withFolder { folder in
      for _ in 0..<3 {
        let outcome = try Binaries.run(
          "notif-expire", Self.sweep("notif-expire") + ["--store", "inbox.ndjson"] + options,
          in: folder, environment: Self.environment)
        #expect(outcome.status == 2)
      }
      #expect(try Data(contentsOf: folder.appendingPathComponent("inbox.ndjson")) == Self.store)
    }
  }

  /// Distinct files, each spelled in every way, run as usual: the refusals above are not a
  /// refusal of spellings.
  @Test(arguments: ["notif-expire", "notif-mark"], Spelling.allCases)
  func distinctFilesInEverySpellingSweep(_ tool: String, _ spelling: Spelling) throws {
    try Self.withFolder { folder in
      let archive = try Self.spell("archive.ndjson", spelling, in: folder)
      let outcome = try Binaries.run(
        tool,
        Self.sweep(tool) + [
          "--store", "inbox.ndjson", "--archive", archive, "--quarantine", "./rejects.ndjson",
        ], in: folder, environment: Self.environment)
      #expect(outcome.status == 0, "\(String(decoding: outcome.stderr, as: UTF8.self))")
      let kept = try String(
        contentsOf: folder.appendingPathComponent("inbox.ndjson"), encoding: .utf8)
      #expect(kept == #"{"id":"new","created_at":"2026-11-22T08:00:00Z"}"# + "\n")
      let archived = try String(
        contentsOf: folder.appendingPathComponent("archive.ndjson"), encoding: .utf8)
      #expect(archived.hasPrefix(#"{"id":"old","#))
    }
  }

  /// As a filter: a file operand or standard output that is the archive or the quarantine
  /// file would read back, or write over, what the sweep writes.
  @Test(arguments: ["notif-expire", "notif-mark"])
  func aFilterRefusesAnOperandOrStandardOutputThatItWrites(_ tool: String) throws {
    try Self.withFolder { folder in
      let before = try Self.snapshot(folder)
      for options in [
        ["--archive", "inbox.ndjson", "inbox.ndjson"],
        ["--quarantine", "./inbox.ndjson", "inbox.ndjson"],
      ] {
        let outcome = try Binaries.run(
          tool, Self.sweep(tool) + options, in: folder, environment: Self.environment)
        #expect(outcome.status == 2)
        #expect(
          String(decoding: outcome.stderr, as: UTF8.self).contains(
            "the file operand 'inbox.ndjson' is the same file as "))
      }
      #expect(try Self.snapshot(folder) == before)
      let output = folder.appendingPathComponent("out.ndjson")
      _ = FileManager.default.createFile(atPath: output.path, contents: nil)
      let outcome = try Binaries.run(
        tool, Self.sweep(tool) + ["--archive", "out.ndjson", "inbox.ndjson"], in: folder,
        environment: Self.environment, stdoutFile: output)
      #expect(outcome.status == 2)
      #expect(
        String(decoding: outcome.stderr, as: UTF8.self).hasPrefix(
          "\(tool): standard output is the same file as --archive 'out.ndjson'"))
    }
  }

  /// Every tool: an operand that is the file standard output writes would be read back as it
  /// is written, without end.
  @Test(arguments: ["notif-parse", "notif-group", "notif-show", "notif-expire", "notif-mark"])
  func anOperandThatIsStandardOutputIsUnreadable(_ tool: String) throws {
    try Self.withFolder { folder in
      let output = folder.appendingPathComponent("inbox.ndjson")
      let arguments =
        ["notif-expire", "notif-mark"].contains(tool)
        ? Self.sweep(tool) : tool == "notif-group" ? [] : ["--now", Self.now]
      let outcome = try Binaries.run(
        tool, arguments + ["inbox.ndjson"], in: folder, environment: Self.environment,
        stdoutFile: output)
      #expect(outcome.status == 2)
      #expect(
        String(decoding: outcome.stderr, as: UTF8.self).contains(
          "inbox.ndjson: error: cannot open: it is also standard output [Unreadable]")
          || String(decoding: outcome.stderr, as: UTF8.self).contains(
            "is the same file as standard output")
      )
    }
  }

  /// `notif-parse --store` must not append to a file it reads.
  @Test(arguments: Spelling.allCases)
  func parseRefusesAStoreThatIsAnOperand(_ spelling: Spelling) throws {
    try Self.withFolder { folder in
      let before = try Self.snapshot(folder)
      let store = try Self.spell("inbox.ndjson", spelling, in: folder)
      let outcome = try Binaries.run(
        "notif-parse", ["--store", store, "inbox.ndjson"], in: folder,
        environment: Self.environment)
      #expect(outcome.status == 2)
      #expect(
        String(decoding: outcome.stderr, as: UTF8.self).hasPrefix(
          "notif-parse: the file operand 'inbox.ndjson' is the same file as --store '"))
      var after = try Self.snapshot(folder)
      after["link"] = nil
      after["hard"] = nil
      #expect(after == before)
    }
  }

  /// Runs `tool` with a deadline: a tool that blocks on a FIFO fails the test instead of
  /// hanging it.
  static func runWithDeadline(_ tool: String, _ arguments: [String], in folder: URL) throws
    -> (status: Int32, stderr: String)
  {
    let process = Process()
    process.executableURL = Binaries.url(tool)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    let errors = folder.appendingPathComponent("stderr.txt")
    _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
    process.standardError = try FileHandle(forWritingTo: errors)
    try process.run()
    let deadline = Date().addingTimeInterval(20)
    while process.isRunning && Date() < deadline { usleep(10_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      return (-1, "timed out")
    }
    let stderr = try String(contentsOf: errors, encoding: .utf8)
    try FileManager.default.removeItem(at: errors)
    return (process.terminationStatus, stderr)
  }

  /// A FIFO, a directory or a device as the store, the archive or the quarantine file is
  /// refused at once: a FIFO store made `notif-parse --store` lose its records and a sweep hang
  /// holding the lock.
  @Test(arguments: [
    ("notif-parse", "--store"), ("notif-expire", "--store"), ("notif-mark", "--store"),
    ("notif-expire", "--archive"), ("notif-mark", "--quarantine"),
  ])
  func aFileThatIsNotRegularIsRefused(_ tool: String, _ option: String) throws {
    try Self.withFolder { folder in
      #expect(mkfifo(folder.appendingPathComponent("fifo").path, 0o644) == 0)
      try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("dir"), withIntermediateDirectories: false)
      for file in ["fifo", "dir", "/dev/null"] {
        var arguments = tool == "notif-parse" ? ["--now", Self.now] : Self.sweep(tool)
        if option != "--store" && tool != "notif-parse" {
          arguments += ["--store", "inbox.ndjson"]
        }
        arguments += [option, file]
        if tool == "notif-parse" { arguments.append("-") }
        let before = try Self.snapshot(folder)
        let (status, stderr) = try Self.runWithDeadline(tool, arguments, in: folder)
        #expect(status == 2, "\(tool) \(option) \(file): \(stderr)")
        #expect(
          stderr.hasPrefix(
            "\(tool): \(option) '\(file)' is not a regular file: a store, its archive and its "
              + "quarantine file must be regular files\nusage: "), "\(stderr)")
        #expect(try Self.snapshot(folder) == before)
      }
    }
  }

  /// A symbolic link to the store is followed: the target is locked, swept and replaced, the
  /// lock and the journal are made beside it, and the link stays a link (the old build
  /// replaced the link by a copy, leaving every record in the target).
  @Test(arguments: ["notif-expire", "notif-mark"])
  func aSymbolicLinkToTheStoreStaysALink(_ tool: String) throws {
    try Self.withFolder { folder in
      let manager = FileManager.default
      try manager.createDirectory(
        at: folder.appendingPathComponent("data"), withIntermediateDirectories: false)
      try manager.moveItem(
        at: folder.appendingPathComponent("inbox.ndjson"),
        to: folder.appendingPathComponent("data/inbox.ndjson"))
      try manager.createSymbolicLink(
        atPath: folder.appendingPathComponent("inbox.ndjson").path,
        withDestinationPath: "data/inbox.ndjson")
      let outcome = try Binaries.run(
        tool,
        Self.sweep(tool) + [
          "--store", "inbox.ndjson", "--archive", "archive.ndjson", "--quarantine", "q.ndjson",
        ], in: folder, environment: Self.environment)
      #expect(outcome.status == 0, "\(String(decoding: outcome.stderr, as: UTF8.self))")
      #expect(
        try manager.destinationOfSymbolicLink(
          atPath: folder.appendingPathComponent("inbox.ndjson").path) == "data/inbox.ndjson")
      #expect(
        try String(contentsOf: folder.appendingPathComponent("data/inbox.ndjson"), encoding: .utf8)
          == #"{"id":"new","created_at":"2026-11-22T08:00:00Z"}"# + "\n")
      #expect(
        manager.fileExists(atPath: folder.appendingPathComponent("data/inbox.ndjson.lock").path))
      #expect(!manager.fileExists(atPath: folder.appendingPathComponent("inbox.ndjson.lock").path))
      // notif-parse --store appends through the link, under the same lock.
      try Data(#"{"aps":{"alert":"Hello"}}"#.utf8).write(
        to: folder.appendingPathComponent("p.json"))
      let appended = try Binaries.run(
        "notif-parse", ["--now", Self.now, "--store", "inbox.ndjson", "p.json"], in: folder,
        environment: Self.environment)
      #expect(appended.status == 0)
      #expect(
        try String(contentsOf: folder.appendingPathComponent("data/inbox.ndjson"), encoding: .utf8)
          .split(separator: "\n").count == 2)
      #expect(
        try manager.destinationOfSymbolicLink(
          atPath: folder.appendingPathComponent("inbox.ndjson").path) == "data/inbox.ndjson")
      #expect(!manager.fileExists(atPath: folder.appendingPathComponent("inbox.ndjson.lock").path))
    }
  }
}
