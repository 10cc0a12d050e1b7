import NotifCLI
import NotifModel

/// The options that choose what a list shows and in which order, read alike by notif-group and
/// notif-show: `--sort`, `--order`, the list's limit (notif-group's `--item-limit` of each
/// group, notif-show's `--limit` of the view) and `--last-seen`, each with the same usage
/// errors; and `--all-pushes`, in notif-summarize too.
public enum ListingOptions {
  /// `--all-pushes`: keep the records the device does not list (`DeviceListing`), which the
  /// tools leave out by default, as the note `NotListed` says.
  public static let allPushes = "--all-pushes"

  /// Whether `--all-pushes` was given.
  public static func allPushes(_ scanned: ScannedArguments) -> Bool {
    scanned.has("all-pushes")
  }

  /// `--sort time|relevance`; nil when not given.
  public static func ranking(_ scanned: ScannedArguments) throws(UsageError) -> Ranking? {
    guard let sort = scanned.last("sort") else { return nil }
    guard let chosen = Ranking(rawValue: sort) else {
      throw UsageError("--sort: '\(sort)' is not time or relevance")
    }
    return chosen
  }

  /// `--order feed|chat`, the order of the list; nil when not given.
  public static func order(_ scanned: ScannedArguments) throws(UsageError) -> ListOrder? {
    guard let order = scanned.last("order") else { return nil }
    guard let chosen = ListOrder(rawValue: order) else {
      throw UsageError("--order: '\(order)' is not feed or chat")
    }
    return chosen
  }

  /// `--NAME N` (`--limit`, `--item-limit`), a whole number from 1 to `FieldLimits.largest`
  /// (what `grouping.limit` holds); nil when not given.
  public static func limit(_ scanned: ScannedArguments, option name: String) throws(UsageError)
    -> Int?
  {
    guard let limit = scanned.last(name) else { return nil }
    return try FieldLimits.option(name, limit, in: FieldLimits.positive)
  }

  /// `--last-seen TIME` (RFC 3339 or `@epoch`): only records created after it are new; nil
  /// when not given.
  public static func lastSeen(_ scanned: ScannedArguments) throws(UsageError) -> Timestamp? {
    guard let text = scanned.last("last-seen") else { return nil }
    do {
      return try Timestamp(argument: text)
    } catch {
      throw UsageError("--last-seen: \(error.message)")
    }
  }
}
