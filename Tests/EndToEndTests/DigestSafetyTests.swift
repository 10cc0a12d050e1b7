import Foundation
import TestSupport
import Testing

/// notif-digest's promise from cron, tested against the built binaries: killed at many points,
/// a run in place leaves every record in exactly one digest written (and marked
/// `digested_at`) or in none (and unmarked); a digest that may have gone out before the kill
/// comes out again with the same bytes and `digest_id`; among sweeps and appenders, nothing is
/// digested twice.
@Suite(.serialized) struct DigestSafetyTests {
  typealias Safety = SweepSafetyTests

  /// Every window of the records of `SweepSafetyTests.record` has ended by then.
  static let now = "2026-11-22T09:00:00Z"

  /// A short record of a chat app, one a minute over the two days before `now`, in seven
  /// threads, in time order, as a store grows.
  static func record(_ number: Int) -> String {
    let created = Date(timeIntervalSince1970: 1_795_338_000 - 172_800 + Double(number) * 60)
    let createdAt = ISO8601DateFormatter().string(from: created)
    return
      #"{"id":"r\#(String(format: "%06d", number))","app":"com.example.chat","#
      + #""thread_id":"t\#(number % 7)","category":"message","created_at":"\#(createdAt)","#
      + #""body":"New message","summary_arg":"\#(["Alice", "Bob", "Carol"][number % 3])"}"#
  }

  static func store(_ count: Int) -> Data {
    Data((0..<count).map { record($0) + "\n" }.joined().utf8)
  }

  static func digestArguments(_ extra: [String]) -> [String] {
    ["--window", "1h", "--now", now, "--store", "inbox.ndjson"] + extra
  }

  /// The digest objects of a file (or standard output), as lines; a line cut short by a kill
  /// is not one.
  static func digests(_ data: Data) -> [(line: String, id: String, members: [String])] {
    data.split(separator: UInt8(ascii: "\n")).compactMap { line in
      guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
        let id = object["digest_id"] as? String, let items = object["items"] as? [[String: Any]]
      else { return nil }
      return (String(decoding: line, as: UTF8.self), id, items.compactMap { $0["id"] as? String })
    }
  }

  static func digests(_ url: URL) -> [(line: String, id: String, members: [String])] {
    digests((try? Data(contentsOf: url)) ?? Data())
  }

