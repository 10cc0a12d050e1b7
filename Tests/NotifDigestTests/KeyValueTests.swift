import Foundation
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_digest

private let hourly = ["--window", "1h", "--now", digestNow]

/// A record of one thread whose `thread_id` is the JSON text `value`, as written.
private func record(_ id: String, threadID value: String, minute: Int = 5) -> String {
  #"{"id":"\#(id)","app":"com.example.social","thread_id":\#(value),"title":"New like","#
    + #""created_at":"2026-11-22T08:\#(String(format: "%02d", minute)):00Z"}"#
}

/// The canonical form of the JSON text `text`, through the parser the tools read with.
private func canonical(_ text: String) -> String? {
  var parser = JSONParser()
  return Array(text.utf8).withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else { return nil }
    return parser.withView(over: raw) { view in
      var out = ByteBuffer(capacity: 64)
      KeyValue.write(view, 0, into: &out)
      return out.text
    }
  }
}

@Suite struct KeyValueTests {
  /// Numbers by their exact value, in the layout of ECMAScript's Number.prototype.toString
  /// (RFC 8785) with every digit: never through a Double.
  @Test(arguments: [
    ("1", "1"), ("1.0", "1"), ("1e0", "1"), ("10E-1", "1"), ("0.1e1", "1"), ("100e-2", "1"),
    ("1E+0", "1"), ("-0", "0"), ("-0.0e5", "0"), ("0e-7", "0"), ("0", "0"), ("-15", "-15"),
    ("2.50E+3", "2500"), ("100", "100"), ("1.5", "1.5"), ("-0.001", "-0.001"),
    ("123.4560", "123.456"), ("0.000001", "0.000001"), ("1e-7", "1e-7"), ("-2.5e-10", "-2.5e-10"),
    ("1e20", "100000000000000000000"), ("1e21", "1e+21"),
    ("9007199254740993", "9007199254740993"), ("-9223372036854775809", "-9223372036854775809"),
    ("18446744073709551616", "18446744073709551616"),
    ("123456789012345678901", "123456789012345678901"),
    ("1234567890123456789012", "1.234567890123456789012e+21"),
    ("123456789012345678901234567890e-5", "1.2345678901234567890123456789e+24"),
    ("0.10000000000000000000000000000000001", "0.10000000000000000000000000000000001"),
    ("1e100000000000000000000", "1e+100000000000000000000"),
    ("1E-99999999999999999999999", "1e-99999999999999999999999"),
    ("-12.5e-100000000000000000000", "-1.25e-99999999999999999999"),
    ("100e99999999999999999998", "1e+100000000000000000000"),
    ("0.01e-99999999999999999999", "1e-100000000000000000001"),
  ])
  func numbersAreWrittenByTheirExactValue(_ written: String, _ expected: String) throws {
    #expect(canonical(written) == expected)
    // Canonical is a fixed point.
    #expect(canonical(expected) == expected)
  }

