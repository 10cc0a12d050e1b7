import Foundation
import TestSupport
import Testing

/// `notif-responses --prune` keeps the sweeps' promise to lose nothing (SweepSafetyTests): a
/// token file pruned in place and killed at many points holds, with its archive, every token
/// exactly once once the next prune has recovered it.
@Suite(.serialized) struct PruneSafetyTests {
  static let now = "2026-11-26T10:00:00Z"
  static let count = 6_000

  static func token(_ number: Int) -> String { String(format: "tok%06d", number) }

  /// The token file: one JSON object a token, with what a sender keeps beside it.
  static func tokenFile() -> Data {
    Data(
      (0..<count).map {
        #"{"token":"\#(token($0))","user":\#($0),"registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
      }.joined().utf8)
  }

  /// APNs's answers: every third token unregistered, the others delivered.
  static func responses() -> Data {
    Data(
      (0..<count).map { number in
        number % 3 == 0
          ? #"{"status":410,"token":"\#(token(number))","body":{"reason":"Unregistered","timestamp":1764140000000}}"#
            + "\n"
          : #"{"status":200,"token":"\#(token(number))","apns-id":"a\#(number)"}"# + "\n"
      }.joined().utf8)
  }

  /// The tokens of the complete, valid JSON lines of a file, and whether every line was one.
  static func tokens(_ url: URL) -> (tokens: [String], allValid: Bool) {
    guard let data = try? Data(contentsOf: url) else { return ([], true) }
    var tokens: [String] = []
    var allValid = true
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
        let token = object["token"] as? String
      else {
        allValid = false
        continue
      }
      tokens.append(token)
    }
    return (tokens, allValid)
  }

  static let arguments = [
    "--now", now, "--prune", "tokens.ndjson", "--archive", "pruned.ndjson", "responses.ndjson",
  ]

  /// Starts notif-responses in `folder`, its output and diagnostics discarded.
  static func start(in folder: URL, arguments: [String] = arguments) throws -> Process {
    let process = Process()
    process.executableURL = Binaries.url("notif-responses")
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = SweepSafetyTests.environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  @Test(.slow) func killedAtManyPointsLosesNoTokenAndTheNextPruneFinishes() throws {
    try SweepSafetyTests.withFolder { folder in
      let original = Self.tokenFile()
      let all = Set((0..<Self.count).map(Self.token))
      let pruned = Set((0..<Self.count).filter { $0 % 3 == 0 }.map(Self.token))
      let file = folder.appendingPathComponent("tokens.ndjson")
      let archive = folder.appendingPathComponent("pruned.ndjson")
      try Self.responses().write(to: folder.appendingPathComponent("responses.ndjson"))
      try original.write(to: file)
      let started = Date()
      let calibration = try Binaries.run(
        "notif-responses", Self.arguments, in: folder, environment: SweepSafetyTests.environment)
      #expect(calibration.status == 0)
      #expect(Set(Self.tokens(archive).tokens) == pruned)
      let duration = max(Date().timeIntervalSince(started), 0.01)
      var killedBeforeTheEnd = 0
      for run in 0..<60 {
        try? FileManager.default.removeItem(at: archive)
        try original.write(to: file)
        let process = try Self.start(in: folder)
        usleep(UInt32(duration * 1e6 * 1.1 * Double(run) / 60))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { killedBeforeTheEnd += 1 }

        let (kept, keptValid) = Self.tokens(file)
        #expect(keptValid, "run \(run): the token file has a line that does not parse")
        #expect(Set(kept).count == kept.count, "run \(run): a token twice in the file")
        let lost = all.subtracting(kept).subtracting(Self.tokens(archive).tokens)
        #expect(lost.isEmpty, "run \(run): lost \(lost.sorted().prefix(5))")

        let next = try Binaries.run(
          "notif-responses", Self.arguments, in: folder, environment: SweepSafetyTests.environment)
        #expect(next.status == 0, "run \(run): \(String(decoding: next.stderr, as: UTF8.self))")
        let after = Self.tokens(file)
        let afterArchive = Self.tokens(archive)
        #expect(after.allValid && afterArchive.allValid, "run \(run): a line does not parse")
        #expect(Set(after.tokens) == all.subtracting(pruned), "run \(run): wrong tokens kept")
        #expect(after.tokens.count + afterArchive.tokens.count == Self.count, "run \(run)")
        #expect(Set(afterArchive.tokens) == pruned, "run \(run): wrong tokens archived")
        #expect(SweepSafetyTests.leftovers(folder).isEmpty, "run \(run): left files behind")
      }
      #expect(killedBeforeTheEnd >= 15, "\(killedBeforeTheEnd) of 60 kills hit a run")
    }
  }

  @Test func aSecondPruneExits75() throws {
    try SweepSafetyTests.withFolder { folder in
      try Self.tokenFile().write(to: folder.appendingPathComponent("tokens.ndjson"))
      try Self.responses().write(to: folder.appendingPathComponent("responses.ndjson"))
      let lock = open(
        folder.appendingPathComponent("tokens.ndjson.lock").path, O_CREAT | O_RDWR, 0o644)
      defer { close(lock) }
      #expect(flock(lock, LOCK_EX) == 0)
      let outcome = try Binaries.run(
        "notif-responses", Self.arguments, in: folder, environment: SweepSafetyTests.environment)
      #expect(outcome.status == 75)
      #expect(
        try Data(contentsOf: folder.appendingPathComponent("tokens.ndjson")) == Self.tokenFile())
    }
  }
}
