import NotifJSON
import NotifModel
import NotifSweep

/// What the sweep decides with: the policy, the time, and what the surveys found. Filled
/// before the sweep pass and only read during it, by every worker at once.
final class ExpireRules: @unchecked Sendable {
  let policy: ExpirePolicy
  let now: Timestamp
  /// Per (app, collapse_id) with more than one record: the record that stays.
  var collapseWinners: [KeyHash: Mark] = [:]
  /// Per cap group with more than `keep` records: the oldest record that stays.
  var capThresholds: [KeyHash: Mark] = [:]

  init(policy: ExpirePolicy, now: Timestamp) {
    self.policy = policy
    self.now = now
  }
}

/// Something to report about one line, found while deciding.
struct LineFinding: Equatable {
  var severity: Severity
  var code: String
  /// What is wrong; for an error (a line that is not a record), without what happens to the
  /// line, which the report adds (`SweepDriver.notARecord`).
  var message: String
  /// The 1-based column in Unicode scalars.
  var column: Int
  /// For a `NoRule` warning, the category's key part, to warn once per category.
  var category: [UInt8]?
  /// For an error: whether the line moved to the quarantine file (then it is a warning).
  var quarantined = false
}

/// What the sweep does with one record.
enum Verdict: Equatable {
  case keep
  case remove(RemovalReason)
}

/// Decides, line by line, what stays and why the rest goes. One per thread: it owns its parser.
struct ExpireDecider: ~Copyable {
  let rules: ExpireRules
  var parser = RecordLineParser()
  private var key: [UInt8] = []
  private var warned: Set<[UInt8]> = []
  /// The rules' tables as they are when the decider is made, at the start of a pass (the
  /// passes before set them): read from here, not through the class, whose `var`s cost an
  /// exclusivity check at each read (0.8% of notif-expire's instructions).
  private let collapseWinners: [KeyHash: Mark]
  private let capThresholds: [KeyHash: Mark]
  /// The policy, read from here too: a call to a method of the class's policy retained and
  /// released what it holds, for every record.
  let policy: ExpirePolicy

  init(rules: ExpireRules) {
    self.rules = rules
    policy = rules.policy
    collapseWinners = rules.collapseWinners
    capThresholds = rules.capThresholds
    key.reserveCapacity(256)
  }

  /// What to do with one line: keep it (blank lines too) or remove it. A line that is not a
  /// valid record is kept, with a finding; so is the first record of a category without a
  /// rule that this decider sees.
  mutating func decide(_ line: UnsafeRawBufferPointer, ordinal: Int, finding: inout LineFinding?)
    -> Verdict
  {
    switch parser.parse(line) {
    case .blank:
      return .keep
    case .failed(let error):
      finding = LineFinding(
        severity: .error, code: error.code.rawValue, message: error.message,
        column: RecordLineParser.column(line, error.offset))
      return .keep
    case .record:
      break
    }
    let record = parser.record
    guard case .time(let created) = record.time(.createdAt) else {
      let at = record.index(.createdAt).map {
        record.textOffset + Int(record.json.tokens[$0].start)
      }
      finding = LineFinding(
        severity: .error, code: "BadRecord",
        message: "created_at is missing or not an RFC 3339 time",
        column: RecordLineParser.column(line, at ?? record.textOffset))
      return .keep
    }
    for field in Self.checkedTimes where record.isInvalidTime(field) {
      let at = record.textOffset + Int(record.json.tokens[record.index(field) ?? 0].start)
      finding = LineFinding(
        severity: .error, code: "BadRecord",
        message: "\(field.key) is not an RFC 3339 time or null",
        column: RecordLineParser.column(line, at))
      return .keep
    }
    let rule = policy.rule(for: record)
    if rule == nil {
      noRule(record, line, &finding)
    }
    let mark = Mark(time: created, ordinal: ordinal)
    if isCollapsed(record, mark) { return .remove(.collapsed) }
    if let reason = expiry(record, rule: rule, created: created) { return .remove(reason) }
    if let rule, rule.keep != nil, !capThresholds.isEmpty {
      setCapKey(record, rule)
      if let threshold = capThresholds[KeyHash(key)], mark.isWorse(than: threshold) {
        return .remove(.overCap)
      }
    }
    return .keep
  }

