import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import notif_responses

/// The token files `--tokens` and `--prune` read (`TokenLine`, `TokenRegistry`), APNs's
/// timestamp (`AnswerTimestamp`) and `Retry-After` at their limits.
@Suite struct TokenFileTests {
  static func line(_ text: String) -> TokenLine {
    var parser = JSONParser()
    return Array(text.utf8).withUnsafeBytes { TokenLine.read($0, parser: &parser) }
  }

  static func time(_ text: String) -> Timestamp? { try? Timestamp(rfc3339: text) }

  @Test(arguments: [
    (#"{"token":"a","registered_at":"2026-11-20T00:00:00Z"}"#, "2026-11-20T00:00:00Z"),
    (#"{"token":"a","registered_at":1763596800}"#, "2025-11-20T00:00:00Z"),
    (#"{"token":"a","registered_at":1763596800.0}"#, "2025-11-20T00:00:00Z"),
    (#"{"token":"a","registered_at":1.7635968e9}"#, "2025-11-20T00:00:00Z"),
    (#"{"token":"a","registered_at":"1763596800"}"#, "2025-11-20T00:00:00Z"),
    ("a 2026-11-20T00:00:00Z", "2026-11-20T00:00:00Z"),
    ("a\t1763596800", "2025-11-20T00:00:00Z"),
    ("a 253402300799", "9999-12-31T23:59:59Z"),
  ])
  func readsEveryDocumentedForm(_ text: String, _ rfc3339: String) {
    #expect(Self.line(text) == .token(Array("a".utf8), registeredAt: Self.time(rfc3339)))
  }

  @Test func aTokenAloneHasNoTime() {
    #expect(Self.line("a") == .token(Array("a".utf8), registeredAt: nil))
    #expect(Self.line(#"{"token":"a"}"#) == .token(Array("a".utf8), registeredAt: nil))
    #expect(
      Self.line(#"{"token":"a","registered_at":null}"#)
        == .token(Array("a".utf8), registeredAt: nil))
    #expect(Self.line("  ") == .blank)
  }

  /// Times outside notif(5)'s range are said, never trapped on nor taken: the token is kept.
  @Test(arguments: [
    #"{"token":"a","registered_at":253402300800}"#,
    #"{"token":"a","registered_at":9300000000000000}"#,
    #"{"token":"a","registered_at":-9300000000000000}"#,
    #"{"token":"a","registered_at":9223372036854775807}"#,
    #"{"token":"a","registered_at":-9223372036854775808}"#,
    #"{"token":"a","registered_at":99999999999999999999999}"#,
    #"{"token":"a","registered_at":1e300}"#,
    #"{"token":"a","registered_at":1763596800.5}"#,
    #"{"token":"a","registered_at":"yesterday"}"#,
    #"{"token":"a","registered_at":"10000-01-01T00:00:00Z"}"#,
    #"{"token":"a","registered_at":true}"#,
    "a 253402300800", "a 99999999999999999999999", "a -5", "a 2026-02-30T00:00:00Z",
  ])
  func refusesTimesItCannotRead(_ text: String) {
    guard case .unreadableTime(let token, let why) = Self.line(text) else {
      Issue.record("\(text): read as \(Self.line(text))")
      return
    }
    #expect(token == Array("a".utf8))
    #expect(!why.isEmpty)
  }

  @Test(arguments: ["a b c", #"{"tok":"a"}"#, #"{"token":1}"#, "{not json"])
  func otherLinesAreNoTokens(_ text: String) {
    guard case .other = Self.line(text) else {
      Issue.record("\(text): read as \(Self.line(text))")
      return
    }
  }

  /// A token's registration is its latest, whatever the order of its lines.
  @Test func theLatestRegistrationWinsInAnyOrder() {
    var random = SplitMix(seed: 38)
    for _ in 0..<200 {
      let seconds = (0..<(1 + random.below(6))).map { _ in Int64(random.below(2_000_000_000)) }
      var lines = seconds.map { "tok \($0)" }
      if random.below(2) == 0 { lines.append("tok") }  // a line without a time changes nothing
      for i in lines.indices.reversed() {
        lines.swapAt(i, random.below(i + 1))
      }
      var registry = TokenRegistry()
      for text in lines { registry.add(Self.line(text)) }
      #expect(registry.registeredAt(Array("tok".utf8)) == Timestamp(seconds: seconds.max() ?? 0))
    }
  }

  @Test func anUnreadableTimeIsRemembered() {
    var registry = TokenRegistry()
    registry.add(Self.line("tok 2026-11-20T00:00:00Z"))
    registry.add(Self.line("tok soon"))
    #expect(registry.hasUnreadableTime(Array("tok".utf8)))
    #expect(!registry.hasUnreadableTime(Array("other".utf8)))
  }

  @Test(arguments: [
    ("1764140000000", 1_764_140_000),
    ("\"1764140000000\"", 1_764_140_000),
    ("1764140000000.0", 1_764_140_000),
    ("1.76414e12", 1_764_140_000),
    ("0", 0),
    ("253402300799999", 253_402_300_799),
  ])
  func readsAPNsTimestampsByValue(_ json: String, _ seconds: Int64) {
    let read = withView(of: json) { AnswerTimestamp($0, 0) }
    guard case .time(let time)?? = read else {
      Issue.record("\(json): \(String(describing: read))")
      return
    }
    #expect(time.seconds == seconds)
  }

  @Test(arguments: [
    "1.5", "-1", "253402300800000", "9300000000000000", "1e300", "\"soon\"", "\"\"", "true",
    "{}", "\"17641400000001234567\"",
  ])
  func saysWhereAPNsTimestampIsUnreadable(_ json: String) {
    let read = withView(of: json) { AnswerTimestamp($0, 0) }
    guard case .unreadable?? = read else {
      Issue.record("\(json): \(String(describing: read))")
      return
    }
  }

  @Test(arguments: [
    ("1099511627776", RetryTime.After.seconds(1 << 40)),
    ("1099511627777", .pastLatest),
    ("99999999999999999999", .pastLatest),
    ("\"1099511627777\"", .pastLatest),
    ("\"99999999999999\"", .pastLatest),
    ("\"120\"", .seconds(120)),
  ])
  func clampsARetryAfterPastTheLatestTime(_ json: String, _ after: RetryTime.After) {
    let read = withView(of: json) { RetryTime.retryAfter($0, 0, now: Timestamp(seconds: 0)) }
    #expect(read == after)
  }

  @Test(arguments: ["-5", "1.5", "\"soon\""])
  func refusesOtherRetryAfters(_ json: String) {
    let read = withView(of: json) { RetryTime.retryAfter($0, 0, now: Timestamp(seconds: 0)) }
    #expect(read == .some(nil))
  }
}
