import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Every example a user reads, run as jq runs its manual: each command in README.md and in the
/// EXAMPLES section of every man page runs against the files in `examples/`, and must exit with
/// the status its text gives and print the output its text shows.
///
/// The notation read here keeps the rendered text clean:
///
/// - README.md: a ```` ```sh ```` block holds commands. A command goes on over lines that end
///   with `\`, `|`, `&&` or `||`, and inside an open `{ ... }` or quote. A trailing `# exit N`
///   comment gives its status when that is not 0. `#` lines right below a command, with no blank
///   line between, show what it prints: its standard output, whole, and nothing on its standard
///   error; other `#` lines are prose. A ```` ```crontab ```` block holds crontab(5) lines. A
///   ```` ```json ```` block shows a file of `examples/`, named by a `<!-- file NAME -->` line
///   right above it. A block without a language shows text (the output of `make demo`) and is
///   not run.
/// - `man/*`: in EXAMPLES, each `.Bd -literal` block and `.Dl` line holds commands, with the same
///   continuations. A comment line right above it says what else it is: `.\" exit N`, its
///   commands exit N; `.\" file NAME`, it shows `examples/NAME`; `.\" output`, it shows what the
///   command above it prints; `.\" output joined`, the same with line breaks added.
///
/// The examples of a section (README.md's `## ` headings, a man page's EXAMPLES) run as a reader
/// runs them: in order, in one copy of `examples/`, so that what one leaves behind is there for
/// the next. Each runs by `/bin/sh -c` with the built tools first on `PATH`, `TZ=UTC` and
/// `LC_ALL=C`, so the sweeps never touch the repository. A crontab(5) line runs as cron(8) runs
/// it: its command by `/bin/sh -c` with cron's `PATH=/usr/bin:/bin`, in a scratch `HOME` whose
/// `.local/bin` holds the tools (as `make install PREFIX=$HOME/.local` puts them) and whose
/// `.local/share/notif` holds a copy of `examples/` (its clock fixed by `SOURCE_DATE_EPOCH`). An
/// example that names a file `examples/` does not have fails, as does a shown file that is not
/// the one shipped. A command expected to exit 0 may write warnings to its standard error, and
/// nothing else: that catches a failure early in a pipeline, whose status is its last
/// command's. Notes (`NotListed`: what the device does not list was left out; `OpenWindows`:
/// records wait in windows still open) report nothing wrong and may come with any command, one
/// whose output is shown too. The few commands that cannot run here are in `skipped`, each with
/// its reason.
///
/// A section that runs a program the toolchain does not bring (`OutsideProgram`: jq, GNU
/// parallel) is run by the test for that program, which is skipped, naming the program and its
/// package, where it is not installed; in CI that is a failure (`OutsidePrograms`).
@Suite struct ExamplesTests {
  /// The commands that are not run, by how they begin, and why.
  static let skipped: [(prefix: String, reason: String)] = [
    (
      "make demo",
      "builds the tools, a minute on a shared machine; the output the README shows for it is"
        + " not checked here"
    ),
    ("make test", "runs the tests, this one included"),
    ("make install", "writes under PREFIX, outside the repository"),
    ("make uninstall", "removes files under PREFIX, outside the repository"),
    (
      "python3 spark/notif_spark.py",
      "Spark in local mode, half a minute a run; scripts/test-scale.sh (make scale-test) runs"
        + " these on 100,000 records and compares them with one process"
    ),
  ]

  /// The outside programs that have a test of their own, in the order a section that runs
  /// several is given to the first one missing (or, when none is, to the first one it runs).
  static let programs: [OutsideProgram] = [.parallel, .jq, .mlr]

  /// Whether a line of standard error is a note, which reports nothing wrong: `NotListed`, or
  /// notif-digest's `OpenWindows` (records left for a later run).
  static func isNote(_ line: Substring) -> Bool {
    line.contains(": note: ")
      && (line.hasSuffix(" [NotListed]") || line.hasSuffix(" [OpenWindows]"))
  }

  static func skip(_ command: ExampleCommand) -> String? {
    skipped.first { command.text.hasPrefix($0.prefix) }?.reason
  }

