import NotifCLI
import NotifJSON
import NotifModel
import NotifSweep
import Testing

@testable import notif_expire

/// Reads a policy from its text, or returns its error's message and offset.
private func policy(_ text: String) -> Result<ExpirePolicy, ExpirePolicy.FormatError> {
  var parser = JSONParser()
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBytes { raw in
    guard case .complete = parser.parse(raw, isFinal: true) else {
      return .failure(ExpirePolicy.FormatError(offset: -1, message: "not JSON"))
    }
    return parser.withView(over: raw) { view in
      do throws(ExpirePolicy.FormatError) {
        return .success(try ExpirePolicy(view))
      } catch {
        return .failure(error)
      }
    }
  }
}

private let now = Timestamp(seconds: 1_795_338_000)  // 2026-11-22T09:00:00Z

private func testEnvironment() -> ToolEnvironment {
  ToolEnvironment(clock: { Timestamp(seconds: 42) })
}

/// Decides the expiry of one record line under a policy, at `now`.
private func expiry(_ line: String, _ rules: String, at now: Timestamp = now) -> RemovalReason?? {
  guard case .success(let loaded) = policy(rules) else { return nil }
  let decider = ExpireDecider(rules: ExpireRules(policy: loaded, now: now))
  var parser = RecordLineParser()
  let bytes = Array(line.utf8)
  return bytes.withUnsafeBytes { raw -> RemovalReason?? in
    guard parser.parse(raw) == .record else { return nil }
    let record = parser.record
    guard case .time(let created) = record.time(.createdAt) else { return nil }
    return .some(decider.expiry(record, rule: loaded.rule(for: record), created: created))
  }
}

