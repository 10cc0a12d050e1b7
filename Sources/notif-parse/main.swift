import NotifJSON
import NotifModel

// notif-parse reads push messages (APNs payloads, FCM, Web Push, Amazon SNS and Expo messages;
// NDJSON, whole JSON files such as Xcode's .apns, or concatenated JSON texts) from its file
// operands or standard input, checks each the way its push service and the device or browser
// would (notif-rules(7)), and writes one notification record per accepted message as NDJSON
// (notif(5)); an Expo request, an array of messages, is one record per message.
// It keeps one JSON text and its tape in memory at a time (bounded by --max-record-bytes); with
// --lint, also one 8-byte hash per event seen, to find repeats. A regular file larger than
// 128 KiB is read in chunks of 128 KiB cut after line feeds, which --jobs worker threads turn
// into records while the next are read; a fixed ring of 2 x jobs + 1 chunks and their output
// is in memory then, and results are written in input order, so the output is the same as from
// one thread. The model does its own JSON, time and I/O, and the threads are POSIX threads;
// FoundationEssentials comes in only through NotifLocalization, whose StringsDictFile.swift
// reads the .stringsdict files of --strings with PropertyListDecoder (property lists, XML or
// binary), for the plural check of --categories.

exit(ParseCommand.main().rawValue)