  static var environment: [String: String] {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    // HOME for GNU parallel, in the README's "Running at scale", which warns without one.
    let home = ProcessInfo.processInfo.environment["HOME"] ?? NSTemporaryDirectory()
    return ["PATH": Binaries.folder.path + ":" + path, "TZ": "UTC", "LC_ALL": "C", "HOME": home]
  }

  /// The test that runs `section`: the one for the first of `programs` it runs that is not
  /// installed; when all are, the one for the first it runs; nil for the test of the sections
  /// that run none.
  static func test(for section: ExampleSection) -> OutsideProgram? {
    let used = section.programs(skipping: skip).filter { programs.contains($0) }
    let path = environment["PATH"]
    return used.first { !OutsidePrograms.isInstalled($0.name, path: path) } ?? used.first
  }

  static func sections(for program: OutsideProgram?) -> [ExampleSection] {
    ExampleReader.all().sections.filter { test(for: $0) == program }
  }

  @Test("example section", arguments: sections(for: nil))
  func example(_ section: ExampleSection) throws {
    try run(section)
  }

  @Test(
    "example section that runs GNU parallel", .needs(.parallel),
    arguments: sections(for: .parallel))
  func exampleRunningParallel(_ section: ExampleSection) throws {
    try run(section)
  }

  @Test("example section that runs jq", .needs(.jq), arguments: sections(for: .jq))
  func exampleRunningJq(_ section: ExampleSection) throws {
    try run(section)
  }

  @Test("example section that runs Miller", .needs(.mlr), arguments: sections(for: .mlr))
  func exampleRunningMiller(_ section: ExampleSection) throws {
    try run(section)
  }

