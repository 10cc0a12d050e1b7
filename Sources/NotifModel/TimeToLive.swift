/// A length of time written as whole numbers with units: `7d`, `36h`, `1d12h`, `90s`.
///
/// Units are `s`, `m` (minutes), `h`, `d` and `w`, largest first, each at most once. A bare
/// number is rejected (seconds or days?), and so are months and years, which have no fixed
/// length.
public struct TimeToLive: Sendable, Hashable, CustomStringConvertible {
  /// The length in seconds.
  public var seconds: Int64

  /// Creates a length of `seconds` seconds.
  public init(seconds: Int64) { self.seconds = seconds }

  static let units: [(symbol: Character, seconds: Int64)] = [
    ("w", 604_800), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1),
  ]

  /// Reads a length such as `1d12h`.
  public init(_ text: String) throws(TimeError) {
    guard !text.isEmpty else { throw TimeError("empty duration: write it as 7d, 36h or 1d12h") }
    if Int64(text) != nil {
      throw TimeError("'\(text)' has no unit: write it as \(text)s, \(text)m, \(text)h or \(text)d")
    }
    var total: Int64 = 0
    var digits = ""
    var lastUnit = -1
    for character in text {
      if character.isASCII && character.isNumber {
        digits.append(character)
        continue
      }
      guard let unit = Self.units.firstIndex(where: { $0.symbol == character }) else {
        if character == "M" || character == "y" || character == "Y" {
          throw TimeError("'\(text)': months and years have no fixed length; use days (30d, 365d)")
        }
        throw TimeError(
          "'\(text)' is not a duration: use whole numbers with s, m, h, d or w, as in 1d12h")
      }
      guard let count = Int64(digits) else {
        throw TimeError("'\(text)': '\(character)' needs a number before it")
      }
      guard unit > lastUnit else {
        throw TimeError("'\(text)': give each unit once, largest first, as in 1d12h")
      }
      let (product, overflow) = count.multipliedReportingOverflow(by: Self.units[unit].seconds)
      let (sum, overflow2) = total.addingReportingOverflow(product)
      guard !overflow, !overflow2 else { throw TimeError("'\(text)' is too long") }
      total = sum
      lastUnit = unit
      digits = ""
    }
    guard digits.isEmpty else {
      throw TimeError("'\(text)' ends in a number with no unit: add s, m, h, d or w")
    }
    self.init(seconds: total)
  }

  /// The length in the same notation, largest units first: `1d12h`; `0s` for zero.
  public var description: String {
    guard seconds > 0 else { return "0s" }
    var rest = seconds
    var text = ""
    for unit in Self.units where rest >= unit.seconds {
      text += "\(rest / unit.seconds)\(unit.symbol)"
      rest %= unit.seconds
    }
    return text
  }
}
