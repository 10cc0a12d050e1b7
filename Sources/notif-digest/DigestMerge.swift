import NotifCLI
import NotifJSON
import NotifListing
import NotifModel

/// A digest object read by `--merge`: the digest, what its `digesting` says, and its place.
struct ReadDigest {
  var digest: Digest
  /// The `key` object with its values canonical (`KeyValue`): what digests are merged by. The
  /// digest's own `key` is as it was read, so that a digest written as it was read keeps it.
  var key: [UInt8]
  /// `digesting.lookback`, in seconds.
  var lookback: Int64?
  /// How `digesting` cuts time into windows: what a record passed through by `--lookback` is
  /// put back into (`DigestMergeRun`).
  var windows: WindowSpec
  /// The input (file operand) it was read from, counted from 0: each holds the digests of one
  /// part of the records, in the order of the parts.
  var part = 0
  /// Where it starts, for a diagnostic about it after the reading.
  var file = ""
  var line = 0
  /// `digesting`, compact, its keys in their documented order.
  var digesting: [UInt8]
  var maxItems: Int?
  var itemsEnd: ItemsEnd
  var limit: Int?
  /// The compact value of each entry of `digesting`, for messages.
  var entries: [[UInt8]]
  /// Where `digesting`'s values start, by entry, in the object's text.
  var entryOffsets: [Int]
}

/// The windows a `digesting` names, as read: a `WindowRule` once the zone of `--at` is read
/// (`rule(zones:)`), which only a merge that moves a record into its window needs.
enum WindowSpec: Equatable {
  case tumbling(seconds: Int64, align: Timestamp)
  case schedule(times: [Int], zone: String)

  /// The rule; the zone of a schedule read from the tz database, once per name.
  ///
  /// - Throws: `ZoneRules.Problem` when the zone cannot be read here.
  func rule(zones: inout [String: ZoneRules]) throws(ZoneRules.Problem) -> WindowRule {
    switch self {
    case .tumbling(let seconds, let align):
      return .tumbling(seconds: seconds, align: align)
    case .schedule(let times, let name):
      if let zone = zones[name] { return .schedule(times: times, zone: zone) }
      let zone = name == ZoneRules.utc.name ? ZoneRules.utc : try ZoneRules(named: name)
      zones[name] = zone
      return .schedule(times: times, zone: zone)
    }
  }
}

/// Reads digest objects for `--merge`: their top level as every tool reads it
/// (`DigestObjectReader`), then what only a merge reads, each checked against the contract of
/// notif(5): every key and no other, `digest_id`'s digits, the counts that must agree,
/// `actors`, `categories`, `digesting` and the items' `id` and `created_at`.
enum DigestMergeReader {
  static let actorKeys: [[UInt8]] = DigestField.ActorEntry.allCases.map { Array($0.key.utf8) }
  static let categoryKeys: [[UInt8]] = DigestField.CategoryEntry.allCases.map {
    Array($0.key.utf8)
  }
  static let digestingKeys: [[UInt8]] = DigestField.DigestingEntry.allCases.map {
    Array($0.key.utf8)
  }

  /// How a `digesting` without `all_pushes` reads: made by a notif-digest older than
  /// `--all-pushes`, which digested every record, it reads as true, so that `--merge` never
  /// joins it to digests that left out what the device does not list (as notif-group reads a
  /// `grouping` without it).
  static let allPushesImplied = true
  /// A missing `all_pushes`, in messages.
  static let allPushesMissing = "missing (every push, by a notif-digest older than --all-pushes)"

