import NotifJSON
import NotifModel
import Testing

@testable import notif_responses

@Suite struct RetryTimeTests {
  static let now = Timestamp(seconds: 1_795_341_600)  // 2026-11-26T10:00:00Z

  @Test(arguments: [
    ("Sun, 06 Nov 1994 08:49:37 GMT", "1994-11-06T08:49:37Z"),
    ("Thu, 26 Nov 2026 10:30:00 GMT", "2026-11-26T10:30:00Z"),
    ("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"),
    ("Thursday, 26-Nov-26 10:30:00 GMT", "2026-11-26T10:30:00Z"),
    ("Wednesday, 26-Nov-petty 10:30:00 GMT", nil),
    ("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"),
    ("Thu Nov 26 10:30:00 2026", "2026-11-26T10:30:00Z"),
  ])
  func readsTheThreeFormsOfAnHTTPDate(_ text: String, _ rfc3339: String?) throws {
    let wanted = try rfc3339.map { try Timestamp(rfc3339: $0) }
    #expect(RetryTime.httpDate(text, now: Self.now) == wanted)
  }

  /// RFC 9110: a two-digit year more than 50 years ahead is the latest past year with those
  /// digits.
  @Test func aTwoDigitYearIsNeverFarAhead() throws {
    #expect(
      RetryTime.httpDate("Wednesday, 01-Jan-76 00:00:00 GMT", now: Self.now)
        == (try Timestamp(rfc3339: "2076-01-01T00:00:00Z")))
    #expect(
      RetryTime.httpDate("Saturday, 01-Jan-77 00:00:00 GMT", now: Self.now)
        == (try Timestamp(rfc3339: "1977-01-01T00:00:00Z")))
  }

  @Test(arguments: [
    "Mon, 06 Nov 1994 08:49:37 GMT",  // the wrong day of the week
    "Sun, 6 Nov 1994 08:49:37 GMT",
    "Sun, 06 Nov 1994 08:49:37 UTC",
    "Sunday, 06-Nov-1994 08:49:37 GMT",
    "Sun, 31 Feb 1994 08:49:37 GMT",
    "",
  ])
  func refusesWhatIsNoIMFFixdate(_ text: String) {
    #expect(RetryTime.httpDate(text, now: Self.now) == nil)
  }

  @Test func backoffIsReproducibleAndInTheUpperHalf() {
    let retry = RetryTime(seed: 7)
    for attempt in Int64(1)...12 {
      let key: [UInt8] = Array("token-\(attempt)".utf8)
      let first = key.withUnsafeBytes {
        retry.backoff(attempt: attempt, slowDown: false, key: $0, salt: nil)
      }
      let again = key.withUnsafeBytes {
        retry.backoff(attempt: attempt, slowDown: false, key: $0, salt: nil)
      }
      #expect(first == again)
      let full = min(RetryTime.cap, RetryTime.retryBase << (attempt - 1))
      #expect(first >= full - full / 2 && first <= full, "attempt \(attempt): \(first)")
    }
  }

  @Test func theSeedChangesTheJitter() {
    let key: [UInt8] = Array("token".utf8)
    let times = (UInt64(0)..<16).map { seed in
      key.withUnsafeBytes {
        RetryTime(seed: seed).backoff(attempt: 8, slowDown: true, key: $0, salt: nil)
      }
    }
    #expect(Set(times).count > 1)
  }

  @Test func theTableHasTheRowsTheReaderRefines() {
    let table = ResponseTable()
    #expect(table.rows[table.reregistered].id == "apns-unregistered-reregistered")
    #expect(table.rows[table.invalidRegistrationToken].id == "fcm-invalid-registration-token")
    #expect(table.rows[table.pastMaxAttempts].id == "any-past-max-attempts")
    #expect(table.rows[table.unreadableTimestamp].id == "apns-unregistered-unreadable-timestamp")
    #expect(
      table.rows[table.row(.apns, status: 410, reason: "Unregistered")].id == "apns-unregistered")
    #expect(table.rows[table.row(.apns, status: 418, reason: "Teapot")].id == "apns-other-4xx")
    #expect(table.rows[table.row(.expo, status: nil, reason: nil)].id == "expo-ok")
  }

  @Test(arguments: [
    ("410: 'Unregistered'", 410, "Unregistered"), ("200: ''", 200, nil),
  ])
  func readsTheApns2Line(_ line: String, _ status: Int, _ reason: String?) {
    let response = Array(line.utf8).withUnsafeBytes { ResponsesRun.apns2Line($0) }
    #expect(response?.status == status)
    #expect(response?.reason == reason)
  }

  @Test(arguments: ["410 Unregistered", "41: 'x'", "999: ''", "410: 'a b'"])
  func refusesOtherLines(_ line: String) {
    #expect(Array(line.utf8).withUnsafeBytes { ResponsesRun.apns2Line($0) } == nil)
  }
}
