import NotifJSON
import NotifModel

// notif-group reads notification records (NDJSON, notif(5)) from its file operands or standard
// input and writes one group object per line (the "Group objects" of notif(5)): the records of
// one app and thread, as Notification Center stacks them, with their counts, the leading
// (newest or most relevant) record, the statistics notif-summarize needs and the items in feed
// or chat order. With --merge it reads group objects instead and merges those of the same group.
// Memory: every record kept (O(records)) by default; with --no-items only per-group state (key,
// counters, the leading record's bytes, the category and summary-arg tables: O(groups)); with
// --limit N at most N records per group. FoundationEssentials is not needed.

exit(GroupCommand.main().rawValue)
