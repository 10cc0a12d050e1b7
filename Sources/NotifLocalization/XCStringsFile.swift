import NotifJSON
import NotifModel

/// Reads an Xcode string catalog (`.xcstrings`, JSON) with NotifModel's `ConfigFile`, for one
/// locale: each key's localization for the first language of the locale's fallback chain that
/// the catalog has. A localization is a `stringUnit` (its `value`), `variations.plural` (one
/// `stringUnit` per plural category, chosen by the count), or a `stringUnit` whose value names
/// `substitutions` (`%#@name@`), each with `variations.plural` whose values say `%arg` for the
/// substituted number. Keys with other variations only (`device`) are skipped.
enum XCStringsFile {
  static func load(_ path: String, locale: CLDRLocale) throws(StringsError)
    -> [String: LocalizedEntry]
  {
    let loaded: (value: [String: LocalizedEntry], file: ConfigFile)
    do {
      loaded = try ConfigFile.load(path, as: "a string catalog", code: "BadStrings") {
        view throws(Problem) in try entries(view, locale: locale, file: path)
      }
    } catch {
      throw StringsError(error)
    }
    var result = loaded.value
    for (key, entry) in result {
      guard let offset = entry.line else { continue }
      let at = loaded.file.position(of: offset)
      result[key]?.line = at.line
      result[key]?.column = at.column
    }
    return result
  }

  typealias Problem = ConfigFile.Rejection

  private static func entries(_ view: JSONView, locale: CLDRLocale, file: String)
    throws(Problem) -> [String: LocalizedEntry]
  {
    func at(_ index: Int) -> Int { Int(view.tokens[index].start) }
    guard let strings = view.member(0, "strings"), view.kind(strings) == .object else {
      throw Problem(offset: 0, message: "a string catalog needs a 'strings' object")
    }
    var result: [String: LocalizedEntry] = [:]
    try view.forEachMember(of: strings) { keyIndex, value throws(Problem) in
      let key = view.string(keyIndex)
      guard view.kind(value) == .object else {
        throw Problem(offset: at(value), message: "string '\(key)' must be an object")
      }
      guard let localizations = view.member(value, "localizations") else { return }
      guard view.kind(localizations) == .object else {
        throw Problem(
          offset: at(localizations), message: "'localizations' of '\(key)' must be an object")
      }
      var byLanguage: [String: Int] = [:]
      view.forEachMember(of: localizations) { language, localization in
        if let canonical = CLDRLocale.canonical(view.string(language)) {
          byLanguage[canonical] = localization
        }
      }
      guard let language = locale.chain.first(where: { byLanguage[$0] != nil }),
        let localization = byLanguage[language]
      else { return }
      if var entry = try self.entry(view, localization, key: key) {
        entry.file = file
        // The byte offset for now; `load` turns it into a line and column.
        entry.line = at(localization)
        result[key] = entry
      }
    }
    return result
  }

  private static func entry(_ view: JSONView, _ localization: Int, key: String) throws(Problem)
    -> LocalizedEntry?
  {
    func at(_ index: Int) -> Int { Int(view.tokens[index].start) }
    guard view.kind(localization) == .object else {
      throw Problem(
        offset: at(localization), message: "a localization of '\(key)' must be an object")
    }
    if let variations = view.member(localization, "variations") {
      guard view.kind(variations) == .object else {
        throw Problem(offset: at(variations), message: "'variations' of '\(key)' must be an object")
      }
      guard let plural = view.member(variations, "plural") else { return nil }
      let variants = try pluralVariants(view, plural, key: key, argument: nil)
      return LocalizedEntry(
        format: "%#@plural@", variables: ["plural": variants], file: "", line: nil)
    }
    guard let unit = view.member(localization, "stringUnit") else {
      throw Problem(
        offset: at(localization), message: "a localization of '\(key)' has no 'stringUnit'")
    }
    let format = try value(view, unit, key: key)
    var entry = LocalizedEntry(format: format, file: "", line: nil)
    if let substitutions = view.member(localization, "substitutions") {
      guard view.kind(substitutions) == .object else {
        throw Problem(
          offset: at(substitutions), message: "'substitutions' of '\(key)' must be an object")
      }
      try view.forEachMember(of: substitutions) { nameIndex, substitution throws(Problem) in
        let name = view.string(nameIndex)
        guard view.kind(substitution) == .object else {
          throw Problem(
            offset: at(substitution),
            message: "substitution '\(name)' of '\(key)' must be an object")
        }
        if let argNum = view.member(substitution, "argNum") {
          guard view.integer(argNum) == 1 else {
            throw Problem(
              offset: at(argNum),
              message:
                "substitution '\(name)' of '\(key)': argNum must be 1, the count (argument 2 is the list)"
            )
          }
        }
        var specifier = "lld"
        if let given = view.member(substitution, "formatSpecifier") {
          guard let text = view.stringValue(given) else {
            throw Problem(
              offset: at(given), message: "'formatSpecifier' of '\(name)' must be a string")
          }
          specifier = text
        }
        guard let variations = view.member(substitution, "variations"),
          let plural = view.member(variations, "plural")
        else {
          throw Problem(
            offset: at(substitution),
            message: "substitution '\(name)' of '\(key)' has no 'variations.plural'")
        }
        entry.variables[name] = try pluralVariants(
          view, plural, key: key, argument: "%" + specifier)
      }
    }
    return entry
  }

  private static func pluralVariants(
    _ view: JSONView, _ plural: Int, key: String, argument: String?
  ) throws(Problem) -> [PluralCategory: String] {
    func at(_ index: Int) -> Int { Int(view.tokens[index].start) }
    guard view.kind(plural) == .object else {
      throw Problem(offset: at(plural), message: "'plural' of '\(key)' must be an object")
    }
    var variants: [PluralCategory: String] = [:]
    try view.forEachMember(of: plural) { categoryIndex, variant throws(Problem) in
      let name = view.string(categoryIndex)
      guard let category = PluralCategory(rawValue: name) else {
        throw Problem(
          offset: at(categoryIndex),
          message:
            "unknown plural category '\(name)' in '\(key)': use zero, one, two, few, many or other"
        )
      }
      guard let unit = view.member(variant, "stringUnit") else {
        throw Problem(
          offset: at(variant), message: "plural variant '\(name)' of '\(key)' has no 'stringUnit'"
        )
      }
      var text = try value(view, unit, key: key)
      if let argument { text = text.replacingArg(with: argument) }
      variants[category] = text
    }
    guard variants[.other] != nil else {
      throw Problem(offset: at(plural), message: "'plural' of '\(key)' has no 'other' variant")
    }
    return variants
  }

  private static func value(_ view: JSONView, _ unit: Int, key: String) throws(Problem) -> String {
    guard view.kind(unit) == .object, let value = view.member(unit, "value"),
      let text = view.stringValue(value)
    else {
      throw Problem(
        offset: Int(view.tokens[unit].start),
        message: "a 'stringUnit' of '\(key)' needs a string 'value'")
    }
    return text
  }
}

extension String {
  /// The text with every `%arg` (a string catalog's substituted number) replaced.
  fileprivate func replacingArg(with directive: String) -> String {
    var out = ""
    var rest = Substring(self)
    while let percent = rest.firstIndex(of: "%") {
      out += rest[..<percent]
      let after = rest[percent...]
      if after.hasPrefix("%%") {
        out += "%%"
        rest = after.dropFirst(2)
      } else if after.hasPrefix("%arg") {
        out += directive
        rest = after.dropFirst(4)
      } else {
        out += "%"
        rest = after.dropFirst()
      }
    }
    return out + rest
  }
}
