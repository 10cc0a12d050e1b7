import Foundation
import NotifCLI
import NotifJSON
import NotifModel
import TestSupport
import Testing

@testable import NotifModel
@testable import NotifSweep

@Suite struct StoreSessionTests {
  @Test func aMissingStoreIsAnErrorAndGetsNoLockFile() throws {
    let dir = try makeScratchFolder("notif-shared")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    #expect(
      throws: StoreLockError.system(
        SystemError(path: store, message: "cannot open the store: no such file or directory"))
    ) {
      _ = try StoreSession(store: store, wait: 0, recover: true, monotonicClock: { 0 }) { _ in }
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
  }

  @Test func onlyANameThatIsNotThereIsMissing() throws {
    let dir = try makeScratchFolder("notif-shared")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    #expect(StoreSession.isMissing(store))
    #expect(StoreSession.isMissing(dir.appendingPathComponent("no-such-folder/inbox.ndjson").path))
    try Data().write(to: URL(fileURLWithPath: store))
    #expect(!StoreSession.isMissing(store))
    #expect(!StoreSession.isMissing(dir.path))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["inbox.ndjson"])
  }

  @Test func aHeldLockIsHeldAndDroppingTheSessionReleasesIt() throws {
    let dir = try makeScratchFolder("notif-shared")
    defer { try? FileManager.default.removeItem(at: dir) }
    let store = dir.appendingPathComponent("inbox.ndjson").path
    try Data("a\n".utf8).write(to: URL(fileURLWithPath: store))
    do {
      let session = try StoreSession(
        store: store, wait: 0, recover: true, monotonicClock: { 0 }
      ) { warning in Issue.record("unexpected warning \(warning)") }
      #expect(session.status.st_size == 2)
      #expect(throws: StoreLockError.held(path: store + ".lock")) {
        _ = try StoreSession(store: store, wait: 0, recover: false, monotonicClock: { 0 }) { _ in
        }
      }
    }
    _ = try StoreSession(store: store, wait: 0, recover: false, monotonicClock: { 0 }) { _ in }
  }

  @Test func theLockedDiagnosticIsTheDocumentedOne() {
    let text = DiagnosticFormat.text.render(
      StoreSession.lockedDiagnostic(lockPath: "inbox.ndjson.lock"), program: "notif-expire")
    #expect(
      text
        == "notif-expire: inbox.ndjson.lock: error: another sweep or appender holds the lock [Locked]\n"
    )
  }
}

@Suite struct SweepOptionsTests {
  static func options(_ arguments: [String], terminal: Bool = false) throws(UsageError)
    -> SweepOptions
  {
    var environment = ToolEnvironment()
    environment.stderrIsTerminal = terminal
    return try SweepOptions(
      try OptionScanner.scan(arguments, OptionTable.specs(for: "notif-expire")),
      storeVerb: "sweeps", environment: environment)
  }

  @Test(arguments: [
    (["--wait", "1"], "--wait needs --store: only a store is locked"),
    (["--missing-ok"], "--missing-ok needs --store: only a store is swept in place"),
    (["--store", "s", "--wait", "1d"], "--wait: '1d' is not a number of seconds from 0 to 86400"),
    (
      ["--store", "s", "--wait", "86401"],
      "--wait: '86401' is not a number of seconds from 0 to 86400"
    ),
    (["--store", "s", "f"], "--store sweeps one file in place: give no file operands with it"),
    (["--store", ""], "--store: the file name is empty"),
    (["--store", "", "--wait", "x", "f"], "--store: the file name is empty"),
  ])
  func mistakesAreUsageErrors(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { _ = try Self.options(arguments) }
  }

  @Test func readsEveryOption() throws {
    let options = try Self.options([
      "-n", "--archive", "a", "--store", "s", "--missing-ok", "--wait", "2.5", "--no-progress",
      "--progress",
    ])
    #expect(options.dryRun)
    #expect(options.missingOK)
    #expect(try !Self.options(["--store", "s"]).missingOK)
    #expect(options.archive == "a")
    #expect(options.store == "s")
    #expect(options.wait == 2.5)
    #expect(options.reporting.progress)
    #expect(try Self.options(["f", "-"]).files == ["f", "-"])
    #expect(try Self.options([]).files == ["-"])
    #expect(try Self.options([], terminal: true).reporting.progress)
    #expect(try Self.options([], terminal: true).verbose)
    #expect(try !Self.options(["--quiet"], terminal: true).reporting.progress)
    #expect(try !Self.options(["--quiet"], terminal: true).verbose)
    #expect(try Self.options(["--quiet", "--verbose"], terminal: true).verbose)
    #expect(try !Self.options(["--no-progress"], terminal: true).reporting.progress)
  }
}
