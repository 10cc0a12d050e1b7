import NotifJSON
import NotifModel

/// Why a sweep took a record out of a store; written as the archive entry's `removed_reason`.
public enum RemovalReason: String, Sendable, CaseIterable {
  /// Past its time to live, or past its own `expires_at`, `stale_at` or `dismiss_at`.
  case expired
  /// Read, and past its time to live once read (`read_ttl`).
  case readExpired = "read-expired"
  /// Beyond the newest N of its group (`keep`).
  case overCap = "over-cap"
  /// Replaced by a newer record of the same app with the same `collapse_id`.
  case collapsed
  /// Deleted on request (`notif-mark --delete`).
  case deleted
  /// A token the push service said is gone (`notif-responses --prune`).
  case pruned
}

/// The archive's line format: the removed record with `removed_at` and `removed_reason` added.
public enum ArchiveEntry {
  /// Appends the archive line of a removed record, with its newline, to `out`.
  ///
  /// `record` is the record's JSON object text as it was read (no surrounding white space);
  /// its bytes are kept and the two keys go in before the final `}`:
  /// `{"id":"a",...,"payload":{}}` becomes
  /// `{"id":"a",...,"payload":{},"removed_at":"2026-11-22T09:00:00Z","removed_reason":"expired"}`.
  public static func write(
    record: UnsafeRawBufferPointer, isEmptyObject: Bool, removedAt: Timestamp,
    reason: RemovalReason, into out: inout ByteBuffer
  ) {
    out.append(UnsafeRawBufferPointer(rebasing: record[0..<record.count - 1]))
    out.append(isEmptyObject ? "\"removed_at\":\"" : ",\"removed_at\":\"")
    removedAt.write(into: &out)
    out.append("\",\"removed_reason\":\"")
    out.append(utf8: reason.rawValue)
    out.append("\"}\n")
  }
}
