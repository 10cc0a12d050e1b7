import NotifJSON
import NotifModel

/// Why the device lists no notification for a record: the push is for something else than
/// Notification Center (its `push_type`), or it has no text to show.
///
/// The rule and its sources are the table "What the device lists" of notif(5). The cases are
/// in the order notes name them on a tie; `label` is how a note spells each.
public enum Unlisted: Int, CaseIterable, Sendable, Comparable {
  /// `push_type` `background`, or `content_available` with no text: it wakes the app.
  case background
  /// `push_type` `location`: a location query for the app's location push service extension.
  case location
  /// `push_type` `voip`: an incoming call, for PushKit and the call screen.
  case voip
  /// `push_type` `complication`: a watch face complication's update.
  case complication
  /// `push_type` `fileprovider`: a File Provider extension's change.
  case fileprovider
  /// `push_type` `mdm`: a device management check-in.
  case mdm
  /// `push_type` `liveactivity`: a Live Activity's update, shown on the Lock Screen and in
  /// the Dynamic Island, its alert as the Live Activity's own banner.
  case liveactivity
  /// `push_type` `pushtotalk`: a Push to Talk transmission.
  case pushtotalk
  /// `push_type` `widgets`: a widget's reload.
  case widgets
  /// `push_type` `controls`: a control's reload.
  case controls
  /// An FCM or Expo message with no text: a data message, handed to the app.
  case dataOnly
  /// Any other record with no title, subtitle, body or key of one to localize: a badge or
  /// sound update shows nothing to list.
  case noText

  /// How a note names it: the push type, `data-only` or `no text`.
  public var label: String {
    switch self {
    case .background: "background"
    case .location: "location"
    case .voip: "voip"
    case .complication: "complication"
    case .fileprovider: "fileprovider"
    case .mdm: "mdm"
    case .liveactivity: "liveactivity"
    case .pushtotalk: "pushtotalk"
    case .widgets: "widgets"
    case .controls: "controls"
    case .dataOnly: "data-only"
    case .noText: "no text"
    }
  }

  /// The case of an `apns-push-type` value, its UTF-8 bytes, that Notification Center never
  /// lists; nil for `alert` and any other value. Bytes, not a `String`: notif-show and
  /// notif-group look up every record's `push_type`, as the bytes of its JSON string.
  public init?<Bytes: Collection<UInt8>>(pushType: Bytes) {
    let count = pushType.count
    guard
      let match = Self.pushTypes.first(where: {
        $0.bytes.count == count && $0.bytes.elementsEqual(pushType)
      })
    else { return nil }
    self = match.unlisted
  }

  /// The cases named by a push type, each with its type's bytes: its label.
  private static let pushTypes: [(bytes: [UInt8], unlisted: Unlisted)] =
    allCases.filter { $0 != .dataOnly && $0 != .noText }.map { (Array($0.label.utf8), $0) }

  public static func < (a: Unlisted, b: Unlisted) -> Bool { a.rawValue < b.rawValue }
}

/// The tape indices of the record fields the listing rule reads; -1 where the record has no
/// such key. A tool that scans a record's members for its own fields fills these in the same
/// pass (`set`); the others take them from a `RecordFieldLocator` (`init(_:)`).
public struct ListingFields: Sendable {
  public var pushType = -1
  public var contentAvailable = -1
  public var source = -1
  public var title = -1
  public var subtitle = -1
  public var body = -1
  public var titleLocKey = -1
  public var subtitleLocKey = -1
  public var locKey = -1

  /// The fields the rule reads.
  public static let fields: [RecordField] = [
    .pushType, .contentAvailable, .source, .title, .subtitle, .body, .titleLocKey,
    .subtitleLocKey, .locKey,
  ]

  /// No field found yet.
  public init() {}