  /// Runs the examples of `section` in order in one copy of `examples/`.
  func run(_ section: ExampleSection) throws {
    let manager = FileManager.default
    let scratch = manager.temporaryDirectory.appendingPathComponent(
      "notif-examples-\(UUID().uuidString)")
    let folder = scratch.appendingPathComponent("examples")
    try manager.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? manager.removeItem(at: scratch) }
    try manager.copyItem(at: ExampleReader.examples, to: folder)
    for block in section.blocks {
      for command in block.commands where Self.skip(command) == nil {
        let place = "\(block.file):\(command.line): `\(command.text)`"
        if let job = ExampleReader.cronCommand(of: command.text) {
          try runAsCron(job, place: place, home: scratch.appendingPathComponent("home"))
          continue
        }
        let missing = ExampleReader.inputFiles(of: command.text).filter {
          !ExampleReader.exists($0, in: folder)
        }
        guard missing.isEmpty else {
          Issue.record("\(place) names \(missing.joined(separator: ", ")): not in examples/")
          continue
        }
        let outcome = try Binaries.run(
          "/bin/sh", ["-c", command.text], in: folder, environment: Self.environment)
        check(outcome, of: command, place: place)
      }
    }
  }

  /// Checks the status, standard output and standard error of a command against its text.
  func check(_ outcome: Outcome, of command: ExampleCommand, place: String) {
    let stdout = String(decoding: outcome.stdout, as: UTF8.self)
    let stderr = String(decoding: outcome.stderr, as: UTF8.self)
    #expect(
      outcome.status == command.status,
      "\(place) exits \(outcome.status), not \(command.status)\n\(stderr)")
    let notNotes = stderr.split(separator: "\n").filter { !Self.isNote($0) }
    if command.status == 0 {
      let errors = notNotes.filter {
        !$0.contains(": warning: ") && !$0.hasPrefix("::warning ")
      }
      #expect(errors.isEmpty, "\(place) exits 0 but writes\n\(errors.joined(separator: "\n"))")
    }
    if let shown = command.output {
      if command.outputJoined {
        #expect(
          stdout.replacingOccurrences(of: "\n", with: "")
            == shown.replacingOccurrences(of: "\n", with: ""),
          "\(place) prints, line breaks aside, other than its text shows:\n\(stdout)")
      } else {
        #expect(stdout == shown, "\(place) prints other than its text shows:\n\(stdout)")
      }
      #expect(notNotes.isEmpty, "\(place) shows its output but also writes\n\(stderr)")
    }
  }

  /// The examples' "now", 2026-11-22T09:00:00Z, for the crontab lines, which give no `--now`.
  static let cronNow = "1795338000"

  /// Runs the command of a crontab line as cron(8) runs it for a user who installed with `make
  /// install PREFIX=$HOME/.local`: `/bin/sh -c`, cron's `PATH`, that user's `HOME`, whose
  /// `.local/bin` has the tools and `.local/share/notif` a copy of `examples/`.
  func runAsCron(_ job: String, place: String, home: URL) throws {
    let manager = FileManager.default
    let bin = home.appendingPathComponent(".local/bin")
    let data = home.appendingPathComponent(".local/share/notif")
    if !manager.fileExists(atPath: data.path) {
      try manager.createDirectory(at: bin, withIntermediateDirectories: true)
      for tool in try manager.contentsOfDirectory(atPath: Binaries.folder.path)
      where tool.hasPrefix("notif-") && !tool.contains(".") {
        try manager.createSymbolicLink(
          at: bin.appendingPathComponent(tool),
          withDestinationURL: Binaries.folder.appendingPathComponent(tool))
      }
      try manager.createDirectory(
        at: data.deletingLastPathComponent(), withIntermediateDirectories: true)
      try manager.copyItem(at: ExampleReader.examples, to: data)
    }
    // cron(8) reads an unescaped % as the end of the command, and what follows as its input.
    #expect(!job.replacingOccurrences(of: "\\%", with: "").contains("%"), "\(place) has a %")
    let outcome = try Binaries.run(
      "/bin/sh", ["-c", job], in: home,
      environment: [
        "PATH": "/usr/bin:/bin", "HOME": home.path, "SHELL": "/bin/sh", "TZ": "UTC",
        "LC_ALL": "C", "SOURCE_DATE_EPOCH": Self.cronNow,
      ])
    check(outcome, of: ExampleCommand(line: 0, text: job), place: place + ", as cron runs it")
  }

  /// A block that shows a file of `examples/` shows it as shipped: as the same JSON value, or,
  /// for other files, the same text.
  @Test func shownFilesAreTheShippedOnes() throws {
    let shown = ExampleReader.all().shownFiles
    #expect(shown.count >= 3)
    for file in shown {
      let place = "\(file.file):\(file.line)"
      let url = ExampleReader.examples.appendingPathComponent(file.name)
      guard let data = FileManager.default.contents(atPath: url.path) else {
        Issue.record("\(place) shows \(file.name), which examples/ does not have")
        continue
      }
      if file.name.hasSuffix(".json") {
        #expect(
          try Self.canonical(data) == Self.canonical(Data(file.text.utf8)),
          "\(place) shows a value other than examples/\(file.name)")
      } else {
        #expect(
          String(decoding: data, as: UTF8.self) == file.text,
          "\(place) shows text other than examples/\(file.name)")
      }
    }
  }

  static func canonical(_ json: Data) throws -> Data {
    let value = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
    return try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys])
  }

  @Test func everyExampleIsReadAndEverySkipIsUsed() throws {
    let all = ExampleReader.all()
    #expect(all.problems.isEmpty, "\(all.problems.joined(separator: "\n"))")
    let sources = ["README.md"] + (try ExampleReader.manPages())
    for source in sources {
      #expect(
        all.blocks.contains { $0.file == source } || all.shownFiles.contains { $0.file == source },
        "no example found in \(source)")
    }
    let commands = all.blocks.flatMap(\.commands)
    for skip in Self.skipped {
      #expect(
        commands.contains { $0.text.hasPrefix(skip.prefix) }, "no example begins '\(skip.prefix)'")
    }
    #expect(commands.count > 40)
    // Each section runs in one of the tests; a test of a program with no section to run would
    // show as skipped ("No test cases found") where nothing is.
    let used = Set(all.sections.flatMap { $0.programs(skipping: Self.skip) })
    for program in used {
      #expect(
        Self.programs.contains(program),
        "an example runs \(program), which has no test of its own in ExamplesTests.programs")
    }
    for program in Self.programs {
      #expect(used.contains(program), "no example section runs \(program)")
    }
    #expect(all.blocks.contains { $0.commands.contains { Self.isCrontabLine($0) } })
  }

  static func isCrontabLine(_ command: ExampleCommand) -> Bool {
    ExampleReader.cronCommand(of: command.text) != nil
  }

  @Test func cronLines() {
    #expect(
      ExampleReader.cronCommand(of: "*/15 * * * * cd \"$HOME/x\" && notif-expire -n")
        == "cd \"$HOME/x\" && notif-expire -n")
    #expect(ExampleReader.cronCommand(of: "5 8-18 * * 1,3 notif-digest") == "notif-digest")
    #expect(ExampleReader.cronCommand(of: "notif-expire -p policy.json a b c d e") == nil)
    #expect(ExampleReader.cronCommand(of: "5 * * * *") == nil)
  }

  @Test func programsACommandRuns() {
    #expect(OutsidePrograms.used(in: "notif-group x.ndjson | jq -c .count") == [.jq])
    #expect(OutsidePrograms.used(in: "flock a.lock sh -c 'jq -r .summary d.ndjson'") == [.jq])
    #expect(
      OutsidePrograms.used(in: "parallel --pipepart -a p.ndjson notif-parse | /usr/bin/jq .")
        == [.parallel, .jq])
    #expect(OutsidePrograms.used(in: "parallel/expire-by-app.sh 2 jq.ndjson").isEmpty)
    let scale = ExampleSection(
      file: "R", title: "S",
      blocks: [
        ExampleBlock(
          file: "R", line: 1,
          commands: [
            ExampleCommand(line: 1, text: "parallel/expire-by-app.sh 2 inbox.ndjson # jq"),
            ExampleCommand(line: 2, text: "python3 spark/notif_spark.py expire inbox.ndjson"),
          ])
      ])
    #expect(scale.programs(skipping: Self.skip) == [.parallel])
  }

  @Test func readmeNotation() {
    let readme = """
      Prose.

      ## One

      ### Part of one

      ```sh
      # what it does
      notif-a --x \\
          one.ndjson |
        jq .y    # exit 1
      # out 1
      #
      # out 3

      notif-b '{a, b}' # not an exit status

      # a comment, after a blank line
      { notif-c
        notif-d; } | notif-e
      ```

      ## Two

      ```crontab
      5 * * * * notif-f
      ```

      <!-- file policy.json -->
      ```json
      {"a": 1}
      ```

      ```
      not run
      ```
      """
    let document = ExampleReader.readme(readme, file: "R")
    #expect(document.problems.isEmpty)
    let commands = document.blocks.flatMap(\.commands)
    #expect(
      commands.map(\.text) == [
        "notif-a --x \\\n    one.ndjson |\n  jq .y    # exit 1",
        "notif-b '{a, b}' # not an exit status",
        "{ notif-c\n  notif-d; } | notif-e", "5 * * * * notif-f",
      ])
    #expect(commands.map(\.line) == [9, 16, 19, 26])
    #expect(commands.map(\.status) == [1, 0, 0, 0])
    #expect(commands.map(\.output) == ["out 1\n\nout 3\n", nil, nil, nil])
    #expect(document.sections.map(\.title) == ["One", "Two"])
    #expect(document.sections.map { $0.blocks.count } == [1, 1])
    #expect(document.shownFiles.map(\.name) == ["policy.json"])
    #expect(document.shownFiles.map(\.text) == ["{\"a\": 1}\n"])
  }

  @Test func manPageNotation() {
    let page = """
      .Sh DESCRIPTION
      .Bd -literal
      not an example
      .Ed
      .Sh EXAMPLES
      Text.
      .\\" exit 1
      .Bd -literal -offset indent
      notif\\-a \\-\\-x one.ndjson \\e
          two.ndjson
      notif-b
      .Ed
      .\\" file a.json
      .Bd -literal -offset indent
      {"a": 1}
      .Ed
      Then
      .Dl notif-c a.json
      writes
      .\\" output joined
      .Bd -literal -offset indent
      {"b":
      2}
      .Ed
      .Sh SEE ALSO
      """
    let document = ExampleReader.manPage(page, file: "M")
    #expect(document.problems.isEmpty)
    let commands = document.blocks.flatMap(\.commands)
    #expect(
      commands.map(\.text) == [
        "notif-a --x one.ndjson \\\n    two.ndjson", "notif-b", "notif-c a.json",
      ])
    #expect(commands.map(\.status) == [1, 1, 0])
    #expect(commands.map(\.line) == [9, 11, 18])
    #expect(commands.last?.output == "{\"b\":\n2}\n")
    #expect(commands.last?.outputJoined == true)
    #expect(document.shownFiles.map(\.name) == ["a.json"])
  }

  @Test func inputFilesAreTheFilesACommandReads() {
    #expect(
      ExampleReader.inputFiles(
        of:
          "notif-x -p policy.json --categories=c.json --strings Resources a.ndjson fixtures/*.apns"
          + " < b.ndjson > out.ndjson --archive gone.ndjson --now 2026-11-22T09:00:00Z |"
          + " jq -r .summary | flock x.lock -c 'cat >> q.ndjson' \"$f\"")
        == ["policy.json", "c.json", "Resources", "a.ndjson", "fixtures/*.apns", "b.ndjson"])
    let examples = ExampleReader.examples
    #expect(ExampleReader.exists("fixtures/*.apns", in: examples))
    #expect(ExampleReader.exists("part-*.ndjson", in: examples))
    #expect(!ExampleReader.exists("fixtures/*.xml", in: examples))
    #expect(!ExampleReader.exists("missing.ndjson", in: examples))
  }
}

