import TestSupport
import Testing

/// The switch `make test` and `make check` turn (`SlowTests`, in TestSupport): slow tests run
/// unless told to skip, and CI refuses to skip them.
@Suite struct SlowTestsTests {
  @Test(arguments: [
    ([:], true),
    (["NOTIF_SLOW_TESTS": "run"], true),
    (["NOTIF_SLOW_TESTS": ""], true),
    (["NOTIF_SLOW_TESTS": "skip"], false),
    (["NOTIF_SLOW_TESTS": "skip", "CI": ""], false),
    (["NOTIF_SLOW_TESTS": "run", "CI": "true"], true),
  ])
  func runUnlessToldToSkip(_ environment: [String: String], _ runs: Bool) throws {
    #expect(try SlowTests.enabled(environment) == runs)
  }

  @Test func ciRefusesToSkip() {
    #expect(throws: SlowTests.RefusedInCI.self) {
      try SlowTests.enabled(["NOTIF_SLOW_TESTS": "skip", "CI": "true"])
    }
  }

  @Test func anotherSettingIsAnError() {
    #expect(throws: SlowTests.UnknownSetting.self) {
      try SlowTests.enabled(["NOTIF_SLOW_TESTS": "1"])
    }
  }
}
