import NotifJSON
import NotifModel

/// The options that made a digest object, as its `digesting` member records them: what
/// `--merge` compares, so that it never merges objects that runs with other options made.
struct Digesting: Equatable, Sendable {
  /// The `--key` paths, as given.
  var key: [String]
  /// The `--actor` path.
  var actor: String
  /// `--window` and `--align`, or `--at` and `--tz`.
  var rule: WindowRule
  /// `--lookback`, in seconds.
  var lookback: Int64?
  var maxItems: Int?
  var items: ItemsEnd
  var limit: Int?
  /// `--all-pushes`: whether the records the device does not list were digested too.
  var allPushes: Bool

  typealias Entry = DigestField.DigestingEntry

  /// `{"key":[...],"actor":...,...}`, compact.
  func write(into out: inout ByteBuffer) {
    func member(_ entry: Entry) {
      out.append(entry == .key ? "{\"" : ",\"")
      out.append(utf8: entry.key)
      out.append("\":")
    }
    func time(_ instant: Timestamp) {
      out.append(UInt8(ascii: "\""))
      instant.write(into: &out)
      out.append(UInt8(ascii: "\""))
    }
    func optional(_ value: Int?) {
      if let value { out.append(decimal: Int64(value)) } else { out.append("null") }
    }
    member(.key)
    out.append(UInt8(ascii: "["))
    for (position, path) in key.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      JSONEscapes.writeString(path, into: &out)
    }
    out.append(UInt8(ascii: "]"))
    member(.actor)
    JSONEscapes.writeString(actor, into: &out)
    switch rule {
    case .tumbling(let seconds, let align):
      member(.window)
      JSONEscapes.writeString(TimeToLive(seconds: seconds).description, into: &out)
      member(.align)
      time(align)
      member(.at)
      out.append("null")
      member(.tz)
      out.append("null")
    case .schedule(let times, let zone):
      member(.window)
      out.append("null")
      member(.align)
      out.append("null")
      member(.at)
      out.append(UInt8(ascii: "["))
      for (position, minutes) in times.enumerated() {
        if position > 0 { out.append(UInt8(ascii: ",")) }
        JSONEscapes.writeString(WindowRule.clock(minutes), into: &out)
      }
      out.append(UInt8(ascii: "]"))
      member(.tz)
      JSONEscapes.writeString(zone.name, into: &out)
    }
    member(.lookback)
    if let lookback {
      JSONEscapes.writeString(TimeToLive(seconds: lookback).description, into: &out)
    } else {
      out.append("null")
    }
    member(.maxItems)
    optional(maxItems)
    member(.items)
    JSONEscapes.writeString(items.rawValue, into: &out)
    member(.limit)
    optional(limit)
    member(.allPushes)
    out.append(allPushes ? "true" : "false")
    out.append(UInt8(ascii: "}"))
  }

  var bytes: [UInt8] {
    var out = ByteBuffer(capacity: 256)
    write(into: &out)
    return out.bytes
  }

  /// The options as a command line gives them: `--window 1h`, `--item-limit 3`, `no --item-limit`.
  func describe(_ entry: Entry) -> String {
    switch entry {
    case .key: return "--key " + key.joined(separator: ",")
    case .actor: return "--actor \(actor)"
    case .window, .align, .at, .tz:
      switch rule {
      case .tumbling(let seconds, let align):
        return "--window \(TimeToLive(seconds: seconds)) --align \(align)"
      case .schedule(let times, let zone):
        return "--at \(times.map(WindowRule.clock).joined(separator: ",")) --tz \(zone.name)"
      }
    case .lookback:
      return lookback.map { "--lookback \(TimeToLive(seconds: $0))" } ?? "no --lookback"
    case .maxItems: return maxItems.map { "--max-items \($0)" } ?? "no --max-items"
    case .items: return "--item-end \(items.rawValue)"
    case .limit: return limit.map { "--item-limit \($0)" } ?? "no --item-limit"
    case .allPushes: return allPushes ? "--all-pushes" : "no --all-pushes"
    }
  }

  /// The first entry in which two differ.
  func firstDifference(from other: Digesting) -> Entry? {
    if key != other.key { return .key }
    if actor != other.actor { return .actor }
    if rule != other.rule {
      switch (rule, other.rule) {
      case (.tumbling(let a, _), .tumbling(let b, _)): return a != b ? .window : .align
      case (.schedule(let a, _), .schedule(let b, _)): return a != b ? .at : .tz
      default: return .window
      }
    }
    if lookback != other.lookback { return .lookback }
    if maxItems != other.maxItems { return .maxItems }
    if items != other.items { return .items }
    if limit != other.limit { return .limit }
    if allPushes != other.allPushes { return .allPushes }
    return nil
  }
}

