import NotifJSON
import NotifListing
import NotifModel

/// Groups records, or merges group objects, and writes the group objects.
///
/// The group table hashes the raw bytes of the group key (app and thread, decoded), so the
/// path of a record builds no `String`; categories and summary arguments are numbered the
/// same way, once per distinct value.
struct Grouper {
  /// The options; with `--merge`, those the command line does not give are settled by the
  /// first group object (`settlement`).
  var options: GroupOptions
  /// With `--merge`: what the group objects read must agree with.
  var settlement: MergeSettlement
  let groupKeys = ByteInterner()
  let categories = ByteInterner()
  let summaryArgs = ByteInterner()
  /// The groups' leading records.
  private(set) var records: RecordStore
  /// Group i's key is key i of `groupKeys`: its `app` and `thread_id`, decoded, as
  /// `appendKeyPart` makes them (with `--by none`, added unindexed, one per group).
  private(set) var groups: [Group] = []
  /// The input order of the next record or group object.
  private(set) var nextMajor = 0
  private var scratch = ByteBuffer(capacity: 4096)
  /// Whether items are kept: `--no-items` not given, and with `--merge`, every group object
  /// read so far had them.
  private(set) var keepsItems: Bool
  /// With `--jobs`: which groups this grouper keeps, and the records it read of the others,
  /// for the workers that keep them (`Grouper+Shards.swift`).
  var shard: Shard?
  /// With `shard`: the digests of the records sent to each shard since `takeSent`.
  var sent: [ByteBuffer] = []

  /// `files` are the run's, where leading records may stay (`RecordStore`).
  init(options: GroupOptions, shard: Shard? = nil, files: RecordFiles? = nil) {
    self.options = options
    records = RecordStore(files: files, shares: options.by == .none ? 1 : shard?.count ?? 1)
    settlement = MergeSettlement(given: options.given)
    keepsItems = options.items
    self.shard = options.by == .none ? nil : shard  // no group of two records: nothing to send
  }

  /// The options the group objects written record: with `--merge`, as settled.
  var grouping: Grouping {
    Grouping(
      by: options.by, ranking: options.ranking, order: options.order,
      limit: keepsItems ? options.limit : nil, lastSeen: options.lastSeen,
      allPushes: options.allPushes)
  }

  // MARK: - Records

  /// Adds a checked record: `fields` and `facts` come from `RecordFields` and `RecordFieldReader`;
  /// `place` is where its text is in a file of `records.files`, if it is in one.
  mutating func add(
    record view: JSONView, isCompact: Bool, fields: RecordFields, facts: RecordFacts,
    place: Int? = nil
  ) {
    let key = SortKey(
      createdAt: facts.createdAt, relevance: facts.relevance, major: nextMajor, minor: 0)
    nextMajor += 1
    let unread = fields.readAt < 0 || view.kind(fields.readAt) == .null ? 1 : 0
    var fresh = fields.seenAt < 0 || view.kind(fields.seenAt) == .null ? 1 : 0
    if let lastSeen = options.lastSeen, facts.createdAt <= lastSeen { fresh = 0 }

    groupKeys.beginKey()
    appendKeyPart(view, fields.app)
    if options.by != .app { appendKeyPart(view, fields.threadID) }
    let hash = groupKeys.keyHash()
    if let shard, !shard.keeps(hash) {
      send(
        view, isCompact: isCompact, fields: fields, key: key, weight: facts.weight,
        unread: unread, fresh: fresh, place: place, to: shard.owner(hash))
      return
    }
    let contribution = Contribution(
      category: intern(view, fields.category, into: categories, emptyIsNone: false),
      summaryArg: intern(view, fields.summaryArg, into: summaryArgs, emptyIsNone: true),
      weight: facts.weight, createdAt: facts.createdAt)
    let (index, isNew) =
      options.by == .none ? (Int(groupKeys.addKey()), true) : locate(hash: hash)
    let (leads, keep) = wants(key, index: index, isNew: isNew)
    guard (leads || keep) && !isCompact else {
      update(
        index, isNew: isNew, key: key, contribution, unread: unread, fresh: fresh,
        leads: leads, keep: keep, record: leads || keep ? view.raw(0) : .init(start: nil, count: 0),
        place: place)
      return
    }
    scratch.removeAll()
    JSONWriter.writeCompact(view, 0, into: &scratch)
    let compact = scratch
    compact.withUnsafeBytes {
      update(
        index, isNew: isNew, key: key, contribution, unread: unread, fresh: fresh,
        leads: leads, keep: keep, record: $0)
    }
    shrinkScratch()
  }

