import Foundation
import TestSupport
import Testing

/// The sweeps' promise to lose nothing, tested against the built binaries: killed at many
/// points, on full devices, against each other and against an appender, and on a store with a
/// line they cannot read.
@Suite(.serialized) struct SweepSafetyTests {
  static let now = "2026-11-22T09:00:00Z"
  static let environment = ["TZ": "UTC", "LC_ALL": "C", "PATH": "/usr/bin:/bin"]
  static let policy =
    #"{"default": {"ttl": "5d"}, "categories": {"message": {"ttl": "30d", "read_ttl": "1d", "#
    + #""keep": 40}, "promo": {"ttl": "1d"}}}"#

  /// One record in notif(5) form, with every key, as notif-parse writes it.
  static func record(_ number: Int) -> String {
    let categories = ["message", "promo", "news", "message", "social"]
    let category = categories[number % categories.count]
    // Spread over ten days before `now`, newest last, as an inbox grows.
    let created = Date(timeIntervalSince1970: 1_795_338_000 - Double((2000 - number % 2000) * 431))
    let formatter = ISO8601DateFormatter()
    let createdAt = formatter.string(from: created)
    let readAt =
      number % 3 == 0 ? "\"\(formatter.string(from: created.addingTimeInterval(60)))\"" : "null"
    return
      #"{"id":"r\#(String(format: "%06d", number))","app":"com.example.chat","thread_id":"chat-\#(number % 7)","category":"\#(category)","title":"Alice","subtitle":null,"body":"Are we still on for lunch? \#(number)","title_loc_key":null,"title_loc_args":null,"subtitle_loc_key":null,"subtitle_loc_args":null,"loc_key":null,"loc_args":null,"created_at":"\#(createdAt)","relevance":null,"interruption_level":null,"badge":3,"sound":"default","sound_critical":false,"sound_volume":null,"summary_arg":"Alice","summary_arg_count":1,"collapse_id":null,"expires_at":null,"priority":null,"push_type":"alert","topic":null,"content_available":false,"mutable_content":false,"target_content_id":null,"event":null,"timestamp":null,"stale_at":null,"dismiss_at":null,"read_at":\#(readAt),"seen_at":null,"payload":{"aps":{"alert":{"title":"Alice","body":"Are we still on for lunch?"},"thread-id":"chat-\#(number % 7)","category":"\#(category)"},"conversation":"c-1042"}}"#
  }

  static func store(_ count: Int, from first: Int = 0) -> Data {
    Data((first..<first + count).map { record($0) + "\n" }.joined().utf8)
  }

  /// A scratch folder with the policy file, removed after `body`.
  static func withFolder(_ body: (URL) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-sweep-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try Data(policy.utf8).write(to: folder.appendingPathComponent("policy.json"))
    try body(folder)
  }

  /// The ids of the complete, valid JSON lines of a file (a line cut short is not counted),
  /// in order, and whether every line was complete.
  static func ids(_ url: URL) -> (ids: [String], allValid: Bool) {
    guard let data = try? Data(contentsOf: url) else { return ([], true) }
    var ids: [String] = []
    var allValid = true
    for line in data.split(separator: UInt8(ascii: "\n")) {
      guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
        let id = object["id"] as? String
      else {
        allValid = false
        continue
      }
      ids.append(id)
    }
    return (ids, allValid)
  }

  static func sweep(_ folder: URL, _ extra: [String] = []) throws -> Outcome {
    try Binaries.run(
      "notif-expire",
      [
        "--policy", "policy.json", "--now", now, "--store", "inbox.ndjson", "--archive",
        "archive.ndjson",
      ] + extra,
      in: folder, environment: environment)
  }

  /// Starts `tool` in `folder` with its output thrown away.
  static func start(_ tool: String, _ arguments: [String], in folder: URL) throws -> Process {
    let process = Process()
    process.executableURL = Binaries.url(tool)
    process.arguments = arguments
    process.currentDirectoryURL = folder
    process.environment = environment
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  static func leftovers(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
      $0.hasSuffix(".notif-tmp") || $0.hasSuffix(".sweep")
    }
  }