  /// The fields that `locator` found in the object it looked at last
  /// (`RecordFieldLocator.locate`).
  public init(_ locator: RecordFieldLocator) {
    // Field by field, not through `fields`: an array read for every record.
    pushType = locator.slot(.pushType)
    contentAvailable = locator.slot(.contentAvailable)
    source = locator.slot(.source)
    title = locator.slot(.title)
    subtitle = locator.slot(.subtitle)
    body = locator.slot(.body)
    titleLocKey = locator.slot(.titleLocKey)
    subtitleLocKey = locator.slot(.subtitleLocKey)
    locKey = locator.slot(.locKey)
  }

  /// Records that the value of `field` is at `index`; fields the rule does not read are
  /// ignored.
  @inlinable
  public mutating func set(_ field: RecordField, _ index: Int) {
    switch field {
    case .pushType: pushType = index
    case .contentAvailable: contentAvailable = index
    case .source: source = index
    case .title: title = index
    case .subtitle: subtitle = index
    case .body: body = index
    case .titleLocKey: titleLocKey = index
    case .subtitleLocKey: subtitleLocKey = index
    case .locKey: locKey = index
    default: break
    }
  }
}

/// What the device lists: the one rule, in notif-group, notif-summarize and notif-show, that
/// tells the records a person sees in Notification Center (or a feed, or a browser's or
/// Android's notification list) from the pushes meant for something else.
///
/// A record is listed when its `push_type` is `alert`, null or a value Apple does not define,
/// and it has a title, subtitle, body or key of one to localize (a string, even empty): iOS
/// lists nothing for a badge or sound update. A `push_type` Apple defines for something else
/// (`Unlisted(pushType:)`) is never listed, text or not. Without text, the record says what
/// it is: `content_available` makes it a background push, an FCM or Expo `source` a data
/// message. notif(5) has the table, with the vendors' pages that say so.
public enum DeviceListing {
  /// The sources whose messages without a notification are data messages: FCM's term, which
  /// Expo's data-only messages follow.
  static let dataSources: Set<String> = ["fcm", "fcm-legacy", "expo"]

  /// Why the record whose fields are at `fields` is not listed; nil when it is listed.
  ///
  /// - Throws: `BadType` when a field it reads has the wrong type: the text fields,
  ///   `push_type` and `source` must be strings or null, `content_available` a boolean or
  ///   null.
  public static func unlisted(_ view: JSONView, _ fields: ListingFields)
    throws(RecordProblem) -> Unlisted?
  {
    func string(_ index: Int, _ field: RecordField) throws(RecordProblem) -> Bool {
      try RecordFieldReader.checkStringOrNull(view, index, field)
      return index >= 0 && view.kind(index) == .string
    }
    // Every field is checked, whatever decides, so that a record is rejected or not
    // whichever tool reads it.
    var hasText = try string(fields.title, .title)
    hasText = try string(fields.subtitle, .subtitle) || hasText
    hasText = try string(fields.body, .body) || hasText
    hasText = try string(fields.titleLocKey, .titleLocKey) || hasText
    hasText = try string(fields.subtitleLocKey, .subtitleLocKey) || hasText
    hasText = try string(fields.locKey, .locKey) || hasText
    let hasPushType = try string(fields.pushType, .pushType)
    let hasSource = try string(fields.source, .source)
    var contentAvailable = false
    if fields.contentAvailable >= 0 {
      switch view.kind(fields.contentAvailable) {
      case .bool: contentAvailable = view.bool(fields.contentAvailable) ?? false
      case .null: break
      case let kind:
        throw RecordProblem(
          code: "BadType",
          message:
            "'\(RecordField.contentAvailable.key)' is \(kind.phrase), not a boolean or null",
          offset: Int(view.tokens[fields.contentAvailable].start))
      }
    }
    // The values looked for are short: a long string is none of them, and is not decoded.
    func short(_ index: Int) -> String? {
      view.rawString(index).count <= 16 ? view.string(index) : nil
    }
    if hasPushType {
      // A string with no escape is looked up as it is written.
      let escaped = view.tokens[fields.pushType].flag
      let type =
        escaped
        ? short(fields.pushType).flatMap { Unlisted(pushType: $0.utf8) }
        : Unlisted(pushType: view.rawString(fields.pushType))
      if let type { return type }
    }
    if hasText { return nil }
    if contentAvailable { return .background }
    if hasSource, let source = short(fields.source), dataSources.contains(source) {
      return .dataOnly
    }
    return .noText
  }

