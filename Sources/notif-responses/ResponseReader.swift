import NotifJSON
import NotifModel
import NotifPush

/// Reads the answers in one JSON text, in each vendor's own shape (notif(5), "Responses"):
/// APNs (`status`, `apns-id`, the JSON `body`), FCM HTTP v1 (the status and the error body
/// with its `FcmError` details), Web Push (`status`, `headers`, `endpoint`), Expo (a ticket, a
/// receipt, or the `data` of a send or of a receipts request), and Amazon SNS's delivery
/// status log (`notification`, `delivery`, `status`). A `service` member names the shape
/// where the keys leave it open.
///
/// A body or an SNS `providerResponse` logged as a string holding JSON is read as that JSON,
/// with a parser of its own (`inner`). One instance is reused for every line.
struct ResponseReader: ~Copyable {
  private var inner = JSONParser(maxDepth: 32)
  private var innerText = ByteBuffer(capacity: 1024)

  private enum Key: Sendable {
    case service, token, requestID, attempt, status, apnsID, body, headers, reason, timestamp
    case error, name, endpoint, data, notification, delivery, details, id
  }
  private static let keys = KeyTable<Key>([
    ("service", .service), ("token", .token), ("request_id", .requestID),
    ("attempt", .attempt), ("status", .status), (":status", .status), ("apns-id", .apnsID),
    ("body", .body), ("headers", .headers), ("reason", .reason), ("timestamp", .timestamp),
    ("error", .error), ("name", .name), ("endpoint", .endpoint), ("data", .data),
    ("notification", .notification), ("delivery", .delivery), ("details", .details),
    ("id", .id),
  ])

  /// The members of one object that say what it is, by index (0: absent).
  private struct Members {
    var service = 0, token = 0, requestID = 0, attempt = 0, status = 0, apnsID = 0, body = 0
    var headers = 0, reason = 0, timestamp = 0, error = 0, name = 0, endpoint = 0, data = 0
    var notification = 0, delivery = 0, details = 0, id = 0

    init(_ view: JSONView, _ object: Int) {
      view.forEachMember(of: object) { key, value in
        switch ResponseReader.keys.find(view, key) {
        case .service: service = value
        case .token: token = value
        case .requestID: requestID = value
        case .attempt: attempt = value
        case .status: status = value
        case .apnsID: apnsID = value
        case .body: body = value
        case .headers: headers = value
        case .reason: reason = value
        case .timestamp: timestamp = value
        case .error: error = value
        case .name: name = value
        case .endpoint: endpoint = value
        case .data: data = value
        case .notification: notification = value
        case .delivery: delivery = value
        case .details: details = value
        case .id: id = value
        case nil: break
        }
      }
    }
  }

  /// What an APNs or FCM body says: APNs's `reason` and `timestamp`, FCM's error.
  struct BodyFacts {
    var reason: String?
    var timestamp: AnswerTimestamp?
    var status: Int?
    var message: String?
    /// Which vendor's body it is, when it says.
    var vendor: ResponseService?
  }

  init() {}

  /// Reads the answers of the object at the root of `view` and calls `body` with each: one,
  /// or one per ticket or receipt of an Expo `data`.
  ///
  /// - Throws: `RecordProblem` when the text is no answer this tool knows.
  mutating func read(_ view: JSONView, _ body: (inout Response) -> Void) throws(RecordProblem) {
    guard view.kind(0) == .object else {
      throw RecordProblem(
        code: "NotAnObject", message: "a response must be a JSON object",
        offset: 0)
    }
    let members = Members(view, 0)
    var response = Response()
    response.object = 0
    try common(view, members, into: &response)
    let service = try service(view, members)
    response.source = service
    response.vendor = service
    switch service {
    case .apns: try readAPNs(view, members, into: &response)
    case .fcm: try readFCM(view, members, into: &response)
    case .webpush: try readWebPush(view, members, into: &response)
    case .sns: try readSNS(view, members, into: &response)
    case .expo, .any:
      if members.data != 0 {
        try readExpoData(view, members.data, response, body)
        return
      }
      try readExpo(view, 0, members, into: &response)
    }
    body(&response)
  }

  // MARK: - Which service

  private static let serviceNames = KeyTable<ResponseService>([
    ("apns", .apns), ("fcm", .fcm), ("webpush", .webpush), ("expo", .expo), ("sns", .sns),
  ])

