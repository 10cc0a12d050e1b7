import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep
import TestSupport
import Testing

@testable import notif_mark

private let now = Timestamp(seconds: 1_795_338_000)  // 2026-11-22T09:00:00Z

private func testEnvironment() -> ToolEnvironment {
  ToolEnvironment(clock: { now })
}

private func configure(_ arguments: [String]) throws(UsageError) -> MarkCommand.Configuration {
  let scanned = try OptionScanner.scan(arguments, MarkCommand.options)
  return try MarkCommand.configure(scanned, environment: testEnvironment())
}

/// What notif-mark with `arguments` does to one line: the verdict and the new line.
private func mark(_ arguments: [String], _ line: String) throws -> (MarkVerdict, String?) {
  let configuration = try configure(arguments)
  var decider = MarkDecider(configuration, dryRun: false, quarantineNote: nil)
  let batch = MarkBatch(capacity: 0)
  let verdict = Array(line.utf8).withUnsafeBytes { decider.decide($0, 1, "<stdin>", into: batch) }
  return (verdict, verdict == .edited ? batch.edited.text : nil)
}

@Suite struct MarkCommandTests {
  @Test(arguments: [
    (["--all"], "give an action: --read, --unread, --seen or --delete"),
    (
      ["--read"],
      "give a selector: --id, --ids-from, --app, --thread, --category, --before, or --all"
    ),
    (["--read", "--unread", "--all"], "--read and --unread contradict each other"),
    (["--delete", "--read", "--all"], "--delete goes alone: a deleted record is not marked"),
    (
      ["--seen", "--all", "--id", "x"],
      "--all selects every record: give it without other selectors"
    ),
    (
      ["--seen", "--before", "2026-11-22"],
      "--before: '2026-11-22' is not an RFC 3339 time such as 2026-11-22T09:05:00Z"
    ),
    (
      ["--seen", "--before", "9999-12-31T23:59:59-01:00"],
      "--before: '9999-12-31T23:59:59-01:00' is after the latest supported time, 9999-12-31T23:59:59.999999999Z"
    ),
    (
      ["--seen", "--before", "@-62135596801"],
      "--before: '@-62135596801' is before the earliest supported time, 0001-01-01T00:00:00Z"
    ),
    (["--seen", "--all", "--wait", "1"], "--wait needs --store: only a store is locked"),
    (
      ["--seen", "--all", "--store", "s", "f"],
      "--store changes one file in place: give no file operands with it"
    ),
  ])
  func rejectsBadCommandLines(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try configure(arguments) }
  }

  @Test func collectsRepeatedSelectors() throws {
    let configuration = try configure([
      "--read", "--id", "a", "--id", "b", "--app", "x", "--thread", "t", "--category", "c",
      "--category", "d", "--before", "@0",
    ])
    #expect(configuration.selection.ids?.count == 2)
    #expect(configuration.selection.ids?.contains(Array("a".utf8)) == true)
    #expect(configuration.selection.ids?.contains(Array("b".utf8)) == true)
    #expect(configuration.selection.ids?.contains(Array("c".utf8)) == false)
    #expect(configuration.selection.apps == [Array("x".utf8)])
    #expect(configuration.selection.categories == [Array("c".utf8), Array("d".utf8)])
    #expect(configuration.selection.before == Timestamp(seconds: 0))
    #expect(configuration.actions == MarkCommand.Actions(read: true))
  }
}

@Suite struct MarkDecisionTests {
  static let record =
    #"{"id":"a","app":"x","thread_id":"t","category":"c","created_at":"2026-11-22T08:00:00Z","read_at":null,"seen_at":null,"payload":{"read_at":null}}"#

