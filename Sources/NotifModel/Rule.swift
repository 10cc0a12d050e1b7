import NotifJSON

// The rule book's rows as code. notif-parse's readers (NotifPush, the copy lint) name the row
// each finding applies, so the diagnostic's code and id come from the book; `--explain` and
// the SARIF writer of every tool (NotifCLI's Reporter) read the rows' words from here.

/// Whether a repair keeps what the device does, as ruff tells its fixes apart.
public enum FixSafety: String, Sendable {
  /// It keeps what the device does (a `true` where Apple documents 1, which iOS reads as 1):
  /// `--fix` makes it.
  case safe
  /// It changes what the device does, toward what the author evidently meant (a badge `"5"`,
  /// which iOS ignores, becomes 5): only `--unsafe-fixes` makes it.
  case unsafe
}

/// One row of rules/rules.tsv: a rule notif-parse checks a push message by.
public struct RuleEntry: Sendable {
  /// The row's id, kebab-case, unique across rules/rules.tsv and rules/responses.tsv.
  public var id: String
  /// The section of notif-rules(7) it is in: `APNs`, `FCM HTTP v1`, ...
  public var format: String
  /// The key path it is about, as the message writes it.
  public var path: String
  /// What is checked, in our words: the condition that gives the verdict.
  public var summary: String
  /// `error` or `warning`; nil for a rule whose verdict is that the vendor ignores it.
  public var verdict: Severity?
  /// The diagnostic code, or `-` for an ignored rule.
  public var code: String
  /// What the vendor answers, or what the device or browser does.
  public var vendor: String
  /// The title of the source that says so.
  public var sourceTitle: String
  /// Its address: a URL, or a page of the notif sources (`man/notif.5`).
  public var sourceAddress: String
  /// How `notif-parse --fix` repairs what the rule finds, if it can.
  public var fix: FixSafety?
  /// A message the rule finds, from its case in rules/cases (after `notif-parse --check` and
  /// the arguments it needs, if it needs any); empty for an ignored rule.
  public var failing: String
  /// A message it passes, where its cases have one; else empty.
  public var passing: String
}

extension Rule {
  /// The row of the book.
  public var entry: RuleEntry { Rule.table[Int(rawValue)] }

  /// The row's id, as `--format json` and SARIF write it.
  public var id: String { entry.id }

  /// The diagnostic code the row gives.
  public var code: String { entry.code }

  /// The rule whose id is `id`, if there is one.
  public init?(id: String) {
    guard let found = Rule.byID[id] else { return nil }
    self = found
  }

  /// The rules `name` stands for, in any case: the rule whose id it is (`apns-badge`), else
  /// the rules whose code it is (`BadBadge`), in the book's order; empty when it names none.
  /// What `--explain`, `--select` and `--ignore` take.
  public static func named(_ name: String) -> [Rule] {
    let lowered = name.lowercased()
    if let rule = Rule(id: lowered) { return [rule] }
    // `-` is the code column of the rows whose values the vendor ignores: no code.
    guard lowered != "-" else { return [] }
    return allCases.filter { $0.code.lowercased() == lowered }
  }

  /// The rules whose code is `code`, in the book's order.
  public static func rules(withCode code: String) -> [Rule] {
    allCases.filter { $0.code == code }
  }

  /// The ids closest to `text` by edit distance (at most `limit`, those within a third of the
  /// text's length), then those that contain it: what `--explain` offers for an unknown id.
  public static func nearest(to text: String, limit: Int = 5) -> [Rule] {
    let wanted = Array(text.lowercased().utf8)
    let scored = allCases.map { rule in
      (rule, editDistance(wanted, Array(rule.id.utf8)))
    }
    let close = scored.filter { $0.1 <= max(2, wanted.count / 3) }.sorted { $0.1 < $1.1 }
    var found = close.map(\.0)
    let lowered = text.lowercased()
    for rule in allCases
    where !found.contains(rule) && !lowered.isEmpty
      && (rule.id.contains(lowered) || rule.code.lowercased().contains(lowered))
    {
      found.append(rule)
    }
    return Array(found.prefix(limit))
  }

  private static let byID: [String: Rule] = Dictionary(
    allCases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })

  /// Levenshtein distance of two byte strings, in O(a × b) time and O(b) space.
  private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var previous = Array(0...b.count)
    var current = previous
    for i in 1...max(a.count, 1) where !a.isEmpty {
      current[0] = i
      for j in 1...max(b.count, 1) where !b.isEmpty {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return a.isEmpty ? b.count : previous[b.count]
  }
}

extension Rule {
  /// The row of the JSON parser's verdict `code` on a message's text.
  public static func json(_ code: JSONError.Code) -> Rule {
    switch code {
    case .invalidJSON: .jsonSyntax
    case .invalidUTF8: .jsonUtf8
    case .duplicateKey: .jsonDuplicateKey
    case .nestingTooDeep: .jsonNesting
    case .recordTooLarge: .jsonSize
    }
  }
}
