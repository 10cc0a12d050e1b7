import Foundation
import TestSupport
import Testing

/// An inbox fed for days, tested against the built binaries: records appended while sweeps run
/// (some killed), by `flock(1)` as the README says, by `notif-parse --store`, and by a plain
/// `>>` that skips the lock; at the end every record is in exactly one of store and archive.
/// The long runs are `.slow` (8 to 40 seconds each on two cores): `make check` runs them,
/// `make test` skips them.
@Suite(.serialized) struct InboxSoakTests {
  typealias Safety = SweepSafetyTests

  /// A short record, spread over ten days before `now` so that the policy's 5-day default
  /// expires about half of them; one in three is read.
  static func record(_ number: Int) -> String {
    let created = Date(timeIntervalSince1970: 1_795_338_000 - Double((number * 7919) % 864_000))
    let createdAt = ISO8601DateFormatter().string(from: created)
    let category = ["message", "promo", "news"][number % 3]
    let readAt = number % 3 == 0 ? "\"\(createdAt)\"" : "null"
    return
      #"{"id":"r\#(String(format: "%06d", number))","app":"com.example.app\#(number % 5)","#
      + #""thread_id":"t\#(number % 11)","category":"\#(category)","created_at":"\#(createdAt)","#
      + #""read_at":\#(readAt),"body":"message \#(number)"}"#
  }

  static func records(_ range: Range<Int>) -> Data {
    Data(range.map { record($0) + "\n" }.joined().utf8)
  }

  static func ids(_ range: Range<Int>) -> [String] { range.map { String(format: "r%06d", $0) } }

  /// Writes the store, `inbox.ndjson`, with records 0 to `initial`, and the records after them
  /// in `batches` files of `perBatch`, `new-0.ndjson` and on, for an appender to add.
  static func writeStoreAndBatches(_ folder: URL, initial: Int, batches: Int, perBatch: Int)
    throws
  {
    try records(0..<initial).write(to: folder.appendingPathComponent("inbox.ndjson"))
    for batch in 0..<batches {
      let first = initial + batch * perBatch
      try records(first..<first + perBatch).write(
        to: folder.appendingPathComponent("new-\(batch).ndjson"))
    }
  }

