// NotifSweep: a store file's writers.
// Users: notif-parse, notif-expire, notif-mark, notif-responses, notif-digest.
// notif-expire, notif-mark and notif-digest sweep a store in place (notif-digest appends its
// digests where the others append their archive), notif-responses a token file (`--prune`),
// and notif-parse appends to one under its lock (`--store`, `StoreAppender`); no other tool.
//
// What is here: the driver of a sweep (`SweepDriver`: as a filter or in place, the order of
// the steps, where the lines go, progress and exit status; each tool supplies its passes over
// the input and its decision per record as `SweepPasses`), the store's lock (`StoreLock`), the
// journal, archive and quarantine append and atomic replacement (`StoreRewrite`), a held store
// with its recovery (`StoreSession`), locked appends by path (`StoreAppender`), stream mode's archive and quarantine file
// (`StreamArchive`), the archive entry (`ArchiveEntry`) and the quarantine entry
// (`QuarantineEntry`), the options both sweeps read (`SweepOptions`) and the parser of one store line that finds each record
// field in place (`RecordLineParser`). The safety rules live here once (notif-expire(1),
// "SAFETY").
