import NotifCLI
import NotifJSON
import NotifModel
import NotifPush

/// Which rules of notif-rules(7) a run checks: `--select` and `--ignore`, and the `select`
/// and `ignore` of the configuration file (`.notif-parse.json`), as ruff's `--select` and
/// `--ignore` and ShellCheck's `--include` and `--exclude` choose their checks.
///
/// A rule is named by its id or by its code, which stands for every rule with that code
/// (`Rule.named`). A rule not checked gives no finding, so it rejects nothing. The rules of
/// reading a text (the book's "Any message": JSON syntax, UTF-8, duplicate keys, nesting,
/// size, an object) are always checked: without them there is no message to check, so
/// ignoring one is an error and a `select` list need not name them.
struct RuleSelection: Sendable, Equatable {
  /// Whether each rule is checked, by `Rule.rawValue`.
  private var checked: [Bool]
  /// Whether every rule is checked: then the findings need no look.
  private(set) var checksAll = true

  /// Every rule.
  init() {
    checked = Array(repeating: true, count: Rule.allCases.count)
  }

  /// The rules of `select` (nil: every rule) and those of reading a text, less those of
  /// `ignore`.
  init(select: [Rule]?, ignore: [Rule]) {
    checked = Array(repeating: select == nil, count: Rule.allCases.count)
    for rule in select ?? [] { checked[Int(rule.rawValue)] = true }
    // Without `select` every rule is checked already: `reading` is looked up only when needed.
    if select != nil { for rule in Self.reading { checked[Int(rule.rawValue)] = true } }
    for rule in ignore { checked[Int(rule.rawValue)] = false }
    checksAll = !checked.contains(false)
  }

  /// Whether `rule` is checked.
  func checks(_ rule: Rule) -> Bool { checked[Int(rule.rawValue)] }

  /// `findings` less those of rules not checked.
  func filter(_ findings: inout [Finding]) {
    guard !checksAll else { return }
    findings.removeAll { !checks($0.rule) }
  }

  /// The rules of reading a text, which every run checks.
  static let reading = Rule.allCases.filter { $0.entry.format == "Any message" }

  /// What is wrong with `name` as a rule to select or ignore, or nil: it names no rule (with
  /// the nearest ids), or, `ignoring`, a rule of reading a text.
  static func problem(with name: String, ignoring: Bool) -> String? {
    let rules = Rule.named(name)
    let shown = Diagnostic.visible(name)
    guard !rules.isEmpty else {
      let near = Rule.nearest(to: name).map(\.id)
      return "no rule or code '\(shown)' in notif-rules(7)"
        + (near.isEmpty ? "" : "; the nearest: " + near.joined(separator: ", "))
    }
    if ignoring, let rule = rules.first(where: { reading.contains($0) }) {
      return "'\(shown)' cannot be ignored: \(rule.id) is a rule of reading the text, without"
        + " which there is no message to check"
    }
    return nil
  }

  /// The rules an option's values name: each value a list separated by commas, as
  /// `--select apns-badge,BadSound`.
  ///
  /// - Throws: `UsageError` for a name that is no rule or code, or an ignored rule of reading.
  static func rules(_ values: [String], option: String) throws(UsageError) -> [Rule] {
    var rules: [Rule] = []
    for value in values {
      for part in value.split(separator: ",", omittingEmptySubsequences: false) {
        let name = String(part)
        if let problem = problem(with: name, ignoring: option == "ignore") {
          throw UsageError("--\(option): \(problem)")
        }
        rules += Rule.named(name)
      }
    }
    return rules
  }
}

/// notif-parse's configuration file, `.notif-parse.json`: one JSON object whose `select` and
/// `ignore` are arrays of rule ids or codes, as `--select` and `--ignore` take them. The run
/// reads the one `--config` names, else the first found in the current folder and the folders
/// above it, unless `--no-config`; the command line's `--select` replaces the file's, and its
/// `--ignore` adds to the file's.
struct ParseConfigFile: Sendable, Equatable {
  /// The name looked for.
  static let name = ".notif-parse.json"
  /// The code of a file that is JSON but not a configuration.
  static let code = "BadConfig"

  /// `select`, nil when the file has none.
  var select: [Rule]?
  /// `ignore`.
  var ignore: [Rule] = []

  /// No file: every rule.
  init() {}

  /// The file `name` in `directory` (an absolute path) or the nearest folder above it, if
  /// there is one that is a file.
  static func discover(from directory: String) -> String? {
    var folder = Substring(directory)
    while folder.count > 1 && folder.hasSuffix("/") { folder = folder.dropLast() }
    while true {
      // String + String: `Substring + String` is the generic `+` of RangeReplaceableCollection, whose
      // witness lookup scans every conformance in the binary: a fifth of the start-up.
      let path = String(folder) + (folder.hasSuffix("/") ? "" : "/") + name
      var status = stat()
      if stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG { return path }
      guard folder != "/", let slash = folder.lastIndex(of: "/") else { return nil }
      folder = slash == folder.startIndex ? "/" : folder[..<slash]
    }
  }

  /// The current folder, where the search starts; nil if it cannot be named.
  static func currentFolder() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Reads the file at `path` with the loader of every configuration file.
  static func load(_ path: String) throws(ConfigFileError) -> ParseConfigFile {
    try ConfigFile.load(path, as: "a notif-parse configuration", code: code) {
      view throws(ConfigFile.Rejection) in try ParseConfigFile(view)
    }.value
  }

  private init(_ view: JSONView) throws(ConfigFile.Rejection) {
    var failure: ConfigFile.Rejection?
    view.forEachMember(of: 0) { key, value in
      guard failure == nil else { return }
      do throws(ConfigFile.Rejection) {
        switch view.string(key) {
        case "select": select = try Self.rules(view, value, "select", ignoring: false)
        case "ignore": ignore = try Self.rules(view, value, "ignore", ignoring: true)
        default:
          throw ConfigFile.Rejection(
            offset: Int(view.tokens[key].start),
            message: "unknown key '\(Diagnostic.visible(view.string(key)))': a notif-parse"
              + " configuration has select and ignore")
        }
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  private static func rules(
    _ view: JSONView, _ array: Int, _ key: String, ignoring: Bool
  ) throws(ConfigFile.Rejection) -> [Rule] {
    guard view.kind(array) == .array else {
      throw ConfigFile.Rejection(
        offset: Int(view.tokens[array].start),
        message: "'\(key)' is \(view.kind(array).phrase), not an array of rule ids or codes")
    }
    var rules: [Rule] = []
    var failure: ConfigFile.Rejection?
    view.forEachElement(of: array) { element in
      guard failure == nil else { return }
      let at = Int(view.tokens[element].start)
      guard view.kind(element) == .string else {
        failure = ConfigFile.Rejection(
          offset: at, message: "an item of '\(key)' is \(view.kind(element).phrase), not a rule")
        return
      }
      let name = view.string(element)
      if let problem = RuleSelection.problem(with: name, ignoring: ignoring) {
        failure = ConfigFile.Rejection(offset: at, message: "'\(key)': \(problem)")
        return
      }
      rules += Rule.named(name)
    }
    if let failure { throw failure }
    return rules
  }
}
