import NotifListing
import NotifModel

/// What notif-digest was asked to gather: the key, the actor, the windows, and what closes a
/// digest and what it lists.
struct DigestOptions: Sendable {
  var key: [RecordPath] = []
  var actor: RecordPath
  var rule = WindowRule.tumbling(seconds: 3600, align: Timestamp(seconds: 0))
  /// `--lookback`, in seconds.
  var lookback: Int64? = nil
  /// `--max-items`: a digest closes once it holds this many records.
  var maxItems: Int? = nil
  var items = ItemsEnd.first
  var limit: Int? = nil
  /// `--flush`: the digests of windows still open are written too, at the end of the input.
  var flush = false
  var now = Timestamp(seconds: 0)
  /// `--all-pushes`: the records the device does not list are digested too.
  var allPushes = false

  /// The options as digest objects record them.
  var digesting: Digesting {
    Digesting(
      key: key.map(\.text), actor: actor.text, rule: rule, lookback: lookback,
      maxItems: maxItems, items: items, limit: limit, allPushes: allPushes)
  }
}

/// Gathers records into digests and hands each one over (`emit`) when it closes.
///
/// The records of one key go into the digest of their window. A window closes, and its digest
/// is written, when a record of the same key created at or after its end comes, or at the end
/// of the input, as long as it ended at or before `--now`; with `--flush`, the digests of
/// windows still open are written at the end too. A digest also closes once it holds
/// `--max-items` records. A record whose window its key has already passed (late, out of
/// order) goes into a new digest of that window. With `--lookback`, a record that comes after
/// a quiet period of its key (no record of that key created in the lookback before it) is
/// passed through at once, alone in a digest whose window is its own instant.
///
/// Records marked `digested_at` are not digested again, but count for the quiet periods.
/// Records the device does not list (`DeviceListing`: background pushes, Live Activity
/// updates, data-only messages ...) are left out of every digest, unless `--all-pushes`, and
/// count for nothing: no person saw them, so they neither fill a digest nor end a quiet period.
/// Memory: per key, its open digests and, with `--lookback`, the time of its latest record.
///
/// What each record decides alone (its checks, key, id, actor and item) comes as its
/// `DigestFacts`, found ahead by `DigestLineFiller`; the digester does what needs the open
/// digests, one record at a time, in input order.
struct Digester {
  let options: DigestOptions
  /// Whether digests keep the line numbers of their records, to mark them (`--store`).
  let keepsLines: Bool
  /// Each key's slot in `states`; a slot is reused once its key has nothing open.
  private var keys: [ByteKey: Int] = [:]
  private var states: [KeyState] = []
  private var freeSlots: [Int] = []
  private var lastWindow: DigestWindow? = nil
  /// The records left out because the device does not list them, since `takeUnlisted`.
  private var unlisted = UnlistedTally()

  struct KeyState {
    var open: [Digest] = []
    /// The newest `created_at` of the key's records, with `--lookback`.
    var latest: Timestamp? = nil
  }

  init(options: DigestOptions, keepsLines: Bool) {
    self.options = options
    self.keepsLines = keepsLines
  }

  /// The records left out since the last call, which starts a new count.
  mutating func takeUnlisted() -> UnlistedTally {
    defer { unlisted = UnlistedTally() }
    return unlisted
  }

  /// Whether no digest is open.
  var isEmpty: Bool { states.allSatisfy { $0.open.isEmpty } }

  /// Counts a record left out because the device does not list it (unless it was digested
  /// already: then it was counted when it was).
  mutating func leaveOut(_ reason: Unlisted, digested: Bool) {
    if !digested { unlisted.add(reason) }
  }

