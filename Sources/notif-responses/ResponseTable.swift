/// The table of answers (`ResponseRule.table`) indexed for the questions notif-responses asks
/// of every answer: which row a service's status and reason fall under.
///
/// Lookups go by reason first (a vendor's reason names one answer whatever its status), then
/// by exact status, then by status class; an answer with no status (an Expo ticket) by whether
/// it has a reason. The rows a lookup never returns, which apply on conditions the reader
/// checks (`reregistered`, `invalidRegistrationToken`, `pastMaxAttempts`), come after the row
/// they refine and are found by id.
struct ResponseTable: Sendable {
  let rows = ResponseRule.table
  private var byReason: [ResponseService: [String: Int]] = [:]
  private var byStatus: [ResponseService: [Int: Int]] = [:]
  private var byClass: [ResponseService: [Int: Int]] = [:]
  private var withoutStatus: [ResponseService: (none: Int?, other: Int?)] = [:]
  /// APNs's 410 `Unregistered` for a token registered again after APNs's timestamp.
  let reregistered: Int
  /// FCM's `INVALID_ARGUMENT` about the registration token, not the message.
  let invalidRegistrationToken: Int
  /// A retry past `--max-attempts`.
  let pastMaxAttempts: Int

  init() {
    var firstOfID: [String: Int] = [:]
    for (index, row) in rows.enumerated() {
      if firstOfID[row.id] == nil { firstOfID[row.id] = index }
      switch (row.status, row.reason) {
      case (.none, .none): withoutStatus[row.service, default: (nil, nil)].none = index
      case (.none, .other): withoutStatus[row.service, default: (nil, nil)].other = index
      case (.hundreds(let digit), _): byClass[row.service, default: [:]][digit] = index
      case (.exact(let status), .none): byStatus[row.service, default: [:]][status] = index
      default: break
      }
      if case .named(let reason) = row.reason, byReason[row.service]?[reason] == nil {
        byReason[row.service, default: [:]][reason] = index
      }
    }
    // The generated table has these rows (ResponseTableTests); 0 would only mislabel.
    reregistered = firstOfID["apns-unregistered-reregistered"] ?? 0
    invalidRegistrationToken = firstOfID["fcm-invalid-registration-token"] ?? 0
    pastMaxAttempts = firstOfID["any-past-max-attempts"] ?? 0
  }

  /// The row of `service`'s answer with `status` and `reason`; nil when no row has it (a
  /// status outside every class the service's rows name).
  func row(_ service: ResponseService, status: Int?, reason: String?) -> Int? {
    if let reason, let row = byReason[service]?[reason] { return row }
    guard let status else {
      let rows = withoutStatus[service]
      return reason == nil ? rows?.none : rows?.other
    }
    if let row = byStatus[service]?[status] { return row }
    return byClass[service]?[status / 100]
  }
}