/// One command of an example, as the shell reads it.
struct ExampleCommand: Sendable {
  /// The line of its source where it begins.
  var line: Int
  /// Its text, unescaped, its lines joined by newlines.
  var text: String
  var status: Int32 = 0
  /// The output its text shows, if it shows one.
  var output: String?
  /// Whether the shown output has line breaks added.
  var outputJoined = false
}

/// Commands that run one after the other, as one block of the text shows them.
struct ExampleBlock: Sendable, CustomStringConvertible {
  var file: String
  var line: Int
  var commands: [ExampleCommand]
  /// The section it is in: README.md's `## ` heading above it, or a man page's `EXAMPLES`.
  var section = ""

  var description: String { "\(file):\(line)" }
}

/// The blocks of one section of a document, which run in order in the same copy of
/// `examples/`, as a reader runs them.
struct ExampleSection: Sendable, CustomStringConvertible {
  var file: String
  var title: String
  var blocks: [ExampleBlock]

  var description: String { "\(file): \(title)" }

  /// The outside programs its commands run, leaving out the commands `skip` gives a reason for:
  /// in the commands' text (their trailing comments aside), and in the scripts of `examples/`
  /// they run.
  func programs(skipping skip: (ExampleCommand) -> String?) -> [OutsideProgram] {
    var text = ""
    for command in blocks.flatMap(\.commands) where skip(command) == nil {
      for line in command.text.split(separator: "\n") {
        text += ExampleReader.split(String(line)).code + "\n"
      }
      for word in ExampleReader.words(of: ExampleReader.split(command.text).code)
      where word.contains("/") && !word.hasPrefix("/") {
        let script = ExampleReader.examples.appendingPathComponent(word)
        if let data = FileManager.default.contents(atPath: script.path) {
          text += String(decoding: data, as: UTF8.self) + "\n"
        }
      }
    }
    return OutsidePrograms.used(in: text)
  }
}

