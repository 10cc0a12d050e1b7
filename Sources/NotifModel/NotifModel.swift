// NotifModel: the model every notif tool imports.
// Users: notif-parse, notif-group, notif-summarize, notif-expire, notif-mark, notif-responses,
// notif-show, notif-digest.
// Every file here is used by at least three.
//
// What is here: the record's fields and their order, and the group and digest objects' keys
// (`RecordField.swift`), the range of every count and weight in them (`FieldLimits.swift`);
// instants and lengths of time (`Time.swift`); diagnostics and exit statuses; the one loader of
// JSON configuration files (`ConfigFile.swift`: the policy, the category registry of
// NotifCategories, `.xcstrings`). It is pure: it reads no clock, argument, environment
// variable or standard input, prints nothing (it writes only through the writers a tool hands
// it), and never exits. The command-line layer the tools stand on is NotifCLI.
