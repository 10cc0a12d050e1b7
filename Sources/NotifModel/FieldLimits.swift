/// The ranges of the whole numbers in records, group objects and options, defined once so that
/// every tool accepts what another writes (notif(5), "Limits").
///
/// A whole number is a JSON number without a fraction or an exponent; `-0` is 0. None is above
/// `largest`, 2^53 − 1, the largest integer that every JSON reader holds exactly (jq and
/// JavaScript read numbers as doubles, in which 2^53 + 1 is 2^53). A sum that would pass it
/// saturates at it with a warning, or is refused: it never wraps, and never traps.
public enum FieldLimits {
  /// 2^53 − 1 = 9007199254740991.
  public static let largest: Int64 = (1 << 53) - 1
  /// A record's `badge`; a group object's `unread_count`, `new_count`, `more_count`,
  /// `more_weight` and `items_omitted`.
  public static let tally: ClosedRange<Int64> = 0...largest
  /// A record's `summary_arg_count`; a group object's `count` and the `count` and `weight` of
  /// its entries; `--limit`, `--item-limit`, `grouping.limit` and `--max-args`.
  public static let positive: ClosedRange<Int64> = 1...largest

  /// "'name' is not a whole number from 1 to 9007199254740991".
  public static func notInRange(_ name: String, _ range: ClosedRange<Int64>) -> String {
    "'\(name)' is not a whole number from \(range.lowerBound) to \(range.upperBound)"
  }
}