/// A block that shows the content of a file of `examples/`.
struct ShownFile: Sendable {
  var file: String
  var line: Int
  var name: String
  var text: String
}

/// What a document's examples are, and what of its notation was not understood.
struct ExampleDocument: Sendable {
  var blocks: [ExampleBlock] = []
  var shownFiles: [ShownFile] = []
  var problems: [String] = []

  mutating func append(_ other: ExampleDocument) {
    blocks += other.blocks
    shownFiles += other.shownFiles
    problems += other.problems
  }

  /// The blocks by section, in the order of the text.
  var sections: [ExampleSection] {
    var sections: [ExampleSection] = []
    for block in blocks {
      if let last = sections.last, last.file == block.file, last.title == block.section {
        sections[sections.count - 1].blocks.append(block)
      } else {
        sections.append(ExampleSection(file: block.file, title: block.section, blocks: [block]))
      }
    }
    return sections
  }
}

/// Finds the examples of README.md and the man pages (see `ExamplesTests` for the notation).
enum ExampleReader {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let examples = repository.appendingPathComponent("examples")

  /// The man pages, as `man/<name>`.
  static func manPages() throws -> [String] {
    try FileManager.default.contentsOfDirectory(
      atPath: repository.appendingPathComponent("man").path
    )
    .filter { $0.hasPrefix("notif") }.sorted().map { "man/" + $0 }
  }

