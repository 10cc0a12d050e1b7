import Foundation
import Testing

/// Every diagnostic the golden cases show has the one shape of its `--format`, and a code the
/// table of `man/notif-diagnostics.7` lists; every code of that table is written somewhere in
/// `Sources`, so the table cannot go stale.
@Suite struct DiagnosticShapeTests {
  static let packageRoot = BehaviorTests.packageRoot

  /// `PROG: FILE[:LINE[:COL]]: error|warning|note: message [Code]`.
  static let textShape =
    #"^notif-[a-z]+: [^\n]+?(:[0-9]+(:[0-9]+)?)?: (error|warning|note): [^\n]+ \[([A-Za-z0-9]+)\]$"#
  /// `::error|warning|notice file=F[,line=L[,col=C]],title=Code::message`.
  static let githubShape =
    #"^::(error|warning|notice) file=[^,:]*(,line=[0-9]+(,col=[0-9]+)?)?,title=([A-Za-z0-9]+)::.*$"#
  /// notif-parse's count line, which ends a run with `--check` or on standard error: no
  /// diagnostic.
  static let countLine = #"^notif-parse: [0-9]+ records? in [0-9]+ files?: "#

  /// The codes `man/notif-diagnostics.7` lists (`.It Er Code`).
  static func tableCodes() throws -> Set<String> {
    let page = try String(
      contentsOf: packageRoot.appendingPathComponent("man/notif-diagnostics.7"), encoding: .utf8)
    return Set(
      page.split(separator: "\n").compactMap { line -> String? in
        guard line.hasPrefix(".It Er ") else { return nil }
        return String(line.dropFirst(".It Er ".count))
      })
  }

  /// One diagnostic line the golden cases expect, with where it comes from.
  struct Found {
    var line: String
    var origin: String
  }

  /// The diagnostics of every golden case: its `stderr.txt` (unless it shows a usage error,
  /// which is no diagnostic), and its `stdout.ndjson` when it runs `--check` (`-c`).
  static func collected() -> [Found] {
    var found: [Found] = []
    for golden in GoldenCase.all() {
      if let data = golden.read("stderr.txt") {
        let text = String(decoding: data, as: UTF8.self)
        if !text.contains("usage: notif-") {
          for line in text.split(separator: "\n") {
            // A colored severity (--color always) is the same diagnostic.
            let plain = String(line).replacing(/\u{1B}\[[0-9;]*m/, with: "")
            found.append(Found(line: plain, origin: "\(golden)/stderr.txt"))
          }
        }
      }
      let command = golden.command ?? golden.arguments.joined(separator: " ")
      let checks =
        command.contains("--check")
        || golden.arguments.contains {
          $0.range(of: #"^-[a-z]*c[a-z]*$"#, options: .regularExpression) != nil
        }
      if checks, let data = golden.read("stdout.ndjson") {
        // What a pipeline made of the report (jq's output, say) is not the tool's.
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
        where line.hasPrefix("notif-") || line.hasPrefix("::") || line.hasPrefix("{") {
          found.append(Found(line: String(line), origin: "\(golden)/stdout.ndjson"))
        }
      }
    }
    return found
  }

  /// The form of `line` and its code; nil for a line that is no diagnostic (a record, a JSON
  /// count, the count line). Records an issue for a line in no shape.
  static func code(of found: Found) -> (format: String, code: String)? {
    let line = found.line
    if line.hasPrefix("{") {
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        object["severity"] != nil
      else { return nil }
      // A rule, only for a diagnostic of a rule of the book (notif-rules(7)).
      let keys = Set(object.keys).subtracting(["rule"])
      #expect(
        keys == ["file", "line", "column", "severity", "code", "message"],
        "keys of \(line) in \(found.origin)")
      #expect(
        ["error", "warning", "note"].contains(object["severity"] as? String),
        "severity of \(line) in \(found.origin)")
      guard let code = object["code"] as? String else {
        Issue.record("no code in \(line) of \(found.origin)")
        return nil
      }
      return ("json", code)
    }
    if line.range(of: countLine, options: .regularExpression) != nil { return nil }
    for (format, shape) in [("github", githubShape), ("text", textShape)] {
      guard let regex = try? NSRegularExpression(pattern: shape),
        let match = regex.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
        let range = Range(match.range(at: match.numberOfRanges - 1), in: line)
      else { continue }
      return (format, String(line[range]))
    }
    Issue.record("not in the shape of a diagnostic: \(line) (\(found.origin))")
    return nil
  }

  @Test func everyGoldenDiagnosticHasTheShapeAndAListedCode() throws {
    let table = try Self.tableCodes()
    #expect(table.count > 40)
    var formats: Set<String> = []
    for found in Self.collected() {
      guard let (format, code) = Self.code(of: found) else { continue }
      formats.insert(format)
      #expect(
        table.contains(code),
        "\(code) of \(found.origin) is not listed in man/notif-diagnostics.7")
    }
    #expect(formats == ["text", "github", "json"])
  }

  @Test func everyListedCodeIsWrittenInSources() throws {
    let sources = Self.packageRoot.appendingPathComponent("Sources")
    var text = ""
    let files = FileManager.default.enumerator(atPath: sources.path)
    while let file = files?.nextObject() as? String {
      guard file.hasSuffix(".swift") else { continue }
      text += try String(
        contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
    }
    for code in try Self.tableCodes() {
      #expect(text.contains("\"\(code)\""), "\(code) of man/notif-diagnostics.7 is in no source")
    }
  }
}