  /// The group of the key built in `groupKeys`, whose hash is `hash`, and whether it is new.
  mutating func locate(hash: UInt64) -> (index: Int, isNew: Bool) {
    let interned = groupKeys.internKey(hash: hash)
    return (Int(interned.id), interned.isNew)
  }

  /// Whether the record of `key` leads group `index`, and whether it is kept in its items.
  func wants(_ key: SortKey, index: Int, isNew: Bool) -> (leads: Bool, keep: Bool) {
    let leads = isNew || options.ranking.precedes(key, groups[index].leaderKey)
    var keep = options.items
    if keep, !isNew, options.limit != nil, groups[index].admitsItem(key) == false {
      keep = false  // would be dropped at once: do not copy the record
    }
    return (leads, keep)
  }

  /// Adds a record to group `index` (new: made of it): `record` is its compact text, needed
  /// when it `leads` or is kept (`keep`); `place`, where that text is in a file, if it is.
  mutating func update(
    _ index: Int, isNew: Bool, key: SortKey, _ contribution: Contribution, unread: Int,
    fresh: Int, leads: Bool, keep: Bool, record: UnsafeRawBufferPointer, place: Int? = nil
  ) {
    let ranking = options.ranking
    var slot = isNew ? RecordStore.Slot.empty : groups[index].leading
    if leads {
      isNew
        ? (slot = records.store(record, at: place))
        : records.replace(&slot, with: record, at: place)
    }
    let item: [UInt8] = keep ? Array(record) : []
    if isNew {
      groups.append(
        Group(
          count: 1, unread: unread, fresh: fresh, latestAt: key.createdAt, leaderKey: key,
          leader: contribution, leading: slot,
          items: options.items ? TopList(limit: options.limit, ranking: ranking) : nil))
    } else {
      groups[index].count += 1
      groups[index].unread += unread
      groups[index].fresh += fresh
      if key.createdAt > groups[index].latestAt { groups[index].latestAt = key.createdAt }
      if leads {
        groups[index].replaceLeader(key, contribution)
        groups[index].leading = slot
        if records.wantsCompacting { compactRecords() }
      } else {
        groups[index].addMore(contribution)
      }
    }
    if keep {
      groups[index].insertItem(Item(key: key, bytes: item))
    }
  }

  /// Copies the leading records into a new store, leaving the holes of the records they
  /// replaced behind.
  ///
  /// - Complexity: O(groups + their leading records' bytes).
  mutating func compactRecords() {
    let fresh = RecordStore(files: records.files, shares: records.shares)
    for index in groups.indices {
      groups[index].leading = fresh.take(groups[index].leading, from: records)
    }
    records = fresh
  }

  /// The number of the string at `index` in `table`; -1 for null, a missing key, or (with
  /// `emptyIsNone`) an empty string.
  private mutating func intern(
    _ view: JSONView, _ index: Int, into table: ByteInterner, emptyIsNone: Bool
  ) -> Int32 {
    guard index >= 0, view.kind(index) == .string else { return -1 }
    let raw = view.rawString(index)
    if emptyIsNone && raw.count == 0 { return -1 }
    if !view.tokens[index].flag { return table.intern(raw).id }
    scratch.removeAll()
    JSONEscapes.unescape(raw, into: &scratch)
    defer { shrinkScratch() }
    return scratch.withUnsafeBytes { table.intern($0).id }
  }

