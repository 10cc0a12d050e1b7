// NotifJSON: the byte-level engine every notif tool runs on.
// Users: notif-parse, notif-group, notif-summarize, notif-expire, notif-mark, notif-responses,
// notif-show, notif-digest.
// Each imports it, directly and through every library module above it.
//
// What is here: reading input in large blocks (`RecordReader` for JSON texts in any layout,
// `LineReader` for lines kept byte for byte; both can say when the next read from a pipe would
// wait, `InputReadiness.swift`, so that filters write what is ready first), the one read of a
// whole file with a limit (`readWholeFile`: configuration files, time zones, icons), the strict
// RFC 8259 parser and its flat tape (`JSONParser`, `JSONTape`), canonical output
// (`JSONWriter`, `JSONEscapes`, `ByteBuffer`), the checked writer over write(2)
// (`OutputWriter`), the one-line system error (`SystemError`), MurmurHash3's finalizer
// (record ids, interning), the C library re-exported (`Platform.swift`), and the one thread
// pool (`WorkerPool`: POSIX threads, each with its own state, doing jobs in order), used by
// notif-parse, notif-group and notif-show (`--jobs`, chunks); `FileChunks` cuts a file into
// pieces after line feeds for such a pool and takes the results in input order, and
// `OrderedJobs` hands batches to one and takes them back in order (the sweeps of notif-expire
// and notif-mark, notif-group's writing of its group objects).
// `ReadAhead` runs one filler of batches (reading and parsing) on a thread of its own, ahead of
// the thread that takes them in order (notif-digest).
// The parser finds the bytes of strings it must look at with a vector pass (`JSONScan`, over
// the C target CNotifSIMD), or byte by byte. The hot loops that match keys compare raw bytes
// (`RawBytes`) with keys laid out in memory of their own (`PackedKeys`): the parser's expected
// keys, the record field lookup, the group object's members, the push readers' key tables.
// Nothing here knows what a notification is: no record fields, no times, no diagnostics'
// wording. It never reads the clock or standard input on its own, never prints and never
// exits; of the environment it reads only `NOTIF_JSON_SCALAR`, once (`JSONScan.default`): a
// switch for checking the reader, which every tool must honor without being told.
