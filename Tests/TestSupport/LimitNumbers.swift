/// The numbers at the limits of what JSON readers hold: 2^31, 2^32, 2^53 (the largest
/// integer a double holds exactly, and notif's `FieldLimits.largest` + 1), 2^63 and 2^64 with
/// their neighbours, their negatives, and whole numbers not written as integers. Each is JSON
/// text, put as it is in the numeric fields of records and group objects.
public enum LimitNumbers {
  /// 2^53 - 1, the most any count or weight holds.
  public static let largest: Int64 = 9_007_199_254_740_991

  public static let all: [String] = [
    "0", "1", "-0", "1.0", "1e0", "1e308", "-1e308", "0.5",
    "2147483647", "2147483648", "2147483649",
    "4294967295", "4294967296", "4294967297",
    "4503599627370496",
    "9007199254740990", "9007199254740991", "9007199254740992", "9007199254740993",
    "9223372036854775807", "9223372036854775808", "9223372036854775809",
    "18446744073709551615", "18446744073709551616", "18446744073709551617",
    "-1", "-2147483648", "-2147483649", "-4294967296", "-9007199254740991", "-9007199254740993",
    "-9223372036854775808", "-9223372036854775809",
  ]

  /// The value of `text` when it is a JSON integer (no fraction, no exponent; `-0` is 0) that
  /// fits in 64 bits: what a tool can hold before it checks the range.
  public static func integer(_ text: String) -> Int64? { Int64(text) }

  /// Whether `text` is a whole number in `range`, as notif's tools read one.
  public static func isWhole(_ text: String, in range: ClosedRange<Int64>) -> Bool {
    integer(text).map(range.contains) ?? false
  }
}

/// A group object as notif-group writes it, with its numbers as JSON text, for the tests of
/// every tool that reads group objects: led by a record `lead` of `app` and thread `t`,
/// without items unless `items` is given (then with `limit`).
public func limitGroupObject(
  app: String = "com.example.chat", count: String, unread: String = "1", fresh: String = "1",
  moreCount: String, moreWeight: String, categories: [(count: String, weight: String)],
  arguments: [(String, String)] = [], items: [String]? = nil, omitted: String? = nil,
  limit: String = "null"
) -> String {
  let entries = categories.map {
    #"{"category":"MESSAGE","count":\#($0.count),"weight":\#($0.weight)}"#
  }
  let names = arguments.map {
    #"{"summary_arg":"\#($0.0)","count":\#($0.1),"latest_at":"2026-11-22T09:00:00Z"}"#
  }
  return #"{"app":"\#(app)","thread_id":"t","count":\#(count),"#
    + #""unread_count":\#(unread),"new_count":\#(fresh),"latest_at":"2026-11-22T09:05:00Z","#
    + #""leading":\#(limitLeadingRecord(app: app)),"more_count":\#(moreCount),"#
    + #""more_weight":\#(moreWeight),"more_categories":[\#(entries.joined(separator: ","))],"#
    + #""more_summary_args":[\#(names.joined(separator: ","))],"#
    + #""items":\#(items.map { "[" + $0.joined(separator: ",") + "]" } ?? "null"),"#
    + #""items_omitted":\#(omitted ?? count),"grouping":{"by":"thread","sort":"time","#
    + #""order":"feed","limit":\#(limit),"last_seen":null,"all_pushes":false}}"#
}

/// The leading record of `limitGroupObject`, in the key order of notif-group's tests.
public func limitLeadingRecord(app: String = "com.example.chat") -> String {
  #"{"id":"lead","app":"\#(app)","thread_id":"t","category":null,"title":"Lead","#
    + #""created_at":"2026-11-22T09:05:00Z","relevance":null,"summary_arg":null,"#
    + #""summary_arg_count":1,"read_at":null,"seen_at":null}"#
}

/// A consistent group object of `count` records, each of weight 1.
public func limitGroupObject(count: Int64, app: String = "com.example.chat") -> String {
  let more = count - 1
  return limitGroupObject(
    app: app, count: "\(count)", moreCount: "\(more)", moreWeight: "\(more)",
    categories: more > 0 ? [("\(more)", "\(more)")] : [])
}

/// The numeric fields of a group object: each makes an object with a number in it (and what
/// depends on it made to agree, where it is a count in range), and says which tools take it
/// and which keys a diagnostic about it names.
public enum LimitField: String, CaseIterable, Sendable {
  case count, unreadCount, newCount, moreCount, moreWeight, itemsOmitted, categoryCount
  case categoryWeight, argumentCount, groupingLimit

