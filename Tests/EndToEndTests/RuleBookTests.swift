import Foundation
import TestSupport
import Testing

/// The rule book, `rules/rules.tsv` (made into `man/notif-rules.7` by `scripts/gen-rules.py`),
/// and notif-parse agree: every row names a golden case whose recorded outcome shows the row's
/// verdict, and every code notif-parse writes about a message has a row.
///
/// The outcome is the case's golden files (`status`, the diagnostics of `stderr.txt`, and of
/// `stdout.ndjson` with `--check`), which `GoldenTests` holds to what the built tool does.
@Suite struct RuleBookTests {
  static let packageRoot = BehaviorTests.packageRoot

  /// One row of `rules/rules.tsv`.
  struct Rule: CustomStringConvertible, Sendable {
    var id: String
    var verdict: String
    var code: String
    var caseName: String

    var description: String { id }
  }

  static func rules() throws -> [Rule] {
    let text = try String(
      contentsOf: packageRoot.appendingPathComponent("rules/rules.tsv"), encoding: .utf8)
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    let header = lines.removeFirst().split(separator: "\t").map(String.init)
    #expect(
      header == ["id", "format", "path", "rule", "verdict", "code", "vendor", "source", "case"])
    return lines.map { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Rule(
        id: cells.first ?? "", verdict: cells.count > 4 ? cells[4] : "",
        code: cells.count > 5 ? cells[5] : "", caseName: cells.count > 8 ? cells[8] : "")
    }
  }

  /// A golden case's recorded outcome: its exit status and its diagnostics, each as
  /// `severity` and `code`.
  struct Outcome {
    var status: Int32
    var diagnostics: [(severity: String, code: String)]
  }

  static func outcome(of name: String) -> Outcome? {
    let folder = GoldenCase.casesFolder.appendingPathComponent("notif-parse/\(name)")
    guard
      FileManager.default.fileExists(atPath: folder.appendingPathComponent("args").path)
        || FileManager.default.fileExists(atPath: folder.appendingPathComponent("cmd").path)
    else { return nil }
    func read(_ file: String) -> String {
      (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)) ?? ""
    }
    let status =
      Int32(read("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    var diagnostics: [(String, String)] = []
    for line in (read("stderr.txt") + read("stdout.ndjson")).split(separator: "\n") {
      if let found = diagnostic(String(line)) { diagnostics.append(found) }
    }
    return Outcome(status: status, diagnostics: diagnostics)
  }

  /// The severity and code of a diagnostic line in any `--format`; nil for a record or the
  /// count line.
  static func diagnostic(_ line: String) -> (String, String)? {
    let shapes = [
      #"^notif-parse: .*: (error|warning): .* \[([A-Za-z0-9]+)\]$"#,
      #"^::(error|warning) .*,title=([A-Za-z0-9]+)::"#,
      #"^\{"file":.*"severity":"(error|warning)","code":"([A-Za-z0-9]+)""#,
    ]
    for shape in shapes {
      guard let regex = try? NSRegularExpression(pattern: shape),
        let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
        let severity = Range(match.range(at: 1), in: line),
        let code = Range(match.range(at: 2), in: line)
      else { continue }
      return (String(line[severity]), String(line[code]))
    }
    return nil
  }

  @Test func theBookHasRules() throws {
    let rules = try Self.rules()
    #expect(rules.count > 100)
    #expect(Set(rules.map(\.id)).count == rules.count, "an id is on two rows")
  }

  /// An error row's case exits 1 with that error; a warning row's case exits 0 with that
  /// warning; an ignored row's case exits 0 and says nothing.
  /// The rows, for the test that runs once for each (none if the file cannot be read, which
  /// `theBookHasRules` reports).
  static let all: [Rule] = (try? rules()) ?? []

  @Test("each row's case shows its verdict", arguments: RuleBookTests.all)
  func caseShowsTheVerdict(_ rule: Rule) throws {
    guard let outcome = Self.outcome(of: rule.caseName) else {
      Issue.record("rule \(rule.id): no golden case notif-parse/\(rule.caseName)")
      return
    }
    let said = outcome.diagnostics
    switch rule.verdict {
    case "error":
      #expect(outcome.status == 1, "rule \(rule.id): \(rule.caseName) exits \(outcome.status)")
      #expect(
        said.contains { $0 == ("error", rule.code) },
        "rule \(rule.id): \(rule.caseName) has no error \(rule.code)")
    case "warning":
      #expect(outcome.status == 0, "rule \(rule.id): \(rule.caseName) exits \(outcome.status)")
      #expect(
        said.contains { $0 == ("warning", rule.code) },
        "rule \(rule.id): \(rule.caseName) has no warning \(rule.code)")
    case "ignored":
      #expect(outcome.status == 0, "rule \(rule.id): \(rule.caseName) exits \(outcome.status)")
      #expect(said.isEmpty, "rule \(rule.id): \(rule.caseName) says \(said.map(\.code))")
    default:
      Issue.record("rule \(rule.id): verdict '\(rule.verdict)' is not error, warning or ignored")
    }
  }

  /// The codes notif-parse writes about a message: those `man/notif-diagnostics.7` gives
  /// notif-parse or every tool, and those its readers write, less the ones about files rather
  /// than messages (an unreadable input or registry, a failed write), which stop the run.
  static func codesAboutMessages() throws -> Set<String> {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("man/notif-diagnostics.7"), encoding: .utf8)
    var codes: Set<String> = []
    var current: String?
    for line in page.split(separator: "\n") {
      if line.hasPrefix(".It Er ") {
        current = String(line.dropFirst(".It Er ".count))
      } else if let code = current {
        if line.contains("notif-parse") || line.contains("every tool") { codes.insert(code) }
        current = nil
      }
    }
    let written = try NSRegularExpression(
      pattern: #"(?:\.error|\.warning|\berror|\bwarning)\(\s*"([A-Z][A-Za-z0-9]+)""#)
    // notif-parse's own checks, and the readers it shares with notif-responses (NotifPush).
    for folder in ["Sources/notif-parse", "Sources/NotifPush"] {
      let sources = packageRoot.appendingPathComponent(folder)
      for file in try FileManager.default.contentsOfDirectory(atPath: sources.path)
      where file.hasSuffix(".swift") {
        let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
        for match in written.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
          if let range = Range(match.range(at: 1), in: text) {
            codes.insert(String(text[range]))
          }
        }
      }
    }
    // The registry's and the strings files' own errors (--categories, --strings) are about
    // files too; so are a compressed input, and an input of another stage's texts, said once
    // for the input; and what --max-errors left out is about the run.
    return codes.subtracting([
      "Unreadable", "WriteFailed", "BadRegistry", "BadStrings", "BadFormat", "NoStringsFiles",
      "Compressed", "WrongStage", "NotShown",
    ])
  }

  @Test func everyCodeAboutAMessageHasARow() throws {
    let rows = Set(try Self.rules().map(\.code))
    let codes = try Self.codesAboutMessages()
    #expect(codes.count > 60)
    for code in codes.sorted() {
      #expect(
        rows.contains(code), "notif-parse writes \(code), which no row of rules/rules.tsv has")
    }
    for code in rows.sorted() where code != "-" {
      #expect(codes.contains(code), "rules/rules.tsv has \(code), which notif-parse does not write")
    }
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
