/// The table of answers (`ResponseRule.table`) indexed for the one question notif-responses
/// asks of every answer: which row a service's status and reason fall under.
///
/// The status comes first: a reason counts only under a status the vendor gives it, never
/// against it (`200` with `Unregistered` is a delivery, `500` with `BadDeviceToken` a server
/// error). `row(_:status:reason:)` is a pure function of the service, the status and the
/// reason, and every answer gets a row: the rows a lookup never returns, which apply on
/// conditions the reader checks (`reregistered`, `unreadableTimestamp`,
/// `invalidRegistrationToken`, `pastMaxAttempts`), are found by id.
struct ResponseTable: Sendable {
  let rows = ResponseRule.table
  // Each table has one entry per service, by `ResponseService.rawValue`: arrays, not
  // dictionaries keyed by the service, which made the runtime look up the service's Hashable
  // conformance at start (0.9 M of the 1.16 M instructions on empty input).
  /// The rows of a status and a reason: `BadDeviceToken` under 400.
  private var byStatusAndReason = Self.perService([Int: [String: Int]]())
  /// The rows of a reason the vendor gives no status (FCM's `UNSPECIFIED_ERROR`, Expo's).
  private var byReasonAlone = Self.perService([String: Int]())
  /// The rows of a status whatever its reason, or with a reason no row of it names.
  private var byStatus = Self.perService([Int: Int]())
  /// The rows of a class of statuses (4 for 4xx) that no row of the service names.
  private var byClass = Self.perService([Int: Int]())
  /// Expo's tickets and receipts, which have no HTTP status: without a reason, and with one
  /// no row names.
  private var withoutStatus = Self.perService((none: Int?.none, other: Int?.none))
  /// APNs's 410 `Unregistered` for a token registered again after APNs's timestamp.
  let reregistered: Int
  /// APNs's 410 whose `timestamp` cannot be read: the token is kept.
  let unreadableTimestamp: Int
  /// FCM's `INVALID_ARGUMENT` about the registration token, not the message.
  let invalidRegistrationToken: Int
  /// A retry past `--max-attempts`.
  let pastMaxAttempts: Int

  init() {
    var firstOfID: [String: Int] = [:]
    for (index, row) in rows.enumerated() {
      if firstOfID[row.id] == nil { firstOfID[row.id] = index }
      let service = Int(row.service.rawValue)
      switch (row.status, row.reason) {
      case (.none, .none): withoutStatus[service].none = index
      case (.none, .other): withoutStatus[service].other = index
      case (.none, .named(let reason)):
        if byReasonAlone[service][reason] == nil { byReasonAlone[service][reason] = index }
      case (.exact(let status), .named(let reason)):
        if byStatusAndReason[service][status]?[reason] == nil {
          byStatusAndReason[service][status, default: [:]][reason] = index
        }
      case (.exact(let status), _): byStatus[service][status] = index
      case (.hundreds(let digit), _): byClass[service][digit] = index
      }
    }
    // The generated table has these rows (ResponseTableTests); 0 would only mislabel.
    reregistered = firstOfID["apns-unregistered-reregistered"] ?? 0
    unreadableTimestamp = firstOfID["apns-unregistered-unreadable-timestamp"] ?? 0
    invalidRegistrationToken = firstOfID["fcm-invalid-registration-token"] ?? 0
    pastMaxAttempts = firstOfID["any-past-max-attempts"] ?? 0
  }

  /// The row of `service`'s answer with `status` (nil: the answer has none, as Expo's) and
  /// `reason`, looked up status first:
  ///
  /// 1. the row of this status and this reason;
  /// 2. for an error status (4xx, 5xx) or none, the row of this reason where the vendor gives
  ///    it no status;
  /// 3. the row of this status, whatever the reason (an unknown or misspelt reason takes it);
  /// 4. the row of the status's class for the service, then notif-responses's own row of the
  ///    class (`any`: a success the vendor does not document is a delivery; 1xx and 3xx are no
  ///    final answer of any service).
  ///
  /// An answer with no status and no row of its own (only Expo's have none) takes the
  /// service's row of other 4xx answers.
  func row(_ service: ResponseService, status: Int?, reason: String?) -> Int {
    let any = Int(ResponseService.any.rawValue)
    let service = Int(service.rawValue)
    if let reason, let status, let row = byStatusAndReason[service][status]?[reason] {
      return row
    }
    if let reason, status.map({ $0 >= 400 }) ?? true, let row = byReasonAlone[service][reason] {
      return row
    }
    guard let status else {
      let rows = withoutStatus[service]
      if let row = reason == nil ? rows.none : rows.other { return row }
      return byClass[service][4] ?? byClass[any][4] ?? pastMaxAttempts
    }
    if let row = byStatus[service][status] { return row }
    if let row = byClass[service][status / 100] { return row }
    if let row = byClass[any][status / 100] { return row }
    return byClass[service][4] ?? pastMaxAttempts
  }

  /// One `empty` for each service, by `rawValue`.
  private static func perService<Table>(_ empty: Table) -> [Table] {
    Array(repeating: empty, count: ResponseService.allCases.count)
  }

  /// Whether the row is for a status no service sends as its final answer (1xx, 3xx): the
  /// record is written, with a warning that the sender logged an interim answer.
  func isNotFinal(_ row: Int) -> Bool {
    guard rows[row].service == .any, case .hundreds(let digit) = rows[row].status else {
      return false
    }
    return digit == 1 || digit == 3
  }
}
