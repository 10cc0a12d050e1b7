/// A CLDR cardinal plural category.
public enum PluralCategory: String, CaseIterable, Sendable, Comparable {
  case zero, one, two, few, many, other

  private var rank: Int {
    switch self {
    case .zero: return 0
    case .one: return 1
    case .two: return 2
    case .few: return 3
    case .many: return 4
    case .other: return 5
    }
  }

  public static func < (a: PluralCategory, b: PluralCategory) -> Bool { a.rank < b.rank }
}

/// The operands of a number that CLDR plural rules look at (UTS #35, "Plural Operand
/// Meanings"): `n` absolute value, `i` integer digits, `v`/`w` visible fraction digits with
/// and without trailing zeros, `f`/`t` those digits as integers, `c`/`e` the compact exponent.
struct PluralOperands: Equatable, Sendable {
  var i: UInt64
  var v: Int
  var w: Int
  var f: UInt64
  var t: UInt64
  var e: UInt64 = 0

  init(i: UInt64, v: Int, w: Int, f: UInt64, t: UInt64) {
    (self.i, self.v, self.w, self.f, self.t) = (i, v, w, f, t)
  }

  /// The operands of an integer.
  init(_ value: Int) {
    i = value.magnitude.toUInt64
    v = 0
    w = 0
    f = 0
    t = 0
  }

  /// The operands of a decimal written as digits with an optional fraction (`1.50`, `-3`):
  /// the fraction digits shown count, trailing zeros included.
  init?(decimal text: String) {
    var bytes = Array(text.utf8)[...]
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    func isDigits(_ part: ArraySlice<UInt8>) -> Bool {
      !part.isEmpty && part.count <= 18 && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
    guard parts.count <= 2, let whole = parts.first, isDigits(whole) else { return nil }
    let fraction = parts.count == 2 ? parts[1] : []
    guard parts.count == 1 || isDigits(fraction) else { return nil }
    func number(_ digits: some Sequence<UInt8>) -> UInt64 {
      digits.reduce(0) { $0 * 10 + UInt64($1 - 0x30) }
    }
    var trimmed = fraction
    while trimmed.last == 0x30 { trimmed = trimmed.dropLast() }
    i = number(whole)
    v = fraction.count
    w = trimmed.count
    f = number(fraction)
    t = number(trimmed)
  }
}

extension UInt {
  fileprivate var toUInt64: UInt64 { UInt64(self) }
}

/// One locale's cardinal plural rules, parsed from CLDR's rule syntax
/// (`one: i = 1 and v = 0; few: n % 10 = 2..4 and n % 100 != 12..14`).
///
/// Supported: the operands `n i v w f t c e`, `%` (modulo), `=` and `!=` with comma-separated
/// values and `a..b` ranges, `and` binding tighter than `or`. A relation on `n` matches a range
/// only when `n` is an integer (a visible non-zero fraction never matches), as CLDR says.
public struct PluralRules: Sendable {
  struct Relation: Sendable {
    var operand: UInt8
    var modulus: UInt64?
    var negated: Bool
    /// The values and ranges, each `low...high` as a pair: an array of `ClosedRange` has the
    /// runtime check `UInt64: Comparable` by scanning every conformance in the binary at start.
    var ranges: [(low: UInt64, high: UInt64)]
  }

  /// Each category's condition: an `or` of `and`s of relations.
  private(set) var rules: [(PluralCategory, [[Relation]])] = []

  /// The categories the rules can give, `other` included, in CLDR order.
  public var categories: [PluralCategory] { rules.map(\.0) + [.other] }

  struct SyntaxError: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Parses rules in the form the generated data holds: `category: rule` pairs joined by `;`.
  init(_ text: String) throws(SyntaxError) {
    for part in text.split(separator: ";") {
      let pieces = part.split(separator: ":", maxSplits: 1)
      guard pieces.count == 2,
        let category = PluralCategory(rawValue: pieces[0].trimmingSpaces)
      else { throw SyntaxError(message: "bad plural rule '\(part)'") }
      rules.append((category, try Self.condition(String(pieces[1]))))
    }
  }

