import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifPush

private let documentedKeys = [
  "id", "app", "thread_id", "category", "title", "subtitle", "body", "title_loc_key",
  "title_loc_args",
  "subtitle_loc_key", "subtitle_loc_args", "loc_key", "loc_args", "created_at", "relevance",
  "interruption_level", "badge", "sound", "sound_critical", "sound_volume", "summary_arg",
  "summary_arg_count", "collapse_id", "expires_at", "priority", "push_type", "topic",
  "content_available", "mutable_content", "target_content_id", "event", "timestamp", "stale_at",
  "dismiss_at", "read_at", "seen_at", "source", "payload",
]

/// The keys of notif(5)'s table and of `RecordField`: notif-parse's, then `digested_at`, which
/// only notif-digest adds (notif-parse never sets it, so never writes it).
private let recordKeys = documentedKeys + ["digested_at"]

/// Writes `values` over the view of `input` with `payload`, every field (`dense`) or the
/// fields that are not null, and returns the line.
private func written(
  _ values: inout RecordValues, input: String = "{}", payload: String = "{}", dense: Bool = true
) -> String {
  var out = ByteBuffer()
  withView(of: input) { view in
    Array(payload.utf8).withUnsafeBytes {
      values.write(view: view, payload: $0, dense: dense, into: &out)
    }
  }
  return out.text
}

@Suite struct RecordValuesTests {
  @Test func fieldsAreInTheDocumentedOrder() {
    #expect(RecordField.allCases.map(\.key) == recordKeys)
  }

  @Test func theManualListsTheSameKeysInTheSameOrder() throws {
    let manual = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("man/notif.5")
    let text = try String(contentsOf: manual, encoding: .utf8)
    // The table of "Records", the first of the page; "Limits" has one of its own.
    let records = text.split(separator: "\n").drop { $0 != ".Ss Records" }.prefix { $0 != ".El" }
    let tableKeys = records.compactMap { line -> String? in
      let words = line.split(separator: " ")
      guard words.count > 3, words[0] == ".It", words[1] == "Li", words[3] == "Ta" else {
        return nil
      }
      return String(words[2])
    }
    #expect(tableKeys == recordKeys)
  }

  @Test func aNewRecordHasEveryKeyNull() {
    var values = RecordValues()
    let line = written(&values)
    #expect(line.hasSuffix("}\n"))
    #expect(line.filter { $0 == "\n" }.count == 1)
    let found = members(of: String(line.dropLast()))
    #expect(found.map(\.0) == documentedKeys)
    #expect(found.dropLast().allSatisfy { $0.1 == "null" })
    #expect(found.last?.1 == "{}")
    #expect(line.hasPrefix(#"{"id":null,"app":null,"thread_id":null,"#))
    #expect(line.hasSuffix(#""read_at":null,"seen_at":null,"source":null,"payload":{}}"# + "\n"))
  }

  @Test func writesEachKindOfValue() {
    var values = RecordValues()
    values[.badge] = .integer(-5)
    values[.contentAvailable] = .bool(true)
    values[.mutableContent] = .bool(false)
    values[.createdAt] = .time(Timestamp(seconds: 0, nanoseconds: 250_000_000))
    values[.id] = .hash(0xDEAD_BEEF)
    values.set(.title, text: "Say \"hi\"\n\u{1}é")
    values.set(.app, text: "com.example")
    let input = #"{"x": [1.0, "\u00e9"], "n": 12345678901234567890}"#
    let line = withView(of: input) { view -> String in
      if let x = view.member(0, "x") { values[.locArgs] = .input(x) }
      if let n = view.member(0, "n") { values[.relevance] = .input(n) }
      var out = ByteBuffer()
      Array(#"{"p":1}"#.utf8).withUnsafeBytes {
        values.write(view: view, payload: $0, dense: true, into: &out)
      }
      return out.text
    }
    let found = Dictionary(uniqueKeysWithValues: members(of: String(line?.dropLast() ?? "")))
    #expect(found["badge"] == "-5")
    #expect(found["content_available"] == "true")
    #expect(found["mutable_content"] == "false")
    #expect(found["created_at"] == #""1970-01-01T00:00:00.250Z""#)
    #expect(found["id"] == #""00000000deadbeef""#)
    #expect(found["title"] == #""Say \"hi\"\n\u0001é""#)
    #expect(found["app"] == #""com.example""#)
    #expect(found["loc_args"] == #"[1.0,"é"]"#)
    #expect(found["relevance"] == "12345678901234567890")
    #expect(found["payload"] == #"{"p":1}"#)
    #expect(found["body"] == "null")
  }

