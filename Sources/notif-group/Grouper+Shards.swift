import NotifJSON
import NotifListing
import NotifModel

/// Which groups a worker's grouper keeps with `--jobs`: those whose key hashes to its number.
///
/// Each worker reads the chunks it is given, as before, but keeps only its share of the groups;
/// a record of another's share is sent to that worker (`Grouper.send`), digested: its key, rank,
/// counts, category and summary argument, and its compact text, which the worker adds as it
/// would have added the record (`Grouper.addSent`). So every group is built by one worker, the
/// workers hold no group twice (the memory of one thread), and their groupers are written side
/// by side at the end, not merged (`Grouper.write(_:threads:_:ended:)`).
struct Shard {
  /// This grouper's number, from 0 to `count - 1`.
  let index: Int
  let count: Int

  /// The shard that keeps the groups of a key of hash `hash`: its high bits, as the key
  /// table's slots take its low ones.
  func owner(_ hash: UInt64) -> Int {
    Int((hash >> 40) % UInt64(count))
  }

  func keeps(_ hash: UInt64) -> Bool {
    owner(hash) == index
  }
}

extension Grouper {
  /// The digests of the records sent to shard `target` since the last call; `empty`, an empty
  /// buffer, takes their place.
  mutating func takeSent(to target: Int, leaving empty: ByteBuffer) -> ByteBuffer {
    guard target < sent.count else { return empty }
    defer { sent[target] = empty }
    return sent[target]
  }

  /// Writes the digest of a record of another shard's group to that shard's outbox: its rank
  /// and counts, then its key, category, summary argument (decoded; length -1 for none) and
  /// compact text, each after its length, and the text's place in its file (-1 for none).
  mutating func send(
    _ view: JSONView, isCompact: Bool, fields: RecordFields, key: SortKey, weight: Int64,
    unread: Int, fresh: Int, place: Int?, to target: Int
  ) {
    if sent.isEmpty { sent = (0..<(shard?.count ?? 0)).map { _ in ByteBuffer(capacity: 0) } }
    var out = ByteBuffer(capacity: 0)
    swap(&out, &sent[target])
    defer { swap(&out, &sent[target]) }
    Self.put(Int64(key.major), &out)
    Self.put(key.createdAt.seconds, &out)
    Self.put(Int64(key.createdAt.nanoseconds), &out)
    Self.put(Int64(bitPattern: UInt64(key.relevance.bitPattern)), &out)
    Self.put(weight, &out)
    Self.put(Int64(unread | fresh << 1), &out)
    Self.putString(groupKeys.currentKey, &out)
    putDecoded(view, fields.category, emptyIsNone: false, &out)
    putDecoded(view, fields.summaryArg, emptyIsNone: true, &out)
    if isCompact {
      Self.putString(view.raw(0), &out)
    } else {
      var compact = ByteBuffer(capacity: 4096)
      JSONWriter.writeCompact(view, 0, into: &compact)
      compact.withUnsafeBytes { Self.putString($0, &out) }
    }
    Self.put(isCompact ? Int64(place ?? -1) : -1, &out)
  }

  /// Adds the records whose digests `send` wrote to `sent`, as `add(record:...)` would have.
  mutating func addSent(_ sent: ByteBuffer) {
    sent.withUnsafeBytes { raw in
      var at = 0
      func int() -> Int64 {
        defer { at += 8 }
        return raw.loadUnaligned(fromByteOffset: at, as: Int64.self)
      }
      func string() -> UnsafeRawBufferPointer? {
        let length = Int(raw.loadUnaligned(fromByteOffset: at, as: Int32.self))
        at += 4
        guard length >= 0 else { return nil }
        defer { at += length }
        return UnsafeRawBufferPointer(rebasing: raw[at..<(at + length)])
      }
      while at < raw.count {
        let major = Int(int())
        let createdAt = Timestamp(seconds: int(), nanoseconds: Int32(int()))
        let relevance = Double(bitPattern: UInt64(bitPattern: int()))
        let weight = int()
        let flags = Int(int())
        let groupKey = string() ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let category = string().map { categories.intern($0).id } ?? -1
        let argument = string().map { summaryArgs.intern($0).id } ?? -1
        let record = string() ?? UnsafeRawBufferPointer(start: nil, count: 0)
        let place = int()
        let key = SortKey(createdAt: createdAt, relevance: relevance, major: major, minor: 0)
        let interned = groupKeys.intern(groupKey)
        let index = Int(interned.id)
        let (leads, keep) = wants(key, index: index, isNew: interned.isNew)
        update(
          index, isNew: interned.isNew, key: key,
          Contribution(
            category: category, summaryArg: argument, weight: weight, createdAt: createdAt),
          unread: flags & 1, fresh: flags >> 1 & 1, leads: leads, keep: keep, record: record,
          place: place >= 0 ? Int(place) : nil)
      }
    }
  }

