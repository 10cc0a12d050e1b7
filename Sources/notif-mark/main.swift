import NotifJSON
import NotifModel

// notif-mark reads notification records (NDJSON, notif(5)) from its file operands or standard
// input, or in place from a store file (--store, under the store's flock), and marks the
// selected records read, unread or seen, or deletes them. It writes every line it does not
// change byte for byte; a changed line keeps every byte but the values it sets (read_at,
// seen_at); a deleted record goes to the archive with removed_at and removed_reason. It reads
// each line once and keeps one line and its tape in memory, plus the ids of --id and
// --ids-from. FoundationEssentials is not needed: the model does its own JSON, time and I/O.

exit(MarkCommand.main().rawValue)
