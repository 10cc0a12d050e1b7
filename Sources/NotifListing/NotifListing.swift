// NotifListing: the order notifications are listed in. Users: notif-group (which record leads
// a group, the order of items and groups) and notif-show (the order of the feed and chat
// views): one ranking, so that a list shows what a group leads with.
//
// What is here: `Ranking` (by time, then relevance, then input order; or by relevance first)
// and the `SortKey` it compares. No Foundation, no state: pure functions of their arguments.
