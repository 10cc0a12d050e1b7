/// What a sweep did with the lines it read (notif-expire, notif-mark, notif-digest --store,
/// notif-responses --prune), for the one line it reports at its end (`--verbose`, or standard
/// error a terminal): how many lines it kept (and changed), removed by reason, archived and
/// quarantined, what it wrote beside (notif-digest's digests), and how long it took.
public struct SweepTally: Sendable, Equatable {
  /// Lines kept, changed or not (blank lines and lines that are not records included).
  public var kept = 0
  /// Of the kept lines, those changed (`notif-mark`'s edits).
  public var changed = 0
  private static let reasons = RemovalReason.allCases
  /// Removed records, by `RemovalReason` (in the order of `RemovalReason.allCases`).
  public private(set) var removed = [Int](repeating: 0, count: RemovalReason.allCases.count)
  /// Lines moved to the quarantine file (or, in a dry run, that would be).
  public var quarantined = 0
  /// What the tool calls a changed line: `changed` (notif-mark), `digested` (notif-digest).
  public var changedWord = "changed"
  /// What the tool wrote beside the store, if it says (`digest`: the digests it appended),
  /// and how many.
  public var writtenWhat: String? = nil
  public var written = 0

  public init() {}

  /// Counts `count` records removed for `reason`.
  public mutating func remove(_ count: Int = 1, for reason: RemovalReason) {
    // From a list made once: `allCases` makes an array at each call, and this runs for every
    // record a sweep removes.
    if let index = Self.reasons.firstIndex(of: reason) { removed[index] += count }
  }

  /// Adds another tally's counts (a batch's).
  public mutating func add(_ other: SweepTally) {
    kept += other.kept
    changed += other.changed
    quarantined += other.quarantined
    written += other.written
    for index in removed.indices { removed[index] += other.removed[index] }
  }

  /// All the records removed.
  public var removedCount: Int { removed.reduce(0, +) }

  /// The report: `kept 1204 (12 changed), removed 37 (30 expired, 7 collapsed), archived 37,
  /// quarantined 1, in 0.21 s`, and `wrote 3 digests` where the tool says what it writes;
  /// parts with nothing to say are left out, but `kept` and `removed`. A dry run says what it
  /// would do: `would keep 1204, remove 37 (...)`.
  public func text(archived: Bool, seconds: Double, dryRun: Bool) -> String {
    let (keep, remove, archive, quarantine) =
      dryRun
      ? ("would keep", "remove", "archive", "quarantine")
      : ("kept", "removed", "archived", "quarantined")
    var parts = ["\(keep) \(kept)" + (changed > 0 ? " (\(changed) \(changedWord))" : "")]
    let reasons = zip(RemovalReason.allCases, removed).filter { $0.1 > 0 }
      .map { "\($0.1) \($0.0.rawValue)" }
    parts.append(
      "\(remove) \(removedCount)"
        + (reasons.isEmpty ? "" : " (\(reasons.joined(separator: ", ")))"))
    if archived && removedCount > 0 { parts.append("\(archive) \(removedCount)") }
    if quarantined > 0 { parts.append("\(quarantine) \(quarantined)") }
    if let writtenWhat {
      let verb = dryRun ? "would write" : "wrote"
      parts.append("\(verb) \(written) \(writtenWhat)\(written == 1 ? "" : "s")")
    }
    parts.append("in \(Self.duration(seconds))")
    return parts.joined(separator: ", ")
  }

  /// A run's time as the end-of-run lines give it, to the hundredth: `0.21 s` (notif-parse
  /// `--store --verbose` too).
  public static func duration(_ seconds: Double) -> String {
    let hundredths = Int((max(seconds, 0) * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) s"
  }
}
