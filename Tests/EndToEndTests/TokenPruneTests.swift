import Foundation
import TestSupport
import Testing

/// `notif-responses --prune` removes a token only when it is dead: the decision is taken from
/// the registrations as they are under the lock at the rewrite, the latest registration of a
/// token wins whatever the line order, every documented form of APNs's timestamp and of a
/// registration is read, and both forms of token file prune.
@Suite(.serialized) struct TokenPruneTests {
  static let now = "2026-12-01T00:00:00Z"
  static let token = String(repeating: "0", count: 54) + "1579be0228"

  /// APNs's 410 for `token` with this `timestamp` (JSON text); 2025-11-26 by default.
  static func unregistered(_ token: String, timestamp: String = "1764140000000") -> String {
    #"{"status":410,"apns-id":"6b1e2c3a-0000-4000-8000-000000000027","token":"\#(token)","#
      + #""body":{"reason":"Unregistered","timestamp":\#(timestamp)}}"# + "\n"
  }

  static func run(_ arguments: [String], in folder: URL, stdin: String) throws -> Outcome {
    let input = folder.appendingPathComponent("answers.ndjson")
    try Data(stdin.utf8).write(to: input)
    return try Binaries.run(
      "notif-responses", ["--now", now] + arguments, in: folder, stdin: input,
      environment: SweepSafetyTests.environment)
  }

  /// The token and registration time of each line of a token file of JSON lines.
  static func lines(_ url: URL) -> [(token: String, registeredAt: String)] {
    let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map { line in
      let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
      return (object?["token"] as? String ?? "", object?["registered_at"] as? String ?? "")
    }
  }