  /// The digest object at the root of `view`, the `order`-th read.
  ///
  /// - Throws: `RecordProblem` (`BadDigest`) for an object that breaks the contract.
  static func read(_ view: JSONView, order: Int, itemOrder: inout Int) throws(RecordProblem)
    -> ReadDigest
  {
    func bad(_ message: String, _ index: Int) -> RecordProblem {
      DigestObjectReader.problem(view, index, message)
    }
    if view.kind(0) == .object && view.member(0, "digest_id") == nil
      && view.member(0, "created_at") != nil
    {
      throw bad("a record, not a digest object: --merge reads what notif-digest writes", 0)
    }
    let top = try DigestObjectReader(view)
    if let unknown = top.unknownKey {
      throw bad("unknown key '\(view.string(unknown))' in a digest object", unknown)
    }
    try top.checkPresent(DigestField.allCases)
    func value(_ field: DigestField) -> Int { top[field] ?? 0 }  // every one is there
    func time(_ index: Int, _ name: String) throws(RecordProblem) -> Timestamp {
      try DigestObjectReader.time(view, index, name: name)
    }
    func integer(_ index: Int, _ name: String, _ range: ClosedRange<Int64>) throws(RecordProblem)
      -> Int64
    {
      guard let number = view.integer(index), range.contains(number) else {
        throw bad(FieldLimits.notInRange(name, range), index)
      }
      return number
    }
    func text(_ index: Int, _ name: String) throws(RecordProblem) -> [UInt8] {
      guard view.kind(index) == .string else {
        throw bad("'\(name)' is \(view.kind(index).phrase), not a string", index)
      }
      return view.tokens[index].flag ? Array(view.string(index).utf8) : Array(view.rawString(index))
    }
    typealias Field = DigestField
    let idIndex = value(.digestID)
    guard !view.tokens[idIndex].flag, let id = DigestID(hex: view.rawString(idIndex)) else {
      throw bad("'\(Field.digestID.key)' is not 32 lowercase hexadecimal digits", idIndex)
    }
    let keyIndex = value(.key)
    // As read, for its `digest_id`, which hashes the bytes its writer wrote; and canonical,
    // which is what the merge compares (an older notif-digest wrote values as they came).
    var keyText = ByteBuffer(capacity: 128)
    JSONWriter.writeCompact(view, keyIndex, into: &keyText)
    var canonicalKey = ByteBuffer(capacity: 128)
    KeyValue.writeKeyObject(view, keyIndex, into: &canonicalKey)
    let (start, end) = (top.windowStart, top.windowEnd)
    let count = top.count
    let unread = top.unreadCount
    guard unread <= count else {
      throw bad(FieldLimits.notInRange(Field.unreadCount.key, 0...count), value(.unreadCount))
    }
    let latestAt = top.latestAt

    // `digesting`, first: the items are listed by its options.
    let digestingIndex = value(.digesting)
    guard view.kind(digestingIndex) == .object else {
      throw bad(
        "'\(Field.digesting.key)' is \(view.kind(digestingIndex).phrase), not an object",
        digestingIndex)
    }
    typealias Entry = DigestField.DigestingEntry
    // `all_pushes` may be missing: see `allPushesImplied`.
    let entries = try members(
      view, digestingIndex, keys: digestingKeys, what: "'\(Field.digesting.key)'",
      optional: Entry.allPushes.rawValue, bad)
    func entry(_ e: Entry) -> Int { entries[e.rawValue] }
    func name(_ e: Entry) -> String { "\(Field.digesting.key).\(e.key)" }
    func nullOr(_ e: Entry, _ check: (Int) throws(RecordProblem) -> Void) throws(RecordProblem) {
      if view.kind(entry(e)) != .null { try check(entry(e)) }
    }
    guard view.kind(entry(.key)) == .array, view.tokens[entry(.key)].count > 0 else {
      throw bad("'\(name(.key))' is not an array of record paths", entry(.key))
    }
    var keyProblem: RecordProblem? = nil
    view.forEachElement(of: entry(.key)) { element in
      if keyProblem == nil && (view.kind(element) != .string || view.rawString(element).isEmpty) {
        keyProblem = bad("'\(name(.key))' is not an array of record paths", element)
      }
    }
    if let keyProblem { throw keyProblem }
    guard view.kind(entry(.actor)) == .string, view.rawString(entry(.actor)).count > 0 else {
      throw bad("'\(name(.actor))' is not a record path", entry(.actor))
    }
    let tumbling = view.kind(entry(.window)) != .null
    for (e, present) in [
      (Entry.window, tumbling), (.align, tumbling), (.at, !tumbling), (.tz, !tumbling),
    ]
    where (view.kind(entry(e)) != .null) != present {
      throw bad(
        "'\(name(e))' must be \(present ? "given" : "null") when 'digesting.window' is \(tumbling ? "given" : "null")",
        entry(e))
    }
    func duration(_ e: Entry) throws(RecordProblem) -> Int64? {
      var seconds: Int64? = nil
      try nullOr(e) { (index: Int) throws(RecordProblem) in
        guard let text = view.stringValue(index),
          let length = try? TimeToLive(text), length.seconds > 0
        else { throw bad("'\(name(e))' is not a length of time such as 1h", index) }
        seconds = length.seconds
      }
      return seconds
    }
    let windowLength = try duration(.window)
    let lookback = try duration(.lookback)
    var align = Timestamp(seconds: 0)
    try nullOr(.align) { (index: Int) throws(RecordProblem) in
      align = try time(index, name(.align))
    }
    var times: [Int] = []
    try nullOr(.at) { (index: Int) throws(RecordProblem) in
      var ok = view.kind(index) == .array && view.tokens[index].count > 0
      view.forEachElement(of: index) { element in
        if ok, let text = view.stringValue(element), !text.contains(","),
          let parsed = try? WindowRule.times([text])
        {
          times += parsed
        } else {
          ok = false
        }
      }
      guard ok else {
        throw bad("'\(name(.at))' is not an array of times such as \"08:00\"", index)
      }
    }
    var zone = ZoneRules.utc.name
    try nullOr(.tz) { (index: Int) throws(RecordProblem) in
      guard let text = view.stringValue(index) else {
        throw bad("'\(name(.tz))' is not a string", index)
      }
      zone = text
    }
    let windows: WindowSpec =
      windowLength.map { .tumbling(seconds: $0, align: align) }
      ?? .schedule(times: Array(Set(times)).sorted(), zone: zone)
    var maxItems: Int? = nil
    try nullOr(.maxItems) { (index: Int) throws(RecordProblem) in
      maxItems = Int(try integer(index, name(.maxItems), FieldLimits.positive))
    }
    var limit: Int? = nil
    try nullOr(.limit) { (index: Int) throws(RecordProblem) in
      limit = Int(try integer(index, name(.limit), FieldLimits.positive))
    }
    guard let itemsText = view.stringValue(entry(.items)),
      let itemsEnd = ItemsEnd(rawValue: itemsText)
    else { throw bad("'\(name(.items))' is not \"first\" or \"last\"", entry(.items)) }
    let allPushesIndex = entry(.allPushes)
    if allPushesIndex >= 0 && view.kind(allPushesIndex) != .bool {
      throw bad("'\(name(.allPushes))' is not true or false", allPushesIndex)
    }
    var digesting = ByteBuffer(capacity: 256)
    var entryValues: [[UInt8]] = []
    for e in Entry.allCases {
      digesting.append(e == .key ? "{\"" : ",\"")
      digesting.append(utf8: e.key)
      digesting.append("\":")
      guard entry(e) >= 0 else {
        digesting.append(allPushesImplied ? "true" : "false")
        entryValues.append(Array(allPushesMissing.utf8))
        continue
      }
      var one = ByteBuffer(capacity: 32)
      JSONWriter.writeCompact(view, entry(e), into: &one)
      digesting.append(one)
      entryValues.append(one.bytes)
    }
    digesting.append("}")

    var digest = Digest(
      key: keyText.bytes, window: DigestWindow(start: start, end: end),
      items: DigestItems(end: itemsEnd, limit: limit), firstInput: order)
    digest.count = count
    digest.unreadCount = unread
    digest.latestAt = latestAt

    /// Reads the array `field` of counted entries (objects of `keys`, whose second member is
    /// the count): `name` reads and checks an entry's name, then its count is added up (the sum
    /// may not pass `count`), then `store` keeps the entry. Returns the sum.
    func countedEntries<Name>(
      _ field: Field, _ what: String, keys: [[UInt8]],
      name: ([Int]) throws(RecordProblem) -> Name,
      store: (Name, [Int], Int64) throws(RecordProblem) -> Void
    ) throws(RecordProblem) -> Int64 {
      let index = value(field)
      guard view.kind(index) == .array else {
        throw bad("'\(field.key)' is \(view.kind(index).phrase), not an array", index)
      }
      var sum: Int64 = 0
      try view.forEachElement(of: index) { element throws(RecordProblem) in
        guard view.kind(element) == .object else {
          throw bad("\(what) is \(view.kind(element).phrase), not an object", element)
        }
        let fields = try members(view, element, keys: keys, what: what, bad)
        let entry = try name(fields)
        let n = try integer(fields[1], "count", FieldLimits.positive)
        sum += n
        guard sum <= count else {
          throw bad(
            "'\(field.key)' count more records than '\(Field.count.key)' (\(count))", fields[1])
        }
        try store(entry, fields, n)
      }
      return sum
    }

    // Actors: distinct, each counted once or more; together no more than the records.
    _ = try countedEntries(
      .actors, "an actor", keys: actorKeys,
      name: { (fields) throws(RecordProblem) in
        let actor = try text(fields[0], "actor")
        guard !actor.isEmpty, digest.actors[ByteKey(actor)] == nil else {
          throw bad("an 'actor' is empty, or named twice", fields[0])
        }
        return actor
      },
      store: { (actor, fields, n) throws(RecordProblem) in
        digest.actors[ByteKey(actor)] = (n, try time(fields[2], "latest_at"))
      })

    // Categories: distinct, adding up to the records.
    let categoriesIndex = value(.categories)
    let categorySum = try countedEntries(
      .categories, "a category entry", keys: categoryKeys,
      name: { (fields) throws(RecordProblem) -> [UInt8]? in
        let category: [UInt8]? =
          view.kind(fields[0]) == .null ? nil : try text(fields[0], "category")
        guard digest.categories[category.map(ByteKey.init)] == nil else {
          throw bad("a 'category' is named twice", fields[0])
        }
        return category
      },
      store: { (category, _, n) throws(RecordProblem) in
        digest.categories[category.map(ByteKey.init)] = n
      })
    guard categorySum == count else {
      throw bad(
        "'\(Field.categories.key)' must add up to '\(Field.count.key)' (\(count))", categoriesIndex)
    }

    // Items: records, at most the count (`DigestObjectReader`), as the options list them.
    let itemsIndex = value(.items)
    let listed = top.itemCount
    if let limit, listed > Int64(limit) {
      throw bad(
        "'\(Field.items.key)' has \(listed) records, more than 'digesting.limit' (\(limit))",
        itemsIndex)
    }
    try view.forEachElement(of: itemsIndex) { element throws(RecordProblem) in
      guard let createdIndex = view.member(element, "created_at"),
        let itemIDIndex = view.member(element, "id")
      else {
        throw bad("an item is not a record with 'id' and 'created_at'", element)
      }
      let createdAt = try time(createdIndex, "created_at")
      let id = try text(itemIDIndex, "id")
      var bytes = ByteBuffer(capacity: Int(view.tokens[element].end - view.tokens[element].start))
      JSONWriter.writeCompact(view, element, into: &bytes)
      itemOrder += 1
      digest.items.insert(
        DigestItem(createdAt: createdAt, id: id, order: itemOrder, bytes: bytes.bytes))
    }
    guard top.itemsOmitted == count - listed else {
      throw bad(
        FieldLimits.notInRange(Field.itemsOmitted.key, (count - listed)...(count - listed)),
        value(.itemsOmitted))
    }
    // Strings or null (`DigestObjectReader`): a merge writes them back, so null will not do.
    func summary(_ field: Field) throws(RecordProblem) -> String {
      let index = value(field)
      guard view.kind(index) == .string else {
        throw bad("'\(field.key)' is null, not a string", index)
      }
      return view.string(index)
    }
    digest.texts = (try summary(.summary), try summary(.hiddenSummary))
    if !top.isNull(.readAt, in: view) {
      digest.readAt = try time(value(.readAt), Field.readAt.key)
    }
    // The members' part of the id: what merges add up.
    digest.members = id.removing(
      digest.key.withUnsafeBytes { DigestID.frame(key: $0, window: digest.window) })
    return ReadDigest(
      digest: digest, key: canonicalKey.bytes, lookback: lookback, windows: windows,
      digesting: digesting.bytes, maxItems: maxItems, itemsEnd: itemsEnd,
      limit: limit, entries: entryValues,
      // A missing `all_pushes` is pointed at where it would be: `digesting`.
      entryOffsets: entries.map { Int(view.tokens[$0 >= 0 ? $0 : digestingIndex].start) })
  }

