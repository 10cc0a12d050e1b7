import NotifJSON
import NotifListing
import NotifModel

extension EntryReader {
  /// The digest object at the root of `view` (notif(5), "Digest objects") as it is shown: its
  /// texts, window, counts and the records it lists that the device lists (all of them with
  /// `--all-pushes`; the others are counted as not listed). Its other keys (`actors`,
  /// `categories`, `digesting`, and any it does not know) are not read: notif-digest
  /// `--merge` checks a digest whole, notif-show what it shows.
  ///
  /// - Throws: `BadDigest` for a key it reads that is missing or of the wrong type, or a count
  ///   out of its range (`FieldLimits`), or an item that is no record.
  mutating func digest(_ view: JSONView, major: Int) throws(RecordProblem) -> ShownDigest {
    var members: [DigestField: Int] = [:]
    let wanted: [DigestField] = [
      .digestID, .key, .windowStart, .windowEnd, .count, .unreadCount, .latestAt, .items,
      .itemsOmitted, .summary, .hiddenSummary, .readAt,
    ]
    view.forEachMember(of: 0) { key, value in
      let name = view.string(key)
      if let field = wanted.first(where: { $0.key == name }) { members[field] = value }
    }
    func bad(_ index: Int, _ message: String) -> RecordProblem {
      RecordProblem(code: "BadDigest", message: message, offset: Int(view.tokens[index].start))
    }
    func present(_ field: DigestField) throws(RecordProblem) -> Int {
      guard let index = members[field] else {
        throw bad(0, "not a digest object: the key '\(field.key)' is missing")
      }
      return index
    }
    func time(_ field: DigestField) throws(RecordProblem) -> Timestamp {
      let index = try present(field)
      guard view.kind(index) == .string, let time = Timestamp(rfc3339: view.rawString(index))
      else { throw bad(index, "'\(field.key)' must be an RFC 3339 time") }
      return time
    }
    func count(_ field: DigestField, _ range: ClosedRange<Int64>) throws(RecordProblem) -> Int {
      try Self.count(view, try present(field), field.key, range, code: "BadDigest")
    }
    func text(_ field: DigestField) throws(RecordProblem) -> String? {
      try line(view, members[field], field.key, code: "BadDigest")
    }
    let id = try present(.digestID)
    guard view.kind(id) == .string else { throw bad(id, "'digest_id' must be a string") }
    let key = try present(.key)
    guard view.kind(key) == .object else { throw bad(key, "'key' must be an object") }
    var app: String? = nil
    view.forEachMember(of: key) { name, value in
      if app == nil && view.string(name) == RecordField.app.key {
        app = shown.text(view, value, lines: 1)
      }
    }
    let windowStart = try time(.windowStart)
    let windowEnd = try time(.windowEnd)
    guard windowStart <= windowEnd else {
      throw bad(try present(.windowEnd), "'window_end' is before 'window_start'")
    }
    let latestAt = try time(.latestAt)
    let total = try count(.count, FieldLimits.positive)
    let unread = try count(.unreadCount, FieldLimits.tally)
    _ = try count(.itemsOmitted, FieldLimits.tally)
    let readAt = members[.readAt] ?? -1
    guard readAt < 0 || view.kind(readAt) == .null || view.kind(readAt) == .string else {
      throw bad(readAt, "'read_at' must be a string or null")
    }
    var digest = ShownDigest(
      key: SortKey(createdAt: latestAt, relevance: 0, major: major, minor: 0), app: app,
      windowStart: windowStart, windowEnd: windowEnd, count: total, unreadCount: unread,
      isUnread: readAt < 0 || view.kind(readAt) == .null,
      isNew: lastSeen.map { latestAt > $0 } ?? false,
      summary: try text(.summary), hiddenSummary: try text(.hiddenSummary), items: [])
    let items = try present(.items)
    guard view.kind(items) == .array else { throw bad(items, "'items' must be an array") }
    var position = 0
    try view.forEachElement(of: items) { element throws(RecordProblem) in
      defer { position += 1 }
      guard view.kind(element) == .object else {
        throw bad(element, "an element of 'items' must be a record, an object")
      }
      do throws(RecordProblem) {
        let read = try record(view, at: element, major: major, minor: position)
        if !leavesOut(read.unlisted) { digest.items.append(read.item) }
      } catch {
        throw RecordProblem(
          code: "BadDigest", message: "an item: \(error.message)", offset: error.offset)
      }
    }
    // More items than records would show a negative count of the others.
    guard digest.items.count <= total else {
      throw bad(items, "'items' holds more records than 'count' says")
    }
    return digest
  }
}
