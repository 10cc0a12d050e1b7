import NotifJSON
import NotifModel
import Testing

@testable import notif_responses

/// The decision is a pure function of the service, the status and the reason, looked up
/// status first (`ResponseTable.row`): checked over every status from 100 to 599, every reason
/// the table names and reasons it does not, for every service.
@Suite struct DecisionTableTests {
  static let table = ResponseTable()
  /// The services whose answers have an HTTP status (Expo's tickets and receipts have none:
  /// `answersWithoutAStatusNameARow`).
  static let services: [ResponseService] = [.apns, .fcm, .webpush, .sns]

  /// Every reason the table names, and some it does not: unknown, misspelt, padded, empty.
  static let reasons: [String?] = {
    var names = Set<String>()
    for row in ResponseRule.table {
      if case .named(let reason) = row.reason { names.insert(reason) }
    }
    return [nil, "SomethingNew", " Unregistered", "unregistered", "BadDeviceToken ", ""]
      + names.sorted().map { Optional($0) }
  }()

  /// The statuses at which each service documents that a token is gone.
  static let pruneStatuses: [ResponseService: Set<Int>] = [
    .apns: [400, 410], .fcm: [404], .webpush: [404, 410], .expo: [], .sns: [],
  ]

  @Test(arguments: DecisionTableTests.services)
  func everyAnswerNamesARowAndTheStatusComesFirst(_ service: ResponseService) {
    let table = Self.table
    for status in 100...599 {
      for reason in Self.reasons {
        let row = table.rows[table.row(service, status: status, reason: reason)]
        let what = "\(service.name) \(status) \(reason ?? "-") -> \(row.id)"
        #expect(row.service == service || row.service == .any, "\(what): another service's row")
        switch row.status {
        case .exact(let exact): #expect(exact == status, "\(what): a row of another status")
        case .hundreds(let digit): #expect(digit == status / 100, "\(what): another class")
        case .none: #expect(status >= 400, "\(what): a reason read against a success")
        }
        if (200...299).contains(status) {
          #expect(row.action == .delivered, "\(what): a success is a delivery")
        }
        if row.action == .pruneToken {
          #expect(
            Self.pruneStatuses[service, default: []].contains(status),
            "\(what): a prune at a status the vendor does not give for one")
        }
        if status < 200 || (300...399).contains(status) {
          #expect(table.isNotFinal(table.row(service, status: status, reason: reason)), "\(what)")
          #expect(row.action == .giveUp, "\(what)")
        }
      }
    }
  }

  @Test func answersWithoutAStatusNameARow() {
    let table = Self.table
    for reason in Self.reasons {
      let row = table.rows[table.row(.expo, status: nil, reason: reason)]
      #expect(row.service == .expo)
      #expect((reason == nil) == (row.action == .delivered), "expo \(reason ?? "-")")
    }
  }

  @Test(arguments: [
    (ResponseService.apns, 200, Optional("Unregistered"), "apns-200-delivered"),
    (.apns, 500, "BadDeviceToken", "apns-other-5xx"),
    (.apns, 413, "SomethingNew", "apns-413-other"),
    (.apns, 429, " TooManyRequests", "apns-429-other"),
    (.apns, 410, "unregistered", "apns-410-other"),
    (.apns, 400, "BadDeviceToken", "apns-bad-device-token"),
    (.apns, 410, "BadDeviceToken", "apns-410-other"),
    (.fcm, 429, "RESOURCE_EXHAUSTED", "fcm-429-other"),
    (.fcm, 404, "NOT_FOUND", "fcm-404-other"),
    (.fcm, 500, "UNSPECIFIED_ERROR", "fcm-unspecified-error"),
    (.fcm, 200, "UNSPECIFIED_ERROR", "fcm-200-delivered"),
    (.fcm, 404, "UNREGISTERED", "fcm-unregistered"),
    (.webpush, 413, "x", "webpush-413-too-large"),
    (.sns, 503, nil, "sns-other-5xx"),
    (.apns, 204, nil, "any-2xx-delivered"),
    (.webpush, 101, nil, "any-1xx-not-final"),
    (.fcm, 302, "UNREGISTERED", "any-3xx-not-final"),
  ])
  func readsAReasonOnlyUnderItsStatus(
    _ service: ResponseService, _ status: Int, _ reason: String?, _ id: String
  ) {
    let table = Self.table
    #expect(table.rows[table.row(service, status: status, reason: reason)].id == id)
  }
}
