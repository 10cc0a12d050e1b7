import Foundation
import TestSupport
import Testing

/// Numbers at their limits (2^31, 2^32, 2^53, 2^63, 2^64 and their neighbours, negative ones,
/// whole numbers written otherwise) in every numeric field of records and group objects,
/// through every tool that reads them, as built: none traps, each exits 0 or 1, every
/// diagnostic names the field and its real range, and every tool takes what another writes.
@Suite struct LimitTests {
  static let environment = BehaviorTests.environment

  /// One line of a tool's standard error: the input line it is about and its message.
  struct Reported {
    var line: Int?
    var severity: String
    var message: String
    var code: String
  }

  /// Runs `tool` on the file `input` (its lines `text`); returns the status, standard output
  /// and what it reported. Records an issue for a status other than 0 or 1.
  static func run(_ tool: String, _ arguments: [String], on text: String, in folder: URL)
    throws -> (status: Int32, stdout: String, reported: [Reported])
  {
    let input = folder.appendingPathComponent("\(tool)-\(UUID().uuidString).ndjson")
    try Data(text.utf8).write(to: input)
    let outcome = try Binaries.run(
      tool, arguments + [input.path], in: folder, environment: environment)
    #expect([0, 1].contains(outcome.status), "\(tool) \(arguments) exits \(outcome.status)")
    let shape =
      /^[a-z-]+: (?:[^:]+|<stdout>)(?::([0-9]+))?(?::[0-9]+)?: (error|warning): (.*) \[([A-Za-z0-9]+)\]$/
    var reported: [Reported] = []
    for line in String(decoding: outcome.stderr, as: UTF8.self).split(separator: "\n") {
      guard let match = String(line).wholeMatch(of: shape) else {
        Issue.record("\(tool): not a diagnostic: \(line)")
        continue
      }
      let about = line.contains(": <stdout>:") ? nil : match.1.flatMap { Int($0) }
      reported.append(
        Reported(
          line: about, severity: String(match.2), message: String(match.3),
          code: String(match.4)))
    }
    return (outcome.status, String(decoding: outcome.stdout, as: UTF8.self), reported)
  }

  /// A message that names one of `keys` and a range: "from A to B", "equal to N", the sums it
  /// must make, or the most a count holds.
  static func namesFieldAndRange(_ message: String, _ keys: [String]) -> Bool {
    keys.contains { message.contains("'\($0)'") }
      && message.contains(
        /from -?[0-9]+ to [0-9]+|equal to -?[0-9]+|add up to|more records than|9007199254740991/)
  }