  /// Appends the archive line of the record last decided `.remove(reason)` to `out`.
  func writeArchiveEntry(
    of line: UnsafeRawBufferPointer, reason: RemovalReason, into out: inout ByteBuffer
  ) {
    ArchiveEntry.write(
      record: UnsafeRawBufferPointer(rebasing: line[parser.textRange]),
      isEmptyObject: parser.record.json.tokens[0].count == 0, removedAt: rules.now,
      reason: reason, into: &out)
  }

  private mutating func noRule(
    _ record: RecordView, _ line: UnsafeRawBufferPointer, _ finding: inout LineFinding?
  ) {
    var name: [UInt8] = []
    record.appendKeyPart(.category, to: &name)
    guard warned.insert(name).inserted else { return }
    let category = record.index(.category).flatMap { record.json.stringValue($0) }
    let offset = record.index(.category).map {
      record.textOffset + Int(record.json.tokens[$0].start)
    }
    finding = LineFinding(
      severity: .warning, code: "NoRule",
      message: category.map { "category '\($0)' has no rule and the policy no default: kept" }
        ?? "records without a category have no rule and the policy no default: kept",
      column: RecordLineParser.column(line, offset ?? record.textOffset), category: name)
  }

  // MARK: - The parts of a decision

  /// Whether the record is replaced by a newer one with its app and collapse_id.
  mutating func isCollapsed(_ record: RecordView, _ mark: Mark) -> Bool {
    guard !collapseWinners.isEmpty, !record.isNull(.collapseID) else { return false }
    setCollapseKey(record)
    guard let winner = collapseWinners[KeyHash(key)] else { return false }
    return winner != mark
  }

  /// Why the record has expired at `now`, or nil: its deadline is the earliest of
  /// created_at + ttl, read_at + read_ttl (once read), expires_at, stale_at and dismiss_at,
  /// and it has expired when now is at or after the deadline.
  func expiry(_ record: RecordView, rule: ExpireRule?, created: Timestamp) -> RemovalReason? {
    var deadline = Self.never
    var reason = RemovalReason.expired
    if let ttl = rule?.ttl {
      deadline = Self.adding(ttl, to: created)
    }
    if let readTTL = rule?.readTTL, case .time(let read) = record.time(.readAt) {
      let readDeadline = Self.adding(readTTL, to: read)
      if readDeadline < deadline {
        deadline = readDeadline
        reason = .readExpired
      }
    }
    for field in Self.ownTimes {
      if case .time(let own) = record.time(field), own < deadline {
        deadline = own
        reason = .expired
      }
    }
    return rules.now >= deadline ? reason : nil
  }

  /// The key of a record's collapse set: its app and its collapse_id.
  mutating func collapseKey(_ record: RecordView) -> [UInt8] {
    setCollapseKey(record)
    return key
  }

  /// The key of a record's cap group: its app, its thread and its rule.
  mutating func capKey(_ record: RecordView, _ rule: ExpireRule) -> [UInt8] {
    setCapKey(record, rule)
    return key
  }

  private mutating func setCollapseKey(_ record: RecordView) {
    key.removeAll(keepingCapacity: true)
    record.appendKeyPart(.app, to: &key)
    record.appendKeyPart(.collapseID, to: &key)
  }

  private mutating func setCapKey(_ record: RecordView, _ rule: ExpireRule) {
    key.removeAll(keepingCapacity: true)
    record.appendKeyPart(.app, to: &key)
    record.appendKeyPart(.threadID, to: &key)
    key.append(UInt8(truncatingIfNeeded: rule.number))
    key.append(UInt8(truncatingIfNeeded: rule.number >> 8))
    key.append(UInt8(truncatingIfNeeded: rule.number >> 16))
  }

  /// A record's own deadlines: APNs expiration, Live Activity stale and dismissal dates.
  static let ownTimes: [RecordField] = [.expiresAt, .staleAt, .dismissAt]
  /// The times that must be valid or null for a record to be swept.
  static let checkedTimes: [RecordField] = [.expiresAt, .staleAt, .dismissAt, .readAt]

  /// The deadline of a record that has none: later than any `--now`, even
  /// `Timestamp.maximum`, which a record without deadlines must outlive.
  static let never = Timestamp(seconds: .max, nanoseconds: 999_999_999)

  /// `time` plus `seconds`; `never` where the sum does not fit in 64 bits.
  static func adding(_ seconds: Int64, to time: Timestamp) -> Timestamp {
    let (sum, overflow) = time.seconds.addingReportingOverflow(seconds)
    return overflow ? never : Timestamp(seconds: sum, nanoseconds: time.nanoseconds)
  }