  /// Starts a shell command in `folder`.
  static func shell(_ command: String, in folder: URL) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", command]
    process.currentDirectoryURL = folder
    process.environment = Safety.environment
    try process.run()
    return process
  }

  /// The arguments of sweep number `n`: expiry into the archive, or a mark that rewrites the
  /// store (reading, or deleting into the archive), in turn.
  static func sweepArguments(_ n: Int) -> (tool: String, arguments: [String]) {
    let common = ["--store", "inbox.ndjson", "--archive", "archive.ndjson", "--wait", "60"]
    switch n % 3 {
    case 0:
      return ("notif-expire", ["--policy", "policy.json", "--now", Safety.now] + common)
    case 1:
      return ("notif-mark", ["--read", "--all", "--now", Safety.now] + common)
    default:
      return (
        "notif-mark",
        [
          "--delete", "--app", "com.example.app\(n % 5)", "--thread", "t\(n % 11)", "--now",
          Safety.now,
        ] + common
      )
    }
  }

  /// Checks that store and archive hold `expected` exactly once between them, as whole lines,
  /// and that no sweep left a file behind.
  static func expectEachOnce(_ folder: URL, _ expected: Set<String>, _ what: String) {
    let store = Safety.ids(folder.appendingPathComponent("inbox.ndjson"))
    let archive = Safety.ids(folder.appendingPathComponent("archive.ndjson"))
    #expect(store.allValid && archive.allValid, "\(what): a line is not a whole record")
    let everything = store.ids + archive.ids
    let lost = expected.subtracting(everything)
    #expect(lost.isEmpty, "\(what): \(lost.count) lost, such as \(lost.sorted().prefix(5))")
    #expect(
      everything.count == Set(everything).count,
      "\(what): \(everything.count - Set(everything).count) records twice")
    #expect(Set(everything) == expected, "\(what): records that were never appended")
    #expect(Safety.leftovers(folder).isEmpty, "\(what): left \(Safety.leftovers(folder))")
  }

  /// The README's protocol at full scale: 60,000 records, 400 of whose batches are appended
  /// under flock(1) while 150 expire and mark sweeps run two at a time, one in five killed.
  @Test(.slow) func theProtocolHoldsForSixtyThousandRecordsAndOneHundredFiftySweeps() throws {
    try Safety.withFolder { folder in
      let initial = 20_000
      let batches = 400
      let perBatch = 100
      try Self.writeStoreAndBatches(
        folder, initial: initial, batches: batches, perBatch: perBatch)
      let appender = try Self.shell(
        "for b in $(seq 0 \(batches - 1)); do flock inbox.ndjson.lock -c "
          + "\"cat new-$b.ndjson >> inbox.ndjson\"; sleep 0.005; done", in: folder)
      var dice = SplitMix(seed: 60_000)
      var killed = 0
      // How long a pair of sweeps takes, to aim the kills inside it.
      var pairTime = 0.05
      for pair in 0..<75 {
        let started = Date()
        let sweeps = try (0..<2).map { one in
          let (tool, arguments) = Self.sweepArguments(pair * 2 + one)
          return try Safety.start(tool, arguments, in: folder)
        }
        // One pair in five at random, and more while kills that landed fall behind one in ten
        // (a kill can come after a short sweep ended).
        let victim = dice.below(5) == 0 || killed * 10 < pair ? dice.below(2) : nil
        if let victim {
          usleep(UInt32(Double(dice.below(1000)) / 1000 * pairTime * 0.6 * 1e6))
          kill(sweeps[victim].processIdentifier, SIGKILL)
        }
        defer { if victim == nil { pairTime = Date().timeIntervalSince(started) } }
        for (index, sweep) in sweeps.enumerated() {
          sweep.waitUntilExit()
          if sweep.terminationReason == .uncaughtSignal {
            killed += 1
          } else {
            #expect(sweep.terminationStatus == 0, "sweep \(pair * 2 + index) failed")
          }
        }
      }
      appender.waitUntilExit()
      #expect(appender.terminationStatus == 0)
      // The last sweep finishes what killed ones left.
      let last = try Safety.sweep(folder)
      #expect(last.status == 0, "\(String(decoding: last.stderr, as: UTF8.self))")
      #expect(killed >= 7, "only \(killed) sweeps were killed before they ended")
      Self.expectEachOnce(
        folder, Set(Self.ids(0..<initial + batches * perBatch)), "after 150 sweeps")
    }
  }

  /// A producer that runs across sweeps appends through `notif-parse --store`, one payload
  /// every few milliseconds; the sweeps, some killed, neither lose nor duplicate a record.
  @Test(.slow) func aSlowProducerThroughParseStoreLosesAndDuplicatesNothing() throws {
    try Safety.withFolder { folder in
      let count = 600
      let payloads = (0..<count).map {
        #"{"aps":{"alert":{"title":"Alice","body":"message \#($0)"},"thread-id":"t\#($0 % 3)"},"#
          + #""n":\#($0)}"# + "\n"
      }
      let all = folder.appendingPathComponent("payloads.ndjson")
      try Data(payloads.joined().utf8).write(to: all)
      // The records the producer makes, by notif-parse itself.
      let parsed = try Binaries.run(
        "notif-parse",
        ["--default-app", "com.example.chat", "--now", Safety.now, "payloads.ndjson"],
        in: folder, environment: Safety.environment)
      #expect(parsed.status == 0)
      let expected = Set(
        String(decoding: parsed.stdout, as: UTF8.self).split(separator: "\n").compactMap {
          line -> String? in
          let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
          return object?["id"] as? String
        })
      #expect(expected.count == count)
      // A store of records that never expire here, so that every sweep rewrites a real store
      // and the kills land inside one.
      let kept = (0..<20_000).map {
        #"{"id":"p\#(String(format: "%06d", $0))","app":"com.example.chat","#
          + #""created_at":"2026-11-29T12:00:00Z","body":"kept \#($0)"}"# + "\n"
      }
      try Data(kept.joined().utf8).write(to: folder.appendingPathComponent("inbox.ndjson"))
      let everyRecord = expected.union((0..<20_000).map { String(format: "p%06d", $0) })

      let producer = Process()
      producer.executableURL = Binaries.url("notif-parse")
      producer.arguments = [
        "--default-app", "com.example.chat", "--now", Safety.now, "--store", "inbox.ndjson",
      ]
      producer.currentDirectoryURL = folder
      producer.environment = Safety.environment
      // A socket, not a pipe: should the producer end early, a send fails (MSG_NOSIGNAL)
      // instead of raising SIGPIPE in the test process.
      var ends: [Int32] = [-1, -1]
      #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
      producer.standardInput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
      producer.standardError = FileHandle.nullDevice
      try producer.run()
      close(ends[1])
      let socket = ends[0]
      let fed = DispatchSemaphore(value: 0)
      let feeder = Thread {
        for payload in payloads {
          let sent = Array(payload.utf8).withUnsafeBytes {
            send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
          }
          if sent < 0 { break }
          usleep(5_000)
        }
        close(socket)
        fed.signal()
      }
      feeder.start()
      var dice = SplitMix(seed: 600)
      var sweeps = 0
      var killed = 0
      var feeding = true
      // How long the last sweep that ran to its end took, to aim the kills inside one.
      var sweepTime = 0.05
      while feeding || sweeps < 20 {
        if fed.wait(timeout: .now()) == .success { feeding = false }
        // Expire everything older than a day after `now`: each sweep archives what came.
        let (tool, arguments): (String, [String]) =
          sweeps % 2 == 0
          ? (
            "notif-expire",
            [
              "--policy", "policy.json", "--now", "2026-11-30T00:00:00Z", "--store",
              "inbox.ndjson", "--archive", "archive.ndjson", "--wait", "60",
            ]
          )
          : ("notif-mark", ["--read", "--all", "--now", Safety.now, "--store", "inbox.ndjson"])
        let started = Date()
        let sweep = try Safety.start(tool, arguments, in: folder)
        // One sweep in three at random, and more while kills that landed fall behind one in
        // four (a kill can come after a short sweep ended).
        if dice.below(3) == 0 || killed * 4 < sweeps {
          usleep(UInt32(Double(dice.below(1000)) / 1000 * sweepTime * 0.7 * 1e6))
          kill(sweep.processIdentifier, SIGKILL)
        }
        sweep.waitUntilExit()
        if sweep.terminationReason == .uncaughtSignal {
          killed += 1
        } else {
          sweepTime = Date().timeIntervalSince(started)
          #expect(sweep.terminationStatus == 0, "sweep \(sweeps) failed")
        }
        sweeps += 1
        usleep(20_000)
      }
      producer.waitUntilExit()
      #expect(producer.terminationStatus == 0)
      let last = try Safety.sweep(folder)
      #expect(last.status == 0, "\(String(decoding: last.stderr, as: UTF8.self))")
      #expect(sweeps >= 20 && killed >= 4, "\(sweeps) sweeps, \(killed) killed")
      Self.expectEachOnce(folder, everyRecord, "after \(sweeps) sweeps")
    }
  }

  /// An appender that skips the lock: 10,000 records appended with a plain `>>` during 150
  /// sweeps that each rewrite the store. Each sweep takes in what was appended past what it
  /// read and drains the file it replaced while an appender still has it open.
  @Test(.slow) func aPlainAppenderDuringSweepsLosesNothing() throws {
    try Safety.withFolder { folder in
      let initial = 2_000
      let batches = 200
      let perBatch = 50
      try Self.writeStoreAndBatches(
        folder, initial: initial, batches: batches, perBatch: perBatch)
      let appender = try Self.shell(
        "for b in $(seq 0 \(batches - 1)); do cat new-$b.ndjson >> inbox.ndjson; sleep 0.02; done",
        in: folder)
      var sweeps = 0
      var warned = 0
      while appender.isRunning || sweeps < 150 {
        // Reading one more record each time: every sweep rewrites the store.
        let outcome = try Binaries.run(
          "notif-mark",
          [
            "--read", "--id", String(format: "r%06d", sweeps % initial), "--now", Safety.now,
            "--store", "inbox.ndjson", "--wait", "10",
          ], in: folder, environment: Safety.environment)
        #expect(outcome.status == 0, "\(String(decoding: outcome.stderr, as: UTF8.self))")
        if String(decoding: outcome.stderr, as: UTF8.self).contains("[AppendedWithoutLock]") {
          warned += 1
        }
        sweeps += 1
      }
      appender.waitUntilExit()
      #expect(warned > 0, "no sweep saw an append: the test did not test")
      Self.expectEachOnce(
        folder, Set(Self.ids(0..<initial + batches * perBatch)), "after \(sweeps) sweeps")
    }
  }

  /// An appender that skips the lock and writes each line in two `write(2)`s, opening the
  /// store for each line as `>>` does, while sweeps rewrite the store: the sweeps' drain of
  /// the replaced store used to append whole lines into the new one while the appender was
  /// half-way through a line there, splicing the two (about one line in twenty). Every line is
  /// whole at the end, and every record there once.
  @Test func anAppenderWritingEachLineInTwoPartsIsNeverSpliced() throws {
    try Safety.withFolder { folder in
      let count = 1_500
      let store = folder.appendingPathComponent("inbox.ndjson").path
      _ = FileManager.default.createFile(atPath: store, contents: nil)
      let done = Atomic()
      let appender = Thread {
        var random = SplitMix(seed: 18)
        for number in 0..<count {
          let line = Array((Self.record(number) + "\n").utf8)
          let cut = 1 + random.below(line.count - 1)
          let fd = open(store, O_WRONLY | O_APPEND)
          line.withUnsafeBytes { bytes in
            _ = write(fd, bytes.baseAddress, cut)
            usleep(UInt32(random.below(2_000)))
            _ = write(fd, bytes.baseAddress! + cut, line.count - cut)
          }
          close(fd)
          usleep(UInt32(random.below(1_000)))
        }
        done.set()
      }
      appender.start()
      var sweeps = 0
      while !done.isSet || sweeps < 20 {
        // Read, then unread, everything: every sweep rewrites the store.
        let outcome = try Binaries.run(
          "notif-mark",
          [
            sweeps % 2 == 0 ? "--read" : "--unread", "--all", "--now", Safety.now, "--store",
            "inbox.ndjson", "--wait", "10",
          ],
          in: folder, environment: Safety.environment)
        #expect(outcome.status <= 1, "\(String(decoding: outcome.stderr, as: UTF8.self))")
        sweeps += 1
      }
      Self.expectEachOnce(folder, Set(Self.ids(0..<count)), "after \(sweeps) sweeps")
    }
  }
}

/// A flag one thread sets and another reads.
final class Atomic: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false
  func set() { lock.withLock { value = true } }
  var isSet: Bool { lock.withLock { value } }
}
