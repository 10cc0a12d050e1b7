import NotifJSON
import NotifModel

// notif-digest reads notification records (NDJSON, notif(5)) from its file operands or standard
// input, or in place from a store file (--store, under the store's flock), and writes one
// digest object per key and window (the "Digest objects" of notif(5)): many records of one
// person or thread become one message, with their count, distinct actors, first or last
// records, a summary text from the category registry (with NotifLocalization's CLDR plural
// rules, list patterns and strings files, which notif-summarize shares) and a digest_id that
// its members decide. In place it marks every record that went into a digest (digested_at),
// under the store's lock and journal, so that runs from cron digest each record exactly once.
// With --merge it reads digest objects instead and merges them. Memory: per key, its open
// digests (their counts, actors, categories and the items --item-limit keeps) and with --lookback
// the time of its latest record; in place also one bit per line of the store; with --merge
// every digest object read. A second thread reads and parses the lines ahead
// (DigestLines.swift, over NotifJSON's ReadAhead) while the first digests them in order. The
// time zones of --at and --tz are read from the tz database's TZif files (RFC 8536,
// /usr/share/zoneinfo) by our own reader (ZoneRules.swift):
// FoundationEssentials' TimeZone knows no zone by name on Linux, and Foundation's, which does
// through ICU, makes a static binary of 62 MB. FoundationEssentials comes in only through
// NotifLocalization, for PropertyListDecoder (.stringsdict files).

exit(DigestCommand.main().rawValue)