  /// Each field of a group object with each limit number, an object per number (its own app):
  /// through `notif-group --merge` (two copies of each, so that they merge), notif-summarize
  /// and notif-show; then what the merge wrote through notif-summarize and notif-show, which
  /// must take all of it.
  @Test(arguments: LimitField.allCases)
  func groupObjectsThroughEveryReader(_ field: LimitField) throws {
    let folder = try makeScratchFolder("notif-limits")
    defer { try? FileManager.default.removeItem(at: folder) }
    let numbers = LimitNumbers.all
    let objects = numbers.enumerated().map { field.object($1, app: "app\($0)") }

    // Objects made with different limits are never merged: each `grouping.limit` alone.
    let batches =
      field == .groupingLimit ? numbers.indices.map { [$0] } : [Array(numbers.indices)]
    var merged = ""
    for batch in batches {
      let twice = batch.flatMap { [objects[$0], objects[$0]] }.map { $0 + "\n" }.joined()
      let merge = try Self.run("notif-group", ["--merge"], on: twice, in: folder)
      merged += merge.stdout
      for report in merge.reported {
        #expect(Self.namesFieldAndRange(report.message, field.keys), "\(field): \(report.message)")
        guard let line = report.line, report.severity == "error" else { continue }
        let number = numbers[batch[(line - 1) / 2]]
        if line % 2 == 0 && report.code == "GroupTooLarge" { continue }  // the second copy
        #expect(!field.isAccepted(number, by: .merge), "\(field) \(number): \(report.message)")
      }
      for (position, index) in batch.enumerated() {
        let number = numbers[index]
        guard !field.isAccepted(number, by: .merge) else { continue }
        let line = 2 * position + 1
        let refused = merge.reported.contains { $0.line == line && $0.severity == "error" }
        #expect(refused, "\(field) \(number): merged")
      }
    }

    let once = objects.map { $0 + "\n" }.joined()
    for (tool, reader) in [("notif-summarize", LimitField.Reader.summarize), ("notif-show", .show)]
    {
      let arguments = tool == "notif-show" ? ["--now", "2026-11-22T09:00:00Z"] : []
      let result = try Self.run(tool, arguments, on: once, in: folder)
      for report in result.reported where report.severity == "error" {
        #expect(Self.namesFieldAndRange(report.message, field.keys), "\(tool): \(report.message)")
        guard let line = report.line else { continue }
        #expect(
          !field.isAccepted(numbers[line - 1], by: reader),
          "\(tool) \(field) \(numbers[line - 1]): \(report.message)")
      }
      for (index, number) in numbers.enumerated() where !field.isAccepted(number, by: reader) {
        let line = index + 1
        let refused = result.reported.contains { $0.line == line && $0.severity == "error" }
        #expect(refused, "\(tool) \(field) \(number): taken")
      }
    }

    let summarized = try Self.run("notif-summarize", [], on: merged, in: folder)
    #expect(summarized.status == 0, "\(field): notif-summarize refuses what --merge wrote")
    #expect(summarized.reported.allSatisfy { $0.severity == "warning" })
    let shown = try Self.run(
      "notif-show", ["--now", "2026-11-22T09:00:00Z"], on: summarized.stdout, in: folder)
    #expect(shown.status == 0, "\(field): notif-show refuses what notif-summarize wrote")
  }

  /// Each numeric field of a record with each limit number: notif-group takes every record
  /// (a `summary_arg_count` out of range counts 1, with a warning), and notif-summarize and
  /// notif-show take what it writes; notif-show takes the records too.
  @Test(arguments: ["summary_arg_count", "relevance", "badge", "priority", "sound_volume"])
  func recordsThroughEveryReader(_ key: String) throws {
    let folder = try makeScratchFolder("notif-limits")
    defer { try? FileManager.default.removeItem(at: folder) }
    let records = LimitNumbers.all.enumerated().flatMap { index, number in
      (0..<3).map { n in
        #"{"id":"r\#(index)-\#(n)","app":"app\#(index)","title":"T","#
          + #""created_at":"2026-11-22T08:0\#(n):00Z","\#(key)":\#(number)}"# + "\n"
      }
    }.joined()
    let grouped = try Self.run("notif-group", [], on: records, in: folder)
    #expect(grouped.status == 0)
    for report in grouped.reported {
      #expect(report.severity == "warning")
      #expect(Self.namesFieldAndRange(report.message, ["summary_arg_count"]), "\(report.message)")
    }
    let merged = try Self.run(
      "notif-group", ["--merge"], on: grouped.stdout + grouped.stdout, in: folder)
    #expect(merged.status == 0)
    for input in [grouped.stdout, merged.stdout] {
      let summarized = try Self.run("notif-summarize", [], on: input, in: folder)
      #expect(summarized.status == 0)
      #expect(summarized.reported.allSatisfy { $0.severity == "warning" })
      let shown = try Self.run(
        "notif-show", ["--now", "2026-11-22T09:00:00Z"], on: summarized.stdout, in: folder)
      #expect(shown.status == 0)
    }
    let shown = try Self.run(
      "notif-show", ["--now", "2026-11-22T09:00:00Z"], on: records, in: folder)
    #expect(shown.status == 0)
  }
}
