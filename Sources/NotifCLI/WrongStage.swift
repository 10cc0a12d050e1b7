import NotifJSON
import NotifModel

/// What a JSON text is in the pipeline, told by its keys: what one stage reads or writes. A
/// tool given another stage's texts (payloads piped into notif-group, records into
/// notif-summarize) says so once per input (`WrongStageTally`), naming the stage to run,
/// instead of one error per line.
///
/// The tools ask only about a text they could not read (or, notif-parse, one with findings):
/// the texts they read pay nothing for it.
public enum StageText: Int, Sendable, CaseIterable {
  /// What notif-responses reads: a push service's answer (APNs, FCM, Web Push, Expo, SNS).
  case pushResponse
  /// What notif-parse reads: an APNs payload, an FCM, Web Push or SNS message, an envelope.
  case pushPayload
  /// What notif-parse writes: a notification record (notif(5)).
  case record
  /// What notif-group writes.
  case groupObject
  /// What notif-digest writes.
  case digestObject

  /// The text, with its article, as a diagnostic names it.
  public var phrase: String {
    switch self {
    case .pushResponse: return "a push service's answer"
    case .pushPayload: return "a push payload"
    case .record: return "a notification record"
    case .groupObject: return "a group object"
    case .digestObject: return "a digest object"
    }
  }

  /// What reads texts of this kind, as the advice of a tool that does not: notif-responses
  /// reads answers, notif-show shows digest objects; nil for the others, which each tool
  /// advises on itself.
  public func readerAdvice(file: String) -> String? {
    switch self {
    case .pushResponse:
      return "notif-responses reads push services' answers "
        + "(\(WrongStageTally.pipeline(file, "notif-responses")))"
    case .digestObject:
      return "notif-show shows digest objects (\(WrongStageTally.pipeline(file, "notif-show")))"
    case .pushPayload, .record, .groupObject:
      return nil
    }
  }

  /// What the object at the root of `view` is, or nil when its keys do not say.
  ///
  /// Conservative: each kind is told by keys no other kind has (a record by `id` and
  /// `created_at`, a group object by `leading`, a digest object by `digest_id`), an answer by
  /// a status beside a vendor's keys, a payload by the keys notif-parse tells a format by
  /// (`aps`, `message`, `notification`, ...).
  ///
  /// - Complexity: O(k) in the keys of the root object.
  public static func kind(of view: JSONView, root: Int = 0) -> StageText? {
    guard view.kind(root) == .object else { return nil }
    if view.member(root, "leading") != nil { return .groupObject }
    if view.member(root, "digest_id") != nil { return .digestObject }
    let createdAt = view.member(root, "created_at") != nil
    if createdAt && view.member(root, "id") != nil { return .record }
    if isResponse(view, root) { return .pushResponse }
    if !createdAt && isPayload(view, root) { return .pushPayload }
    return nil
  }

  /// Whether the object at `root` is a push service's answer, in one of the shapes
  /// notif-responses reads (notif(5), "Responses").
  static func isResponse(_ view: JSONView, _ root: Int) -> Bool {
    if view.member(root, "aps") != nil { return false }
    if let message = view.member(root, "message"), view.kind(message) == .object { return false }
    // Amazon SNS's delivery status log.
    if let notification = view.member(root, "notification"), view.kind(notification) == .object,
      let delivery = view.member(root, "delivery"), view.kind(delivery) == .object
    {
      return true
    }
    let status = view.member(root, "status") ?? view.member(root, ":status")
    if let status, let code = view.integer(status), (100...599).contains(code) {
      // An HTTP status beside what an APNs, FCM or Web Push answer, or the sender, logs.
      for key: StaticString in [
        "apns-id", "reason", "body", "headers", "error", "endpoint", "token", "request_id",
        "service",
      ] where view.member(root, key) != nil {
        return true
      }
      return false
    }
    // An Expo ticket or receipt, or the `data` of a send or of a receipts request.
    if let status, isExpoStatus(view, status) {
      return view.member(root, "id") != nil || view.member(root, "details") != nil
        || view.member(root, "message") != nil
    }
    if let data = view.member(root, "data"), view.tokens[root].count == 1 {
      var first: Int? = nil
      switch view.kind(data) {
      case .array: view.forEachElement(of: data) { if first == nil { first = $0 } }
      case .object: view.forEachMember(of: data) { _, value in if first == nil { first = value } }
      default: break
      }
      if let first, view.kind(first) == .object, let inner = view.member(first, "status") {
        return isExpoStatus(view, inner)
      }
    }
    // An FCM error body.
    if let error = view.member(root, "error"), view.kind(error) == .object,
      let code = view.member(error, "code"), view.integer(code) != nil,
      view.member(error, "status") != nil
    {
      return true
    }
    return false
  }

