import Foundation
import NotifModel
import TestSupport
import Testing

/// `--format sarif` in every tool: the log holds, result by result, what `--format json`
/// writes for the same run (the golden case's lines), names each rule it reports in the
/// driver's rules, validates against the OASIS SARIF 2.1.0 schema and reads back through
/// sarif-tools, a SARIF reader of its own.
@Suite struct SarifTests {
  /// A golden case of each tool whose diagnostics are `--format json` lines: the run is
  /// repeated with `--format sarif`.
  static let cases = [
    "notif-parse/diagnostics-format-json", "notif-group/diagnostics-format-json",
    "notif-summarize/diagnostics-format-json", "notif-show/diagnostics-format-json",
    "notif-expire/diagnostics-format-json", "notif-mark/diagnostics-format-json",
    "notif-digest/diagnostics-format-json", "notif-responses/diagnostics-format-json",
  ]

  /// The golden case whose output is a log: `notif-parse --check --format=sarif`.
  static let checkCase = "notif-parse/check-format-sarif"

  struct Run {
    /// The log, as the tool wrote it.
    var log: Data
    /// The `--format json` lines of the golden case, as objects.
    var expected: [[String: Any]]
  }

  static func golden(_ name: String) throws -> GoldenCase {
    try #require(GoldenCase.all().first { $0.description == name }, "no golden case \(name)")
  }

  /// The `--format json` lines of `text` that are diagnostics.
  static func diagnostics(_ text: Data) throws -> [[String: Any]] {
    try String(decoding: text, as: UTF8.self).split(separator: "\n").compactMap { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["severity"] == nil ? nil : object
    }
  }