  /// The tools that read group objects.
  public enum Reader: Sendable { case merge, summarize, show }

  /// The group object of `app` with `number` in this field.
  public func object(_ number: String, app: String = "com.example.chat") -> String {
    let whole = LimitNumbers.integer(number)
    let positive = LimitNumbers.isWhole(number, in: 1...LimitNumbers.largest)
    let one = [("1", "1")]
    switch self {
    case .count:
      guard positive, let count = whole else {
        return limitGroupObject(
          app: app, count: number, moreCount: "1", moreWeight: "1", categories: one,
          omitted: "2")
      }
      return limitGroupObject(count: count, app: app)
    case .unreadCount, .newCount:
      return limitGroupObject(
        app: app, count: "2", unread: self == .unreadCount ? number : "1",
        fresh: self == .newCount ? number : "1", moreCount: "1", moreWeight: "1",
        categories: one)
    case .moreCount:
      return limitGroupObject(
        app: app, count: "2", moreCount: number, moreWeight: "1", categories: one)
    case .moreWeight, .categoryWeight:
      let weight = positive ? number : "1"
      return limitGroupObject(
        app: app, count: "2", moreCount: "1", moreWeight: self == .moreWeight ? number : weight,
        categories: [("1", self == .categoryWeight ? number : weight)])
    case .itemsOmitted:
      return limitGroupObject(
        app: app, count: "2", moreCount: "1", moreWeight: "1", categories: one, omitted: number)
    case .categoryCount, .argumentCount:
      // Counts of the non-leading records: the group holds one more.
      guard isDerived(number), let more = whole else {
        return limitGroupObject(
          app: app, count: "2", moreCount: "1", moreWeight: "1",
          categories: [(self == .categoryCount ? number : "1", "1")],
          arguments: [("Ann", self == .argumentCount ? number : "1")])
      }
      return limitGroupObject(
        app: app, count: "\(more + 1)", moreCount: number, moreWeight: number,
        categories: [(number, number)], arguments: [("Ann", number)])
    case .groupingLimit:
      return limitGroupObject(
        app: app, count: "1", moreCount: "0", moreWeight: "0", categories: [],
        items: [limitLeadingRecord(app: app)], omitted: "0", limit: number)
    }
  }

  /// Whether the count `number` of non-leading records fits, with the leading one, in a group.
  private func isDerived(_ number: String) -> Bool {
    LimitNumbers.isWhole(number, in: 1...(LimitNumbers.largest - 1))
  }

  /// Whether `reader` takes the object with `number` in this field.
  public func isAccepted(_ number: String, by reader: Reader) -> Bool {
    let whole = LimitNumbers.integer(number)
    let positive = LimitNumbers.isWhole(number, in: 1...LimitNumbers.largest)
    let tally = LimitNumbers.isWhole(number, in: 0...LimitNumbers.largest)
    switch (self, reader) {
    case (.count, _), (.moreWeight, .merge), (.moreWeight, .summarize), (.categoryWeight, .merge),
      (.categoryWeight, .summarize), (.groupingLimit, .merge):
      return positive
    case (.unreadCount, .merge), (.newCount, .merge): return LimitNumbers.isWhole(number, in: 0...2)
    case (.unreadCount, .show), (.newCount, .show), (.itemsOmitted, .show): return tally
    case (.moreCount, .merge), (.moreCount, .summarize): return whole == 1
    case (.itemsOmitted, .merge): return whole == 2
    case (.categoryCount, .merge), (.categoryCount, .summarize), (.argumentCount, .merge):
      return isDerived(number)
    default: return true  // a field the reader does not read
    }
  }

  /// The keys a diagnostic about the number names: the field's, or the sum it is part of.
  public var keys: [String] {
    switch self {
    case .count: return ["count"]
    case .unreadCount: return ["unread_count"]
    case .newCount: return ["new_count"]
    case .moreCount: return ["more_count"]
    case .moreWeight, .categoryWeight: return ["more_weight", "weight", "more_categories"]
    case .itemsOmitted: return ["items_omitted"]
    case .categoryCount, .argumentCount: return ["count", "more_categories", "more_summary_args"]
    case .groupingLimit: return ["grouping.limit"]
    }
  }
}
