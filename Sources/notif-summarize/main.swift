import NotifJSON
import NotifModel

// notif-summarize reads group objects (notif-group's output: one JSON object per group, NDJSON)
// from its file operands or standard input and writes each back, compact, with "summary" and
// "hidden_summary" added: the text iOS shows under a notification group, built from the
// categories' summary formats (--categories), localized through .stringsdict, .strings and
// .xcstrings files (--strings), with CLDR plural rules and list patterns embedded for every
// locale (NotifLocalization, which notif-digest shares). It keeps one group object and its tape
// in memory at a time, plus every format parsed once at start. FoundationEssentials comes in
// only through NotifLocalization's StringsDictFile.swift, for PropertyListDecoder (.stringsdict
// files are property lists, XML or binary); the group path is NotifModel bytes.

exit(SummarizeCommand.main().rawValue)
