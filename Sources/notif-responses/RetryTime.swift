import NotifJSON
import NotifModel

/// When to send a request again: the service's `Retry-After` first (RFC 9110, section 10.2.3:
/// whole seconds, or an HTTP date), else exponential back-off with jitter that is seeded and
/// reproducible.
///
/// The back-off of attempt n (1 for the first send) is `base * 2^(n - 1)` seconds, at most an
/// hour, then jittered into its upper half by a number drawn from the seed, the token, the
/// request id and the attempt: the same answer gets the same time in every run, and answers
/// that came together spread out. The base is 5 seconds for `retry`, 60 for `slow_down` (FCM
/// asks at least a minute after QUOTA_EXCEEDED).
struct RetryTime: Sendable {
  /// `--seed`.
  let seed: UInt64

  static let retryBase: Int64 = 5
  static let slowDownBase: Int64 = 60
  static let cap: Int64 = 3600

  /// The back-off, in seconds, of `attempt` for `action`, jittered by `key` (the bytes that
  /// tell the answer: token and request id).
  func backoff(
    attempt: Int64, slowDown: Bool, key: UnsafeRawBufferPointer?, salt: UnsafeRawBufferPointer?
  ) -> Int64 {
    let base = slowDown ? Self.slowDownBase : Self.retryBase
    let doublings = min(max(attempt - 1, 0), 20)
    let delay = min(Self.cap, base << doublings)
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
    func mix(_ bytes: UnsafeRawBufferPointer?) {
      guard let bytes else { return }
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
      hash = (hash ^ 0xFF) &* 0x100_0000_01b3
    }
    mix(key)
    mix(salt)
    hash ^= UInt64(bitPattern: attempt)
    // SplitMix64's finalizer: every input bit moves every output bit.
    hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
    hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
    hash ^= hash >> 31
    let half = delay / 2
    return delay - Int64(hash % UInt64(half + 1))
  }

  /// What a `Retry-After` value says: seconds from now, or a time.
  enum After: Equatable {
    case seconds(Int64)
    case time(Timestamp)
    /// Whole seconds past the latest time notif writes (9999-12-31T23:59:59Z) from any time
    /// it reads: more than 2^40 seconds.
    case pastLatest
  }

  /// The most seconds a `Retry-After` is read as: past it, any time plus it is past
  /// `Timestamp.maximum`.
  static let maxSeconds: Int64 = 1 << 40

  /// Reads a `Retry-After` value: a JSON number of whole seconds, or a string of digits, or an
  /// HTTP date (`httpDate`); nil for anything else.
  static func retryAfter(_ view: JSONView, _ index: Int, now: Timestamp) -> After? {
    if view.kind(index) == .number {
      guard view.tokens[index].flag, view.raw(index).first != UInt8(ascii: "-") else {
        return nil
      }
      // A whole number too long for 64 bits is past the latest time too.
      guard let seconds = view.integer(index), seconds <= maxSeconds else { return .pastLatest }
      return .seconds(seconds)
    }
    guard let text = view.stringValue(index) else { return nil }
    let trimmed = text.trimmingSpaces
    if !trimmed.isEmpty && trimmed.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
      guard trimmed.utf8.count <= 13, let seconds = Int64(trimmed), seconds <= maxSeconds else {
        return .pastLatest
      }
      return .seconds(seconds)
    }
    return httpDate(trimmed, now: now).map { .time($0) }
  }

  private static let months = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]
  private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  private static let longDays = [
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
  ]

  /// An HTTP date in any of RFC 9110's three forms (section 5.6.7), which a recipient must
  /// all accept: the IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, and the obsolete
  /// `Sunday, 06-Nov-94 08:49:37 GMT` (RFC 850; its two-digit year is the latest year with
  /// those digits not more than 50 years after `now`) and `Sun Nov  6 08:49:37 1994` (C's
  /// asctime). The day name is checked against the date.
  static func httpDate(_ text: String, now: Timestamp) -> Timestamp? {
    let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
    var weekday: Int?
    var day = "", month: Int?, year = "", clock = ""
    if parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT", parts[1].count == 2,
      parts[3].count == 4
    {
      weekday = days.firstIndex(of: String(parts[0].dropLast()))
      (day, month, year, clock) = (parts[1], months.firstIndex(of: parts[2]), parts[3], parts[4])
    } else if parts.count == 4, parts[0].hasSuffix(","), parts[3] == "GMT" {
      weekday = longDays.firstIndex(of: String(parts[0].dropLast()))
      let date = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
      guard date.count == 3, date[0].count == 2, date[2].count == 2,
        date[2].utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let twoDigits = Int(date[2])
      else { return nil }
      // The latest year ending in these digits that is not more than 50 years ahead.
      let thisYear = Int(now.description.prefix(4)) ?? 1970
      var full = thisYear - thisYear % 100 + twoDigits
      if full > thisYear + 50 { full -= 100 }
      guard full >= 1000 else { return nil }
      (day, month, year, clock) = (date[0], months.firstIndex(of: date[1]), "\(full)", parts[2])
    } else if parts.count == 5, parts[2].count <= 2, parts[4].count == 4 {
      weekday = days.firstIndex(of: parts[0])
      let padded = parts[2].count == 1 ? "0" + parts[2] : parts[2]
      (day, month, year, clock) = (padded, months.firstIndex(of: parts[1]), parts[4], parts[3])
    }
    guard let weekday, let month, clock.count == 8,
      (day + year + clock).utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x3A })
    else { return nil }
    let rfc3339 = "\(year)-\(month < 9 ? "0" : "")\(month + 1)-\(day)T\(clock)Z"
    guard let time = try? Timestamp(rfc3339: rfc3339) else { return nil }
    // 1970-01-01 was a Thursday (3, counting Monday as 0).
    let daysSinceEpoch =
      time.seconds >= 0 ? time.seconds / 86_400 : (time.seconds - 86_399) / 86_400
    let computed = Int(((daysSinceEpoch % 7) + 7 + 3) % 7)
    return computed == weekday ? time : nil
  }
}

extension String {
  /// The text without spaces and tabs around it.
  fileprivate var trimmingSpaces: String {
    let bytes = Array(utf8)
    var start = 0
    var end = bytes.count
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x09) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09) { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
