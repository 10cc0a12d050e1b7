// NotifSweep: in-place sweeps of a store file. Users: notif-expire and notif-mark, and no
// other tool.
//
// What is here: the driver of a sweep (`SweepDriver`: as a filter or in place, the order of
// the steps, where the lines go, progress and exit status; each tool supplies its passes over
// the input and its decision per record as `SweepPasses`), the store's lock (`StoreLock`), the
// journal, archive and quarantine append and atomic replacement (`StoreRewrite`), a held store
// with its recovery (`StoreSession`), stream mode's archive and quarantine file
// (`StreamArchive`), the archive entry (`ArchiveEntry`) and the quarantine entry
// (`QuarantineEntry`), the options both sweeps read (`SweepOptions`), the progress line
// (`ProgressMeter`, `ProgressLine`) and the parser of one store line that finds each record
// field in place (`RecordLineParser`). The safety rules live here once (notif-expire(1),
// "SAFETY").
