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
  /// APNs's `timestamp` of a 410, milliseconds since 1970.
  var timestamp: Int64?
  /// The `Retry-After` header's value.
  var retryAfter: Int?
  /// The record's own `attempt` (SNS: `delivery.attempts`).
  var attempt: Int64?
  /// Whether FCM's INVALID_ARGUMENT says the registration token is what is invalid.
  var aboutToken = false
}

/// What is wrong with a line that holds no answer: its code, message and byte offset.
struct ResponseProblem: Error, Equatable {
  var code: String
  var message: String
  var offset: Int
}