  /// The records of the store: each one's id and whether it is marked `digested_at`.
  static func marks(_ url: URL) -> [String: Bool] {
    var marks: [String: Bool] = [:]
    let data = (try? Data(contentsOf: url)) ?? Data()
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
        let id = object["id"] as? String
      else { continue }
      marks[id] = object["digested_at"] is String
    }
    return marks
  }

  /// Checks that each record of the store is in exactly one of `digests` when marked, and in
  /// none when not; that no record is in two digests; returns how many are marked.
  @discardableResult
  static func expectOneDigestOrNone(
    _ marks: [String: Bool], _ digests: [(line: String, id: String, members: [String])],
    expected: Set<String>, _ what: String
  ) -> Int {
    #expect(Set(marks.keys) == expected, "\(what): the store lost or gained records")
    var seen: [String: Int] = [:]
    for digest in digests {
      for member in digest.members { seen[member, default: 0] += 1 }
    }
    let twice = seen.filter { $0.value > 1 }.keys.sorted()
    #expect(twice.isEmpty, "\(what): in two digests: \(twice.prefix(5))")
    let markedNowhere = marks.filter { $0.value && seen[$0.key] == nil }.keys.sorted()
    #expect(markedNowhere.isEmpty, "\(what): marked but in no digest: \(markedNowhere.prefix(5))")
    let digestedUnmarked = marks.filter { !$0.value && seen[$0.key] != nil }.keys.sorted()
    #expect(
      digestedUnmarked.isEmpty, "\(what): in a digest but unmarked: \(digestedUnmarked.prefix(5))")
    return marks.values.filter { $0 }.count
  }

  /// With `--out`: killed anywhere, then recovered, each record is in one digest of the file
  /// and marked, or in none and unmarked; the next run digests the rest, and every digest the
  /// killed run had written whole comes out again the same, `digest_id` and all.
  @Test func killedAtManyPointsEachRecordIsInOneDigestOfOutOrNone() throws {
    try Safety.withFolder { folder in
      let original = Self.store(2000)
      let expected = Set((0..<2000).map { String(format: "r%06d", $0) })
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      let out = folder.appendingPathComponent("out.ndjson")
      try original.write(to: inbox)
      let started = Date()
      let calibration = try Binaries.run(
        "notif-digest", Self.digestArguments(["--out", "out.ndjson"]), in: folder,
        environment: Safety.environment)
      #expect(calibration.status == 0, "\(String(decoding: calibration.stderr, as: UTF8.self))")
      let duration = max(Date().timeIntervalSince(started), 0.01)
      let reference = Self.digests(out)
      #expect(
        Self.expectOneDigestOrNone(Self.marks(inbox), reference, expected: expected, "one run")
          == 2000)
      var killedBeforeTheEnd = 0
      var rolledBack = 0
      var committed = 0
      var run = 0
      // The first 60 kills spread over the calibrated run and a little past it; then more
      // inside it until 40 hit a run. The calibration is one run's time: on a loaded machine a
      // run can take longer, so while no killed run has finished its step, the waits grow past
      // it until one does.
      while (run < 60 || killedBeforeTheEnd < 40 || committed == 0 || rolledBack == 0)
        && run < 150
      {
        defer { run += 1 }
        try? FileManager.default.removeItem(at: out)
        try original.write(to: inbox)
        let process = try Safety.start(
          "notif-digest", Self.digestArguments(["--out", "out.ndjson"]), in: folder)
        let fraction: Double
        if run < 60 {
          fraction = 1.1 * Double(run) / 60
        } else if committed == 0 {
          fraction = 1.5 + Double(run - 60) / 10
        } else {
          fraction = 0.8 * Double(run % 60) / 60
        }
        usleep(UInt32(duration * 1e6 * fraction))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { killedBeforeTheEnd += 1 }
        let written = Self.digests(out)

        // Recovery alone: a run at a time no window has ended by digests nothing.
        let recovery = try Binaries.run(
          "notif-digest",
          [
            "--window", "1h", "--now", "1970-01-01T00:00:00Z", "--store", "inbox.ndjson",
            "--out", "out.ndjson",
          ],
          in: folder, environment: Safety.environment)
        #expect(
          recovery.status == 0, "run \(run): \(String(decoding: recovery.stderr, as: UTF8.self))")
        let marked = Self.expectOneDigestOrNone(
          Self.marks(inbox), Self.digests(out), expected: expected, "run \(run), recovered")
        if marked == 0 { rolledBack += 1 }
        if marked == 2000 { committed += 1 }
        #expect(marked == 0 || marked == 2000, "run \(run): \(marked) records marked")

        let next = try Binaries.run(
          "notif-digest", Self.digestArguments(["--out", "out.ndjson"]), in: folder,
          environment: Safety.environment)
        #expect(next.status == 0, "run \(run): \(String(decoding: next.stderr, as: UTF8.self))")
        let final = Self.digests(out)
        #expect(
          Self.expectOneDigestOrNone(Self.marks(inbox), final, expected: expected, "run \(run)")
            == 2000)
        // The same digests as one run that was not killed, the same bytes: those the killed
        // run wrote and the next one taken back and wrote again included.
        #expect(Set(final.map(\.line)) == Set(reference.map(\.line)), "run \(run): other digests")
        let finalLines = Set(final.map(\.line))
        #expect(written.allSatisfy { finalLines.contains($0.line) }, "run \(run): a digest changed")
        #expect(Safety.leftovers(folder).isEmpty, "run \(run): left \(Safety.leftovers(folder))")
      }
      #expect(killedBeforeTheEnd >= 40, "\(killedBeforeTheEnd) of \(run) kills hit a run")
      // A run's digests and marks are one step: recovered, a killed run did all (it replaced
      // the store) or nothing; the kills must have found both.
      #expect(rolledBack > 0 && committed > 0, "\(rolledBack) undone, \(committed) done")
    }
  }

  /// Without `--out`: the digests go to standard output once the store is replaced. Killed
  /// anywhere, what the killed run wrote there and what the next run writes hold every record
  /// in one digest at least; a digest written twice is the same bytes, so a sender drops the
  /// repeat by its `digest_id`, and no record is in two different digests.
  @Test func killedWithoutOutADigestComesAgainWithItsID() throws {
    try Safety.withFolder { folder in
      let original = Self.store(2000)
      let expected = Set((0..<2000).map { String(format: "r%06d", $0) })
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      let captured = folder.appendingPathComponent("killed-stdout")
      try original.write(to: inbox)
      let started = Date()
      let calibration = try Binaries.run(
        "notif-digest", Self.digestArguments([]), in: folder, environment: Safety.environment)
      #expect(calibration.status == 0)
      let duration = max(Date().timeIntervalSince(started), 0.01)
      let reference = Set(Self.digests(calibration.stdout).map(\.line))
      var killedBeforeTheEnd = 0
      var run = 0
      while (run < 50 || killedBeforeTheEnd < 30) && run < 100 {
        defer { run += 1 }
        try original.write(to: inbox)
        #expect(FileManager.default.createFile(atPath: captured.path, contents: nil))
        let process = Process()
        process.executableURL = Binaries.url("notif-digest")
        process.arguments = Self.digestArguments([])
        process.currentDirectoryURL = folder
        process.environment = Safety.environment
        process.standardOutput = try FileHandle(forWritingTo: captured)
        process.standardError = FileHandle.nullDevice
        try process.run()
        let fraction = run < 50 ? 1.2 * Double(run) / 50 : 0.9 * Double(run % 50) / 50
        usleep(UInt32(duration * 1e6 * fraction))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { killedBeforeTheEnd += 1 }
        let before = Self.digests((try? Data(contentsOf: captured)) ?? Data())
        let next = try Binaries.run(
          "notif-digest", Self.digestArguments([]), in: folder, environment: Safety.environment)
        #expect(next.status == 0, "run \(run): \(String(decoding: next.stderr, as: UTF8.self))")
        let after = Self.digests(next.stdout)
        // The sender's view: every digest by its id, a repeat the same bytes.
        var byID: [String: String] = [:]
        for digest in before + after {
          if let seen = byID[digest.id] {
            #expect(seen == digest.line, "run \(run): digest \(digest.id) changed")
          }
          byID[digest.id] = digest.line
        }
        #expect(Set(byID.values) == reference, "run \(run): other digests than one run's")
        let distinct = byID.values.map { line in
          Self.digests(Data(line.utf8))[0]
        }
        #expect(
          Self.expectOneDigestOrNone(Self.marks(inbox), distinct, expected: expected, "run \(run)")
            == 2000)
        #expect(Safety.leftovers(folder).isEmpty, "run \(run): left \(Safety.leftovers(folder))")
        #expect(
          !FileManager.default.fileExists(
            atPath: folder.appendingPathComponent("inbox.ndjson.digests").path),
          "run \(run): the outbox is left")
      }
      #expect(killedBeforeTheEnd >= 30, "\(killedBeforeTheEnd) of \(run) kills hit a run")
    }
  }

  /// Why cron gives `--out` (notif-digest(1), "Exactly once"; the README's cron line): a run
  /// killed while it writes to standard output leaves its last digest cut short, and a file
  /// that standard output is appended to (`>>`) glues that piece to the next run's first
  /// digest, one line that is not JSON. The kill comes where the run waits on a full pipe,
  /// after it replaced the store, so the cut is the same bytes on every run; with `--out`,
  /// `killedAtManyPointsEachRecordIsInOneDigestOfOutOrNone` finds only whole digests.
  @Test func killedWhileWritingStandardOutputLeavesAPieceThatAppendingGlues() throws {
    try Safety.withFolder { folder in
      // More digests than the 1 MiB the tools widen their output pipe to.
      let original = Self.store(6000)
      let arguments = [
        "--window", "1h", "--now", "2026-11-25T00:00:00Z", "--store", "inbox.ndjson",
      ]
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      try original.write(to: inbox)
      let reference = try Binaries.run(
        "notif-digest", arguments, in: folder, environment: Safety.environment)
      #expect(reference.status == 0)
      try original.write(to: inbox)
      var ends: [Int32] = [0, 0]
      #expect(pipe(&ends) == 0)
      let process = Process()
      process.executableURL = Binaries.url("notif-digest")
      process.arguments = arguments
      process.currentDirectoryURL = folder
      process.environment = Safety.environment
      process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
      process.standardError = FileHandle.nullDevice
      try process.run()
      close(ends[1])
      // Nobody reads the pipe: once it is full, the run waits in a write, the store replaced.
      var waiting = 0
      var last: Int32 = -1
      let deadline = Date().addingTimeInterval(60)
      while process.isRunning && waiting < 5 && Date() < deadline {
        usleep(50_000)
        var queued: Int32 = 0
        _ = ioctl(ends[0], UInt(FIONREAD), &queued)
        waiting = queued > 0 && queued == last ? waiting + 1 : 0
        last = queued
      }
      #expect(process.isRunning, "the run ended: its output fit in the pipe")
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let killed = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        .readDataToEndOfFile()
      #expect(
        killed.count > 0 && killed.count < reference.stdout.count,
        "\(killed.count) of \(reference.stdout.count) bytes")
      #expect(reference.stdout.starts(with: killed))
      #expect(killed.last != UInt8(ascii: "\n"), "the kill left whole lines")

      // The next run writes the outbox again, then its own: appended, as `>>` does.
      let next = try Binaries.run(
        "notif-digest", arguments, in: folder, environment: Safety.environment)
      #expect(next.status == 0)
      let appended = killed + next.stdout
      let lines = appended.split(separator: UInt8(ascii: "\n"))
      let notJSON = lines.filter { (try? JSONSerialization.jsonObject(with: $0)) == nil }
      #expect(notJSON.count == 1, "lines that are no JSON: \(notJSON.count)")
      let glued = String(decoding: notJSON.first ?? Data(), as: UTF8.self)
      #expect(glued.hasSuffix(String(decoding: next.stdout.prefix { $0 != 10 }, as: UTF8.self)))

      // What the manual says of it, and the README where it shows the cron line.
      let manual = try String(
        contentsOf: BehaviorTests.packageRoot.appendingPathComponent("man/notif-digest.1"),
        encoding: .utf8)
      #expect(manual.contains("digest cut short, a line without its end; appended to a file with"))
      #expect(manual.contains(".Ql >>\nfrom\n.Xr cron 8 ,"))
      let readme = try String(
        contentsOf: BehaviorTests.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
      #expect(readme.contains("Give cron `--out`, not `>> digests.ndjson`"))
    }
  }

  /// The moment a kill rarely hits, made to happen: the store is replaced, and the digests
  /// cannot get out (standard output is a full device). They wait in the outbox, the records
  /// stay marked, and the next run writes them first, the same bytes and ids as a run that was
  /// not stopped.
  @Test func digestsThatCouldNotGetOutComeOutInTheNextRun() throws {
    try Safety.withFolder { folder in
      let original = Self.store(300)
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      try original.write(to: inbox)
      let reference = try Binaries.run(
        "notif-digest", Self.digestArguments([]), in: folder, environment: Safety.environment)
      #expect(reference.status == 0)
      try original.write(to: inbox)
      let failed = try Binaries.run(
        "notif-digest", Self.digestArguments([]), in: folder, environment: Safety.environment,
        stdoutFile: URL(fileURLWithPath: "/dev/full"))
      #expect(failed.status == 2)
      #expect(
        String(decoding: failed.stderr, as: UTF8.self)
          == "notif-digest: <stdout>: error: write error: no space left on device [WriteFailed]\n")
      let outbox = folder.appendingPathComponent("inbox.ndjson.digests")
      #expect(FileManager.default.fileExists(atPath: outbox.path))
      #expect(Self.marks(inbox).values.allSatisfy { $0 })
      let next = try Binaries.run(
        "notif-digest", Self.digestArguments([]), in: folder, environment: Safety.environment)
      #expect(next.status == 0)
      #expect(next.stdout == reference.stdout)
      #expect(!FileManager.default.fileExists(atPath: outbox.path))
      let again = try Binaries.run(
        "notif-digest", Self.digestArguments([]), in: folder, environment: Safety.environment)
      #expect(again.stdout.isEmpty)
    }
  }

  /// Digest runs from cron among expiry sweeps and appends under the lock, some of each
  /// killed: at the end every record is in exactly one of store and archive, every record
  /// marked in exactly one digest, and no record in two.
  @Test func digestsAmongSweepsAndAppendsDigestNothingTwice() throws {
    try Safety.withFolder { folder in
      typealias Soak = InboxSoakTests
      let initial = 3_000
      let batches = 60
      let perBatch = 50
      try Soak.writeStoreAndBatches(folder, initial: initial, batches: batches, perBatch: perBatch)
      let appender = try Soak.shell(
        "for b in $(seq 0 \(batches - 1)); do flock inbox.ndjson.lock -c "
          + "\"cat new-$b.ndjson >> inbox.ndjson\"; sleep 0.01; done", in: folder)
      var dice = SplitMix(seed: 21)
      var killed = 0
      var runs = 0
      var runTime = 0.05
      while appender.isRunning || runs < 40 {
        let digesting = runs % 2 == 0
        let (tool, arguments): (String, [String]) =
          digesting
          ? ("notif-digest", Self.digestArguments(["--out", "out.ndjson", "--wait", "60"]))
          : (
            "notif-expire",
            [
              "--policy", "policy.json", "--now", Safety.now, "--store", "inbox.ndjson",
              "--archive", "archive.ndjson", "--wait", "60",
            ]
          )
        let started = Date()
        let process = try Safety.start(tool, arguments, in: folder)
        if dice.below(3) == 0 {
          usleep(UInt32(Double(dice.below(1000)) / 1000 * runTime * 0.8 * 1e6))
          kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
          killed += 1
        } else {
          runTime = Date().timeIntervalSince(started)
          #expect(process.terminationStatus == 0, "run \(runs) (\(tool)) failed")
        }
        runs += 1
      }
      appender.waitUntilExit()
      let last = try Binaries.run(
        "notif-digest", Self.digestArguments(["--out", "out.ndjson"]), in: folder,
        environment: Safety.environment)
      #expect(last.status == 0, "\(String(decoding: last.stderr, as: UTF8.self))")
      #expect(killed >= 4, "only \(killed) runs were killed")
      let everyRecord = Set(Soak.ids(0..<initial + batches * perBatch))
      Soak.expectEachOnce(folder, everyRecord, "after \(runs) runs")
      var marks = Self.marks(folder.appendingPathComponent("inbox.ndjson"))
      for (id, marked) in Self.marks(folder.appendingPathComponent("archive.ndjson")) {
        marks[id] = marked
      }
      Self.expectOneDigestOrNone(
        marks, Self.digests(folder.appendingPathComponent("out.ndjson")), expected: everyRecord,
        "after \(runs) runs")
      // The store holds only records digested, but r000000, created at `now` itself: its
      // window has not ended.
      let unmarked = Self.marks(folder.appendingPathComponent("inbox.ndjson")).filter { !$0.value }
      #expect(
        Set(unmarked.keys).isSubset(of: ["r000000"]),
        "not digested: \(unmarked.keys.sorted().prefix(5))")
    }
  }
}