  private mutating func service(_ view: JSONView, _ m: Members) throws(RecordProblem)
    -> ResponseService
  {
    if m.service != 0 {
      guard view.kind(m.service) == .string, let named = Self.serviceNames.find(view, m.service)
      else {
        throw RecordProblem(
          code: "UnknownService",
          message:
            "'service' must be apns, fcm, webpush, expo or sns, not \(quoted(view, m.service))",
          offset: offset(view, m.service))
      }
      return named
    }
    if m.notification != 0 && m.delivery != 0 { return .sns }
    if m.apnsID != 0 || header(view, m.headers, "apns-id") != nil { return .apns }
    if m.data != 0 || (m.status != 0 && view.kind(m.status) == .string) { return .expo }
    if m.endpoint != 0 { return .webpush }
    if m.error != 0 || m.name != 0 { return .fcm }
    if m.body != 0 {
      if view.kind(m.body) == .object {
        if view.member(m.body, "error") != nil || view.member(m.body, "name") != nil {
          return .fcm
        }
        return .apns
      }
      if view.kind(m.body) == .string, let facts = bodyFacts(view, m.body) {
        return facts.vendor ?? .apns
      }
    }
    if m.reason != 0 { return .apns }
    throw RecordProblem(
      code: "UnknownResponse",
      message:
        "not a response this tool knows: give 'service', or the vendor's keys (notif(5), Responses)",
      offset: 0)
  }

  // MARK: - Shapes

  /// The members every shape may carry: the sender's `token`, `request_id` and `attempt`.
  private func common(_ view: JSONView, _ m: Members, into r: inout Response)
    throws(RecordProblem)
  {
    if m.token != 0 { setToken(view, m.token, into: &r) }
    if m.requestID != 0 { setRequestID(view, m.requestID, into: &r) }
    if m.attempt != 0 {
      guard let attempt = view.integer(m.attempt), attempt >= 1, attempt <= 1_000_000 else {
        throw RecordProblem(
          code: "BadAttempt",
          message: "'attempt' must be a whole number from 1, not \(quoted(view, m.attempt))",
          offset: offset(view, m.attempt))
      }
      r.attempt = attempt
    }
  }

  private mutating func readAPNs(_ view: JSONView, _ m: Members, into r: inout Response)
    throws(RecordProblem)
  {
    r.status = try status(view, m.status, required: true)
    if r.requestID == nil {
      if m.apnsID != 0 {
        setRequestID(view, m.apnsID, into: &r)
      } else if let id = header(view, m.headers, "apns-id") {
        setRequestID(view, id, into: &r)
      }
    }
    if m.reason != 0, let reason = view.stringValue(m.reason) { r.reason = reason }
    if m.timestamp != 0 { r.timestamp = AnswerTimestamp(view, m.timestamp) }
    if m.body != 0, let facts = bodyFacts(view, m.body) {
      r.reason = facts.reason ?? r.reason
      r.timestamp = facts.timestamp ?? r.timestamp
    }
    if r.reason?.isEmpty == true { r.reason = nil }
    r.retryAfter = header(view, m.headers, "retry-after")
  }

  private mutating func readFCM(_ view: JSONView, _ m: Members, into r: inout Response)
    throws(RecordProblem)
  {
    var facts = BodyFacts()
    if m.error != 0 {
      facts = fcmError(view, m.error)
    } else if m.body != 0, let body = bodyFacts(view, m.body) {
      facts = body
    }
    // A success names the message it made: `projects/p/messages/id`.
    var name = m.name != 0 && view.kind(m.name) == .string ? m.name : nil
    if m.body != 0 && view.kind(m.body) == .object, let inner = view.member(m.body, "name"),
      view.kind(inner) == .string
    {
      name = inner
    }
    if let name, r.requestID == nil { setRequestID(view, name, into: &r) }
    // A message name alone is FCM's answer of 200, status logged or not.
    let success: Int? = name != nil && m.error == 0 && facts.reason == nil ? 200 : nil
    r.status =
      try status(view, m.status, required: facts.status == nil && success == nil)
      ?? facts.status ?? success
    r.reason = facts.reason
    r.retryAfter = header(view, m.headers, "retry-after")
    if let message = facts.message, r.reason == "INVALID_ARGUMENT" {
      r.aboutToken = message.contains("registration token")
    }
  }

  private mutating func readWebPush(_ view: JSONView, _ m: Members, into r: inout Response)
    throws(RecordProblem)
  {
    r.status = try status(view, m.status, required: true)
    if r.token == nil && m.endpoint != 0 && view.kind(m.endpoint) == .string {
      setToken(view, m.endpoint, into: &r)
    }
    r.retryAfter = header(view, m.headers, "retry-after")
  }