  /// Appends the decoded string at `index` (or null) to the group key being built.
  private mutating func appendKeyPart(_ view: JSONView, _ index: Int) {
    guard index >= 0, view.kind(index) == .string else {
      groupKeys.appendKey(tag: 0, UnsafeRawBufferPointer(start: nil, count: 0))
      return
    }
    let raw = view.rawString(index)
    if !view.tokens[index].flag {
      groupKeys.appendKey(tag: 1, raw)
      return
    }
    scratch.removeAll()
    JSONEscapes.unescape(raw, into: &scratch)
    scratch.withUnsafeBytes { groupKeys.appendKey(tag: 1, $0) }
    shrinkScratch()
  }

  /// The value at `index`, compact: its bytes as read when the text is already compact.
  mutating func compactBytes(_ view: JSONView, _ index: Int, isCompact: Bool) -> [UInt8] {
    if isCompact { return Array(view.raw(index)) }
    scratch.removeAll()
    JSONWriter.writeCompact(view, index, into: &scratch)
    defer { shrinkScratch() }
    return scratch.bytes
  }

  /// Lets go of the scratch buffer once a long value has made it large: it is kept for the
  /// next record, and one long record would otherwise hold its size for the whole run.
  private mutating func shrinkScratch() {
    if scratch.capacity > Self.largeScratch { scratch = ByteBuffer(capacity: 4096) }
  }

  static let largeScratch = 1 << 20

  // MARK: - Group objects

  /// The input order number for the next group object.
  mutating func takeMajor() -> Int {
    defer { nextMajor += 1 }
    return nextMajor
  }

  /// Adds a group object read by `add(object:isCompact:fieldReader:)`, merging it into the group
  /// of the same key (`app` and `thread_id` decoded, under `--by`).
  mutating func add(part: Group, leading: [UInt8], view: JSONView, app: Int, thread: Int) {
    var part = part
    if part.items == nil && keepsItems {
      // One object without items: no group can list its items in full, so none lists any.
      keepsItems = false
      for index in groups.indices { groups[index].items = nil }
    }
    if !keepsItems { part.items = nil }
    groupKeys.beginKey()
    appendKeyPart(view, app)
    if options.by != .app { appendKeyPart(view, thread) }
    let interned =
      options.by == .none ? (id: groupKeys.addKey(), isNew: true) : groupKeys.internKey()
    let records = records
    if interned.isNew {
      part.leading = leading.withUnsafeBytes { records.store($0) }
      groups.append(part)
    } else if groups[Int(interned.id)].merge(part, ranking: options.ranking) {
      leading.withUnsafeBytes { records.replace(&groups[Int(interned.id)].leading, with: $0) }
      if records.wantsCompacting { compactRecords() }
    }
  }

  /// The `count` of the group that a group object of key `app` and `thread` would merge into,
  /// grouped `by`; nil when it would make a group of its own. Adds no key.
  mutating func mergedCount(_ view: JSONView, app: Int, thread: Int, by: GroupOptions.Key)
    -> Int?
  {
    guard by != .none else { return nil }
    groupKeys.beginKey()
    appendKeyPart(view, app)
    if by == .thread { appendKeyPart(view, thread) }
    return groupKeys.findKey().map { groups[Int($0)].count }
  }

  /// Makes every group keep the items that `limit` and `ranking` keep: the first `limit` in
  /// feed order.
  mutating func relist(limit: Int?, ranking: Ranking) {
    for index in groups.indices {
      groups[index].items = groups[index].items.map {
        TopList($0.elements, limit: limit, ranking: ranking)
      }
    }
  }

  // MARK: - Output

  /// The numbers of the groups in the order of their leading records.
  func order() -> [Int] {
    let ranking = options.ranking
    var order = Array(groups.indices)
    groups.withUnsafeBufferPointer { groups in
      order.sort { ranking.precedes(groups[$0].leaderKey, groups[$1].leaderKey) }
    }
    return order
  }

  /// Writes group `index` (see `write(_:threads:_:ended:)`), then lets go of its items.
  mutating func write(
    _ index: Int, grouping: ByteBuffer, into out: inout ByteBuffer,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void, _ ended: (Bool) -> Void
  ) throws(SystemError) {
    try writeObject(index, grouping: grouping, into: &out, emit)
    ended(groups[index].weightPassed)
    groups[index].removeItems()  // free the records once written
  }