  @Test func readSplicesBothTimesAndKeepsEveryOtherByte() throws {
    let (verdict, line) = try mark(["--read", "--id", "a"], Self.record)
    #expect(verdict == .edited)
    #expect(
      line
        == #"{"id":"a","app":"x","thread_id":"t","category":"c","created_at":"2026-11-22T08:00:00Z","read_at":"2026-11-22T09:00:00Z","seen_at":"2026-11-22T09:00:00Z","payload":{"read_at":null}}"#
        + "\n")
  }

  @Test func aRecordAlreadyReadKeepsItsFirstReadAt() throws {
    let read =
      #"{"id":"a","app":"x","created_at":"2026-11-22T08:00:00Z","read_at":"2026-11-01T00:00:00Z","seen_at":"2026-11-01T00:00:00Z"}"#
    #expect(try mark(["--read", "--all"], read).0 == .unchanged)
    #expect(try mark(["--seen", "--all"], read).0 == .unchanged)
    let (verdict, line) = try mark(["--unread", "--all"], read)
    #expect(verdict == .edited)
    #expect(line?.contains(#""read_at":null,"seen_at":"2026-11-01T00:00:00Z""#) == true)
  }

  @Test(arguments: [
    (["--seen", "--app", "x"], MarkVerdict.edited),
    (["--seen", "--app", "y"], .unchanged),
    (["--seen", "--app", "y", "--app", "x"], .edited),
    (["--seen", "--app", "x", "--thread", "other"], .unchanged),
    (["--seen", "--category", "c", "--thread", "t"], .edited),
    (["--seen", "--before", "2026-11-22T08:00:00Z"], .unchanged),
    (["--seen", "--before", "2026-11-22T08:00:00.000000001Z"], .edited),
    (["--delete", "--id", "a"], .deleted),
    (["--delete", "--id", "b"], .unchanged),
  ])
  func selectorsMustAllMatch(_ arguments: [String], _ expected: MarkVerdict) throws {
    #expect(try mark(arguments + ["--now", "@1795338000"], Self.record).0 == expected)
  }

  @Test func missingKeysAreAddedBeforeTheFinalBrace() throws {
    #expect(
      try mark(["--read", "--all"], #"{"id":"a"} "#).1
        == #"{"id":"a","read_at":"2026-11-22T09:00:00Z","seen_at":"2026-11-22T09:00:00Z"} "# + "\n")
    #expect(
      try mark(["--seen", "--all"], "{}").1 == #"{"seen_at":"2026-11-22T09:00:00Z"}"# + "\n")
  }

  @Test func linesThatAreNotRecordsStayAsTheyAre() throws {
    #expect(try mark(["--read", "--all"], "not json").0 == .unchanged)
    #expect(try mark(["--read", "--all"], "   ").0 == .unchanged)
  }

  /// The ids' set holds what it is given, once each, whatever their number and bytes.
  @Test func idSetHoldsEachIDOnce() {
    var set = IDSet()
    var random = SplitMix(seed: 7)
    var expected: Set<[UInt8]> = []
    for _ in 0..<5_000 {
      let id = (0..<random.below(12)).map { _ in UInt8(random.below(4) + 0x61) }
      set.insert(id)
      expected.insert(id)
    }
    #expect(set.count == expected.count)
    for id in expected { #expect(set.contains(id)) }
    #expect(!set.contains(Array("abcdabcdabcdz".utf8)))
    #expect(set.byteCount == expected.reduce(0) { $0 + $1.count })
  }

  /// `--ids-from` holds at most `--max-record-bytes` of ids: a bigger file is a usage error,
  /// read no further than the limit.
  @Test func idsFromHasALimit() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-ids-\(UUID().uuidString)"
    ).path
    try Data((0..<300).map { "id-\($0)\n" }.joined().utf8).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect(try configure(["--read", "--ids-from", path]).selection.ids?.count == 300)
    #expect(
      throws: UsageError(
        "--ids-from: '\(path)' holds more than 1024 bytes of ids (--max-record-bytes): "
          + "give them in parts, or a larger limit")
    ) { try configure(["--read", "--ids-from", path, "--max-record-bytes", "1k"]) }
  }
}