  private mutating func readSNS(_ view: JSONView, _ m: Members, into r: inout Response)
    throws(RecordProblem)
  {
    let delivery = m.delivery
    if view.kind(delivery) != .object {
      throw RecordProblem(
        code: "BadResponse", message: "'delivery' must be an object", offset: offset(view, delivery)
      )
    }
    if r.requestID == nil, view.kind(m.notification) == .object,
      let id = view.member(m.notification, "messageId"), view.kind(id) == .string
    {
      setRequestID(view, id, into: &r)
    }
    let destination = view.member(delivery, "destination")
    if r.token == nil {
      if let token = view.member(delivery, "token"), view.kind(token) == .string {
        setToken(view, token, into: &r)
      } else if let destination, view.kind(destination) == .string {
        setToken(view, destination, into: &r)
      }
    }
    if r.attempt == nil, let attempts = view.member(delivery, "attempts"),
      let count = view.integer(attempts), count >= 1, count <= 1_000_000
    {
      r.attempt = count
    }
    r.status = try status(view, view.member(delivery, "statusCode") ?? 0, required: false)
    let succeeded =
      m.status != 0 && view.kind(m.status) == .string && view.string(m.status) == "SUCCESS"
    if r.status == nil && succeeded { r.status = 200 }
    if r.status == nil {
      throw RecordProblem(
        code: "MissingStatus",
        message: "an SNS delivery status needs 'delivery.statusCode' or 'status' SUCCESS",
        offset: offset(view, delivery))
    }
    // The platform behind the endpoint, by its ARN: .../endpoint/APNS/app/id.
    var platform: ResponseService?
    if let destination, let arn = view.stringValue(destination) {
      if arn.contains("/APNS") {
        platform = .apns
      } else if arn.contains("/GCM/") || arn.contains("/FCM/") {
        platform = .fcm
      }
    }
    if let provider = view.member(delivery, "providerResponse"), !succeeded,
      let facts = bodyFacts(view, provider)
    {
      r.reason = facts.reason
      r.timestamp = facts.timestamp
      if let vendor = facts.vendor ?? platform, facts.reason != nil { r.vendor = vendor }
      if let message = facts.message, r.reason == "INVALID_ARGUMENT" {
        r.aboutToken = message.contains("registration token")
      }
    } else if let platform, !succeeded, (r.status ?? 0) >= 500 {
      r.vendor = platform
    }
  }

  /// An Expo ticket or receipt: `status` ok or error, an error's `details.error`, its
  /// `details.expoPushToken`, a ticket's `id` (the receipt's id).
  private func readExpo(
    _ view: JSONView, _ object: Int, _ m: Members, into r: inout Response
  ) throws(RecordProblem) {
    r.object = object
    guard m.status != 0, view.kind(m.status) == .string else {
      throw RecordProblem(
        code: "MissingStatus", message: "an Expo ticket or receipt needs 'status', ok or error",
        offset: offset(view, object))
    }
    let status = view.string(m.status)
    guard status == "ok" || status == "error" else {
      throw RecordProblem(
        code: "BadStatus",
        message: "an Expo 'status' is ok or error, not \(quoted(view, m.status))",
        offset: offset(view, m.status))
    }
    if r.requestID == nil && m.id != 0 && view.kind(m.id) == .string {
      setRequestID(view, m.id, into: &r)
    }
    guard status == "error" else { return }
    r.reason = ""
    if m.details != 0 && view.kind(m.details) == .object {
      if let error = view.member(m.details, "error"), let name = view.stringValue(error) {
        r.reason = name
      }
      if r.token == nil, let token = view.member(m.details, "expoPushToken"),
        view.kind(token) == .string
      {
        setToken(view, token, into: &r)
      }
    }
  }

  /// Expo's `data`: an array of tickets (a send's answer) or an object of receipts by id (a
  /// receipts request's answer); each is one answer.
  private func readExpoData(
    _ view: JSONView, _ data: Int, _ outer: Response, _ body: (inout Response) -> Void
  ) throws(RecordProblem) {
    func each(_ value: Int, id: Int?) throws(RecordProblem) {
      guard view.kind(value) == .object else {
        throw RecordProblem(
          code: "BadResponse", message: "an Expo ticket or receipt must be an object",
          offset: offset(view, value))
      }
      var response = outer
      response.token = nil
      response.tokenIndex = nil
      let members = Members(view, value)
      try common(view, members, into: &response)
      if let id, response.requestID == nil { setRequestID(view, id, into: &response) }
      try readExpo(view, value, members, into: &response)
      body(&response)
    }
    switch view.kind(data) {
    case .array:
      try view.forEachElement(of: data) { (element) throws(RecordProblem) in
        try each(element, id: nil)
      }
    case .object:
      try view.forEachMember(of: data) { (id, value) throws(RecordProblem) in
        try each(value, id: id)
      }
    default:
      throw RecordProblem(
        code: "BadResponse",
        message: "Expo's 'data' must be an array of tickets or an object of receipts",
        offset: offset(view, data))
    }
  }

  // MARK: - Bodies

