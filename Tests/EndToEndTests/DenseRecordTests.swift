import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

/// `notif-parse --dense` writes every field of a record, null ones too, in notif(5)'s order:
/// over every golden case of notif-parse that writes records, it writes the golden output with
/// each left-out field put back as null, and the same diagnostics and exit status.
@Suite struct DenseRecordTests {
  /// notif-parse's cases run by their arguments whose output is records.
  static let cases = GoldenCase.selected().filter { golden in
    guard golden.tool == "notif-parse", golden.command == nil,
      let stdout = golden.read("stdout.ndjson")
    else { return false }
    return stdout.starts(with: Data(#"{"id":"#.utf8))
  }

  @Test(arguments: cases)
  func denseIsTheGoldenWithEveryFieldWritten(_ golden: GoldenCase) throws {
    let stdin =
      golden.read("stdin.ndjson") != nil
      ? golden.folder.appendingPathComponent("stdin.ndjson") : nil
    let outcome = try Binaries.run(
      golden.tool, golden.arguments + ["--dense"], in: golden.folder, stdin: stdin,
      environment: golden.environment)
    let expected = try Self.densified(golden.read("stdout.ndjson") ?? Data())
    #expect(String(decoding: outcome.stdout, as: UTF8.self) == expected, "stdout of \(golden)")
    #expect(
      String(decoding: outcome.stderr, as: UTF8.self)
        == String(decoding: golden.read("stderr.txt") ?? Data(), as: UTF8.self),
      "stderr of \(golden)")
  }

  @Test func theCasesAreThere() {
    #expect(Self.cases.count > 20)
  }

  /// Each record line of `output` with every field of notif(5) that it leaves out written as
  /// null, at its place; other lines as they are.
  static func densified(_ output: Data) throws -> String {
    var lines: [String] = []
    for line in String(decoding: output, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    {
      lines.append(try densified(line: String(line)))
    }
    return lines.joined(separator: "\n")
  }

  static func densified(line: String) throws -> String {
    guard line.hasPrefix(#"{"id":"#) else { return line }
    let dense = withView(of: line) { view -> String? in
      var values: [String: String] = [:]
      var unknown = false
      view.forEachMember(of: 0) { key, value in
        let name = view.string(key)
        if RecordField.allCases.contains(where: { $0.key == name }) {
          values[name] = String(decoding: view.raw(value), as: UTF8.self)
        } else {
          unknown = true
        }
      }
      guard !unknown else { return nil }
      var fields = RecordField.written.map { "\"\($0.key)\":\(values[$0.key] ?? "null")" }
      if let digested = values[RecordField.digestedAt.key] {
        fields.append("\"\(RecordField.digestedAt.key)\":\(digested)")
      }
      return "{" + fields.joined(separator: ",") + "}"
    }
    return try #require(dense ?? nil, "not a record of notif-parse: \(line)")
  }
}
