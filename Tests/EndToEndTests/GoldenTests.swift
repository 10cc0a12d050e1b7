import Foundation
import TestSupport
import Testing

/// Runs every folder under `cases/` as a black-box test of the built executables.
///
/// `NOTIF_UPDATE_GOLDEN=1 swift test --filter GoldenTests` rewrites the expectations from what
/// the tools do now: review the result with `git diff`, and never set it in CI.
/// `NOTIF_GOLDEN_CASE` runs (and records) only the cases it names (`GoldenCase.selected(by:)`);
/// `make golden CASE=notif-group/by-app-one-group-per-app` records one case. A case whose `cmd`
/// runs jq is run by a test of its own, skipped where jq is not installed (`OutsidePrograms`:
/// `make test` passes with the toolchain alone; CI refuses to skip).
@Suite struct GoldenTests {
  static let updating = ProcessInfo.processInfo.environment["NOTIF_UPDATE_GOLDEN"] == "1"

  static func runsJq(_ golden: GoldenCase) -> Bool {
    OutsidePrograms.used(in: golden.command ?? "").contains(.jq)
  }

  @Test("golden case", arguments: GoldenCase.selected().filter { !runsJq($0) })
  func golden(_ golden: GoldenCase) throws {
    try run(golden)
  }

  @Test("golden case that runs jq", .needs(.jq), arguments: GoldenCase.selected().filter(runsJq))
  func goldenRunningJq(_ golden: GoldenCase) throws {
    try run(golden)
  }

  func run(_ golden: GoldenCase) throws {
    let stdin =
      golden.read("stdin.ndjson") != nil
      ? golden.folder.appendingPathComponent("stdin.ndjson") : nil
    let outcome: Outcome
    if let command = golden.command {
      outcome = try Binaries.run(
        "/bin/sh", ["-c", command], in: golden.folder, stdin: stdin, environment: golden.environment
      )
    } else {
      outcome = try Binaries.run(
        golden.tool, golden.arguments, in: golden.folder, stdin: stdin,
        environment: golden.environment)
    }
    if Self.updating {
      try golden.update("stdout.ndjson", outcome.stdout, isDefault: outcome.stdout.isEmpty)
      try golden.update("stderr.txt", outcome.stderr, isDefault: outcome.stderr.isEmpty)
      try golden.update("status", Data("\(outcome.status)\n".utf8), isDefault: outcome.status == 0)
      return
    }
    let expectedStatus =
      golden.read("status").flatMap {
        Int32(String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
      } ?? 0
    #expect(
      String(decoding: outcome.stdout, as: UTF8.self)
        == String(decoding: golden.read("stdout.ndjson") ?? Data(), as: UTF8.self),
      "stdout of \(golden)")
    #expect(
      String(decoding: outcome.stderr, as: UTF8.self)
        == String(decoding: golden.read("stderr.txt") ?? Data(), as: UTF8.self),
      "stderr of \(golden)")
    #expect(outcome.status == expectedStatus, "exit status of \(golden)")
  }

  @Test func everyCaseFolderHasArguments() {
    let cases = GoldenCase.all()
    #expect(cases.count > 100)
    for golden in cases {
      #expect(
        golden.read("args") != nil || golden.read("cmd") != nil, "\(golden) has no args or cmd")
    }
  }

  @Test func caseSelectionNamesSomeCase() {
    let filter = ProcessInfo.processInfo.environment["NOTIF_GOLDEN_CASE"]
    #expect(
      GoldenCase.selectionPatterns(filter).isEmpty || !GoldenCase.selected(by: filter).isEmpty,
      "NOTIF_GOLDEN_CASE='\(filter ?? "")' matches no case")
  }

  @Test func caseSelectionByCaseToolNameOrGlob() {
    let all = GoldenCase.all()
    func picked(_ filter: String) -> [String] { GoldenCase.selected(by: filter).map(\.description) }
    func cases(where isPicked: (GoldenCase) -> Bool) -> [String] {
      all.filter(isPicked).map(\.description)
    }
    #expect(
      picked("notif-group/by-app-one-group-per-app") == ["notif-group/by-app-one-group-per-app"])
    #expect(picked("notif-group") == cases { $0.tool == "notif-group" })
    #expect(picked("help") == cases { $0.name == "help" })
    #expect(
      picked("notif-mark/store-*, notif-expire/store-*")
        == cases {
          ["notif-expire", "notif-mark"].contains($0.tool) && $0.name.hasPrefix("store-")
        }
    )
    #expect(picked("notif-expire/store-*").count > 1)
    #expect(picked("no-such-case").isEmpty)
    #expect(picked(" ").count == all.count)
  }

  /// An input two cases share lives once, in `Fixtures/`, and each case links to it; a man page
  /// example's case links to the file of `examples/` that the example names.
  @Test func sharedInputsAreLinkedNotCopied() {
    let manager = FileManager.default
    let fixtures = GoldenCase.casesFolder.deletingLastPathComponent()
      .appendingPathComponent("Fixtures").standardizedFileURL.resolvingSymlinksInPath().path
    let examples = ExampleReader.examples.standardizedFileURL.resolvingSymlinksInPath().path
    let notInputs: Set = [
      "args", "cmd", "env", "ORIGIN", "stdout.ndjson", "stderr.txt", "status",
    ]
    var firstCaseWith: [Data: String] = [:]
    for golden in GoldenCase.all() {
      let isCorpus = golden.read("ORIGIN") != nil
      let files = manager.enumerator(atPath: golden.folder.path)?.allObjects as? [String] ?? []
      for file in files.sorted() {
        let url = golden.folder.appendingPathComponent(file)
        let path = "\(golden)/\(file)"
        if (try? manager.destinationOfSymbolicLink(atPath: url.path)) != nil {
          let target = url.resolvingSymlinksInPath().path
          #expect(!notInputs.contains(file), "\(path) is a link: only inputs are shared")
          #expect(
            target.hasPrefix(fixtures + "/")
              || golden.name.hasPrefix("man-example-") && target.hasPrefix(examples + "/"),
            "\(path) links outside Fixtures/ and, for a man page example, examples/")
          #expect(manager.fileExists(atPath: target), "\(path) links to nothing")
          continue
        }
        guard !notInputs.contains(file), !isCorpus,
          let data = manager.contents(atPath: url.path), !data.isEmpty
        else { continue }
        if let first = firstCaseWith[data] {
          Issue.record("\(path) has the bytes of \(first): move them to Fixtures/ and link both")
        } else {
          firstCaseWith[data] = path
        }
      }
    }
  }
}
