import Foundation
import Testing

/// The table of answers, `rules/responses.tsv` (made into notif-responses's table and
/// `man/notif-rules.7`, RESPONSES, by `scripts/gen-rules.py`), and notif-responses agree:
/// every row names a golden case whose recorded output has a record decided by that row, with
/// its action; and every rule a notif-responses case writes is a row.
@Suite struct ResponseRuleBookTests {
  /// One row of `rules/responses.tsv`.
  struct Row: CustomStringConvertible, Sendable {
    var id: String
    var action: String
    var caseName: String
    var description: String { id }
  }

  static func rows() throws -> [Row] {
    let text = try String(
      contentsOf: BehaviorTests.packageRoot.appendingPathComponent("rules/responses.tsv"),
      encoding: .utf8)
    var lines = text.split(separator: "\n").map(String.init)
    let header = lines.removeFirst()
    #expect(header == "id\tservice\tstatus\treason\taction\tvendor\tsource\tcase")
    return lines.map { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      return Row(
        id: cells[0], action: cells.count > 4 ? cells[4] : "",
        caseName: cells.count > 7 ? cells[7] : "")
    }
  }

  static let all: [Row] = (try? rows()) ?? []

  /// The `rule` and `action` of each record a case's `stdout.ndjson` holds.
  static func decisions(ofCase name: String) -> [(rule: String, action: String)]? {
    let file = GoldenCase.casesFolder.appendingPathComponent(
      "notif-responses/\(name)/stdout.ndjson")
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
    return text.split(separator: "\n").compactMap { line in
      guard let data = line.data(using: .utf8),
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let rule = object["rule"] as? String, let action = object["action"] as? String
      else { return nil }
      return (rule, action)
    }
  }

  @Test func theTableHasEveryService() throws {
    let rows = try Self.rows()
    #expect(rows.count > 60)
    #expect(Set(rows.map(\.id)).count == rows.count, "an id is on two rows")
    for service in ["apns-", "fcm-", "webpush-", "expo-", "sns-"] {
      #expect(rows.contains { $0.id.hasPrefix(service) }, "no row of \(service)")
    }
  }

  @Test("each row's case shows the row and its action", arguments: ResponseRuleBookTests.all)
  func caseShowsTheRow(_ row: Row) throws {
    guard let decisions = Self.decisions(ofCase: row.caseName) else {
      Issue.record("row \(row.id): no recorded case notif-responses/\(row.caseName)")
      return
    }
    #expect(
      decisions.contains { $0 == (row.id, row.action) },
      "row \(row.id): notif-responses/\(row.caseName) has no record of rule \(row.id), \(row.action)"
    )
  }

  @Test func everyRuleACaseWritesIsARow() throws {
    let ids = Set(try Self.rows().map(\.id))
    let folder = GoldenCase.casesFolder.appendingPathComponent("notif-responses")
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
      for decision in Self.decisions(ofCase: name) ?? [] {
        #expect(ids.contains(decision.rule), "\(name) writes rule \(decision.rule), no row")
      }
    }
  }
}
