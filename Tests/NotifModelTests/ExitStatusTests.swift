import NotifModel
import Testing

@testable import NotifModel

@Suite struct ExitStatusTests {
  @Test func statusesHaveTheDocumentedValues() {
    #expect(ExitStatus.success.rawValue == 0)
    #expect(ExitStatus.rejected.rawValue == 1)
    #expect(ExitStatus.failure.rawValue == 2)
    #expect(ExitStatus.locked.rawValue == 75)
  }

  @Test func theWorstStatusWins() {
    #expect([ExitStatus.success, .rejected, .failure, .locked].max() == .failure)
    #expect([ExitStatus.success, .rejected, .locked].max() == .locked)
    #expect(max(ExitStatus.success, .rejected) == .rejected)
  }
}
