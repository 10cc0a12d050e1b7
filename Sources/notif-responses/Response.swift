import NotifJSON
import NotifModel

/// One answer of a push service as read from a line: what the record says of it, before the
/// table is asked what to do.
///
/// Values that go into the record as they are (the token, the request id) are the raw JSON
/// text of their string in the line, which stays valid while the line is handled.
struct Response {
  /// The service the record names as its `source`.
  var source: ResponseService = .apns
  /// The service whose rows decide: the same, or for Amazon SNS the platform behind it.
  var vendor: ResponseService = .apns
  /// The object whose members the record keeps (nil: a line that is not JSON).
  var object: Int?
  /// The token (or Web Push endpoint, or SNS endpoint): the raw JSON string.
  var token: UnsafeRawBufferPointer?
  /// The index of the token's string in the view, to compare it decoded.
  var tokenIndex: Int?
  /// The request's id (`apns-id`, the FCM message name, an Expo receipt id...): raw JSON.
  var requestID: UnsafeRawBufferPointer?
  var requestIDIndex: Int?
  /// The HTTP status.
  var status: Int?
  /// The vendor's reason, decoded.
  var reason: String?
  /// APNs's `timestamp` of a 410, milliseconds since 1970 (`AnswerTimestamp`).
  var timestamp: AnswerTimestamp?
  /// The `Retry-After` header's value.
  var retryAfter: Int?
  /// The record's own `attempt` (SNS: `delivery.attempts`).
  var attempt: Int64?
  /// Whether FCM's INVALID_ARGUMENT says the registration token is what is invalid.
  var aboutToken = false
}

/// APNs's `timestamp`: when APNs last confirmed that the token was no longer valid for the
/// topic, in milliseconds since 1970.
enum AnswerTimestamp: Equatable {
  /// The instant, read by value: `1764140000000`, `1764140000000.0`, `1.76414e12`, or those
  /// digits as a string; in notif(5)'s range.
  case time(Timestamp)
  /// Anything else, as written (for the warning): the token is kept.
  case unreadable(String)

  /// Reads the value at `index`; nil for null.
  init?(_ view: JSONView, _ index: Int) {
    switch view.kind(index) {
    case .null: return nil
    case .number:
      guard let value = TokenLine.wholeNumber(view, index) else { break }
      self = Self.milliseconds(value)
      return
    case .string:
      let text = view.string(index)
      guard !text.isEmpty, text.utf8.count <= 15,
        text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") <= 9 }), let value = Int64(text)
      else { break }
      self = Self.milliseconds(value)
      return
    default: break
    }
    let text = view.stringValue(index) ?? String(decoding: view.raw(index), as: UTF8.self)
    self = .unreadable(text.count > 40 ? String(text.prefix(40)) + "..." : text)
  }

  private static func milliseconds(_ value: Int64) -> AnswerTimestamp {
    let latest = Timestamp.maximum.seconds * 1000 + 999
    guard value >= 0, value <= latest else { return .unreadable("\(value)") }
    return .time(Timestamp(seconds: value / 1000, nanoseconds: Int32(value % 1000) * 1_000_000))
  }
}