  /// Writes group `index` as `write(_:grouping:into:_:_:)` does, but keeps its items: for the
  /// threads that write the group objects of groupers they share (`Grouper+Output.swift`).
  func writeObject(
    _ index: Int, grouping: ByteBuffer, into out: inout ByteBuffer,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void
  ) throws(SystemError) {
    try write(
      groups[index], key: groupKeys.bytes(Int32(index)), grouping: grouping, into: &out, emit)
  }

  /// About how many bytes group `index`'s object takes: its leading record and items, and a
  /// little for the rest (more for each category and summary argument).
  func objectSize(_ index: Int) -> Int {
    Int(groups[index].leading.count) + 512 + 64 * groups[index].statCount
      + groups[index].itemBytes
  }

  /// How many groups have their leading record in its file (`RecordStore`).
  var leadingInFiles: Int {
    groups.reduce(0) { $0 + ($1.leading.isInFile ? 1 : 0) }
  }

  /// Whether a sum of group `index`'s weights was saturated (`Group.weightPassed`).
  func weightPassed(_ index: Int) -> Bool { groups[index].weightPassed }

  /// What `write` collects before it calls `emit`, and the shortest value it hands over as it
  /// is.
  static let pieceSize = 64 * 1024

  /// Hands what `out` holds to `emit`, and empties it.
  static func flush(
    _ out: inout ByteBuffer, _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void
  ) throws(SystemError) {
    guard out.count > 0 else { return }
    let failure: SystemError? = out.withUnsafeBytes { raw in
      do throws(SystemError) {
        try emit(raw)
        return nil
      } catch {
        return error
      }
    }
    out.removeAll()
    if let failure { throw failure }
  }

