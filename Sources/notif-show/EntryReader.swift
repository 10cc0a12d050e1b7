import NotifJSON
import NotifListing
import NotifModel

/// The tape indices of the members of a record that notif-show reads (`RecordFieldLocator`);
/// -1 where the record has no such key. `leading` is found too: a JSON text with it is a group
/// object; and `digest_id`: a JSON text with it is a digest object.
struct ShownFields {
  var app = -1
  var category = -1
  var createdAt = -1
  var relevance = -1
  var target = -1
  var readAt = -1
  var seenAt = -1
  var payload = -1
  var leading = -1
  var digestID = -1
  /// The text notif-show shows and what the rule of what the device lists reads
  /// (`DeviceListing`), found in the same pass.
  var listing = ListingFields()

  static let leadingKey = Array(GroupField.leading.key.utf8)
  static let digestIDKey = Array(DigestField.digestID.key.utf8)

  /// Finds the members of the object at `index` of `view`, with `locator` (one per reader,
  /// reused for every object); the outermost object's first members have a record's keys at
  /// their places, with their values at the tape indices `known` gives
  /// (`RecordFieldLocator.locate`).
  init(
    _ view: JSONView, object index: Int = 0, locator: RecordFieldLocator,
    known: ExpectedKeyValues = .none
  ) {
    let inOrder = locator.locate(view, object: index, known: known)
    app = locator.slot(.app)
    category = locator.slot(.category)
    createdAt = locator.slot(.createdAt)
    relevance = locator.slot(.relevance)
    target = locator.slot(.targetContentID)
    readAt = locator.slot(.readAt)
    seenAt = locator.slot(.seenAt)
    payload = locator.slot(.payload)
    listing = ListingFields(locator)
    // An object whose keys are a record's, in order, has no other key: only another object
    // can be a group or digest object.
    guard !inOrder else { return }
    view.forEachMember(of: index) { key, value in
      if view.keyEquals(key, bytes: Self.leadingKey) {
        leading = value
      } else if view.keyEquals(key, bytes: Self.digestIDKey) {
        digestID = value
      }
    }
  }
}

/// Reads and checks records and group objects into what is shown: of each string, no more
/// than the page shows (`ShownText`).
struct EntryReader {
  /// `--last-seen`: a record is new only when created after it.
  let lastSeen: Timestamp?
  /// How much of each string is kept.
  let shown: ShownText
  /// The longest category identifier of the registry, in bytes (0 without one): a longer
  /// `category` names no category there, and is not kept.
  let longestCategory: Int
  /// `--all-pushes`: show what the device does not list too.
  let allPushes: Bool
  /// Finds the URL a tap opens in a record's payload (`--link-scheme`, `--link-key`).
  let tapLink: TapLink
  /// Finds the record fields of each object read.
  let locator = RecordFieldLocator()
  /// What was left out because the device does not list it, since the tool last took it
  /// (`takeUnlisted`): records, items of stacks, and stacks that list nothing.
  private var unlisted = UnlistedTally()
  /// Reads `created_at` (keeping the last one parsed) and checks the types of the fields.
  private var fieldReader = RecordFieldReader()
  private var scratch = ByteBuffer(capacity: 1024)
  private var other = ByteBuffer(capacity: 1024)

  init(
    lastSeen: Timestamp?, shown: ShownText, longestCategory: Int, allPushes: Bool = false,
    tapLink: TapLink = TapLink()
  ) {
    self.lastSeen = lastSeen
    self.shown = shown
    self.longestCategory = longestCategory
    self.allPushes = allPushes
    self.tapLink = tapLink
  }

  /// What was left out since the last call, which starts a new count.
  mutating func takeUnlisted() -> UnlistedTally {
    defer { unlisted = UnlistedTally() }
    return unlisted
  }

  // MARK: - Records

  /// Where the record at `index` ranks; checks `created_at` and `relevance`.
  mutating func key(
    _ view: JSONView, _ fields: ShownFields, object index: Int = 0, major: Int, minor: Int
  )
    throws(RecordProblem) -> SortKey
  {
    let createdAt = try fieldReader.createdAt(view, fields.createdAt, record: index)
    let relevance = try RecordFieldReader.relevance(
      view, fields.relevance, wanted: "a number or null")
    return SortKey(createdAt: createdAt, relevance: relevance, major: major, minor: minor)
  }