  /// The values of the members of the object at `index`, which must have exactly `keys`, in
  /// any order.
  private static func members(
    _ view: JSONView, _ index: Int, keys: [[UInt8]], what: String, optional: Int? = nil,
    _ bad: (String, Int) -> RecordProblem
  ) throws(RecordProblem) -> [Int] {
    var found = [Int](repeating: -1, count: keys.count)
    try view.forEachMember(of: index) { key, value throws(RecordProblem) in
      guard let position = keys.firstIndex(where: { view.keyEquals(key, bytes: $0) }) else {
        throw bad("unknown key '\(view.string(key))' in \(what)", key)
      }
      found[position] = value  // a key twice is refused by the parser
    }
    if let missing = found.indices.first(where: { found[$0] == -1 && $0 != optional }) {
      throw bad("\(what) has no '\(String(decoding: keys[missing], as: UTF8.self))'", index)
    }
    return found
  }
}

/// A run of `notif-digest --merge`: reads digest objects, drops the repeats (the same
/// `digest_id`: a digest written twice), merges those of one key and one window (the partial
/// digests of one window, from inputs cut anywhere), or with `--merge-unread` every unread digest of
/// a key, and writes them all in window order: by `window_end`, then `window_start`, then key,
/// then in the order they were merged in (that of their first part in the input).
///
/// A merged digest is the one a run over all its records would write for its window: counts
/// add up, actors and categories join, the items are the first or last `limit` of all, and its
/// `digest_id` sums its members' hashes with its frame's (`DigestID`). Digests made with other
/// options (`digesting`) are refused (`DigestingMismatch`), and a merge that would pass
/// `max_items` keeps them apart, as one run does. A digest that merges with no other is
/// written as it was read. Digests are merged by their key's values as JSON (`KeyValue`).
///
/// With `--lookback`, each file operand holds the digests of one part of the records, in the
/// order of the parts. A part cannot see the records of a key before its first line, so it
/// passes the first record of each key through as after a quiet period; a digest of an
/// earlier part whose newest record is within the lookback before it shows that one run would
/// not have: such a record goes back into the window of its time (`placePassedThrough`), as
/// one run puts it.
struct DigestMergeRun {
  let configuration: DigestCommand.Configuration
  let texts: DigestTexts
  private var status = ExitStatus.success
  private var read: [ReadDigest] = []
  private var seen: Set<DigestID> = []
  private var first: ReadDigest? = nil
  private var itemOrder = 0
  /// Writes every diagnostic and the progress line (`--quiet`, `--max-errors`, `--progress`).
  private var reporter: Reporter
  /// The bytes of the inputs read before the current one, for the progress line.
  private var bytesBefore: Int64 = 0

