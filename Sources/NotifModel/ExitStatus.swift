/// The exit statuses every notif tool shares.
public enum ExitStatus: Int32, Sendable, Comparable {
  /// Success; "nothing expired" and "no groups" are success too.
  case success = 0
  /// At least one record was rejected: reported, skipped, and the rest processed.
  case rejected = 1
  /// A usage error, unreadable input, or a failed write.
  case failure = 2
  /// A sweep could not take its lock because another process holds it.
  case locked = 75

  public static func < (a: ExitStatus, b: ExitStatus) -> Bool { a.rank < b.rank }

  private var rank: Int {
    switch self {
    case .success: return 0
    case .rejected: return 1
    case .locked: return 2
    case .failure: return 3
    }
  }
}