  /// Runs the golden case `name` with `--format sarif` for its `--format json`: the log on
  /// standard error; the output and the exit status must be the case's.
  static func run(_ name: String) throws -> Run {
    let golden = try golden(name)
    var arguments = golden.arguments
    if let at = arguments.firstIndex(of: "--format=json") {
      arguments[at] = "--format=sarif"
    } else {
      let at = try #require(arguments.firstIndex(of: "--format"), "\(name) has no --format")
      arguments[at + 1] = "sarif"
    }
    let stdin =
      golden.read("stdin.ndjson") != nil
      ? golden.folder.appendingPathComponent("stdin.ndjson") : nil
    let outcome = try Binaries.run(
      golden.tool, arguments, in: golden.folder, stdin: stdin, environment: golden.environment)
    #expect(outcome.stdout == (golden.read("stdout.ndjson") ?? Data()), "stdout of \(name)")
    let status = golden.read("status").flatMap {
      Int32(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
    #expect(outcome.status == status ?? 0, "exit status of \(name)")
    return Run(
      log: outcome.stderr, expected: try diagnostics(golden.read("stderr.txt") ?? Data()))
  }

  @Test(arguments: cases)
  func theLogHoldsWhatJSONLinesHold(_ name: String) throws {
    let run = try Self.run(name)
    try #require(!run.expected.isEmpty, "\(name) writes no diagnostic")
    let document = try #require(
      try JSONSerialization.jsonObject(with: run.log) as? [String: Any], "\(name): not an object")
    #expect(document["version"] as? String == "2.1.0")
    let runs = try #require(document["runs"] as? [[String: Any]])
    #expect(runs.count == 1)
    let tool = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
    #expect(tool["name"] as? String == String(name.prefix { $0 != "/" }))
    let rules = try #require(tool["rules"] as? [[String: Any]])
    let results = try #require(runs[0]["results"] as? [[String: Any]])
    #expect(results.count == run.expected.count, "\(name): results")
    for (result, line) in zip(results, run.expected) {
      let id = (line["rule"] as? String) ?? (line["code"] as? String)
      #expect(result["ruleId"] as? String == id, "\(name): \(line)")
      #expect(result["level"] as? String == line["severity"] as? String)
      #expect(
        (result["message"] as? [String: Any])?["text"] as? String == line["message"] as? String)
      let location = try #require(
        ((result["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
      let uri = (location["artifactLocation"] as? [String: Any])?["uri"] as? String
      #expect(uri == SarifLog.uri(try #require(line["file"] as? String)))
      let region = location["region"] as? [String: Any]
      #expect(region?["startLine"] as? Int == line["line"] as? Int, "\(name): \(line)")
      #expect(region?["startColumn"] as? Int == line["column"] as? Int, "\(name): \(line)")
      // Its rule is described, once, at its index.
      let index = try #require(result["ruleIndex"] as? Int)
      try #require(rules.indices.contains(index), "\(name): ruleIndex \(index)")
      #expect(rules[index]["id"] as? String == id)
      let short = (rules[index]["shortDescription"] as? [String: Any])?["text"] as? String
      #expect(!(short ?? "").isEmpty, "\(name): rule \(id ?? "") has no short description")
    }
    let ids = rules.compactMap { $0["id"] as? String }
    #expect(Set(ids).count == ids.count, "\(name): a rule described twice")
    #expect(Set(ids) == Set(results.compactMap { $0["ruleId"] as? String }))
  }

  /// A rule of the book is described from its row: its code, its verdict and its source.
  @Test func aRuleOfTheBookIsDescribedFromItsRow() throws {
    let golden = try Self.golden(Self.checkCase)
    let log = try #require(golden.read("stdout.ndjson"))
    let document = try #require(try JSONSerialization.jsonObject(with: log) as? [String: Any])
    let run = try #require((document["runs"] as? [[String: Any]])?.first)
    let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
    let rules = try #require(driver["rules"] as? [[String: Any]])
    #expect(!rules.isEmpty)
    for rule in rules {
      let id = try #require(rule["id"] as? String)
      let entry = try #require(Rule(id: id)?.entry, "\(id) is no row of the book")
      #expect(rule["name"] as? String == entry.code)
      #expect(rule["helpUri"] as? String == entry.sourceAddress)
      let level = (rule["defaultConfiguration"] as? [String: Any])?["level"] as? String
      #expect(level == entry.verdict?.rawValue)
    }
  }

  /// The logs validate against the SARIF 2.1.0 schema, and sarif-tools reads back each
  /// result as the log says it, by scripts/check-sarif.py.
  @Test(.needs(.python3), .needs(.sarif))
  func theLogsValidateAndReadBack() throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-sarif-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    var logs: [String] = []
    var expected: [String: [[String: Any]]] = [:]
    for name in Self.cases {
      let run = try Self.run(name)
      let path = scratch.appendingPathComponent("\(logs.count).sarif").path
      try run.log.write(to: URL(fileURLWithPath: path))
      logs.append(path)
      expected[path] = run.expected
    }
    let check = try Self.golden(Self.checkCase)
    let path = scratch.appendingPathComponent("check.sarif").path
    try #require(check.read("stdout.ndjson")).write(to: URL(fileURLWithPath: path))
    logs.append(path)
    expected[path] = try Self.diagnostics(
      try Binaries.run(
        check.tool, check.arguments.map { $0 == "--format=sarif" ? "--format=json" : $0 },
        in: check.folder, stdin: check.folder.appendingPathComponent("stdin.ndjson"),
        environment: check.environment
      ).stdout)

    let outcome = try Binaries.run(
      "/usr/bin/env", ["python3", "scripts/check-sarif.py"] + logs, in: BehaviorTests.packageRoot,
      environment: BehaviorTests.environment.merging(
        ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
      ) { _, new in new })
    #expect(outcome.status == 0, "\(String(decoding: outcome.stderr, as: UTF8.self))")
    let read = try Self.diagnostics(outcome.stdout.replacingLevelKey())
    #expect(read.count == expected.values.map(\.count).reduce(0, +))
    var seen: [String: Int] = [:]
    for record in read {
      let log = try #require(record["log"] as? String)
      let place = seen[log, default: 0]
      seen[log] = place + 1
      let wanted = try #require(expected[log]?[safe: place], "\(log): result \(place)")
      let id = (wanted["rule"] as? String) ?? (wanted["code"] as? String)
      #expect(record["rule"] as? String == id, "\(log): \(wanted)")
      #expect(record["severity"] as? String == wanted["severity"] as? String)
      #expect(record["message"] as? String == wanted["message"] as? String)
      #expect(record["uri"] as? String == SarifLog.uri(try #require(wanted["file"] as? String)))
      #expect(record["line"] as? Int == wanted["line"] as? Int, "\(log): \(wanted)")
    }
  }
}

extension Data {
  /// check-sarif.py's lines, their `level` written as the `severity` that `diagnostics` takes.
  fileprivate func replacingLevelKey() -> Data {
    Data(
      String(decoding: self, as: UTF8.self).replacingOccurrences(
        of: "\"level\": ", with: "\"severity\": "
      ).utf8)
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? {
    indices.contains(index) ? self[index] : nil
  }
}
