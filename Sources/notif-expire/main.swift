import NotifJSON
import NotifModel

// notif-expire reads notification records (NDJSON, notif(5)) from its file operands or standard
// input, or in place from a store file (--store, under the store's flock), and removes the
// records a policy file says have expired, that are over a "keep the newest N" cap, or that a
// newer record with the same collapse_id replaces; kept lines go out byte for byte, removed ones
// to an archive with removed_at and removed_reason. Every pass over the input (the survey that
// finds which records collapse and, with `keep`, the one that finds which are over a cap, then
// the sweep) hands batches of 512 kB of lines to two worker threads (POSIX threads) and takes
// their results in input order: the survey's tables are filled from per-batch lists by the main
// thread, the sweep's output written. The collapse survey logs each collapse record's key and
// time (256 kB in memory, the rest in an unlinked temporary file), and the newest of each
// repeated key is found in that log, not in a second pass. Memory holds a few batches (with
// their per-line lists), 4 bytes per distinct collapse key, 32 per key that repeats, and per
// over-cap group (with `keep N`, N marks per group while counting). A pipe is copied to an
// unlinked temporary file so that it can be read once per pass.
// FoundationEssentials is not needed: the model does its own JSON, time and I/O.

exit(ExpireCommand.main().rawValue)
