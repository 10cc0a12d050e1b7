import NotifCLI
import NotifModel

/// A locale as CLDR knows it: the identifier asked for, the fallback chain from it to root, and
/// the plural rules and list patterns found along that chain.
public struct CLDRLocale: Sendable {
  /// The identifier as given on the command line.
  public var requested: String
  /// The chain of CLDR identifiers from the most specific to `root` (`de_AT`, `de`, `root`).
  public var chain: [String]
  /// The first identifier of `chain` that CLDR defines.
  public var identifier: String
  /// The cardinal plural rules.
  public var plural: PluralRules
  /// The "standard" list patterns.
  public var list: ListPattern

  /// The fields after `key` on the line of `table` (`key field...` lines) that starts with it.
  ///
  /// A scan of the bytes rather than a dictionary built at start: a run looks up a handful of
  /// identifiers, and building the table of 1,083 locales cost more than the run's start-up.
  private static func fields(of key: String, in table: String) -> [Substring]? {
    var table = table
    let needle = Array(key.utf8) + [UInt8(ascii: " ")]
    let found: Int? = table.withUTF8 { bytes in
      var start = 0
      while start + needle.count <= bytes.count {
        if bytes[start] == needle[0]
          && needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] })
        {
          return start
        }
        guard let newline = bytes[start...].firstIndex(of: 0x0A) else { return nil }
        start = newline + 1
      }
      return nil
    }
    guard let found else { return nil }
    let line = table.utf8.dropFirst(found).prefix { $0 != 0x0A }
    return Substring(line).split(separator: " ").dropFirst().map { $0 }
  }

  private static func indexes(of identifier: String) -> (plural: Int, list: Int)? {
    guard let fields = fields(of: identifier, in: CLDRData.locales), fields.count == 2,
      let plural = Int(fields[0]), let list = Int(fields[1])
    else { return nil }
    return (plural, list)
  }

  /// CLDR's names of today and yesterday as a heading starts (`Today`, `Heute`), from the
  /// first locale of the chain that has them (`RelativeDayNames`), for notif-show's day
  /// sections.
  public var relativeDays: (today: String, yesterday: String) {
    for identifier in chain {
      if let field = Self.fields(of: identifier, in: RelativeDayNames.locales)?.first,
        let index = Int(field), RelativeDayNames.pairs.indices.contains(index)
      {
        return RelativeDayNames.pairs[index]
      }
    }
    return ("Today", "Yesterday")
  }

  /// Whether CLDR defines this exact identifier (in CLDR's `ll_Ssss_RR` form).
  public static func isDefined(_ identifier: String) -> Bool { indexes(of: identifier) != nil }

  /// Rewrites a BCP 47 or POSIX tag (`pt-BR`, `pt_BR`, `sr-Latn`, `de_DE.UTF-8`) in CLDR's form:
  /// language lowercase, script titlecase, region and variants uppercase, `_` between; nil for
  /// anything that is not made of letters and digits so.
  public static func canonical(_ tag: String) -> String? {
    var text = Substring(tag)
    if let dot = text.firstIndex(where: { $0 == "." || $0 == "@" }) { text = text[..<dot] }
    let subtags = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == "_" })
    guard let first = subtags.first, (2...8).contains(first.count) else { return nil }
    var parts: [String] = []
    for (position, subtag) in subtags.enumerated() {
      let isLetters = subtag.allSatisfy { $0.isASCII && $0.isLetter }
      let isAlphanumeric = subtag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
      guard !subtag.isEmpty, subtag.count <= 8, isAlphanumeric else { return nil }
      if position == 0 {
        guard isLetters else { return nil }
        parts.append(subtag.lowercased())
      } else if position == 1 && subtag.count == 4 && isLetters {
        parts.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
      } else {
        parts.append(subtag.uppercased())
      }
    }
    if parts == ["und"] { return "root" }
    // A loop, not `joined(separator:)`, whose generic body looks up a witness by scanning every
    // conformance in the binary: a seventh of notif-show's start-up.
    guard var canonical = parts.first else { return nil }
    for part in parts.dropFirst() { canonical += "_" + part }
    return canonical
  }

  /// The fallback chain of a canonical identifier: CLDR's explicit parents where it has one,
  /// else the identifier less its last subtag, down to `root`.
  public static func chain(of identifier: String) -> [String] {
    var chain: [String] = []
    var current = identifier
    while current != "root" {
      chain.append(current)
      if let parent = fields(of: current, in: CLDRData.parents)?.first {
        current = String(parent)
      } else if let cut = current.lastIndex(of: "_") {
        current = String(current[..<cut])
      } else {
        current = "root"
      }
    }
    chain.append("root")
    return chain
  }

  /// Finds a locale.
  ///
  /// - Throws: `UsageError` when the tag is malformed or CLDR knows neither it nor any locale
  ///   on its fallback chain but root.
  public init(_ tag: String) throws(UsageError) {
    guard let canonical = Self.canonical(tag) else {
      throw UsageError("--locale: '\(tag)' is not a locale identifier such as en, pt-BR or sr_Latn")
    }
    var chain = Self.chain(of: canonical)
    if !Self.isDefined(canonical),
      let alias = Self.fields(of: canonical, in: CLDRData.aliases)?.first
    {
      // zh_TW is zh_Hant_TW: its own name first (for a zh-TW.lproj folder), then that chain.
      chain = [canonical] + Self.chain(of: String(alias))
    }
    guard let found = chain.first(where: { Self.isDefined($0) }),
      found != "root" || canonical == "root", let indexes = Self.indexes(of: found)
    else {
      throw UsageError("--locale: '\(tag)' is not a locale CLDR \(CLDRData.version) defines")
    }
    requested = tag
    self.chain = chain
    identifier = found
    do {
      plural = try PluralRules(CLDRData.pluralRuleSets[indexes.plural])
    } catch {
      // The generated data is checked by the unit tests; a failure here is a generator bug.
      preconditionFailure("CLDR plural rules for '\(found)': \(error)")
    }
    let patterns = CLDRData.listPatternSets[indexes.list]
    list = ListPattern(start: patterns.0, middle: patterns.1, end: patterns.2, two: patterns.3)
  }
}

