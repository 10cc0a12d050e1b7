// NotifPush: push messages read and checked the way each push service reads them.
// Users: notif-parse, notif-responses.
// notif-parse: every message it reads becomes a record through here; notif-responses: the
// request behind a response that asks to fix the payload, checked again to say which rule
// would have caught it. No other tool.
//
// What is here: the driver and the state every reader fills (`MessageReader`, with what fills
// the fields an input does not give, `InputDefaults`, and `Platform` for `--platform`), one
// reader per format (`APNsReader`, `FCMReader`, `FCMLegacyReader`, `WebPushReader`,
// `SNSReader`, `ExpoReader`) and the rules they share (`MessageReader+Rules.swift`), the
// format a text is told by (`PushFormat`, `ForeignFormat`), what a reader finds wrong
// (`Finding`, placed by byte offset; the caller turns it into a diagnostic), the record's
// fields before they are written (`RecordValues`, `FieldValue`, `PushSource`), the key lookup
// every reader runs (`KeyTable`) and the hash behind record ids (`StableHasher`). Each rule is
// a row of the rule book, rules/rules.tsv (notif-rules(7)). Nothing here reads a file, the
// clock or the environment, prints or exits: a reader is handed a parsed text and gives back
// a record and findings.