  /// Runs of null fields are written in one copy: a value anywhere among them must land in place.
  @Test(arguments: RecordField.allCases.filter { $0 != .payload && $0 != .digestedAt })
  func writesOneFieldAmongNulls(_ field: RecordField) {
    var values = RecordValues()
    values[field] = .integer(7)
    let found = members(of: String(written(&values).dropLast()))
    #expect(found.map(\.0) == documentedKeys)
    #expect(found.filter { $0.1 != "null" }.map(\.0) == [field.key, "payload"])
    #expect(found.first { $0.0 == field.key }?.1 == "7")
  }

  /// Not dense, a field left out is null: the line has the fields that are not null and the
  /// payload, in the same order, and is a JSON object whichever field comes first.
  @Test(arguments: RecordField.allCases.filter { $0 != .payload && $0 != .digestedAt })
  func leavesOutEveryNullField(_ field: RecordField) {
    var values = RecordValues()
    values[field] = .integer(7)
    let line = written(&values, dense: false)
    #expect(line == #"{"\#(field.key)":7,"payload":{}}"# + "\n")
    var alone = RecordValues()
    #expect(written(&alone, dense: false) == #"{"payload":{}}"# + "\n")
  }

  @Test(arguments: [0, 1, 2, 3])
  func leavesOutTheNullsBetweenValues(_ phase: Int) {
    var values = RecordValues()
    let chosen = RecordField.allCases.filter {
      $0 != .payload && $0 != .digestedAt && ($0.rawValue + phase) % (phase + 2) == 0
    }
    for field in chosen { values[field] = .bool(true) }
    let found = members(of: String(written(&values, dense: false).dropLast()))
    #expect(found.map(\.0) == chosen.map(\.key) + ["payload"])
  }

  @Test(arguments: [0, 1, 2, 3])
  func writesAlternatingValuesAndNulls(_ phase: Int) {
    var values = RecordValues()
    let chosen = RecordField.allCases.filter {
      $0 != .payload && $0 != .digestedAt && ($0.rawValue + phase) % (phase + 2) == 0
    }
    for field in chosen { values[field] = .bool(true) }
    let found = members(of: String(written(&values).dropLast()))
    #expect(found.map(\.0) == documentedKeys)
    #expect(found.filter { $0.1 == "true" }.map(\.0) == chosen.map(\.key))
  }

  @Test func eachRecordGetsItsOwnTime() {
    var values = RecordValues()
    var lines: [String] = []
    for seconds in [Int64(0), 86_400, 0] {
      values[.createdAt] = .time(Timestamp(seconds: seconds))
      lines.append(written(&values))
    }
    let times = lines.map { line in
      members(of: String(line.dropLast())).first { $0.0 == "created_at" }?.1
    }
    #expect(
      times == [#""1970-01-01T00:00:00Z""#, #""1970-01-02T00:00:00Z""#, #""1970-01-01T00:00:00Z""#])
  }

  @Test func readsStringsBackFromTextAndInput() {
    var values = RecordValues()
    values.set(.title, text: "Tab\there \"quoted\" é")
    values[.badge] = .integer(3)
    let strings = withView(of: #"{"b":"A\u0042c","n":1}"#) { view -> [String?] in
      values[.body] = view.member(0, "b").map { .input($0) } ?? .null
      values[.category] = view.member(0, "n").map { .input($0) } ?? .null
      return [.title, .body, .badge, .category, .app].map { values.string($0, in: view) }
    }
    #expect(strings == ["Tab\there \"quoted\" é", "ABc", nil, nil, nil])
  }

  @Test func resetMakesEveryFieldNullAgain() {
    var values = RecordValues()
    values.set(.title, text: "first")
    values[.badge] = .integer(1)
    values.reset()
    #expect(RecordField.allCases.allSatisfy { values[$0] == .null })
    values.set(.body, text: "second")
    let found = Dictionary(uniqueKeysWithValues: members(of: String(written(&values).dropLast())))
    #expect(found["title"] == "null")
    #expect(found["badge"] == "null")
    #expect(found["body"] == #""second""#)
  }

  @Test func laterTextReplacesEarlierText() {
    var values = RecordValues()
    values.set(.title, text: "one")
    values.set(.title, text: "two")
    let found = Dictionary(uniqueKeysWithValues: members(of: String(written(&values).dropLast())))
    #expect(found["title"] == #""two""#)
  }
}