  init(
    configuration: DigestCommand.Configuration, texts: DigestTexts, environment: ToolEnvironment
  ) {
    self.configuration = configuration
    self.texts = texts
    reporter = Reporter(
      program: DigestCommand.name, options: configuration.sweep.reporting,
      environment: environment)
  }

  /// A write to standard output failed: the run stops.
  private struct OutputFailed: Error {
    var error: SystemError
  }

  /// Reports `warnings` (the texts'), merges, and ends what the run writes on standard error
  /// (`Reporter.finish`) however it ends.
  mutating func execute(
    warnings: [Diagnostic], stdout: inout OutputWriter, stderr: inout OutputWriter
  ) -> ExitStatus {
    for warning in warnings { reporter.report(warning, &stderr) }
    let status = merge(stdout: &stdout, stderr: &stderr)
    reporter.finish(&stderr)
    return status
  }

  private mutating func merge(stdout: inout OutputWriter, stderr: inout OutputWriter)
    -> ExitStatus
  {
    reporter.startProgress(totalBytes: InputFile.totalBytes(of: configuration.sweep.files))
    for (part, file) in configuration.sweep.files.enumerated() {
      // With progress: the input's size, which the bytes before the next input grow by.
      let size = reporter.showsProgress ? InputFile.totalBytes(of: [file]) : nil
      var offset = 0
      let result = InputFile.forEachRecord(
        of: file, maxRecordBytes: configuration.sweep.maxRecordBytes,
        report: { diagnostic in reporter.report(diagnostic, &stderr) }, whenIdle: {}
      ) { (reader: inout RecordReader) in
        if reporter.showsProgress {
          offset = reader.recordOffset
          reporter.showProgress(
            records: read.count + 1, bytes: bytesBefore + Int64(offset), &stderr)
        }
        let order = read.count + 1
        let outcome: Result<ReadDigest, RecordProblem> = reader.withRecord { view in
          do throws(RecordProblem) {
            return .success(try DigestMergeReader.read(view, order: order, itemOrder: &itemOrder))
          } catch {
            return .failure(error)
          }
        }
        var problem: RecordProblem? = nil
        switch outcome {
        case .failure(let error): problem = error
        case .success(var digest):
          digest.part = part
          let start = reader.position(ofRecordOffset: 0)
          (digest.file, digest.line) = (reader.name, start.line)
          problem = admit(digest)
        }
        if let problem {
          status = max(status, .rejected)
          reporter.report(
            reader.diagnostic(
              .error, problem.code, problem.message, atRecordOffset: problem.offset), &stderr)
        }
      }
      status = max(status, result)
      bytesBefore += size ?? Int64(offset)
    }
    placePassedThrough(&stderr)
    var out = ByteBuffer(capacity: 64 * 1024)
    do throws(SystemError) {
      for var digest in merged() {
        DigestObjectWriter.write(
          &digest.digest, texts: texts, digesting: digest.digesting, into: &out)
        if out.count >= 128 * 1024 {
          try stdout.write(out)
          out.removeAll()
        }
      }
      try stdout.write(out)
      try stdout.flush()
    } catch {
      return reporter.reportFailedWrite(error, &stderr)
    }
    return status
  }

