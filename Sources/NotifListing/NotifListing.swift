// NotifListing: the order notifications are listed in, and the group objects they are listed
// from. Users: notif-group (which record leads a group, the order of items and groups),
// notif-summarize (the members of the group objects it reads) and notif-show (the feed and
// chat views, their --limit, the stacks it draws): one ranking, so that a list shows what a
// group leads with, and one way to find a group object's members.
//
// What is here: `Ranking` (by time, then relevance, then input order; or by relevance first)
// and the `SortKey` it compares; `TopList`, the first N of a stream in a bounded heap; and
// `GroupObjectMembers`, the members of a group object found by their `GroupField` keys, the
// others ignored. No Foundation, no state: pure functions of their arguments.