  static func all() -> ExampleDocument {
    var document = ExampleDocument()
    func text(_ file: String) -> String? {
      (try? Data(contentsOf: repository.appendingPathComponent(file))).map {
        String(decoding: $0, as: UTF8.self)
      }
    }
    guard let readmeText = text("README.md"), let pages = try? manPages() else {
      document.problems.append("README.md or man/ cannot be read")
      return document
    }
    document.append(readme(readmeText, file: "README.md"))
    for page in pages {
      guard let pageText = text(page) else {
        document.problems.append("\(page) cannot be read")
        continue
      }
      document.append(manPage(pageText, file: page))
    }
    return document
  }

  // MARK: README

  static func readme(_ text: String, file: String) -> ExampleDocument {
    var document = ExampleDocument()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var index = 0
    var section = "(before the first heading)"
    while index < lines.count {
      guard lines[index].hasPrefix("```") else {
        if lines[index].hasPrefix("## ") { section = String(lines[index].dropFirst(3)) }
        index += 1
        continue
      }
      let language = lines[index].dropFirst(3).trimmingCharacters(in: .whitespaces)
      let start = index
      index += 1
      var body: [(number: Int, text: String)] = []
      while index < lines.count, !lines[index].hasPrefix("```") {
        body.append((index + 1, lines[index]))
        index += 1
      }
      index += 1
      let above = start > 0 ? lines[start - 1] : ""
      switch language {
      case "sh", "crontab":
        let (commands, problems) = Self.commands(body, showsOutput: language == "sh")
        document.problems += problems.map { "\(file):\($0)" }
        document.blocks.append(
          ExampleBlock(file: file, line: start + 1, commands: commands, section: section))
      case "json":
        guard above.hasPrefix("<!-- file "), above.hasSuffix(" -->") else {
          document.problems.append("\(file):\(start + 1): a json block without <!-- file NAME -->")
          continue
        }
        let name = above.dropFirst("<!-- file ".count).dropLast(" -->".count)
        document.shownFiles.append(
          ShownFile(
            file: file, line: start + 1, name: String(name),
            text: body.map { $0.text + "\n" }.joined()))
      default:
        continue
      }
    }
    return document
  }

  // MARK: man pages

  static func manPage(_ text: String, file: String) -> ExampleDocument {
    var document = ExampleDocument()
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let section = lines.firstIndex(of: ".Sh EXAMPLES") else {
      document.problems.append("\(file): no EXAMPLES section")
      return document
    }
    var note: (line: Int, text: String)?
    var index = section + 1
    while index < lines.count, !lines[index].hasPrefix(".Sh ") {
      let line = lines[index]
      index += 1
      if line.hasPrefix(".\\\"") {
        note = (index, line.dropFirst(3).trimmingCharacters(in: .whitespaces))
        continue
      }
      var body: [(number: Int, text: String)] = []
      if line.hasPrefix(".Bd -literal") {
        while index < lines.count, lines[index] != ".Ed" {
          body.append((index + 1, lines[index]))
          index += 1
        }
        index += 1
      } else if line.hasPrefix(".Dl ") {
        body = [(index, String(line.dropFirst(4)))]
      } else {
        if let stray = note {
          document.problems.append("\(file):\(stray.line): '\(stray.text)' is above no example")
          note = nil
        }
        continue
      }
      let start = (body.first?.number ?? index) - 1
      var unescaped: [(number: Int, text: String)] = []
      for (number, raw) in body {
        guard let text = unescape(raw) else {
          document.problems.append("\(file):\(number): an escape this reader does not know")
          continue
        }
        unescaped.append((number, text))
      }
      let annotation = note?.text ?? ""
      note = nil
      if annotation.hasPrefix("file ") {
        document.shownFiles.append(
          ShownFile(
            file: file, line: start, name: String(annotation.dropFirst("file ".count)),
            text: unescaped.map { $0.text + "\n" }.joined()))
      } else if annotation == "output" || annotation == "output joined" {
        guard var last = document.blocks.popLast(), !last.commands.isEmpty else {
          document.problems.append("\(file):\(start): output of no command")
          continue
        }
        last.commands[last.commands.count - 1].output = unescaped.map { $0.text + "\n" }.joined()
        last.commands[last.commands.count - 1].outputJoined = annotation == "output joined"
        document.blocks.append(last)
      } else if annotation.isEmpty || exitStatus(annotation) != nil {
        var (commands, problems) = Self.commands(unescaped, showsOutput: false)
        document.problems += problems.map { "\(file):\($0)" }
        for index in commands.indices { commands[index].status = exitStatus(annotation) ?? 0 }
        document.blocks.append(
          ExampleBlock(file: file, line: start, commands: commands, section: "EXAMPLES"))
      } else {
        document.problems.append("\(file):\(start - 1): unknown note '\(annotation)'")
      }
    }
    return document
  }