  /// Takes a digest read, or says why not.
  private mutating func admit(_ digest: ReadDigest) -> RecordProblem? {
    if let first, first.digesting != digest.digesting {
      let entry =
        first.entries.indices.first { first.entries[$0] != digest.entries[$0] } ?? 0
      let key = DigestField.DigestingEntry.allCases[entry].key
      return RecordProblem(
        code: "DigestingMismatch",
        message:
          "made with 'digesting.\(key)' \(String(decoding: digest.entries[entry], as: UTF8.self)), not \(String(decoding: first.entries[entry], as: UTF8.self)) as the digest objects before it: merged, they would not be the digests of one run",
        offset: digest.entryOffsets[entry])
    }
    if first == nil { first = digest }
    let id = digest.digest.id
    guard seen.insert(id).inserted else { return nil }  // a repeat: the same digest again
    read.append(digest)
    return nil
  }

  /// With `--lookback` and several files: puts each record that a later part passed through
  /// only because it could not see the records of its key before it back into the window of
  /// its time, as one run over all the parts puts it.
  ///
  /// A digest of one instant (`window_start` = `window_end`: a record passed through) of a
  /// file is moved when a digest of its key in an earlier file has its newest record
  /// (`latest_at`) within the lookback before that instant, or after it: one run, which would
  /// have read that record first, finds no quiet period there (`Digester.isQuiet`). A record
  /// passed through by a part after another record of its key in the same part was passed
  /// through as one run passes it, and stays; so does a digest that was read (`read_at`), and
  /// every digest of one file, so that a merge of a merge's output writes it again as it is.
  ///
  /// Exact when the earlier parts wrote every record they read into a digest (every window
  /// ended by `--now`, or `--flush`, and none marked `digested_at`): a record that waits in an
  /// open window, or was digested before, is in no digest object to be seen.
  ///
  /// - Complexity: O(n) in the digests read, the window of each record moved once.
  private mutating func placePassedThrough(_ stderr: inout OutputWriter) {
    guard configuration.sweep.files.count > 1, let first, let lookback = first.lookback else {
      return
    }
    // By key: the newest `latest_at` of its digests in the files before the current one.
    var before: [[UInt8]: Timestamp] = [:]
    var current: [[UInt8]: Timestamp] = [:]
    var part = read.first?.part ?? 0
    var rule: Result<WindowRule, ZoneRules.Problem>? = nil
    var zones: [String: ZoneRules] = [:]
    for position in read.indices {
      let found = read[position]
      if found.part != part {
        for (key, latest) in current { before[key] = max(before[key] ?? latest, latest) }
        current.removeAll(keepingCapacity: true)
        part = found.part
      }
      current[found.key] = max(current[found.key] ?? found.digest.latestAt, found.digest.latestAt)
      let window = found.digest.window
      guard window.start == window.end, found.digest.readAt == nil,
        !Digester.isQuiet(window.start, after: before[found.key], lookback: lookback)
      else { continue }
      if rule == nil {
        do throws(ZoneRules.Problem) {
          rule = .success(try found.windows.rule(zones: &zones))
        } catch {
          // The zone of the digests' --at is not here: said once, at the first digest it
          // leaves as it was read.
          rule = .failure(error)
          status = max(status, .rejected)
          reporter.report(
            Diagnostic(
              .error, "BadDigest",
              "'digesting.tz': \(error.message): a record a part passed through by --lookback "
                + "cannot be put back into its window, and stays as it was read",
              file: found.file, line: found.line, column: 1), &stderr)
        }
      }
      guard case .success(let windows) = rule else { continue }
      read[position].digest.window = windows.window(containing: window.start)
      read[position].digest.key = found.key
    }
  }

