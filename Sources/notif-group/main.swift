import CNotifSystem
import NotifJSON
import NotifModel

// notif-group reads notification records (NDJSON, notif(5)) from its file operands or standard
// input and writes one group object per line (the "Group objects" of notif(5)): the records of
// one app and thread, as Notification Center stacks them, with their counts, the leading
// (newest or most relevant) record, the statistics notif-summarize needs and the items in feed
// or chat order. With --merge it reads group objects instead and merges those of the same group.
// Memory: every record kept (O(records)) by default; with --no-items only per-group state (key,
// counters, the leading record's bytes, the category and summary-arg tables: O(groups)); with
// --item-limit N at most N records per group. FoundationEssentials is not needed.

// A block of 1 MiB or more is mapped on its own and given back when freed. By default glibc
// raises that threshold to the size of each such block freed (up to 32 MiB), after which the
// tables that grow by doubling came from a heap and left their old room in it: 15 MB more at
// 850,724 groups with -j1, 29 MB with -j2 (a heap for each worker). Below 1 MiB the chunks are
// reused from the heap: at 128 KiB, mapping and unmapping them made -j2 16% slower.
_ = notif_map_blocks_from(GroupRun.mappedBlockSize)
exit(GroupCommand.main().rawValue)