/// A CLDR list pattern set ("standard" type): how to join two items, and the start, middle
/// and end of a longer list.
public struct ListPattern: Sendable, Equatable {
  /// A pattern split at its `{0}` and `{1}`: the text before, between and after them.
  struct Pair: Sendable, Equatable {
    var before: String
    var between: String
    var after: String

    init(_ pattern: String) {
      let zero = pattern.range(of0: "{0}")
      let one = pattern.range(of0: "{1}")
      if let zero, let one, zero.upperBound <= one.lowerBound {
        before = String(pattern[..<zero.lowerBound])
        between = String(pattern[zero.upperBound..<one.lowerBound])
        after = String(pattern[one.upperBound...])
      } else {
        before = ""
        between = pattern
        after = ""
      }
    }

    /// The pattern with the items put in literally (never scanned for `{0}` again).
    func join(_ first: String, _ second: String) -> String {
      before + first + between + second + after
    }
  }

  var start: Pair
  var middle: Pair
  var end: Pair
  var two: Pair

  init(start: String, middle: String, end: String, two: String) {
    self.start = Pair(start)
    self.middle = Pair(middle)
    self.end = Pair(end)
    self.two = Pair(two)
  }

  /// Joins items as CLDR says: one alone, two with the two-item pattern, more with `end` for
  /// the last two, `middle` inside and `start` for the first.
  ///
  /// The patterns nest (`start` holds `middle`, which holds the next `middle`, ... which holds
  /// `end`): the text is written left to right, each pattern's closing part kept until the
  /// patterns it holds are written, so a list of n items costs its length, not n times it.
  public func format(_ items: [String]) -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    case 2: return two.join(items[0], items[1])
    default:
      var text = start.before + items[0] + start.between
      for index in 1..<(items.count - 2) {
        text += middle.before
        text += items[index]
        text += middle.between
      }
      text += end.join(items[items.count - 2], items[items.count - 1])
      for _ in 1..<(items.count - 2) { text += middle.after }
      return text + start.after
    }
  }
}

extension String {
  /// The first range of `needle` (a few ASCII bytes), without Foundation.
  fileprivate func range(of0 needle: String) -> Range<String.Index>? {
    var index = startIndex
    while index < endIndex {
      if self[index...].hasPrefix(needle) {
        return index..<(self.index(index, offsetBy: needle.count))
      }
      index = self.index(after: index)
    }
    return nil
  }
}
