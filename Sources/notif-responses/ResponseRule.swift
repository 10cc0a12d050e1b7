/// What to do about one answer of a push service.
enum ResponseAction: UInt8, CaseIterable, Sendable {
  case delivered, pruneToken, retry, slowDown, fixPayload, fixTopic, fixCredentials, giveUp

  /// The name the record writes: `prune_token`.
  var name: StaticString {
    switch self {
    case .delivered: return "delivered"
    case .pruneToken: return "prune_token"
    case .retry: return "retry"
    case .slowDown: return "slow_down"
    case .fixPayload: return "fix_payload"
    case .fixTopic: return "fix_topic"
    case .fixCredentials: return "fix_credentials"
    case .giveUp: return "give_up"
    }
  }

  /// Whether the request is to be sent again, at `retry_at`.
  var retries: Bool { self == .retry || self == .slowDown }
}

/// The push service an answer comes from, as the record's `source` names it.
enum ResponseService: UInt8, CaseIterable, Sendable {
  case apns, fcm, webpush, expo, sns
  /// notif-responses's own rows (a retry past `--max-attempts`).
  case any

  var name: StaticString {
    switch self {
    case .apns: return "apns"
    case .fcm: return "fcm"
    case .webpush: return "webpush"
    case .expo: return "expo"
    case .sns: return "sns"
    case .any: return "any"
    }
  }
}

/// One row of the table of answers, rules/responses.tsv (notif-rules(7), RESPONSES): which
/// answers it is about, what to do, and the vendor's words for why.
struct ResponseRule: Sendable {
  /// The HTTP status a row is about.
  enum Status: Equatable, Sendable {
    /// The answer has none (an Expo ticket).
    case none
    /// This status.
    case exact(Int)
    /// Every status of this class (4 for 4xx) that no row of the service names.
    case hundreds(Int)
  }

  /// The vendor's reason a row is about.
  enum Reason: Equatable, Sendable {
    /// The answer has none (a success, a Web Push status).
    case none
    /// Any reason no row of the service names.
    case other
    /// This reason, as the vendor spells it.
    case named(String)
  }

  /// The row's id, the record's `rule`.
  let id: String
  /// The service whose answer it is (`any`: notif-responses's own row).
  let service: ResponseService
  /// The status the row is about: one, a class, or none.
  let status: Status
  /// The reason the row is about: one, any other, or none.
  let reason: Reason
  /// What to do.
  let action: ResponseAction
  /// The vendor's words: the record's `why`.
  let why: String
}