  /// What the body at `index` says: an object, or a string holding one (parsed on its own).
  private mutating func bodyFacts(_ view: JSONView, _ index: Int) -> BodyFacts? {
    switch view.kind(index) {
    case .object: return Self.facts(view, index)
    case .string:
      innerText.removeAll()
      JSONEscapes.unescape(view.rawString(index), into: &innerText)
      return innerText.withUnsafeBytes { bytes -> BodyFacts? in
        var start = 0
        while start < bytes.count && (bytes[start] == 0x20 || bytes[start] == 0x0A) { start += 1 }
        guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
        let text = UnsafeRawBufferPointer(rebasing: bytes[start...])
        guard case .complete = inner.parse(text, isFinal: true) else { return nil }
        return inner.withView(over: text) { Self.facts($0, 0) }
      }
    default: return nil
    }
  }

  private static func facts(_ view: JSONView, _ object: Int) -> BodyFacts {
    if let error = view.member(object, "error") {
      return fcmError(view, error)
    }
    var facts = BodyFacts()
    if let reason = view.member(object, "reason"), let text = view.stringValue(reason) {
      facts.reason = text.isEmpty ? nil : text
      facts.vendor = .apns
    }
    if let timestamp = view.member(object, "timestamp") {
      facts.timestamp = AnswerTimestamp(view, timestamp)
    }
    return facts
  }

  private func fcmError(_ view: JSONView, _ error: Int) -> BodyFacts { Self.fcmError(view, error) }

  /// FCM's error object: `code` (the HTTP status), `status` (the google.rpc code), `message`,
  /// and `details`, whose FcmError's `errorCode` is the reason (else `status` is).
  private static func fcmError(_ view: JSONView, _ error: Int) -> BodyFacts {
    var facts = BodyFacts()
    facts.vendor = .fcm
    guard view.kind(error) == .object else {
      // The legacy API's `"error": "NotRegistered"`: a reason all the same.
      facts.reason = view.stringValue(error)
      return facts
    }
    if let code = view.member(error, "code"), let status = view.integer(code),
      (100...599).contains(status)
    {
      facts.status = Int(status)
    }
    if let message = view.member(error, "message") { facts.message = view.stringValue(message) }
    if let status = view.member(error, "status") { facts.reason = view.stringValue(status) }
    if let details = view.member(error, "details"), view.kind(details) == .array {
      view.forEachElement(of: details) { detail in
        if let code = view.member(detail, "errorCode"), let name = view.stringValue(code) {
          facts.reason = name
        }
      }
    }
    if facts.reason?.isEmpty == true { facts.reason = nil }
    return facts
  }

  // MARK: - Values

  private func status(_ view: JSONView, _ index: Int, required: Bool) throws(RecordProblem)
    -> Int?
  {
    guard index != 0 else {
      if required {
        throw RecordProblem(
          code: "MissingStatus", message: "the response has no HTTP 'status'", offset: 0)
      }
      return nil
    }
    var value = view.integer(index)
    if value == nil, let text = view.stringValue(index), text.utf8.count == 3 {
      value = Int64(text)
    }
    guard let status = value, (100...599).contains(status) else {
      throw RecordProblem(
        code: "BadStatus",
        message: "'status' must be an HTTP status from 100 to 599, not \(quoted(view, index))",
        offset: offset(view, index))
    }
    return Int(status)
  }

  /// The value of header `name` (lowercase) of the headers object at `headers`, compared
  /// without case as HTTP's names are.
  private func header(_ view: JSONView, _ headers: Int, _ name: String) -> Int? {
    guard headers != 0, view.kind(headers) == .object else { return nil }
    var found: Int?
    view.forEachMember(of: headers) { key, value in
      if found == nil && view.rawString(key).count == name.utf8.count
        && view.string(key).lowercased() == name
      {
        found = value
      }
    }
    return found
  }

  private func setToken(_ view: JSONView, _ index: Int, into r: inout Response) {
    guard view.kind(index) == .string else { return }
    r.token = view.raw(index)
    r.tokenIndex = index
  }

  private func setRequestID(_ view: JSONView, _ index: Int, into r: inout Response) {
    guard view.kind(index) == .string else { return }
    r.requestID = view.raw(index)
    r.requestIDIndex = index
  }

  private func offset(_ view: JSONView, _ index: Int) -> Int { Int(view.tokens[index].start) }

  /// The value at `index` for a message: its JSON text, cut at 40 bytes, in single quotes.
  private func quoted(_ view: JSONView, _ index: Int) -> String {
    let raw = view.raw(index)
    let cut = raw.count > 40 ? 40 : raw.count
    var end = cut
    while end > 0 && end < raw.count && raw[end] & 0xC0 == 0x80 { end -= 1 }
    let text = String(decoding: UnsafeRawBufferPointer(rebasing: raw[..<end]), as: UTF8.self)
    return "'\(text)\(end < raw.count ? "..." : "")'"
  }
}
