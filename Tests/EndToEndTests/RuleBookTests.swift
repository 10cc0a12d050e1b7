import Foundation
import TestSupport
import Testing

/// The rule book, `rules/rules.tsv` (made into `man/notif-rules.7` and notif-parse's `Rule`
/// enum by `scripts/gen-rules.py`), its cases in `rules/cases` (the shape is in
/// `rules/cases/README`), and notif-parse agree, both ways: every row has a case of its own
/// that shows its verdict, every case gives the diagnostics it states, and every diagnostic
/// notif-parse writes about a message, over the cases, the golden inputs, the examples and the
/// fuzz regressions, names a row.
@Suite struct RuleBookTests {
  static let packageRoot = BehaviorTests.packageRoot
  static let casesFolder = packageRoot.appendingPathComponent("rules/cases")

  /// One row of `rules/rules.tsv`.
  struct Row: CustomStringConvertible, Sendable {
    var id: String
    var verdict: String
    var code: String

    var description: String { id }
  }

  static func rows() throws -> [Row] {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent("rules/rules.tsv"), encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    let header = lines.removeFirst().split(separator: "\t").map(String.init)
    #expect(
      header == ["id", "format", "path", "rule", "verdict", "code", "vendor", "source", "fix"])
    return lines.map { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Row(
        id: cells.first ?? "", verdict: cells.count > 4 ? cells[4] : "",
        code: cells.count > 5 ? cells[5] : "")
    }
  }

  /// One case of `rules/cases/*.test`.
  struct Case: CustomTestStringConvertible, Sendable {
    var file: String
    var line: Int
    var rule: String
    var arguments: [String]
    var input: [String]
    var expected: [String]

    var testDescription: String { "\(file):\(line) \(rule)" }

    static func isExpected(_ line: Substring) -> Bool {
      line == "ok" || line.hasPrefix("error ") || line.hasPrefix("warning ")
    }
  }

  /// The cases of every `.test` file, in order; a file whose shape is wrong is an issue.
  static func cases() throws -> [Case] {
    var found: [Case] = []
    let names = try FileManager.default.contentsOfDirectory(atPath: casesFolder.path)
      .filter { $0.hasSuffix(".test") }.sorted()
    for name in names {
      let text = try String(contentsOf: casesFolder.appendingPathComponent(name), encoding: .utf8)
      var block: [(number: Int, text: Substring)] = []
      func finish() {
        let lines = block.filter { !$0.text.hasPrefix("#") }
        block = []
        guard let header = lines.first else { return }
        let words = header.text.split(separator: " ").map(String.init)
        let rest = lines.dropFirst().map(\.text)
        let expected = rest.reversed().prefix { Case.isExpected($0) }.reversed().map(String.init)
        found.append(
          Case(
            file: name, line: header.number, rule: words.first ?? "",
            arguments: Array(words.dropFirst()),
            input: rest.dropLast(expected.count).map(String.init),
            expected: expected))
      }
      for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        if line.isEmpty { finish() } else { block.append((index + 1, line)) }
      }
      finish()
    }
    return found
  }

  static let allCases: [Case] = (try? cases()) ?? []

  /// The diagnostics of notif-parse's `--format json` output, as a case states them:
  /// `severity rule line:column` (the code where there is no rule); `ok` for none.
  static func stated(_ output: Data) -> [String] {
    var lines: [String] = []
    for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
      guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        let severity = object["severity"] as? String, severity != "note"
      else { continue }
      let name = (object["rule"] as? String) ?? (object["code"] as? String) ?? "?"
      let place = "\(object["line"] as? Int ?? 0):\(object["column"] as? Int ?? 0)"
      lines.append("\(severity) \(name) \(place)")
    }
    return lines.isEmpty ? ["ok"] : lines
  }

  @Test func theBookHasRules() throws {
    let rows = try Self.rows()
    #expect(rows.count > 150)
    #expect(Set(rows.map(\.id)).count == rows.count, "an id is on two rows")
    #expect(Self.allCases.count >= rows.count, "fewer cases than rows")
  }

  @Test("each case gives its diagnostics", arguments: RuleBookTests.allCases)
  func caseGivesItsDiagnostics(_ check: Case) throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-case-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let text = check.input.isEmpty ? "" : check.input.joined(separator: "\n") + "\n"
    try Data(text.utf8).write(to: scratch)
    let outcome = try Binaries.run(
      "notif-parse", ["--check", "--format", "json"] + check.arguments, in: Self.casesFolder,
      stdin: scratch, environment: BehaviorTests.environment)
    #expect(Self.stated(outcome.stdout) == check.expected, "\(check.testDescription)")
    let fails = check.expected.contains { $0.hasPrefix("error ") }
    #expect(outcome.status == (fails ? 1 : 0), "\(check.testDescription): exit \(outcome.status)")
  }

  /// A row's own case: headed by its id, and stating a diagnostic of its id and verdict (an
  /// ignored row: stating none).
  @Test func everyRowHasItsOwnCase() throws {
    let byRule = Dictionary(grouping: Self.allCases, by: \.rule)
    for row in try Self.rows() {
      let own = byRule[row.id] ?? []
      switch row.verdict {
      case "error", "warning":
        #expect(
          own.contains { $0.expected.contains { $0.hasPrefix("\(row.verdict) \(row.id) ") } },
          "rule \(row.id): no case in rules/cases states its \(row.verdict)")
      case "ignored":
        #expect(
          own.contains { $0.expected == ["ok"] },
          "rule \(row.id): no case in rules/cases shows it passing")
      default:
        Issue.record("rule \(row.id): verdict '\(row.verdict)' is not error, warning or ignored")
      }
    }
  }

  /// Every case is headed by a row, and names only rows.
  @Test func everyCaseNamesARow() throws {
    let ids = Set(try Self.rows().map(\.id))
    for check in Self.allCases {
      #expect(ids.contains(check.rule), "\(check.testDescription): no row \(check.rule)")
      for line in check.expected where line != "ok" {
        let words = line.split(separator: " ")
        #expect(
          words.count == 3 && ids.contains(String(words[1])),
          "\(check.testDescription): '\(line)' names no row")
      }
    }
  }

  /// The code-only diagnostics notif-parse may write: about a file or the run, not a message.
  static let aboutFiles: Set<String> = [
    "Unreadable", "WriteFailed", "BadRegistry", "BadStrings", "BadFormat", "NoStringsFiles",
    "BadConfig", "Compressed", "WrongStage", "NotShown",
  ]

  /// Every diagnostic notif-parse writes over the test corpus names a row of the book, or is
  /// about a file: the golden cases' inputs, the fixtures, the examples, the fuzz regressions.
  @Test func everyDiagnosticOverTheCorpusNamesARow() throws {
    let ids = Set(try Self.rows().map(\.id))
    let folders =
      [
        "Tests/EndToEndTests/Fixtures/notif-parse", "examples", "fuzz/regressions/apns",
      ].map { Self.packageRoot.appendingPathComponent($0) }
      + (try FileManager.default.contentsOfDirectory(
        at: GoldenCase.casesFolder.appendingPathComponent("notif-parse"),
        includingPropertiesForKeys: nil))
    var seen = 0
    for folder in folders {
      let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
      let inputs = files.filter { name in
        [".json", ".ndjson", ".apns"].contains { name.hasSuffix($0) } || !name.contains(".")
      }.filter { name in
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(
          atPath: folder.appendingPathComponent(name).path, isDirectory: &isFolder)
        return exists && !isFolder.boolValue && !["args", "cmd", "status"].contains(name)
      }.sorted()
      guard !inputs.isEmpty else { continue }
      let outcome = try Binaries.run(
        "notif-parse", ["--check", "--format", "json", "--"] + inputs, in: folder,
        environment: BehaviorTests.environment)
      for line in Self.stated(outcome.stdout) where line != "ok" {
        seen += 1
        let name = String(line.split(separator: " ")[1])
        #expect(
          ids.contains(name) || Self.aboutFiles.contains(name),
          "\(folder.lastPathComponent): notif-parse wrote '\(line)', which names no row")
      }
    }
    #expect(seen > 100)
  }

  /// `man/notif-rules.7` is what `scripts/gen-rules.py` makes of `rules/`.
  @Test(.needs(.python3)) func thePageIsUpToDate() throws {
    let outcome = try Binaries.run(
      "/usr/bin/env", ["python3", "scripts/gen-rules.py", "--check"], in: Self.packageRoot,
      environment: BehaviorTests.environment)
    #expect(
      outcome.status == 0,
      "\(String(decoding: outcome.stderr, as: UTF8.self))")
  }
}
