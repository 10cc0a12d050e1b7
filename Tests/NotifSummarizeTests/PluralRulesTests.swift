import Foundation
import Testing

@testable import notif_summarize

struct PluralRulesTests {
  @Test func placeholder() {}
}
