import NotifJSON
import NotifModel

/// One localized string: a format and the variants of the plural variables it names, with
/// where it was found.
struct LocalizedEntry: Sendable, Equatable {
  var format: String
  var variables: [String: [PluralCategory: String]] = [:]
  var file: String
  var line: Int?
}

/// A strings file that cannot be used: the file, the line where known, one lowercase line.
struct StringsError: Error, Equatable {
  var file: String
  var line: Int?
  var message: String
}

/// The localized strings of the `--strings` sources for one locale, by key (a category's
/// format string, or one of the `NOTIF_*` keys). Earlier sources win over later ones.
struct LocalizedStrings: Sendable {
  private(set) var entries: [String: LocalizedEntry] = [:]
  /// The files read, in order, for messages.
  private(set) var files: [String] = []

  init() {}

  subscript(key: String) -> LocalizedEntry? { entries[key] }

  /// Loads every source for `locale`: a `.stringsdict` or `.strings` file (used when it is not
  /// inside a `<lang>.lproj` folder, or when that folder's language is on the locale's fallback
  /// chain), an `.xcstrings` catalog (its localization for the first language of the chain it
  /// has), or a folder holding `<lang>.lproj/*.stringsdict`, `<lang>.lproj/*.strings` and
  /// `*.xcstrings`.
  ///
  /// - Throws: `StringsError` for an unreadable or malformed source.
  init(paths: [String], locale: CLDRLocale) throws(StringsError) {
    for path in paths {
      var info = stat()
      guard stat(path, &info) == 0 else {
        throw StringsError(
          file: path, line: nil,
          message: SystemError(path: path, doing: "cannot open", errno: errno).message)
      }
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
  }

  /// The CLDR identifier of the `<lang>.lproj` folder a file is in, if it is in one.
  static func lprojLanguage(of path: String) -> String? {
    let parts = path.split(separator: "/")
    guard parts.count >= 2, parts[parts.count - 2].hasSuffix(".lproj") else { return nil }
    return CLDRLocale.canonical(String(parts[parts.count - 2].dropLast(6)))
  }

  /// The names in a folder, sorted, without `.` and `..`.
  static func list(_ path: String) throws(StringsError) -> [String] {
    guard let dir = opendir(path) else {
      throw StringsError(
        file: path, line: nil,
        message: SystemError(path: path, doing: "cannot open", errno: errno).message)
    }
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

  /// The bytes of a file.
  static func readFile(_ path: String) throws(StringsError) -> [UInt8] {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw StringsError(
        file: path, line: nil,
        message: SystemError(path: path, doing: "cannot open", errno: errno).message)
    }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        bytes += chunk[0..<count]
      } else if count == 0 {
        return bytes
      } else if errno != EINTR {
        throw StringsError(
          file: path, line: nil,
          message: SystemError(path: path, doing: "read error", errno: errno).message)
      }
    }
  }
}