  private static func isExpoStatus(_ view: JSONView, _ index: Int) -> Bool {
    guard let text = view.stringValue(index) else { return false }
    return text == "ok" || text == "error"
  }

  /// Whether the object at `root` is a push message notif-parse reads, by the keys it tells
  /// a format by (notif(5), "Inputs"): not every payload (a bare APNs payload with no `aps`
  /// is any object), only those that say so.
  static func isPayload(_ view: JSONView, _ root: Int) -> Bool {
    if let aps = view.member(root, "aps"), view.kind(aps) == .object { return true }
    for key: StaticString in ["message", "notification"] {
      if let value = view.member(root, key), view.kind(value) == .object { return true }
    }
    // An envelope, whose payload has the `aps` (a record keeps its payload so too, beside
    // its `id`).
    if view.member(root, "id") == nil, let payload = view.member(root, "payload"),
      view.kind(payload) == .object, view.member(payload, "aps") != nil
    {
      return true
    }
    for key: StaticString in [
      "web_push", "registration_ids", "APNS", "APNS_SANDBOX", "GCM", "FCM",
    ] where view.member(root, key) != nil {
      return true
    }
    return view.member(root, "Type") != nil && view.member(root, "Message") != nil
  }
}

/// The texts of one input that are another stage's (`StageText`): for each kind, how many and
/// the line of the first. Counted as they are read, reported once at the end of the input, by
/// the first one's line: one diagnostic for a file of payloads piped into notif-group, not one
/// per line.
///
/// Workers that read a file in chunks count each chunk; the chunks' tallies are added up, and
/// the first line is the file's first whatever the order.
public struct WrongStageTally: Sendable, Equatable {
  /// The number of texts of each kind, by `rawValue`.
  public private(set) var counts = [Int](repeating: 0, count: StageText.allCases.count)
  /// The line of the first text of each kind, by `rawValue` (0: none).
  public private(set) var firstLines = [Int](repeating: 0, count: StageText.allCases.count)

  /// Nothing counted yet.
  public init() {}

  /// The code of the diagnostic.
  public static let code = "WrongStage"

  /// Whether nothing was counted.
  public var isEmpty: Bool { counts.allSatisfy { $0 == 0 } }

  /// The number of texts counted.
  public var total: Int { counts.reduce(0, &+) }

  /// Counts a text of `kind` at `line`.
  public mutating func add(_ kind: StageText, line: Int) {
    if counts[kind.rawValue] == 0 { firstLines[kind.rawValue] = line }
    counts[kind.rawValue] &+= 1
  }

  /// Adds what `other` counted in the same input, before or after what this one counted.
  public mutating func add(_ other: WrongStageTally) {
    for index in counts.indices where other.counts[index] > 0 {
      let line = other.firstLines[index]
      firstLines[index] = counts[index] == 0 ? line : min(firstLines[index], line)
      counts[index] &+= other.counts[index]
    }
  }

  /// The diagnostics for `file`, one per kind counted, in the order of their first lines:
  /// "a push payload, not a notification record, and 41 more texts like it: run notif-parse
  /// first (notif-parse 'in.ndjson' | notif-group)". `wanted` is what the tool reads, with its
  /// article; `advice` says, for each kind, what to run (`pipeline` helps write it); a kind it
  /// has none for is not reported.
  public func diagnostics(
    file: String, severity: Severity, wanted: String, advice: (StageText) -> String?
  ) -> [Diagnostic] {
    StageText.allCases.filter { counts[$0.rawValue] > 0 }
      .sorted { firstLines[$0.rawValue] < firstLines[$1.rawValue] }
      .compactMap { kind in
        guard let advice = advice(kind) else { return nil }
        let more = counts[kind.rawValue] - 1
        let others =
          more == 0
          ? "" : more == 1 ? ", and 1 more text like it" : ", and \(more) more texts like it"
        return Diagnostic(
          severity, Self.code, "\(kind.phrase), not \(wanted)\(others): \(advice)", file: file,
          line: firstLines[kind.rawValue])
      }
  }

  /// The command line that reads `file` with `first` and pipes it through `then`:
  /// `notif-parse 'in.ndjson' | notif-group`, or for the standard input `notif-parse |
  /// notif-group`.
  public static func pipeline(_ file: String, _ first: String, _ then: String...) -> String {
    let reading = file == "<stdin>" ? first : "\(first) '\(file)'"
    return ([reading] + then).joined(separator: " | ")
  }
}