  static func text(_ folder: URL, _ name: String) -> String {
    (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
  }

  /// The finding: a 2026-11-20 registration before a 2025-01-01 one, and a 410 of 2025-11-26.
  @Test func theLatestRegistrationWinsWhateverTheLineOrder() throws {
    try SweepSafetyTests.withFolder { folder in
      let lines =
        #"{"token":"\#(Self.token)","registered_at":"2026-11-20T00:00:00Z"}"# + "\n"
        + #"{"token":"\#(Self.token)","registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
      try Data(lines.utf8).write(to: folder.appendingPathComponent("tok.ndjson"))
      let outcome = try Self.run(
        ["--tokens", "tok.ndjson", "--prune", "tok.ndjson"], in: folder,
        stdin: Self.unregistered(Self.token))
      #expect(outcome.status == 0)
      #expect(String(decoding: outcome.stdout, as: UTF8.self).contains(#""action":"give_up""#))
      #expect(Self.text(folder, "tok.ndjson") == lines)
      #expect(Self.text(folder, "tok.ndjson.pruned") == "")
    }
  }

  /// The token file alone decides too, without --tokens, from its lines as they are under the
  /// lock: the same two lines in the other order.
  @Test func thePruneReadsTheRegistrationsOfTheFileItPrunes() throws {
    try SweepSafetyTests.withFolder { folder in
      let lines =
        #"{"token":"\#(Self.token)","registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
        + #"{"token":"\#(Self.token)","registered_at":"2026-11-20T00:00:00Z"}"# + "\n"
        + #"{"token":"gone","registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
      try Data(lines.utf8).write(to: folder.appendingPathComponent("tok.ndjson"))
      let outcome = try Self.run(
        ["--prune", "tok.ndjson"], in: folder,
        stdin: Self.unregistered(Self.token) + Self.unregistered("gone"))
      #expect(outcome.status == 0)
      let kept = Self.text(folder, "tok.ndjson")
      #expect(kept.contains(Self.token) && !kept.contains("gone"))
      #expect(Self.text(folder, "tok.ndjson.pruned").contains(#""token":"gone""#))
      let stderr = String(decoding: outcome.stderr, as: UTF8.self)
      #expect(stderr.contains("kept 1 token the records say to prune"), "\(stderr)")
    }
  }

  /// The finding: a timestamp not written as a JSON integer was ignored and a token registered
  /// again was pruned.
  @Test(arguments: ["\"1764140000000\"", "1764140000000.0", "1.76414e12"])
  func readsEveryFormOfAPNsTimestamp(_ timestamp: String) throws {
    try SweepSafetyTests.withFolder { folder in
      let line = #"{"token":"\#(Self.token)","registered_at":"2026-11-20T00:00:00Z"}"# + "\n"
      try Data(line.utf8).write(to: folder.appendingPathComponent("tok.ndjson"))
      let outcome = try Self.run(
        ["--prune", "tok.ndjson"], in: folder,
        stdin: Self.unregistered(Self.token, timestamp: timestamp))
      #expect(outcome.status == 0)
      #expect(Self.text(folder, "tok.ndjson") == line)
    }
  }

  /// A timestamp that cannot be read keeps the token, and says so.
  @Test func anUnreadableTimestampKeepsTheToken() throws {
    try SweepSafetyTests.withFolder { folder in
      let line = #"{"token":"\#(Self.token)","registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
      try Data(line.utf8).write(to: folder.appendingPathComponent("tok.ndjson"))
      let outcome = try Self.run(
        ["--prune", "tok.ndjson"], in: folder,
        stdin: Self.unregistered(Self.token, timestamp: "\"last week\""))
      #expect(outcome.status == 0)
      #expect(Self.text(folder, "tok.ndjson") == line)
      #expect(String(decoding: outcome.stderr, as: UTF8.self).contains("[BadTimestamp]"))
    }
  }

  /// A registration time the prune cannot read keeps its token, and says so.
  @Test func aTokenWhoseRegistrationCannotBeReadIsKept() throws {
    try SweepSafetyTests.withFolder { folder in
      let lines =
        #"{"token":"\#(Self.token)","registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
        + #"{"token":"\#(Self.token)","registered_at":9300000000000000}"# + "\n"
      try Data(lines.utf8).write(to: folder.appendingPathComponent("tok.ndjson"))
      let outcome = try Self.run(
        ["--prune", "tok.ndjson"], in: folder, stdin: Self.unregistered(Self.token))
      #expect(outcome.status == 0)
      #expect(Self.text(folder, "tok.ndjson") == lines)
      let stderr = String(decoding: outcome.stderr, as: UTF8.self)
      #expect(stderr.contains("tok.ndjson:2: warning:"), "\(stderr)")
      #expect(stderr.contains("registration time that cannot be read"), "\(stderr)")
    }
  }

  /// The finding: `--prune` on a file of `token time` lines pruned nothing.
  @Test func theTokenAndTimeFormPrunes() throws {
    try SweepSafetyTests.withFolder { folder in
      try Data("old 1700000000\nnew 2026-12-01T06:00:00Z\nbare\nnot a token line\n".utf8).write(
        to: folder.appendingPathComponent("tok.txt"))
      let answers = ["old", "new", "bare"].map {
        #"{"service":"webpush","status":410,"endpoint":"\#($0)"}"# + "\n"
      }.joined()
      let dry = try Self.run(["--prune", "tok.txt", "--dry-run"], in: folder, stdin: answers)
      #expect(dry.status == 0)
      #expect(Self.text(folder, "tok.txt").hasPrefix("old 1700000000\n"))
      let shown = String(decoding: dry.stdout, as: UTF8.self)
      #expect(shown.contains(#"{"token":"old","registered_at":1700000000,"removed_at""#))
      let outcome = try Self.run(["--prune", "tok.txt"], in: folder, stdin: answers)
      #expect(outcome.status == 0)
      // `new` registered after the run's time is kept.
      #expect(Self.text(folder, "tok.txt") == "new 2026-12-01T06:00:00Z\nnot a token line\n")
      let archive = Self.text(folder, "tok.txt.pruned")
      #expect(archive.contains(#""token":"old""#) && archive.contains(#""token":"bare""#))
    }
  }

  /// The finding: a clash of files named `--store`, an option notif-responses does not have.
  @Test func clashesNameThePruneOption() throws {
    try SweepSafetyTests.withFolder { folder in
      try Data("a\n".utf8).write(to: folder.appendingPathComponent("tok.txt"))
      let clash = try Self.run(
        ["--prune", "tok.txt", "--archive", "./tok.txt"], in: folder, stdin: "")
      #expect(clash.status == 2)
      let stderr = String(decoding: clash.stderr, as: UTF8.self)
      #expect(stderr.contains("is the same file as --prune 'tok.txt'"), "\(stderr)")
      #expect(!stderr.contains("--store"), "\(stderr)")
      let dry = try Self.run(["--dry-run"], in: folder, stdin: "")
      #expect(dry.status == 2)
      #expect(String(decoding: dry.stderr, as: UTF8.self).contains("--dry-run needs --prune"))
    }
  }

  /// The finding: `--tokens` was read once at the start and the prune ran on that snapshot.
  /// Here the answer comes through a pipe; while the tool waits for more, a registrar
  /// registers the token again under the lock, as notif-responses(1) says to.
  @Test(arguments: [false, true])
  func aRegistrationMadeWhileTheAnswersStreamIsSeen(_ tokensApart: Bool) throws {
    try SweepSafetyTests.withFolder { folder in
      let old = #"{"token":"\#(Self.token)","registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
      let registry = tokensApart ? "registry.ndjson" : "tok.ndjson"
      try Data(old.utf8).write(to: folder.appendingPathComponent("tok.ndjson"))
      if tokensApart { try Data(old.utf8).write(to: folder.appendingPathComponent(registry)) }
      let process = Process()
      process.executableURL = Binaries.url("notif-responses")
      process.arguments = ["--now", Self.now, "--tokens", registry, "--prune", "tok.ndjson"]
      process.currentDirectoryURL = folder
      process.environment = SweepSafetyTests.environment
      let input = Pipe()
      let output = Pipe()
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      input.fileHandleForWriting.write(Data(Self.unregistered(Self.token).utf8))
      // The record comes out as the answer is read: the decision to prune is written.
      var record = Data()
      while !record.contains(UInt8(ascii: "\n")) {
        let more = output.fileHandleForReading.availableData
        if more.isEmpty { break }
        record += more
      }
      #expect(String(decoding: record, as: UTF8.self).contains(#""action":"prune_token""#))
      // Registered again, after APNs's timestamp, under the lock.
      let again = #"{"token":"\#(Self.token)","registered_at":"2026-11-30T00:00:00Z"}"# + "\n"
      let lock = open(
        folder.appendingPathComponent("\(registry).lock").path, O_CREAT | O_RDWR, 0o644)
      #expect(flock(lock, LOCK_EX) == 0)
      let handle = try FileHandle(forWritingTo: folder.appendingPathComponent(registry))
      try handle.seekToEnd()
      handle.write(Data(again.utf8))
      try handle.close()
      close(lock)
      try input.fileHandleForWriting.close()
      _ = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0)
      #expect(Self.text(folder, "tok.ndjson").contains(Self.token))
      #expect(Self.text(folder, "tok.ndjson.pruned") == "")
    }
  }