  /// Adds the record of `facts` (whose byte runs are in `batch`), line `line` of its input,
  /// the `input`-th record read; appends to `closed` each digest that closes meanwhile, in the
  /// order they are to be written.
  mutating func add(
    _ facts: DigestFacts, in batch: DigestBatch, line: Int, input: Int, closed: inout [Digest]
  ) {
    let (createdAt, digested) = (facts.createdAt, facts.digested)
    let key = ByteKey(batch.slice(facts.key))
    let slot: Int
    if let found = keys[key] {
      slot = found
    } else if digested && options.lookback == nil {
      return  // nothing of the key is open, and the record opens nothing
    } else if let free = freeSlots.popLast() {
      slot = free
      keys[key] = slot
    } else {
      slot = states.count
      states.append(KeyState())
      keys[key] = slot
    }
    // The state is moved out and back, not copied, so its digests are changed in place.
    var state = KeyState()
    swap(&state, &states[slot])
    defer {
      if !state.open.isEmpty || options.lookback != nil {
        states[slot] = state
      } else {
        keys[key] = nil
        freeSlots.append(slot)
      }
    }
    // Every digest of the key whose window ended by this record's time closes.
    if state.open.contains(where: { $0.window.end <= createdAt && $0.window.end <= options.now }) {
      var closing: [Digest] = []
      state.open.removeAll { digest in
        guard digest.window.end <= createdAt && digest.window.end <= options.now else {
          return false
        }
        closing.append(digest)
        return true
      }
      closing.sort { ($0.window, $0.firstInput) < ($1.window, $1.firstInput) }
      closed += closing
    }
    let quiet: Bool
    if let lookback = options.lookback {
      quiet = Self.isQuiet(createdAt, after: state.latest, lookback: lookback)
      state.latest = max(state.latest ?? createdAt, createdAt)
    } else {
      quiet = false
    }
    if digested { return }
    let window: DigestWindow
    if quiet {
      window = DigestWindow(start: createdAt, end: createdAt)
    } else if let last = lastWindow, last.start <= createdAt, createdAt < last.end {
      window = last
    } else {
      window = options.rule.window(containing: createdAt)
      lastWindow = window
    }
    var position = quiet ? nil : state.open.firstIndex { $0.window == window }
    if position == nil {
      state.open.append(
        Digest(
          key: key.bytes, window: window,
          items: DigestItems(end: options.items, limit: options.limit), firstInput: input))
      position = state.open.count - 1
    }
    guard let at = position else { return }
    add(facts, in: batch, line: line, input: input, to: &state.open[at])
    if quiet || options.maxItems.map({ state.open[at].count >= Int64($0) }) == true {
      closed.append(state.open.remove(at: at))
    }
  }

  private func add(
    _ facts: DigestFacts, in batch: DigestBatch, line: Int, input: Int, to digest: inout Digest
  ) {
    let createdAt = facts.createdAt
    digest.count = Digest.saturated(digest.count, 1)
    if facts.unread { digest.unreadCount = Digest.saturated(digest.unreadCount, 1) }
    digest.latestAt = max(digest.latestAt, createdAt)
    if let actor = facts.actor {
      digest.addActor(ByteKey(batch.slice(actor)), latestAt: createdAt)
    }
    digest.addCategory(facts.category.map { ByteKey(batch.slice($0)) })
    digest.members.add(memberHash: facts.memberHash)
    let sortKey = (createdAt: createdAt, id: batch.slice(facts.id), order: input)
    if digest.items.admits(sortKey) {
      digest.items.insert(
        DigestItem(
          createdAt: createdAt, id: sortKey.id, order: input, bytes: batch.slice(facts.item)))
    }
    if keepsLines { digest.lines.append(line) }
  }

  /// Whether a record created at `instant` comes after a quiet period of `lookback` seconds of
  /// its key, whose newest record before it was created at `latest` (nil: none): whether
  /// nothing of the key was created in the `lookback` before it (`--lookback`).
  static func isQuiet(_ instant: Timestamp, after latest: Timestamp?, lookback: Int64) -> Bool {
    guard let latest else { return true }
    let (end, overflow) = latest.seconds.addingReportingOverflow(lookback)
    return !overflow && Timestamp(seconds: end, nanoseconds: latest.nanoseconds) <= instant
  }

  /// The records that wait in windows still open (after `finish`, those that ended after
  /// `--now`): how many, and when the first of those windows ends; nil when none waits.
  ///
  /// - Complexity: O(open digests).
  var waiting: (records: Int64, firstEnd: Timestamp)? {
    var records: Int64 = 0
    var firstEnd = Timestamp.maximum
    for state in states {
      for digest in state.open {
        records = Digest.saturated(records, digest.count)
        firstEnd = min(firstEnd, digest.window.end)
      }
    }
    return records > 0 ? (records, firstEnd) : nil
  }

  /// At the end of the input: appends to `closed` the digests of the windows that have ended
  /// by `--now` (every open one with `--flush`), by the end of their window, then its start,
  /// then the input order of their first record.
  mutating func finish(closed: inout [Digest]) {
    var closing: [Digest] = []
    let (flush, now) = (options.flush, options.now)
    for slot in states.indices {
      states[slot].open.removeAll { digest in
        guard flush || digest.window.end <= now else { return false }
        closing.append(digest)
        return true
      }
    }
    closing.sort { ($0.window, $0.firstInput) < ($1.window, $1.firstInput) }
    closed += closing
  }
}