  /// Checks that each string field shown is a string or null.
  func checkStrings(_ view: JSONView, _ fields: ShownFields) throws(RecordProblem) {
    func check(_ index: Int, _ field: RecordField) throws(RecordProblem) {
      try RecordFieldReader.checkStringOrNull(view, index, field)
    }
    try check(fields.app, .app)
    try check(fields.category, .category)
    try check(fields.listing.title, .title)
    try check(fields.listing.subtitle, .subtitle)
    try check(fields.listing.body, .body)
    try check(fields.listing.titleLocKey, .titleLocKey)
    try check(fields.listing.subtitleLocKey, .subtitleLocKey)
    try check(fields.listing.locKey, .locKey)
    try check(fields.target, .targetContentID)
    try check(fields.readAt, .readAt)
    try check(fields.seenAt, .seenAt)
  }

  /// The record at `fields`' object, checked, as it is shown.
  func item(_ view: JSONView, _ fields: ShownFields, key: SortKey) -> ShownItem {
    func text(_ index: Int, lines: Int = 1) -> String? { shown.text(view, index, lines: lines) }
    func isNull(_ index: Int) -> Bool { index < 0 || view.kind(index) == .null }
    var relevance: String? = nil
    if fields.relevance >= 0 && view.kind(fields.relevance) == .number {
      let raw = view.raw(fields.relevance)
      let prefix = UnsafeRawBufferPointer(rebasing: raw.prefix(shown.budget(lines: 1) + 1))
      relevance = shown.cut(
        String(decoding: prefix, as: UTF8.self), isWhole: prefix.count == raw.count, lines: 1)
    }
    // Only looked up in the registry, so kept whole or not at all.
    var category: String? = nil
    if fields.category >= 0 && view.kind(fields.category) == .string
      && view.rawString(fields.category).count <= longestCategory * 6  // at most `\uXXXX` a byte
    {
      category = view.string(fields.category)
    }
    var isNew = isNull(fields.seenAt)
    if let lastSeen, key.createdAt <= lastSeen { isNew = false }
    // Without the app's strings a key to localize is shown as it is, where its text would be.
    return ShownItem(
      key: key, app: text(fields.app), category: category,
      title: text(fields.listing.title) ?? text(fields.listing.titleLocKey),
      subtitle: text(fields.listing.subtitle) ?? text(fields.listing.subtitleLocKey),
      body: text(fields.listing.body, lines: 2) ?? text(fields.listing.locKey, lines: 2),
      relevance: relevance,
      target: text(fields.target),
      link: tapLink.link(view, payload: fields.payload, source: fields.listing.source),
      isUnread: isNull(fields.readAt), isNew: isNew)
  }

  /// Why the record whose fields are `fields` is not listed (`DeviceListing`); nil when it is.
  /// With `--all-pushes` it is shown all the same.
  func unlisted(_ view: JSONView, _ fields: ShownFields) throws(RecordProblem) -> Unlisted? {
    try DeviceListing.unlisted(view, fields.listing)
  }

  /// Whether a record the device does not list for `reason` is left out; counts it if so.
  mutating func leavesOut(_ reason: Unlisted?) -> Bool {
    guard let reason, !allPushes else { return false }
    unlisted.add(reason)
    return true
  }

  /// The record at `index`, checked, as it is shown, and why the device does not list it
  /// (nil when it does).
  mutating func record(_ view: JSONView, at index: Int, major: Int, minor: Int)
    throws(RecordProblem) -> (item: ShownItem, unlisted: Unlisted?)
  {
    let fields = ShownFields(view, object: index, locator: locator)
    let key = try key(view, fields, object: index, major: major, minor: minor)
    try checkStrings(view, fields)
    let reason = try unlisted(view, fields)
    return (item(view, fields, key: key), reason)
  }

  // MARK: - Group and digest objects

  /// Checks what notif-show reads of the top level of a group object: `count` and `leading`
  /// must be there; the members it shows are checked, the others ignored (notif-show(1)).
  static let groupReader = GroupObjectReader(
    code: "BadGroup", requires: [.count, .leading],
    reads: [
      .app, .count, .unreadCount, .newCount, .leading, .items, .itemsOmitted, .summary,
      .hiddenSummary,
    ])

  /// The whole number at `index`, the value of `key`, in `range` as every tool reads it
  /// (`FieldLimits`); else a problem of `code`.
  static func count(
    _ view: JSONView, _ index: Int, _ key: String, _ range: ClosedRange<Int64>, code: String
  ) throws(RecordProblem) -> Int {
    guard let number = view.integer(index), range.contains(number) else {
      throw RecordProblem(
        code: code, message: FieldLimits.notInRange(key, range),
        offset: Int(view.tokens[index].start))
    }
    return Int(number)
  }