  /// Appends `bytes` to `out`; a run of a piece's size or more goes to `emit` where it is,
  /// after what `out` holds.
  private static func put(
    _ bytes: [UInt8], into out: inout ByteBuffer,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void
  ) throws(SystemError) {
    let failure: SystemError? = bytes.withUnsafeBytes { raw in
      do throws(SystemError) {
        try put(raw, into: &out, emit)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  private static func put(
    _ raw: UnsafeRawBufferPointer, into out: inout ByteBuffer,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void
  ) throws(SystemError) {
    if raw.count >= pieceSize {
      try flush(&out, emit)
      try emit(raw)
    } else {
      out.append(raw)
      if out.count >= pieceSize { try flush(&out, emit) }
    }
  }

  /// Writes part `part` of a group key (see `ByteInterner.appendKey`) as JSON text: a string,
  /// or null for a null part or none; the text of the record it came from, which was canonical
  /// (`JSONEscapes.writeCanonical`).
  private static func putKeyPart(
    _ key: UnsafeRawBufferPointer, _ part: Int, into out: inout ByteBuffer,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void
  ) throws(SystemError) {
    func length(at offset: Int) -> Int {
      Int(UInt32(littleEndian: key.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)))
    }
    var offset = 0
    for _ in 0..<part where offset + 5 <= key.count { offset += 5 + length(at: offset) }
    guard offset + 5 <= key.count, key[offset] == 1 else {
      out.append("null")
      return
    }
    let bytes = UnsafeRawBufferPointer(
      rebasing: key[(offset + 5)..<(offset + 5 + length(at: offset))])
    out.append(UInt8(ascii: "\""))
    JSONEscapes.appendEscaped(bytes, into: &out)
    out.append(UInt8(ascii: "\""))
    if out.count >= pieceSize { try flush(&out, emit) }
  }

  private func write(
    _ group: Group, key: UnsafeRawBufferPointer, grouping: ByteBuffer,
    into out: inout ByteBuffer, _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void
  ) throws(SystemError) {
    // The leading record first: should it not read back from its file, no byte of the group
    // object is written.
    try records.read(group.leading) { (leading) throws(SystemError) in
      try write(group, leading: leading, key: key, grouping: grouping, into: &out, emit)
    }
  }

  private func write(
    _ group: Group, leading: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer,
    grouping: ByteBuffer, into out: inout ByteBuffer,
    _ emit: (UnsafeRawBufferPointer) throws(SystemError) -> Void
  ) throws(SystemError) {
    Self.append(GroupField.app, into: &out)
    try Self.putKeyPart(key, 0, into: &out, emit)
    Self.append(GroupField.threadID, into: &out)
    try Self.putKeyPart(key, 1, into: &out, emit)  // none with --by app: null
    Self.append(GroupField.count, into: &out)
    out.append(decimal: Int64(group.count))
    Self.append(GroupField.unreadCount, into: &out)
    out.append(decimal: Int64(group.unread))
    Self.append(GroupField.newCount, into: &out)
    out.append(decimal: Int64(group.fresh))
    Self.append(GroupField.latestAt, into: &out)
    out.append(UInt8(ascii: "\""))
    group.latestAt.write(into: &out)
    out.append(UInt8(ascii: "\""))
    Self.append(GroupField.leading, into: &out)
    try Self.put(leading, into: &out, emit)
    Self.append(GroupField.moreCount, into: &out)
    out.append(decimal: Int64(group.count - 1))
    Self.append(GroupField.moreWeight, into: &out)
    out.append(decimal: group.moreWeight)
    Self.append(GroupField.moreCategories, into: &out)
    out.append(UInt8(ascii: "["))
    // Most groups have one category and one summary argument, or none: no sort, no new array.
    var categories = group.categories.entries
    if categories.count > 1 {
      // The interner alone in the comparison: one that names `self` copied the whole Grouper
      // for each sort, retaining each of its references, which the threads of -j2 share.
      let names = self.categories
      categories.sort { a, b in
        if a.id < 0 || b.id < 0 { return a.id < b.id }
        return names.less(a.id, b.id)
      }
    }
    for (position, stat) in categories.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      Self.append(GroupField.CategoryEntry.category, into: &out)
      if stat.id < 0 {
        out.append("null")
      } else {
        writeString(self.categories.bytes(stat.id), into: &out)
      }
      Self.append(GroupField.CategoryEntry.count, into: &out)
      out.append(decimal: Int64(stat.count))
      Self.append(GroupField.CategoryEntry.weight, into: &out)
      out.append(decimal: stat.weight)
      out.append(UInt8(ascii: "}"))
      if out.count >= Self.pieceSize { try Self.flush(&out, emit) }
    }
    out.append(UInt8(ascii: "]"))
    Self.append(GroupField.moreSummaryArgs, into: &out)
    out.append(UInt8(ascii: "["))
    var arguments = group.summaryArgs.entries
    if arguments.count > 1 {
      let names = summaryArgs
      arguments.sort { a, b in
        if a.latestAt != b.latestAt { return a.latestAt > b.latestAt }
        return names.less(a.id, b.id)
      }
    }
    for (position, stat) in arguments.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      Self.append(GroupField.SummaryArgEntry.summaryArg, into: &out)
      writeString(summaryArgs.bytes(stat.id), into: &out)
      Self.append(GroupField.SummaryArgEntry.count, into: &out)
      out.append(decimal: Int64(stat.count))
      Self.append(GroupField.SummaryArgEntry.latestAt, into: &out)
      out.append(UInt8(ascii: "\""))
      stat.latestAt.write(into: &out)
      out.append("\"}")
      if out.count >= Self.pieceSize { try Self.flush(&out, emit) }
    }
    out.append(UInt8(ascii: "]"))
    Self.append(GroupField.items, into: &out)
    if let items = group.items {
      out.append(UInt8(ascii: "["))
      for (position, item) in items.sorted(options.order).enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        try Self.put(item.bytes, into: &out, emit)
      }
      out.append(UInt8(ascii: "]"))
      Self.append(GroupField.itemsOmitted, into: &out)
      out.append(decimal: Int64(group.count - items.count))
    } else {
      out.append("null")
      Self.append(GroupField.itemsOmitted, into: &out)
      out.append(decimal: Int64(group.count))
    }
    grouping.withUnsafeBytes { out.append($0) }
    out.append("}\n")
  }

  // Keys are written from the `KeyList`s the `--merge` reader reads them with: `{"key":` or
  // `,"key":`, made once from `GroupField`.
  @inline(__always)
  private static func append(_ field: GroupField, into out: inout ByteBuffer) {
    appendKey(objectKeys, field.rawValue, into: &out)
  }

  @inline(__always)
  private static func append(_ field: GroupField.CategoryEntry, into out: inout ByteBuffer) {
    appendKey(categoryKeys, field.rawValue, into: &out)
  }

  @inline(__always)
  private static func append(_ field: GroupField.SummaryArgEntry, into out: inout ByteBuffer) {
    appendKey(argumentKeys, field.rawValue, into: &out)
  }

  @inline(__always)
  private static func appendKey(_ keys: KeyList, _ position: Int, into out: inout ByteBuffer) {
    out.append(keys.memberStart(position))
  }

  private func writeString(_ bytes: UnsafeRawBufferPointer, into out: inout ByteBuffer) {
    out.append(UInt8(ascii: "\""))
    JSONEscapes.appendEscaped(bytes, into: &out)
    out.append(UInt8(ascii: "\""))
  }
}

