// NotifModel: the model every notif tool imports. Users: notif-parse, notif-group,
// notif-summarize, notif-expire, notif-mark, notif-show and notif-digest; every file here is
// used by at least three.
//
// What is here: the record's fields and their order, and the group and digest objects' keys
// (`RecordField.swift`), the range of every count and weight in them (`FieldLimits.swift`);
// instants and lengths of time (`Time.swift`); diagnostics and exit
// statuses; the option scanner and the tool skeleton (`Options.swift`, `CommandLineTool.swift`
// with `ToolCommand`, whose `main()` each main.swift calls, `InputFile.swift`,
// `ToolEnvironment.swift`); the one loader of JSON configuration files (`ConfigFile.swift`:
// the policy, the category registry of NotifCategories, `.xcstrings`). It is pure:
// `ToolEnvironment.current()`, called once by `main()`, is the one place that reads the
// arguments, the environment and the clocks; nothing else here reads them or standard input
// on its own, prints (it writes only through the writers a tool hands it), or exits.
