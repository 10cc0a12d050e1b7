// NotifListing: what the device lists, the order it is listed in, the records and group objects
// it is listed from, and the options that choose a list.
// Users: notif-group, notif-summarize, notif-show, notif-digest.
// notif-group: which records it groups, which record leads a group, the order and the limit
// of items and groups; notif-summarize: the group objects it leaves out, the members of those
// it reads; notif-show: what it shows, the feed and chat views, their --limit, the stacks it
// draws; notif-digest: the records it leaves out of digests. One rule of what a person sees,
// so that the four leave out the same pushes, one ranking, so that a list shows what a group
// leads with, one reading of the fields it ranks by, and one way to find a group object's
// members.
//
// What is here: `DeviceListing`, the rule of notif(5)'s "What the device lists" (`Unlisted`,
// why a record is not listed; `ListingFields`, what the rule reads; `UnlistedTally`, what a run
// left out, and its `NotListed` note; `GroupListing`, whether a group object lists nothing);
// `Ranking` (by time, then relevance, then input order; or by relevance first), the `SortKey`
// it compares and `ListOrder` (feed or chat); `TopList`, the first N of a stream of `Ranked`
// values in a bounded heap, or all of them; `RecordFieldReader`, which reads and checks
// `created_at`, `relevance` and the text fields of records, with `RecordProblem` for what it
// rejects; `ListingOptions` (`--sort`, `--order`, `--limit` and `--item-limit`, `--last-seen`,
// `--all-pushes`); `GroupObjectMembers`, the members of a group object found by their
// `GroupField` keys, the others ignored, and `GroupObjectReader`, the one check of a group
// object's members, a table of rules (notif-summarize, notif-show, notif-group --merge);
// `DigestObjectReader`, the same for a digest object (notif-show, notif-digest --merge); `ZoneRules`, a time zone of the tz database read
// from its TZif file, for `--tz` (notif-digest's windows, notif-show's times); `ChunkFindings` and `ChunkedFileTally`, what the
// workers of notif-group's and notif-show's `--jobs` found in each chunk of a file, taken in
// input order. No Foundation and nothing global: a list or a reader
// holds its own state. What runs per record (ranking, the list, the reader) is inlinable, so
// that notif-group's hot path is compiled as if it were its own code.