  /// The digests to write, merged, in window order.
  private func merged() -> [ReadDigest] {
    let unread = configuration.unread
    // The groups that merge, in the order of their first digest.
    var groups: [[UInt8]: [Int]] = [:]
    var order: [[UInt8]] = []
    for (position, digest) in read.enumerated() {
      var group = digest.key
      if unread {
        if digest.digest.readAt != nil { group = [0] + Array("\(position)".utf8) }
      } else {
        group += [0] + Array(digest.digest.window.start.description.utf8)
        group += [0] + Array(digest.digest.window.end.description.utf8)
      }
      if groups[group] == nil { order.append(group) }
      groups[group, default: []].append(position)
    }
    var result: [ReadDigest] = []
    // A merge can make a digest that was read too (the same records, so the same digest_id):
    // it is written once, as a repeat read is.
    var written: Set<DigestID> = []
    func emit(_ digest: ReadDigest) {
      if written.insert(digest.digest.id).inserted { result.append(digest) }
    }
    for group in order {
      var current: ReadDigest? = nil
      for position in groups[group] ?? [] {
        let next = read[position]
        guard var joined = current else {
          current = next
          continue
        }
        let sum = Digest.saturated(joined.digest.count, next.digest.count)
        if !unread, let limit = next.maxItems, sum > Int64(limit) {
          // One run closes a digest at max_items: these stay apart, as it keeps them.
          emit(joined)
          current = next
          continue
        }
        merge(next, into: &joined)
        current = joined
      }
      if let current { emit(current) }
    }
    // Those of one key and window keep the order they were merged in: read again in that order,
    // each pair side by side is past max_items, so a second merge keeps them all apart. In
    // another order two that were not side by side could join.
    return result.enumerated().sorted { a, b in
      let (x, y) = (a.element.digest, b.element.digest)
      if x.window != y.window { return x.window < y.window }
      if a.element.key != b.element.key {
        return a.element.key.lexicographicallyPrecedes(b.element.key)
      }
      return a.offset < b.offset
    }.map(\.element)
  }

  /// Merges `other` into `into`: counts, actors, categories, items, members; the window spans
  /// both; the texts are written again.
  private func merge(_ other: ReadDigest, into joined: inout ReadDigest) {
    var digest = joined.digest
    let part = other.digest
    // The values of the key as JSON compares them: those of one run.
    digest.key = joined.key
    digest.window = DigestWindow(
      start: min(digest.window.start, part.window.start),
      end: max(digest.window.end, part.window.end))
    digest.count = Digest.saturated(digest.count, part.count)
    digest.unreadCount = Digest.saturated(digest.unreadCount, part.unreadCount)
    digest.latestAt = max(digest.latestAt, part.latestAt)
    for (actor, entry) in part.actors {
      digest.addActor(actor, count: entry.count, latestAt: entry.latestAt)
    }
    for (category, count) in part.categories {
      digest.addCategory(category, count: count)
    }
    for item in part.items.items { digest.items.insert(item) }
    digest.members = DigestID(value: digest.members.value &+ part.members.value)
    if let read = digest.readAt, let other = part.readAt {
      digest.readAt = max(read, other)
    } else {
      digest.readAt = nil
    }
    digest.texts = nil
    joined.digest = digest
  }
}
