// Fuzz target `strings`: notif-summarize's readers of an app's localized strings, the old-style
// `.strings` file (UTF-8 or UTF-16) and the `.stringsdict` property list, each given the input
// as a file.
//
// Property: a file that is refused is refused with one line that names it, and a line number
// of at least 1 where there is one.

func fuzzStrings(_ input: UnsafeRawBufferPointer) {
  for (name, load) in [
    ("Localizable.strings", StringsFile.load),
    ("Localizable.stringsdict", StringsDictFile.load),
  ] {
    let path = scratchPath(name, holding: input)
    do {
      _ = try load(path)
    } catch {
      require(error.file == path, "\(name): the error names '\(error.file)'")
      require(error.line.map { $0 >= 1 } ?? true, "\(name): line \(String(describing: error.line))")
      checkMessage(error.message, of: name)
    }
  }
}