  /// Why the record at `index` of `view` is not listed; nil when it is listed. Finds the
  /// fields with `locator`, which the caller keeps for every record: a record nested in a
  /// group object has its keys in `RecordField` order too, so that is one comparison a key.
  ///
  /// - Throws: `BadType`, as `unlisted(_:_:)`.
  public static func unlisted(
    _ view: JSONView, record index: Int, locator: RecordFieldLocator
  ) throws(RecordProblem) -> Unlisted? {
    locator.locate(view, object: index)
    return try unlisted(view, ListingFields(locator))
  }
}

/// The records a run left out because the device does not list them, by why: what the note
/// `NotListed` says at the end of each input.
public struct UnlistedTally: Sendable, Equatable {
  /// The count of each `Unlisted` case, by `rawValue`.
  public private(set) var counts = [Int](repeating: 0, count: Unlisted.allCases.count)

  /// Nothing left out yet.
  public init() {}

  /// The number of records left out.
  public var total: Int { counts.reduce(0) { $0 &+ $1 } }

  /// Whether nothing was left out.
  public var isEmpty: Bool { counts.allSatisfy { $0 == 0 } }

  /// Counts `n` records left out as `unlisted`.
  public mutating func add(_ unlisted: Unlisted, _ n: Int = 1) {
    counts[unlisted.rawValue] &+= n
  }

  /// Adds what `other` counted.
  public mutating func add(_ other: UnlistedTally) {
    for index in counts.indices { counts[index] &+= other.counts[index] }
  }

  /// The note for `file`: "3 records not listed: 2 background, 1 widgets; --all-pushes keeps
  /// them", the reasons by count, most first, then in the order of `Unlisted`. Nil when
  /// nothing was left out.
  public func note(file: String) -> Diagnostic? {
    guard !isEmpty else { return nil }
    let parts = Unlisted.allCases.filter { counts[$0.rawValue] > 0 }
      .sorted { a, b in
        let (x, y) = (counts[a.rawValue], counts[b.rawValue])
        return x != y ? x > y : a < b
      }
      .map { "\(counts[$0.rawValue]) \($0.label)" }
    let total = self.total
    let records = total == 1 ? "1 record" : "\(total) records"
    return Diagnostic(
      .note, Self.code,
      "\(records) not listed: \(parts.joined(separator: ", ")); "
        + "\(ListingOptions.allPushes) keeps \(total == 1 ? "it" : "them")",
      file: file)
  }

  /// The note's code.
  public static let code = "NotListed"
}

/// What a group object lists, as far as it shows its records: notif-summarize and notif-show
/// leave out a group in which the device lists nothing.
///
/// A group object holds its leading record, and its items unless made with `--no-items`,
/// some of them with `--item-limit`. Only when every record is there (`count` 1, or as many items
/// as `count`) can it be known that none is listed; a group with a record not there may hold
/// a listed one, and is kept.
public struct GroupListing: Sendable {
  /// The records looked at: the items, or the leading record alone without items.
  public private(set) var seen = 0
  /// How many of them are listed.
  public private(set) var listed = 0
  /// Why each of the others is not.
  public private(set) var unlisted = UnlistedTally()

  /// Nothing looked at yet.
  public init() {}

  /// Counts a record, listed (nil) or not.
  public mutating func add(_ reason: Unlisted?) {
    seen += 1
    if let reason { unlisted.add(reason) } else { listed += 1 }
  }

  /// Whether a group of `count` records lists nothing: every record was looked at and none
  /// is listed.
  public func listsNothing(count: Int) -> Bool {
    listed == 0 && seen >= count
  }
}
