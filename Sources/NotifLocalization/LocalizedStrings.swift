import NotifJSON
import NotifModel

/// One localized string: a format and the variants of the plural variables it names, with
/// where it was found (a column only in a string catalog, JSON read by `ConfigFile`).
public struct LocalizedEntry: Sendable, Equatable {
  /// The format.
  public var format: String
  /// The variants of each plural variable the format names.
  public var variables: [String: [PluralCategory: String]] = [:]
  /// The file it was found in.
  public var file: String
  /// The line, where known.
  public var line: Int?
  /// The column, where known.
  public var column: Int? = nil
}

/// A strings file that cannot be used: the file, the line (and column) where known, one
/// lowercase line, and the code: `BadStrings`, or that of a file that cannot be read
/// (`Unreadable`) or is not strict JSON (`InvalidJSON`...), as `ConfigFile` gives it.
public struct StringsError: Error, Equatable {
  /// The file.
  public var file: String
  /// The line, where known.
  public var line: Int?
  /// One lowercase line.
  public var message: String
  /// The column, where known.
  public var column: Int? = nil
  /// The diagnostic code.
  public var code = "BadStrings"

  /// The error as a diagnostic.
  public var diagnostic: Diagnostic {
    Diagnostic(.error, code, message, file: file, line: line, column: column)
  }

  /// The error of a file `ConfigFile` read or loaded.
  init(_ error: ConfigFileError) {
    let diagnostic = error.diagnostic
    self.init(
      file: diagnostic.file, line: diagnostic.line, message: diagnostic.message,
      column: diagnostic.column, code: diagnostic.code)
  }

  init(
    file: String, line: Int?, message: String, column: Int? = nil, code: String = "BadStrings"
  ) {
    self.file = file
    self.line = line
    self.message = message
    self.column = column
    self.code = code
  }

  /// A file or folder that cannot be opened, worded and coded as `ConfigFile` does.
  static func unreadable(_ path: String, errno code: Int32) -> StringsError {
    StringsError(
      file: path, line: nil,
      message: SystemError(path: path, doing: "cannot open", errno: code).message,
      code: ConfigFile.unreadable)
  }
}

/// The localized strings of the `--strings` sources for one locale, by key (a category's
/// format string, or one of the `NOTIF_*` keys). Earlier sources win over later ones.
public struct LocalizedStrings: Sendable {
  /// The entries, by key.
  public private(set) var entries: [String: LocalizedEntry] = [:]
  /// The files read, in order, for messages.
  public private(set) var files: [String] = []
  /// What is worth a warning: a folder with no strings file in it (`NoStringsFiles`).
  public private(set) var warnings: [Diagnostic] = []

  /// The code of the warning about a `--strings` folder that holds no strings file.
  public static let noStringsFiles = "NoStringsFiles"

  /// No strings.
  public init() {}

  /// The entry of `key`, if a strings file has one.
  public subscript(key: String) -> LocalizedEntry? { entries[key] }

  /// Loads every source for `locale`: a `.stringsdict` or `.strings` file (used when it is not
  /// inside a `<lang>.lproj` folder, or when that folder's language is on the locale's fallback
  /// chain), an `.xcstrings` catalog (its localization for the first language of the chain it
  /// has), or a folder holding `<lang>.lproj/*.stringsdict`, `<lang>.lproj/*.strings` and
  /// `*.xcstrings`.
  ///
  /// - Throws: `StringsError` for an unreadable or malformed source.
  public init(paths: [String], locale: CLDRLocale) throws(StringsError) {
    for path in paths {
      var info = stat()
      guard stat(path, &info) == 0 else { throw StringsError.unreadable(path, errno: errno) }
      if (info.st_mode & S_IFMT) == S_IFDIR {
        try loadFolder(path, locale: locale)
      } else {
        try loadFile(path, locale: locale, fromFolder: false)
      }
    }
  }