  /// SIGKILLs of a prune while another process registers tokens under the lock: no token
  /// registered after its answer's timestamp is pruned, none is lost, none duplicated.
  @Test(.slow) func killedWhileARegistrarWritesPrunesOnlyDeadTokens() throws {
    try SweepSafetyTests.withFolder { folder in
      let count = 3_000
      func name(_ n: Int) -> String { String(format: "tok%05d", n) }
      let original = (0..<count).map {
        #"{"token":"\#(name($0))","registered_at":"2025-01-01T00:00:00Z"}"# + "\n"
      }.joined()
      let answers = (0..<count).map { Self.unregistered(name($0)) }.joined()
      try Data(answers.utf8).write(to: folder.appendingPathComponent("answers.ndjson"))
      let file = folder.appendingPathComponent("tok.ndjson")
      let archive = folder.appendingPathComponent("tok.ndjson.pruned")
      let arguments = ["--now", Self.now, "--prune", "tok.ndjson", "answers.ndjson"]
      var random = SplitMix(seed: 38)
      for run in 0..<20 {
        try Data(original.utf8).write(to: file)
        try? FileManager.default.removeItem(at: archive)
        let process = try PruneSafetyTests.start(in: folder, arguments: arguments)
        // The registrar: tokens registered again, each under the lock, until the kill.
        var registered = Set<String>()
        var appended = 0
        let deadline = Date().addingTimeInterval(0.02 * Double(run % 10 + 1))
        while Date() < deadline {
          let token = name(random.below(count))
          let lock = open(file.path + ".lock", O_CREAT | O_RDWR, 0o644)
          guard flock(lock, LOCK_EX) == 0 else { continue }
          let handle = try FileHandle(forWritingTo: file)
          try handle.seekToEnd()
          handle.write(
            Data((#"{"token":"\#(token)","registered_at":"2026-11-30T00:00:00Z"}"# + "\n").utf8))
          try handle.close()
          close(lock)
          registered.insert(token)
          appended += 1
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // The next prune finishes (or recovers) the interrupted one.
        let next = try Binaries.run(
          "notif-responses", arguments, in: folder, environment: SweepSafetyTests.environment)
        #expect(next.status == 0, "run \(run)")
        let kept = Self.lines(file)
        let gone = Self.lines(archive)
        // A registration made under the lock is never pruned: the prune decides under it.
        #expect(!gone.contains { $0.registeredAt == "2026-11-30T00:00:00Z" }, "run \(run)")
        // Nothing lost, nothing twice: every original line and every registration, once.
        #expect(
          kept.filter { $0.registeredAt == "2026-11-30T00:00:00Z" }.count == appended,
          "run \(run): a registration was lost")
        let originals = kept.filter { $0.registeredAt == "2025-01-01T00:00:00Z" }.map(\.token)
        #expect(originals.count + gone.count == count, "run \(run): an original line lost or twice")
        #expect(
          Set(originals).union(gone.map(\.token)) == Set((0..<count).map(name)), "run \(run)")
        #expect(Set(kept.map(\.token)) == registered, "run \(run): a dead token kept")
      }
    }
  }
}
