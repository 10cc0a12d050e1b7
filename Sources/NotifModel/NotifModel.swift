// NotifModel: the model every notif tool imports. Users: notif-parse, notif-group,
// notif-summarize, notif-expire and notif-mark; every file here is used by at least three.
//
// What is here: the record's fields and their order, and the group object's keys
// (`RecordField.swift`); instants and lengths of time (`Time.swift`); diagnostics and exit
// statuses; the option scanner and the tool skeleton (`Options.swift`, `CommandLineTool.swift`,
// `InputFile.swift`, `SystemClock.swift`); the one loader of JSON configuration files
// (`ConfigFile.swift`: the policy, the category registry of NotifCategories, `.xcstrings`). It
// is pure: it never reads the clock, the environment or standard input on its own, never
// prints (it writes only through the writers a tool hands it), never exits.