  @Test(arguments: [
    (#"{"b":1,"a":[2.0,{"d":true,"c":null}]}"#, #"{"a":[2,{"c":null,"d":true}],"b":1}"#),
    (#"{ "\u0062" : "\u00e9\/" , "a" : "x" }"#, #"{"a":"x","b":"é/"}"#),
    (#"{"é":1,"z":2,"😀":3,"":4}"#, #"{"":4,"z":2,"é":1,"😀":3}"#),
    (#"["b","a",1.0]"#, #"["b","a",1]"#), (#""tab\there""#, #""tab\there""#),
  ])
  func objectsByTheirMembersArraysInOrder(_ written: String, _ expected: String) throws {
    #expect(canonical(written) == expected)
  }

  /// notif-digest(1): key values are compared as JSON. `1`, `1.0`, `1e0` and `10E-1` are one
  /// value, so one key and one digest; so are objects whose members come in another order,
  /// and strings that differ in their escapes only. The digest shows the canonical form.
  @Test func equalValuesAreOneKey() throws {
    let numbers = try digest(
      hourly,
      input: ["1", "1.0", "1e0", "10E-1"].enumerated().map {
        record("n\($0.offset)", threadID: $0.element)
      })
    #expect(numbers.objects.map { $0["count"] as? Int } == [4])
    #expect(numbers.stdout.contains(#""key":{"app":"com.example.social","thread_id":1},"#))
    let objects = try digest(
      hourly,
      input: [
        record("o1", threadID: #"{"post":7,"kind":"photo"}"#),
        record("o2", threadID: #"{"kind":"photo","post":7.0}"#),
        record("o3", threadID: #"{"kind":"\u0070hoto","post":70e-1}"#),
      ])
    #expect(objects.objects.map { $0["count"] as? Int } == [3])
    #expect(objects.stdout.contains(#""thread_id":{"kind":"photo","post":7}}"#))
    let strings = try digest(
      hourly,
      input: [
        record("s1", threadID: #""caf\u00e9/x""#), record("s2", threadID: #""café\/x""#),
      ])
    #expect(strings.objects.map { $0["count"] as? Int } == [2])
  }

  /// Integers past 2^53, where a Double would make two of one, stay apart; arrays keep their
  /// order.
  @Test func valuesThatDifferStayApart() throws {
    let outcome = try digest(
      hourly,
      input: [
        record("a", threadID: "9007199254740992"), record("b", threadID: "9007199254740993"),
        record("c", threadID: "[1,2]"), record("d", threadID: "[2,1]"),
        record("e", threadID: "1"), record("f", threadID: #""1""#),
        record("g", threadID: "0.1"), record("h", threadID: "0.10000000000000001"),
      ])
    #expect(outcome.objects.map { $0["count"] as? Int } == Array(repeating: 1, count: 8))
  }

  /// `digest_id` hashes the key in its canonical form: the digest of `1.0` has the id of the
  /// digest of `1`, the one a key already canonical had before, and always has.
  @Test func digestIDsHashTheCanonicalKey() throws {
    let written = try #require(
      try digest(hourly, input: [record("a", threadID: "1.0")]).objects.first)
    let canonicalOne = try #require(
      try digest(hourly, input: [record("a", threadID: "1")]).objects.first)
    #expect(written["digest_id"] as? String == canonicalOne["digest_id"] as? String)
    var members = DigestID.zero
    Array("a".utf8).withUnsafeBytes { members.add(memberHash: DigestID.member($0)) }
    let key = Array(#"{"app":"com.example.social","thread_id":1}"#.utf8)
    let window = DigestWindow(
      start: try Timestamp(rfc3339: "2026-11-22T08:00:00Z"),
      end: try Timestamp(rfc3339: "2026-11-22T09:00:00Z"))
    #expect(
      written["digest_id"] as? String
        == members.adding(key.withUnsafeBytes { DigestID.frame(key: $0, window: window) }).hex)
  }

  /// `--merge` compares keys as JSON too: a digest an older notif-digest wrote with its key
  /// values as they came merges with the part of its window written since.
  @Test func mergeComparesKeysAsJSON() throws {
    // What an older notif-digest wrote for a record whose thread_id is 1.0: the key as it
    // came, and an id hashing it so.
    var members = DigestID.zero
    Array("a".utf8).withUnsafeBytes { members.add(memberHash: DigestID.member($0)) }
    let window = DigestWindow(
      start: try Timestamp(rfc3339: "2026-11-22T08:00:00Z"),
      end: try Timestamp(rfc3339: "2026-11-22T09:00:00Z"))
    let asWritten = Array(#"{"app":"com.example.social","thread_id":1.0}"#.utf8)
    let oldID = members.adding(
      asWritten.withUnsafeBytes { DigestID.frame(key: $0, window: window) })
    let current = try digest(hourly, input: [record("a", threadID: "1.0")]).stdout
    let currentID = try #require(
      try digest(hourly, input: [record("a", threadID: "1.0")]).objects.first?["digest_id"]
        as? String)
    let older = current.replacingOccurrences(
      of: #""thread_id":1},"#, with: #""thread_id":1.0},"#
    ).replacingOccurrences(of: currentID, with: oldID.hex)
    #expect(older != current)
    let newer = try digest(hourly, input: [record("b", threadID: "1e0", minute: 20)]).stdout
    let alone = try digest(["--merge"], input: [older])
    #expect(alone.stdout.contains(#""thread_id":1.0}"#))  // written as it was read
    let merged = try digest(["--merge"], input: [older, newer])
    #expect(merged.status == .success)
    #expect(merged.objects.map { $0["count"] as? Int } == [2])
    let whole = try digest(
      hourly, input: [record("a", threadID: "1.0"), record("b", threadID: "1e0", minute: 20)])
    #expect(merged.stdout == whole.stdout)
  }
}