@Suite struct ExpirePolicyTests {
  @Test func keepsUpToTheLargestCap() throws {
    let loaded = try policy(#"{"default": {"keep": 2147483647}}"#).get()
    #expect(loaded.defaultRule?.keep == 2_147_483_647)
  }

  @Test func readsRulesForTheDefaultAndEachCategory() throws {
    let loaded = try policy(
      #"{"default": {"ttl": "7d"}, "categories": {"message": {"ttl": "30d", "read_ttl": "1d12h", "keep": 50}, "promo": {}}}"#
    ).get()
    #expect(loaded.defaultRule == ExpireRule(ttl: 604_800, number: 0))
    #expect(
      loaded.categories.map { String(decoding: $0.name, as: UTF8.self) } == ["message", "promo"])
    #expect(
      loaded.categories[0].rule
        == ExpireRule(ttl: 2_592_000, readTTL: 129_600, keep: 50, number: 1))
    #expect(loaded.categories[1].rule == ExpireRule(number: 2))
    #expect(loaded.hasKeep)
  }

  @Test(arguments: [
    (#"{"defaults": {}}"#, 1, "unknown key 'defaults': a policy has 'default' and 'categories'"),
    (
      #"{"default": {"ttl": 7}}"#, 20, "'ttl' of 'default' must be a duration string such as \"7d\""
    ),
    (
      #"{"default": {"ttl": "7"}}"#, 20,
      "'ttl' of 'default': '7' has no unit: write it as 7s, 7m, 7h or 7d"
    ),
    (
      #"{"default": {"ttl": "1y"}}"#, 20,
      "'ttl' of 'default': '1y': months and years have no fixed length; use days (30d, 365d)"
    ),
    (
      #"{"default": {"read_ttl": "1h30d"}}"#, 25,
      "'read_ttl' of 'default': '1h30d': give each unit once, largest first, as in 1d12h"
    ),
    (
      #"{"default": {"keep": 0}}"#, 21,
      "'keep' of 'default' must be a whole number of records from 1 to 2147483647"
    ),
    (
      #"{"default": {"keep": 2.5}}"#, 21,
      "'keep' of 'default' must be a whole number of records from 1 to 2147483647"
    ),
    (
      #"{"default": {"keep": 2147483648}}"#, 21,
      "'keep' of 'default' must be a whole number of records from 1 to 2147483647"
    ),
    (
      #"{"default": {"keep": 9223372036854775808}}"#, 21,
      "'keep' of 'default' must be a whole number of records from 1 to 2147483647"
    ),
    (#"{"categories": []}"#, 15, "'categories' must be an object of rules"),
    (
      #"{"categories": {"m": "30d"}}"#, 21,
      "the rule for 'm' must be an object with 'ttl', 'read_ttl' or 'keep'"
    ),
    (
      #"{"categories": {"m": {"tll": "1d"}}}"#, 22,
      "unknown key 'tll' in the rule for 'm': use 'ttl', 'read_ttl' or 'keep'"
    ),
  ])
  func rejectsWhatIsNotAPolicyAtTheOffendingByte(
    _ text: String, _ offset: Int, _ message: String
  ) {
    #expect(throws: ExpirePolicy.FormatError(offset: offset, message: message)) {
      try policy(text).get()
    }
  }

  @Test func ruleForARecordFallsBackToTheDefaultAndMatchesEscapedNames() throws {
    let loaded = try policy(
      #"{"default": {"ttl": "1d"}, "categories": {"caf\u00e9": {"ttl": "2d"}}}"#
    )
    .get()
    var parser = RecordLineParser()
    for (line, ttl) in [
      (#"{"category":"café"}"#, Int64(172_800)), (#"{"category":"caf\u00e9"}"#, 172_800),
      (#"{"category":"other"}"#, 86_400), (#"{"category":null}"#, 86_400), ("{}", 86_400),
    ] {
      let bytes = Array(line.utf8)
      bytes.withUnsafeBytes { raw in
        #expect(parser.parse(raw) == .record)
        #expect(loaded.rule(for: parser.record)?.ttl == ttl, "\(line)")
      }
    }
  }
}

@Suite struct ExpiryTests {
  static let rules = #"{"default": {"ttl": "1d", "read_ttl": "1h"}}"#

  @Test(arguments: [
    // created_at + ttl, at and around the deadline: expired when now >= deadline.
    (#"{"created_at":"2026-11-21T09:00:00Z"}"#, RemovalReason?.some(.expired)),
    (#"{"created_at":"2026-11-21T09:00:01Z"}"#, nil),
    (#"{"created_at":"2026-11-21T09:00:00.000000001Z"}"#, nil),
    (#"{"created_at":"2026-11-21T08:59:59.999999999Z"}"#, .expired),
    // read_at + read_ttl, when it is the earliest.
    (#"{"created_at":"2026-11-22T00:00:00Z","read_at":"2026-11-22T08:00:00Z"}"#, .readExpired),
    (#"{"created_at":"2026-11-22T00:00:00Z","read_at":"2026-11-22T08:00:01Z"}"#, nil),
    (#"{"created_at":"2026-11-21T09:00:00Z","read_at":"2026-11-21T09:00:00Z"}"#, .readExpired),
    // A record's own dates win where earlier.
    (#"{"created_at":"2026-11-22T08:00:00Z","expires_at":"2026-11-22T09:00:00Z"}"#, .expired),
    (#"{"created_at":"2026-11-22T08:00:00Z","stale_at":"2026-11-22T08:59:00Z"}"#, .expired),
    (#"{"created_at":"2026-11-22T08:00:00Z","dismiss_at":"2026-11-22T09:00:01Z"}"#, nil),
    (#"{"created_at":"2026-11-20T08:00:00Z","expires_at":"2027-01-01T00:00:00Z"}"#, .expired),
  ])
  func expiresAtTheEarliestDeadline(_ line: String, _ expected: RemovalReason?) {
    #expect(expiry(line, Self.rules) == .some(expected))
  }

  @Test func withoutARuleOnlyOwnDatesExpire() {
    let rules = #"{"categories": {"m": {"ttl": "1s"}}}"#
    #expect(expiry(#"{"category":"x","created_at":"2000-01-01T00:00:00Z"}"#, rules) == .some(nil))
    #expect(
      expiry(
        #"{"category":"x","created_at":"2000-01-01T00:00:00Z","expires_at":"2001-01-01T00:00:00Z"}"#,
        rules) == .some(.expired))
  }

  /// The longest times to live a policy takes, from the latest times a record holds: never
  /// expired, never a trap.
  @Test(arguments: ["9223372036854775807s", "15250284452471w", "106751991167300d"])
  func theLongestTimeToLiveNeverExpires(_ ttl: String) {
    let rules = #"{"default": {"ttl": "\#(ttl)", "read_ttl": "\#(ttl)"}}"#
    let line =
      #"{"category":"m","created_at":"9999-12-31T23:59:59.999999999Z","read_at":"9999-12-31T23:59:59Z"}"#
    #expect(expiry(line, rules, at: Timestamp.maximum) == .some(nil))
  }

  @Test func hugeTimeToLiveDoesNotOverflow() {
    #expect(ExpireDecider.adding(Int64.max, to: Timestamp(seconds: 10)) == ExpireDecider.never)
    #expect(
      ExpireDecider.adding(Int64.max, to: Timestamp.maximum) > Timestamp.maximum)
  }

  /// The latest `--now` there is must not expire a record that has no deadline, nor one whose
  /// time to live runs past it.
  @Test(arguments: [
    #"{"category":"x","created_at":"2000-01-01T00:00:00Z"}"#,
    #"{"category":"m","created_at":"9999-12-31T23:59:59Z"}"#,
    #"{"category":"h","created_at":"2000-01-01T00:00:00Z"}"#,
  ])
  func nothingWithoutADeadlineExpiresAtTheLatestTime(_ line: String) {
    let rules = #"{"categories": {"m": {"ttl": "1s"}, "h": {"ttl": "15250284452471w3d"}}}"#
    #expect(expiry(line, rules, at: Timestamp.maximum) == .some(nil))
  }
}

@Suite struct CollapseAndCapTests {
  @Test func marksOrderByTimeThenReadingOrder() {
    let t = Timestamp(seconds: 100)
    let first = Mark(time: t, ordinal: 1)
    let second = Mark(time: t, ordinal: 2)
    let newer = Mark(time: Timestamp(seconds: 100, nanoseconds: 1), ordinal: 0)
    // Collapse: the later of two equal times replaces the earlier.
    #expect(second.replaces(first) && !first.replaces(second))
    #expect(newer.replaces(second))
    // Cap: the later of two equal times is dropped first.
    #expect(second.isWorse(than: first) && !first.isWorse(than: second))
    #expect(second.isWorse(than: newer))
  }

  @Test func capGroupKeepsTheNewestNWithFirstReadWinningTies() {
    var group = CapGroup()
    let times: [Int64] = [5, 1, 9, 5, 7, 5, 2]
    for (ordinal, seconds) in times.enumerated() {
      group.insert(Mark(time: Timestamp(seconds: seconds), ordinal: ordinal), keep: 3)
    }
    #expect(group.total == 7)
    // Kept: 9, 7 and the first 5 (ordinal 0); the heap's root is the oldest kept.
    #expect(group.heap.count == 3)
    #expect(group.heap[0] == Mark(time: Timestamp(seconds: 5), ordinal: 0))
  }

  @Test(arguments: [
    (#"{"collapse_id":null}"#, false),
    (#"{"collapse_id":"x"}"#, true),
    (#"{"collapse_id": null}"#, true),
    (#"{"title":"collapse","collapse_id":null}"#, false),
    (#"{"title":"collapse_id","collapse_id":null}"#, true),
    (#"{"collapse_id":null,"payload":{"collapse_id":"nested"}}"#, true),
    (#"{"id":"a"}"#, false),
    (#"{"collapse_id""#, true),
    // Any `\u` may be part of an escaped spelling of the key: the line is parsed.
    (#"{"collapse\u005fid":"x"}"#, true),
    (#"{"\u0063ollapse_id":null}"#, true),
    (#"{"title":"caf\u00e9","collapse_id":null}"#, true),
    (#"{"title":"a\nb","collapse_id":null}"#, false),
    (#"\u"#, true),
    (#"\"#, false),
  ])
  func findsLinesThatMayHaveACollapseID(_ line: String, _ expected: Bool) {
    Array(line.utf8).withUnsafeBytes { #expect(ExpireDecider.mayHaveCollapseID($0) == expected) }
  }

  /// One search through a batch of lines answers each line as a search of the line alone:
  /// lines of every kind in many orders, with some lines not asked (as a line too long to be a
  /// record is not), so that candidates in lines skipped are passed over.
  @Test func aBatchAnswersEachLineAsTheLineAlone() {
    let kinds = [
      #"{"collapse_id":"x"}"#, #"{"collapse_id":null}"#, #"{"collapse_id":null,"apps":"ps"}"#,
      #"{"t":"\u0041"}"#, #"{"a":"p"}"#, "", "s", "ps", #"\u"#, #"\"#, "p",
      #"{"title":"ps ps","collapse_id":null,"x":"collapse_id\"":1}"#,
      String(repeating: "ps", count: 40) + #""collapse_id":null"#,
      String(repeating: "x", count: 70) + #""collapse_id":"k""#,
    ]
    var answers = [0, 0]
    for round in 0..<600 {
      let lines = (0..<(1 + round % 12)).map {
        kinds[(round * 7 + $0 * 13 + $0 * $0 * 5) % kinds.count]
      }
      let bytes = Array(lines.joined(separator: "\n").utf8) + [0x0A]
      bytes.withUnsafeBytes { batch in
        guard let base = batch.baseAddress else { return }
        var candidates = ExpireDecider.CollapseCandidates(base, count: batch.count)
        var start = 0
        for (i, line) in lines.enumerated() {
          let place = start..<start + line.utf8.count
          start = place.upperBound + 1
          if (round / 2 + i * 3) % 4 == 0 { continue }  // not asked
          let alone = Array(line.utf8).withUnsafeBytes { ExpireDecider.mayHaveCollapseID($0) }
          answers[alone ? 1 : 0] += 1
          #expect(candidates.mayHaveCollapseID(place) == alone, "\(line) in \(lines)")
        }
      }
    }
    #expect(answers[0] > 500 && answers[1] > 500)
    // A candidate in a line not asked answers for no other line.
    for skipped in [#"\u"#, #""collapse_id":"k""#] {
      Array((skipped + "\n{}\n").utf8).withUnsafeBytes { batch in
        guard let base = batch.baseAddress else { return }
        var candidates = ExpireDecider.CollapseCandidates(base, count: batch.count)
        let second = skipped.utf8.count + 1
        let answer = candidates.mayHaveCollapseID(second..<second + 2)
        #expect(!answer, "after \(skipped)")
      }
    }
  }

  /// The key at every offset of lines of many lengths, whole and one byte short: the
  /// block-at-a-time scan has no blind spot at block edges or in the bytes after the last block.
  @Test(arguments: [#""collapse_id":"x""#, #""collapse_id":null"#, #""collapse_id""#])
  func findsTheKeyAtEveryOffset(_ key: String) {
    let expected = key != #""collapse_id":null"#
    for before in 0...20 {
      for after in 0...20 {
        let line =
          Array(repeating: UInt8(ascii: "p"), count: before) + Array(key.utf8)
          + Array(repeating: UInt8(ascii: "s"), count: after)
        line.withUnsafeBytes {
          #expect(ExpireDecider.mayHaveCollapseID($0) == expected, "\(before) \(after)")
        }
        let cut = Array(line.dropLast(after + 1))
        cut.withUnsafeBytes {
          // One byte short: `:nul` is not null; `collapse_id` without its quote is no key.
          #expect(
            ExpireDecider.mayHaveCollapseID($0) == (key != #""collapse_id""#),
            "cut \(before) \(after)")
        }
      }
    }
  }

  /// `nextPair` finds the same offsets as a byte-by-byte search, on bytes near `p` and `s`,
  /// `\` and `u`, and at every length around a block's, so pairs fall on block edges and in
  /// the last bytes.
  @Test func findsEveryPairLikeAByteSearch() {
    let alphabet: [UInt8] = [
      0x00, 0x01, 0x5B, 0x5C, 0x5D, 0x6F, 0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x80, 0xFF,
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for length in 0..<64 {
      for _ in 0..<50 {
        let bytes = (0..<length).map { _ in
          state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
          return alphabet[Int(state >> 33) % alphabet.count]
        }
        var expected: [Int] = []
        for i in 0..<max(0, length - 1)
        where (bytes[i] == 0x70 && bytes[i + 1] == 0x73)
          || (bytes[i] == 0x5C && bytes[i + 1] == 0x75)
        {
          expected.append(i)
        }
        bytes.withUnsafeBytes { raw in
          var found: [Int] = []
          var from = 0
          while let base = raw.baseAddress,
            let at = ExpireDecider.nextPair(base, count: raw.count, from: from)
          {
            found.append(at)
            from = at + 1
          }
          #expect(found == expected, "\(bytes)")
        }
      }
    }
  }

  @Test func fingerprintSetFindsRepeatsAcrossGrowth() {
    var set = FingerprintSet()
    for value in 1...5000 { set.insert(UInt32(value)) }
    for value in stride(from: 2, through: 5000, by: 1000) { set.insert(UInt32(value)) }
    #expect(set.repeatedCount == 5)
    #expect(set.isRepeated(2) && set.isRepeated(4002))
    #expect(!set.isRepeated(3) && !set.isRepeated(9999))
  }

  @Test func keyHashesSeparateKeysThatShareBytes() {
    #expect(KeyHash(Array("ab".utf8)) != KeyHash(Array("ba".utf8)))
    #expect(KeyHash([]) != KeyHash([0]))
    #expect(KeyHash(Array("same".utf8)) == KeyHash(Array("same".utf8)))
  }
}

@Suite struct ExpireCommandTests {
  private func configure(_ arguments: [String], terminal: Bool = false) throws(UsageError)
    -> ExpireCommand.Configuration
  {
    let scanned = try OptionScanner.scan(arguments, ExpireCommand.options)
    var environment = testEnvironment()
    environment.stderrIsTerminal = terminal
    return try ExpireCommand.configure(scanned, environment: environment)
  }

  @Test(arguments: [
    ([], "--policy is required: it says how long each category lives"),
    (["-p", "p", "--wait", "3"], "--wait needs --store: only a store is locked"),
    (
      ["-p", "p", "--store", "s", "--wait", "-1"],
      "--wait: '-1' is not a number of seconds from 0 to 86400"
    ),
    (
      ["-p", "p", "--store", "s", "--wait", "1e3"],
      "--wait: '1e3' is not a number of seconds from 0 to 86400"
    ),
    (
      ["-p", "p", "--store", "s", "f"],
      "--store sweeps one file in place: give no file operands with it"
    ),
    (["-p", "p", "--store", ""], "--store: the file name is empty"),
    (
      ["-p", "p", "--now", "tomorrow"],
      "--now: 'tomorrow' is not an RFC 3339 time such as 2026-11-22T09:05:00Z"
    ),
    (
      ["-p", "p", "--now", "0000-01-01T00:00:00+01:00"],
      "--now: '0000-01-01T00:00:00+01:00' is before the earliest supported time, 0001-01-01T00:00:00Z"
    ),
  ])
  func rejectsBadCommandLines(_ arguments: [String], _ message: String) {
    #expect(throws: UsageError(message)) { try configure(arguments) }
  }

  @Test func progressFollowsTheTerminalUnlessTold() throws {
    #expect(try configure(["-p", "p"], terminal: true).sweep.reporting.progress)
    #expect(try !configure(["-p", "p"], terminal: false).sweep.reporting.progress)
    #expect(
      try !configure(["-p", "p", "--progress", "--no-progress"], terminal: true).sweep.reporting
        .progress)
    #expect(try configure(["-p", "p", "--no-progress", "--progress"]).sweep.reporting.progress)
  }

  @Test func timeComesFromNowThenTheEnvironmentThenTheClock() throws {
    #expect(try configure(["-p", "p", "--now", "@1795338000"]).now == now)
    #expect(try configure(["-p", "p"]).now == Timestamp(seconds: 42))
    let scanned = try OptionScanner.scan(["-p", "p"], ExpireCommand.options)
    var environment = testEnvironment()
    environment.sourceDateEpoch = "1795338000"
    #expect(try ExpireCommand.configure(scanned, environment: environment).now == now)
  }

  @Test func storeModeTakesTheWaitAndNoOperands() throws {
    let configuration = try configure(["-p", "p", "--store", "inbox.ndjson", "--wait=2.5"])
    #expect(configuration.sweep.store == "inbox.ndjson")
    #expect(configuration.sweep.wait == 2.5)
  }
}

@Suite struct CollapseLogTests {
  static func entry(_ index: Int) -> CollapseLog.Entry {
    (
      KeyHash(Array("key \(index % 13)".utf8)),
      Mark(time: Timestamp(seconds: Int64(index * 7), nanoseconds: Int32(index)), ordinal: index)
    )
  }

  /// Entries come back in the order appended, from memory alone or from the file and memory.
  @Test(arguments: [1, 3, 1000, 5000])
  func replaysEveryEntryInOrder(_ memoryLimit: Int) throws {
    var log = CollapseLog(temporaryDirectory: "/tmp", memoryLimit: memoryLimit)
    for index in 0..<2500 { log.append(Self.entry(index)) }
    let (complete, count) = (log.isComplete, log.count)
    #expect(complete && count == 2500)
    var replayed: [CollapseLog.Entry] = []
    try log.forEach { replayed.append($0) }
    #expect(replayed.count == 2500)
    for (index, entry) in replayed.enumerated() {
      #expect(entry.key == Self.entry(index).key && entry.mark == Self.entry(index).mark)
    }
    // Read again, the same.
    var again = 0
    try log.forEach { _ in again += 1 }
    #expect(again == 2500)
  }

  /// With no room for its file the log says it is incomplete rather than lose entries quietly.
  @Test func saysSoWhenItCannotSpill() throws {
    var log = CollapseLog(temporaryDirectory: "/nonexistent/notif-expire-test", memoryLimit: 4)
    for index in 0..<4 { log.append(Self.entry(index)) }
    let (complete, count) = (log.isComplete, log.count)
    #expect(complete && count == 4)
    log.append(Self.entry(4))
    let failed = !log.isComplete
    #expect(failed)
    var replayed = 0
    try log.forEach { _ in replayed += 1 }
    #expect(replayed == 0)
  }
}