  private mutating func add(_ loaded: [String: LocalizedEntry], file: String) {
    files.append(file)
    for (key, entry) in loaded where entries[key] == nil {
      entries[key] = entry
    }
  }

  private mutating func loadFile(_ path: String, locale: CLDRLocale, fromFolder: Bool)
    throws(StringsError)
  {
    if path.hasSuffix(".stringsdict") {
      if let language = Self.lprojLanguage(of: path) {
        guard locale.chain.contains(language) else { return }
      }
      add(try StringsDictFile.load(path), file: path)
    } else if path.hasSuffix(".strings") {
      if let language = Self.lprojLanguage(of: path) {
        guard locale.chain.contains(language) else { return }
      }
      add(try StringsFile.load(path), file: path)
    } else if path.hasSuffix(".xcstrings") {
      add(try XCStringsFile.load(path, locale: locale), file: path)
    } else if !fromFolder {
      throw StringsError(
        file: path, line: nil,
        message:
          "not a .stringsdict, .strings or .xcstrings file, nor a folder of <lang>.lproj folders")
    }
  }

  private mutating func loadFolder(_ path: String, locale: CLDRLocale) throws(StringsError) {
    let names = try Self.list(path)
    var lprojs: [String: String] = [:]
    for name in names where name.hasSuffix(".lproj") {
      if let language = CLDRLocale.canonical(String(name.dropLast(6))) {
        lprojs[language] = name
      }
    }
    if let language = locale.chain.first(where: { lprojs[$0] != nil }),
      let folder = lprojs[language]
    {
      let lproj = path + "/" + folder
      let names = try Self.list(lproj)
      // A .stringsdict entry wins over a .strings entry with the same key, as on iOS.
      for name in names where name.hasSuffix(".stringsdict") {
        add(try StringsDictFile.load(lproj + "/" + name), file: lproj + "/" + name)
      }
      for name in names where name.hasSuffix(".strings") {
        add(try StringsFile.load(lproj + "/" + name), file: lproj + "/" + name)
      }
    }
    for name in names where name.hasSuffix(".xcstrings") {
      try loadFile(path + "/" + name, locale: locale, fromFolder: true)
    }
    // A folder of another language's strings is quietly not used for this locale (as iOS
    // does); a folder with no strings at all is most likely not the one meant, and so is a
    // `<lang>.lproj` folder given itself (its files are read when given one by one).
    let isStrings = { (name: String) in
      name.hasSuffix(".strings") || name.hasSuffix(".stringsdict")
    }
    let holdsStrings =
      names.contains { $0.hasSuffix(".xcstrings") }
      || lprojs.values.contains { folder in
        (try? Self.list(path + "/" + folder))?.contains(where: isStrings) ?? false
      }
    if !holdsStrings {
      let message =
        names.contains(where: isStrings)
        ? "no strings files read from this folder: its .strings and .stringsdict files are read only in a <lang>.lproj folder inside it; give the files, or the folder above"
        : "no strings files in this folder: no .xcstrings file, and no <lang>.lproj folder with a .strings or .stringsdict file"
      warnings.append(
        Diagnostic(.warning, Self.noStringsFiles, message, file: path))
    }
  }

  /// The CLDR identifier of the `<lang>.lproj` folder a file is in, if it is in one.
  static func lprojLanguage(of path: String) -> String? {
    let parts = path.split(separator: "/")
    guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else { return nil }
    return CLDRLocale.canonical(String(parts[parts.count - 2].dropLast(6)))
  }

  /// The names in a folder, sorted, without `.` and `..`.
  static func list(_ path: String) throws(StringsError) -> [String] {
    guard let dir = opendir(path) else { throw StringsError.unreadable(path, errno: errno) }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: entry.pointee.d_name) {
        $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  /// The bytes of a file, read as `ConfigFile` reads every configuration file.
  static func readFile(_ path: String) throws(StringsError) -> [UInt8] {
    do {
      return try ConfigFile(path: path).bytes
    } catch {
      throw StringsError(error)
    }
  }
}