  private static func put(_ value: Int64, _ out: inout ByteBuffer) {
    withUnsafeBytes(of: value) { out.append($0) }
  }

  private static func putString(_ bytes: UnsafeRawBufferPointer, _ out: inout ByteBuffer) {
    withUnsafeBytes(of: Int32(bytes.count)) { out.append($0) }
    out.append(bytes)
  }

  /// Appends the decoded string at `index` after its length; length -1 for null, a missing
  /// key, or (with `emptyIsNone`) an empty string: as `intern` numbers them.
  private func putDecoded(
    _ view: JSONView, _ index: Int, emptyIsNone: Bool, _ out: inout ByteBuffer
  ) {
    guard index >= 0, view.kind(index) == .string,
      !(emptyIsNone && view.rawString(index).count == 0)
    else {
      withUnsafeBytes(of: Int32(-1)) { out.append($0) }
      return
    }
    guard view.tokens[index].flag else {
      Self.putString(view.rawString(index), &out)
      return
    }
    var decoded = ByteBuffer(capacity: 64)
    JSONEscapes.unescape(view.rawString(index), into: &decoded)
    decoded.withUnsafeBytes { Self.putString($0, &out) }
  }

  /// Calls `emit` with the group objects of `parts` (each on one line, with its newline):
  /// groupers that read parts of one input and hold no group twice (shards), written as one
  /// grouper holding them all would be, in the order of their leading records. Each part is
  /// put in order, and the parts merged. With `threads`, that many threads write the group
  /// objects (`writeOnThreads`), and this one hands them to `emit` in order.
  ///
  /// The objects go out in pieces: the records and the other long values go to `emit` from
  /// where they are kept, so a group object is never copied whole (that of a big group, or of
  /// a big record, is several times the size of one). After each group object, calls `ended`
  /// with whether a sum of its weights passed `FieldLimits.largest`.
  ///
  /// - Throws: what `emit` throws; or, when a leading record does not read back from its file
  ///   (`RecordStore.read`), its error, after every object before that group's went to `emit`.
  static func write(
    _ parts: inout [Grouper], threads: Int = 0,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void, ended: (Bool) -> Void = { _ in }
  ) throws(SystemError) {
    // No copy of a part is held: writing frees each group's items, and a second reference to
    // a part's groups would have them all copied first (a million groups: 115 MB).
    guard !parts.isEmpty else { return }
    var recorded = ByteBuffer(capacity: 128)
    parts[0].grouping.write(into: &recorded)
    if threads > 0 {
      return try writeOnThreads(parts, grouping: recorded, threads: threads, emit, ended: ended)
    }
    var out = ByteBuffer(capacity: Self.pieceSize + 4096)
    var merged = MergedOrder(parts)
    var emitFailed = false
    func emitting(_ piece: UnsafeRawBufferPointer) throws(SystemError) {
      do { try emit(piece) } catch {
        emitFailed = true
        throw error
      }
    }
    do {
      while let (part, index) = merged.next(parts) {
        try parts[part].write(index, grouping: recorded, into: &out, emitting, ended)
      }
    } catch {
      // A group whose leading record did not read back wrote nothing of its object.
      if !emitFailed { try flush(&out, emit) }
      throw error
    }
    try flush(&out, emit)
  }

  /// The key of the leading record of group `index`.
  func leaderKey(of index: Int) -> SortKey {
    groups[index].leaderKey
  }
}

/// The groups of several groupers in the order of their leading records: each grouper's
/// groups sorted, then merged.
struct MergedOrder {
  private let ranking: Ranking
  private let orders: [[Int]]
  private var next: [Int]
  /// The leading record's key of each part's next group, read once per group: read in the
  /// comparisons, through the array of parts, it copied a grouper each time (a third of the
  /// time of the write).
  private var heads: [SortKey?]

  init(_ parts: [Grouper]) {
    ranking = parts.first?.options.ranking ?? .time
    let orders = parts.map { $0.order() }
    self.orders = orders
    next = [Int](repeating: 0, count: parts.count)
    heads = parts.indices.map { part in
      orders[part].first.map { parts[part].leaderKey(of: $0) }
    }
  }

  /// The next group, as its grouper's place in `parts` (the parts this was made of) and its
  /// number there; nil after the last.
  mutating func next(_ parts: [Grouper]) -> (part: Int, index: Int)? {
    var best = -1
    var bestKey: SortKey? = nil
    for part in heads.indices {
      guard let key = heads[part] else { continue }
      if let current = bestKey, !ranking.precedes(key, current) { continue }
      best = part
      bestKey = key
    }
    guard best >= 0 else { return nil }
    let index = orders[best][next[best]]
    next[best] += 1
    heads[best] =
      next[best] < orders[best].count ? parts[best].leaderKey(of: orders[best][next[best]]) : nil
    return (best, index)
  }
}