  /// The string at `index`, the value of `key`, as much of it as one line shows; nil for null
  /// or no value; else a problem of `code`.
  func line(_ view: JSONView, _ index: Int?, _ key: String, code: String)
    throws(RecordProblem) -> String?
  {
    guard let index, view.kind(index) != .null else { return nil }
    guard let value = shown.text(view, index, lines: 1) else {
      throw RecordProblem(
        code: code, message: "'\(key)' must be a string or null",
        offset: Int(view.tokens[index].start))
    }
    return value
  }

  /// Whether two runs of bytes are the same.
  static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard let x = a.baseAddress, let y = b.baseAddress else { return true }
    return memcmp(x, y, a.count) == 0
  }

  /// The group object at the root of `view` as a stack: the leading record, the counts and
  /// summaries, and the other items the device lists (all of them with `--all-pushes`), in
  /// `order` by `ranking`; nil for a group that lists nothing (`GroupListing`: a group of one
  /// background push, say), unless `--all-pushes`. What is left out is counted. Members it
  /// does not show are ignored (`groupReader`).
  ///
  /// `isCompact` says that the text is compact and canonical (`RecordReader.recordIsCompact`):
  /// the leading record is then found among the items by its bytes, with no copy of either.
  mutating func stack(
    _ view: JSONView, isCompact: Bool, major: Int, ranking: Ranking, order: ListOrder
  ) throws(RecordProblem) -> ShownStack? {
    let object = try Self.groupReader.read(view)
    func text(_ field: GroupField) -> String? {
      object.value(field).flatMap { shown.text(view, $0, lines: 1) }
    }
    let total = Int(object.count)
    let leadingIndex = object.leading
    let leading: ShownItem
    var listing = GroupListing()
    do {
      let read = try record(view, at: leadingIndex, major: major, minor: -1)
      leading = read.item
      listing.add(read.unlisted)
    } catch {
      throw RecordProblem(
        code: "BadGroup", message: "the leading record: \(error.message)", offset: error.offset)
    }
    // A group of one record the device does not list (a background push) shows nothing.
    if total == 1 && leavesOut(listing, count: 1) { return nil }
    // `items_omitted` is checked, not used: what is not listed is counted from `count`.
    var stack = ShownStack(
      app: text(.app), leading: leading, count: total,
      unreadCount: object.number(.unreadCount).map { Int($0) } ?? (leading.isUnread ? 1 : 0),
      newCount: object.number(.newCount).map { Int($0) } ?? (leading.isNew ? 1 : 0),
      summary: text(.summary), hiddenSummary: text(.hiddenSummary), others: nil)
    guard let itemsIndex = object.value(.items) else {
      return leavesOut(listing, count: total) ? nil : stack
    }
    if !isCompact {
      scratch.removeAll()
      JSONWriter.writeCompact(view, leadingIndex, into: &scratch)
    }
    let leadingBytes = view.raw(leadingIndex)
    var others: [ShownItem] = []
    var hidden = UnlistedTally()  // the other items the device does not list
    var leadingFound = false
    var position = 0
    try Self.groupReader.forEachItem(view, of: itemsIndex) { element throws(RecordProblem) in
      defer { position += 1 }
      if !leadingFound {
        let same: Bool
        if isCompact {
          same = Self.equal(view.raw(element), leadingBytes)
        } else {
          other.removeAll()
          JSONWriter.writeCompact(view, element, into: &other)
          same = other.withUnsafeBytes { a in scratch.withUnsafeBytes { b in Self.equal(a, b) } }
        }
        if same {
          leadingFound = true
          return
        }
      }
      do throws(RecordProblem) {
        let read = try record(view, at: element, major: major, minor: position)
        listing.add(read.unlisted)
        if let reason = read.unlisted, !allPushes {
          hidden.add(reason)
        } else {
          others.append(read.item)
        }
      } catch {
        throw RecordProblem(
          code: "BadGroup", message: "an item: \(error.message)", offset: error.offset)
      }
    }
    if leavesOut(listing, count: total) { return nil }
    unlisted.add(hidden)
    others.sort { ranking.precedes($0.key, $1.key, in: order) }
    stack.others = others
    return stack
  }

  /// Whether a stack of `count` records, of which `listing` looked at what the object holds,
  /// is left out: it lists nothing, and `--all-pushes` was not given. Counts its records if
  /// so.
  private mutating func leavesOut(_ listing: GroupListing, count: Int) -> Bool {
    guard !allPushes, listing.listsNothing(count: count) else { return false }
    unlisted.add(listing.unlisted)
    return true
  }
}