  private static func condition(_ text: String) throws(SyntaxError) -> [[Relation]] {
    var words = text.split(separator: " ").map(String.init)[...]
    var alternatives: [[Relation]] = [[]]
    while !words.isEmpty {
      alternatives[alternatives.count - 1].append(try relation(&words, in: text))
      guard let joiner = words.popFirst() else { break }
      guard !words.isEmpty || (joiner != "and" && joiner != "or") else {
        throw SyntaxError(message: "expected an operand after '\(joiner)' in '\(text)'")
      }
      switch joiner {
      case "and": continue
      case "or": alternatives.append([])
      default: throw SyntaxError(message: "expected 'and' or 'or' in '\(text)', found '\(joiner)'")
      }
    }
    return alternatives
  }

  private static func relation(_ words: inout ArraySlice<String>, in text: String)
    throws(SyntaxError) -> Relation
  {
    guard let operand = words.popFirst(), operand.utf8.count == 1,
      let byte = operand.utf8.first, "nivwftce".utf8.contains(byte)
    else { throw SyntaxError(message: "expected an operand in '\(text)'") }
    var modulus: UInt64? = nil
    var op = words.popFirst()
    if op == "%" {
      guard let value = words.popFirst().flatMap({ UInt64($0) }), value > 0 else {
        throw SyntaxError(message: "expected a modulus in '\(text)'")
      }
      modulus = value
      op = words.popFirst()
    }
    guard op == "=" || op == "!=", let list = words.popFirst() else {
      throw SyntaxError(message: "expected '=' or '!=' and values in '\(text)'")
    }
    var ranges: [(low: UInt64, high: UInt64)] = []
    for item in list.split(separator: ",") {
      let bounds = item.split(separator: ".", omittingEmptySubsequences: true)
      guard let low = bounds.first.flatMap({ UInt64($0) }), bounds.count <= 2,
        let high = bounds.count == 2 ? UInt64(bounds[1]) : low, low <= high
      else { throw SyntaxError(message: "bad value '\(item)' in '\(text)'") }
      ranges.append((low, high))
    }
    return Relation(operand: byte, modulus: modulus, negated: op == "!=", ranges: ranges)
  }

  /// The category of a number.
  func category(_ x: PluralOperands) -> PluralCategory {
    for (category, alternatives) in rules
    where alternatives.contains(where: { $0.allSatisfy { Self.holds($0, x) } }) {
      return category
    }
    return .other
  }

  /// The category of an integer.
  public func category(_ value: Int) -> PluralCategory { category(PluralOperands(value)) }

  private static func holds(_ relation: Relation, _ x: PluralOperands) -> Bool {
    var value: UInt64
    var isInteger = true
    switch relation.operand {
    case UInt8(ascii: "n"):
      value = x.i
      isInteger = x.t == 0
    case UInt8(ascii: "i"): value = x.i
    case UInt8(ascii: "v"): value = UInt64(x.v)
    case UInt8(ascii: "w"): value = UInt64(x.w)
    case UInt8(ascii: "f"): value = x.f
    case UInt8(ascii: "t"): value = x.t
    default: value = x.e
    }
    if let modulus = relation.modulus { value %= modulus }
    let matches = isInteger && relation.ranges.contains { $0.low <= value && value <= $0.high }
    return relation.negated ? !matches : matches
  }
}

extension Substring {
  // A slice of the slice, not reversed views: String's initialiser from a generic sequence of
  // characters cost notif-show and notif-digest half their start-up.
  fileprivate var trimmingSpaces: String {
    var trimmed = self[...]
    while trimmed.first == " " { trimmed = trimmed.dropFirst() }
    while trimmed.last == " " { trimmed = trimmed.dropLast() }
    return String(trimmed)
  }
}
