// NotifCLI: the command-line layer every notif tool stands on.
// Users: notif-parse, notif-group, notif-summarize, notif-expire, notif-mark, notif-responses,
// notif-show, notif-digest.
// So do the library modules that read options or files for them (NotifSweep, NotifListing,
// NotifLocalization).
//
// What is here: the option scanner and the usage error (`Options.swift`), the tool skeleton
// (`CommandLineTool.swift` with `ToolCommand`, whose `main()` each main.swift calls), what a
// tool takes from its process (`ToolEnvironment.swift`: `current()`, called once by `main()`,
// is the one place that reads the arguments, the environment and the clocks), how every
// tool talks on standard error (`Reporter.swift`: diagnostics, `--quiet`, `--max-errors`,
// `--color`, and the progress line of `ProgressMeter.swift`), the file
// operands opened and read as every filter reads them (`InputFile.swift`, with the one
// `Compressed` error of a compressed input), and what stage of the pipeline a text a tool
// could not read comes from (`WrongStage.swift`: one `WrongStage` diagnostic per input, naming
// the stage to run). Nothing here prints but through the writers a tool hands it, and nothing
// exits.