  /// The text of a line of a literal block, or nil when it holds an escape not known here.
  static func unescape(_ line: String) -> String? {
    let escapes = [
      ("\\-", "-"), ("\\e", "\\"), ("\\&", ""), ("\\(aq", "'"), ("\\(dq", "\""), ("\\(ti", "~"),
      ("\\(ha", "^"),
    ]
    var text = ""
    var rest = Substring(line)
    while let backslash = rest.firstIndex(of: "\\") {
      text += rest[..<backslash]
      rest = rest[backslash...]
      // A Unicode character by its code point, `\[u25CF]`.
      if rest.hasPrefix("\\[u"), let close = rest.firstIndex(of: "]"),
        let value = UInt32(rest[rest.index(rest.startIndex, offsetBy: 3)..<close], radix: 16),
        let scalar = Unicode.Scalar(value)
      {
        text.unicodeScalars.append(scalar)
        rest = rest[rest.index(after: close)...]
        continue
      }
      guard let (escape, character) = escapes.first(where: { rest.hasPrefix($0.0) }) else {
        return nil
      }
      text += character
      rest = rest.dropFirst(escape.count)
    }
    return text + rest
  }

  // MARK: commands

  /// The commands of a block's lines; with `showsOutput`, `#` lines right below a command are
  /// its output. Problems are given as `LINE: message`.
  static func commands(
    _ lines: [(number: Int, text: String)], showsOutput: Bool
  ) -> (commands: [ExampleCommand], problems: [String]) {
    var commands: [ExampleCommand] = []
    var pending: [String] = []
    var pendingLine = 0
    var belowCommand = false
    for (number, line) in lines {
      if pending.isEmpty {
        if line.trimmingCharacters(in: .whitespaces).isEmpty {
          belowCommand = false
          continue
        }
        if line.hasPrefix("#") {
          if showsOutput, belowCommand, !commands.isEmpty {
            var shown = line.dropFirst()
            if shown.hasPrefix(" ") { shown = shown.dropFirst() }
            commands[commands.count - 1].output =
              (commands[commands.count - 1].output ?? "") + shown + "\n"
          }
          continue
        }
        pendingLine = number
      }
      pending.append(line)
      let text = pending.joined(separator: "\n")
      if !needsMoreLines(text) {
        let status = split(line).comment.flatMap(exitStatus) ?? 0
        commands.append(ExampleCommand(line: pendingLine, text: text, status: status))
        pending = []
        belowCommand = true
      }
    }
    let problems = pending.isEmpty ? [] : ["\(pendingLine): the command does not end"]
    return (commands, problems)
  }

  /// The command of a crontab(5) line: what follows its five time fields (minute, hour, day
  /// of month, month, day of week, each of digits, `*`, `/`, `,` and `-`); nil for a line
  /// that is not one.
  static func cronCommand(of line: String) -> String? {
    let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
    guard fields.count == 6, !line.contains("\n") else { return nil }
    let timeCharacters = Set("0123456789*/,-")
    guard fields.prefix(5).allSatisfy({ $0.allSatisfy(timeCharacters.contains) }) else {
      return nil
    }
    return String(fields[5])
  }

  /// `N` of a comment `exit N`.
  static func exitStatus(_ comment: String) -> Int32? {
    guard comment.hasPrefix("exit ") else { return nil }
    return Int32(comment.dropFirst(5).prefix { $0.isNumber })
  }

  /// A line's code and its trailing comment (after an unquoted `#` that begins a word).
  static func split(_ line: String) -> (code: String, comment: String?) {
    var quote: Character?
    var escaped = false
    var wordStart = true
    for index in line.indices {
      let character = line[index]
      let wasWordStart = wordStart
      wordStart = false
      if escaped {
        escaped = false
      } else if let open = quote {
        if character == open {
          quote = nil
        } else if open == "\"", character == "\\" {
          escaped = true
        }
      } else if character == "\\" {
        escaped = true
      } else if character == "'" || character == "\"" {
        quote = character
      } else if character == "#", wasWordStart {
        return (
          String(line[..<index]),
          line[line.index(after: index)...].trimmingCharacters(in: .whitespaces)
        )
      } else {
        wordStart = " \t\n;|&()".contains(character)
      }
    }
    return (line, nil)
  }