/// Writes digest objects: one compact JSON object a line, its keys in `DigestField` order
/// (notif(5), "Digest objects").
struct DigestObjectWriter {
  /// `,"key":` for every key of a digest object.
  static let starts: [[UInt8]] = DigestField.allCases.map {
    Array(($0 == .digestID ? "{\"" : ",\"").utf8) + Array($0.key.utf8) + Array("\":".utf8)
  }

  /// Appends the object of `digest`, with its newline, to `out`.
  static func write(
    _ digest: inout Digest, texts: DigestTexts, digesting: [UInt8], into out: inout ByteBuffer
  ) {
    func start(_ field: DigestField) {
      starts[field.rawValue].withUnsafeBytes { out.append($0) }
    }
    func time(_ instant: Timestamp) {
      out.append(UInt8(ascii: "\""))
      instant.write(into: &out)
      out.append(UInt8(ascii: "\""))
    }
    func string(_ bytes: [UInt8]) {
      out.append(UInt8(ascii: "\""))
      bytes.withUnsafeBytes { JSONEscapes.appendEscaped($0, into: &out) }
      out.append(UInt8(ascii: "\""))
    }
    start(.digestID)
    out.append(UInt8(ascii: "\""))
    digest.id.write(into: &out)
    out.append(UInt8(ascii: "\""))
    start(.key)
    digest.key.withUnsafeBytes { out.append($0) }
    start(.windowStart)
    time(digest.window.start)
    start(.windowEnd)
    time(digest.window.end)
    start(.count)
    out.append(decimal: digest.count)
    start(.unreadCount)
    out.append(decimal: digest.unreadCount)
    start(.latestAt)
    time(digest.latestAt)
    start(.actors)
    out.append(UInt8(ascii: "["))
    for (position, entry) in digest.actorsInOrder.enumerated() {
      out.append(position == 0 ? "{\"actor\":" : ",{\"actor\":")
      string(entry.actor)
      out.append(",\"count\":")
      out.append(decimal: entry.count)
      out.append(",\"latest_at\":")
      time(entry.latestAt)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    start(.categories)
    out.append(UInt8(ascii: "["))
    for (position, entry) in digest.categoriesInOrder.enumerated() {
      out.append(position == 0 ? "{\"category\":" : ",{\"category\":")
      if let category = entry.category { string(category) } else { out.append("null") }
      out.append(",\"count\":")
      out.append(decimal: entry.count)
      out.append(UInt8(ascii: "}"))
    }
    out.append(UInt8(ascii: "]"))
    start(.items)
    out.append(UInt8(ascii: "["))
    let items = digest.items.sorted()
    for (position, item) in items.enumerated() {
      if position > 0 { out.append(UInt8(ascii: ",")) }
      item.bytes.withUnsafeBytes { out.append($0) }
    }
    out.append(UInt8(ascii: "]"))
    start(.itemsOmitted)
    out.append(decimal: max(digest.count - Int64(items.count), 0))
    let (summary, hidden) =
      digest.texts ?? (texts.summary(digest), texts.hiddenSummary(digest))
    start(.summary)
    JSONEscapes.writeString(summary, into: &out)
    start(.hiddenSummary)
    JSONEscapes.writeString(hidden, into: &out)
    start(.readAt)
    if let readAt = digest.readAt { time(readAt) } else { out.append("null") }
    start(.digesting)
    digesting.withUnsafeBytes { out.append($0) }
    out.append("}\n")
  }
}
