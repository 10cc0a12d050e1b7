import NotifJSON
import NotifListing
import NotifModel
import NotifSweep

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

/// A record that cannot be digested: why, and where in its line.
struct DigestProblem: Error, Equatable {
  var code: String
  var message: String
  /// The byte offset in the record's JSON text.
  var offset: Int
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
struct Digester {
  let options: DigestOptions
  /// Whether digests keep the line numbers of their records, to mark them (`--store`).
  let keepsLines: Bool
  /// Each key's slot in `states`; a slot is reused once its key has nothing open.
  private var keys: [ByteKey: Int] = [:]
  private var states: [KeyState] = []
  private var freeSlots: [Int] = []
  private var lastWindow: DigestWindow? = nil
  private var keyBuffer = ByteBuffer(capacity: 256)
  private var itemBuffer = ByteBuffer(capacity: 4096)
  /// `{"app":`, `,"thread_id":` ...: each path's member start in the `key` object.
  private let keyStarts: [[UInt8]]
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
    keyStarts = options.key.enumerated().map { position, path in
      var start = ByteBuffer(capacity: 32)
      start.append(position == 0 ? "{" : ",")
      JSONEscapes.writeString(path.text, into: &start)
      start.append(":")
      return start.bytes
    }
  }

  /// The records left out since the last call, which starts a new count.
  mutating func takeUnlisted() -> UnlistedTally {
    defer { unlisted = UnlistedTally() }
    return unlisted
  }

  /// Whether no digest is open.
  var isEmpty: Bool { states.allSatisfy { $0.open.isEmpty } }

  /// Adds the record `record`, line `line` of its input, the `input`-th record read; appends
  /// to `closed` each digest that closes meanwhile, in the order they are to be written.
  ///
  /// - Throws: `DigestProblem` for a record that cannot be digested (it is left alone).
  mutating func add(_ record: RecordView, line: Int, input: Int, closed: inout [Digest])
    throws(DigestProblem)
  {
    let view = record.json
    func problem(_ message: String, _ index: Int?) -> DigestProblem {
      DigestProblem(
        code: "BadRecord", message: message, offset: index.map { Int(view.tokens[$0].start) } ?? 0)
    }
    guard case .time(let createdAt) = record.time(.createdAt) else {
      throw problem(
        "'created_at' is missing or not an RFC 3339 time such as 2026-11-22T09:05:00Z",
        record.index(.createdAt))
    }
    var digested = false
    switch record.time(.digestedAt) {
    case .absent, .null: break
    case .time: digested = true
    case .invalid(let index):
      throw problem("'digested_at' is not null or an RFC 3339 time", index)
    }
    var id: [UInt8] = []
    var category: [UInt8]? = nil
    if !digested {
      guard let index = record.index(.id), view.kind(index) == .string else {
        throw problem(
          "'id' is missing or not a string: a digest names its records by id", record.index(.id))
      }
      id = view.tokens[index].flag ? Array(view.string(index).utf8) : Array(view.rawString(index))
      if let index = record.index(.category) {
        switch view.kind(index) {
        case .string:
          category =
            view.tokens[index].flag ? Array(view.string(index).utf8) : Array(view.rawString(index))
        case .null: break
        default:
          throw problem("'category' is \(view.kind(index).phrase), not a string or null", index)
        }
      }
    }
    // Every record is put to the rule, so that one is rejected whichever tool reads it.
    var listing = ListingFields()
    for field in ListingFields.fields {
      if let index = record.index(field) { listing.set(field, index) }
    }
    let reason: Unlisted?
    do throws(RecordProblem) {
      reason = try DeviceListing.unlisted(view, listing)
    } catch {
      throw DigestProblem(code: error.code, message: error.message, offset: error.offset)
    }
    if let reason, !options.allPushes {
      if !digested { unlisted.add(reason) }
      return
    }
    keyBuffer.removeAll()
    for (position, path) in options.key.enumerated() {
      keyStarts[position].withUnsafeBytes { keyBuffer.append($0) }
      if let index = path.find(in: record) {
        JSONWriter.writeCompact(view, index, into: &keyBuffer)
      } else {
        keyBuffer.append("null")
      }
    }
    keyBuffer.append("}")
    let key = ByteKey(keyBuffer.bytes)
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
      if let latest = state.latest {
        let (end, overflow) = latest.seconds.addingReportingOverflow(lookback)
        quiet = !overflow && Timestamp(seconds: end, nanoseconds: latest.nanoseconds) <= createdAt
      } else {
        quiet = true
      }
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
    add(
      record, id: id, category: category, createdAt: createdAt, line: line, input: input,
      to: &state.open[at])
    if quiet || options.maxItems.map({ state.open[at].count >= Int64($0) }) == true {
      closed.append(state.open.remove(at: at))
    }
  }

  private mutating func add(
    _ record: RecordView, id: [UInt8], category: [UInt8]?, createdAt: Timestamp, line: Int,
    input: Int, to digest: inout Digest
  ) {
    let view = record.json
    digest.count = Digest.saturated(digest.count, 1)
    if record.isNull(.readAt) { digest.unreadCount = Digest.saturated(digest.unreadCount, 1) }
    digest.latestAt = max(digest.latestAt, createdAt)
    if let index = options.actor.find(in: record), view.kind(index) == .string,
      view.rawString(index).count > 0
    {
      let actor =
        view.tokens[index].flag ? Array(view.string(index).utf8) : Array(view.rawString(index))
      digest.addActor(ByteKey(actor), latestAt: createdAt)
    }
    digest.addCategory(category.map(ByteKey.init))
    id.withUnsafeBytes { digest.members.add(member: $0) }
    let sortKey = (createdAt: createdAt, id: id, order: input)
    if digest.items.admits(sortKey) {
      itemBuffer.removeAll()
      // A record notif-parse wrote is compact and canonical already: its bytes are copied.
      if record.isCompact {
        itemBuffer.append(view.bytes)
      } else {
        JSONWriter.writeCompact(view, 0, into: &itemBuffer)
      }
      digest.items.insert(
        DigestItem(createdAt: createdAt, id: id, order: input, bytes: itemBuffer.bytes))
      if itemBuffer.capacity > 1 << 20 { itemBuffer = ByteBuffer(capacity: 4096) }
    }
    if keepsLines { digest.lines.append(line) }
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
