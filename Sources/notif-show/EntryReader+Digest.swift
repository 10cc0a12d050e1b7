import NotifJSON
import NotifListing
import NotifModel

extension EntryReader {
  /// The digest object at the root of `view` (notif(5), "Digest objects") as it is shown: its
  /// texts, window, counts and the records it lists that the device lists (all of them with
  /// `--all-pushes`; the others are counted as not listed). `DigestObjectReader` finds and
  /// checks its members, as `--merge` reads them; of the others (`actors`, `categories`,
  /// `digesting`, and any it does not know) nothing is read: notif-digest `--merge` checks a
  /// digest whole, notif-show what it shows.
  ///
  /// - Throws: `BadDigest` for what `DigestObjectReader` refuses, or an item that is no record.
  mutating func digest(_ view: JSONView, major: Int) throws(RecordProblem) -> ShownDigest {
    let members = try DigestObjectReader(view)
    func text(_ field: DigestField) -> String? {
      members[field].flatMap { shown.text(view, $0, lines: 1) }
    }
    var app: String? = nil
    if let key = members[.key] {
      view.forEachMember(of: key) { name, value in
        if app == nil && view.string(name) == RecordField.app.key {
          app = shown.text(view, value, lines: 1)
        }
      }
    }
    let latestAt = members.latestAt
    var digest = ShownDigest(
      key: SortKey(createdAt: latestAt, relevance: 0, major: major, minor: 0), app: app,
      windowStart: members.windowStart, windowEnd: members.windowEnd, count: Int(members.count),
      unreadCount: Int(members.unreadCount), isUnread: members.isNull(.readAt, in: view),
      isNew: lastSeen.map { latestAt > $0 } ?? false,
      summary: text(.summary), hiddenSummary: text(.hiddenSummary), items: [])
    guard let items = members[.items] else { return digest }
    var position = 0
    try view.forEachElement(of: items) { element throws(RecordProblem) in
      defer { position += 1 }
      do throws(RecordProblem) {
        let read = try record(view, at: element, major: major, minor: position)
        if !leavesOut(read.unlisted) { digest.items.append(read.item) }
      } catch {
        throw RecordProblem(
          code: "BadDigest", message: "an item: \(error.message)", offset: error.offset)
      }
    }
    return digest
  }
}