  @Test(.slow) func killedAtManyPointsLosesNothingAndTheNextSweepFinishes() throws {
    try Self.withFolder { folder in
      let original = Self.store(1000)
      let originalIDs = Set((0..<1000).map { String(format: "r%06d", $0) })
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      let archive = folder.appendingPathComponent("archive.ndjson")
      // How long a whole sweep takes here, to spread the kills over it.
      try original.write(to: inbox)
      let started = Date()
      let calibration = try Self.sweep(folder)
      #expect(calibration.status == 0)
      let duration = max(Date().timeIntervalSince(started), 0.01)
      var killedBeforeTheEnd = 0
      var run = 0
      // At least 100 kills at points spread over a sweep, and at least 50 of them inside one:
      // on a loaded machine a sweep's length varies, so kills that came too late are made up
      // for by more kills early in a sweep, up to 300 runs in all.
      while (run < 100 || killedBeforeTheEnd < 50) && run < 300 {
        defer { run += 1 }
        try? FileManager.default.removeItem(at: archive)
        try original.write(to: inbox)
        let process = try Self.start(
          "notif-expire",
          [
            "--policy", "policy.json", "--now", Self.now, "--store", "inbox.ndjson", "--archive",
            "archive.ndjson",
          ], in: folder)
        // Kill points from the start to a little past the usual end, a different one each run;
        // the runs past the first 100 aim at the first four fifths of a sweep.
        let fraction = run < 100 ? 1.1 * Double(run) / 100 : 0.8 * Double(run % 100) / 100
        usleep(UInt32(duration * 1e6 * fraction))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { killedBeforeTheEnd += 1 }

        let (storeIDs, storeValid) = Self.ids(inbox)
        let archived = Self.ids(archive).ids
        #expect(storeValid, "run \(run): the store has a line that does not parse")
        #expect(Set(storeIDs).count == storeIDs.count, "run \(run): a record twice in the store")
        let lost = originalIDs.subtracting(storeIDs).subtracting(archived)
        #expect(lost.isEmpty, "run \(run): lost \(lost.sorted().prefix(5))")

        let next = try Self.sweep(folder)
        #expect(next.status == 0, "run \(run): \(String(decoding: next.stderr, as: UTF8.self))")
        let after = Self.ids(inbox)
        let afterArchive = Self.ids(archive)
        #expect(after.allValid && afterArchive.allValid, "run \(run): a line does not parse")
        let everything = after.ids + afterArchive.ids
        #expect(everything.count == originalIDs.count, "run \(run): \(everything.count) records")
        #expect(Set(everything) == originalIDs, "run \(run): not exactly one of store or archive")
        #expect(Self.leftovers(folder).isEmpty, "run \(run): left \(Self.leftovers(folder))")
      }
      // The kills must have hit sweeps in progress, not only finished ones.
      #expect(killedBeforeTheEnd >= 50, "\(killedBeforeTheEnd) of \(run) kills hit a sweep")
    }
  }

