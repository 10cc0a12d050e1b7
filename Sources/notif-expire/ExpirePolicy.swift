import NotifJSON
import NotifModel
import NotifSweep

/// How long records of one category live: the per-type data source of a notification list.
struct ExpireRule: Equatable {
  /// Time to live from `created_at`, in seconds; nil: no limit by age.
  var ttl: Int64?
  /// Time to live from `read_at` once read, in seconds; nil: no limit once read.
  var readTTL: Int64?
  /// Keep only the newest `keep` records per group; nil: no cap.
  var keep: Int?
  /// What `keep` may be: a cap group keeps its newest marks in a heap of `keep` (a policy's
  /// number, read by notif-expire alone, not a count another tool writes).
  static let keepRange: ClosedRange<Int64> = 1...Int64(Int32.max)
  /// The rule's number in the policy (0 is the default rule), which separates cap groups.
  var number: Int
}

/// A policy file (`--policy`): a default rule and one rule per category.
///
/// ```json
/// {"default": {"ttl": "7d"},
///  "categories": {"message": {"ttl": "30d", "read_ttl": "1d", "keep": 50}}}
/// ```
struct ExpirePolicy: Equatable {
  var defaultRule: ExpireRule?
  var categories: [(name: [UInt8], rule: ExpireRule)] = []

  /// Whether any rule caps its groups, which needs a pass over the input before the sweep.
  var hasKeep: Bool {
    defaultRule?.keep != nil || categories.contains { $0.rule.keep != nil }
  }

  static func == (a: ExpirePolicy, b: ExpirePolicy) -> Bool {
    a.defaultRule == b.defaultRule && a.categories.elementsEqual(b.categories) { $0 == $1 }
  }

  /// A problem with the file's shape, at a byte offset in its JSON text.
  typealias FormatError = ConfigFile.Rejection

  init(defaultRule: ExpireRule? = nil, categories: [(name: [UInt8], rule: ExpireRule)] = []) {
    self.defaultRule = defaultRule
    self.categories = categories
  }

  /// Reads a policy from its parsed JSON text, whose root is an object (`ConfigFile` checks).
  init(_ view: JSONView) throws(FormatError) {
    var number = 1
    var key = 1
    for _ in 0..<Int(view.tokens[0].count) {
      let value = key + 1
      let name = view.string(key)
      switch name {
      case "default":
        defaultRule = try Self.rule(view, value, number: 0, name: "default")
      case "categories":
        guard view.kind(value) == .object else {
          throw FormatError(
            offset: Self.offset(view, value), message: "'categories' must be an object of rules")
        }
        var categoryKey = value + 1
        for _ in 0..<Int(view.tokens[value].count) {
          let category = view.string(categoryKey)
          let rule = try Self.rule(view, categoryKey + 1, number: number, name: category)
          categories.append((Array(category.utf8), rule))
          number += 1
          categoryKey = Int(view.tokens[categoryKey + 1].next)
        }
      default:
        throw FormatError(
          offset: Self.offset(view, key),
          message: "unknown key '\(name)': a policy has 'default' and 'categories'")
      }
      key = Int(view.tokens[value].next)
    }
  }

  private static func offset(_ view: JSONView, _ index: Int) -> Int {
    Int(view.tokens[index].start)
  }

  private static func rule(_ view: JSONView, _ index: Int, number: Int, name: String)
    throws(FormatError) -> ExpireRule
  {
    guard view.kind(index) == .object else {
      throw FormatError(
        offset: offset(view, index),
        message: "the rule for '\(name)' must be an object with 'ttl', 'read_ttl' or 'keep'")
    }
    var rule = ExpireRule(number: number)
    var key = index + 1
    for _ in 0..<Int(view.tokens[index].count) {
      let value = key + 1
      let field = view.string(key)
      switch field {
      case "ttl", "read_ttl":
        guard let text = view.stringValue(value) else {
          throw FormatError(
            offset: offset(view, value),
            message: "'\(field)' of '\(name)' must be a duration string such as \"7d\"")
        }
        let seconds: Int64
        do {
          seconds = try TimeToLive(text).seconds
        } catch {
          throw FormatError(
            offset: offset(view, value), message: "'\(field)' of '\(name)': \(error)")
        }
        if field == "ttl" { rule.ttl = seconds } else { rule.readTTL = seconds }
      case "keep":
        guard let count = view.integer(value), ExpireRule.keepRange.contains(count) else {
          let range = ExpireRule.keepRange
          throw FormatError(
            offset: offset(view, value),
            message:
              "'keep' of '\(name)' must be a whole number of records from \(range.lowerBound) to \(range.upperBound)"
          )
        }
        rule.keep = Int(count)
      default:
        throw FormatError(
          offset: offset(view, key),
          message:
            "unknown key '\(field)' in the rule for '\(name)': use 'ttl', 'read_ttl' or 'keep'"
        )
      }
      key = Int(view.tokens[value].next)
    }
    return rule
  }

  /// The rule for a record's category: its own, else the default; nil when neither exists.
  func rule(for record: RecordView) -> ExpireRule? {
    if !categories.isEmpty, let index = record.index(.category), record.json.kind(index) == .string
    {
      let json = record.json
      if json.tokens[index].flag {
        let name = Array(json.string(index).utf8)
        for entry in categories where entry.name == name { return entry.rule }
      } else {
        let raw = json.rawString(index)
        for entry in categories where entry.name.count == raw.count && entry.name.elementsEqual(raw)
        {
          return entry.rule
        }
      }
    }
    return defaultRule
  }
}