  /// Whether the text is a command that goes on over the next line: its last line ends with
  /// `\`, `|`, `&&` or `||`, or a quote or a `{` group is open.
  static func needsMoreLines(_ text: String) -> Bool {
    var quote: Character?
    var escaped = false
    var wordStart = true
    var comment = false
    var depth = 0
    let characters = Array(text)
    for (offset, character) in characters.enumerated() {
      if comment {
        comment = character != "\n"
        wordStart = true
        continue
      }
      let wasWordStart = wordStart
      wordStart = false
      if escaped {
        escaped = false
      } else if let open = quote {
        if character == open {
          quote = nil
        } else if open == "\"", character == "\\" {
          escaped = true
        }
      } else if character == "\\" {
        escaped = true
      } else if character == "'" || character == "\"" {
        quote = character
      } else if character == "#", wasWordStart {
        comment = true
      } else if character == "{", wasWordStart,
        offset + 1 == characters.count || characters[offset + 1].isWhitespace
      {
        depth += 1
      } else if character == "}", wasWordStart {
        depth -= 1
      } else {
        wordStart = " \t\n;|&()".contains(character)
      }
    }
    guard quote == nil, depth <= 0 else { return true }
    let last = text.split(separator: "\n", omittingEmptySubsequences: false).last.map(String.init)
    let code = split(last ?? "").code.trimmingCharacters(in: .whitespaces)
    return ["\\", "|", "&&", "||"].contains { code.hasSuffix($0) }
  }

  // MARK: files

  /// The files a command reads by name: operands with the extension of a data file, the
  /// values of the options that name input files, and what `<` reads. Quoted words, and what
  /// `>`, `>>` and `--archive` write, are not among them.
  static func inputFiles(of command: String) -> [String] {
    let inputOptions: Set = [
      "-p", "--policy", "--categories", "--strings", "--store", "--ids-from",
    ]
    let dataExtensions: Set = ["ndjson", "json", "apns", "stringsdict", "strings", "xcstrings"]
    var files: [String] = []
    var previous = ""
    for word in words(of: split(command).code) {
      defer { previous = word }
      if word.contains(where: { $0 == "'" || $0 == "\"" || $0 == "$" }) { continue }
      if previous == ">" || previous == ">>" || previous == "--archive" || previous == "--out" {
        continue
      }
      if previous == "<" || inputOptions.contains(previous) {
        files.append(word)
      } else if word.hasPrefix("-") {
        let parts = word.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.count == 2, inputOptions.contains(parts[0]) { files.append(parts[1]) }
      } else if let dot = word.lastIndex(of: "."),
        dataExtensions.contains(String(word[word.index(after: dot)...]))
      {
        files.append(word)
      }
    }
    return files
  }

  /// The words of a command, with `<`, `>`, `>>`, `|`, `;` and `&` as words of their own.
  static func words(of command: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quote: Character?
    func end() {
      if !word.isEmpty { words.append(word) }
      word = ""
    }
    for character in command {
      if let open = quote {
        word.append(character)
        if character == open { quote = nil }
      } else if character == "'" || character == "\"" {
        quote = character
        word.append(character)
      } else if character.isWhitespace {
        end()
      } else if "<>|;&".contains(character) {
        end()
        if character == ">", words.last == ">" {
          words[words.count - 1] = ">>"
        } else {
          words.append(String(character))
        }
      } else {
        word.append(character)
      }
    }
    end()
    return words
  }

  /// Whether the folder has the file, or a file the shell pattern matches.
  static func exists(_ name: String, in folder: URL) -> Bool {
    let url = folder.appendingPathComponent(name)
    guard name.contains(where: { "*?[".contains($0) }) else {
      return FileManager.default.fileExists(atPath: url.path)
    }
    let pattern = url.lastPathComponent
    let names =
      (try? FileManager.default.contentsOfDirectory(
        atPath: url.deletingLastPathComponent().path)) ?? []
    return names.contains { fnmatch(pattern, $0, 0) == 0 }
  }
}