  /// What each line of a file holds: a record's or archive entry's id, a quarantine entry's
  /// original text, or the line itself when it is not JSON (a line that is not a record, or an
  /// appended line cut short by a kill).
  static func contents(_ url: URL) -> [String] {
    guard let data = try? Data(contentsOf: url) else { return [] }
    return data.split(separator: UInt8(ascii: "\n")).map { line in
      let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any]
      return object?["id"] as? String ?? object?["text"] as? String
        ?? String(decoding: line, as: UTF8.self)
    }
  }

  /// As `killedAtManyPointsLosesNothingAndTheNextSweepFinishes`, with lines that are not
  /// records moved to a quarantine file: fewer kills, since that test covers the archive.
  @Test(.slow) func killedWhileQuarantiningLosesNothingAndTheNextSweepFinishes() throws {
    try Self.withFolder { folder in
      var original = Data()
      var expected: [String] = []
      // A long bad line after every other record: the quarantine file (half a megabyte) is
      // written many times during the sweep, not only when it commits, so kills in the middle
      // leave entries there for the next sweep to take back (without the journal they end up
      // there twice: this test then fails).
      let padding = String(repeating: "x", count: 1000)
      for number in 0..<1000 {
        original += Data((Self.record(number) + "\n").utf8)
        expected.append(String(format: "r%06d", number))
        if number % 2 == 1 {
          original += Data("not a record \(number) \(padding)\n".utf8)
          expected.append("not a record \(number) \(padding)")
        }
      }
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      let files = ["inbox.ndjson", "archive.ndjson", "quarantine.ndjson"].map {
        folder.appendingPathComponent($0)
      }
      let arguments = [
        "--policy", "policy.json", "--now", Self.now, "--store", "inbox.ndjson", "--archive",
        "archive.ndjson", "--quarantine", "quarantine.ndjson",
      ]
      try original.write(to: inbox)
      let started = Date()
      let calibration = try Binaries.run(
        "notif-expire", arguments, in: folder, environment: Self.environment)
      #expect(calibration.status == 0)
      #expect(Self.contents(files[2]).count == 500)
      let duration = max(Date().timeIntervalSince(started), 0.01)
      var killedBeforeTheEnd = 0
      var run = 0
      while (run < 40 || killedBeforeTheEnd < 20) && run < 120 {
        defer { run += 1 }
        for file in files.dropFirst() { try? FileManager.default.removeItem(at: file) }
        try original.write(to: inbox)
        let process = try Self.start("notif-expire", arguments, in: folder)
        let fraction = run < 40 ? 1.1 * Double(run) / 40 : 0.8 * Double(run % 40) / 40
        usleep(UInt32(duration * 1e6 * fraction))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal { killedBeforeTheEnd += 1 }

        let lost = Set(expected).subtracting(files.flatMap(Self.contents))
        #expect(lost.isEmpty, "run \(run): lost \(lost.sorted().prefix(5))")

        let next = try Binaries.run(
          "notif-expire", arguments, in: folder, environment: Self.environment)
        #expect(next.status == 0, "run \(run): \(String(decoding: next.stderr, as: UTF8.self))")
        let everything = files.flatMap(Self.contents)
        #expect(everything.count == expected.count, "run \(run): \(everything.count) lines")
        #expect(Set(everything) == Set(expected), "run \(run): not exactly one of the three")
        #expect(Self.leftovers(folder).isEmpty, "run \(run): left \(Self.leftovers(folder))")
      }
      #expect(killedBeforeTheEnd >= 20, "\(killedBeforeTheEnd) of \(run) kills hit a sweep")
    }
  }

  /// A device as the archive is refused before anything is touched (`/dev/full`, which would
  /// fail every write, and `/dev/null`, which would lose the records): the full-disk paths
  /// are `fullStoreDirectory...` and `fullArchiveFileSystem...`.
  @Test func aDeviceAsTheArchiveIsRefusedAndTheStoreUnchanged() throws {
    try Self.withFolder { folder in
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      let original = Self.store(300)
      try original.write(to: inbox)
      let inode = try FileManager.default.attributesOfItem(atPath: inbox.path)[.systemFileNumber]
      let outcome = try Binaries.run(
        "notif-expire",
        [
          "--policy", "policy.json", "--now", Self.now, "--store", "inbox.ndjson", "--archive",
          "/dev/full",
        ],
        in: folder, environment: Self.environment)
      #expect(outcome.status == 2)
      #expect(
        String(decoding: outcome.stderr, as: UTF8.self).hasPrefix(
          "notif-expire: --archive '/dev/full' is not a regular file: a store, its archive and "
            + "its quarantine file must be regular files\nusage: "))
      #expect(try Data(contentsOf: inbox) == original)
      #expect(!FileManager.default.fileExists(atPath: inbox.path + ".lock"))
      #expect(
        try FileManager.default.attributesOfItem(atPath: inbox.path)[.systemFileNumber] as? Int
          == inode as? Int)
      #expect(Self.leftovers(folder).isEmpty)
    }
  }

  /// Mounts a tmpfs of `size` at a new folder for `body`; false if mounting is not permitted.
  static func withTinyFileSystem(size: String, _ body: (URL) throws -> Void) throws -> Bool {
    let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent(
      "notif-tiny-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: mountPoint) }
    let mount = try Binaries.run(
      "/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", mountPoint.path],
      in: mountPoint, environment: environment)
    guard mount.status == 0 else { return false }
    defer {
      _ = try? Binaries.run(
        "/bin/umount", [mountPoint.path], in: mountPoint.deletingLastPathComponent(),
        environment: environment)
    }
    try body(mountPoint)
    return true
  }

  @Test func fullStoreDirectoryLeavesTheStoreUnchanged() throws {
    let mounted = try Self.withTinyFileSystem(size: "128k") { tiny in
      try Data(Self.policy.utf8).write(to: tiny.appendingPathComponent("policy.json"))
      let inbox = tiny.appendingPathComponent("inbox.ndjson")
      // One old record first, then about 90 kB that stay: the new store cannot fit beside the
      // old one.
      let original = Self.store(1) + Self.store(80, from: 1920)
      try original.write(to: inbox)
      let outcome = try Binaries.run(
        "notif-expire",
        [
          "--policy", "policy.json", "--now", Self.now, "--store", "inbox.ndjson", "--archive",
          "archive.ndjson",
        ],
        in: tiny, environment: Self.environment)
      #expect(outcome.status == 2)
      #expect(
        String(decoding: outcome.stderr, as: UTF8.self)
          == "notif-expire: inbox.ndjson: error: cannot write the new store: write error: "
          + "no space left on device [Failed]\n")
      #expect(try Data(contentsOf: inbox) == original)
      // What went to the archive was taken back.
      #expect(
        (try? Data(contentsOf: tiny.appendingPathComponent("archive.ndjson")))?.isEmpty ?? true)
      #expect(Self.leftovers(tiny).isEmpty)
    }
    if !mounted { Issue.record("mount -t tmpfs is not permitted here: test not run") }
  }

  @Test func fullArchiveFileSystemLeavesTheStoreUnchanged() throws {
    let mounted = try Self.withTinyFileSystem(size: "16k") { tiny in
      try Self.withFolder { folder in
        let inbox = folder.appendingPathComponent("inbox.ndjson")
        let original = Self.store(300)
        try original.write(to: inbox)
        let archive = tiny.appendingPathComponent("archive.ndjson")
        try Data("{\"id\":\"earlier\"}\n".utf8).write(to: archive)
        let outcome = try Binaries.run(
          "notif-expire",
          [
            "--policy", "policy.json", "--now", Self.now, "--store", "inbox.ndjson", "--archive",
            archive.path,
          ],
          in: folder, environment: Self.environment)
        #expect(outcome.status == 2)
        #expect(
          String(decoding: outcome.stderr, as: UTF8.self)
            == "notif-expire: \(archive.path): error: write error: no space left on device [Failed]\n"
        )
        #expect(try Data(contentsOf: inbox) == original)
        #expect(try Data(contentsOf: archive) == Data("{\"id\":\"earlier\"}\n".utf8))
        #expect(Self.leftovers(folder).isEmpty)
      }
    }
    if !mounted { Issue.record("mount -t tmpfs is not permitted here: test not run") }
  }

  /// A batch that a full disk lets through in part is cut back off: the store never ends in a
  /// torn record (the old build left the fragment there), with or without a last line feed.
  @Test(arguments: [true, false]) func parseStoreOnAFullDiskLeavesNoTornRecord(
    _ endsWithLineFeed: Bool
  ) throws {
    let mounted = try Self.withTinyFileSystem(size: "64k") { tiny in
      let inbox = tiny.appendingPathComponent("inbox.ndjson")
      var original = Self.store(3)
      if !endsWithLineFeed { original.removeLast() }
      try original.write(to: inbox)
      // About 120 kB of records, in one batch: more than the file system has room for.
      let payloads = (0..<400).map {
        #"{"aps":{"alert":{"title":"Alice","body":"Lunch? \#($0)"}}}"#
      }
      let input = tiny.appendingPathComponent("payloads.ndjson")
      try Data((payloads.joined(separator: "\n") + "\n").utf8).write(to: input)
      let outcome = try Binaries.run(
        "notif-parse", ["--now", Self.now, "--store", "inbox.ndjson"], in: tiny, stdin: input,
        environment: Self.environment)
      #expect(outcome.status == 2)
      #expect(
        String(decoding: outcome.stderr, as: UTF8.self).hasSuffix(
          "inbox.ndjson: error: write error: no space left on device [WriteFailed]\n"))
      #expect(try Data(contentsOf: inbox) == original)
    }
    if !mounted { Issue.record("mount -t tmpfs is not permitted here: test not run") }
  }

  @Test func aSecondSweepExits75OrWaits() throws {
    try Self.withFolder { folder in
      try Self.store(200).write(to: folder.appendingPathComponent("inbox.ndjson"))
      // flock(1) holds the lock for a second, as an appender would.
      let holder = Process()
      holder.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
      holder.arguments = ["inbox.ndjson.lock", "sleep", "1"]
      holder.currentDirectoryURL = folder
      try holder.run()
      usleep(200_000)
      let refused = try Self.sweep(folder)
      #expect(refused.status == 75)
      #expect(
        String(decoding: refused.stderr, as: UTF8.self)
          == "notif-expire: inbox.ndjson.lock: error: another sweep or appender holds the lock "
          + "[Locked]\n")
      let started = Date()
      let waited = try Self.sweep(folder, ["--wait", "10"])
      #expect(waited.status == 0)
      #expect(Date().timeIntervalSince(started) >= 0.5)
      holder.waitUntilExit()
      let marked = try Binaries.run(
        "notif-mark", ["--seen", "--all", "--store", "inbox.ndjson", "--now", Self.now],
        in: folder, environment: Self.environment)
      #expect(marked.status == 0)
    }
  }

  @Test func anAppenderUsingFlockDuringSweepsLosesNothing() throws {
    try Self.withFolder { folder in
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      try Self.store(1500).write(to: inbox)
      // New records arrive in batches through flock(1) while sweeps run.
      let batches = 20
      for batch in 0..<batches {
        try Self.store(10, from: 100_000 + batch * 10).write(
          to: folder.appendingPathComponent("new-\(batch).ndjson"))
      }
      let appender = Process()
      appender.executableURL = URL(fileURLWithPath: "/bin/sh")
      appender.arguments = [
        "-c",
        "for b in $(seq 0 \(batches - 1)); do flock inbox.ndjson.lock -c "
          + "\"cat new-$b.ndjson >> inbox.ndjson\"; sleep 0.01; done",
      ]
      appender.currentDirectoryURL = folder
      try appender.run()
      var sweeps = 0
      while appender.isRunning || sweeps < 3 {
        let outcome = try Self.sweep(folder, ["--wait", "10"])
        #expect(outcome.status == 0)
        sweeps += 1
      }
      appender.waitUntilExit()
      let stored = Set(Self.ids(inbox).ids)
      let archived = Set(Self.ids(folder.appendingPathComponent("archive.ndjson")).ids)
      let expected = Set(
        (0..<1500).map { String(format: "r%06d", $0) }
          + (0..<batches * 10).map { String(format: "r%06d", 100_000 + $0) })
      #expect(stored.union(archived) == expected)
      #expect(stored.intersection(archived).isEmpty)
    }
  }

  @Test func aMalformedLineIsReportedAndKeptInTheStore() throws {
    try Self.withFolder { folder in
      let inbox = folder.appendingPathComponent("inbox.ndjson")
      let bad = #"{"id":"broken","created_at":"2026-11-01T00:00:00Z""#
      try (Self.store(3) + Data((bad + "\n").utf8) + Self.store(3, from: 1997)).write(to: inbox)
      let outcome = try Self.sweep(folder)
      #expect(outcome.status == 1)
      #expect(
        String(decoding: outcome.stderr, as: UTF8.self)
          == "notif-expire: inbox.ndjson:4:51: error: unexpected end of input inside an object (kept as it is) "
          + "[InvalidJSON]\n")
      let lines = try String(contentsOf: inbox, encoding: .utf8).split(separator: "\n")
      #expect(lines.count == 4)
      #expect(lines[0] == Substring(bad))
      #expect(Self.ids(folder.appendingPathComponent("archive.ndjson")).ids.count == 3)
    }
  }

  /// Many batches of lines go through worker threads: the output keeps the input's order, and
  /// diagnostics come in line order with the right line numbers.
  @Test func batchesKeepTheOrderOfLinesAndDiagnostics() throws {
    try Self.withFolder { folder in
      try Data(#"{"default": {"ttl": "7d"}}"#.utf8).write(
        to: folder.appendingPathComponent("week.json"))
      var input = ""
      var expected = ""
      var expectedErrors = ""
      var line = 0
      for number in 0..<4000 {
        line += 1
        let record = Self.record(number)
        input += record + "\n"
        // Created (2000 - number % 2000) * 431 s before now: gone when that is a week or more.
        if number % 2000 > 596 { expected += record + "\n" }
        if number % 700 == 699 {
          line += 1
          input += "{\"broken\": \n"
          expected += "{\"broken\": \n"
          expectedErrors +=
            "notif-expire: inbox.ndjson:\(line):11: error: unexpected end of input inside an "
            + "object (kept as it is) [InvalidJSON]\n"
        }
      }
      try Data(input.utf8).write(to: folder.appendingPathComponent("inbox.ndjson"))
      let outcome = try Binaries.run(
        "notif-expire", ["--policy", "week.json", "--now", Self.now, "inbox.ndjson"],
        in: folder, environment: Self.environment)
      #expect(outcome.status == 1)
      #expect(String(decoding: outcome.stdout, as: UTF8.self) == expected)
      #expect(String(decoding: outcome.stderr, as: UTF8.self) == expectedErrors)
    }
  }
}