// MARK: - Parts grouped on other threads

extension Grouper {
  /// Numbers the records (or group objects) read from now on from `major`: with `--jobs`,
  /// chunk n of the input numbers its records from n << 32, so that input order is the order
  /// of the numbers whichever thread reads them.
  mutating func numberFrom(_ major: Int) {
    nextMajor = major
  }

  /// The number the next record (or group object) would get.
  var nextNumber: Int { nextMajor }

  /// Adds the groups of `part`, a grouper with the same options that read other records of
  /// the same input, numbered apart (`numberFrom`): the result is what this grouper would hold
  /// had it read them itself, in whatever order the parts come.
  ///
  /// The part's category and summary argument numbers are its own: they are looked up again
  /// here by their bytes, once each; a group's key, which its `app` and `thread_id` are
  /// written from, is the same in every part.
  ///
  /// - Complexity: O(groups of `part` + their statistics and items).
  mutating func absorb(_ part: Grouper) {
    if !part.keepsItems && keepsItems {
      keepsItems = false
      for index in groups.indices { groups[index].items = nil }
    }
    var categoryNumbers = Renumbering(from: part.categories, to: categories)
    var argumentNumbers = Renumbering(from: part.summaryArgs, to: summaryArgs)
    let records = records
    for (index, group) in part.groups.enumerated() {
      var group = group
      group.renumberLeader(
        category: { categoryNumbers[$0] }, argument: { argumentNumbers[$0] })
      if !keepsItems { group.items = nil }
      // Group i of a grouper is the one of its i-th key.
      let key = part.groupKeys.bytes(Int32(index))
      let interned =
        options.by == .none ? (id: groupKeys.add(key), isNew: true) : groupKeys.intern(key)
      guard !interned.isNew else {
        group.renumberStats(category: { categoryNumbers[$0] }, argument: { argumentNumbers[$0] })
        group.leading = records.take(group.leading, from: part.records)
        groups.append(group)
        continue
      }
      let existing = Int(interned.id)
      let leads = groups[existing].merge(
        group, ranking: options.ranking,
        category: { categoryNumbers[$0] }, argument: { argumentNumbers[$0] })
      if leads {
        records.release(groups[existing].leading)
        groups[existing].leading = records.take(group.leading, from: part.records)
      }
    }
    if records.wantsCompacting { compactRecords() }
  }
}

/// The numbers in one string table of the strings of another, looked up once each.
private struct Renumbering {
  let source: ByteInterner
  let target: ByteInterner
  private var numbers: [Int32]

  init(from source: ByteInterner, to target: ByteInterner) {
    self.source = source
    self.target = target
    numbers = Array(repeating: -1, count: source.count)
  }

  /// The number in `target` of the string numbered `id` in `source`; -1 (none) stays -1.
  subscript(id: Int32) -> Int32 {
    mutating get {
      guard id >= 0 else { return id }
      if numbers[Int(id)] < 0 { numbers[Int(id)] = target.intern(source.bytes(id)).id }
      return numbers[Int(id)]
    }
  }
}