  /// Whether a line may hold a non-null `collapse_id`: it has the bytes `collapse_id"` other
  /// than as `"collapse_id":null`, or an escape `\u` anywhere (a key may spell `collapse_id`
  /// with escapes, `"collapse\u005fid"`, and each escaped spelling has a `\u`: the other
  /// escapes stand for characters the key does not have). Only such lines are parsed by the
  /// collapse survey; records in canonical form escape only control characters.
  ///
  /// Candidates are found by the pair `ps` (`colla|ps|e_id`), about twice per record, where a
  /// search for `c` stops some thirty times: every `collapse_id"` has `ps` at offset 5, and
  /// `nextPair` visits every `ps` and `\u` of the line, so no line that has the key is missed.
  static func mayHaveCollapseID(_ line: UnsafeRawBufferPointer) -> Bool {
    guard let base = line.baseAddress else { return false }
    var candidates = CollapseCandidates(base, count: line.count)
    return candidates.mayHaveCollapseID(0..<line.count)
  }

  /// The offset of the first of `lines` (whole lines, each ended by a line feed but perhaps
  /// the last) that may hold a non-null `collapse_id` (`mayHaveCollapseID`), or nil.
  static func firstLineThatMayHaveCollapseID(_ lines: UnsafeRawBufferPointer) -> Int? {
    guard let base = lines.baseAddress else { return nil }
    var candidates = CollapseCandidates(base, count: lines.count)
    var start = 0
    while start < lines.count {
      let end =
        memchr(base + start, 0x0A, lines.count - start).map { base.distance(to: $0) }
        ?? lines.count
      if candidates.mayHaveCollapseID(start..<end) { return start }
      start = end + 1
    }
    return nil
  }

  /// `mayHaveCollapseID` for each line of a batch in turn, with one search for candidates
  /// running through the whole batch: a search per line paid, for each line, for setting up
  /// and for the bytes after its last whole block, as much again as for the blocks.
  struct CollapseCandidates {
    private let base: UnsafeRawPointer
    private let count: Int
    /// The first candidate not yet looked at (see `nextPair`), or nil when none is left.
    private var next: Int?

    /// Candidates in the `count` bytes at `base`.
    init(_ base: UnsafeRawPointer, count: Int) {
      self.base = base
      self.count = count
      next = ExpireDecider.nextPair(base, count: count, from: 0)
    }

    /// Whether the line at `line` may hold a non-null `collapse_id` (`mayHaveCollapseID`).
    /// Lines are asked in order; the byte after each is a line feed or the end of the bytes,
    /// so no candidate straddles two lines.
    mutating func mayHaveCollapseID(_ line: Range<Int>) -> Bool {
      let needle: StaticString = "collapse_id\""
      let null: StaticString = ":null"
      let length = needle.utf8CodeUnitCount
      let pairOffset = 5
      if let pair = next, pair < line.lowerBound {
        // The lines before were not all asked (those too long to be records).
        next = ExpireDecider.nextPair(base, count: count, from: line.lowerBound)
      }
      while let pair = next, pair < line.upperBound {
        var from = pair + 1
        var found = base.load(fromByteOffset: pair, as: UInt8.self) == UInt8(ascii: "\\")
        let at = pair - pairOffset
        if !found && at >= line.lowerBound && at + length <= line.upperBound
          && memcmp(base + at, needle.utf8Start, length) == 0
        {
          let after = at + length
          found = after + 5 > line.upperBound || memcmp(base + after, null.utf8Start, 5) != 0
          from = after + 5
        }
        if found {
          next = ExpireDecider.nextPair(base, count: count, from: line.upperBound)
          return true
        }
        next = ExpireDecider.nextPair(base, count: count, from: from)
      }
      return false
    }
  }

  /// The first offset at or after `from` where the bytes `ps` or `\u` start, or nil: 32
  /// offsets at a time with AVX2 (`RawBytes.firstPair`). The Swift loop before it, sixteen
  /// offsets a step with `SIMD16` and each block with a match searched byte by byte, took 2,050
  /// instructions a record of the bench (1.1 KB).
  static func nextPair(_ base: UnsafeRawPointer, count: Int, from: Int) -> Int? {
    RawBytes.firstPair((0x70, 0x73), (0x5C, 0x75), in: base, count: count, from: from)
  }
}
