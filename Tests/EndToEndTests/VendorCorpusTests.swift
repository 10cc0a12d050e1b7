import Foundation
import Testing

/// What `notif-parse --check` must say about each message of the vendor corpus: real messages
/// from the vendors' SDK test suites and documentation (firebase-admin, web-push libraries,
/// Expo, the AWS and Apple docs, pushy), one golden case each,
/// `cases/notif-parse/vendor-corpus-<format>-<source>-<what>/`, listed in `VendorCorpus.tsv`.
///
/// Each row's verdict is judged from the vendor's own rule, cited in the case's `ORIGIN`, never
/// from what the tool prints: accepted (delivered or shown) and ignored (accepted, but something
/// in it has no effect) exit 0, and an ignored message must get a warning; rejected (the vendor
/// answers with an error, or the browser refuses to show it) exits 1. The codes a row names must
/// each be reported: as errors for a rejected message, as warnings for an ignored one. The
/// golden files record what the tool prints; this table says whether that is right.
@Suite struct VendorCorpusTests {
  struct Row: CustomStringConvertible, Sendable {
    var name: String
    var format: String
    var verdict: String
    var status: Int32
    var codes: [String]

    var description: String { name }
  }

  static let table = GoldenCase.casesFolder.deletingLastPathComponent()
    .appendingPathComponent("VendorCorpus.tsv")

  /// The rows of `VendorCorpus.tsv`: comment lines start with `#`, the first other line names
  /// the columns.
  static let rows: [Row] = {
    guard let data = try? Data(contentsOf: table) else { return [] }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n")
      .filter { !$0.hasPrefix("#") }
    guard let header = lines.first?.split(separator: "\t").map(String.init) else { return [] }
    return lines.dropFirst().compactMap { line -> Row? in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count == header.count else { return nil }
      let row = Dictionary(uniqueKeysWithValues: zip(header, cells))
      guard let name = row["case"], let format = row["format"], let verdict = row["verdict"],
        let status = row["status"].flatMap({ Int32($0) }), let codes = row["codes"]
      else { return nil }
      return Row(
        name: name, format: format, verdict: verdict, status: status,
        codes: codes == "-" ? [] : codes.split(separator: ",").map(String.init))
    }
  }()

  @Test(arguments: rows)
  func vendorVerdict(_ row: Row) throws {
    let golden = GoldenCase(
      tool: "notif-parse", name: row.name,
      folder: GoldenCase.casesFolder.appendingPathComponent("notif-parse/" + row.name))
    let outcome = try Binaries.run(
      "notif-parse", golden.arguments, in: golden.folder, environment: golden.environment)
    // With --check the diagnostics and the count line go to the standard output.
    let report = String(decoding: outcome.stdout, as: UTF8.self)
    let lines = report.split(separator: "\n").map(String.init)
    let errors = lines.filter { $0.contains(": error: ") }
    let warnings = lines.filter { $0.contains(": warning: ") }
    let said = "notif-parse --check exited \(outcome.status) and said:\n\(report)"
    #expect(
      outcome.status == row.status,
      "\(row.name): the vendor's verdict is \(row.verdict), which is status \(row.status); \(said)")
    if row.verdict == "ignored" {
      let comment: Comment =
        "\(row.name): the vendor ignores part of it, no warning says so; \(said)"
      #expect(!warnings.isEmpty, comment)
    }
    let reported = row.verdict == "rejected" ? errors : warnings
    let severity = row.verdict == "rejected" ? "error" : "warning"
    for code in row.codes {
      let comment: Comment =
        "\(row.name): the vendor's rule is \(code), no \(severity) says so; \(said)"
      #expect(reported.contains { $0.hasSuffix("[\(code)]") }, comment)
    }
  }

  @Test func tableCoversEveryVendorCorpusCase() throws {
    let folders = try FileManager.default.contentsOfDirectory(
      atPath: GoldenCase.casesFolder.appendingPathComponent("notif-parse").path
    ).filter { $0.hasPrefix("vendor-corpus-") }
    #expect(Set(folders) == Set(Self.rows.map(\.name)))
    #expect(Self.rows.count == folders.count)
    #expect(Self.rows.count >= 40)
    let verdicts: [String: Int32] = ["accepted": 0, "ignored": 0, "rejected": 1]
    for row in Self.rows {
      #expect(
        verdicts[row.verdict] == row.status, "\(row.name): \(row.verdict) is not \(row.status)")
      #expect(
        row.name.hasPrefix("vendor-corpus-\(row.format)-"), "\(row.name) is not \(row.format)")
      let golden = GoldenCase(
        tool: "notif-parse", name: row.name,
        folder: GoldenCase.casesFolder.appendingPathComponent("notif-parse/" + row.name))
      #expect(golden.arguments.prefix(3) == ["--check", "--now", "2026-11-22T09:00:00Z"])
      let origin = String(decoding: golden.read("ORIGIN") ?? Data(), as: UTF8.self)
      #expect(origin.contains("\nverdict: \(row.verdict)\n"), "\(row.name): ORIGIN's verdict")
      #expect(origin.contains("\nrule: "), "\(row.name): ORIGIN cites no rule")
    }
  }
}
